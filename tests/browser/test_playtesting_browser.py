"""The playtesting notebook in real JupyterLab: bokeh plots draw offline, and the most lopsided
game opens in its board and replays move by move from the board's own timeline."""

from __future__ import annotations

NOTEBOOK = "notebooks/playtesting.ipynb"


def test_plots_draw_offline_and_the_board_replays_the_game(lab, browser_report):
    # Every request beyond 127.0.0.1 since JupyterLab loaded in this page (the harness's list).
    outside = lab.page._aloftnb_outside
    lab.open(NOTEBOOK)
    lab.run_all(timeout=600)

    # BokehJS came inline: the dashboard drew its figures (canvases live in bokeh's shadow DOM,
    # which Playwright's CSS locators pierce).
    canvases = lab.page.locator(".jp-OutputArea-output canvas")
    canvases.first.wait_for(state="attached", timeout=60_000)
    assert canvases.count() >= 4
    assert [url for url in outside if not url.startswith(("data:", "blob:"))] == []

    # The replay board's own timeline: its scrubber calls match.goto(n) and the board follows.
    kernel = lab.kernel()
    end = kernel.eval_json("match.position")
    assert kernel.eval_json("match.is_over") is True
    board = lab.page.locator(".aloft-board").last
    assert "Game over" in board.locator(".aloft-status").text_content()
    assert board.locator(".aloft-scrubber").input_value() == str(end)  # it opens at the end
    board.locator(".aloft-scrubber").fill("3")
    lab.page.wait_for_function(
        "() => [...document.querySelectorAll('.aloft-board')].pop()"
        ".querySelector('.aloft-status').textContent.includes('to play')")
    assert kernel.eval_json("match.position") == 3
    log = board.locator(".aloft-log li.undone")
    assert log.count() == end - 3
    browser_report(f"playtesting notebook: {canvases.count()} bokeh canvases drawn, "
                   f"{len(outside)} requests beyond 127.0.0.1")
