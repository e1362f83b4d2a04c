"""Aloft, sky commodores: the catalogue (ship types, goals, leviathans, hexes, supplies) as data.

The shipped catalogue loads, a designer's dict or JSON file loads (a file's contents are kept in
the options, so a save loads where the file does not exist), and every kind of malformed
catalogue is refused with InvalidOptions naming the entry and the field.
"""

from __future__ import annotations

import json
import random

import pytest

import aloftnb
from aloftnb import InvalidOptions, InvalidState, Match
from aloftnb.games.commodores.catalogue import GOAL_KINDS, default_catalogue_data


def rules_with(catalogue):
    return aloftnb.make_rules("commodores", 3, catalogue=catalogue)


def refused(catalogue) -> str:
    with pytest.raises(InvalidOptions) as caught:
        rules_with(catalogue)
    return str(caught.value)


def test_the_shipped_catalogue_loads_with_the_texts_components():
    cat = aloftnb.make_rules("commodores", 3).catalogue
    assert cat.resources == ("breath", "canvas", "glass", "metal", "wood")  # ordered by name
    assert dict(cat.hexes) == {"merchant": 2, "canvas": 5, "breath": 5, "glass": 5, "wood": 5,
                               "metal": 3}
    assert len(cat.leviathans) == 5 and cat.leviathans_set_aside == 2
    assert cat.number_tokens == (5,) * 6
    assert len(cat.shipyard) == 10 and cat.copies_per_type == 6 and cat.ship_types_in_play == 5
    assert len(cat.goals) == 10 and cat.goals_in_play == 5 and cat.goals_to_win == 3
    assert {g.kind for g in cat.goals} == set(GOAL_KINDS)  # every goal kind is on a card
    assert cat.ships_per_player == 5 and cat.upgrade_cubes == 30
    assert "metal" not in cat.free_resources


def test_a_designers_dict_loads_and_plays():
    data = default_catalogue_data()
    data["supply"]["pool_cap"] = 12
    data["shipyard"]["cutter"]["move"] = 5
    match = aloftnb.new_match("commodores", players=3, seed=2, catalogue=data)
    assert match.rules.catalogue.pool_cap == 12
    assert match.rules.catalogue.ship_type("cutter").move == 5
    assert match.options["catalogue"] == data
    again = Match.from_json(match.to_json())
    assert again.rules.catalogue.pool_cap == 12
    assert again.state.to_dict() == match.state.to_dict()


def test_ruling_a_json_file_loads_and_its_contents_stay_in_the_options(tmp_path):
    data = default_catalogue_data()
    data["goals"]["hoard"]["count"] = 12
    path = tmp_path / "my-catalogue.json"
    path.write_text(json.dumps(data), "utf-8")
    match = aloftnb.new_match("commodores", players=3, seed=2, catalogue=str(path))
    assert match.rules.catalogue.goal("hoard").amount == 12
    assert match.options["catalogue"] == data  # the contents, not the path
    saved = match.to_json()
    path.unlink()
    again = Match.from_json(saved)  # the file is gone: the save still loads
    assert again.rules.catalogue.goal("hoard").amount == 12
    assert again.state.to_dict() == match.state.to_dict()


def test_a_missing_field_is_named():
    data = default_catalogue_data()
    del data["shipyard"]["cutter"]["move"]
    assert refused(data) == "catalogue: shipyard.cutter.move is missing"
    data = default_catalogue_data()
    del data["supply"]
    assert refused(data) == "catalogue: (top level).supply is missing"


def test_a_field_of_the_wrong_type_is_named():
    data = default_catalogue_data()
    data["shipyard"]["cutter"]["move"] = "fast"
    assert refused(data) == ("catalogue: shipyard.cutter.move must be a whole number 0..12, not "
                             "'fast'")
    data = default_catalogue_data()
    data["starter"]["builds"] = "yes"
    assert "starter.builds must be true or false" in refused(data)


def test_an_unknown_resource_is_named():
    data = default_catalogue_data()
    data["shipyard"]["barge"]["cost"] = {"gold": 1}
    message = refused(data)
    assert "shipyard.barge.cost" in message and "'gold'" in message
    data = default_catalogue_data()
    data["leviathans"]["ironhide"]["reward"] = "iron"
    assert "leviathans.ironhide.reward must be one of the resources" in refused(data)


def test_an_unknown_goal_kind_is_named():
    data = default_catalogue_data()
    data["goals"]["hoard"]["kind"] = "richest"
    message = refused(data)
    assert message.startswith("catalogue: goals.hoard.kind must be one of ")
    assert "'richest'" in message


def test_a_rewards_table_with_a_gap_is_named():
    data = default_catalogue_data()
    data["leviathans"]["silkmoth"]["rewards"] = {"1": 2, "2": 4, "4": 8}
    assert refused(data) == ("catalogue: leviathans.silkmoth.rewards has no entry for plunder "
                             "value 3 (ships reach plunder 3)")
    data = default_catalogue_data()
    data["leviathans"]["silkmoth"]["rewards"] = {"1": 2, "2": 4, "3": 6, "5": 10}
    assert refused(data) == ("catalogue: leviathans.silkmoth.rewards has no entry for plunder "
                             "value 4")


