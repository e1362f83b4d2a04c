"""Issue 8: bad values of every kind are refused cleanly, and nothing the match hands out is
shared."""

from __future__ import annotations

import json

import numpy as np
import pytest

import aloftnb
from aloftnb import Action, IllegalAction, InvalidOptions, InvalidSave, InvalidState
from aloftnb.core.options import is_whole_number, number_problem, whole_number_problem


def alu():
    return aloftnb.new_match("alu", players=2, seed=5)


def balloons(**options):
    return aloftnb.new_match("balloons", players=3, seed=7, **options)


def unchanged(match):
    """A snapshot to compare with after a refusal: the save text holds everything."""
    return match.to_json()


# -- one strict whole-number check (defect 2) ------------------------------------------------------
@pytest.mark.parametrize("value, whole", [
    (1, True), (0, True), (-3, True), (10**30, True),
    (1.0, False), (-0.0, False), (True, False), (False, False), (np.int64(1), False),
    (np.int32(0), False), ("1", False), (None, False), ([1], False),
])
def test_whole_numbers_are_plain_ints_only(value, whole):
    assert is_whole_number(value) is whole
    assert (whole_number_problem(value, -10**40, 10**40) is None) is whole


def test_number_problem_refuses_nan_infinity_and_out_of_range():
    assert number_problem(0.5, 0, 60, low_open=True) is None
    for bad in (float("nan"), float("inf"), float("-inf"), 0, 61, True, "1", None):
        assert number_problem(bad, 0, 60, low_open=True), bad


@pytest.mark.parametrize("seat", [1.0, -0.0, True, np.int64(1)])
def test_alu_refuses_a_current_player_of_the_wrong_type(seat):
    match = alu()
    before = unchanged(match)
    with pytest.raises(InvalidState, match="'current_player' must be 0"):
        match.edit(current_player=seat, turn=2)
    assert match.to_json() == before


@pytest.mark.parametrize("winner", [True, 1.0, np.int64(1)])
def test_alu_refuses_winners_of_the_wrong_type(winner):
    match = alu()
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "camp", "tile": "b1"})
    data = match.state.to_dict()
    data.update(current_player=None, actions_left=0, result={"winners": [winner],
                                                            "reason": "control"})
    with pytest.raises(InvalidState, match="result winners must be"):
        match.set_state(data)


@pytest.mark.parametrize("seat", [1.0, True, np.int64(1)])
def test_balloons_refuses_a_current_player_of_the_wrong_type(seat):
    match = balloons()
    before = unchanged(match)
    with pytest.raises(InvalidState, match="'current_player' must be a seat"):
        match.edit(current_player=seat)
    assert match.to_json() == before


@pytest.mark.parametrize("options", [{"columns": np.int64(12)}, {"columns": 12.0},
                                     {"altitudes": True}])
def test_options_refuse_numbers_that_are_not_plain_ints(options):
    with pytest.raises(InvalidOptions, match="must be a whole number"):
        balloons(**options)


def test_players_must_be_a_plain_int():
    for players in (3.0, np.int64(3), True):
        with pytest.raises(InvalidOptions, match="players must be a whole number"):
            aloftnb.new_match("balloons", players=players)


def test_a_save_whose_edit_step_names_a_float_seat_is_refused():
    match = alu()
    match.edit(current_player=1, turn=2)
    data = json.loads(match.to_json())
    data["timeline"][0]["state"]["current_player"] = 1.0
    with pytest.raises(InvalidSave, match="'current_player' must be 0"):
        aloftnb.Match.from_json(json.dumps(data))


def test_a_save_whose_action_step_names_a_float_seat_is_refused():
    match = alu()
    match.play({"type": "camp", "tile": "a1"})
    data = json.loads(match.to_json())
    data["timeline"][0]["seat"] = 0.0
    with pytest.raises(InvalidSave, match="says seat 0.0 played"):
        aloftnb.Match.from_json(json.dumps(data))


