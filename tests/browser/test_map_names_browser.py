"""The hex maps for a screen reader, in real JupyterLab (issue 24, items 2 to 4): ships say where
they are, a playable element's name starts with what activating it does, the map's unplayable
hexes are pictures (not disabled buttons), and chance draws and the bots' moves are told in a
polite live region."""

from __future__ import annotations

import re

# rulings=1: this test walks the explore-by-space flow (an empty space names the explore it
# plays); under rulings 2 an empty space is named by the place_hex that follows the draw.
COMMODORES = '''import aloftnb
match = aloftnb.new_match("commodores", players=3, seed=11, rulings=1)
while match.phase == "setup":
    match.play(match.legal_actions()[0])
pools = match.state.to_dict()["pools"]
pools[0] = {"canvas": 3, "breath": 1, "glass": 1, "wood": 3, "metal": 0}
match.edit(pools=pools)


def move_to_explore():
    """A corner the ship can reach from which it can explore."""
    for action in match.legal_actions():
        if action.type == "move":
            trial = match.fork()
            trial.play(action)
            if any(a.type == "explore" for a in trial.legal_actions()):
                return action.to


def end_turn():
    """Seat 0 ends its ship and its turn (from Python, as a person at another screen would)."""
    while match.current_player == 0:
        actions = match.legal_actions()
        match.play(next((a for a in actions if a.type.startswith("end")), actions[0]))


board = match.board(bots={1: "random", 2: "random"}, bot_delay=0.05, autoplay=False)
board'''
CLOUDSPIRE = '''import random

import aloftnb

match = aloftnb.new_match("cloudspire", players=2, seed=1)
rng = random.Random(1)
for _ in range(5000):
    actions = match.legal_actions()
    if not match.is_chance and any(a.type == "construct" for a in actions):
        break
    match.play(rng.choice([a for a in actions if a.type != "construct"] or actions))
board = match.board()
board'''
BOARD = ".aloft-board >> nth=0"
MAP = ".aloft-svg svg[data-part=map]"

NAMES_JS = """(box) => [...box.querySelectorAll('[data-key]')].map((n) => ({
  key: n.getAttribute('data-key'), role: n.getAttribute('role'),
  label: n.getAttribute('aria-label'), disabled: n.getAttribute('aria-disabled'),
  legal: n.classList.contains('legal'), selected: n.classList.contains('selected')}))"""


def names(board) -> dict[str, dict]:
    return {n["key"]: n for n in board.locator(MAP).evaluate(NAMES_JS)}


def buttons_in_tree(board) -> list[str]:
    """The names of the buttons the accessibility tree shows in the map."""
    found = []
    for line in board.locator(MAP).aria_snapshot().splitlines():
        item = line.strip()[2:]
        if item.startswith("'"):  # YAML quoting: 'button "seat 0''s ship": "1"'
            item = item[1:item.rindex("'")].replace("''", "'")
        named = re.match(r'button "(.*?)"(?::|$)', item)
        if named:
            found.append(named.group(1))
    return found


