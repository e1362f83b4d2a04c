"""The match: one game being played, with history, undo/redo, forks, edits and saves.

Everything here is game-agnostic; a game only supplies its `Rules`. A step of the history is a
`HistoryEntry` (history.py); the save format and its checks are in saves.py.

Chance steps are history steps too. By default (`auto_chance=True`) the match resolves each one
as soon as it is reached, drawing from `chance_rng(seed, position)`, so play flows as if nothing
were random and the same seed gives the same draws. A designer can turn that off and choose
outcomes with `force(...)` (or draw one with `resolve_chance()`). Undo and redo step over drawn
outcomes to the previous or next decision of a person; forced outcomes count as decisions.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import json
import secrets
import threading
import warnings
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..errors import AloftnbError, IllegalAction, InvalidSave, InvalidState
from .action import Action
from .chance import chance_rng
from .history import HistoryEntry as HistoryEntry
from .options import is_whole_number, seed_problem, whole_number_problem
from .registry import make_rules
from .rules import AnyRules, Rules
from .saves import READABLE_VERSIONS as READABLE_VERSIONS
from .saves import SAVE_FORMAT as SAVE_FORMAT
from .saves import SAVE_VERSION as SAVE_VERSION
from .saves import load_save, save_dict
from .traits import Outcome

if TYPE_CHECKING:
    from ..widget.board import Board

CHANCE_STEP_LIMIT = 100_000  # chance steps in a row before the match gives up (a rules bug)

Method = TypeVar("Method", bound=Callable[..., Any])


def _locked(method: Method) -> Method:
    """The method holds the match's lock: no other thread's call comes between its steps."""
    @functools.wraps(method)
    def locked(self: Match, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)
    return cast(Method, locked)


class Match:
    """A game in progress. Create one with `aloftnb.new_match(game, players=..., seed=...)`."""

    def __init__(self, rules: AnyRules, seed: int | None = None, *,
                 auto_chance: bool = True) -> None:
        if seed is None:
            seed = secrets.randbits(63)
        problem = seed_problem(seed)
        if problem:
            raise AloftnbError(f"seed {problem}")
        if not isinstance(auto_chance, bool):
            raise AloftnbError(f"auto_chance must be True or False, not {auto_chance!r:.60}")
        self._lock = threading.RLock()
        self.rules = rules
        self.seed = seed
        self._timeline: list[tuple[HistoryEntry, Any]] = []
        self._initial = rules.initial_state(seed)
        self._position = 0
        self._listeners: list[Any] = []  # callables, or weak references to bound methods
        self._auto_chance = auto_chance
        # Who played each seat, when known (a replay of simulation results names the bots).
        self.played_by: dict[int, str] = {}
        # Set by `replay`: how far the decisions of the match it replays were played again.
        self.replay_report: str | None = None
        self._settle()

    # -- one writer at a time -------------------------------------------------------------------
    @property
    def lock(self) -> threading.RLock:
        """The re-entrant lock every change, read of several parts (a save) and notification
        holds: a cell, a board and a bot may share a match. `with match.lock:` makes calls one."""
        return self._lock

    @_locked
    def __getstate__(self) -> dict[str, Any]:
        # A copy or pickle: the match at one moment, with its own lock and no listeners (a fork)
        data = {**self.__dict__, "_timeline": list(self._timeline), "_listeners": [],
                "played_by": dict(self.played_by)}
        del data["_lock"]
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data, _lock=threading.RLock())

    # -- reading -------------------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.rules.name

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def options(self) -> dict[str, Any]:
        """A copy: changing it changes neither the rules nor the save."""
        return copy.deepcopy(self.rules.options)

    @property
    @_locked
    def state(self) -> Any:
        """The current immutable state snapshot (`.to_dict()` gives plain JSON data)."""
        return self._timeline[self._position - 1][1] if self._position else self._initial

    @property
    def current_player(self) -> int | None:
        """The seat to act, CHANCE at a chance step, None once the game is over."""
        return self.rules.current_player(self.state)

    @property
    def is_over(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def is_chance(self) -> bool:
        """Whether the game waits for a chance outcome (only when auto_chance is off, or after
        `goto` to such a step)."""
        return self.rules.is_chance(self.state)

    @property
    def phase(self) -> str:
        return self.rules.phase(self.state)

    @property
    def round(self) -> int:
        return self.rules.round(self.state)

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may play (the outcomes, at a chance step)."""
        return self.rules.legal_actions(self.state)

    def scores(self) -> dict[int, float]:
        return self.rules.scores(self.state)

    def outcome(self) -> Outcome | None:
        """Winners (maybe none), final scores and the reason, once the game is over."""
        return self.rules.outcome(self.state)

    def winners(self) -> list[int]:
        return self.rules.winners(self.state)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The outcomes of the chance step the game is at, with their probabilities."""
        if not self.rules.is_chance(state := self.state):
            raise IllegalAction("this is not a chance step: nothing is drawn or rolled now")
        if self.rules.traits.chance != "explicit":
            raise IllegalAction(f"{self.game}'s chance outcomes are too many to list; force one "
                                "with match.force(...) or draw one with match.resolve_chance()")
        return list(self.rules.chance_outcomes(state))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as `seat` may see it; hidden information removed (None: a spectator)."""
        if seat is not None and whole_number_problem(seat, 0, self.players - 1):
            raise AloftnbError(f"seat must be 0..{self.players - 1} or None, not {seat!r:.60}")
        return self.rules.view(self.state, seat)

    @property
    @_locked
    def history(self) -> list[HistoryEntry]:
        """Who played what, up to the current position (undone steps are not included)."""
        return [_handed_out(entry) for entry, _ in self._timeline[: self._position]]

    @property
    @_locked
    def timeline(self) -> list[HistoryEntry]:
        """Every step, including undone ones that redo would bring back."""
        return [_handed_out(entry) for entry, _ in self._timeline]

    @_locked
    def state_at(self, position: int) -> Any:
        """The state after `position` steps of the timeline (0 is the start)."""
        if whole_number_problem(position, 0, len(self._timeline)):
            raise AloftnbError(f"position must be 0..{len(self._timeline)}, not {position!r:.60}")
        return self._timeline[position - 1][1] if position else self._initial

    @property
    def position(self) -> int:
        """How many history steps lead to the current state."""
        return self._position

    @property
    def can_undo(self) -> bool:
        """Whether undo() has a decision to take back (opening chance draws are not one)."""
        try:
            self.undo_target(1)
        except AloftnbError:
            return False
        return True

    @property
    @_locked
    def can_redo(self) -> bool:
        return self._position < len(self._timeline)

    # -- changing ------------------------------------------------------------------------------
    @_locked
    def play(self, action: Any) -> Action:
        """Play an Action or its dict for the current player.

        IllegalAction says why a move is refused, and then nothing changes."""
        state = self.state
        if self.rules.is_chance(state) and not self.rules.is_over(state):
            raise IllegalAction("the game is at a chance step: choose its outcome with "
                                "match.force(...) or draw one with match.resolve_chance()")
        act: Action = self.rules.check_action(state, action)
        seat = self.rules.current_player(state)
        text = self.rules.describe_action(state, act)
        entry = HistoryEntry("action", seat, act, text, phase=self._phase_name(state),
                             hidden=self._hidden_texts(state, act))
        self._push(entry, self.rules.apply(state, act))
        self._settle()
        self._notify("action")
        return act

    # -- chance --------------------------------------------------------------------------------
    @property
    def auto_chance(self) -> bool:
        """Whether chance steps are drawn as soon as they are reached (the default)."""
        return self._auto_chance

    @auto_chance.setter
    @_locked
    def auto_chance(self, on: bool) -> None:
        if not isinstance(on, bool):
            raise AloftnbError(f"auto_chance must be True or False, not {on!r}")
        changed = on != self._auto_chance
        self._auto_chance = on
        if on and self.is_chance:
            self._settle()
            self._notify("chance")
        elif changed:
            self._notify("auto_chance")  # a setting, not a step: boards show their switch

    @_locked
    def force(self, outcome: Any) -> Action:
        """Choose the outcome of the chance step the game is at ("the die shows 6").

        An Action or its dict, as `chance_outcomes()` lists them. It is a history step (undo
        stops before it) and saves record it; later chance steps are drawn if auto_chance is on.
        """
        state = self.state
        if not self.rules.is_chance(state):
            raise IllegalAction("this is not a chance step: nothing is drawn or rolled now "
                                "(turn match.auto_chance off to stop at the next one)")
        chosen: Action = self.rules.check_chance(state, outcome)
        self._push_chance(state, chosen, forced=True)
        self._settle()
        self._notify("chance")
        return chosen

    @_locked
    def resolve_chance(self) -> Action:
        """Draw the outcome of the chance step the game is at, from the match's seed."""
        state = self.state
        if not self.rules.is_chance(state):
            raise IllegalAction("this is not a chance step: nothing is drawn or rolled now")
        drawn: Action = self.rules.sample_chance(state, chance_rng(self.seed, self._position))
        self._push_chance(state, drawn, forced=False)
        self._notify("chance")
        return drawn

    def _push_chance(self, state: Any, outcome: Action, forced: bool) -> None:
        text = self.rules.describe_chance(state, outcome)
        entry = HistoryEntry("chance", None, outcome, text, forced=forced,
                             phase=self._phase_name(state),
                             hidden=self._hidden_texts(state, outcome))
        self._push(entry, self.rules.apply(state, outcome))

    def _hidden_texts(self, state: Any, step: Action) -> tuple[tuple[int | None, str], ...]:
        """What each viewer that may not see `step` reads instead (Rules.hidden_text)."""
        if type(self.rules).hidden_text is Rules.hidden_text:
            return ()  # nothing is ever hidden: skip asking once per seat
        found = []
        for seat in (*range(self.players), None):
            text = self.rules.hidden_text(state, step, seat)
            if text is not None:
                found.append((seat, text))
        return tuple(found)

    def _settle(self) -> None:
        """With auto_chance on, draw every chance step from here to the next decision."""
        if not self._auto_chance:
            return
        self._draw_pending(CHANCE_STEP_LIMIT)
        state = self.state
        if self.rules.is_chance(state) and not self.rules.is_over(state):
            raise InvalidState(f"{CHANCE_STEP_LIMIT} chance steps in a row: the rules never "
                               "reach a decision")

    def _draw_pending(self, limit: int = CHANCE_STEP_LIMIT) -> None:
        """Draw the chance steps the game is at from the seed (at most `limit` of them)."""
        for _ in range(limit):
            state = self.state
            if not self.rules.is_chance(state) or self.rules.is_over(state):
                return
            self._push_chance(state, self.rules.sample_chance(
                state, chance_rng(self.seed, self._position)), forced=False)

    def _phase_name(self, state: Any) -> str:
        return self.rules.phase(state) if len(self.rules.phases) > 1 else ""

    @_locked
    def set_state(self, state: Any) -> None:
        """Install a state (a dict or a state object) after validating it; undo reverts it."""
        if isinstance(state, dict):
            new = self.rules.state_from_dict(state)
        elif type(state) is type(self.state):
            new = self.rules.validate(state)
        else:
            raise InvalidState(
                f"set_state takes a state dict or a {self.game} state, not {type(state).__name__}"
            )
        self._push(HistoryEntry("edit", None, edited=self.rules.state_data(new)), new)
        self._settle()
        self._notify("edit")

    @_locked
    def edit(self, **changes: Any) -> None:
        """Change parts of the state: top-level keys are replaced; dict values are updated by key.

        `match.edit(trucks=[2, 3, 4, 5])` or `match.edit(balloons={"RW": {...}})`.
        """
        data = self.rules.state_to_dict(self.state)
        for key in self.rules.derived_keys:  # recomputed from the edit, unless given explicitly
            if key not in changes:
                data.pop(key, None)
        for key, value in changes.items():
            if key not in data:
                raise InvalidState(f"the {self.game} state has no key {key!r}")
            if isinstance(data[key], dict) and isinstance(value, dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        self.set_state(data)

    @_locked
    def undo(self, steps: int = 1) -> None:
        """Take back the last `steps` decisions (actions, edits, forced outcomes), with the chance
        outcomes drawn after each."""
        if is_whole_number(steps) and steps < 0:
            raise AloftnbError(f"cannot undo {steps} step(s): steps must be >= 0")
        self.goto(self.undo_target(steps))

    @_locked
    def redo(self, steps: int = 1) -> None:
        """Bring back `steps` undone decisions, with the chance outcomes drawn after each."""
        _check_steps(steps)
        target = self._position
        for done in range(steps):
            if target >= len(self._timeline):
                raise AloftnbError(f"cannot redo {steps} step(s): only {done} to redo")
            target += 1
            while target < len(self._timeline) and not self._timeline[target][0].is_decision:
                target += 1
        self.goto(target)

    @_locked
    def undo_target(self, steps: int = 1, skip: Callable[[Any], bool] | None = None) -> int:
        """The position `undo(steps)` goes to. `skip(state)` marks positions to step back over
        as well (a board passes "a bot is to play there", to go back to a person's turn)."""
        _check_steps(steps)
        target = self._position
        for done in range(steps):
            while target > 0 and not self._timeline[target - 1][0].is_decision:
                target -= 1  # outcomes drawn after the decision go with it
            if target == 0:
                raise AloftnbError(f"cannot undo {steps} step(s): only {done} to undo")
            target -= 1
            while target > 0 and (self._drawn_after(target)
                                  or (skip is not None and skip(self.state_at(target)))):
                target -= 1
        if self._drawn_after(target):  # only the opening draws are left: nothing to go back to
            raise AloftnbError(f"cannot undo {steps} step(s): the steps before are chance draws")
        return target

    def _drawn_after(self, position: int) -> bool:
        """Whether the step after `position` is a drawn (not forced) chance outcome."""
        return position < len(self._timeline) and not self._timeline[position][0].is_decision

    @_locked
    def goto(self, position: int) -> None:
        """Jump to any point of the timeline (0 is the start), e.g. to replay a game."""
        if not is_whole_number(position):
            raise AloftnbError(f"position must be a whole number, not {position!r:.60}")
        if not 0 <= position <= len(self._timeline):
            raise AloftnbError(f"position must be 0..{len(self._timeline)}, not {position}")
        if position != self._position:
            self._position = position
            self._notify("goto")

    def fork(self) -> Match:
        """An independent copy at the current position, to try a what-if."""
        other = copy.copy(self)  # at one moment, without listeners (__getstate__)
        del other._timeline[other._position :]
        other.replay_report = None
        return other

    def replay(self, upto: int | None = None, **options: Any) -> Match:
        """The same game again under changed options: "what if this spire had range 3?".

        A new match with the same seed and seats, this match's options updated by `options`
        (checked as `new_match` checks them), and this match's decisions (actions, forced
        outcomes, edits) up to position `upto` (default: the current one) played again in order.
        Drawn chance steps are drawn again from the seed: while the game takes the same path
        it draws what it drew before, and where the new options change a chance step (more
        dice, another deck) the draw follows the new rules.

        Replaying stops before the first decision the new rules refuse, and nothing is raised:
        `replay_report` on the new match says how many decisions were played again and, if it
        stopped early, which one was refused and why. This match is not changed.
        """
        with self._lock:  # what is replayed is read at one moment; the replay needs no lock
            upto = self._position if upto is None else upto
            if whole_number_problem(upto, 0, len(self._timeline)):
                raise AloftnbError(f"upto must be 0..{len(self._timeline)}, not {upto!r:.60}")
            entries = [entry for entry, _ in self._timeline[:upto]]
            upto_state, auto_chance = self.state_at(upto), self._auto_chance
            played_by = dict(self.played_by)
        rules = make_rules(self.game, self.players, **{**self.rules.options, **options})
        other = Match(rules, self.seed, auto_chance=False)
        other.played_by = played_by
        decisions = [(number, entry) for number, entry in enumerate(entries, start=1)
                     if entry.is_decision]
        replayed = 0
        stopped = ""
        previous = 0  # the step number of the last decision replayed
        for number, entry in decisions:
            try:
                # First the outcomes drawn between the last decision and this one, as many as
                # there were: a forced outcome or an edit must land where it was made.
                other._draw_pending(limit=number - previous - 1)
                if entry.kind == "action":
                    other._draw_pending()  # new options may add draws before a move
                    if other.current_player != entry.seat:
                        raise IllegalAction(f"seat {entry.seat} played it, but "
                                            f"{other._whose_turn()}")
                    other.play(entry.action)
                elif entry.kind == "chance":
                    other.force(entry.action)
                else:
                    other.set_state(copy.deepcopy(entry.edited))
            except AloftnbError as exc:
                stopped = f"step {number} ({entry}) is refused now: {exc}"
                break
            replayed += 1
            previous = number
        if not stopped:
            # The draws that followed the last decision replayed (as many as there were).
            other._draw_pending(limit=upto - previous)
            if not options and (other._position != upto or other.rules.state_data(other.state)
                                != self.rules.state_data(upto_state)):
                stopped = (f"the replay reached step {other._position}, not the position "
                           f"{upto} it replays, or another state there")
        other._auto_chance = auto_chance
        if other._auto_chance:
            other._settle()
        total = len(decisions)
        other.replay_report = (f"replayed {replayed} of {total} decisions under "
                               f"{_options_text(options)}" + (f"; stopped: {stopped}"
                                                              if stopped else ""))
        return other

    def _whose_turn(self) -> str:
        if self.is_over:
            return "the game is over now"
        if self.is_chance:
            return "the game is at a chance step now"
        return f"it is seat {self.current_player}'s turn now"

    def _push(self, entry: HistoryEntry, state: Any) -> None:
        """Add a step after the current position (dropping the redo branch). Callers notify."""
        del self._timeline[self._position :]
        self._timeline.append((entry, state))
        self._position += 1

    # -- observers (boards) --------------------------------------------------------------------
    @_locked
    def subscribe(self, callback: Callable[[Match, str], None]) -> Callable[[], None]:
        """Call `callback(match, change)` after every change. Bound methods are held weakly."""
        if not callable(callback):
            raise AloftnbError(f"subscribe takes a function or method, not {callback!r}")
        # Only Python bound methods can be held weakly (builtins such as list.append cannot).
        ref = weakref.WeakMethod(callback) if inspect.ismethod(callback) else callback
        self._listeners.append(ref)

        def unsubscribe() -> None:
            with self._lock:
                if ref in self._listeners:
                    self._listeners.remove(ref)

        return unsubscribe

    def _notify(self, change: str) -> None:
        """Tell every listener (callers hold the lock), even when one fails: a failure is a
        warning once all have heard, since the change is made and raising would say refused."""
        failures = []
        for ref in list(self._listeners):  # a copy: a listener may (un)subscribe as it hears
            callback = ref() if isinstance(ref, weakref.WeakMethod) else ref
            if callback is None:
                self._listeners.remove(ref)
                continue
            try:
                callback(self, change)
            except Exception as exc:  # the change is made; a broken listener must not hide that
                name = getattr(callback, "__qualname__", type(callback).__name__)
                failures.append(f"a match listener ({name}) failed after a {change}: {exc!r}")
        for failure in failures:
            warnings.warn(failure, RuntimeWarning, stacklevel=4)  # play's caller

    # -- saving --------------------------------------------------------------------------------
    @_locked
    def to_dict(self) -> dict[str, Any]:
        """The save as a dict (core/saves.py holds the format)."""
        return save_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """Versioned JSON holding options, seed, the whole timeline and the current position."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Load a save. Malformed or tampered text raises InvalidSave naming the problem."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidSave(f"not a JSON save: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Load a save's dict: its timeline is played again step by step, every chance step
        marked as drawn must be what the seed draws, and the result must be the saved state.
        Anything else raises InvalidSave naming the problem. Loading never opens a file."""
        return load_save(cls, data)

    # -- display -------------------------------------------------------------------------------
    def board(self, **kwargs: Any) -> Board:
        """An interactive board widget for this match (needs a Jupyter front end to display)."""
        from ..widget import board_for

        return board_for(self, **kwargs)

    def _repr_svg_(self) -> str:
        return self.rules.render_svg(self.rules.view(self.state, None))

    def __repr__(self) -> str:
        if self.is_over:
            status = f"over, winners {self.winners()}"
        elif self.is_chance:
            status = "at a chance step"
        else:
            status = f"seat {self.current_player} to play"
        return f"<Match {self.game}, {self.players} players, step {self._position}, {status}>"


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return "the same options"
    return ", ".join(f"{name}={_short(value)}" for name, value in options.items())


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else "(changed)"


def _check_steps(steps: Any) -> None:
    if not is_whole_number(steps) or steps < 0:
        raise AloftnbError(f"steps must be a whole number >= 0, not {steps!r:.60}")


def _handed_out(entry: HistoryEntry) -> HistoryEntry:
    """The entry as the match hands it out: an edit's state dict is a copy, never the record."""
    if entry.edited is None:
        return entry
    return dataclasses.replace(entry, edited=copy.deepcopy(entry.edited))


def new_match(game: str, *, players: int, seed: int | None = None, auto_chance: bool = True,
              **options: Any) -> Match:
    """Start a match of `game` for `players` seats. Options are checked (InvalidOptions).

    auto_chance=False stops at every chance step so its outcome can be forced (`match.force`)."""
    return Match(make_rules(game, players, **options), seed, auto_chance=auto_chance)
