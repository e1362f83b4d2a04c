"""Sky commodores in real JupyterLab: a whole turn played by clicking the board (forage, pick a
ship, move, explore and place the hex drawn, build, end the ship), with Python checking every
step. ALOFTNB_EXPLORE_SCREENSHOTS=<folder> saves the board mid-exploration at three widths."""

from __future__ import annotations

import os

SETUP = '''import aloftnb
match = aloftnb.new_match("commodores", players=3, seed=11)
while match.phase == "setup":
    match.play(match.legal_actions()[0])
pools = match.state.to_dict()["pools"]
pools[0] = {"canvas": 3, "breath": 1, "glass": 1, "wood": 3, "metal": 0}
match.edit(pools=pools)


def move_to_explore_and_build():
    """A corner the ship can reach from which it can both explore and build."""
    for action in match.legal_actions():
        if action.type == "move":
            trial = match.fork()
            trial.play(action)
            kinds = {a.type for a in trial.legal_actions()}
            if {"explore", "build"} <= kinds:
                return action.to


board = match.board()
board'''
BOARD = ".aloft-board >> nth=0"


def test_a_whole_turn_by_clicking(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("commodores-turn.ipynb", [SETUP]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    assert kernel.eval_json("[match.current_player, match.phase]") == [0, "forage"]

    # Forage: the number is a button on the board.
    board.locator('.aloft-menu [data-menu-key="forage on 2"]').click()
    wait_until(lambda: kernel.eval_json("match.phase") == "ships", what="the forage to be played")

    # Pick the starter on the map, then move it by clicking a corner.
    # Map clicks wait for `.legal`: Python may have played the last step before this view redrew.
    board.locator('[data-key="ship:0:1"].legal').click()
    wait_until(lambda: kernel.eval_json("match.state.active") == 0, what="the ship to be picked")
    corner = kernel.eval_json("move_to_explore_and_build()")
    assert corner, "seed 11 gives the starter a corner from which to explore and build"
    board.locator(f'[data-key="corner:{corner}"].legal').click()
    wait_until(lambda: kernel.eval_json("match.state.to_dict()['ships'][0]['corner']") == corner,
               what="the move")

    # Explore: the explore button, then the resource to pay. The top hex is drawn first
    # (rulings 2); then a click on an empty space next to the ship places it.
    hexes_before = kernel.eval_json("len(match.state.to_dict()['hexes'])")
    board.locator('.aloft-menu [data-menu-key="explore"]').click()
    board.locator('.aloft-menu .aloft-choice', has_text="paying 1 canvas").click()
    wait_until(lambda: kernel.eval_json("match.state.step") == "place_hex",
               what="the hex to be drawn and wait to be placed")
    spaces = kernel.eval_json("[a.space for a in match.legal_actions()]")
    assert spaces and kernel.eval_json(
        "sorted({a.type for a in match.legal_actions()})") == ["place_hex"]
    board.get_by_text("Drawn:").first.wait_for()  # the panel says what was drawn
    for space in spaces:  # every space the hex may go to is marked playable on the map
        board.locator(f'[data-key="space:{space}"].legal').wait_for()
    shots = os.environ.get("ALOFTNB_EXPLORE_SCREENSHOTS")  # a folder: opt-in
    if shots:
        for width in (800, 1024, 1400):
            lab.page.set_viewport_size({"width": width, "height": 900})
            lab.page.wait_for_timeout(600)
            board.evaluate("(el) => el.scrollIntoView({block: 'start'})")
            lab.page.wait_for_timeout(200)
            lab.page.screenshot(path=os.path.join(shots, f"commodores-place-hex-{width}.png"))
    board.locator(f'[data-key="space:{spaces[-1]}"].legal').click()
    wait_until(lambda: kernel.eval_json("len(match.state.to_dict()['hexes'])") == hexes_before + 1,
               what="the explored hex to be placed")
    wait_until(lambda: kernel.eval_json("match.state.step") == "ships",
               what="the number to be drawn")
    assert kernel.eval_json(f"match.state.to_dict()['hexes']['{spaces[-1]}']['kind']") == \
        kernel.eval_json("next(e.action.kind for e in reversed(match.history) "
                         "if e.kind == 'chance' and e.action.type == 'hex')")
    drawn = kernel.eval_json("next(str(e) for e in reversed(match.history) "
                             "if e.kind == 'chance' and 'hex' in str(e))")
    board.locator(".aloft-log").get_by_text(drawn.split(": ", 1)[-1][:30]).first.wait_for()

    # Build the basic ship: its button, then a free corner next to the builder.
    board.locator('.aloft-menu [data-menu-key="build a Sloop"]').click()
    at = kernel.eval_json("next(a.at for a in match.legal_actions() "
                          "if a.type == 'build' and a.ship == 'basic')")
    board.locator(f'[data-key="corner:{at}"].legal').click()
    wait_until(lambda: kernel.eval_json("len(match.state.ships)") == 4, what="the build")
    assert kernel.eval_json("[s.kind for s in match.state.ships if s.owner == 0]") == [
        "starter", "basic"]
    if os.environ.get("ALOFTNB_HEX_SCREENSHOT"):  # how docs/hex-board.png is made: opt-in
        lab.page.set_viewport_size({"width": 1400, "height": 1000})
        lab.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        lab.page.wait_for_timeout(500)
        board.locator(".aloft-log li.current").scroll_into_view_if_needed()  # after the resize
        board.scroll_into_view_if_needed()
        board.screenshot(path=os.environ["ALOFTNB_HEX_SCREENSHOT"])

    # End the ship: the new sloop cannot act this turn, so the turn passes to seat 1.
    board.locator('.aloft-menu [data-menu-key="end ship"]').click()
    wait_until(lambda: kernel.eval_json("match.current_player") == 1, what="the turn to pass")
    # The board redraws just after Python has played it: wait for the new status.
    wait_until(lambda: "Seat 1" in board.locator(".aloft-status").text_content(),
               what="the status to name seat 1")
    # The sloop was built with the second captaining card, and is drawn on the map.
    board.locator('[data-key="ship:0:2"]').wait_for()


def test_the_map_zooms_from_its_menu_and_the_keyboard_and_scrolls_to_pan(lab_server, lab,
                                                                          wait_until):
    lab.open(lab_server.write_notebook("commodores-zoom.ipynb", [SETUP]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    drawing = board.locator(".aloft-svg > svg")
    drawing.wait_for(state="visible")
    kernel = lab.kernel()
    steps = kernel.eval_json("len(match.history)")
    width = float(drawing.get_attribute("width"))
    board.locator('select[data-control="zoom"]').select_option(label="200%")
    wait_until(lambda: kernel.eval_json("board.zoom") == 2.0, what="the zoom menu")
    wait_until(lambda: float(drawing.get_attribute("width")) > 1.5 * width,
               what="the wider drawing")
    box = board.locator(".aloft-svg")
    assert box.evaluate("(el) => el.scrollWidth > el.clientWidth")  # the map pans by scrolling
    # From the keyboard: - on a focused map part zooms out a step, + zooms back in.
    board.locator('[data-key="ship:0:1"]').focus()
    lab.page.keyboard.press("-")
    wait_until(lambda: kernel.eval_json("board.zoom") == 1.5, what="the - key")
    zoom_menu = board.locator('select[data-control="zoom"] option:checked')
    wait_until(lambda: zoom_menu.text_content() == "150%", what="the menu showing 150%")
    # The redrawn map keeps the keyboard's place: the next key still reaches the board.
    wait_until(lambda: lab.page.evaluate(
        "() => document.activeElement && document.activeElement.getAttribute('data-key')")
        == "ship:0:1", what="the focus back on the redrawn ship")
    lab.page.keyboard.press("+")
    wait_until(lambda: kernel.eval_json("board.zoom") == 2.0, what="the + key")
    # Two presses faster than Python answers are two steps (each steps on from the one asked).
    lab.page.keyboard.press("-")
    lab.page.keyboard.press("-")
    wait_until(lambda: kernel.eval_json("board.zoom") == 1.0, what="two quick - keys")
    assert kernel.eval_json("len(match.history)") == steps  # display settings are not moves
