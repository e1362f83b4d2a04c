"""Turn structure declared as data, after boardgame.io's phases, turn orders and stages.

A game lists its phases once, in a `Flow`: for each phase the action types played in it (its
decisions and the chance outcomes drawn in it), who acts and in what order, what happens when it
begins, what comes next, and the stages inside it. `Rules` derives `phases`, `phase_actions`,
`phase()`, `round()` and the dispatch of `apply` from the flow, and the conformance suite checks
that every legal action belongs to the phase (and stage) the game is in.

    FLOW = Flow(
        phases=(
            Phase("income", begin=income.begin, next="market"),          # no decisions
            Phase("market", actions=("buy", "pass"), turns=ONCE_EACH,
                  legal=market.decisions, on=market.play, next="build"),
            Phase("fight", stages=(Stage("move", actions=("move", "end_move"), on=fight.move),
                                   Stage("attack", actions=("attack",), on=fight.attack))),
        ),
        draft=Draft, settle=Draft.freeze,
    )

Handlers are plain functions `(rules, state, action)`. A game whose states are changed through a
mutable draft declares `draft` (state -> draft) and `settle` (draft -> state): its handlers change
the draft and return None. A game without a draft returns the new state from each handler.
`begin(rules, state)` follows the same convention; `Flow.enter` and `Flow.end_phase` move a game
on, so the order of phases lives in the table and nowhere else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import InvalidGame
from .chance import CHANCE

# What every game records in its phase field (or its stage field, when it records only its
# stage) once the game has ended: the one game-over marker, declared as `Flow(ended=OVER)`.
OVER: Final = "over"

# (rules, state or draft, action) -> the next state (None: the draft it changed).
Handler = Callable[[Any, Any, Any], Any]
# (rules, state or draft) -> the next state (None: the draft it changed).
Begin = Callable[[Any, Any], Any]
# (rules, state, seat) -> that seat's legal decisions.
Legal = Callable[[Any, Any, int], list[Any]]
# (rules, state, seat) -> the adapters' indices of those decisions, in the same order.
LegalIndices = Callable[[Any, Any, int], list[int]]
# (rules, state or draft) -> the name of the phase that comes next.
Choose = Callable[[Any, Any], str]


@dataclass(frozen=True)
class TurnOrder:
    """Who acts in a phase and in what order: the text a rules page, a board or `explain` shows,
    and `next_turn`, which picks the next turn from a seat order."""

    text: str
    # (order, turn, done(seat)) -> the index in `order` of the next turn, None once the phase ends.
    pick: Callable[[Sequence[int], int, Callable[[int], bool]], int | None] | None = None

    def next_turn(self, order: Sequence[int], turn: int,
                  done: Callable[[int], bool] = lambda seat: False) -> int | None:
        """Index into `order` of the seat whose turn it is, counting from `turn`; None when every
        seat has had what the phase gives it."""
        if self.pick is None:
            raise InvalidGame(f"the turn order {self.text!r} is worked out by the game's own "
                              "handlers, not by next_turn")
        return self.pick(order, turn, done)


def _once_each(order: Sequence[int], turn: int, done: Callable[[int], bool]) -> int | None:
    return turn if turn < len(order) else None


def _until_all_pass(order: Sequence[int], turn: int, done: Callable[[int], bool]
                    ) -> int | None:
    for step in range(len(order)):
        index = (turn + step) % len(order)
        if not done(order[index]):
            return index
    return None


# Nobody decides: the phase's `begin` does its work and moves on.
AUTOMATIC = TurnOrder("nobody decides: the rules do it")
# Each seat once, in the order.
ONCE_EACH = TurnOrder("each seat once, in turn order", _once_each)
# Round and round the order, skipping seats that passed, until every seat has passed.
UNTIL_ALL_PASS = TurnOrder("in turn order, round and round, until every seat has passed",
                           _until_all_pass)


def custom(text: str) -> TurnOrder:
    """A turn order the game's handlers work out themselves, described by `text`."""
    return TurnOrder(text)


@dataclass(frozen=True)
class Stage:
    """A step inside a phase's turn (boardgame.io's stages): its own actions and handlers, and
    what it does when it begins. A phase's stages come in the order declared
    (`Flow.next_stage`)."""

    name: str
    actions: tuple[str, ...] = ()
    on: Handler | Mapping[str, Handler] | None = None
    legal: Legal | None = None
    text: str = ""
    begin: Begin | None = None
    legal_indices: LegalIndices | None = None  # (optional: Rules.legal_indices)


