"""ALU: the state dict, validation messages, action parsing, diagrams, saves and options."""

from __future__ import annotations

import copy
import json

import pytest

import aloftnb
from aloftnb import IllegalAction, InvalidOptions, InvalidSave, InvalidState

DIAGRAM = """
    . . S C R S . .
    . . S R R S . .
    . . . S S . S S
    . . . . . . . .
    . . . . . . . .
"""


def new(**options):
    return aloftnb.new_match("alu", players=2, seed=5, **options)


def opening():
    match = new()
    for action in ({"type": "camp", "tile": "a1"}, {"type": "raid", "tile": "a2"},
                   {"type": "camp", "tile": "h5"}, {"type": "raid", "tile": "h4"}):
        match.play(action)
    return match


def test_state_dict_is_plain_json_and_round_trips(assert_plain_json):
    match = opening()
    data = match.state.to_dict()
    assert_plain_json(data)
    assert match.rules.state_from_dict(data) == match.state
    assert match.rules.state_from_dict(json.loads(json.dumps(data))) == match.state
    assert data["players"]["square"]["food"] == {"available": 0, "not_usable_yet": 1, "spent": 0}
    assert data["players"]["circle"]["food"] == {"available": 1, "not_usable_yet": 0, "spent": 0}
    assert data["derived"]["camps_in_hand"] == {"circle": 13, "square": 13}
    assert data["derived"]["raiding_pieces_left"] == 12


def test_derived_values_are_recomputed_not_trusted():
    match = opening()
    data = match.state.to_dict()
    data["derived"] = {"control": {"circle": ["h1"]}}
    assert match.rules.state_from_dict(data) == match.state
    data.pop("derived")
    assert match.rules.state_from_dict(data) == match.state


def test_edit_changes_the_board_and_control_follows():
    match = opening()
    match.edit(board=match.rules.board_from_text(DIAGRAM))
    assert "g1" in match.state.to_dict()["derived"]["control"]["square"]
    match.undo()
    assert "g1" not in match.state.to_dict()["derived"]["control"]["square"]


def edited(match, change):
    data = copy.deepcopy(match.state.to_dict())
    change(data)
    return data


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d.pop("board"), "the state has no 'board'"),
    (lambda d: d.update(columns=9), "this match has columns 8; the state says 9"),
    (lambda d: d["board"].pop("c3"), "no entry for tile c3"),
    (lambda d: d["board"].update(z9="empty"), "'z9', which is not a tile"),
    (lambda d: d["board"].update(c3="tower"), "tile c3 holds 'tower'"),
    (lambda d: d["players"].pop("square"), "exactly the entries 'circle' and 'square'"),
    (lambda d: d["players"]["circle"].pop("iron"), "players.circle must have exactly"),
    (lambda d: d["players"]["circle"]["iron"].update(available=11),
     "circle's iron: available 11 + spent 0 is 11, but the counter holds 10"),
    (lambda d: d["players"]["square"]["food"].update(spent=-1),
     "players.square.food.spent must be between 0"),
    (lambda d: d["players"]["square"]["food"].update(available="2"),
     "players.square.food.available must be a whole number"),
    (lambda d: d.update(current_player=0), "turn 2 is square's turn"),
    (lambda d: d.update(current_player=2), "'current_player' must be 0 (circle) or 1"),
    (lambda d: d.update(actions_left=4), "'actions_left' must be between 1 and 3, not 4"),
    (lambda d: d.update(actions_left=0), "'actions_left' must be between 1 and 3, not 0"),
    (lambda d: d.update(turn=1, current_player=0, actions_left=3),
     "'actions_left' must be between 1 and 2, not 3"),
    (lambda d: d.update(turn=0), "'turn' must be between 1"),
    (lambda d: d.update(result={"winners": [0]}), "'result' must be None while"),
    (lambda d: d.update(result={"winners": [0], "reason": "control"}),
     "'current_player' must be None once the game is over"),
])
def test_bad_state_dicts_say_what_is_wrong(change, message):
    match = opening()
    before = match.state
    with pytest.raises(InvalidState) as caught:
        match.set_state(edited(match, change))
    assert message in str(caught.value)
    assert match.state is before  # nothing changed