# -- ALU: a finished state must agree with its position (defect 3) -------------------------------
def finished(data, winners, reason):
    data = dict(data, current_player=None, actions_left=0,
                result={"winners": winners, "reason": reason})
    data.pop("derived", None)
    return data


def test_alu_refuses_no_actions_while_a_player_can_still_act():
    match = alu()
    before = unchanged(match)
    # The empty starting board, counted as a draw: but circle can still set up a camp.
    with pytest.raises(InvalidState, match="but circle still has a legal action"):
        match.set_state(finished(match.state.to_dict(), [0, 1], "no_actions"))
    assert match.to_json() == before


def test_alu_accepts_no_actions_when_nobody_can_act():
    match = alu()
    data = match.rules.position("""
        C . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . S
    """, circle={"construction": 0, "iron": 0}, square={"construction": 0, "iron": 0})
    match.set_state(finished(data, [0, 1], "no_actions"))
    assert match.is_over and match.winners() == [0, 1]


def test_alu_refuses_elimination_by_a_winner_without_camps():
    match = alu()
    with pytest.raises(InvalidState, match="result 'eliminated' needs one winner with camps"):
        match.set_state(finished(match.state.to_dict(), [0], "eliminated"))


# -- TypeError is never what a user reads (defect 4) ---------------------------------------------
def test_alu_board_tile_holding_a_list_is_invalid_state():
    match = alu()
    with pytest.raises(InvalidState, match="tile a1 holds \\['circle', 'raided'\\]"):
        match.edit(board={"a1": ["circle", "raided"]})


def test_an_option_holding_a_nested_list_is_invalid_options():
    with pytest.raises(InvalidOptions, match="\\['RW'\\] is not in the catalogue"):
        aloftnb.new_match("balloons", players=3, balloons=[["RW"]])


@pytest.mark.parametrize("make", [alu, balloons])
def test_state_dicts_with_non_string_keys_are_invalid_state(make):
    match = make()
    data = match.state.to_dict()
    for key in (1, None, ("a", 1)):
        with pytest.raises(InvalidState, match="unknown key"):
            match.set_state({**data, key: "x", "zz": "y"})  # two unknown keys to sort


@pytest.mark.parametrize("make, action", [
    (balloons, Action("inflate", balloon=["RW"])),
    (balloons, Action("unpack", balloon="RW", truck=np.int64(1))),
    (alu, Action("camp", tile=["a1"])),
    (alu, Action("camp", tile={"a": 1})),
])
def test_action_objects_built_in_python_are_checked_like_dicts(make, action):
    match = make()
    with pytest.raises(IllegalAction, match="must be a plain value"):
        match.play(action)
    assert match.position == 0


# -- set_state(state object) refuses objects that contradict themselves (defect 5) ---------------
def alu_midgame():
    match = alu()
    for action in ({"type": "camp", "tile": "a1"}, {"type": "camp", "tile": "b1"},
                   {"type": "camp", "tile": "h5"}, {"type": "raid", "tile": "h4"}):
        match.play(action)
    return match


@pytest.mark.parametrize("change", [
    lambda s: s._replace(camps=(s.camps[0] | 1, s.camps[1] | 1)),  # both seats on a1
    lambda s: s._replace(camps=(s.camps[0] | 1 << 45, s.camps[1])),  # a bit beyond the board
    lambda s: s._replace(raided=s.raided | s.camps[0]),  # raided and a camp on one tile
    lambda s: s._replace(control=(s.control[0] | 1 << 20, s.control[1])),  # control disagrees
    lambda s: s._replace(turn=3.0),
    lambda s: s._replace(player=True),
], ids=["two-seats-one-tile", "beyond-the-board", "raided-camp", "control", "float-turn",
        "bool-player"])
def test_alu_state_objects_that_contradict_themselves_are_refused(change):
    match = alu_midgame()
    before = unchanged(match)
    with pytest.raises(InvalidState):
        match.set_state(change(match.state))
    assert match.to_json() == before


