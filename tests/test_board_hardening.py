"""Issue 8, the board's side: bounded bots that never block the kernel, and intents checked up
front."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

import aloftnb
from aloftnb.core.bots import Bot, make_bot

ECHO_LIMIT = 300  # what a refusal may echo (aloftnb.widget.viewer.ECHO_LIMIT)


def new_board(**kwargs):
    match = aloftnb.new_match("balloons", players=3, seed=7)
    return match, match.board(**kwargs)


def run_on_own_loop(scenario):
    """Run a coroutine on an event loop of its own thread (others may leave a loop running here)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=120)


async def wait_until(condition, tries=2000):
    for _ in range(tries):
        if condition():
            return True
        await asyncio.sleep(0.005)
    return condition()


# -- defect 1: bounded budgets --------------------------------------------------------------------
@pytest.mark.parametrize("spec, fragment", [
    ("mcts:nans", "finite"), ("mcts:infs", "finite"), ("mcts:100000000", "between 1 and 100000"),
    ("mcts:1e9s", "at most 60"), ("greedy:100000000", "between 1 and 64"),
    ("mcts:100:cnan", "finite"), ("mcts:100:c1e9", "at most 10"), ("mcts:0s", "more than 0"),
    ("mcts:" + "9" * 90, "between 1 and 100000"), ("mcts:" + "9" * 5000, "short text"),
    ("mcts:1e400s", "finite"), ("mcts:abc", "cannot read bot"),
])
def test_bot_budgets_are_bounded_and_finite(spec, fragment):
    with pytest.raises(ValueError, match=fragment):
        make_bot(spec)


@pytest.mark.parametrize("controller", ["mcts:nans", "mcts:100000000", "mcts:1e9s",
                                        "greedy:100000000"])
def test_a_seat_message_with_an_unbounded_bot_is_refused(controller, front_end):
    match, board = new_board()
    front_end(board, {"intent": "seat", "seat": 0, "controller": controller})
    assert board.message["text"].startswith("refused: ")
    assert board.control.bots == {} and match.position == 0


def test_a_thinking_bot_leaves_the_loop_free_and_pausing_cancels_it(front_end):
    async def scenario():
        match, board = new_board(bot_delay=0)
        ticks = []

        async def ticker():
            while True:
                ticks.append(1)
                await asyncio.sleep(0.001)

        beat = asyncio.create_task(ticker())
        # A search long enough to be felt: the whole budget would take minutes.
        front_end(board, {"intent": "seat", "seat": 0, "controller": "mcts:100000"})
        assert await wait_until(lambda: board.control._thought is not None)
        future, stop = board.control._thought
        before = len(ticks)
        assert await wait_until(lambda: len(ticks) > before + 20)  # the loop keeps running
        assert board.thinking and match.position == 0
        front_end(board, {"intent": "autoplay", "on": False})  # "pause bots" while it thinks
        assert stop.is_set() and board.control._thought is None and not board.thinking
        assert await wait_until(future.done, tries=20_000)  # the search stopped early
        await asyncio.sleep(0.02)
        assert match.position == 0  # its move was dropped
        beat.cancel()

    run_on_own_loop(scenario)


@pytest.mark.parametrize("how", ["undo", "seat", "cell"])
def test_undo_a_seat_change_or_a_cell_edit_cancels_a_thinking_bot(how, front_end):
    async def scenario():
        match, board = new_board(bot_delay=0, bots={1: "mcts:100000"})
        match.play({"type": "unpack", "balloon": "PW", "truck": 0})
        assert await wait_until(lambda: board.control._thought is not None)
        future, stop = board.control._thought
        if how == "undo":
            front_end(board, {"intent": "undo"})
            expected = 0
        elif how == "seat":
            front_end(board, {"intent": "seat", "seat": 1, "controller": "human"})
            expected = 1
        else:
            match.undo()
            expected = 0
        assert stop.is_set()
        assert await wait_until(future.done, tries=20_000)
        await asyncio.sleep(0.02)
        assert match.position == expected and not board.thinking

    run_on_own_loop(scenario)


def test_bots_on_the_loop_still_play_whole_games():
    async def scenario():
        match, board = new_board(bot_delay=0, bots={0: "random", 1: "greedy", 2: "mcts:20"})
        assert await wait_until(lambda: match.is_over, tries=40_000)
        assert not board.thinking and board.control._thought is None

    run_on_own_loop(scenario)