def test_commodores_ships_actions_and_news_reach_a_screen_reader(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("commodores-names.ipynb", [COMMODORES]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator(MAP).wait_for(state="visible")
    kernel = lab.kernel()
    assert kernel.eval_json("[match.current_player, match.phase]") == [0, "forage"]

    # Item 2: every ship says where it is, the corner and the hexes around it.
    found = names(board)
    ships = kernel.eval_json("[s['ship'] + ' ' + s['corner'] for s in "
                             "match.state.to_dict()['ships']]")
    for ship in ships:
        key, corner = ship.split(" ")
        label = found[f"ship:{key}"]["label"]
        assert f", at corner {corner} between " in label, label
    assert len(ships) == 3

    # Item 3: in the forage step nothing on the map is playable: no button, no disabled button.
    assert all(n["role"] == "img" and n["disabled"] is None for n in found.values()), found
    assert buttons_in_tree(board) == []
    assert "img \"" in board.locator(MAP).aria_snapshot()

    board.locator('.aloft-menu [data-menu-key="forage on 2"]').click()
    wait_until(lambda: kernel.eval_json("match.phase") == "ships", what="the forage")
    # The own ship is a button that says it acts; the others' ships are pictures.
    wait_until(lambda: names(board)["ship:0:1"]["legal"], what="the ship to be playable")
    found = names(board)
    assert found["ship:0:1"]["role"] == "button"
    assert found["ship:0:1"]["label"].startswith("ship 1 acts, seat 0's ship 1, "), found
    assert found["ship:1:1"]["role"] == "img" and found["ship:1:1"]["disabled"] is None
    assert any(b.startswith("ship 1 acts, seat 0") for b in buttons_in_tree(board))

    board.locator('[data-key="ship:0:1"]').click()
    wait_until(lambda: kernel.eval_json("match.state.active") == 0, what="the ship to be picked")
    moves = kernel.eval_json("sorted(a.to for a in match.legal_actions() if a.type == 'move')")
    wait_until(lambda: names(board)[f"corner:{moves[0]}"]["legal"], what="move targets")
    found = names(board)
    for corner in moves:
        label = found[f"corner:{corner}"]["label"]
        assert label.startswith(f"move ship 1 here, corner {corner}, empty, "), label
    unplayable = [n for n in found.values() if not n["legal"] and not n["selected"]]
    assert len(unplayable) > 10
    assert all(n["role"] == "img" and n["disabled"] is None for n in unplayable)
    tree_buttons = buttons_in_tree(board)
    assert len(tree_buttons) == sum(n["legal"] or n["selected"] for n in found.values())
    assert any(b.startswith(f"move ship 1 here, corner {moves[0]}") for b in tree_buttons)
    # A name shown with its action comes back alone once the element is no longer playable.
    corner = kernel.eval_json("move_to_explore()")
    assert corner, "seed 11 gives the starter a corner from which to explore"
    other = next(c for c in moves if c != corner)
    own = kernel.eval_json(f"__import__('re').search(r'data-key=\"corner:{other}\" "
                           "aria-label=\"([^\"]*)\"', board.svg).group(1)")
    assert found[f"corner:{other}"]["label"].endswith(", " + own.replace("&#x27;", "'"))

    # Move by keys, to a corner next to empty sky: the empty sky there says it explores.
    board.locator(f'[data-key="corner:{corner}"]').focus()
    lab.page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("match.state.to_dict()['ships'][0]['corner']") == corner,
               what="the move")
    spaces = kernel.eval_json("sorted({a.space for a in match.legal_actions() "
                              "if a.type == 'explore'})")
    wait_until(lambda: names(board)[f"space:{spaces[0]}"]["legal"], what="explore targets")
    found = names(board)
    assert found[f"corner:{other}"]["label"] == own.replace("&#x27;", "'")  # restored
    label = found[f"space:{spaces[0]}"]["label"]
    assert re.match(rf"explore {spaces[0]}, paying 1 .*, empty sky at {spaces[0]}$", label), label
    assert f"at corner {corner} between " in found["ship:0:1"]["label"]

    # Item 4: explore by keys; the chance draw that follows is told in the live region.
    news = board.locator(".aloft-news")
    assert news.get_attribute("aria-live") == "polite"
    assert news.text_content() == ""
    board.locator(f'[data-key="space:{spaces[0]}"]').focus()
    lab.page.keyboard.press("Enter")
    board.locator(".aloft-menu .aloft-choice").first.click()
    wait_until(lambda: "drew" in (news.text_content() or ""), what="the draw to be told")
    told = news.text_content()
    assert f"hex at {spaces[0]}" in told and "seat 0" not in told, told
    assert told == kernel.eval_json("board.news['text']")

    # The bots play their turns: each move and the new round are told, worded as the log.
    news.evaluate("""(box) => { window.toldNews = [];
      new MutationObserver(() => window.toldNews.push(box.textContent))
        .observe(box, { childList: true, characterData: true, subtree: true }); }""")
    kernel.execute("end_turn()")
    ended = kernel.eval_json("match.position")
    kernel.execute("board.control.autoplay = True\nboard.control.schedule()")
    wait_until(lambda: kernel.eval_json("match.current_player") == 0 or
               kernel.eval_json("match.round") > 1, timeout=60, what="the bots' turns")
    wait_until(lambda: "seat 2" in (news.text_content() or ""), timeout=30,
               what="a bot's move to be told")
    wait_until(lambda: news.text_content() == kernel.eval_json("board.news['text']"),
               what="the latest news in the live region")
    log = kernel.eval_json("[e.line_for(None) for e in match.history]")
    told = news.text_content()
    assert any(line.rstrip(".") in told for line in log if line.startswith("seat 2")), told
    heard = " ".join(lab.page.evaluate("window.toldNews"))
    bots = [line.rstrip(".") for line in log[ended:] if line.startswith(("seat 1", "seat 2"))]
    assert len(bots) >= 4 and all(line in heard for line in bots), (bots, heard)
    assert "Round 2" in heard


def test_commodores_drawn_hex_is_told_and_its_spaces_say_they_place_it(lab_server, lab,
                                                                        wait_until):
    """Rulings 2 (issue 19): exploring draws the hex first; the draw is told, and each space the
    hex may go names the placement it plays."""
    lab.open(lab_server.write_notebook("commodores-place.ipynb", [
        COMMODORES.replace(", rulings=1)", ")").replace("\nboard = match.board(", (
            "\nmatch.play({'type': 'forage', 'number': 2})"
            "\nmatch.play({'type': 'ship', 'captain': 1})"
            "\nmatch.play({'type': 'move', 'to': move_to_explore()})"
            "\nboard = match.board("))]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator(MAP).wait_for(state="visible")
    kernel = lab.kernel()
    assert kernel.eval_json("match.rules.rulings") >= 2  # the hex drawn first, then placed
    news = board.locator(".aloft-news")
    # No empty space plays anything before the draw: exploring is a choice of payment.
    wait_until(lambda: board.locator('.aloft-menu [data-menu-key^="explore"]').count() > 0,
               what="the explore choices")
    empty = [n for k, n in names(board).items() if k.startswith("space:")
             and (n["label"] or "").startswith("empty sky")]
    assert empty and not any(n["legal"] for n in empty)
    board.locator('.aloft-menu [data-menu-key^="explore"]').first.click()  # Explore, then
    board.locator('.aloft-menu .aloft-choice', has_text="explore, paying").first.click()  # pay
    wait_until(lambda: kernel.eval_json("match.state.step") == "place_hex", what="the draw")
    wait_until(lambda: "to place" in (news.text_content() or ""), what="the draw to be told")
    drawn = kernel.eval_json("match.state.to_dict()['drawn']")
    told = news.text_content()
    assert told.startswith("chance (ships): drew ") and "for seat 0 to place" in told, told
    spaces = kernel.eval_json("sorted(a.space for a in match.legal_actions())")
    wait_until(lambda: names(board)[f"space:{spaces[0]}"]["legal"], what="the placements")
    found = names(board)
    for space in spaces:
        label = found[f"space:{space}"]["label"]
        assert re.match(rf"place an? .+ hex at {space}, empty sky at {space}$", label), label
        assert found[f"space:{space}"]["role"] == "button"
    assert sum(n["legal"] for n in found.values()) == len(spaces)
    board.locator(f'[data-key="space:{spaces[0]}"]').focus()
    lab.page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("match.state.step") != "place_hex", what="the placement")
    placed = kernel.eval_json(f"match.state.to_dict()['hexes'].get('{spaces[0]}')")
    assert placed and placed["kind"] == drawn, (placed, drawn)


def test_cloudspire_wells_say_they_construct_and_other_hexes_are_pictures(lab_server, lab,
                                                                          wait_until):
    lab.open(lab_server.write_notebook("cloudspire-names.ipynb", [CLOUDSPIRE]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator(MAP).wait_for(state="visible")
    kernel = lab.kernel()
    wells = kernel.eval_json("sorted({a.at for a in match.legal_actions() "
                             "if a.type == 'construct'})")
    assert wells
    wait_until(lambda: names(board)[f"hex:{wells[0]}"]["legal"], what="the wells to be playable")
    found = names(board)
    for well in wells:
        label = found[f"hex:{well}"]["label"]
        assert re.match(rf"construct an? .+ on the well at {well}, ", label), label
        assert found[f"hex:{well}"]["role"] == "button"
    unplayable = [n for n in found.values() if not n["legal"]]
    assert len(unplayable) > 20
    assert all(n["role"] == "img" and n["disabled"] is None for n in unplayable)
    assert len(buttons_in_tree(board)) == sum(n["legal"] for n in found.values())
    # Arrow keys still walk over the pictures: every hex can be heard.
    start = board.locator(f'[data-key="hex:{wells[0]}"]')
    start.focus()
    visited = set()
    for key in ["ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowUp"]:
        lab.page.keyboard.press(key)
        visited.add(lab.page.evaluate("document.activeElement.getAttribute('data-key')"))
    assert any(found[k]["role"] == "img" for k in visited if k in found), visited
