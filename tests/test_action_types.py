"""Action types declared once (aloftnb/core/action.py): parsing, str() and the adapters'
numbering follow from the declaration. Kite fair (tests/flow_game.py) declares its actions so."""

from __future__ import annotations

import pytest
from flow_game import ACTIONS, KiteAction, KiteRules

from aloftnb.core.action import Action, ActionTypes, action_type
from aloftnb.errors import IllegalAction


class Move(Action):
    __slots__ = ()


GRID = ("a", "b", "c")
MOVES = ActionTypes(
    Move,
    action_type("step", "step from {at} to {to}", at=(str, lambda rules: GRID),
                to=(str, lambda rules, at: [g for g in GRID if g != at])),
    action_type("jump", lambda p: f"jump {'far' if p['far'] else 'near'}",
                far=(bool, lambda rules: (False, True)), when=lambda rules: rules.jumps),
    action_type("wait", "wait"),
    action_type("die", "rolled {pips}", chance=True, pips=(int, lambda rules: range(1, 4))),
)


class FakeRules:
    name = "grid"

    def __init__(self, jumps: bool) -> None:
        self.jumps = jumps

    def __hash__(self) -> int:
        return hash(self.jumps)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FakeRules) and other.jumps == self.jumps


def test_str_comes_from_the_declared_sentence():
    assert str(Move("step", at="a", to="b")) == "step from a to b"
    assert str(Move("jump", far=True)) == "jump far"
    assert str(KiteAction("bid", amount=2)) == "bid 2"
    assert str(KiteAction("kite", worth=3)) == "drew a kite worth 3"
    assert str(Action("step", at="a", to="b")) == "step at=a to=b"  # undeclared: plain form


def test_parse_takes_exactly_the_declared_fields_of_the_declared_types():
    rules = FakeRules(jumps=False)
    assert MOVES.parse(rules, {"type": "step", "to": "b", "at": "a"}) == Move("step", at="a",
                                                                              to="b")
    assert type(MOVES.parse(rules, {"type": "wait"})) is Move
    with pytest.raises(IllegalAction, match="a step action takes at: str, to: str; got 'at'"):
        MOVES.parse(rules, {"type": "step", "at": "a"})
    with pytest.raises(IllegalAction, match="a wait action takes no fields; got 'long'"):
        MOVES.parse(rules, {"type": "wait", "long": True})
    with pytest.raises(IllegalAction, match="die: pips must be a whole number, not True"):
        MOVES.parse(rules, {"type": "die", "pips": True})
    # jump exists only under rules that allow it
    with pytest.raises(IllegalAction, match=r"grid has no action type 'jump' \(its types: "
                                            r"step, wait, die\)"):
        MOVES.parse(rules, {"type": "jump", "far": True})
    assert MOVES.parse(FakeRules(jumps=True), {"type": "jump", "far": True}) == Move(
        "jump", far=True)


def test_every_decision_and_chance_outcome_is_numbered_in_declaration_order():
    decisions, index, chance = MOVES.tables(FakeRules(jumps=True))
    steps = [(a, b) for a in GRID for b in GRID if a != b]
    assert decisions[:6] == [Move("step", at=a, to=b) for a, b in steps]  # `to` reads `at`
    assert decisions[6:] == [Move("jump", far=False), Move("jump", far=True), Move("wait")]
    assert all(index[a] == i for i, a in enumerate(decisions))
    assert chance == [Move("die", pips=p) for p in (1, 2, 3)]
    assert len(MOVES.tables(FakeRules(jumps=False))[0]) == 7  # no jumps declared there
    with pytest.raises(IllegalAction, match="grid action indices are 0..6, not 7"):
        MOVES.action_from_index(FakeRules(jumps=False), 7)