@dataclass(frozen=True)
class Phase:
    """One phase: its action types (decisions and chance outcomes), who acts, how it begins,
    the handlers of its actions, what comes next and the stages inside it.

    `on` is one handler for every action of the phase, or {action type: handler}; a stage's
    handlers come before its phase's. `next` names the following phase, or is a function of the
    rules and the state choosing it; None marks a phase whose end the game decides itself (the
    last phase of a round or of the game)."""

    name: str
    actions: tuple[str, ...] = ()
    turns: TurnOrder = AUTOMATIC
    begin: Begin | None = None
    on: Handler | Mapping[str, Handler] | None = None
    legal: Legal | None = None
    next: str | Choose | None = None
    stages: tuple[Stage, ...] = ()
    text: str = ""
    legal_indices: LegalIndices | None = None  # (optional: Rules.legal_indices)

    def all_actions(self) -> tuple[str, ...]:
        """The phase's action types and its stages', each once, in declaration order."""
        seen = dict.fromkeys(self.actions)
        for stage in self.stages:
            seen.update(dict.fromkeys(stage.actions))
        return tuple(seen)


def _with(state: Any, name: str, value: Any) -> Any:
    """A copy of an immutable state (a named tuple or a frozen dataclass) with one field changed."""
    if hasattr(state, "_replace"):
        return state._replace(**{name: value})
    return dataclasses.replace(state, **{name: value})


def _begun(begin: Begin | None, rules: Any, work: Any) -> Any:
    """`work` after a phase's or stage's `begin` (which returns a new state, or None when it
    changed a draft in place)."""
    if begin is None:
        return work
    result = begin(rules, work)
    return work if result is None else result


def _handler_for(on: Handler | Mapping[str, Handler] | None, kind: str) -> Handler | None:
    if on is None:
        return None
    if isinstance(on, Mapping):
        return on.get(kind)
    return on