def test_piece_limits_are_checked():
    match = new()
    too_many = match.rules.board_from_text("""
        C C C C C C C C
        C C C C C C C .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . S
    """)
    with pytest.raises(InvalidState, match="circle has 15 camps on the board but only 14"):
        match.edit(board=too_many)
    raided = match.rules.board_from_text("""
        R R R R R R R R
        R R R R R R R .
        . . . . . . . .
        . . . . . . . C
        . . . . . . . S
    """)
    with pytest.raises(InvalidState, match="15 tiles are raided but there are only 14"):
        match.edit(board=raided)


def test_a_won_position_cannot_be_left_running():
    match = new()
    rules = match.rules
    won = rules.position("""
        . C C C . . . .
        . . . C . . . .
        . . . C . . . .
        . . . . C C C C
        S . . . . . . .
    """)
    with pytest.raises(InvalidState, match="circle controls 21 tiles, at least the 21"):
        match.set_state(won)
    won.update(current_player=None, actions_left=0,
               result={"winners": [0], "reason": "control"})
    match.set_state(won)
    assert match.is_over and match.winners() == [0]
    won["result"] = {"winners": [1], "reason": "control"}
    with pytest.raises(InvalidState, match="result 'control' needs a winner controlling"):
        match.set_state(won)
    # no_actions is refused too: circle's 21 tiles won by control, and square still has actions
    for winners in ([0], [1]):
        won["result"] = {"winners": winners, "reason": "no_actions"}
        with pytest.raises(InvalidState, match="the result is 'control', not 'no_actions'"):
            match.set_state(won)
    won["result"] = {"winners": [1], "reason": "eliminated"}
    with pytest.raises(InvalidState, match="result 'eliminated' needs one winner with camps"):
        match.set_state(won)
    won["result"] = {"winners": [2], "reason": "control"}
    with pytest.raises(InvalidState, match="winners must be \\[0\\], \\[1\\] or \\[0, 1\\]"):
        match.set_state(won)


def test_a_stuck_position_must_be_marked_over():
    match = new()
    stuck = match.rules.position("""
        . . . . . . . .
        . . C . . . . .
        . . . . . . . .
        . . . . . S . .
        . . . . . . . .
    """, circle={"construction": 0, "iron": 0}, square={"construction": 0, "iron": 0})
    with pytest.raises(InvalidState, match="neither player has any legal action"):
        match.set_state(stuck)


def test_position_helper_refuses_bad_amounts():
    rules = new().rules
    with pytest.raises(InvalidState, match="circle's construction must be 0..25"):
        rules.position(DIAGRAM, circle={"construction": 26})
    with pytest.raises(InvalidState, match="not 'gold'"):
        rules.position(DIAGRAM, square={"gold": 1})
    with pytest.raises(InvalidState, match="not triangle="):
        rules.position(DIAGRAM, triangle={"iron": 1})
    with pytest.raises(InvalidState, match="to_act must be 'circle' or 'square'"):
        rules.position(DIAGRAM, to_act="triangle")


@pytest.mark.parametrize("text, message", [
    (". . .", "the diagram has 1 rows; this board has 5"),
    (DIAGRAM.replace(". . S C R S . .", ". S C R S . ."), "diagram row 1 has 7 tiles"),
    (DIAGRAM.replace("S C R", "S X R"), "row 1, column 4: 'X' is not one of . C S R"),
])
def test_board_diagrams_say_what_is_wrong(text, message):
    with pytest.raises(InvalidState) as caught:
        new().rules.board_from_text(text)
    assert message in str(caught.value)


