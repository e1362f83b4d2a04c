"""Actions: small immutable values with a dict form, like python-chess's Move."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import IllegalAction
from .interning import INTERNED_LIMIT as INTERNED_LIMIT  # (compiled there)
from .interning import interned as interned
from .options import _short_repr
from .words import with_article

_SCALARS = (str, int, float, bool, type(None))


class Action(tuple[Any, ...]):
    """One move in a game: a `type` plus a few named JSON-scalar parameters.

    Actions compare and hash by value, so they can be looked up in a list of legal actions.
    Games subclass it to give `str()` a readable sentence.

    An action is the tuple `(type, sorted (name, value) pairs)`, so hashing and comparing run
    at C speed (the bots' trees and `action in legal` do both all the time), and its fields sit
    in its instance dict, so `action.balloon` is a plain attribute read, not a Python call.
    """

    # {type: sentence}: filled in by the game's ActionTypes declaration (format string or function)
    _texts: ClassVar[dict[str, str | Callable[[dict[str, Any]], str]]] = {}
    type: str
    _params: dict[str, Any]

    if TYPE_CHECKING:  # fields are read by name (`action.balloon`); no __getattr__ at run time,
        # where it would route every read of an action's fields through a slower lookup
        def __getattr__(self, name: str) -> Any: ...

    def __new__(cls, type: str, **params: Any) -> Action:  # noqa: PYI034 (games subclass it)
        # Sorted, so {"balloon": ..., "truck": ...} and {"truck": ..., "balloon": ...} are equal.
        self = tuple.__new__(cls, (type, tuple(sorted(params.items()))))
        fields = self.__dict__
        fields.update(params)
        fields["type"], fields["_params"] = type, params
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("actions are immutable")

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self._params}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({self.type!r}{', ' if inner else ''}{inner})"

    def __str__(self) -> str:
        text = self._texts.get(self.type)
        if text is not None:
            try:
                return (text.format_map(self._params) if isinstance(text, str)
                        else text(self._params))
            except KeyError:  # built in Python without a declared field: the plain form below
                pass
        inner = " ".join(f"{k}={v}" for k, v in self._params.items())
        return f"{self.type} {inner}".strip()

    def __reduce__(self) -> tuple[Any, ...]:  # lets actions cross processes in simulations
        return (_rebuild, (type(self), self.type, self._params))


def _rebuild(cls: type[Action], type_: str, params: dict[str, Any]) -> Action:
    return cls(type_, **params)


def parse_action_dict(data: Any) -> tuple[str, dict[str, Any]]:
    """Check the generic shape of an action dict: {"type": str, name: scalar, ...}."""
    if isinstance(data, Action):  # built in Python: its fields get the same checks as a dict's
        data = data.to_dict()
    if not isinstance(data, dict):
        raise IllegalAction(
            f"an action must be an Action or a dict like {{'type': ...}}, not {type(data).__name__}"
        )
    if "type" not in data:
        raise IllegalAction(f"action dict {_short_repr(data)} has no 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise IllegalAction(f"action 'type' must be a string, not {_short_repr(kind)}")
    params = {}
    for key, value in data.items():
        if key == "type":
            continue
        if not isinstance(key, str):
            raise IllegalAction(f"action keys must be strings, not {_short_repr(key)}")
        if type(value) not in _SCALARS:  # exact types: no numpy numbers, no str subclasses
            raise IllegalAction(f"action field {_short_repr(key)} must be a plain value, not "
                                f"{_short_repr(value)}")
        params[key] = value
    return kind, params


# -- action types declared once ------------------------------------------------------------------
# A game lists its action types in an `ActionTypes`: each type's fields with their Python types,
# its sentence for str(), and the values each field can take in a game with given rules. Parsing
# (the exact fields, of the exact types), str() and the adapters' numbering of decisions and
# chance outcomes all follow from that one declaration.

_KIND_WORDS = {int: "a whole number", str: "a text", bool: "true or false", float: "a number"}


@dataclass(frozen=True)
class Param:
    """One field of an action type. `values(rules, **earlier)` lists what it can be in a game
    with those rules (the adapters number every combination); it may read the fields declared
    before it, e.g. the targets next to the hex an attack starts from. `check(rules, value)`
    (optional) is the game's own refusal of a value, a sentence or None: parsing asks it before
    the type check, so it must take any plain value and may explain one of the wrong type in the
    game's words ("balloons may not be placed on the safety truck")."""

    name: str
    kind: type = str
    values: Callable[..., Iterable[Any]] | None = None
    check: Callable[[Any, Any], str | None] | None = None


@dataclass(frozen=True)
class ActionType:
    """One kind of action: its fields, how it reads (a format string over its fields, or a
    function of them), whether chance plays it, and (optional) the rules it exists under."""

    name: str
    params: tuple[Param, ...] = ()
    text: str | Callable[[dict[str, Any]], str] = ""
    chance: bool = False
    when: Callable[[Any], bool] | None = None
    # The order the numbering nests the fields' values in (empty: the order declared), for a
    # numbering that must not follow the order the fields read in.
    numbering: tuple[str, ...] = ()
    # The log's sentence (what happened) and a chooser's label (a chance outcome chosen by
    # hand): format strings over the fields and the words the game passes (ActionTypes.done).
    done: str = ""
    choose: str = ""

    def shape(self) -> str:
        return ", ".join(f"{p.name}: {p.kind.__name__}" for p in self.params) or "no fields"

    def numbered_params(self) -> tuple[Param, ...]:
        if not self.numbering:
            return self.params
        by_name = {p.name: p for p in self.params}
        if sorted(self.numbering) != sorted(by_name):
            raise ValueError(f"{self.name}: numbering {self.numbering} must name each field "
                             f"once ({', '.join(by_name) or 'none'})")
        return tuple(by_name[n] for n in self.numbering)


def action_type(name: str, text: str | Callable[[dict[str, Any]], str] = "", *,
                chance: bool = False, when: Callable[[Any], bool] | None = None,
                numbering: tuple[str, ...] = (), done: str = "", choose: str = "",
                **params: type | tuple[Any, ...]) -> ActionType:
    """`action_type("move", "move to {to}", to=(str, lambda rules: rules.corners))`: a field is
    its type, or (type, values), or (type, values, check) (see Param). `numbering` orders the
    fields' values in the numbering when it differs from the fields' order. `done` is the log's
    sentence and `choose` a chooser's label, over the fields and the game's words:
    `done="{who} moved to {to}"` (see ActionTypes.done)."""
    fields = tuple(Param(key, *spec) if isinstance(spec, tuple) else Param(key, spec)
                   for key, spec in params.items())
    declared = ActionType(name, fields, text, chance, when, tuple(numbering), done, choose)
    declared.numbered_params()  # a numbering naming other fields fails here, not at first use
    return declared


class _Words(dict[str, Any]):
    """The names a sentence may use: the action's fields, then the game's words (functions of
    no arguments are called when a sentence uses them)."""

    def __init__(self, action: Action, words: dict[str, Any]) -> None:
        super().__init__(words)
        self.action = action

    def __missing__(self, key: str) -> Any:
        raise KeyError(f"the sentence uses {{{key}}}, which is neither a field of "
                       f"{with_article(self.action.type)} action nor a word given to it")

    def __getitem__(self, key: str) -> Any:
        if key in self.action._params:
            return self.action._params[key]
        value = super().__getitem__(key)
        return value() if callable(value) else value


class ActionTypes:
    """A game's action types, each declared once, bound to its Action subclass.

    The subclass's str() becomes each type's `text`; `parse` checks a dict or Action against the
    declaration; `tables(rules)` numbers every decision and chance outcome for the adapters.
    `make(type, **fields)` builds the numbered actions (default: the class; a game that hands
    out one instance per action passes its cache, so the adapters' lookups find the very
    objects `legal_actions` lists). `longest_text` caps the length of text fields."""

    def __init__(self, action_class: type[Action], *types: ActionType,
                 make: Callable[..., Action] | None = None,
                 longest_text: int | None = None) -> None:
        if action_class is Action:
            raise TypeError("declare a game's action types on its own Action subclass")
        self.action_class = action_class
        self.make: Callable[..., Action] = make or action_class
        self.longest_text = longest_text
        self.types = types
        self.by_name: dict[str, list[ActionType]] = {}
        for declared in types:
            self.by_name.setdefault(declared.name, []).append(declared)
        self.names = tuple(self.by_name)
        self.decision_names = tuple(dict.fromkeys(t.name for t in types if not t.chance))
        self.chance_names = tuple(dict.fromkeys(t.name for t in types if t.chance))
        texts = {}
        for declared in types:
            if declared.text and declared.name not in texts:
                texts[declared.name] = declared.text
        action_class._texts = texts
        self._tables: dict[Any, tuple[list[Action], dict[Action, int], list[Action]]] = {}
        self._last: tuple[Any, tuple[list[Action], dict[Action, int], list[Action]]] = (
            None, ([], {}, []))

    def done(self, action: Action, **words: Any) -> str:
        """The log's sentence for `action`: its type's `done`, filled from its fields and from
        `words` (a word may be a function of no arguments, called only when the sentence uses
        it). A type that declares none reads as str(action)."""
        return self._sentence(action, "done", words)

    def choice(self, action: Action, **words: Any) -> str:
        """A chooser's label for `action` (its type's `choose`, filled as `done` is)."""
        return self._sentence(action, "choose", words)

    def _sentence(self, action: Action, which: str, words: dict[str, Any]) -> str:
        for declared in self.by_name.get(action.type, ()):
            template: str = getattr(declared, which)
            if template:
                return template.format_map(_Words(action, words))
        return str(action)

    def declaration(self, rules: Any, name: str) -> ActionType | None:
        """The declaration of `name` that applies under `rules` (None: no such type there)."""
        for declared in self.by_name.get(name, ()):
            if declared.when is None or declared.when(rules):
                return declared
        return None

    def parse(self, rules: Any, data: Any) -> Action:
        """An action of a declared type with exactly its fields, each of its type; IllegalAction
        saying what is wrong otherwise."""
        kind, params = parse_action_dict(data)
        declared = self.declaration(rules, kind)
        if declared is None:
            known = ", ".join(n for n in self.names if self.declaration(rules, n) is not None)
            raise IllegalAction(f"{rules.name} has no action type {_short_repr(kind)} (its "
                                f"types: {known})")
        expected = {p.name: p.kind for p in declared.params}
        if set(params) != set(expected):
            got = ", ".join(sorted(map(repr, params))) or "none"
            raise IllegalAction(f"{with_article(kind)} action takes {declared.shape()}; got {got}")
        for param in declared.params:  # the game's own refusals first, in declared order
            if param.check is not None:
                problem = param.check(rules, params[param.name])
                if problem:
                    raise IllegalAction(problem)
        longest = self.longest_text
        for key, value in params.items():
            if type(value) is not expected[key] or (
                    longest is not None and type(value) is str and len(value) > longest):
                want = _KIND_WORDS.get(expected[key], expected[key].__name__)
                if longest is not None and expected[key] is str:
                    want = f"a short text (at most {longest} characters)"
                raise IllegalAction(f"{kind}: {key} must be {want}, not {_short_repr(value)} "
                                    f"({with_article(kind)} action takes {declared.shape()})")
        ordered = {p.name: params[p.name] for p in declared.params}
        return self.action_class(kind, **ordered)

    def tables(self, rules: Any) -> tuple[list[Action], dict[Action, int], list[Action]]:
        """(every decision in index order, {decision: index}, every chance outcome in index
        order) for a game with these rules: each declared type in turn, its fields' values
        nested in declaration order. Built once per equal rules."""
        last = self._last  # one tuple, read once: safe with bots on other threads
        if last[0] is rules:  # the adapters ask with the same rules object every step
            return last[1]
        found = self._tables.get(rules)
        if found is None:
            decisions: list[Action] = []
            chance: list[Action] = []
            for declared in self.types:
                if declared.when is not None and not declared.when(rules):
                    continue
                (chance if declared.chance else decisions).extend(self._every(rules, declared))
            found = (decisions, {a: i for i, a in enumerate(decisions)}, chance)
            if len(self._tables) > 64:
                self._tables.clear()
            self._tables[rules] = found
        self._last = (rules, found)
        return found

    def _every(self, rules: Any, declared: ActionType) -> list[Action]:
        combos: list[dict[str, Any]] = [{}]
        for param in declared.numbered_params():
            if param.values is None:
                raise NotImplementedError(f"{declared.name}.{param.name} declares no values: "
                                          "the adapters cannot number it")
            values = param.values
            combos = [{**combo, param.name: value} for combo in combos
                      for value in values(rules, **combo)]
        order = [p.name for p in declared.params]  # each action's fields in the declared order
        make = self.make
        return [make(declared.name, **{n: combo[n] for n in order}) for combo in combos]

    # The adapters' numbering, with the signatures of an encoding module's functions
    # (Rules falls back on these when the game's encoding module does not define them).
    def num_distinct_actions(self, rules: Any) -> int:
        return len(self.tables(rules)[0])

    def action_to_index(self, rules: Any, action: Any) -> int:
        try:
            return self.tables(rules)[1][action]
        except (KeyError, TypeError):
            raise IllegalAction(f"{action!r:.80} is not an action of this {rules.name} game"
                                ) from None

    def action_from_index(self, rules: Any, index: Any) -> Action:
        decisions = self.tables(rules)[0]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(
                decisions):
            raise IllegalAction(f"{rules.name} action indices are 0..{len(decisions) - 1}, not "
                                f"{index!r:.40}")
        return decisions[index]

    def chance_outcomes(self, rules: Any) -> list[Action]:
        return self.tables(rules)[2]
