"""One writer at a time: cells, a board's front end and a bot changing one match at once.

JupyterLab delivers a widget's messages on a kernel subshell while a cell runs, and bots think
on threads of their own, so one match is changed from several threads. Each change must be
whole (never a move checked on one position and pushed onto another), a save taken at any
moment must load, a bot must never play a move thought for a position that is gone, and one
broken listener must not keep the others from hearing of a change.
"""

from __future__ import annotations

import asyncio
import copy
import pickle
import random
import sys
import threading
import time
import warnings

import pytest

import aloftnb
from aloftnb.core.bots import Bot
from aloftnb.core.chance import chance_rng
from aloftnb.core.registry import BUILT_IN_GAMES
from aloftnb.errors import AloftnbError

# Seats for each game; the last seat is a bot's, the others are played from boards and cells.
PLAYERS = {"alu": 2, "balloons": 3, "cloudspire": 2, "commodores": 3}
# The shipped games (other test modules register games of their own as they are imported).
GAMES = sorted(BUILT_IN_GAMES)
CELL_STEPS = 600  # a cell's plays, undos, gotos, redos, edits and saves
BOARD_MESSAGES = 120  # the front end's intents (each redraws the board)
BOT_TURNS = 40  # the bot's chances to move
VIEWS = 15  # boards opened and closed on the match while it changes
JOIN_SECONDS = 60  # a deadlock fails the test instead of hanging it


@pytest.fixture(autouse=True)
def tight_thread_switching():
    """Threads take turns much more often than usual, so the races show in a short run."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def yielding(match):
    """The match, its rules giving other threads a turn as they check and apply each move (as
    a slow engine would), so another thread's change may fall between the two."""
    rules = match.rules
    for name in ("check_action", "apply"):
        setattr(rules, name, _yields_first(getattr(rules, name)))
    return match


def _yields_first(method):
    def call(*args):
        time.sleep(0)  # a turn for the other threads, never a wait
        return method(*args)
    return call


def legal_where_it_stands(match):
    """Play the match's timeline again from the start: every step must be legal where it was
    taken (the seat to move, a legal action, an outcome the chance step has and, if drawn, the
    one the seed draws) and lead to the state the match holds there. Returns the problems."""
    rules, problems = match.rules, []
    state = rules.initial_state(match.seed)
    for number, entry in enumerate(match.timeline, start=1):
        if entry.kind == "edit":
            state = rules.state_from_dict(copy.deepcopy(entry.edited))
        elif entry.kind == "action":
            if rules.current_player(state) != entry.seat or rules.is_chance(state):
                problems.append(f"step {number}: seat {entry.seat} played in seat "
                                f"{rules.current_player(state)}'s turn")
            if entry.action not in rules.legal_actions(state):
                return [*problems, f"step {number}: {entry.action} is not legal there"]
            state = rules.apply(state, entry.action)
        else:
            if not rules.is_chance(state):
                return [*problems, f"step {number}: an outcome where nothing is drawn"]
            rules.check_chance(state, entry.action)
            if not entry.forced and entry.action != rules.sample_chance(
                    state, chance_rng(match.seed, number - 1)):
                problems.append(f"step {number}: not the outcome the seed draws there")
            state = rules.apply(state, entry.action)
        if rules.state_data(state) != rules.state_data(match.state_at(number)):
            return [*problems, f"step {number}: the match holds another state than it gives"]
    return problems


def assert_whole(match, saves):
    """The match's timeline is legal, its save reloads to the same match, and so does every
    save taken while it changed."""
    assert legal_where_it_stands(match) == []
    text = match.to_json()
    loaded = aloftnb.Match.from_json(text)
    assert loaded.to_json() == text
    assert loaded.rules.state_data(loaded.state) == match.rules.state_data(match.state)
    for save in saves:  # each taken while others changed the match: one moment of it
        assert aloftnb.Match.from_json(save).to_json() == save


def run_together(*bodies):
    """Run each body on a thread of its own, all at once; returns what they raised."""
    failures: list[BaseException] = []
    start = threading.Barrier(len(bodies))

    def run(body):
        try:
            start.wait()
            body()
        except BaseException as exc:  # reported by the test
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(body,), daemon=True) for body in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: a deadlock?"
    return failures


def cell(match, rng, saves, steps=CELL_STEPS):
    """A cell's loop of plays, undos, gotos, redos, edits and saves (kept in `saves`)."""
    def body():
        for _ in range(steps):
            roll = rng.random()
            try:
                if roll < 0.5:
                    actions = match.legal_actions()
                    if actions and not match.is_over and not match.is_chance:
                        match.play(rng.choice(actions))
                elif roll < 0.65:
                    match.undo()
                elif roll < 0.75:
                    match.redo()
                elif roll < 0.88:
                    match.goto(rng.randint(0, len(match.timeline)))
                elif roll < 0.98:
                    match.edit()  # the same position, as an edit: a step undo takes back
                else:
                    saves.append(match.to_json())
            except AloftnbError:
                pass  # refused: another thread's move made this one stale, nothing to undo...
    return body


def front_end(board, rng):
    """A board's front end: legal clicks (the choices the board offers), undo, redo, the
    timeline, all through the board's handler of front-end messages."""
    def body():
        for number in range(BOARD_MESSAGES):
            roll = rng.random()
            if roll < 0.7:
                offered = [choice["action"] for choice in board.choices]
                if not offered:
                    continue
                message = {"intent": "play", "action": rng.choice(offered)}
            elif roll < 0.8:
                message = {"intent": "undo"}
            elif roll < 0.9:
                message = {"intent": "redo"}
            else:
                message = {"intent": "goto", "position": rng.randint(0, board.timeline_length)}
            board._on_front_end_message(board, {**message, "id": number}, [])
    return body