def test_a_game_declaring_its_actions_gets_parsing_and_numbering_from_them():
    rules = KiteRules(2)
    assert KiteRules.action_class is KiteAction and KiteRules.action_types == ACTIONS.names
    assert rules.num_distinct_actions() == 8  # bid 1-3, pass, trim, skip_trim, launch, rest
    assert rules.max_chance_outcomes() == 3
    assert [rules.action_to_index(rules.action_from_index(i)) for i in range(8)] == list(
        range(8))
    assert rules.parse_action({"type": "bid", "amount": 2}) == KiteAction("bid", amount=2)
    with pytest.raises(IllegalAction, match="bid: amount must be a whole number, not '2'"):
        rules.parse_action({"type": "bid", "amount": "2"})
    state = rules.initial_state(0)
    assert rules.chance_to_index(KiteAction("kite", worth=2)) == 1
    assert len(rules.observation(rules.apply(state, KiteAction("kite", worth=2)), 0)) == 11


class Sit(Action):
    __slots__ = ()


SEATS = ActionTypes(
    Sit,
    action_type("sit", "sit on {seat}", seat=(
        int, lambda rules: range(3),
        lambda rules, v: "the stage is no seat" if v == "stage" else None)),
)


def test_a_field_may_refuse_a_value_in_the_games_own_words_before_the_type_check():
    rules = FakeRules(jumps=False)
    assert SEATS.parse(rules, {"type": "sit", "seat": 2}) == Sit("sit", seat=2)
    with pytest.raises(IllegalAction, match="^the stage is no seat$"):  # a text, refused first
        SEATS.parse(rules, {"type": "sit", "seat": "stage"})
    with pytest.raises(IllegalAction, match="sit: seat must be a whole number, not 'hall'"):
        SEATS.parse(rules, {"type": "sit", "seat": "hall"})  # the check passes it on
    with pytest.raises(IllegalAction, match="a sit action takes seat: int; got none"):
        SEATS.parse(rules, {"type": "sit"})  # the fields' names are checked before any value
    assert [str(a) for a in SEATS.tables(rules)[0]] == ["sit on 0", "sit on 1", "sit on 2"]


def test_types_are_declared_on_a_games_own_action_class():
    with pytest.raises(TypeError, match="own Action subclass"):
        ActionTypes(Action, action_type("wait"))


class Hop(Action):  # its own class: a declaration gives its class the sentences of str()
    __slots__ = ()


_MADE: dict[tuple, Hop] = {}


def _one_instance(kind: str, **fields: object) -> Hop:
    return _MADE.setdefault((kind, *fields.items()), Hop(kind, **fields))


NESTED = ActionTypes(
    Hop,
    action_type("hop", "hop from {at} to {to}", numbering=("to", "at"),
                at=(str, lambda rules, to: [g for g in GRID if g != to]),
                to=(str, lambda rules: GRID)),
    action_type("say", "say {word}", word=(str, lambda rules: ("hi", "ho"))),
    action_type("say", "say {word}", when=lambda rules: False, word=str),
    make=_one_instance, longest_text=4,
)


def test_a_numbering_may_nest_the_fields_in_another_order_than_they_read():
    decisions = NESTED.tables(FakeRules(jumps=False))[0]
    assert decisions[:6] == [Hop("hop", at=a, to=b) for b in GRID for a in GRID if a != b]
    assert list(decisions[0].params) == ["at", "to"]  # each action keeps the declared order
    assert NESTED.parse(FakeRules(jumps=False), {"type": "hop", "to": "a", "at": "b"}).to_dict(
        ) == {"type": "hop", "at": "b", "to": "a"}
    with pytest.raises(ValueError, match="numbering .* must name each field once"):
        action_type("hop", numbering=("to",), at=str, to=str)


def test_numbered_actions_may_come_from_the_games_own_maker():
    decisions = NESTED.tables(FakeRules(jumps=True))[0]
    assert decisions[-1] is _one_instance("say", word="ho")  # the very instance, not a copy
    assert NESTED.decision_names == ("hop", "say")  # a type declared twice is named once


