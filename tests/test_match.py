"""The match protocol, exercised through aloftnb.new_match("balloons", ...)."""

from __future__ import annotations

import gc
import json
import random

import pytest

import aloftnb
from aloftnb import (
    Action,
    IllegalAction,
    InvalidOptions,
    InvalidSave,
    InvalidState,
    Match,
    UnknownGame,
)

OPENING = [
    {"type": "unpack", "balloon": "GP", "truck": 0},
    {"type": "unpack", "balloon": "RW", "truck": 2},
    {"type": "inflate", "balloon": "GP"},
    {"type": "inflate", "balloon": "RW"},
    {"type": "launch", "balloon": "GP"},
    {"type": "launch", "balloon": "RW"},
]


def opening(match: Match, count: int) -> Match:
    """Play the first `count` moves of OPENING (unpack, inflate, launch GP and RW)."""
    for action in OPENING[:count]:
        match.play(action)
    return match


def snapshot(match: Match):
    return (match.state, match.state.to_dict(), list(match.history), match.position,
            match.can_redo, match.to_json())


# -- games() and new_match --------------------------------------------------------------------
def test_games_lists_balloons_with_options_and_defaults():
    listing = {game["name"]: game for game in aloftnb.games()}
    balloons = listing["balloons"]
    assert balloons["title"] == "Aloft, balloon festival"
    options = balloons["options"]
    assert options["mode"]["default"] == "competitive"
    assert options["mode"]["choices"] == ["competitive", "solo", "cooperative"]
    assert options["edition"]["default"] == "fixed"
    assert options["edition"]["choices"] == ["fixed", "choice"]
    assert options["columns"]["default"] == 12
    assert options["altitudes"]["default"] == 4
    assert "default_note" in options["trucks"] and "default_note" in options["balloons"]
    json.dumps(aloftnb.games())  # the listing is plain data


def test_games_stays_callable_after_games_are_imported():
    # Regression: importing aloftnb.games.balloons rebound aloftnb.games to the subpackage, so
    # the second aloftnb.games() raised "'module' object is not callable".
    aloftnb.new_match("balloons", players=2)
    import aloftnb.games.balloons.rules as balloons_rules

    assert aloftnb.games() == aloftnb.games()
    assert "balloons" in [game["name"] for game in aloftnb.games()]
    assert balloons_rules.BalloonsRules.name == "balloons"


def test_new_match_defaults():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    assert match.game == "balloons" and match.players == 3 and match.seed == 1
    assert match.options["mode"] == "competitive" and match.options["edition"] == "fixed"
    assert match.options["trucks"] == 4 and len(match.options["balloons"]) == 12


def test_unknown_game_names_it_and_lists_known_games():
    with pytest.raises(UnknownGame, match=r"no game called 'chess'.*balloons"):
        aloftnb.new_match("chess", players=2)
    assert issubclass(UnknownGame, ValueError)


