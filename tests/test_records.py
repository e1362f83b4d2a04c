"""The state record pattern (aloftnb/core/records.py): `@record` named tuples, their dict form
and `Draft`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

from aloftnb.core.records import Draft, record, record_from_dict, record_to_dict
from aloftnb.errors import InvalidState


@record
class Piece(NamedTuple):
    owner: int
    hex: str


@record
class Position(NamedTuple):
    rules: Any
    turn: int
    pieces: tuple[Piece, ...]
    leader: Piece | None
    done: bool


class FakeRules:
    def state_to_dict(self, state: Position) -> dict[str, Any]:
        return {"turn": state.turn}

    def view(self, state: Position, seat: int | None) -> dict[str, Any]:
        return {"turn": state.turn, "seat": seat}

    def render_svg(self, view: dict[str, Any]) -> str:
        return f"<svg>{view['turn']}</svg>"


RULES = FakeRules()
START = Position(RULES, 3, (Piece(0, "0,0"), Piece(1, "1,-1")), Piece(1, "1,-1"), False)


def test_replace_changes_only_the_named_fields_and_keeps_the_class() -> None:
    moved = START._replace(turn=4, done=True)
    assert type(moved) is Position
    assert moved == Position(RULES, 4, START.pieces, START.leader, True)
    assert START.turn == 3  # the original is untouched
    assert moved.pieces is START.pieces


def test_replace_refuses_an_unknown_field_naming_the_fields() -> None:
    with pytest.raises(ValueError, match="Position has no field 'turns'.*turn, pieces"):
        START._replace(turns=4)


def test_a_state_that_holds_its_rules_has_a_dict_form_and_draws_itself() -> None:
    assert START.to_dict() == {"turn": 3}
    assert START._repr_svg_() == "<svg>3</svg>"
    assert not hasattr(Piece(0, "0,0"), "to_dict")  # a part has no rules to ask


def test_record_refuses_a_class_that_is_not_a_named_tuple() -> None:
    with pytest.raises(TypeError, match="typing.NamedTuple"):
        record(dict)


def test_the_generic_dict_form_leaves_out_the_rules_and_reads_back() -> None:
    data = record_to_dict(START)
    assert data == {"turn": 3, "pieces": [{"owner": 0, "hex": "0,0"},
                                          {"owner": 1, "hex": "1,-1"}],
                    "leader": {"owner": 1, "hex": "1,-1"}, "done": False}
    assert record_from_dict(Position, data, rules=RULES) == START
    with pytest.raises(InvalidState, match=r"pieces\[1\].owner must be"):
        record_from_dict(Position, {**data, "pieces": [data["pieces"][0],
                                                      {"owner": "1", "hex": "0,0"}]})
    with pytest.raises(InvalidState, match="unknown key 'rules'"):
        record_from_dict(Position, {**data, "rules": None})


def test_frozen_dataclass_records_still_read_and_write() -> None:
    @dataclass(frozen=True)
    class Old:
        turn: int
        names: tuple[str, ...]

    assert record_to_dict(Old(1, ("a",))) == {"turn": 1, "names": ["a"]}
    assert record_from_dict(Old, {"turn": 1, "names": ["a"]}) == Old(1, ("a",))


class PositionDraft(Draft):
    RECORD = Position
    LISTS = ("pieces",)


def test_a_draft_changes_fields_and_lists_then_freezes_into_a_new_record() -> None:
    draft = PositionDraft(START)
    draft.turn += 1
    draft.pieces.append(Piece(0, "2,-2"))
    draft.pieces[0] = draft.pieces[0]._replace(hex="0,1")
    new = draft.freeze()
    assert type(new) is Position and type(new.pieces) is tuple
    assert new == Position(RULES, 4, (Piece(0, "0,1"), Piece(1, "1,-1"), Piece(0, "2,-2")),
                           START.leader, False)
    assert START.pieces == (Piece(0, "0,0"), Piece(1, "1,-1"))  # the original is untouched


def test_a_draft_naming_a_list_its_record_lacks_is_refused_when_declared() -> None:
    with pytest.raises(TypeError, match="LISTS names 'units'"):
        class Wrong(Draft):
            RECORD = Position
            LISTS = ("units",)


if TYPE_CHECKING:
    from aloftnb.games.cloudspire.rules import CloudspireRules


@record
class HeldByName(NamedTuple):
    rules: CloudspireRules  # imported only for type checkers, as a game's state does
    turn: int


def test_a_state_naming_its_rules_class_only_for_type_checkers_reads_back() -> None:
    state = record_from_dict(HeldByName, {"turn": 2}, rules=RULES)
    assert state == HeldByName(RULES, 2)


@record
class Counter(NamedTuple):
    count: int


class CounterDraft(Draft):
    RECORD = Counter


def test_a_draft_of_a_one_field_record_freezes_too() -> None:
    draft = CounterDraft(Counter(1))
    draft.count += 1
    assert draft.freeze() == Counter(2) and type(draft.freeze()) is Counter
