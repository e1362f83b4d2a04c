"""Who plays each seat of a match: `SeatControl` (a person or a bot, shared by every board of the
match) and the threads bots think on, off the kernel's event loop, with the stop switches that end
their searches (on a cancel, when the match goes, at interpreter exit).

A cell, a board's messages (on a kernel subshell) and a bot's move may come on different threads:
the control changes only under its match's lock, and a bot plays its move under that lock only if
the match is still at the position it thought about (otherwise it thinks again)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..core.bots import Bot, bot_for
from ..core.match import Match
from ..core.options import whole_number_problem
from ..errors import AloftnbError
from .viewer import clip

if TYPE_CHECKING:
    from .board import Board

# Bots think here, off the kernel's event loop, so a long search never blocks the kernel.
_BOT_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="aloftnb-bot")
# pyodide (the browser's own Python, as in the JupyterLite site) cannot start a thread: there a
# bot thinks on the event loop's thread, and a searching bot gives up after this many seconds
# with its best move so far, so the kernel never stays busy long (the board says "thinking").
THREADS = sys.platform != "emscripten"
NO_THREAD_SECONDS = 0.75
# Times `SeatControl.step` thinks again when the match moved on while its bot thought.
STALE_RETRIES = 3
# The stop switch of every search in progress. At exit the executor joins its threads, so a
# search still running (mcts:60s) would hold a kernel's restart until it ended.
_SEARCHES: set[threading.Event] = set()


def _stop_every_search() -> None:
    for stop in list(_SEARCHES):
        stop.set()


# Run when the interpreter exits, before the executor's own hook joins its threads (these hooks
# run last registered first; the executor registered its hook when it was imported, above).
threading._register_atexit(_stop_every_search)  # type: ignore[attr-defined]


def _choose(bot: Bot, rules: Any, state: Any, seat: int, rng: random.Random,
            stop: threading.Event, seconds: float | None = None) -> Any:
    """The bot's move; the searching bots shipped here give up as soon as `stop` is set, or,
    given `seconds`, once that long has passed (playing their best move so far)."""
    deadline = None if seconds is None else time.perf_counter() + seconds

    def stopped() -> bool:
        return stop.is_set() or (deadline is not None and time.perf_counter() >= deadline)

    try:
        if takes_stop(bot):
            return bot.choose(rules, state, seat, rng, stop=stopped)
        return bot.choose(rules, state, seat, rng)
    finally:
        _SEARCHES.discard(stop)


_TAKES_STOP: dict[type, bool] = {}


def takes_stop(bot: Bot) -> bool:
    """Whether the bot's `choose` takes `stop` (every bot shipped does; a designer's bot written
    with the four arguments only still plays, without being stopped early)."""
    kind = type(bot)
    if kind not in _TAKES_STOP:
        try:
            parameters = inspect.signature(kind.choose).parameters
        except (TypeError, ValueError):
            _TAKES_STOP[kind] = False
        else:
            _TAKES_STOP[kind] = "stop" in parameters or any(
                p.kind is p.VAR_KEYWORD for p in parameters.values())
    return _TAKES_STOP[kind]


def _choose_into(future: asyncio.Future, bot: Bot, rules: Any, state: Any, seat: int,
                 rng: random.Random, stop: threading.Event) -> None:
    """Without threads: the bot's move (within NO_THREAD_SECONDS) into `future`, here."""
    if future.cancelled():  # cancelled before it began
        _SEARCHES.discard(stop)
        return
    try:
        future.set_result(_choose(bot, rules, state, seat, rng, stop, NO_THREAD_SECONDS))
    except Exception as exc:  # the board reports a broken bot
        future.set_exception(exc)