@pytest.mark.parametrize("options, fragment", [
    ({"colour": "red"}, "has no option 'colour'"),
    ({"mode": "teams"}, "option mode='teams' is not one of"),
    ({"edition": "windy"}, "option edition='windy'"),
    ({"columns": 0}, "option columns=0: must be between 3 and 40"),
    ({"columns": "12"}, "option columns='12': must be a whole number"),
    ({"columns": None}, "option columns=None: must be a whole number"),
    ({"altitudes": None}, "option altitudes=None"),
    ({"altitudes": True}, "option altitudes=True: must be a whole number"),
    ({"trucks": 11}, "option trucks=11: must be between 1 and 10"),
    ({"columns": 5, "trucks": 5}, "trucks=5 needs a sky wider than 5 columns"),
    ({"balloons": ["GP", "XX"]}, "'XX' is not in the catalogue"),
    ({"balloons": ["GP", "GP"]}, "lists a balloon twice"),
    ({"balloons": []}, "non-empty list"),
    ({"edition": "choice", "trucks": 1}, "choice edition needs at least 2 launch-zone trucks"),
])
def test_bad_options_raise_invalid_options_naming_the_problem(options, fragment):
    with pytest.raises(InvalidOptions) as caught:
        aloftnb.new_match("balloons", players=3, **options)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("players, options, fragment", [
    (1, {}, "competitive balloons is for 2-5 players, not 1 (use mode='solo' for one player)"),
    (6, {}, "competitive balloons is for 2-5 players, not 6"),
    (2, {"mode": "solo"}, "solo balloons is for 1 player, not 2"),
    (1, {"mode": "cooperative"}, "cooperative balloons is for 2-5 players, not 1"),
    ("3", {}, "players must be a whole number"),
    (True, {}, "players must be a whole number"),
])
def test_unsupported_player_counts_are_refused(players, options, fragment):
    with pytest.raises(InvalidOptions) as caught:
        aloftnb.new_match("balloons", players=players, **options)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("seed", [-1, "7", True, 1.5])
def test_bad_seed_is_refused(seed):
    with pytest.raises(ValueError, match="seed must be (at least 0|a whole number)"):
        aloftnb.new_match("balloons", players=3, seed=seed)


def test_seed_none_picks_a_recorded_seed():
    match = aloftnb.new_match("balloons", players=3)
    assert isinstance(match.seed, int) and match.seed >= 0
    assert Match.from_json(match.to_json()).seed == match.seed


# -- state snapshots ----------------------------------------------------------------------------
def test_state_is_an_immutable_snapshot():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    before = match.state
    before_dict = before.to_dict()
    with pytest.raises(AttributeError):
        before.safety = 3
    exported = match.state.to_dict()
    exported["trucks"].append(99)
    exported["balloons"]["GP"]["status"] = "flying"
    assert match.state.to_dict() == before_dict  # changing an exported dict changes nothing
    opening(match, 3)
    assert before.to_dict() == before_dict  # an old snapshot never changes
    assert match.state != before
    hash(match.state)


def test_to_dict_is_plain_json_during_and_after_a_game(finished_match, assert_plain_json):
    running = opening(aloftnb.new_match("balloons", players=3, seed=1), 5)
    assert_plain_json(running.state.to_dict())
    assert_plain_json(finished_match.state.to_dict())
    assert "tokens" in finished_match.state.to_dict()


def test_current_player_rotates_and_is_none_once_over(finished_match):
    match = aloftnb.new_match("balloons", players=3, seed=1)
    seats = []
    for _ in range(4):
        seats.append(match.current_player)
        match.play(match.legal_actions()[0])
    assert seats == [0, 1, 2, 0]
    assert finished_match.current_player is None and finished_match.legal_actions() == []


def test_legal_actions_have_dict_form_and_readable_text():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    actions = match.legal_actions()
    assert len(actions) == 12 * 4  # every balloon onto every launch-zone truck
    first = actions[0]
    assert first.to_dict() == {"type": "unpack", "balloon": "GP", "truck": 0}
    assert str(first) == "unpack GP onto truck 0"
    assert match.rules.parse_action(first.to_dict()) == first
    opening(match, 1)
    assert "inflate GP" in [str(a) for a in match.legal_actions()]
    assert str(Action("pass")) == "pass"


def test_play_takes_an_action_or_its_dict_in_any_key_order():
    by_object = aloftnb.new_match("balloons", players=3, seed=1)
    by_dict = aloftnb.new_match("balloons", players=3, seed=1)
    by_shuffled_dict = aloftnb.new_match("balloons", players=3, seed=1)
    action = by_object.legal_actions()[5]
    played = by_object.play(action)
    by_dict.play(action.to_dict())
    # Regression: keys in another order used to be refused as an illegal move.
    by_shuffled_dict.play({"truck": action.truck, "type": "unpack", "balloon": action.balloon})
    assert played == action
    assert by_object.state == by_dict.state == by_shuffled_dict.state
    assert by_shuffled_dict.history[0].action.to_dict() == action.to_dict()


