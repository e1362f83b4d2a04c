"""The board while the kernel is busy or gone, while the timeline pauses the bots, and the
designer's chance switch, in real JupyterLab."""

from __future__ import annotations

import os
from pathlib import Path

BOARD = ".aloft-board"

BALLOONS = """
import aloftnb
match = aloftnb.new_match("balloons", players=3, seed=7)
board = match.board()
board
"""

# A cell run as a person runs it (the notebook's own kernel busy with it), without waiting for
# it to end.
START_CELL_JS = """
async (code) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  const notebook = panel.content;
  notebook.activeCellIndex = notebook.widgets.length - 1;
  await app.commands.execute('notebook:insert-cell-below');
  notebook.activeCell.model.sharedModel.setSource(code);
  app.commands.execute('notebook:run-cell');
  return true;
}"""

# undefined once the kernel is gone (a deleted kernel takes its session with it)
KERNEL_STATUS_JS = ("() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel"
                    "?.status")


def key(name: str, board: str = BOARD) -> str:
    return f'{board} [data-key="{name}"]'


def shot(page, name: str) -> None:
    """A screenshot of the window, to look at, when ALOFTNB_SHOTS names a folder."""
    folder = os.environ.get("ALOFTNB_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def busy_until(flag: Path) -> str:
    """A cell's code that keeps the kernel busy until the test creates `flag` (at most 60 s):
    the test ends the cell when it has seen what it looks for, not after a guessed sleep."""
    return ("print('sleeping', flush=True)\nimport pathlib, time\n"
            f"flag, deadline = pathlib.Path({str(flag)!r}), time.monotonic() + 60\n"
            "while not flag.exists() and time.monotonic() < deadline:\n    time.sleep(0.05)")


def start_a_long_cell(page, flag: Path) -> None:
    """Run a cell that plays a move on the board's match, then keeps the notebook's kernel busy
    until `flag` exists; return once it runs (its output shows), not merely once it is queued.

    JupyterLab 4.6 may send widget messages to a kernel subshell, which answers even while a
    cell runs; but a comm's messages go to the shell that last sent on it, so after this cell
    changed the board they wait for the cell, as after Run All."""
    page.evaluate(START_CELL_JS, "match.play(match.legal_actions()[0])\n" + busy_until(flag))
    page.locator(".jp-OutputArea-output", has_text="sleeping").wait_for(timeout=30_000)
    assert page.evaluate(f"({KERNEL_STATUS_JS})()") == "busy"


def unpack_a_balloon(page, balloon: str, board=None) -> None:
    """Click a packed balloon (selected in the page), then a free truck: that sends the move."""
    board = board or page.locator(BOARD).first
    board.locator(f'[data-key="balloon:{balloon}"]').click()
    board.locator(".aloft-svg [data-key].legal[data-key^='truck:']").first.click()


def test_a_busy_kernel_says_the_move_waits_and_plays_it_when_the_cell_ends(lab, lab_server,
                                                                           tmp_path):
    path = lab_server.write_notebook("scratch/busy.ipynb", [BALLOONS])
    lab.open(path)
    lab.run_all()
    page = lab.page
    lab.output(f"{BOARD} svg")
    revision = page.locator(BOARD).get_attribute("data-revision")
    cell_may_end = tmp_path / "cell-may-end"
    start_a_long_cell(page, cell_may_end)
    page.wait_for_function(f"() => document.querySelector('{BOARD}')"
                           f".getAttribute('data-revision') !== '{revision}'")
    unpack_a_balloon(page, "RW")
    notice = page.locator(f"{BOARD} .aloft-offline")
    notice.wait_for(state="visible", timeout=10_000)
    # Seen where the person clicked, even with the board's header scrolled out of view.
    assert notice.evaluate("(n) => { const r = n.getBoundingClientRect(); "
                           "return r.top >= 0 && r.bottom <= innerHeight; }")
    text = notice.text_content()
    assert "busy running a cell" in text and "will be played" in text, text
    assert "restarted" not in text and "run the cell" not in text, text
    shot(page, "busy-kernel")
    # Still waiting a few seconds later (the cell runs until told): the notice keeps its wording.
    page.wait_for_timeout(3000)
    assert page.evaluate(f"({KERNEL_STATUS_JS})()") == "busy"
    assert "busy running a cell" in notice.text_content()
    assert page.locator(f"{BOARD} .aloft-log li").count() == 1  # the cell's move only, so far
    # The cell ends: the move is played, the board redraws and the notice goes.
    cell_may_end.touch()
    lab.wait_idle(60)
    notice.wait_for(state="hidden", timeout=10_000)
    page.locator(f"{BOARD} .aloft-log li").nth(1).wait_for()
    kernel = lab.kernel()
    assert kernel.eval_json("[match.position, match.history[1].seat]") == [2, 1]
    assert kernel.eval_json("match.history[1].action.balloon") == "RW"


def test_boards_shown_by_run_all_wait_for_the_cells_after_them_and_say_so(lab, lab_server,
                                                                          tmp_path):
    # The case from the issue: Run All shows the boards, then later cells keep the kernel busy;
    # the board's first request and a move wait for them.
    cell_may_end = tmp_path / "cell-may-end"
    path = lab_server.write_notebook("scratch/run-all.ipynb", [BALLOONS, busy_until(cell_may_end)])
    lab.open(path)
    page = lab.page
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    lab.output(f"{BOARD} svg")
    page.locator(".jp-OutputArea-output", has_text="sleeping").wait_for(timeout=30_000)
    notice = page.locator(f"{BOARD} .aloft-offline")
    notice.wait_for(state="visible", timeout=10_000)
    text = notice.text_content()
    assert text == "The kernel is busy running a cell; the board will answer when it finishes.", text
    shot(page, "run-all-board-waits")
    unpack_a_balloon(page, "RW")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-offline').textContent"
                           ".includes('your move will be played')", timeout=10_000)
    cell_may_end.touch()
    lab.wait_idle(60)
    notice.wait_for(state="hidden", timeout=10_000)
    page.locator(f"{BOARD} .aloft-log li").first.wait_for()
    assert lab.kernel().eval_json("match.history[0].action.balloon") == "RW"


