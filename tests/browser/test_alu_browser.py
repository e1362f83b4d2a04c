"""ALU in real JupyterLab: play by clicking and by keyboard alone, read every tile's spoken label,
get refusals explained, and play against the greedy bot in the committed notebook."""

from __future__ import annotations

import statistics

BOARD = ".aloft-board"

HOT_SEAT = """
import aloftnb
match = aloftnb.new_match("alu", players=2, seed=1)
board = match.board()
board
"""


def key(name: str, board: str = BOARD) -> str:
    return f'{board} [data-key="{name}"]'


def labelled(text: str) -> str:
    """JS predicate: some board element's aria-label is exactly `text`."""
    return (f"(root) => [...(root || document).querySelectorAll('{BOARD} [aria-label]')]"
            f".some((n) => n.getAttribute('aria-label') === {text!r})")


def focused_key(page) -> str | None:
    return page.evaluate("() => document.activeElement && "
                         "document.activeElement.getAttribute('data-key')")


def test_play_by_clicks_and_by_keyboard_alone(lab, lab_server, browser_report, wait_until):
    lab.open(lab_server.write_notebook("scratch/alu_hot_seat.ipynb", [HOT_SEAT]))
    lab.run_all()
    lab.output(f"{BOARD} svg")
    page = lab.page
    kernel = lab.kernel()

    # Every tile is a button with a spoken label. The grid is one Tab stop (the first legal
    # tile); arrow keys move inside it.
    tiles = page.eval_on_selector_all(
        f"{BOARD} [data-key^='tile:']",
        "(nodes) => nodes.map((n) => [n.getAttribute('data-key'), n.getAttribute('aria-label'), "
        "n.getAttribute('role'), n.getAttribute('tabindex')])")
    assert len(tiles) == 40
    assert all(role == "button" and label.startswith(f"tile {k[5:]}: ") for k, label, role, _ in tiles)
    focusable = {k for k, _, _, tabindex in tiles if tabindex == "0"}
    assert focusable == {"tile:a1"}
    tab_stops = page.eval_on_selector_all(f"{BOARD} .aloft-svg [tabindex='0']",
                                          "(nodes) => nodes.map((n) => n.getAttribute('data-key'))")
    assert tab_stops == ["tile:a1", "do:camp"]  # one per region: the grid, the action bar

    # 1. Mouse: a tile, then its action button under the grid.
    page.locator(key("tile:a1")).click()
    assert "selected" in page.locator(key("tile:a1")).get_attribute("class")
    assert "legal" in page.locator(key("do:camp")).get_attribute("class")
    assert "legal" not in page.locator(key("do:raid")).get_attribute("class")
    timings = [lab.timed_click(key("do:camp"), watch=BOARD,
                               until=labelled("tile a1: circle camp, controlled by circle"))]
    wait_until(lambda: kernel.eval_json("match.position") == 1, what="Python to see the camp")
    assert kernel.eval_json("match.state.to_dict()['board']['a1']") == "circle"

    # 2. Keyboard: Enter on a tile, one Tab to its first legal action, Enter plays it.
    page.locator(key("tile:b1")).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused_key(page) == "do:camp"
    page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("match.position") == 2, what="the keyboard camp")
    page.wait_for_function(labelled("tile b1: circle camp, controlled by circle"))
    status = page.locator(f"{BOARD} .aloft-status")
    assert status.get_attribute("aria-live") == "polite"
    wait_until(lambda: "Square (seat 1) to act, 3 actions left" in status.text_content(),
               what="the spoken status")

    # 3. Square, keyboard only: arrow keys move between legal tiles, Space picks one.
    page.locator(key("tile:h1")).focus()
    page.keyboard.press("ArrowDown")
    assert focused_key(page) == "tile:h2"
    page.keyboard.press(" ")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("match.position") == 3, what="square's camp on h2")
    assert kernel.eval_json("match.state.to_dict()['board']['h2']") == "square"
    # The board has redrawn step 3 before the next keys (h3 was legal before it too).
    page.wait_for_function(labelled("tile h2: square camp, controlled by square"))

    # 4. A raid: Tab to the action bar (its first legal action), an arrow key to the raid.
    page.wait_for_function(f"() => document.querySelector('{key('tile:h3')}')"
                           ".classList.contains('legal')")
    page.locator(key("tile:h3")).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused_key(page) == "do:camp"
    page.keyboard.press("ArrowRight")
    assert focused_key(page) == "do:raid"
    page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("match.position") == 4, what="square's raid")
    square = kernel.eval_json("match.state.to_dict()['players']['square']")
    assert square["food"] == {"available": 0, "not_usable_yet": 1, "spent": 0}
    page.wait_for_function(labelled("tile h3: raided, not controlled"))
    wait_until(lambda: "square raided h3" in status.text_content(), what="the raid announced")

    # 5. Refusals are explained and change nothing: a tile out of reach, an action that does not fit.
    page.locator(key("tile:c3")).click(force=True)  # aria-disabled, but a click still asks why
    message = page.locator(f"{BOARD} .aloft-message.error")
    message.wait_for(state="visible")
    wait_until(lambda: "c3 is not orthogonally next to any of square's camps" in
               message.text_content(), what="the refusal")
    page.locator(key("tile:g2")).click()
    # A new selection clears the refusal about c3 at once (it no longer applies).
    assert page.locator(f"{BOARD} .aloft-message").text_content() == ""
    page.locator(key("do:attack")).click(force=True)
    wait_until(lambda: "attack needs a tile holding circle's camp; g2 holds nothing" in
               message.text_content(), what="the attack refusal")
    assert kernel.eval_json("match.position") == 4
    # The refused second click keeps the first choice: g2 stays selected.
    assert "selected" in page.locator(key("tile:g2")).get_attribute("class")

    # 6. Escape drops a half-made choice.
    page.locator(key("tile:g2")).focus()
    page.keyboard.press("Escape")
    assert "selected" not in page.locator(key("tile:g2")).get_attribute("class")
    browser_report(f"ALU board: click -> Python -> redraw {statistics.median(timings):.0f} ms")