# -- illegal and malformed actions --------------------------------------------------------------
@pytest.mark.parametrize("action, fragment", [
    ({"type": "fly", "balloon": "GP"}, "has no action type 'fly'"),
    ({"type": "unpack", "balloon": "GP"},
     "unpack action takes balloon: str, truck: int; got 'balloon'"),
    ({"type": "inflate", "balloon": "GP", "truck": 1},
     "inflate action takes balloon: str; got 'balloon', 'truck'"),
    ({"type": "pass", "balloon": "GP"}, "a pass action takes no fields; got 'balloon'"),
    ("unpack GP", "an action must be an Action or a dict"),
    (None, "an action must be an Action or a dict"),
    (["unpack", "GP"], "an action must be an Action or a dict"),
    ({"balloon": "GP"}, "has no 'type'"),
    ({"type": 3}, "action 'type' must be a string"),
    ({"type": "inflate", "balloon": ["GP"]}, "action field 'balloon' must be a plain value"),
    ({"type": "inflate", "balloon": "ZZ"}, "there is no balloon 'ZZ' in this game"),
    ({"type": "unpack", "balloon": "GP", "truck": True},
     "'truck' must be a launch-zone truck 0..3"),
    ({"type": "unpack", "balloon": "GP", "truck": 1.0}, "'truck' must be a launch-zone truck"),
    ({"type": "unpack", "balloon": "GP", "truck": 4}, "'truck' must be a launch-zone truck 0..3"),
    ({"type": "unpack", "balloon": "GP", "truck": -1}, "'truck' must be a launch-zone truck"),
    ({"type": "unpack", "balloon": "GP", "truck": "safety"},
     "may not be placed on the safety truck"),
    ({"type": "wind", "truck": "left"}, "moves truck 'launch' or 'safety'"),
    ({"type": "inflate", "balloon": "WY"}, "WY is packed; only an unpacked balloon can inflate"),
    ({"type": "launch", "balloon": "GP"}, "GP is unpacked; only an inflated balloon can launch"),
    ({"type": "unpack", "balloon": "RW", "truck": 0}, "truck 0 already carries GP"),
    ({"type": "pass"}, "you may pass only when none can"),
    ({"type": "wind", "truck": "launch"}, "in the fixed-wind edition the wind moves the trucks"),
])
def test_illegal_and_malformed_actions_say_why_and_change_nothing(action, fragment):
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 1)
    match.play({"type": "unpack", "balloon": "PR", "truck": 3})
    match.undo()  # leave a redo tail, which must survive a refused move too
    before = snapshot(match)
    with pytest.raises(IllegalAction) as caught:
        match.play(action)
    assert fragment in str(caught.value)
    assert snapshot(match) == before


def test_no_action_once_the_game_is_over(finished_match):
    before = snapshot(finished_match)
    with pytest.raises(IllegalAction, match="the game is over; pass"):
        finished_match.play({"type": "pass"})
    assert snapshot(finished_match) == before


def test_a_refused_move_notifies_no_one():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    changes = []
    match.subscribe(lambda m, change: changes.append(change))
    with pytest.raises(IllegalAction):
        match.play({"type": "inflate", "balloon": "GP"})
    assert changes == []


# -- history, undo, redo, goto, fork ------------------------------------------------------------
def test_history_records_who_played_what():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 3)
    history = match.history
    assert [entry.kind for entry in history] == ["action"] * 3
    assert [entry.seat for entry in history] == [0, 1, 2]
    assert history[0].action.to_dict() == {"type": "unpack", "balloon": "GP", "truck": 0}
    assert str(history[0]) == "seat 0: unpacked GP onto truck 0 (column 1)"
    assert str(history[2]) == "seat 2: inflated GP"