def test_duplicate_upgrade_names_are_named():
    data = default_catalogue_data()
    data["shipyard"]["barge"]["upgrades"]["grapnels"] = {"name": "Grapnels", "plunder": 1,
                                                         "cost": {"metal": 1}}
    assert "upgrades name 'grapnels' is used on two ship types" in refused(data)


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"resources": ', "utf-8")
    message = refused(str(path))
    assert "broken.json" in message and "is not a JSON file" in message


def test_a_missing_file_is_refused(tmp_path):
    path = tmp_path / "nowhere.json"
    assert refused(str(path)) == f"catalogue: no file {str(path)!r}"


def test_a_catalogue_of_the_wrong_kind_is_refused():
    assert "must be a dict or a file path" in refused(["resources"])
    # A dict holding something that is not JSON data is refused too (it once escaped as a
    # TypeError from the copy).
    assert "catalogue must be plain JSON data" in refused({"resources": {1, 2}})
    assert "must be a table" in refused({**default_catalogue_data(), "goals": []})


def test_set_up_counts_must_fit_the_catalogue():
    data = default_catalogue_data()
    data["hexes"]["glass"] = 0  # the ring needs a glass hex
    assert refused(data) == ("catalogue: hexes has too few glass hexes for the centre and the "
                             "ring")
    data = default_catalogue_data()
    data["set_up"]["goals_in_play"] = 11
    assert "set_up.goals_in_play must be a whole number 1..10" in refused(data)


def test_a_smaller_catalogue_plays_a_whole_game():
    data = default_catalogue_data()
    data["set_up"].update(goals_in_play=3, ship_types_in_play=2, leviathans_set_aside=0)
    data["supply"]["goals_to_win"] = 2
    match = aloftnb.new_match("commodores", players=3, seed=4, catalogue=data, turn_limit=5)
    state = match.state.to_dict()
    assert len(state["goals"]) == 3 and len(state["shipyard"]) == 2
    assert state["set_aside"] == []
    rng = random.Random(1)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    assert match.outcome() is not None


def test_a_path_object_loads_and_the_match_saves(tmp_path):
    mine = default_catalogue_data()
    mine["basic"]["name"] = "Skiff"
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(mine), "utf-8")
    match = aloftnb.new_match("commodores", players=3, seed=2, catalogue=path)
    assert match.options["catalogue"] == mine
    assert Match.from_json(match.to_json()).state.to_dict() == match.state.to_dict()
    # The shipped data, given as a file or a dict, is the shipped catalogue (as saves hold it).
    path.write_text(json.dumps(default_catalogue_data()), "utf-8")
    shipped = aloftnb.new_match("commodores", players=3, seed=2, catalogue=path)
    assert shipped.options["catalogue"] is None
    assert shipped.to_dict()["options"]["catalogue"] == default_catalogue_data()


def test_changing_the_designers_dict_afterwards_changes_neither_the_match_nor_its_save():
    data = default_catalogue_data()
    data["basic"]["name"] = "Skiff"
    match = aloftnb.new_match("commodores", players=3, seed=2, catalogue=data)
    data["supply"]["pool_cap"] = 3
    data["goals"].clear()
    assert match.rules.catalogue.pool_cap == 10
    assert match.options["catalogue"] == {**default_catalogue_data(),
                                          "basic": {**default_catalogue_data()["basic"],
                                                    "name": "Skiff"}}
    assert Match.from_json(match.to_json()).rules.catalogue.pool_cap == 10


def test_ruling_entries_are_ordered_by_name_so_a_saved_designers_catalogue_replays_the_same():
    """A save sorts its keys; a catalogue whose tables were written in another order must still
    load as the same game, with the same draws and the same legal actions."""
    data = default_catalogue_data()
    data["resources"] = dict(reversed(list(data["resources"].items())))
    data["goals"] = dict(reversed(list(data["goals"].items())))
    match = aloftnb.new_match("commodores", players=3, seed=11, catalogue=data)
    rng = random.Random(4)
    for _ in range(60):
        match.play(rng.choice(match.legal_actions()))
    loaded = aloftnb.Match.from_json(match.to_json())
    assert loaded.state == match.state
    assert loaded.legal_actions() == match.legal_actions()
    assert loaded.rules.catalogue == aloftnb.make_rules("commodores", 3).catalogue


def test_a_state_object_naming_an_unknown_goal_is_refused_as_invalid_state():
    # Found by the fuzz suite: a catalogue lookup raised StopIteration, which escaped set_state.
    match = aloftnb.new_match("commodores", players=3, seed=1)
    before = match.to_json()
    for goals in ("0", ("nope",)):
        with pytest.raises(InvalidState, match="the catalogue has no goal"):
            match.set_state(match.state._replace(goals=goals))
    assert match.to_json() == before