def test_a_running_cell_is_told_even_while_a_subshell_answers_another_board(
        lab, lab_server, wait_until, tmp_path):
    # JupyterLab 4.6 sends widget messages to a kernel subshell: a board last changed from the
    # page is answered there while a cell runs, and the kernel's status then reads "idle",
    # though a board the running cell changed still waits for the cell.
    path = lab_server.write_notebook("scratch/subshell.ipynb", [BALLOONS, """
other_match = aloftnb.new_match("balloons", players=3, seed=8)
other = other_match.board()
other
"""])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    first, second = page.locator(BOARD).nth(0), page.locator(BOARD).nth(1)
    second.locator(".aloft-svg svg").first.wait_for()
    for viewer in ("designer", "turn"):  # answered from the page: the subshell's from now on
        second.locator(".aloft-viewer").select_option(viewer)
        wait_until(lambda v=viewer: kernel.eval_json("other.viewer") == v, what="a view change")
    cell_may_end = tmp_path / "cell-may-end"
    start_a_long_cell(page, cell_may_end)
    second.locator(".aloft-viewer").select_option("designer")
    page.wait_for_function(f"() => ({KERNEL_STATUS_JS})() === 'idle'")  # the subshell answered
    unpack_a_balloon(page, "RW", first)
    notice = first.locator(".aloft-offline")
    notice.wait_for(state="visible", timeout=10_000)
    text = notice.text_content()
    assert "busy running a cell" in text and "run the cell" not in text, text
    cell_may_end.touch()
    lab.wait_idle(60)
    notice.wait_for(state="hidden", timeout=10_000)
    assert kernel.eval_json("[match.position, match.history[1].action.balloon]") == [2, "RW"]


def test_a_stopped_kernel_still_gets_the_run_the_cell_again_advice(lab, lab_server):
    path = lab_server.write_notebook("scratch/stopped.ipynb", [BALLOONS])
    lab.open(path)
    lab.run_all()
    page = lab.page
    lab.output(f"{BOARD} svg")
    (kernel,) = [k for k in lab_server.kernels()]
    lab_server.request("DELETE", f"/api/kernels/{kernel['id']}")  # stopped, not restarted
    page.wait_for_function(f"() => ({KERNEL_STATUS_JS})() !== 'idle'")
    unpack_a_balloon(page, "RW")
    notice = page.locator(f"{BOARD} .aloft-offline")
    notice.wait_for(state="visible", timeout=10_000)
    text = notice.text_content()
    assert "run the cell that shows this board again" in text, text
    assert "busy" not in text, text