def test_undo_redo_and_goto_move_along_the_timeline():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    states = [match.state]
    for count in range(1, 5):
        match.play(OPENING[count - 1])
        states.append(match.state)
    assert match.position == 4 and match.can_undo and not match.can_redo
    match.undo()
    assert match.state == states[3] and match.can_redo and len(match.history) == 3
    match.undo(2)
    assert match.state == states[1] and match.position == 1
    match.redo()
    assert match.state == states[2]
    match.redo(2)
    assert match.state == states[4] and not match.can_redo
    match.goto(0)
    assert match.state == states[0] and match.history == [] and not match.can_undo
    match.goto(3)
    assert match.state == states[3]


@pytest.mark.parametrize("call, fragment", [
    (lambda m: m.undo(5), "cannot undo 5 step(s): only 2 to undo"),
    (lambda m: m.redo(1), "cannot redo 1 step(s): only 0 to redo"),
    (lambda m: m.undo(-1), "cannot undo -1"),
    (lambda m: m.undo("1"), "steps must be a whole number"),
    (lambda m: m.redo(None), "steps must be a whole number"),
    (lambda m: m.goto(3), "position must be 0..2, not 3"),
    (lambda m: m.goto(True), "position must be a whole number"),
])
def test_bad_timeline_moves_are_refused_and_change_nothing(call, fragment):
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    before = snapshot(match)
    with pytest.raises(ValueError) as caught:
        call(match)
    assert fragment in str(caught.value)
    assert snapshot(match) == before


def test_playing_after_undo_discards_the_redo_tail():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 3)
    match.undo(2)
    match.play({"type": "unpack", "balloon": "WY", "truck": 3})
    assert not match.can_redo and match.position == 2
    assert match.history[-1].action.to_dict()["balloon"] == "WY"


def test_fork_is_independent_both_ways():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    fork = match.fork()
    assert fork.state == match.state and fork.history == match.history
    base_state = match.state
    fork.play({"type": "inflate", "balloon": "GP"})
    assert match.state == base_state and match.position == 2
    match.play({"type": "inflate", "balloon": "RW"})
    assert fork.state.to_dict()["balloons"]["RW"]["status"] == "unpacked"
    assert fork.state.to_dict()["balloons"]["GP"]["status"] == "inflated"
    fork.undo(3)
    assert match.position == 3 and fork.position == 0


def test_fork_drops_the_redo_tail_and_the_listeners():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 3)
    match.undo()
    calls = []
    match.subscribe(lambda m, change: calls.append(change))
    fork = match.fork()
    assert not fork.can_redo
    fork.play(fork.legal_actions()[0])
    assert calls == []


def test_replay_plays_the_decisions_and_edits_again_under_other_options():
    match = opening(aloftnb.new_match("balloons", players=3, seed=11), 5)
    match.edit(trucks=[2, 3, 4, 5])
    match.play(match.legal_actions()[0])
    same = match.replay()
    assert same.replay_report == "replayed 7 of 7 decisions under the same options"
    assert [str(e) for e in same.history] == [str(e) for e in match.history]
    assert same.state == match.state
    # An edit installed a whole state, options included: under other options it is refused.
    higher = match.replay(altitudes=5)
    assert higher.options["altitudes"] == 5 and match.options["altitudes"] == 4
    assert higher.position == 5 and higher.replay_report == (
        "replayed 5 of 7 decisions under altitudes=5; stopped: step 6 (edit: the state was "
        "changed from a cell) is refused now: this match has altitudes 5; the state says 4 "
        "(start a new match to change it)")
    # Two launch-zone trucks: the second unpack (onto truck 2) is refused; play stops before it.
    fewer = match.replay(trucks=2)
    assert fewer.position == 1 and fewer.history[0].action == match.history[0].action
    assert fewer.replay_report.startswith(
        "replayed 1 of 7 decisions under trucks=2; stopped: step 2 (seat 1: unpacked RW onto "
        "truck 2 (column 3)) is refused now: 'truck' must be a launch-zone truck 0..1")
    fewer.play(fewer.legal_actions()[0])  # the replayed match plays on from there


