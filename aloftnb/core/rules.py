"""The rules API every game implements (after OpenSpiel's Game/State and Pgx's init/step).

A `Rules` object is one game configured for a number of players and a set of options. It holds no
mutable state: states are immutable values and every method is a pure function of its arguments.
This is the fast path used by simulation and bots; `Match` adds history, undo and saving on top.

The protocol, in short (CONTRIBUTING.md has the long form):
- `current_player(state)` is a seat, `CHANCE` at a chance step, or None once the game is over.
- At a chance step `legal_actions` lists the outcomes (explicit chance; `chance_outcomes` gives
  their probabilities) or nothing (sampled chance: `sample_chance` draws one).
- `phase(state)` names where the game is, from the declared `phases`; `round(state)` counts
  rounds from 1. Refusals, logs, boards and metrics read them.
- `outcome(state)` says who won (maybe nobody), the final scores and why.
- `traits` declares the kind of game; `max_length()` bounds the steps of any game.
"""

from __future__ import annotations

import copy
import importlib
import random
import weakref
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from ..errors import IllegalAction, InvalidOptions, InvalidState
from .action import Action, ActionTypes, parse_action_dict
from .chance import CHANCE, weighted_choice
from .compiled import method
from .flow import Flow, apply_by_flow, legal_by_flow, legal_indices_by_flow
from .options import Option, resolve_options, whole_number_problem
from .records import record_from_dict, record_to_dict
from .traits import Outcome, Traits

# rules object -> {action: index}, for Rules.action_to_index; equal rules share a table.
_ACTION_INDEXES: weakref.WeakKeyDictionary[Any, dict[Any, int]] = weakref.WeakKeyDictionary()
# {(rules class, function name): the encoding function found for it, or None} (_encoding_function)
_ENCODING_FUNCTIONS: dict[tuple[type, str], Any] = {}

# What a game's ActionTypes declaration numbers by itself when its encoding module does not.
_DECLARED_NUMBERING = ("num_distinct_actions", "action_to_index", "action_from_index",
                       "chance_outcomes")

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=Action)


def declares_encoding(rules_class: type[AnyRules]) -> bool:
    """Whether a rules class numbers its actions and observations (an `encoding` module, or the
    methods overridden), so the adapters can offer it."""
    return bool(rules_class.encoding) or (
        rules_class.num_distinct_actions is not Rules.num_distinct_actions)


