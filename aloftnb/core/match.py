"""The match: one game being played, with history, undo/redo, forks, edits and saves.

Everything here is game-agnostic; a game only supplies its `Rules`.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import secrets
import warnings
import weakref
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import AloftnbError, IllegalAction, InvalidSave, InvalidState
from .action import Action
from .options import is_whole_number, whole_number_problem
from .registry import make_rules
from .rules import Rules

SAVE_FORMAT = "aloftnb.match"
SAVE_VERSION = 1


@dataclass(frozen=True)
class HistoryEntry:
    """One step of a match: an action a seat played, or an edit made from a cell."""

    kind: str  # "action" or "edit"
    seat: int | None
    action: Action | None = None
    text: str = ""
    edited: dict[str, Any] | None = None  # the state dict an edit installed

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "action":
            return {"kind": "action", "seat": self.seat, "action": self.action.to_dict()}
        return {"kind": "edit", "state": copy.deepcopy(self.edited)}  # saves never alias history

    def __str__(self) -> str:
        if self.kind == "edit":
            return "edit: the state was changed from a cell"
        return f"seat {self.seat}: {self.text}"


class Match:
    """A game in progress. Create one with `aloftnb.new_match(game, players=..., seed=...)`."""

    def __init__(self, rules: Rules, seed: int | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(63)
        if whole_number_problem(seed, 0):
            raise AloftnbError(f"seed must be a non-negative whole number, not {seed!r:.60}")
        self.rules = rules
        self.seed = seed
        self._timeline: list[tuple[HistoryEntry, Any]] = []
        self._initial = rules.initial_state(seed)
        self._position = 0
        self._listeners: list[weakref.ref | Callable] = []

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
    def state(self):
        """The current immutable state snapshot (`.to_dict()` gives plain JSON data)."""
        return self._timeline[self._position - 1][1] if self._position else self._initial

    @property
    def current_player(self) -> int | None:
        return self.rules.current_player(self.state)

    @property
    def is_over(self) -> bool:
        return self.rules.is_over(self.state)

    def legal_actions(self) -> list[Action]:
        return self.rules.legal_actions(self.state)

    def scores(self) -> dict[int, float]:
        return self.rules.scores(self.state)

    def winners(self) -> list[int]:
        return self.rules.winners(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as `seat` may see it; hidden information removed (None: a spectator)."""
        if seat is not None and whole_number_problem(seat, 0, self.players - 1):
            raise AloftnbError(f"seat must be 0..{self.players - 1} or None, not {seat!r:.60}")
        return self.rules.view(self.state, seat)

    @property
    def history(self) -> list[HistoryEntry]:
        """Who played what, up to the current position (undone steps are not included)."""
        return [_handed_out(entry) for entry, _ in self._timeline[: self._position]]

    @property
    def timeline(self) -> list[HistoryEntry]:
        """Every step, including undone ones that redo would bring back."""
        return [_handed_out(entry) for entry, _ in self._timeline]

    def state_at(self, position: int):
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
        return self._position > 0

    @property
    def can_redo(self) -> bool:
        return self._position < len(self._timeline)

    # -- changing ------------------------------------------------------------------------------
    def play(self, action: Action | dict) -> Action:
        """Play an Action or its dict for the current player. IllegalAction says why, changes nothing."""
        state = self.state
        act = self.rules.check_action(state, action)
        seat = self.rules.current_player(state)
        text = self.rules.describe_action(state, act)
        self._push(HistoryEntry("action", seat, act, text), self.rules.apply(state, act))
        return act

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
        self._push(HistoryEntry("edit", None, edited=self.rules.state_to_dict(new)), new)

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

    def undo(self, steps: int = 1) -> None:
        _check_steps(steps)
        if steps < 0 or steps > self._position:
            raise AloftnbError(f"cannot undo {steps} step(s): only {self._position} to undo")
        self.goto(self._position - steps)

    def redo(self, steps: int = 1) -> None:
        _check_steps(steps)
        if steps < 0 or self._position + steps > len(self._timeline):
            left = len(self._timeline) - self._position
            raise AloftnbError(f"cannot redo {steps} step(s): only {left} to redo")
        self.goto(self._position + steps)

    def goto(self, position: int) -> None:
        """Jump to any point of the timeline (0 is the start), e.g. to replay a game."""
        if not is_whole_number(position):
            raise AloftnbError(f"position must be a whole number, not {position!r:.60}")
        if not 0 <= position <= len(self._timeline):
            raise AloftnbError(f"position must be 0..{len(self._timeline)}, not {position}")
        if position != self._position:
            self._position = position
            self._notify("goto")

    def fork(self) -> "Match":
        """An independent copy at the current position, to try a what-if."""
        other = Match.__new__(Match)
        other.rules, other.seed, other._initial = self.rules, self.seed, self._initial
        other._timeline = self._timeline[: self._position]
        other._position = self._position
        other._listeners = []
        return other

    def _push(self, entry: HistoryEntry, state: Any) -> None:
        del self._timeline[self._position :]
        self._timeline.append((entry, state))
        self._position += 1
        self._notify(entry.kind)

    # -- observers (boards) --------------------------------------------------------------------
    def subscribe(self, callback: Callable[["Match", str], None]) -> Callable[[], None]:
        """Call `callback(match, change)` after every change. Bound methods are held weakly."""
        if not callable(callback):
            raise AloftnbError(f"subscribe takes a function or method, not {callback!r}")
        # Only Python bound methods can be held weakly (builtins such as list.append cannot).
        ref = weakref.WeakMethod(callback) if inspect.ismethod(callback) else callback
        self._listeners.append(ref)

        def unsubscribe() -> None:
            if ref in self._listeners:
                self._listeners.remove(ref)

        return unsubscribe

    def _notify(self, change: str) -> None:
        for ref in list(self._listeners):
            callback = ref() if isinstance(ref, weakref.WeakMethod) else ref
            if callback is None:
                self._listeners.remove(ref)
                continue
            try:
                callback(self, change)
            except Exception as exc:  # the change is made; a broken listener must not hide that
                warnings.warn(f"a listener of this match failed after a {change}: {exc!r}",
                              RuntimeWarning, stacklevel=3)

    # -- saving --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "timeline": [entry.to_dict() for entry, _ in self._timeline],
            "position": self._position,
            "state": self.rules.state_to_dict(self.state),
        }

    def to_json(self, indent: int | None = None) -> str:
        """Versioned JSON holding options, seed, the whole timeline and the current position."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Match":
        """Load a save. Malformed or tampered text raises InvalidSave naming the problem."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidSave(f"not a JSON save: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> "Match":
        if not isinstance(data, dict):
            raise InvalidSave("a save must be a JSON object")
        if data.get("format") != SAVE_FORMAT:
            raise InvalidSave(f"not an aloftnb match save (format is {data.get('format')!r})")
        if data.get("version") != SAVE_VERSION:
            raise InvalidSave(
                f"save version {data.get('version')!r} is not supported (this aloftnb reads "
                f"version {SAVE_VERSION})"
            )
        required = ("game", "players", "seed", "options", "timeline", "position", "state")
        missing = [key for key in required if key not in data]
        if missing:
            raise InvalidSave(f"the save has no {missing[0]!r}")
        if not isinstance(data["options"], dict) or not all(
                isinstance(name, str) for name in data["options"]):
            raise InvalidSave("'options' must be an object whose keys are option names")
        if not isinstance(data["timeline"], list):
            raise InvalidSave("'timeline' must be a list")
        try:
            rules = make_rules(data["game"], data["players"], **data["options"])
            match = cls(rules, data["seed"])
        except AloftnbError as exc:
            raise InvalidSave(f"the save's game settings are invalid: {exc}") from None
        for number, step in enumerate(data["timeline"], start=1):
            match._replay_step(number, step)
        position = data["position"]
        if not is_whole_number(position):
            raise InvalidSave(f"'position' must be a whole number, not {position!r}")
        if not 0 <= position <= len(match._timeline):
            raise InvalidSave(f"'position' {position} is outside the timeline")
        match._position = position
        if rules.state_to_dict(match.state) != data["state"]:
            raise InvalidSave(
                "the saved state does not match the one its history leads to "
                "(the file was edited or is corrupt)"
            )
        return match

    def _replay_step(self, number: int, step: Any) -> None:
        if not isinstance(step, dict) or step.get("kind") not in ("action", "edit"):
            raise InvalidSave(f"timeline step {number} is not an action or an edit")
        try:
            if step["kind"] == "action":
                seat = self.current_player
                if not is_whole_number(step.get("seat")) or step.get("seat") != seat:
                    raise InvalidSave(
                        f"timeline step {number} says seat {step.get('seat')!r:.60} played, "
                        f"but it was seat {seat}'s turn"
                    )
                self.play(step.get("action"))
            else:
                self.set_state(step.get("state"))
        except (IllegalAction, InvalidState) as exc:
            raise InvalidSave(f"timeline step {number} cannot be replayed: {exc}") from None

    # -- display -------------------------------------------------------------------------------
    def board(self, **kwargs: Any):
        """An interactive board widget for this match (needs a Jupyter front end to display)."""
        from ..widget import board_for

        return board_for(self, **kwargs)

    def _repr_svg_(self) -> str:
        return self.rules.render_svg(self.rules.view(self.state, None))

    def __repr__(self) -> str:
        if self.is_over:
            status = f"over, winners {self.winners()}"
        else:
            status = f"seat {self.current_player} to play"
        return f"<Match {self.game}, {self.players} players, step {self._position}, {status}>"


def _check_steps(steps: Any) -> None:
    if not is_whole_number(steps):
        raise AloftnbError(f"steps must be a whole number, not {steps!r:.60}")


def _handed_out(entry: HistoryEntry) -> HistoryEntry:
    """The entry as the match hands it out: an edit's state dict is a copy, never the record."""
    if entry.edited is None:
        return entry
    return dataclasses.replace(entry, edited=copy.deepcopy(entry.edited))


def new_match(game: str, *, players: int, seed: int | None = None, **options: Any) -> Match:
    """Start a match of `game` for `players` seats. Options are checked (InvalidOptions)."""
    return Match(make_rules(game, players, **options), seed)