class WeakBoards:
    """Boards held weakly (as a WeakSet holds them) that one thread may go through while another
    adds or drops one, or a board is collected: going through a WeakSet then may fail with "Set
    changed size during iteration". Going through takes a copy, in one step."""

    def __init__(self) -> None:
        self._refs: set[weakref.ref[Board]] = set()

    def add(self, board: Board) -> None:
        self._refs.add(weakref.ref(board, self._refs.discard))

    def discard(self, board: Board) -> None:
        self._refs.discard(weakref.ref(board))

    def __iter__(self) -> Iterator[Board]:
        refs = list(self._refs)  # one step under the GIL: copying a set runs no Python code
        return iter([board for board in (ref() for ref in refs) if board is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class SeatControl:
    """Who plays each seat of one match (a person or a bot), shared by every board of that match.

    Keeping this per match, not per board, means two boards never both play a bot's turn. In a
    kernel, a bot thinks on a worker thread: the event loop keeps answering the board, and undo,
    seat changes, pausing or any change to the match cancel the thought (its move is dropped).
    """

    def __init__(self, match: Match) -> None:
        self._match_ref = weakref.ref(match)
        self.bots: dict[int, Bot] = {}
        self.autoplay = True
        # Set when stepping back in the timeline paused the bots (they would play from the
        # earlier step and replace the steps after it): back at the latest step, they play on.
        self.paused_by_timeline = False
        self.delay = 0.4  # seconds a bot "thinks" on the board, so people can follow
        self.thinking = False
        # The match's latest change ("action", "chance", "goto"...), seen before any board
        # redraws for it: boards tell news only of steps played, not of the timeline.
        self.last_change = ""
        self.boards = WeakBoards()
        self._handle: asyncio.TimerHandle | None = None
        self._timer_token: object | None = None  # which timer `_handle` is
        self._thought: tuple[asyncio.Future, threading.Event] | None = None  # a bot thinking
        self._stop_with_match: weakref.finalize | None = None
        # While bots play to the end of a round: that round (they play on without the delay).
        self._running_round: int | None = None
        match.subscribe(self._on_change)

    @property
    def match(self) -> Match:
        match = self._match_ref()
        assert match is not None, "a seat control lives only as long as its match"
        return match

    def _holding_the_match(self) -> contextlib.AbstractContextManager[Any]:
        """The match's lock (every change to a control is made under it), or nothing to hold
        once the match is gone (a board closed as the garbage collector takes both)."""
        match = self._match_ref()
        return contextlib.nullcontext() if match is None else match.lock

    def check_controller(self, seat: Any, controller: Any) -> Bot | None:
        """The bot for `controller` at `seat` (None for "human"), or an AloftnbError saying why."""
        match = self.match
        if whole_number_problem(seat, 0, match.players - 1):
            raise AloftnbError(f"seat must be 0..{match.players - 1}, not {seat!r:.60}")
        if isinstance(controller, str) and controller == "human":
            return None
        return bot_for(controller, match.rules)  # "bot": the game's default

    def set_controller(self, seat: int, controller: str | Bot) -> None:
        bot = self.check_controller(seat, controller)
        with self._holding_the_match():
            self.cancel()  # whatever was thinking thought for the old line-up
            if bot is None:
                self.bots.pop(seat, None)
            else:
                self.bots[seat] = bot
            self._refresh()
            self.schedule()

    def bot_to_move(self) -> Bot | None:
        seat = self.match.current_player
        return None if seat is None else self.bots.get(seat)

    def schedule(self) -> None:
        """Let the bot to move play after a short delay, if bots play by themselves."""
        with self._holding_the_match():
            if (self._handle is not None or self._thought is not None or not self.autoplay
                    or self.bot_to_move() is None):
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no event loop (plain Python, tests): call step() to play bot moves
            self.thinking = True
            self._refresh()
            token = self._timer_token = object()
            self._handle = loop.call_later(self.delay, self._timer_fired, token)

    def cancel(self) -> None:
        with self._holding_the_match():
            self._running_round = None
            if self._handle is not None:
                self._handle.cancel()  # marks it (its loop skips it): fine from any thread
                self._handle = None
            if self._thought is not None:
                future, stop = self._thought
                self._thought = None
                stop.set()  # a search in progress ends at its next check
                _SEARCHES.discard(stop)  # also when the search never started (no _choose)
                _cancel_on_its_loop(future)
                self._forget_match_finalizer()
            if self.thinking:
                self.thinking = False
                self._refresh()

    def _timer_fired(self, token: object) -> None:
        with self._holding_the_match():
            if self._handle is None or token is not self._timer_token:
                return  # cancelled (or scheduled anew) on another thread as it fired
            self._handle = None
            self.think()

    def think(self) -> bool:
        """Start the bot to move thinking on a worker thread (where there are no threads, on
        the loop within NO_THREAD_SECONDS); its move is played on the loop.

        Needs a running event loop (a kernel). Returns whether a bot started thinking.
        """
        with self._holding_the_match():
            return self._think()

    def _think(self) -> bool:
        match, bot = self.match, self.bot_to_move()
        if bot is None or match.is_over or self._thought is not None:
            if self._thought is None and self.thinking:
                self.thinking = False
                self._refresh()
            return False
        loop = asyncio.get_running_loop()
        seat, state = match.current_player, match.state
        assert seat is not None  # a bot is to move
        stop = threading.Event()
        _SEARCHES.add(stop)
        self._stop_with_match = weakref.finalize(match, stop.set)  # a match gone: search ends
        args = (bot, match.rules, state, seat, self._rng(match), stop)
        future: asyncio.Future
        if THREADS:
            future = loop.run_in_executor(_BOT_THREADS, _choose, *args)
        else:  # pyodide: on this thread, after the loop has sent the board its "thinking"
            future = loop.create_future()
            loop.call_soon(_choose_into, future, *args)
        self._thought = (future, stop)
        if not self.thinking:
            self.thinking = True
            self._refresh()
        future.add_done_callback(lambda done: self._thought_done(done, bot, seat, state))
        return True

    def _forget_match_finalizer(self) -> None:
        if self._stop_with_match is not None:
            self._stop_with_match.detach()
            self._stop_with_match = None

    def _thought_done(self, future: asyncio.Future, bot: Bot, seat: int, state: Any) -> None:
        match = self._match_ref()
        if match is None:
            return
        # Checked and played under the lock: no cell or board comes between, so the move is
        # played on the very position the bot thought about, or not at all.
        with match.lock:
            if self._thought is None or self._thought[0] is not future:
                return  # cancelled: undo, a seat change, pausing or another change came first
            self._thought = None
            self._forget_match_finalizer()
            self.thinking = False
            if match.state is not state or self.bots.get(seat) is not bot:
                self._refresh()  # the match moved on while the bot thought: think again
                self.schedule()
                return
            try:
                action = future.result()
                match.play(action)
            except Exception as exc:  # a broken bot must not break the board
                self._bot_failed(bot, seat, exc)

    @staticmethod
    def _rng(match: Match) -> random.Random:
        return random.Random(match.seed * 1_000_003 + match.position)  # reproducible bot play

    def step(self) -> bool:
        """Play one move now, here, for the bot whose turn it is. Returns whether a bot moved.

        The bot thinks without holding the match, so a cell or a board may change it meanwhile:
        then the move, thought for a position that is gone, is dropped and the bot to move
        thinks again (at most STALE_RETRIES times; then nothing is played)."""
        match = self.match
        for _ in range(1 + STALE_RETRIES):
            with match.lock:
                bot, seat, state = self.bot_to_move(), match.current_player, match.state
                self.thinking = False
                if bot is None or seat is None or match.is_over:
                    self._refresh()
                    return False
                rng = self._rng(match)
            try:
                if THREADS:
                    action = bot.choose(match.rules, state, seat, rng)
                else:  # pyodide: within the budget of a bot's own turn there
                    action = _choose(bot, match.rules, state, seat, rng, threading.Event(),
                                     NO_THREAD_SECONDS)
                with match.lock:
                    if match.state is not state or self.bots.get(seat) is not bot:
                        continue  # the match moved on while the bot thought: think again
                    match.play(action)
            except Exception as exc:  # a broken bot must not break the board
                with match.lock:
                    self._bot_failed(bot, seat, exc)
                return False
            return True
        with match.lock:
            self._refresh()
        return False

    def run_round(self) -> int:
        """Let the bots play on to the end of the current round (or until a person is to move,
        or the game is over). In a kernel they play one after another off the event loop, and
        any change (undo, a seat change, a person's move) stops them; outside one (tests, plain
        Python) they play here and now. Returns the moves played here and now."""
        match = self.match
        with match.lock:
            self.cancel()
            if self.bot_to_move() is None or match.is_over:
                raise AloftnbError("no bot is to move: bots play to the round's end from a bot's "
                                   "turn")
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                played, start = 0, match.round
                while match.round == start and self.step():
                    played += 1
                return played
            self._running_round = match.round
            self.think()
            return 0

    def _run_on(self) -> None:
        """After a move while running to the round's end: the next bot, or stop."""
        match = self.match
        if (self._running_round is None or match.is_over or match.round != self._running_round
                or self.bot_to_move() is None):
            self._running_round = None
            return
        if self._handle is not None:  # no delay while running
            self._handle.cancel()
            self._handle = None
        self.think()

    def _bot_failed(self, bot: Bot, seat: int, exc: Exception) -> None:
        self._running_round = None
        self.autoplay = self.paused_by_timeline = False
        self._tell(f"the {bot.name} bot at seat {seat} failed and bots were paused: "
                   f"{clip(str(exc))}")
        self._refresh()

    def _on_change(self, match: Match, change: str) -> None:
        if change == "auto_chance":
            return  # a setting: nothing moved
        self.last_change = change
        self._follow_timeline(match, change)
        if self._thought is not None:
            self.cancel()  # it was thinking about a position that is gone
        elif self._handle is not None and self.bot_to_move() is None:
            self.cancel()
        if self._running_round is not None and change not in ("action", "chance"):
            self.cancel()  # undo, goto or an edit stops the run
        if self._running_round is not None:
            self._run_on()
        else:
            self.schedule()

    def _follow_timeline(self, match: Match, change: str) -> None:
        """Pause the bots while the match is back in its timeline (steps ahead to redo), and
        let the ones the timeline paused play on once it is at its latest step again (going
        there, or a new move from an earlier step, which replaces the steps after it)."""
        if match.can_redo:
            if change == "goto" and self.autoplay and self.bots:
                self.autoplay, self.paused_by_timeline = False, True
        elif self.paused_by_timeline:
            self.autoplay, self.paused_by_timeline = True, False

    def timeline_note(self) -> str:
        """What boards say while the timeline keeps the bots paused (else nothing)."""
        if not self.paused_by_timeline or self.autoplay:
            return ""
        return ("Bots paused while you look back: they play on at the latest step (▶| or a new "
                "move). Tick 'bots play by themselves' to let them play from here (the later "
                "steps are then replaced).")

    def _refresh(self) -> None:
        with self._holding_the_match():
            for board in self.boards:
                board._publish()

    def _tell(self, text: str) -> None:
        with self._holding_the_match():
            for board in self.boards:
                board._say("error", text)


def _cancel_on_its_loop(future: asyncio.Future) -> None:
    """Cancel a thought's future from any thread (a cell's change cancels a bot thinking for a
    board's loop): asyncio's futures may only be changed on their own loop's thread."""
    loop = future.get_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        future.cancel()
        return
    try:
        loop.call_soon_threadsafe(future.cancel)
    except RuntimeError:  # its loop is closed: nothing will ever wait for that future
        pass


_controls: weakref.WeakKeyDictionary[Match, SeatControl] = weakref.WeakKeyDictionary()


def seat_control(match: Match) -> SeatControl:
    with match.lock:  # two boards made at once on two threads share one control
        control = _controls.get(match)
        if control is None:
            control = _controls[match] = SeatControl(match)
        return control
