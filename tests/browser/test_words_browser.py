"""The hex boards' words in real JupyterLab: the buttons of steps name the catalogue's entries,
the hint follows the latest step chosen (the upgrades' order, not "choose the spire"), and the
announcer reads names, not ids."""

from __future__ import annotations

import os
from pathlib import Path

from test_cloudspire_browser import BOARD, SETUP

SHOTS = Path(os.environ.get("ALOFTNB_SHOTS", "/work/shots/words"))


def test_construct_steps_read_names_and_the_hint_follows_the_step(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("cloudspire-words.ipynb", [SETUP]))
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    construct = kernel.eval_json("first('construct')")
    at, spire = construct["at"], construct["spire"]
    name = kernel.eval_json(f"match.rules.catalogue.spires['{spire}'].name")
    orders = kernel.eval_json(f"list(match.rules.start_orders['{spire}'])")
    assert len(orders) > 1 and "_" in spire  # an id that must not be read out

    board.locator(f'[data-key="hex:{at}"]').click()
    button = board.locator(f'.aloft-menu [data-menu-key="construct {spire}"]')
    button.wait_for(state="visible")
    assert button.inner_text().startswith("construct ") and name in button.inner_text()
    assert spire not in button.inner_text()
    assert "choose the spire" in board.locator(".aloft-hint").inner_text()

    button.click()
    order_button = board.locator(f'.aloft-menu [data-menu-key="upgrades {orders[1]} '
                                 '(bottom first)"]')
    order_button.wait_for(state="visible")
    hint = board.locator(".aloft-hint").inner_text()
    assert "order of its starting upgrades" in hint, hint
    assert "choose the spire" not in hint
    announced = board.locator(".aloft-announce").text_content()
    assert name in announced and spire not in announced, announced
    words = order_button.inner_text()
    assert "attack" in words or "range" in words or "fortification" in words, words
    SHOTS.mkdir(parents=True, exist_ok=True)
    board.screenshot(path=str(SHOTS / "cloudspire-upgrade-order-step.png"))
