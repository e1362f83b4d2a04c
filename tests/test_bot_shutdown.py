"""A searching bot never holds the kernel (issue 18 item 7): its search stops when the interpreter
exits, when the last board of its match closes, or when its match goes away."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import textwrap

import aloftnb
from aloftnb.widget import seats

PROBE = textwrap.dedent("""
    import asyncio, sys
    import aloftnb

    async def main(spec):
        match = aloftnb.new_match("balloons", players=3, seed=1)
        board = match.board()
        board.control.delay = 0
        for seat in range(3):
            board.control.set_controller(seat, spec)
        await asyncio.sleep(1.0)
        print("thinking" if board.control._thought is not None else "idle", flush=True)

    asyncio.run(main(sys.argv[1]))
""")


def test_the_interpreter_exits_while_a_long_search_runs():
    # Without the stop at exit the process waits for the search: 60 s, or 100,000 iterations.
    for spec in ("mcts:60s", "mcts:100000"):
        done = subprocess.run([sys.executable, "-c", PROBE, spec], capture_output=True,
                              text=True, timeout=40)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.split() == ["thinking"]


def _thinking_board():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    board = match.board()
    board.control.delay = 0
    return match, board


def test_closing_the_last_board_stops_its_search():
    async def run():
        match, board = _thinking_board()
        other = match.board()
        board.control.set_controller(match.current_player, "mcts:60s")
        await asyncio.sleep(0.3)
        assert board.control._thought is not None
        stop = board.control._thought[1]
        board.close()
        assert not stop.is_set()  # another board still shows the match
        other.close()
        assert stop.is_set()

    asyncio.run(run())


def test_a_match_that_goes_away_stops_its_search():
    async def run():
        match = aloftnb.new_match("balloons", players=3, seed=1)
        control = seats.seat_control(match)  # bots with no board
        control.delay = 0
        control.set_controller(match.current_player, "mcts:60s")
        await asyncio.sleep(0.3)
        stop = control._thought[1]
        assert stop in seats._SEARCHES and not stop.is_set()
        del match
        gc.collect()
        assert stop.is_set()

    asyncio.run(run())


def test_a_search_that_ends_or_is_cancelled_leaves_nothing_behind():
    async def run():
        earlier = set(seats._SEARCHES)
        match, board = _thinking_board()
        seat = match.current_player
        board.control.set_controller(seat, "mcts:60s")
        await asyncio.sleep(0)  # the search is queued, maybe not started
        board.control.set_controller(seat, "human")  # cancelled at once
        assert seats._SEARCHES <= earlier
        board.control.set_controller(seat, "random")
        for _ in range(50):
            await asyncio.sleep(0.02)
            if match.position:
                break
        assert match.position >= 1
        assert seats._SEARCHES <= earlier
        assert board.control._stop_with_match is None
        board.close()

    asyncio.run(run())
