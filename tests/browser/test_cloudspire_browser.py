"""Cloudspire in real JupyterLab: a build (construct a spire by clicking a well, then upgrade
it) and an onslaught step (a march, then an attack by clicking the unit and its target) played by
clicking the board, with Python checking every step."""

from __future__ import annotations

SETUP = '''import random

import aloftnb

match = aloftnb.new_match("cloudspire", players=2, seed=1)
rng = random.Random(1)


def advance_to(kind):
    """Play random steps until a seat may play an action of `kind`."""
    for _ in range(5000):
        if match.is_over:
            return False
        actions = match.legal_actions()
        if not match.is_chance and any(a.type == kind for a in actions):
            return True
        match.play(rng.choice([a for a in actions if a.type != kind] or actions))
    return False


def first(kind):
    return next(a for a in match.legal_actions() if a.type == kind).to_dict()


advance_to("construct")
board = match.board()
board'''
BOARD = ".aloft-board >> nth=0"


def test_a_build_and_an_onslaught_step_by_clicking(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("cloudspire-board.ipynb", [SETUP]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    assert kernel.eval_json("match.phase") == "build"

    # Construct: click the well on the map, the spire's button, then the order its starting
    # upgrades are stacked in (not the catalogue's: the second order offered).
    construct = kernel.eval_json("first('construct')")
    at, spire = construct["at"], construct["spire"]
    order = kernel.eval_json(f"match.rules.start_orders['{spire}'][1]")
    # Map clicks wait for `.legal`: Python may have played the last step before this view redrew.
    board.locator(f'[data-key="hex:{at}"].legal').click()
    board.locator(f'.aloft-menu [data-menu-key="construct {spire}"]').click()
    board.locator(f'.aloft-menu [data-menu-key="upgrades {order} (bottom first)"]').click()
    wait_until(lambda: kernel.eval_json("[sp.hex for sp in match.state.spires]") == [at],
               what="the spire to be constructed")
    assert kernel.eval_json("match.state.spires[0].upgrades") == order
    # The board redraws just after Python has played it: wait for the drawn spire.
    wait_until(lambda: "upgrades bottom first" in board.locator(
        f'[data-key="hex:{at}"]').get_attribute("aria-label"), what="the spire drawn")

    # Upgrade: click the spire, then the attack button.
    assert kernel.eval_json("advance_to('upgrade')")
    upgrade = kernel.eval_json("next(a for a in match.legal_actions() if a.type == 'upgrade' "
                               "and a.kind == 'A').to_dict()")
    where = upgrade["at"]
    before = kernel.eval_json(f"next(sp.upgrades for sp in match.state.spires "
                              f"if sp.hex == '{where}')")
    board.locator(f'[data-key="hex:{where}"].legal').click()
    board.locator('.aloft-menu [data-menu-key="attack upgrade"]').click()
    wait_until(lambda: kernel.eval_json(f"next(sp.upgrades for sp in match.state.spires "
                                        f"if sp.hex == '{where}')") == before + "A",
               what="the attack upgrade on top of the spire")

    # Onslaught: the march is a button.
    assert kernel.eval_json("advance_to('march')")
    assert kernel.eval_json("[match.phase, match.state.stage]") == ["onslaught", "move"]
    board.locator('.aloft-menu [data-menu-key="march"]').click()
    wait_until(lambda: kernel.eval_json("match.history[-1].action is not None and "
                                        "match.history[-1].action.type == 'march' or "
                                        "match.state.marched"), what="the march")
    assert kernel.eval_json("any(e.action is not None and e.action.type == 'march' "
                            "for e in match.history[-3:])")

    # Attack: click the unit, then its target.
    assert kernel.eval_json("advance_to('attack')")
    attack = kernel.eval_json("first('attack')")
    steps = kernel.eval_json("len(match.history)")
    unit, target = attack["at"], attack["target"]
    board.locator(f'[data-key="hex:{unit}"].legal').click()
    board.locator(f'[data-key="hex:{target}"].legal').click()
    wait_until(lambda: kernel.eval_json("len(match.history)") > steps, what="the attack")
    assert kernel.eval_json(f"match.history[{steps}].action.to_dict()") == attack
    board.locator(".aloft-log").get_by_text(f"attacks {target}").first.wait_for()


def test_the_map_zooms_from_its_menu_and_the_keyboard(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("cloudspire-zoom.ipynb", [SETUP]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    drawing = board.locator(".aloft-svg > svg")
    drawing.wait_for(state="visible")
    kernel = lab.kernel()
    width = float(drawing.get_attribute("width"))
    board.locator('select[data-control="zoom"]').select_option(label="200%")
    wait_until(lambda: kernel.eval_json("board.zoom") == 2.0, what="the zoom menu")
    wait_until(lambda: float(drawing.get_attribute("width")) > 1.5 * width,
               what="the wider drawing")
    assert board.locator(".aloft-svg").evaluate("(el) => el.scrollWidth > el.clientWidth")
    # From the keyboard: - on a focused hex zooms out a step, + zooms back in.
    steps = kernel.eval_json("len(match.history)")
    board.locator('[data-key="hex:0,0"]').focus()
    lab.page.keyboard.press("-")
    wait_until(lambda: kernel.eval_json("board.zoom") == 1.5, what="the - key")
    lab.page.keyboard.press("+")
    wait_until(lambda: kernel.eval_json("board.zoom") == 2.0, what="the + key")
    assert kernel.eval_json("len(match.history)") == steps  # display settings are not moves