class Rules(ABC, Generic[StateT, ActionT]):
    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    # Class-wide declarations; a game may refine `traits` and `phases` per instance (per mode).
    traits: Traits = Traits(player_counts=(2,))
    option_spec: ClassVar[dict[str, Option]] = {}
    action_class: ClassVar[type[Action]] = Action
    action_types: ClassVar[tuple[str, ...]] = ()
    # The action types declared once (core/action.py): `action_class`, `action_types`,
    # `parse_action`, str() and the adapters' numbering of actions follow from it.
    actions: ClassVar[ActionTypes | None] = None
    # Where a game can be; the first is where it starts. One phase means "no phases".
    phases: tuple[str, ...] = ("play",)
    # Which action types each phase allows, so a refusal can say "only in the wind phase".
    # Phases not listed allow every type.
    phase_actions: ClassVar[dict[str, tuple[str, ...]]] = {}
    # The declared turn structure (core/flow.py). A game that declares one gets `phases`,
    # `phase_actions`, `phase()`, `round()`, `legal_actions` and `apply` derived from it.
    flow: ClassVar[Flow | None] = None
    # State-dict keys computed from the others (texts and figures for readers and drawings):
    # `Match.edit` drops them unless they are given, and saves never hold them.
    derived_keys: ClassVar[tuple[str, ...]] = ()
    # The shape of the state dict without its derived keys. Raise it whenever that shape changes
    # and teach `upgrade_state_dict` the old shape: saves and their edits record the shape.
    state_form: ClassVar[int] = 1
    # State-dict keys a dict may leave out: the reader fills in a default (e.g. a display text).
    optional_keys: ClassVar[tuple[str, ...]] = ()
    # A frozen dataclass of plain fields: its dict form and checked reader come for free.
    state_class: ClassVar[type | None] = None
    # The module ("package.module") that holds the game's encodings for the adapters, imported
    # on first use: see "encodings" below for the functions it defines.
    encoding: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        actions = cls.__dict__.get("actions")
        if actions is not None:
            if "action_class" not in cls.__dict__:
                cls.action_class = actions.action_class
            if "action_types" not in cls.__dict__:
                cls.action_types = actions.names
        flow = cls.__dict__.get("flow")
        if flow is None:
            return
        if "phases" not in cls.__dict__:
            cls.phases = flow.names
        if "phase_actions" not in cls.__dict__:
            cls.phase_actions = flow.phase_actions()
        # Installed before ABCMeta counts the abstract methods, so a flow game need not write
        # them; a game that writes its own keeps it.
        if cls.apply is Rules.apply:
            # the descriptor, not Rules._apply_by_flow: a compiled function binds through it
            cls.apply = Rules.__dict__["_apply_by_flow"]  # type: ignore[method-assign]
        if cls.legal_actions is Rules.legal_actions:
            cls.legal_actions = Rules.__dict__["_legal_by_flow"]  # type: ignore[method-assign]
        if cls.legal_indices is Rules.legal_indices and flow.gives_indices():
            cls.legal_indices = Rules.__dict__["_legal_indices_by_flow"]  # type: ignore[method-assign]

    def __init__(self, players: int, **options: Any) -> None:
        problem = whole_number_problem(players, 1, 100)
        if problem:
            raise InvalidOptions(f"players {problem}")
        self.players = players
        self.options = resolve_options(self.name, self.option_spec, options)
        self.configure()

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        """Check the player count against the options, precompute tables; raise InvalidOptions."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its class, players and options: its tables may hold compiled objects and
        # functions, which pickle cannot hold, and they follow from the options anyway.
        return (_rebuild_rules, (type(self), self.players, dict(self.options)))

    @classmethod
    def describe(cls) -> dict[str, Any]:
        info: dict[str, Any] = {
            "name": cls.name,
            "title": cls.title,
            "summary": cls.summary,
            "players": cls.player_counts(),
            "traits": cls.traits.to_dict(),
            "phases": list(cls.phases),
            "options": {name: opt.describe() for name, opt in cls.option_spec.items()},
        }
        info["max_length"] = None  # the bound with the default options, for the smallest table
        for players in sorted(cls.traits.player_counts):
            try:
                info["max_length"] = cls(players).max_length()
                break
            except (InvalidOptions, NotImplementedError):
                continue
        return info

    @classmethod
    def player_counts(cls) -> str:
        """The supported seat counts in words (games with modes say more)."""
        counts = sorted(cls.traits.player_counts)
        if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}-{counts[-1]}"
        return ", ".join(map(str, counts))

    @property
    def higher_score_wins(self) -> bool:
        return True

    def max_length(self) -> int:
        """The most steps (decisions and chance steps) any game with these options can take.

        Random play must end within it; games that could run forever need a turn-limit option.
        """
        raise NotImplementedError(f"{self.name} declares no maximum length")

    def options_for_save(self) -> dict[str, Any]:
        """The options as a save records them: plain data a later version reads back to the same
        rules. Games whose options default to shipped data (a catalogue) put that data in, so a
        save does not change meaning when a later version ships other data."""
        return copy.deepcopy(self.options)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.players == self.players
            and other.options == self.options
        )

    def __hash__(self) -> int:
        return hash((self.name, self.players))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.players}, {opts})"

    # -- the game ------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, seed: int) -> StateT:
        """The starting position; set-up randomness comes from `seed` or from chance steps."""

    @abstractmethod
    def current_player(self, state: StateT) -> int | None:
        """Seat to act, CHANCE at a chance step, or None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[ActionT]:
        """Every legal action in a stable order; at a chance step, the outcomes (explicit chance)
        or nothing (sampled chance). Empty once the game is over."""

    def legal_indices(self, state: StateT, seat: int) -> list[int] | None:
        """Optional, for speed: the adapters' index (action_to_index) of each of
        legal_actions(state), in the same order, found without making the actions; `seat` is
        current_player(state), a seat. None (the default, or where a game cannot) has the
        adapters number the actions themselves. A flow game declares it per phase or stage
        (`legal_indices=`). The conformance suite checks it at every step of seeded games."""
        return None

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The next state. Trusts that `action` is legal (the match checks); never changes `state`.
        """

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def scores(self, state: StateT) -> dict[int, float]:
        """{seat: score}. Meaningful at the end; games may report running scores before."""

    def outcome(self, state: StateT) -> Outcome | None:
        """How the game ended (None while it goes on). Default: the best final score wins."""
        if not self.is_over(state):
            return None
        scores = self.scores(state)
        best = (max if self.higher_score_wins else min)(scores.values())
        winners = tuple(seat for seat, score in scores.items() if score == best)
        word = "highest" if self.higher_score_wins else "lowest"
        return Outcome(winners, scores, f"{word} score: {best:g}")

    def winners(self, state: StateT) -> list[int]:
        """The seats that won (several on a tie, none on a shared loss); empty while it goes on."""
        result = self.outcome(state)
        return [] if result is None else list(result.winners)

    # -- turn structure ------------------------------------------------------------------------
    def phase(self, state: StateT) -> str:
        """Where the game is: one of `phases` (read from the state, for a game with a flow)."""
        if self.flow is not None:
            return self.flow.phase_of(state)
        return self.phases[0]

    def round(self, state: StateT) -> int:
        """The round, from 1: every seat has had its turns of a round before the next starts.

        Metrics check the leader when a round ends. Games with rounds override this, or count
        them in their flow."""
        if self.flow is not None:
            return self.flow.round_of(self, state)
        return 1

    # `apply` and `legal_actions` of a game with a flow (flow.py; compiled with it, so `method`)
    _apply_by_flow = method(apply_by_flow)
    _legal_by_flow = method(legal_by_flow)
    _legal_indices_by_flow = method(legal_indices_by_flow)

    # -- chance --------------------------------------------------------------------------------
    def is_chance(self, state: StateT) -> bool:
        return self.current_player(state) == CHANCE

    def chance_outcomes(self, state: StateT) -> list[tuple[ActionT, float]]:
        """(outcome, probability) pairs at a chance step of a game with explicit chance.

        Probabilities are positive and sum to 1; the outcomes are `legal_actions(state)`."""
        raise NotImplementedError(f"{self.name} lists no chance outcomes")

    def sample_chance(self, state: StateT, rng: random.Random) -> ActionT:
        """One outcome of the chance step `state` is at, drawn with `rng`."""
        return weighted_choice(self.chance_outcomes(state), rng)

    def check_chance(self, state: StateT, data: Any) -> ActionT:
        """A forced outcome for the chance step `state` is at, if it is possible there.

        Explicit chance: one of the listed outcomes. Sampled games override this."""
        if not self.is_chance(state):
            raise IllegalAction("this is not a chance step: nothing is drawn or rolled now")
        action = self.parse_action(data)
        outcomes = [outcome for outcome, _ in self.chance_outcomes(state)]
        if action in outcomes:
            return outcomes[outcomes.index(action)]
        listed = ", ".join(str(o) for o in outcomes[:8]) + (" ..." if len(outcomes) > 8 else "")
        raise IllegalAction(f"{action} cannot happen at this chance step (it can be: {listed})")

    def describe_chance(self, state: StateT, outcome: ActionT) -> str:
        """A readable sentence for a chance outcome (logs): "rolled a 6", "drew a glass hex"."""
        return self.describe_action(state, outcome)

    def chance_choice_label(self, state: StateT, outcome: ActionT) -> str:
        """A chance outcome as a choice, worded as what will happen: "roll a 6", "draw a glass
        hex at 0,1" (the designer view's chance menu). Outcomes worded the same are offered as
        one choice. Default: the log's sentence (`describe_chance`); games whose log sentences
        are in the past tense word their choices here."""
        return self.describe_chance(state, outcome)

    # -- dict forms, editing and views ---------------------------------------------------------
    def state_to_dict(self, state: StateT) -> dict[str, Any]:
        """The state as plain JSON data. Default: the fields of a `state_class` record."""
        if self.state_class is None:
            raise NotImplementedError(f"{self.name} needs state_to_dict, or a state_class")
        return record_to_dict(state)

    def state_data(self, state: StateT) -> dict[str, Any]:
        """The state dict without its derived keys: what saves record and compare."""
        data = self.state_to_dict(state)
        for key in self.derived_keys:
            data.pop(key, None)
        return data

    def upgrade_state_dict(self, data: dict[str, Any], form: int) -> dict[str, Any]:
        """A state dict of an older `state_form` (an edit in an old save) in today's shape.
        Games that raise `state_form` add the step from each older form here."""
        return data

    def state_from_dict(self, data: Any) -> StateT:
        """Build a state from its dict, checking structure and rule invariants (InvalidState).

        Default: a `state_class` record read field by field, then `check_state`."""
        if self.state_class is None:
            raise NotImplementedError(f"{self.name} needs state_from_dict, or a state_class")
        state: StateT = record_from_dict(self.state_class, data, rules=self)
        self.check_state(state)
        return state

    def check_state(self, state: StateT) -> None:
        """Raise InvalidState when a record state breaks one of the game's invariants."""

    def validate(self, state: StateT) -> StateT:
        """Check a state object's invariants; returns it (InvalidState when broken).

        The object must be exactly the state its dict describes: a hand-built object whose fields
        contradict each other (two pieces on one cell, a derived field that disagrees) would
        otherwise be silently replaced by a different state.
        """
        try:
            data = self.state_to_dict(state)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            # A hand-built state (e.g. `state._replace(...)` with a wrong-length field).
            raise InvalidState(f"that state object is malformed: {exc!r:.200}") from None
        rebuilt = self.state_from_dict(data)
        if not _same_state(rebuilt, state):
            fields = getattr(state, "_fields", ())
            differ = [name for name in fields
                      if not _same_state(getattr(rebuilt, name), getattr(state, name))]
            where = f" (its {', '.join(differ)} disagree with the rest)" if differ else ""
            raise InvalidState("that state object contradicts itself: its dict form describes a "
                               f"different state{where}; build states with set_state(dict) or "
                               "edit(...)")
        return rebuilt

    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """The state dict as `seat` may see it (None: a spectator). Default: nothing is hidden."""
        return self.state_to_dict(state)

    def determinize(self, state: StateT, seat: int, rng: random.Random) -> StateT:
        """A state consistent with what `seat` sees, hidden parts resampled with `rng`.

        Bots that search (MCTS) run on these so they never read what their seat cannot see.
        Default: the game has no hidden information.
        """
        return state

    # -- actions -------------------------------------------------------------------------------
    def parse_action(self, data: Any) -> ActionT:
        """An Action from an Action or its dict, checking its shape (IllegalAction if malformed)."""
        if self.actions is not None:
            return self.actions.parse(self, data)  # type: ignore[return-value]
        kind, params = parse_action_dict(data)
        if self.action_types and kind not in self.action_types:
            known = ", ".join(self.action_types)
            raise IllegalAction(f"{self.name} has no action type {kind!r} (its types: {known})")
        return self.action_class(kind, **params)  # type: ignore[return-value]

    def why_illegal(self, state: StateT, action: Action) -> str:
        """A sentence saying why `action` is not legal in `state`. Games refine it."""
        return (self.phase_problem(state, action) or self.stage_problem(state, action)
                or f"{action} is not a legal action now")

    def check_action(self, state: StateT, data: Any) -> ActionT:
        """The parsed action if it is legal in `state`; IllegalAction saying why otherwise."""
        action = self.parse_action(data)
        if self.is_over(state):
            raise IllegalAction(f"the game is over; {action} cannot be played")
        if self.is_chance(state):
            raise IllegalAction(f"this is a chance step, not a decision: {action} cannot be "
                                "played (force an outcome, or let chance draw one)")
        legal = self.legal_actions(state)
        try:
            return legal[legal.index(action)]  # the canonical instance, as legal_actions lists it
        except ValueError:
            raise IllegalAction(self.why_illegal(state, action)) from None

    def phase_problem(self, state: StateT, action: Action) -> str | None:
        """Why `action` is refused in this phase ("only in the wind phase") if it belongs elsewhere.
        """
        if not self.phase_actions:
            return None
        phase = self.phase(state)
        allowed = self.phase_actions.get(phase)
        if allowed is None or action.type in allowed:
            return None
        homes = [p for p, kinds in self.phase_actions.items() if action.type in kinds]
        if not homes:
            return None
        where = " or ".join(f"the {p} phase" for p in homes)
        return f"{action.type} can only be played in {where}; this is the {phase} phase"

    def stage_problem(self, state: StateT, action: Action) -> str | None:
        """Why `action` is refused in this stage of a flow's phase if another stage of the same
        phase plays it ("trim can only be played in the trim stage of the fly phase")."""
        return None if self.flow is None else self.flow.stage_problem(state, action.type)

    def describe_action(self, state: StateT, action: Action) -> str:
        """A readable sentence for `action` played in `state` (used by logs)."""
        return str(action)

    def hidden_text(self, state: StateT, action: Action, seat: int | None) -> str | None:
        """What `seat` (None: a spectator) may read of `action`, a decision or chance outcome
        taken in `state`, when its view does not show which one it was: "Emberwrights: add a
        unit to the stack", "drew a landmark face". None: the seat sees it whole (the default,
        right for games with perfect information).

        Every text that names past steps for a seat (board logs, recent-move marks) goes
        through this, so a seat's board never names what its view hides; the designer and the
        seats it returns None for read `describe_action` / `describe_chance`.
        """
        return None

    # -- encodings (optional: what the OpenSpiel and PettingZoo adapters need) ----------------
    # Decisions are numbered 0..num_distinct_actions()-1 and chance outcomes, separately,
    # 0..max_chance_outcomes()-1 (OpenSpiel's two action spaces). An observation is a flat list
    # of numbers in 0..1 of `observation_shape()`, built from `view(state, seat)` only, so it can
    # never show what the seat cannot see. A game declares all of these or none (`has_encoding`):
    # by overriding the methods, or by naming its `encoding` module, which defines
    #   num_distinct_actions(rules), action_from_index(rules, index), observation_shape(rules),
    #   observation(rules, view, seat), observation_string(rules, view, seat),
    # and may define action_to_index(rules, action) (default: a table from action_from_index)
    # and chance_outcomes(rules) (every chance outcome, in index order; default: none).
    @property
    def has_encoding(self) -> bool:
        return declares_encoding(type(self))

    def _encoding_function(self, name: str, what: str) -> Any:
        """The encoding module's function `name`; NotImplementedError naming `what` when there
        is none (what = "" : None instead, for the optional ones). Looked up once per class:
        the adapters ask at every step."""
        key = (type(self), name)
        try:
            function = _ENCODING_FUNCTIONS[key]
        except KeyError:
            module = importlib.import_module(self.encoding) if self.encoding else None
            function = getattr(module, name, None)
            if function is None and self.actions is not None and name in _DECLARED_NUMBERING:
                function = getattr(self.actions, name)
            _ENCODING_FUNCTIONS[key] = function
        if function is None and what:
            raise NotImplementedError(f"{self.name} declares no {what} encoding")
        return function

    def _chance_outcome_list(self) -> list[Action]:
        return list(self._encoding_function("chance_outcomes", "chance outcome")(self))

    def num_distinct_actions(self) -> int:
        """How many decisions the game's fixed enumeration has (legal or not)."""
        return int(self._encoding_function("num_distinct_actions", "action")(self))

    def action_to_index(self, action: Action) -> int:
        """The index of a decision, 0..num_distinct_actions()-1.

        Default: the encoding module's `action_to_index`, else a table built once per rules
        object from `action_from_index` (the adapters ask for every legal action at every
        step)."""
        module_index = self._encoding_function("action_to_index", "")
        if module_index is not None:
            return int(module_index(self, action))
        table = _ACTION_INDEXES.get(self)
        if table is None:
            table = _ACTION_INDEXES[self] = {self.action_from_index(i): i
                                             for i in range(self.num_distinct_actions())}
        try:
            return table[action]
        except (KeyError, TypeError):
            raise IllegalAction(f"{action!r:.80} is not an action of this {self.name} game"
                                ) from None

    def action_from_index(self, index: int) -> ActionT:
        """The decision with that index (legal or not in any given state)."""
        action: ActionT = self._encoding_function("action_from_index", "action")(self, index)
        return action

    def max_chance_outcomes(self) -> int:
        """How many distinct chance outcomes the enumeration has (0: the game has no chance)."""
        try:
            return len(self._chance_outcome_list())
        except NotImplementedError:
            return 0

    def chance_to_index(self, outcome: Action) -> int:
        """The index of a chance outcome, 0..max_chance_outcomes()-1."""
        outcomes = self._chance_outcome_list()
        if outcome not in outcomes:
            raise IllegalAction(f"{outcome!r:.80} is not a chance outcome of this {self.name} "
                                "game")
        return outcomes.index(outcome)

    def chance_from_index(self, index: int) -> ActionT:
        outcomes = self._chance_outcome_list()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(
                outcomes):
            raise IllegalAction(f"chance outcome indices are 0..{len(outcomes) - 1}, not "
                                f"{index!r:.40}")
        return outcomes[index]  # type: ignore[return-value]

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of every observation of a game with these options."""
        return tuple(self._encoding_function("observation_shape", "observation")(self))

    def observation(self, state: StateT, seat: int) -> list[float]:
        """`seat`'s observation, flattened: numbers in 0..1 read from `view(state, seat)` only."""
        build = self._encoding_function("observation", "observation")
        observation: list[float] = build(self, self.view(state, seat), seat)
        return observation

    def observation_string(self, state: StateT, seat: int) -> str:
        """`seat`'s observation as readable text, from `view(state, seat)` only."""
        build = self._encoding_function("observation_string", "observation")
        text: str = build(self, self.view(state, seat), seat)
        return text

    # -- drawing -------------------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        """Draw a view dict as SVG. Games override; boards and `_repr_svg_` use it.

        Clickable parts carry `data-key` (the keys of `action_path`), an `aria-label`, and a child
        with class `hit` that the board highlights: a transparent click area (the board may tint
        it), or a shape of the picture itself with classes `hit painted` (the board changes only
        its outline). `options` come from `Board.drawing_options`.
        Default: the view as a table of keys and values (the moves show as buttons beside it).
        """
        from .drawing import draw_view_table

        return draw_view_table(self.title, view)

    def action_path(self, state: StateT, action: Action) -> list[str]:
        """The board elements (data-key values) a person clicks, in order, to play `action`."""
        return [f"action:{action.type}"]


def gives_legal_indices(rules: Rules[Any, Any]) -> bool:
    """Whether `rules` may give legal_indices (its class defines them, or its flow declares
    them), so an adapter asks at every step."""
    found = getattr(type(rules), "legal_indices", None)
    return found is not None and found is not Rules.legal_indices


def _rebuild_rules(cls: type[Rules[Any, Any]], players: int, options: dict[str, Any]
                   ) -> Rules[Any, Any]:
    return cls(players, **options)


# Any game's rules, for game-agnostic code (the match, bots, the runner): its state is opaque there.
AnyRules: TypeAlias = Rules[Any, Any]


def _same_state(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b) and not (isinstance(a, tuple) and isinstance(b, tuple)):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same_state(x, y) for x, y in zip(a, b))
    if isinstance(a, Rules):
        return bool(a == b)
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 (an object that cannot compare is not the same state)
        return False
