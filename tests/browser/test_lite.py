"""The JupyterLite site (issue 23): the boards in the browser's own Python, with no server.

The site (`make lite`) is served by `python -m http.server` on 127.0.0.1 and opened in Debian's
chromium with every request to any other host aborted and counted. Its notebook runs in the
pyodide kernel; a person's clicks play a move on the first board, the board redraws, and the bot
at the other seat answers. Not one request may leave 127.0.0.1.

Which site: $ALOFTNB_LITE_SITE (a built site, as `make test` and `make lite-test` give), else,
with ALOFTNB_LITE_TEST=1, one built here with `make lite` (about 40 s from nothing, with the
package registries reachable); else the test is skipped. $ALOFTNB_LITE_SCREENSHOT: where to save a
picture of the board after the bot's move (else the test's temporary folder).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import _FIND
from conftest import _READY_JS as READY_JS  # the same JupyterLab page helpers as the lab tests
from conftest import _RUN_ALL_JS as RUN_ALL_JS
from conftest import _RUN_CELL_JS as RUN_CELL_JS

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "start-here.ipynb"
BOARD = ".jp-OutputArea-output .aloft-board >> nth=0"  # the notebook's first: balloons vs greedy
KERNEL_READY_TIMEOUT = 180  # seconds; about 20 s here

# [{index, outputs}] of the code cells, once every one of them has run (an execution count).
OUTPUTS_JS = "({path, index}) => {" + _FIND + """
  const cells = findPanel(path).content.widgets;
  const pick = index === null ? cells.map((c, i) => [c, i]) : [[cells[index], index]];
  return pick.filter(([c]) => c.model.type === 'code').map(([c, i]) => ({
    index: i, count: c.model.executionCount, outputs: c.model.outputs.toJSON()}));
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory) -> Path:
    given = os.environ.get("ALOFTNB_LITE_SITE")
    if given:
        site = Path(given)
        if not (site / "jupyter-lite.json").is_file():
            pytest.fail(f"ALOFTNB_LITE_SITE={given} holds no built site: run `make lite`")
        return site
    if os.environ.get("ALOFTNB_LITE_TEST") != "1":
        pytest.skip("the JupyterLite site is not built: `make lite-test` (or make test, or "
                    "ALOFTNB_LITE_TEST=1) builds and tests it")
    site = tmp_path_factory.mktemp("lite") / "site"
    subprocess.run(["make", "--no-print-directory", "lite", f"LITE_OUT={site}"], cwd=REPO,
                   check=True, timeout=900)
    return site


@pytest.fixture(scope="module")
def lite_url(lite_site):
    """The site served as any static host would, on 127.0.0.1 only."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(lite_site)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/jupyter-lite.json", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("python -m http.server did not answer")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


class Site:
    """A page on the site with every non-local request aborted and counted."""

    def __init__(self, chromium, url: str) -> None:
        self.url = url
        self.outside: list[str] = []
        self.context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        self.console: list[str] = []
        self.page.on("console", lambda msg: self.console.append(f"[{msg.type}] {msg.text}"))
        self.page.on("pageerror", lambda exc: self.console.append(f"[pageerror] {exc}"))

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith((self.url + "/", "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def wait_ready(self, timeout: float = 120) -> None:
        self.page.wait_for_function(READY_JS, arg=NOTEBOOK, timeout=timeout * 1000, polling=200)

    def code_cells(self, index: int | None = None) -> list[dict]:
        return self.page.evaluate(OUTPUTS_JS, {"path": NOTEBOOK, "index": index})

    def run_all(self, timeout: float = 300) -> list[dict]:
        """Run every cell; wait until each has run and the kernel is idle again."""
        self.page.evaluate(RUN_ALL_JS, NOTEBOOK)
        deadline = time.monotonic() + timeout
        while True:
            cells = self.code_cells()
            if all(cell["count"] for cell in cells):
                self.wait_ready(timeout)
                return cells
            assert time.monotonic() < deadline, "the notebook's cells did not all run"
            time.sleep(0.2)

    def run_cell(self, code: str, timeout: float = 60) -> str:
        """A new cell at the end, run as a person would; its text output."""
        index = self.page.evaluate(RUN_CELL_JS, {"path": NOTEBOOK, "code": code})
        deadline = time.monotonic() + timeout
        while not self.code_cells(index)[0]["count"]:
            assert time.monotonic() < deadline, f"the cell {code!r} did not run"
            time.sleep(0.1)
        self.wait_ready(timeout)
        outputs = self.code_cells(index)[0]["outputs"]
        errors = [f"{o['ename']}: {o['evalue']}" for o in outputs if o["output_type"] == "error"]
        assert not errors, f"the cell {code!r} raised: {errors}"
        return "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")

    def python(self, expression: str):
        """A value computed in the page's kernel (its repr, read back with eval)."""
        return eval(self.run_cell(f"print(repr({expression}))").strip())  # noqa: S307 - our own output

    def close(self) -> None:
        self.context.close()


def _errors(cells: list[dict]) -> list[str]:
    return [f"cell {cell['index']}: {out['ename']}: {out['evalue']}"
            for cell in cells for out in cell["outputs"] if out["output_type"] == "error"]


def _text(cell: dict) -> str:
    parts = []
    for out in cell["outputs"]:
        if out["output_type"] == "stream":
            parts.append(out["text"])
        elif "text/plain" in out.get("data", {}):
            parts.append(out["data"]["text/plain"])
    return "\n".join(parts)