def test_board_diagram_accepts_compact_rows_and_any_case():
    rules = new().rules
    compact = rules.board_from_text("..scrs..\n..srrs..\n...SS.SS\n........\n........")
    assert compact == rules.board_from_text(DIAGRAM)
    assert compact["d1"] == "circle" and compact["e1"] == "raided"


def test_text_diagram_shows_pieces_and_control():
    match = new()
    match.set_state(match.rules.position(DIAGRAM, to_act="square"))
    text = match.rules.text_diagram(match.state)
    assert " 1 . . S C R S . .       1 . . S C . S S S" in text
    assert " 3 . . . S S . S S       3 . . . S S . S S" in text


@pytest.mark.parametrize("action, message", [
    ({"type": "fly", "tile": "a1"}, "alu has no action type 'fly'"),
    ({"type": "camp"}, "camp action takes tile: str; got none"),
    ({"type": "camp", "tile": "a1", "extra": 1}, "got 'extra', 'tile'"),
    ({"type": "end_turn", "tile": "a1"}, "end_turn action takes no fields; got 'tile'"),
    ({"type": "camp", "tile": "i1"}, "there is no tile 'i1' on this 8x5 board"),
    ({"type": "camp", "tile": 3}, "there is no tile 3"),
    ({"type": "camp", "tile": [1]}, "must be a plain value"),
    ("camp a1", "an action must be an Action or a dict"),
])
def test_malformed_actions_are_refused_with_a_reason(action, message):
    match = new()
    with pytest.raises(IllegalAction) as caught:
        match.play(action)
    assert message in str(caught.value)
    assert match.position == 0


def test_tile_ids_are_case_insensitive_and_actions_have_a_dict_form():
    match = new()
    played = match.play({"type": "camp", "tile": " A1 "})
    assert played.to_dict() == {"type": "camp", "tile": "a1"}
    assert str(played) == "set up a camp on a1"
    assert match.history[-1].text == "circle set up a camp on a1 (first camp)"


def test_save_and_load_keep_the_whole_timeline_and_edits():
    match = opening()
    match.edit(board=match.rules.board_from_text(DIAGRAM.replace("S C", "S .")))
    match.play(match.legal_actions()[0])
    match.undo()
    loaded = aloftnb.Match.from_json(match.to_json())
    assert loaded.state == match.state
    assert loaded.position == match.position and loaded.can_redo
    loaded.redo()
    match.redo()
    assert loaded.state == match.state


def test_tampered_save_is_refused():
    match = opening()
    data = json.loads(match.to_json())
    data["timeline"][0]["action"]["tile"] = "c3"  # not an edge tile: an illegal first camp
    with pytest.raises(InvalidSave, match="timeline step 1 cannot be replayed: c3 is not on"):
        aloftnb.Match.from_json(json.dumps(data))


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 3}, "ALU is a game for 2 players, not 3"),
    ({"players": 2, "columns": 27}, "option columns=27: must be between 2 and 26"),
    ({"players": 2, "rows": 1}, "option rows=1: must be between 2 and 26"),
    ({"players": 2, "iron": -1}, "option iron=-1"),
    ({"players": 2, "width": 8}, "alu has no option 'width'"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(InvalidOptions) as caught:
        aloftnb.new_match("alu", **kwargs)
    assert message in str(caught.value)


def test_options_change_the_board_and_the_counters():
    match = new(columns=10, rows=4, construction=5, iron=2, camps=3, raiding_pieces=2)
    data = match.state.to_dict()
    assert len(data["board"]) == 40 and "j4" in data["board"]
    assert data["players"]["circle"]["construction"] == {"available": 5, "spent": 0}
    assert data["derived"]["camps_in_hand"]["square"] == 3
    assert data["derived"]["raiding_pieces_left"] == 2


def test_the_game_is_listed_with_its_options():
    listed = {game["name"]: game for game in aloftnb.games()}["alu"]
    assert listed["players"] == "2"
    assert listed["options"]["columns"]["default"] == 8
    assert listed["options"]["win_tiles"]["default_note"].startswith("more than half")