def test_stepping_back_pauses_the_bots_says_so_and_the_latest_step_resumes_them(
        lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/timeline-bots.ipynb", ["""
import aloftnb
match = aloftnb.new_match("balloons", players=3, seed=7)
board = match.board(bots={1: "random", 2: "random"}, bot_delay=0.05)
board
"""])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    autoplay = page.locator(f"{BOARD} .aloft-autoplay")
    message = page.locator(f"{BOARD} .aloft-message")
    unpack_a_balloon(page, "RW")
    wait_until(lambda: kernel.eval_json("match.position") == 3, timeout=30, what="both bots")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '3'")

    page.locator(f"{BOARD} .aloft-back").click()  # seat 2, a bot, is to move there
    page.wait_for_function(f"() => !document.querySelector('{BOARD} .aloft-autoplay').checked")
    message.get_by_text("Bots paused while you look back").wait_for()
    # The note lasts through redraws (a view change), and the bots keep the later steps.
    page.locator(f"{BOARD} .aloft-viewer").select_option("designer")
    page.wait_for_timeout(500)
    assert "Bots paused while you look back" in message.text_content()
    assert kernel.eval_json("[match.position, len(match.timeline)]") == [2, 3]
    shot(page, "bots-paused-by-timeline")

    # Back at the latest step: ticked again, the note gone.
    page.locator(f"{BOARD} .aloft-last").click()
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-autoplay').checked")
    assert "Bots paused" not in message.text_content()

    # From the start, a new move replaces the later steps, and the bots answer it.
    page.locator(f"{BOARD} .aloft-viewer").select_option("turn")
    page.locator(f"{BOARD} .aloft-first").click()
    page.wait_for_function(f"() => !document.querySelector('{BOARD} .aloft-autoplay').checked")
    unpack_a_balloon(page, "GW")
    wait_until(lambda: kernel.eval_json("match.position") == 3, timeout=30,
               what="the bots to answer the new move")
    assert kernel.eval_json("match.history[0].action.balloon") == "GW"
    assert kernel.eval_json("len(match.timeline)") == 3
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-autoplay').checked")
    assert autoplay.is_checked()


def test_the_designer_view_switches_chance_draws_and_merges_outcomes_worded_alike(
        lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/chance.ipynb", ["""
import aloftnb
match = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False)
board = match.board(viewer="designer")
board
""", "board  # a second view of the same board"])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    first, second = page.locator(BOARD).nth(0), page.locator(BOARD).nth(1)
    second.locator(".aloft-svg svg").first.wait_for()
    for view in (first, second):
        view.locator(".aloft-auto-chance-label").wait_for()
        assert not view.locator(".aloft-auto-chance").is_checked()
    # Five leviathans set aside face down read the same: one choice, not five.
    aside = first.locator(".aloft-menu .aloft-choice", has_text="leviathan")
    assert aside.count() == 1
    assert aside.text_content() == "set a leviathan aside face down (100%)"
    first.locator(".aloft-menu").scroll_into_view_if_needed()
    shot(page, "designer-chance-switch-merged-choice")
    aside.click()
    # The click reaches the kernel after a while: until then the history is empty.
    wait_until(lambda: kernel.eval_json("[match.position, match.history[-1].forced] "
                                        "if match.history else None") == [1, True],
               what="the forced set-aside")
    lab.run_cell("while match.is_chance and match.legal_actions()[0].type == 'set_aside':\n"
                 "    match.resolve_chance()")
    first.locator(".aloft-menu .aloft-choice", has_text="put a goal in play").first.wait_for()
    first.locator(".aloft-menu").scroll_into_view_if_needed()
    shot(page, "designer-chance-goal-choices")

    # The switch in one view draws the rest of set-up, and every view shows it on.
    first.locator(".aloft-auto-chance").check()
    wait_until(lambda: kernel.eval_json("[match.auto_chance, match.is_chance]") == [True, False],
               what="automatic draws")
    page.wait_for_function(f"() => document.querySelectorAll('{BOARD} .aloft-auto-chance')[1]"
                           ".checked")
    second.locator(".aloft-auto-chance").uncheck()
    wait_until(lambda: kernel.eval_json("match.auto_chance") is False, what="draws off")
    page.wait_for_function(f"() => !document.querySelectorAll('{BOARD} .aloft-auto-chance')[0]"
                           ".checked")