# -- saving -------------------------------------------------------------------------------------
def saved_match() -> Match:
    """A match with actions, an edit and a redo tail: everything a save must keep."""
    match = opening(aloftnb.new_match("balloons", players=3, seed=11), 5)
    match.edit(safety=1, turn=40)
    match.play({"type": "ascend", "balloon": "GP"})
    match.play({"type": "launch", "balloon": "RW"})
    match.undo()
    return match


def test_save_round_trip_is_exact_with_edits_and_a_redo_tail():
    match = saved_match()
    text = match.to_json()
    loaded = Match.from_json(text)
    assert loaded.to_json() == text
    assert loaded.state == match.state and loaded.position == match.position
    assert loaded.options == match.options and loaded.seed == match.seed
    assert [str(e) for e in loaded.history] == [str(e) for e in match.history]
    assert loaded.can_redo
    loaded.redo()
    match.redo()
    assert loaded.state == match.state
    assert Match.from_json(text.encode()).to_json() == text  # bytes are fine too


def test_save_of_a_finished_game_round_trips(finished_match):
    text = finished_match.to_json(indent=1)
    loaded = Match.from_json(text)
    assert loaded.is_over and loaded.scores() == finished_match.scores()
    assert loaded.winners() == finished_match.winners()


def test_save_is_versioned():
    data = json.loads(saved_match().to_json())
    assert data["format"] == "aloftnb.match" and data["version"] == 3
    assert data["game"] == "balloons" and data["seed"] == 11
    assert data["timeline"][5] == {"kind": "edit", "state": data["timeline"][5]["state"]}


def test_exported_save_dict_does_not_alias_the_history():
    match = saved_match()
    text = match.to_json()
    exported = match.to_dict()
    exported["timeline"][5]["state"]["safety"] = 99  # regression: this used to edit the history
    assert match.to_json() == text


def tampered(change) -> str:
    data = json.loads(saved_match().to_json())
    change(data)
    return json.dumps(data)


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete(key):
    return lambda data: data.pop(key)


TAMPERED_SAVES = [
    ("{", "not a JSON save"),
    (b"\xff\xfe", "not a JSON save"),
    (None, "not a JSON save"),
    ("[" * 100_000 + "]" * 100_000, "not a JSON save"),
    ("[1, 2]", "a save must be a JSON object"),
    (tampered(_set(["format"], "chess.pgn")), "not an aloftnb match save"),
    (tampered(_set(["version"], 4)), "save version 4 is not supported"),
    (tampered(_delete("seed")), "the save has no 'seed'"),
    (tampered(_delete("timeline")), "the save has no 'timeline'"),
    (tampered(_delete("state")), "the save has no 'state'"),
    (tampered(_delete("position")), "the save has no 'position'"),
    (tampered(_set(["options"], [])), "'options' must be an object"),
    (tampered(_set(["timeline"], {})), "'timeline' must be a list"),
    (tampered(_set(["game"], "chess")), "the save's game settings are invalid: no game called"),
    (tampered(_set(["players"], 9)), "the save's game settings are invalid"),
    (tampered(_set(["seed"], -4)), "the save's game settings are invalid: seed must be"),
    (tampered(_set(["options", "mode"], "team")), "the save's game settings are invalid"),
    (tampered(_set(["options", "colour"], "red")), "has no option 'colour'"),
    (tampered(_set(["options", "columns"], 11)),
     "timeline step 6 cannot be replayed: this match has columns 11"),
    (tampered(_set(["timeline", 2, "action", "balloon"], "WY")),
     "timeline step 3 cannot be replayed: WY is packed"),
    (tampered(_set(["timeline", 1, "action"], {"type": "fly"})),
     "timeline step 2 cannot be replayed: balloons has no action type 'fly'"),
    (tampered(_set(["timeline", 0, "seat"], 1)),
     "timeline step 1 says seat 1 played, but it was seat 0's turn"),
    (tampered(_set(["timeline", 3], "inflate RW")),
     "timeline step 4 is not an action, a chance step or an edit"),
    (tampered(_set(["timeline", 5, "state", "trucks"], [1, 1, 2, 3])),
     "timeline step 6 cannot be replayed: 'trucks' must be in distinct columns"),
    (tampered(_set(["state", "safety"], 2)), "does not match the one its history leads to"),
    (tampered(_set(["position"], 99)), "'position' 99 is outside the timeline"),
    (tampered(_set(["position"], -1)), "'position' -1 is outside the timeline"),
    (tampered(_set(["position"], "6")), "'position' must be a whole number"),
]