def test_balloons_state_object_whose_location_fields_disagree_is_refused():
    match = balloons()
    match.play({"type": "unpack", "balloon": "RW", "truck": 1})
    state = match.state
    before = unchanged(match)
    rw = match.rules.index["RW"]
    for broken in (
        state._replace(load=(-1,) * len(state.load)),  # RW rides truck 1, truck 1 is empty
        state._replace(where=tuple(5 if b == 0 else w for b, w in enumerate(state.where))),
        state._replace(sky=(0, 1 << 3) + state.sky[2:]),  # sky shows a balloon nobody flies
        state._replace(altitude=tuple(2 if b == rw else a for b, a in enumerate(state.altitude))),
    ):
        with pytest.raises(InvalidState, match="contradicts itself"):
            match.set_state(broken)
    assert match.to_json() == before


def test_a_consistent_state_object_is_still_accepted():
    match = alu_midgame()
    state = match.state
    other = alu()
    other.set_state(state)
    assert other.state == state


# -- nothing the match hands out is shared (defect 6) ---------------------------------------------
def test_history_edits_are_copies():
    match = alu()
    match.edit(current_player=1, turn=2)
    match.history[0].edited["turn"] = 99
    match.timeline[0].edited["board"]["a1"] = "circle"
    assert match.history[0].edited["turn"] == 2
    assert aloftnb.Match.from_json(match.to_json()).state == match.state


def test_a_fork_does_not_share_history_with_its_parent():
    match = alu()
    match.edit(current_player=1, turn=2)
    fork = match.fork()
    fork.history[0].edited["turn"] = 99
    assert match.history[0].edited["turn"] == 2
    assert aloftnb.Match.from_json(match.to_json()).state == match.state


def test_changing_the_options_handed_out_changes_nothing():
    match = balloons()
    save = match.to_json()
    match.options["balloons"].remove("lion")
    assert "lion" in match.options["balloons"]
    assert match.to_json() == save
    assert aloftnb.Match.from_json(save).state == match.state


@pytest.mark.parametrize("seat", [1.0, np.int64(1)])
def test_alu_region_report_takes_a_plain_int_seat(seat):
    match = alu()
    with pytest.raises(IllegalAction, match="seat must be 0 \\(circle\\) or 1"):
        match.rules.region_report(match.state, seat)


def test_a_save_dict_whose_options_have_non_text_keys_is_invalid_save():
    # Found by the long fuzz run: Match.from_dict raised TypeError from the keyword arguments.
    data = json.loads(balloons().to_json())
    data["options"] = {0: None}
    with pytest.raises(InvalidSave, match="'options' must be an object whose keys"):
        aloftnb.Match.from_dict(data)


# -- clean refusals of issue 18, item 9 ----------------------------------------------------------
@pytest.mark.parametrize("game, players", [("balloons", 3), ("alu", 2), ("commodores", 3),
                                           ("cloudspire", 2)])
@pytest.mark.parametrize("seed, problem", [
    (10**5000, "below 2\\*\\*64"), (2**64, "below 2\\*\\*64"), (-1, "at least 0"),
], ids=["10**5000", "2**64", "-1"])
def test_a_seed_has_an_upper_bound_so_every_match_can_be_saved(game, players, seed, problem):
    with pytest.raises(aloftnb.errors.AloftnbError, match=f"seed must be {problem}"):
        aloftnb.new_match(game, players=players, seed=seed)
    largest = aloftnb.new_match(game, players=players, seed=2**64 - 1)
    assert aloftnb.Match.from_json(largest.to_json()).seed == 2**64 - 1


