"""Click-to-redraw on every game's board, on a stock JupyterLab server and on one with aloftnb's
TCP_NODELAY extension (aloftnb.jupyter), side by side in one run. `make bench-clicks`, or:

    .venv/bin/python tests/browser/bench_clicks.py [--clicks 20]

Each measured click completes a legal move on the board (the earlier clicks of its path are made
first, unmeasured); the time runs inside the page from the click event to the redrawn drawing.
The move is then undone from the kernel and the next click measured. Prints median and 90th
percentile per board and server. A benchmark prints figures; no test asserts on them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import CHROMIUM, CHROMIUM_ARGS, Lab, LabServer

BOARDS = {
    "balloons": 'aloftnb.new_match("balloons", players=3, seed=7)',
    "balloons (choice)": 'aloftnb.new_match("balloons", players=2, seed=7, edition="choice")',
    "alu": 'aloftnb.new_match("alu", players=2, seed=1)',
    "commodores": 'aloftnb.new_match("commodores", players=3, seed=11)',
    "cloudspire": 'aloftnb.new_match("cloudspire", players=2, seed=1)',
    # Mid-game: a grown sky with a long log; Cloudspire's onslaught with units on the map.
    "commodores (mid-game)": 'aloftnb.new_match("commodores", players=4, seed=3)',
    "cloudspire (onslaught)": 'aloftnb.new_match("cloudspire", players=4, seed=3)',
}
# Random moves played (seeded) before the first drawn move is looked for.
ADVANCE = {"commodores (mid-game)": 200, "cloudspire (onslaught)": 60}
MINIMAL = "minimal widget"  # for reference: the transport without a board
TUNED_FLAG = "--ServerApp.jpserver_extensions={'aloftnb.jupyter': True}"

# A legal move every key of which is drawn on the board (so it is played by clicks alone).
PICK_MOVE = ("[c['path'] for c in board.choices "
             "if all(f'data-key=\"{k}\"' in board.svg for k in c['path'])][0]")


class BenchServer(LabServer):
    def __init__(self, base: Path, extra: list[str]) -> None:
        super().__init__(base)
        self.extra = extra

    def command(self) -> list[str]:
        return super().command() + self.extra


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = q * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def measure_board(lab: Lab, server: LabServer, game: str, make_match: str, clicks: int) -> list[float]:
    path = server.write_notebook(f"bench/{game.split()[0]}-{len(game)}.ipynb", [
        f"import aloftnb, random\nmatch = {make_match}\nboard = match.board()\n"
        f"rng = random.Random(1)\nwhile match.position < {ADVANCE.get(game, 0)} "
        "and not match.is_over:\n    match.play(rng.choice(match.legal_actions()))\n"
        # On to a position with a move played on the drawing (Cloudspire opens on menus).
        f"while not {PICK_MOVE[:-3]}:\n    match.play(match.legal_actions()[0])\nboard",
    ])
    lab.open(path)
    lab.run_all()
    lab.output(".aloft-board svg")
    kernel = lab.kernel()
    page = lab.page
    timings = []
    for _ in range(clicks + 2):  # two warm-up clicks, not counted
        move = kernel.eval_json(PICK_MOVE)
        revision = page.locator(".aloft-board").get_attribute("data-revision")
        for key in move[:-1]:
            page.locator(f'.aloft-board [data-key="{key}"]').click()
        ms = lab.timed_click(
            f'.aloft-board [data-key="{move[-1]}"]', watch=".aloft-board",
            until=f"(root) => root.getAttribute('data-revision') !== '{revision}'")
        timings.append(ms)
        revision = page.locator(".aloft-board").get_attribute("data-revision")
        kernel.execute("match.undo()")
        page.wait_for_function(
            f"() => document.querySelector('.aloft-board').getAttribute('data-revision') "
            f"!== '{revision}'")
        time.sleep(0.05)
    lab.close()
    server.shutdown_kernels()
    return timings[2:]


def measure_probe(lab: Lab, server: LabServer, clicks: int) -> list[float]:
    """The harness's minimal widget (tests/browser/test_harness.py): the transport alone."""
    from test_harness import PROBE

    lab.open(server.write_notebook("bench/probe.ipynb", [PROBE]))
    lab.run_all()
    lab.output(".probe-button")
    timings = []
    for n in range(1, clicks + 3):
        timings.append(lab.timed_click(
            ".probe-button", until=f"(root) => root.querySelector('.probe-echo').textContent "
                                   f"=== 'python saw {n}'"))
    lab.close()
    server.shutdown_kernels()
    return timings[2:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20, help="measured clicks per board")
    parser.add_argument("--only", nargs="*", default=None, help="boards to measure (default all)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    results: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="aloftnb-bench-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for name, extra in (("stock", []), ("tuned", [TUNED_FLAG])):
                server = BenchServer(Path(tmp) / name, extra)
                server.prepare()
                server.start()
                try:
                    boards = [(g, m) for g, m in BOARDS.items() if not args.only or g in args.only]
                    for game, make_match in [*boards, (MINIMAL, None)]:
                        context = browser.new_context(viewport={"width": 1400, "height": 1000})
                        page = context.new_page()
                        page.set_default_timeout(60_000)
                        lab = Lab(server, page)
                        try:
                            results[(game, name)] = (
                                measure_probe(lab, server, args.clicks) if make_match is None
                                else measure_board(lab, server, game, make_match, args.clicks))
                        finally:
                            context.close()
                finally:
                    server.stop()
        finally:
            browser.close()

    print(f"\nclick -> Python -> redrawn board, ms ({args.clicks} clicks each, measured in the page)")
    print(f"{'board':<20}{'stock median':>14}{'stock p90':>11}{'tuned median':>14}{'tuned p90':>11}")
    for game in [g for g in [*BOARDS, MINIMAL] if (g, "stock") in results]:
        stock, tuned = results[(game, "stock")], results[(game, "tuned")]
        print(f"{game:<20}{statistics.median(stock):>14.1f}{percentile(stock, 0.9):>11.1f}"
              f"{statistics.median(tuned):>14.1f}{percentile(tuned, 0.9):>11.1f}")
    print("tuned: the aloftnb.jupyter server extension (TCP_NODELAY on kernel websockets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