@pytest.mark.parametrize("text, fragment", TAMPERED_SAVES,
                         ids=[f"{n}-{fragment[:30]}"
                              for n, (_, fragment) in enumerate(TAMPERED_SAVES)])
def test_tampered_saves_raise_invalid_save_naming_the_problem(text, fragment):
    with pytest.raises(InvalidSave) as caught:
        Match.from_json(text)
    assert fragment in str(caught.value)


def test_changed_seed_is_caught_by_the_state_check():
    match = opening(aloftnb.new_match("balloons", players=3, seed=11), 4)
    data = json.loads(match.to_json())
    data["seed"] = 12  # deals other colour cards, so the history leads elsewhere
    with pytest.raises(InvalidSave, match="does not match the one its history leads to"):
        Match.from_json(json.dumps(data))


def test_changed_seed_in_a_solo_save_is_caught_at_the_first_unpack():
    match = aloftnb.new_match("balloons", players=1, mode="solo", seed=3)
    match.play(match.legal_actions()[0])
    data = json.loads(match.to_json())
    data["seed"] = next(seed for seed in range(100)
                        if aloftnb.new_match("balloons", players=1, mode="solo", seed=seed)
                        .state.to_dict()["row"][0] != match.history[0].action.balloon)
    with pytest.raises(InvalidSave,
                       match="timeline step 1 cannot be replayed: with the solo rules"):
        Match.from_json(json.dumps(data))


# -- editing ------------------------------------------------------------------------------------
def test_an_accepted_edit_is_a_history_entry_and_undo_reverts_it():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    before = match.state
    row = [b for b in match.state.to_dict()["row"] if b != "WY"]
    match.edit(balloons={"WY": {"status": "flying", "column": 9, "altitude": 3}}, row=row)
    assert match.state.to_dict()["balloons"]["WY"] == {"status": "flying", "column": 9,
                                                        "altitude": 3}
    entry = match.history[-1]
    assert entry.kind == "edit" and entry.seat is None
    assert str(entry) == "edit: the state was changed from a cell"
    match.undo()
    assert match.state == before


def test_edit_keeps_row_consistent_or_refuses():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    with pytest.raises(InvalidState, match="'row' must list each packed balloon once"):
        match.edit(balloons={"WY": {"status": "flying", "column": 9, "altitude": 3}})
    row = [b for b in match.state.to_dict()["row"] if b != "WY"]
    match.edit(balloons={"WY": {"status": "flying", "column": 9, "altitude": 3}}, row=row)
    assert match.state.to_dict()["row"] == row


def test_set_state_accepts_a_dict_or_a_state_object():
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    other = aloftnb.new_match("balloons", players=3, seed=1)
    other.set_state(match.state.to_dict())
    assert other.state == match.state
    third = aloftnb.new_match("balloons", players=3, seed=1)
    third.set_state(match.state)
    assert third.state == match.state and third.history[-1].kind == "edit"


