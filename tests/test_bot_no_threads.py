"""Bots where Python cannot start threads (pyodide, the JupyterLite site's kernel): a bot thinks on
the event loop's own thread, a search gives up after a short budget with its best move so far,
and the board says "thinking" until the move is played (issue 23)."""

from __future__ import annotations

import asyncio
import random

import pytest

import aloftnb
from aloftnb.core.bots import GreedyBot, MCTSBot, _Node
from aloftnb.widget import seats


class NoThreads:
    """Stands for pyodide's executor: starting a thread fails."""

    def submit(self, *args, **kwargs):
        raise RuntimeError("can't start new thread")


@pytest.fixture
def no_threads(monkeypatch):
    monkeypatch.setattr(seats, "THREADS", False)
    monkeypatch.setattr(seats, "_BOT_THREADS", NoThreads())
    monkeypatch.setattr(seats, "NO_THREAD_SECONDS", 0.05)


async def _until(check, what: str, limit: int = 2000) -> None:
    for _ in range(limit):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def test_a_long_search_plays_within_the_budget_on_the_loops_thread(no_threads):
    async def run():
        match = aloftnb.new_match("balloons", players=2, seed=3)
        board = match.board()
        board.control.delay = 0.05
        seat = match.current_player
        # 60 s of search with a thread; here it gives up after the budget with its best move.
        board.control.set_controller(seat, "mcts:60s")
        assert board.thinking and board.status.endswith("(mcts bot) to play.")
        await _until(lambda: match.position >= 1, "the bot played")
        entry = match.history[0]
        assert entry.kind == "action" and entry.seat == seat
        await _until(lambda: not board.thinking, "the board stopped thinking")
        assert board.control._thought is None and not seats._SEARCHES
        board.close()

    asyncio.run(run())


def test_the_board_says_thinking_until_the_move_is_played(no_threads):
    async def run():
        match = aloftnb.new_match("alu", players=2, seed=5)
        board = match.board()
        board.control.delay = 0
        seen = []
        board.observe(lambda change: seen.append((change["new"], match.position)), "thinking")
        board.control.set_controller(match.current_player, "greedy")
        await _until(lambda: match.position >= 1, "the bot played")
        await _until(lambda: not board.thinking, "the board stopped thinking")
        # On before the move (at position 0), off once it was played.
        assert seen[0] == (True, 0)
        assert seen[-1][0] is False and seen[-1][1] >= 1
        board.close()

    asyncio.run(run())


def test_a_thought_cancelled_before_it_began_plays_nothing(no_threads):
    async def run():
        match = aloftnb.new_match("balloons", players=2, seed=3)
        board = match.board()
        board.control.autoplay = False  # started by hand below, not by the timer
        seat = match.current_player
        board.control.set_controller(seat, "mcts:60s")
        assert board.control.think() and board.control._thought is not None
        board.control.set_controller(seat, "human")  # before the loop ran the search
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert match.position == 0 and not board.thinking
        assert not seats._SEARCHES
        board.close()

    asyncio.run(run())


def test_greedy_out_of_time_at_once_still_plays_a_legal_move():
    # A budget that runs out before the first action is evaluated: greedy plays that action
    # (it used to have no move at all, and failed).
    match = aloftnb.new_match("balloons", players=3, seed=2)
    rules, state = match.rules, match.state
    action = GreedyBot().choose(rules, state, match.current_player, random.Random(1),
                                stop=lambda: True)
    assert action in rules.legal_actions(state)


@pytest.fixture
def search_spy(monkeypatch):
    """MCTS searches record whether their stop switch says stop, and search nothing."""
    answers = []

    def search(self, rules, state, seat, rng, stop=None):
        answers.append(stop is not None and stop())
        return _Node()

    monkeypatch.setattr(MCTSBot, "search", search)
    return answers


@pytest.mark.parametrize("threads", [False, True])
def test_a_bots_turn_without_threads_searches_within_the_budget(monkeypatch, search_spy,
                                                                 threads):
    monkeypatch.setattr(seats, "THREADS", threads)
    monkeypatch.setattr(seats, "NO_THREAD_SECONDS", 0)  # the budget is spent at once

    async def run():
        match = aloftnb.new_match("balloons", players=2, seed=3)
        board = match.board()
        board.control.delay = 0
        board.control.set_controller(match.current_player, "mcts:60s")
        await _until(lambda: match.position >= 1, "the bot played")
        board.close()

    asyncio.run(run())
    # With threads the search runs its own budget (60 s: not spent); without, ours (spent).
    assert search_spy == [not threads]


@pytest.mark.parametrize("threads", [False, True])
def test_a_bot_step_from_a_cell_without_threads_searches_within_the_budget(
        monkeypatch, search_spy, threads):
    monkeypatch.setattr(seats, "THREADS", threads)
    monkeypatch.setattr(seats, "NO_THREAD_SECONDS", 0)
    match = aloftnb.new_match("balloons", players=2, seed=3)
    board = match.board(bots={match.current_player: "mcts:60s"})
    assert board.step() and match.position == 1
    assert search_spy == [not threads]