def bot(board):
    """The bot seat, as in a kernel: moves thought on the bot threads and played back on this
    thread's event loop; and moves thought and played here and now (`board.step()`)."""
    control = board.control

    async def turns():
        for turn in range(BOT_TURNS):
            if turn % 2:
                board.step()
            elif control.bot_to_move() is not None and not board.match.is_over:
                control.think()
            for _ in range(200):  # until the thought comes back, or is cancelled
                await asyncio.sleep(0.001)
                if control._thought is None:
                    break
        control.cancel()

    return lambda: asyncio.run(turns())


def views(match):
    """Boards opened on the match and closed again, as cells show and close views of it."""
    def body():
        for _ in range(VIEWS):
            view = match.board()
            view.send = lambda *args, **kwargs: None
            view.close()
    return body


@pytest.mark.parametrize("game", GAMES)
def test_two_cells_change_one_match_at_once(game):
    match = yielding(aloftnb.new_match(game, players=PLAYERS[game], seed=5))
    saves: list[str] = []
    failures = run_together(cell(match, random.Random(1), saves),
                            cell(match, random.Random(2), saves))
    assert failures == []
    assert_whole(match, saves)


@pytest.mark.parametrize("game", GAMES)
def test_a_cell_a_board_and_a_bot_change_one_match_at_once(game):
    players = PLAYERS[game]
    match = yielding(aloftnb.new_match(game, players=players, seed=11))
    board = match.board(bots={players - 1: "random"}, bot_delay=0)
    board.send = lambda *args, **kwargs: None  # no front end here: acks go nowhere
    bot_failures, report_failure = [], board.control._bot_failed
    board.control._bot_failed = lambda bot, seat, exc: (bot_failures.append(repr(exc)),
                                                        report_failure(bot, seat, exc))
    saves: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        failures = run_together(cell(match, random.Random(1), saves, CELL_STEPS // 2),
                                front_end(board, random.Random(2)), bot(board), views(match))
    board.close()
    assert failures == []
    assert [str(w.message) for w in caught if "listener" in str(w.message)] == []
    assert bot_failures == []  # the bot never played a move thought for another position
    assert_whole(match, saves)


class Meddled(Bot):
    """A bot during whose thought a cell plays the bot's seat itself: the position it thinks
    about is gone when it answers."""

    name = "meddled"

    def __init__(self, match):
        self.match, self.meddled = match, False

    def choose(self, rules, state, seat, rng, stop=None):
        if not self.meddled:
            self.meddled = True
            self.match.play(rules.legal_actions(state)[0])  # the cell's move
        return rules.legal_actions(state)[-1]


def test_a_bot_never_plays_a_move_thought_for_a_position_that_is_gone():
    match = aloftnb.new_match("balloons", players=3, seed=3)
    board = match.board(bots={0: Meddled(match)})
    board.send = lambda *args, **kwargs: None
    assert board.step() is False  # seat 1, a person, is to move now: the bot has nothing to do
    assert [entry.seat for entry in match.history] == [0]  # the cell's move only
    assert board.control.autoplay and board.message.get("text", "") == ""  # no bot "failed"
    board.close()


class Firsts(Bot):
    name = "firsts"

    def choose(self, rules, state, seat, rng, stop=None):
        return rules.legal_actions(state)[0]


def test_a_bot_thinks_again_when_the_match_moved_on_to_another_of_its_turns():
    match = aloftnb.new_match("balloons", players=3, seed=3)
    board = match.board(bots={0: Meddled(match), 1: Firsts()})
    board.send = lambda *args, **kwargs: None
    assert board.step() is True  # the meddled move was dropped; seat 1's bot thought again
    cells_move, bots_move = match.history
    assert cells_move.seat == 0 and bots_move.seat == 1
    assert bots_move.action == match.rules.legal_actions(match.state_at(1))[0]
    assert legal_where_it_stands(match) == []
    board.close()


def test_one_failing_listener_does_not_keep_the_others_from_hearing():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    heard = []

    def broken(_match, change):
        raise RuntimeError(f"broken by a {change}")

    match.subscribe(broken)
    match.subscribe(lambda _match, change: heard.append(change))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # even where warnings are errors, all hear first
        with pytest.raises(RuntimeWarning, match="broken by a action"):
            match.play(match.legal_actions()[0])
    assert heard == ["action"]
    assert match.position == 1  # the move was made: a listener cannot take it back


def test_listeners_may_come_and_go_while_the_match_tells_them():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    heard = []
    later = []

    def once(_match, change):
        heard.append(change)
        unsubscribe_once()
        later.append(match.subscribe(lambda _m, c: heard.append(f"later {c}")))

    unsubscribe_once = match.subscribe(once)
    match.play(match.legal_actions()[0])
    match.undo()
    assert heard == ["action", "later goto"]


def test_a_copy_or_a_pickle_is_the_match_with_a_lock_of_its_own_and_no_listeners():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    board = match.board()
    match.play(match.legal_actions()[0])
    for other in (pickle.loads(pickle.dumps(match)), copy.copy(match), copy.deepcopy(match),
                  match.fork()):
        assert other.to_json() == match.to_json()
        assert other.lock is not match.lock and other._listeners == []
        other.play(other.legal_actions()[0])
        assert match.position == 1 and board.position == 1  # the original is untouched
        with other.lock:  # re-entrant: a listener, or a cell holding it, may call back in
            other.undo()
        assert other.position == 1
    board.close()


def test_every_shipped_game_is_driven_from_several_threads():
    assert sorted(PLAYERS) == GAMES