def test_the_site_plays_offline_in_the_browsers_python(chromium, lite_url, browser_report,
                                                       tmp_path, wait_until):
    site = Site(chromium, lite_url)
    try:
        # The site's root sends a visitor to its notebook, whose pyodide kernel starts.
        started = time.perf_counter()
        site.page.goto(lite_url + "/")
        site.wait_ready(KERNEL_READY_TIMEOUT)
        ready = time.perf_counter() - started
        browser_report(f"lite: page load to a ready pyodide kernel {ready:.1f} s")

        started = time.perf_counter()
        cells = site.run_all()
        browser_report(f"lite: the notebook's {len(cells)} code cells ran in "
                       f"{time.perf_counter() - started:.1f} s")
        assert not _errors(cells), _errors(cells)
        # The browser's own Python, where bots have no threads to think in.
        assert site.python("__import__('sys').platform") == "emscripten"
        assert site.python("__import__('aloftnb.widget.seats').widget.seats.THREADS") is False
        # Playtesting says what it needs, since pandas is not there.
        assert any("needs the full install" in _text(cell) for cell in cells)
        boards = site.page.locator(".jp-OutputArea-output .aloft-board")
        assert boards.count() == 6  # four games, the designer's commodores, Updraft

        # A person's two clicks unpack a balloon: Python plays it and the board redraws.
        board = site.page.locator(BOARD)
        board.locator("svg").first.wait_for(state="visible")
        assert site.python("(balloons.current_player, balloons.position)") == (0, 0)
        thinking_seen = site.page.evaluate_handle("""(board) => {
          const seen = {value: false};
          const box = board.querySelector('.aloft-thinking');
          new MutationObserver(() => {
            if (box.textContent.includes('thinking')) seen.value = true;
          }).observe(box, {childList: true, characterData: true, subtree: true});
          return seen;
        }""", board.element_handle())
        board.locator('[data-key="balloon:PW"]').click()
        board.locator('[data-key="truck:1"]').click()
        board.locator('[aria-label*="PW (purple and white), unpacked on truck 1"]').wait_for()
        # The greedy bot at seat 1 answers: "thinking", then its move, drawn and logged.
        site.page.wait_for_function(
            "(board) => board.querySelectorAll('.aloft-log li:not(.undone)').length >= 2",
            arg=board.element_handle(), timeout=60_000)
        site.page.wait_for_function(
            "(board) => !board.querySelector('.aloft-thinking').textContent.includes('thinking')",
            arg=board.element_handle())
        assert thinking_seen.evaluate("(seen) => seen.value")
        history = site.python("[(e.seat, e.kind) for e in balloons.history]")
        assert history == [(0, "action"), (1, "action")]
        assert site.python("balloons.history[0].action.to_dict()") == {
            "type": "unpack", "balloon": "PW", "truck": 1}
        assert "Seat 0 to play" in board.locator(".aloft-status").text_content()
        # A search with a time budget answers in the browser too (no threads, no worker
        # processes): a seconds-only budget ends by its deadline alone, or this would not return.
        legal, spent, visits = eval(site.run_cell(textwrap.dedent("""
            import random, time
            bot, rules, state = aloftnb.make_bot("mcts:0.3s"), balloons.rules, balloons.state
            seat = rules.current_player(state)
            started = time.perf_counter()
            chosen = bot.choose(rules, state, seat, random.Random(0))
            spent = time.perf_counter() - started
            visits = bot.search(rules, state, seat, random.Random(1)).visits
            print(repr((chosen in rules.legal_actions(state), spent, visits)))
        """)).strip())  # noqa: S307 - our own output
        assert legal and visits > 0
        browser_report(f"lite: an mcts:0.3s decision took {spent:.2f} s, {visits} iterations")
        # The game's default bot, chosen as a person chooses it ("bot" in seat 1's menu),
        # answers the next move.
        board.locator('select[aria-label="Who plays seat 1"]').select_option("bot")
        site.page.wait_for_function(
            "(board) => board.querySelector('select[aria-label=\"Who plays seat 1\"]').value"
            " === 'mcts'", arg=board.element_handle())
        board.locator("select.aloft-moves").select_option(index=1)
        site.page.wait_for_function(
            "(board) => board.querySelectorAll('.aloft-log li:not(.undone)').length >= 4",
            arg=board.element_handle(), timeout=120_000)
        assert site.python("[e.seat for e in balloons.history]") == [0, 1, 0, 1]
        assert site.python("aloftnb.default_bot(balloons.rules)").startswith("mcts:")

        shot = Path(os.environ.get("ALOFTNB_LITE_SCREENSHOT") or tmp_path / "lite-board.png")
        site.page.set_viewport_size({"width": 1400, "height": 1500})  # the whole board
        site.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        board.scroll_into_view_if_needed()
        site.page.wait_for_timeout(500)
        board.screenshot(path=str(shot))
        browser_report(f"lite: the balloons board after the bot's move: {shot}")
    except BaseException:
        print("browser console (last lines):", *site.console[-40:], sep="\n")
        raise
    finally:
        site.close()
    assert site.outside == [], f"requests that left 127.0.0.1: {site.outside}"
    browser_report("lite: requests to any host but 127.0.0.1: 0")