# -- defect 7: explain and intent shapes ---------------------------------------------------------
@pytest.mark.parametrize("path, fragment", [
    (["balloon:RW", "truck:x"], "there is no launch-zone truck 'x'"),
    (["balloon:RW", "truck:4"], "there is no launch-zone truck '4'"),
    (["balloon:RW", "truck:99"], "there is no launch-zone truck '99'"),
    (["balloon:RW", "truck:-1"], "there is no launch-zone truck '-1'"),
])
def test_explain_answers_every_path_with_a_sentence(path, fragment, front_end):
    match, board = new_board()
    match.play({"type": "unpack", "balloon": "GP", "truck": 0})
    front_end(board, {"intent": "explain", "path": path})
    assert fragment in board.message["text"]
    assert "malformed" not in board.message["text"]


def test_an_empty_explain_path_is_refused_clearly(front_end):
    _match, board = new_board()
    front_end(board, {"intent": "explain", "path": []})
    assert board.message["text"] == "refused: an explain intent needs a path of 1 to 8 short keys"


def deep(levels):
    value = []
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("message, fragment", [
    ({"intent": "play", "action": deep(5000)}, "nests at most 6 levels"),
    ({"intent": "explain", "path": deep(5000)}, "nests at most 6 levels"),
    ({"intent": "play", "action": {"type": "pass", "x": list(range(10_000))}}, "at most 500"),
    ({"intent": "seat", "seat": 0, "controller": {"a": 1, 3: 2}}, "keys of a message"),
])
def test_messages_too_deep_or_too_big_are_refused_unread(message, fragment, front_end):
    match, board = new_board()
    sent = front_end(board, message)
    assert sent == [{"ack": None}]
    assert fragment in board.message["text"] and "malformed" not in board.message["text"]
    assert match.position == 0


# -- defect 8: a refused board stays detached ----------------------------------------------------
@pytest.mark.parametrize("kwargs", [{"bots": {7: "random"}}, {"viewer": "everyone"},
                                    {"bots": {0: "mcts:nans"}}, {"bots": {1.0: "random"}},
                                    {"bot_delay": float("nan")}, {"autoplay": "yes"},
                                    {"bots": [0]}])
def test_a_refused_board_leaves_nothing_attached(kwargs):
    match = aloftnb.new_match("balloons", players=3, seed=7)
    listeners = len(match._listeners)
    with pytest.raises(ValueError):
        match.board(**kwargs)
    control = aloftnb.widget.seats.seat_control(match)
    assert len(match._listeners) == listeners + (1 if listeners == 0 else 0)  # only the control
    assert list(control.boards) == [] and control.bots == {}
    match.play(match.legal_actions()[0])  # nothing half-built is redrawn or fails


# -- defect 9: a failing bot's message stays -----------------------------------------------------
def test_a_failing_bot_says_why_when_stepped_from_the_board(front_end):
    class BrokenBot(Bot):
        name = "broken"

        def choose(self, rules, state, seat, rng):
            raise RuntimeError("out of ideas")

    match, board = new_board(bots={0: BrokenBot()})
    front_end(board, {"intent": "step"})
    assert "broken bot at seat 0 failed" in board.message["text"]
    assert "out of ideas" in board.message["text"]
    assert board.autoplay is False and match.position == 0


# -- defect 10: the reveal toggle does not survive an undo out of a finished game -----------------
def test_reveal_does_not_survive_an_undo_out_of_a_finished_game(front_end, finished_match):
    board = finished_match.board()
    front_end(board, {"intent": "reveal", "on": True})
    assert "game is over" in board.message["text"]
    front_end(board, {"intent": "undo"})
    seat = finished_match.current_player
    assert board.revealed is False
    assert board.reveal_label == f"Show seat {seat}'s colour card"


def test_reveal_is_dropped_when_the_game_ends(front_end, finished_match):
    finished_match.undo()
    board = finished_match.board()
    front_end(board, {"intent": "reveal", "on": True})
    assert board.revealed
    finished_match.redo()
    assert board.revealed is False
    finished_match.undo()
    assert board.revealed is False and board.reveal_label.startswith("Show")


# -- defect 11: refusals echo a bounded amount ---------------------------------------------------
@pytest.mark.parametrize("message", [
    {"intent": "x" * 10_000_000},
    {"intent": "view", "viewer": "x" * 900},
    {"intent": "seat", "seat": 0, "controller": "x" * 900},
    {"intent": "play", "action": {"type": "inflate", "balloon": "x" * 900}},
    {"intent": "explain", "path": ["balloon:" + "x" * 90]},
    {"intent": "hello", "id": "x" * 900},
    {"intent": "hello", "id": 10**400},
])
def test_refusals_echo_at_most_a_few_hundred_characters(message, front_end):
    _match, board = new_board()
    sent = front_end(board, message)
    assert len(board.message.get("text", "")) <= ECHO_LIMIT
    assert len(str(sent)) < 100