def test_the_notebook_plays_against_the_greedy_bot(lab, wait_until):
    lab.open("notebooks/alu.ipynb")
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    first = page.locator(BOARD).first
    first.locator(".aloft-svg > svg").wait_for(state="visible")
    assert kernel.eval_json("match.position") == 0

    first.locator('[data-key="tile:d1"]').click()
    first.locator('[data-key="do:camp"]').click()
    wait_until(lambda: kernel.eval_json("match.position") == 1, what="circle's first camp")
    first.locator('[data-key="tile:e1"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    # Circle's two actions end the turn; the greedy bot then plays square's three by itself.
    wait_until(lambda: kernel.eval_json("match.position") == 5, timeout=30,
               what="the bot's turn")
    assert kernel.eval_json("[entry.seat for entry in match.history]") == [0, 0, 1, 1, 1]
    assert kernel.eval_json("match.current_player") == 0
    wait_until(lambda: "Circle (seat 0) to act, 3 actions left" in
               first.locator(".aloft-status").text_content(), what="the board to follow")

    # The teaching board shows the bordering figure after the notebook's attack on g3.
    teaching = page.locator(BOARD).nth(1)
    assert teaching.locator('[data-key="tile:g1"]').get_attribute("aria-label") == (
        "tile g1: empty, not controlled")
    assert teaching.locator('[data-key="tile:g3"]').get_attribute("aria-label") == (
        "tile g3: raided, not controlled")
    lab.run_cell("teach.undo(2)")
    page.wait_for_function(
        f"() => document.querySelectorAll('{BOARD}')[1].querySelector('[data-key=\"tile:g1\"]')"
        ".getAttribute('aria-label') === 'tile g1: empty, controlled by square'")