@pytest.mark.parametrize("bad, fragment", [
    ("not a state", "set_state takes a state dict or a balloons state, not str"),
    ([1, 2], "set_state takes a state dict"),
    ({}, "the state has no 'balloons'"),
    ({"trucks": [1, 2, 3, 4], "surprise": 1}, "unknown key 'surprise'"),
])
def test_set_state_refuses_junk_and_keeps_the_old_state(bad, fragment):
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    before = snapshot(match)
    with pytest.raises(InvalidState) as caught:
        match.set_state(bad)
    assert fragment in str(caught.value)
    assert snapshot(match) == before


def test_set_state_refuses_a_malformed_state_object():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    before = snapshot(match)
    with pytest.raises(InvalidState, match="that state object is malformed"):
        match.set_state(match.state._replace(status=(0,)))  # regression: was IndexError
    with pytest.raises(InvalidState, match="the safety truck"):
        match.set_state(match.state._replace(safety=3))
    assert snapshot(match) == before


@pytest.mark.parametrize("changes, fragment", [
    ({"surprise": 1}, "the balloons state has no key 'surprise'"),
    ({"trucks": [1, 2, 3]}, "'trucks' must list the 4 launch-zone truck columns"),
    ({"trucks": [1, 2, 5, 6]}, "must form one group, or two groups with one empty column"),
    ({"safety": 0}, "'safety' must be between 1 and 13, not 0"),
    ({"turn": -1}, "'turn' must be between 0"),
    ({"current_player": 3}, "'current_player' must be a seat 0..2, not 3"),
    ({"step": "wind"}, "the fixed-wind edition has no wind step"),
    ({"step": "over", "current_player": None},
     "the game is over exactly when the lead truck has passed"),
    ({"colours": {"0": "red", "1": "red", "2": "green"}}, "two seats cannot hold the same colour"),
    ({"colours": {"0": "blue"}}, "colours must be among"),
    ({"mode": "solo"}, "this match has mode 'competitive'; the state says 'solo'"),
    ({"columns": 10}, "this match has columns 12"),
    ({"row": [["GP"]]}, "'row' must list balloon ids"),
    ({"balloons": {"GP": {"status": "floating"}}}, "balloon GP needs a 'status'"),
    ({"balloons": {"WY": {"status": "unpacked", "truck": 0}}},
     "truck 0 carries both GP and WY; a truck carries one balloon"),
    ({"balloons": {"GP": {"status": "inflated", "truck": 4}}},
     "GP's truck must be 0..3 (balloons never ride the safety truck), not 4"),
    ({"balloons": {"GP": {"status": "flying", "column": 3, "altitude": 5}}},
     "GP's altitude must be 1..4, not 5"),
    ({"balloons": {"GP": {"status": "flying", "column": 3}}},
     "a flying balloon (GP) has exactly the keys ['altitude', 'column', 'status']"),
])
def test_invalid_edits_raise_invalid_state_and_keep_the_old_state(changes, fragment):
    match = opening(aloftnb.new_match("balloons", players=3, seed=1), 2)
    before = snapshot(match)
    with pytest.raises(InvalidState) as caught:
        match.edit(**changes)
    assert fragment in str(caught.value)
    assert snapshot(match) == before


def test_edit_recomputes_derived_keys():
    # Regression: a stale lead_passed=False made this edit fail.
    match = aloftnb.new_match("balloons", players=2, edition="choice", seed=1)
    match.edit(trucks=[9, 10, 11, 13], safety=9)
    assert match.state.to_dict()["lead_passed"] is True
    with pytest.raises(InvalidState, match="'lead_passed' is False but the lead truck"):
        match.edit(trucks=[9, 10, 11, 13], safety=9, lead_passed=False)