def test_text_fields_may_be_capped_and_a_wrong_field_names_the_types_shape():
    rules = FakeRules(jumps=False)
    assert NESTED.parse(rules, {"type": "say", "word": "hiya"}) == Hop("say", word="hiya")
    with pytest.raises(IllegalAction, match=r"say: word must be a short text \(at most 4 "
                                            r"characters\), not 'hello' \(a say action takes "
                                            r"word: str\)"):
        NESTED.parse(rules, {"type": "say", "word": "hello"})
    with pytest.raises(IllegalAction, match="say: word must be a short text"):
        NESTED.parse(rules, {"type": "say", "word": 3})
    with pytest.raises(IllegalAction, match=r"step: to must be a text, not 3 \(a step action "
                                            r"takes at: str, to: str\)"):
        MOVES.parse(rules, {"type": "step", "at": "a", "to": 3})
    assert str(Hop("say", word="hi")) == "say hi"


def test_str_of_an_action_built_without_a_declared_field_is_its_plain_form():
    assert str(Hop("hop", at="a")) == "hop at=a"
    assert str(Move("step", at="a")) == "step at=a"


class Sail(Action):
    __slots__ = ()


SAILING = ActionTypes(
    Sail,
    action_type("sail", "sail to {port}", port=str, done="{who} sailed to {port}{note}"),
    action_type("gust", "a gust of {force}", chance=True, force=int,
                done="a gust of {force} blew", choose="blow a gust of {force} ({where})"),
    action_type("wait", "wait"),
)


def test_a_declared_log_sentence_fills_fields_and_words_and_calls_only_the_words_it_uses(
) -> None:
    called = []

    def costly() -> str:
        called.append(1)
        return "!"

    assert SAILING.done(Sail("sail", port="Ankar"), who="seat 1", note=costly) == \
        "seat 1 sailed to Ankar!"
    assert called == [1]
    assert SAILING.done(Sail("gust", force=3), note=costly) == "a gust of 3 blew"
    assert called == [1]  # the gust's sentence does not use {note}
    assert SAILING.choice(Sail("gust", force=3), where="east") == "blow a gust of 3 (east)"


def test_a_type_without_a_declared_sentence_reads_as_its_str() -> None:
    assert SAILING.done(Sail("wait")) == "wait"
    assert SAILING.choice(Sail("sail", port="Ankar")) == "sail to Ankar"


def test_a_sentence_using_an_unknown_word_names_it() -> None:
    with pytest.raises(KeyError, match=r"uses \{who\}, which is neither a field of a sail"):
        SAILING.done(Sail("sail", port="Ankar"), note="")


def test_an_action_is_a_value_with_its_fields_as_attributes():
    import copy
    import pickle

    step = Move("step", at="a", to="b")
    assert (step.type, step.at, step.to) == ("step", "a", "b")
    # by value, whatever order the fields were given in: usable as a key
    assert step == Move("step", to="b", at="a")
    assert hash(step) == hash(Move("step", to="b", at="a"))
    assert {step: 1}[Move("step", to="b", at="a")] == 1
    assert step != Move("step", at="a", to="c") and step != Move("wait")
    for kept in (pickle.loads(pickle.dumps(step)), copy.deepcopy(step)):
        assert kept == step and type(kept) is Move and kept.to == "b"
    with pytest.raises(AttributeError, match="immutable"):
        step.at = "c"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="object has no attribute 'far'"):
        step.far  # noqa: B018
    assert step.to_dict() == {"type": "step", "at": "a", "to": "b"} and step.at == "a"


def test_interned_gives_one_object_per_fields_under_a_key_a_game_can_read():
    from aloftnb.core.action import interned

    cache: dict = {}
    first = interned(cache, Action, "go", {"to": 1, "by": "air"})
    assert interned(cache, Action, "go", {"to": 1, "by": "air"}) is first
    assert cache[("go", ("to", 1), ("by", "air"))] is first  # the type, then fields in order
    assert interned(cache, Action, "go", {"to": 2, "by": "air"}) is not first