def test_the_adapters_and_simulate_bound_the_seed_too():
    openspiel = pytest.importorskip("aloftnb.openspiel")
    with pytest.raises(InvalidOptions, match="seed must be below 2\\*\\*64"):
        openspiel.load_game("alu", players=2, seed=10**5000)
    with pytest.raises(InvalidOptions, match="below 2\\*\\*31 here"):  # pyspiel's ints
        openspiel.load_game("alu", players=2, seed=2**31)
    from aloftnb.pettingzoo import env
    environment = env("alu")
    with pytest.raises(InvalidOptions, match="reset: seed must be below 2\\*\\*64"):
        environment.reset(seed=10**5000)
    with pytest.raises(aloftnb.errors.AloftnbError, match="seed must be below 2\\*\\*64"):
        aloftnb.simulate("alu", players=2, games=1, seed=2**64)


def _deep(levels):
    doc: dict = {}
    inner = doc
    for _ in range(levels):
        inner["a"] = {}
        inner = inner["a"]
    return doc


@pytest.mark.parametrize("game, players", [("commodores", 3), ("cloudspire", 2)])
@pytest.mark.parametrize("catalogue, problem", [
    (_deep(1000), "nested too deeply"),
    ("x" * 5000, "catalogue: no file 'xxx"),
    ("a\x00b", "catalogue: no file"),
], ids=["1000-deep", "5000-char-path", "nul-in-path"])
def test_a_catalogue_too_deep_or_a_path_too_long_is_refused(game, players, catalogue, problem):
    with pytest.raises(InvalidOptions, match=problem):
        aloftnb.new_match(game, players=players, catalogue=catalogue)


def test_a_catalogue_path_too_long_is_refused_through_openspiel_too():
    openspiel = pytest.importorskip("aloftnb.openspiel")
    with pytest.raises(InvalidOptions, match="catalogue: no file"):
        openspiel.load_game("commodores", players=3, catalogue="x" * 5000)


def _shipped(game):
    from aloftnb.core.options import packaged_json
    return packaged_json(f"aloftnb.games.{game}", "data/catalogue.json")


def test_a_goal_kind_that_is_a_list_is_refused_naming_the_field():
    catalogue = _shipped("commodores")
    catalogue["goals"]["armada"]["kind"] = ["ships"]
    with pytest.raises(InvalidOptions, match=r"goals\.armada\.kind must be one of"):
        aloftnb.new_match("commodores", players=3, catalogue=catalogue)


def test_an_island_hex_that_is_a_list_is_refused_naming_the_field():
    catalogue = _shipped("cloudspire")
    island = next(iter(catalogue["map"]["islands"]))
    catalogue["map"]["islands"][island][0] = [0, 0]
    with pytest.raises(InvalidOptions, match=rf"map\.islands\.{island}\[0\] must be a hex"):
        aloftnb.new_match("cloudspire", players=2, catalogue=catalogue)


@pytest.mark.parametrize("name", ["0:¹", "0:٣", "0:" + "1" * 5000, "¹:1"],
                         ids=["superscript", "arabic-indic", "5000-digits", "superscript-seat"])
def test_a_commodores_ship_name_must_be_seat_and_captain_in_ascii_digits(name):
    match = aloftnb.new_match("commodores", players=3, seed=1)
    while match.is_chance or match.phase == "setup":
        if match.is_chance:
            match.resolve_chance()
        else:
            match.play(match.legal_actions()[0])
    data = match.state.to_dict()
    assert data["ships"], "the set-up places ships"
    data["ships"][0]["ship"] = name
    before = unchanged(match)
    with pytest.raises(InvalidState, match=r"ships\[0\]\.ship must be \"seat:captain\""):
        match.set_state(data)
    assert unchanged(match) == before


@pytest.mark.parametrize("key", ["ship:0,0,X", "ship:0:1:2", "ship:a:b", "ship:¹:1"])
def test_the_commodores_board_refuses_a_ship_key_it_never_drew_as_a_bad_request(key):
    match = aloftnb.new_match("commodores", players=3, seed=1)
    board = match.board()
    try:
        board._on_front_end_message(board, {"intent": "explain", "path": [key]}, [])
        text = board.message["text"]
        assert text.startswith("refused:") and "names no ship" in text, text
        assert "malformed" not in text
    finally:
        board.close()