# -- views ----------------------------------------------------------------------------------------
def test_view_hides_other_seats_colours():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    colours = match.state.to_dict()["colours"]
    assert set(colours) == {"0", "1", "2"}
    for seat in range(3):
        view = match.view(seat)
        assert view["colours"] == {str(seat): colours[str(seat)]}
        assert {k: v for k, v in view.items() if k != "colours"} == {
            k: v for k, v in match.state.to_dict().items() if k != "colours"}
    assert match.view(None)["colours"] == {}


@pytest.mark.parametrize("seat", [3, -1, True, "0", 0.0, [0]])
def test_view_refuses_a_bad_seat(seat):
    match = aloftnb.new_match("balloons", players=3, seed=1)
    with pytest.raises(ValueError, match="seat must be 0..2 or None"):
        match.view(seat)


# -- determinism ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, players", [("competitive", 4), ("solo", 1), ("cooperative", 3)])
def test_same_seed_and_actions_give_identical_states(mode, players):
    first = aloftnb.new_match("balloons", players=players, mode=mode, seed=99)
    second = aloftnb.new_match("balloons", players=players, mode=mode, seed=99)
    rng = random.Random(5)
    assert first.state == second.state
    while not first.is_over:
        action = rng.choice(first.legal_actions())
        first.play(action)
        second.play(action.to_dict())
        assert first.state == second.state
    assert first.to_json() == second.to_json()


def test_different_seeds_deal_differently():
    deals = {tuple(aloftnb.new_match("balloons", players=3, seed=s).state.to_dict()["colours"]
                   .values()) for s in range(20)}
    rows = {tuple(aloftnb.new_match("balloons", players=1, mode="solo", seed=s).state.to_dict()
                  ["row"]) for s in range(20)}
    assert len(deals) > 5 and len(rows) > 5


# -- observers ------------------------------------------------------------------------------------
def test_subscribers_hear_every_change_until_they_unsubscribe():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    heard = []
    unsubscribe = match.subscribe(lambda m, change: heard.append((m is match, change)))
    opening(match, 1)
    match.edit(turn=5)
    match.undo()
    match.redo()
    assert heard == [(True, "action"), (True, "edit"), (True, "goto"), (True, "goto")]
    unsubscribe()
    match.play(match.legal_actions()[0])
    assert len(heard) == 4


def test_subscribe_accepts_builtins_and_refuses_non_callables():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    latest = {}
    match.subscribe(latest.__setitem__)  # regression: a builtin method raised TypeError
    with pytest.raises(ValueError, match="subscribe takes a function or method"):
        match.subscribe("redraw")
    opening(match, 1)
    assert latest == {match: "action"}


def test_bound_method_subscribers_are_held_weakly():
    class Listener:
        def __init__(self):
            self.heard = 0

        def on_change(self, match, change):
            self.heard += 1

    match = aloftnb.new_match("balloons", players=3, seed=1)
    kept, dropped = Listener(), Listener()
    match.subscribe(kept.on_change)
    match.subscribe(dropped.on_change)
    del dropped
    gc.collect()
    opening(match, 1)
    assert kept.heard == 1
    assert len(match._listeners) == 1


# -- the fast path --------------------------------------------------------------------------------
def test_rules_fast_path_is_pure():
    rules = aloftnb.make_rules("balloons", 3)
    state = rules.initial_state(4)
    action = rules.legal_actions(state)[0]
    after = rules.apply(state, action)
    assert state == rules.initial_state(4)  # apply never mutates
    assert after != state and rules.current_player(after) == 1
    match = aloftnb.new_match("balloons", players=3, seed=4)
    match.play(action)
    assert match.state == after


def test_a_failing_listener_does_not_undo_or_hide_the_change():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    calls = []

    def broken(m, change):
        calls.append(change)
        raise RuntimeError("listener bug")

    match.subscribe(broken)
    action = match.legal_actions()[0]
    with pytest.warns(RuntimeWarning, match="listener bug"):
        assert match.play(action) == action
    assert match.position == 1 and calls == ["action"]