@dataclass(frozen=True)
class Flow:
    """A game's phases in the order they first come, and where a state records them.

    `phase_field` names the state attribute holding the phase; a game that records only its
    stage sets `phase_field=""` and `stage_field`, and each state's phase is the one that declares
    its stage (stage names are then unique across phases). `ended` is the value a finished game
    records in that field (the phase field, or the stage field when it records only its stage);
    such a state is in the phase `ended_phase`, default the last.
    A state that records neither (a game whose phase follows from other fields) names it with
    `phase_from(state)`. `rounds(rules, state)` counts rounds from 1; without it every state is
    in round 1. `after(rules, state)` returns the state after every step, once its handler has
    run."""

    phases: tuple[Phase, ...]
    phase_field: str = "phase"
    stage_field: str = ""
    ended: str = ""
    ended_phase: str = ""
    phase_from: Callable[[Any], str] | None = None
    rounds: Callable[[Any, Any], int] | None = None
    draft: Callable[[Any], Any] | None = None
    settle: Callable[[Any], Any] | None = None
    # (rules, state) -> state: run on the new state after every handler, as boardgame.io's
    # onMove (e.g. a game that checks goals after every step).
    after: Begin | None = None
    _by_name: dict[str, Phase] = field(init=False, repr=False, compare=False)
    _phase_of_stage: dict[str, Phase] = field(init=False, repr=False, compare=False)
    # (phase, stage) -> the stage declared after it: next_stage runs once a stage ends, on the
    # fast path of games with stages, so it is one lookup.
    _stage_after: dict[tuple[str, str], Stage] = field(init=False, repr=False, compare=False)
    _handlers: dict[tuple[str, str, str], Handler] = field(init=False, repr=False,
                                                           compare=False)
    # A flow whose phases have no stages and are recorded in a field: {phase: legal} and
    # {phase: {action type: handler}} (this one only without a draft or an `after`), so `legal`
    # and `apply` find a phase's functions with a lookup or two (a game's fast path).
    _flat_legal: dict[str, Legal] | None = field(init=False, repr=False, compare=False)
    _flat_indices: dict[str, LegalIndices] | None = field(init=False, repr=False,
                                                          compare=False)
    _flat_on: dict[str, dict[str, Handler]] | None = field(init=False, repr=False,
                                                           compare=False)
    # The named-tuple class of the game's states, once met, and the place of the phase field
    # in it: the fast path reads the phase twice a step, and by place costs less than by name.
    _record_class: Any = field(init=False, repr=False, compare=False)
    _phase_place: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [phase.name for phase in self.phases]
        problems = []
        if not names:
            problems.append("it declares no phase")
        if len(set(names)) != len(names):
            problems.append(f"phase names repeat: {names}")
        if (self.draft is None) != (self.settle is None):
            problems.append("draft and settle go together")
        phase_of_stage: dict[str, Phase] = {}
        handlers: dict[tuple[str, str, str], Handler] = {}
        for phase in self.phases:
            if isinstance(phase.next, str) and phase.next not in names:
                problems.append(f"phase {phase.name!r} goes on to {phase.next!r}, which is not "
                                "one of its phases")
            for kind in phase.actions:
                handler = _handler_for(phase.on, kind)
                if handler is not None:
                    handlers[phase.name, "", kind] = handler
            for stage in phase.stages:
                if self.stage_field and not self.phase_field and stage.name in phase_of_stage:
                    problems.append(f"stage {stage.name!r} is declared in two phases")
                phase_of_stage[stage.name] = phase
                for kind in stage.actions:
                    handler = _handler_for(stage.on, kind) or _handler_for(phase.on, kind)
                    if handler is not None:
                        handlers[phase.name, stage.name, kind] = handler
        if self.ended_phase and self.ended_phase not in names:
            problems.append(f"ended_phase {self.ended_phase!r} is not one of its phases")
        if self.ended and (self.ended in names or self.ended in phase_of_stage):
            problems.append(f"ended {self.ended!r} is also the name of a phase or stage")
        if self.phase_from is not None:
            object.__setattr__(self, "phase_field", "")
        elif not self.phase_field and not self.stage_field:
            problems.append("a state must record its phase or its stage, or phase_from name it")
        if problems:
            raise InvalidGame("this flow is not well formed: " + "; ".join(problems))
        object.__setattr__(self, "_by_name", {phase.name: phase for phase in self.phases})
        object.__setattr__(self, "_phase_of_stage", phase_of_stage)
        object.__setattr__(self, "_stage_after", {
            (phase.name, before.name): after for phase in self.phases
            for before, after in zip(phase.stages, phase.stages[1:])})
        object.__setattr__(self, "_handlers", handlers)
        object.__setattr__(self, "_record_class", None)
        object.__setattr__(self, "_phase_place", -1)
        flat = bool(self.phase_field) and not any(phase.stages for phase in self.phases)
        object.__setattr__(self, "_flat_legal", {
            phase.name: phase.legal for phase in self.phases if phase.legal is not None
        } if flat else None)
        object.__setattr__(self, "_flat_indices", {
            phase.name: phase.legal_indices for phase in self.phases
            if phase.legal_indices is not None} if flat else None)
        flat_on: dict[str, dict[str, Handler]] = {}  # (by phase, then type: no key to build)
        for (phase_name, _, kind), handler in handlers.items():
            flat_on.setdefault(phase_name, {})[kind] = handler
        object.__setattr__(self, "_flat_on", flat_on if flat and self.draft is None
                           and self.after is None else None)

    # -- what the rules derive -----------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(phase.name for phase in self.phases)

    def phase_actions(self) -> dict[str, tuple[str, ...]]:
        return {phase.name: phase.all_actions() for phase in self.phases}

    def phase_named(self, name: str) -> Phase:
        try:
            return self._by_name[name]
        except KeyError:
            raise InvalidGame(f"no phase {name!r} in this flow (its phases: "
                              f"{', '.join(self.names)})") from None

    def stage_of(self, state: Any) -> str:
        return getattr(state, self.stage_field) if self.stage_field else ""

    def phase_of(self, state: Any) -> str:
        if self.phase_from is not None:
            return self.phase_from(state)
        if self.phase_field:
            phase = str(getattr(state, self.phase_field))
            if self.ended and phase == self.ended:
                return self.ended_phase or self.phases[-1].name
            return phase
        stage = self.stage_of(state)
        if self.ended and stage == self.ended:
            return self.ended_phase or self.phases[-1].name
        return self._phase_of_stage[stage].name

    def _recorded_phase(self, state: Any) -> Any:
        """getattr(state, self.phase_field); for a state of the named-tuple class first met, its
        item at the field's place."""
        if type(state) is self._record_class:
            return state[self._phase_place]
        value = getattr(state, self.phase_field)
        if self._record_class is None:  # learnt once: a class whose field reads as its item
            cls: Any = type(state)
            fields = getattr(cls, "_fields", None)
            if (isinstance(state, tuple) and isinstance(fields, tuple)
                    and self.phase_field in fields
                    and state[fields.index(self.phase_field)] is value):
                object.__setattr__(self, "_phase_place", fields.index(self.phase_field))
            else:
                cls = False  # (no class is: read by name from now on)
            object.__setattr__(self, "_record_class", cls)
        return value

    def round_of(self, rules: Any, state: Any) -> int:
        return 1 if self.rounds is None else self.rounds(rules, state)

    def allowed(self, state: Any) -> tuple[str, ...]:
        """The action types the phase and stage `state` is in declare (a stage narrows its
        phase's list to its own actions plus the phase's)."""
        phase = self.phase_named(self.phase_of(state))
        stage_name = self.stage_of(state)
        for stage in phase.stages:
            if stage.name == stage_name:
                return tuple(dict.fromkeys(stage.actions + phase.actions))
        return phase.all_actions()

    def stage_problem(self, state: Any, kind: str) -> str | None:
        """Why an action of type `kind` is refused in the stage `state` is in, when it belongs
        to another stage of the same phase ("trim can only be played in the trim stage of the
        fly phase; this is its launch stage"); None otherwise (other phases: `phase_actions`)."""
        phase = self.phase_named(self.phase_of(state))
        stage_name = self.stage_of(state)
        if not phase.stages or kind in phase.actions:
            return None
        current = next((stage for stage in phase.stages if stage.name == stage_name), None)
        if current is None or kind in current.actions:
            return None
        homes = [stage.name for stage in phase.stages if kind in stage.actions]
        if not homes:
            return None
        where = " or ".join(f"the {name} stage" for name in homes)
        return (f"{kind} can only be played in {where} of the {phase.name} phase; this is its "
                f"{stage_name} stage")

    # -- dispatch -------------------------------------------------------------------------------
    def handler(self, state: Any, kind: str) -> Handler:
        phase = self.phase_of(state)
        stage = self.stage_of(state)
        found = self._handlers.get((phase, stage, kind)) or self._handlers.get((phase, "", kind))
        if found is None:
            raise InvalidGame(f"the flow has no handler for {kind!r} in the {phase} phase"
                              + (f", {stage} stage" if stage else ""))
        return found

    def apply(self, rules: Any, state: Any, action: Any) -> Any:
        """The state after `action`: its handler in this phase and stage, on a draft if the game
        uses one."""
        if self._flat_on is not None:
            on = self._flat_on.get(self._recorded_phase(state))
            found = on.get(action.type) if on is not None else None
            if found is not None:
                return found(rules, state, action)
        handler = self.handler(state, action.type)
        if self.draft is None:
            state = handler(rules, state, action)
        else:
            work = self.draft(state)
            handler(rules, work, action)
            assert self.settle is not None
            state = self.settle(work)
        return state if self.after is None else self.after(rules, state)

    def handlers_of(self, phase: str, stage: str = "") -> dict[str, Handler]:
        """{action type: handler} in `phase` (and its `stage`): what `handler` finds there, as
        one table, for a game whose own `apply` looks its handlers up directly."""
        found = {kind: handler for (p, s, kind), handler in self._handlers.items()
                 if p == phase and s == ""}
        if stage:
            found.update({kind: handler for (p, s, kind), handler in self._handlers.items()
                          if p == phase and s == stage})
        return found

    def legal(self, rules: Any, state: Any, seat: int) -> list[Any]:
        """`seat`'s decisions from the stage's or phase's `legal` function."""
        if self._flat_legal is not None:  # one lookup; anything else takes the path below
            found = self._flat_legal.get(self._recorded_phase(state))
            if found is not None:
                return found(rules, state, seat)
        lister = self._lister(state)
        if lister.legal is None:
            raise InvalidGame(f"the {lister.name} phase declares no legal-actions function")
        return lister.legal(rules, state, seat)

    def gives_indices(self) -> bool:
        """Whether a phase or stage declares `legal_indices`."""
        return any(phase.legal_indices is not None
                   or any(stage.legal_indices is not None for stage in phase.stages)
                   for phase in self.phases)

    def legal_indices(self, rules: Any, state: Any, seat: int) -> list[int] | None:
        """The indices of `legal`'s decisions from the stage's or phase's `legal_indices`, or
        None where it declares none (the adapters then number the decisions themselves)."""
        if self._flat_indices is not None:  # as in `legal`
            found = self._flat_indices.get(self._recorded_phase(state))
            if found is not None:
                return found(rules, state, seat)
        lister = self._lister(state)
        if lister.legal_indices is None:
            return None
        return lister.legal_indices(rules, state, seat)

    def _lister(self, state: Any) -> Phase | Stage:
        """Whose `legal` lists a state's decisions: its stage, if that declares one, else its
        phase."""
        phase = self.phase_named(self.phase_of(state))
        stage_name = self.stage_of(state)
        for stage in phase.stages:
            if stage.name == stage_name and stage.legal is not None:
                return stage
        return phase

    # -- moving on ------------------------------------------------------------------------------
    def enter(self, rules: Any, work: Any, name: str) -> Any:
        """Start phase `name` on a draft (or state): record it (or, in a game that records only
        its stage, its first stage) and run its `begin`. Returns the state for games without
        drafts; drafts are changed in place (and returned)."""
        phase = self.phase_named(name)
        if self.phase_field:
            work = self._record(work, self.phase_field, name)
        elif phase.stages:  # a game that records only its stage: the phase's first stage
            work = self._record(work, self.stage_field, phase.stages[0].name)
        return _begun(phase.begin, rules, work)

    def enter_stage(self, rules: Any, work: Any, name: str) -> Any:
        """Start stage `name` of the phase `work` is in: record it and run its `begin` (the same
        conventions as `enter`)."""
        phase = self.phase_named(self.phase_of(work))
        stage = next((st for st in phase.stages if st.name == name), None)
        if stage is None:
            raise InvalidGame(f"the {phase.name} phase has no stage {name!r}")
        return self._begin_stage(rules, work, stage)

    def _begin_stage(self, rules: Any, work: Any, stage: Stage) -> Any:
        return _begun(stage.begin, rules, self._record(work, self.stage_field, stage.name))

    def _record(self, work: Any, name: str, value: str) -> Any:
        """`work` with its field `name` set to `value`: a draft in place, a state copied."""
        if self.draft is None:
            return _with(work, name, value)
        setattr(work, name, value)
        return work

    def next_stage(self, rules: Any, work: Any) -> Any:
        """End the stage `work` is in and begin the one declared after it in its phase."""
        phase = self.phase_of(work)
        after = self._stage_after.get((phase, self.stage_of(work)))
        if after is None:
            names = ", ".join(stage.name for stage in self.phase_named(phase).stages)
            raise InvalidGame(f"no stage follows {self.stage_of(work)!r} in the {phase} phase "
                              f"(its stages: {names})")
        return self._begin_stage(rules, work, after)

    def next_phase(self, rules: Any, work: Any, after: str = "") -> str:
        """The name of the phase that follows `after` (default: the phase `work` is in)."""
        phase = self.phase_named(after or self.phase_of(work))
        if phase.next is None:
            raise InvalidGame(f"the {phase.name} phase declares no next phase: the game ends it")
        return phase.next if isinstance(phase.next, str) else phase.next(rules, work)

    def end_phase(self, rules: Any, work: Any, after: str = "") -> Any:
        """End the phase `work` is in (or `after`) and begin the one its `next` names."""
        return self.enter(rules, work, self.next_phase(rules, work, after))

    # -- documentation --------------------------------------------------------------------------
    def describe(self) -> list[dict[str, Any]]:
        """The flow as plain data, for docs and a designer's cell: each phase's actions, turn
        order, next phase and stages."""
        out = []
        for phase in self.phases:
            nxt = phase.next if isinstance(phase.next, str) or phase.next is None else "(chosen)"
            out.append({
                "phase": phase.name, "actions": list(phase.actions), "turns": phase.turns.text,
                "next": nxt, "text": phase.text,
                "stages": [{"stage": s.name, "actions": list(s.actions), "text": s.text}
                           for s in phase.stages],
            })
        return out


# -- a flow game's legal_actions and apply -------------------------------------------------------
# Rules installs these as the methods of a game with a flow that writes neither (rules.py): they
# live here, in a compiled module, so the fast path does not pass through an interpreted frame.
def apply_by_flow(rules: Any, state: Any, action: Any) -> Any:
    """`apply` for a game with a flow: the handler its phase and stage declare."""
    flow: Flow = rules.flow
    return flow.apply(rules, state, action)


def legal_by_flow(rules: Any, state: Any) -> list[Any]:
    """`legal_actions` for a game with a flow: nothing once it is over, the chance outcomes at a
    chance step, else the `legal` function of the phase's (or stage's) declaration."""
    seat = rules.current_player(state)
    if seat is None:
        return []
    if seat == CHANCE:
        return [outcome for outcome, _ in rules.chance_outcomes(state)]
    flow: Flow = rules.flow
    return flow.legal(rules, state, seat)


def legal_indices_by_flow(rules: Any, state: Any, seat: int) -> list[int] | None:
    """`Rules.legal_indices` for a game whose flow declares some: its phase's or stage's."""
    flow: Flow = rules.flow
    return flow.legal_indices(rules, state, seat)
