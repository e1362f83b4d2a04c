"""The Cloudspire catalogue: the shipped data loads, a designer's data is used, and malformed data
is refused with a message naming the entry and field."""

from __future__ import annotations

import json

import pytest

import aloftnb
from aloftnb.errors import InvalidOptions
from aloftnb.games.cloudspire.catalogue import default_catalogue_data, load_catalogue


def test_the_shipped_catalogue_loads():
    cat, data = load_catalogue()
    assert [f.name for f in cat.factions] == ["Emberwrights", "Mistveil", "Gullwind Corsairs",
                                              "Lodestone Compact"]
    assert len(cat.map.islands) == 7 and len(cat.map.landmarks) == 2
    assert set(cat.map.gates) == {2, 3, 4} and set(cat.map.competitive_gates) == {4}
    for faction in cat.factions:
        assert cat.units[faction.heroes[0]].cost == 0  # the starting hero
        assert all(len(cat.units[h].levels) >= 2 for h in faction.heroes)  # level-ups
        assert faction.structures and faction.spires and faction.minions
    assert {c.type for c in cat.chips.values()} == {"minion", "hero", "spire", "equipment"}


def test_a_designers_catalogue_changes_the_game(tmp_path):
    data = default_catalogue_data()
    data["factions"][0]["minions"][0]["movement"] = 4
    match = aloftnb.new_match("cloudspire", players=2, catalogue=data)
    assert match.rules.catalogue.units["slagling"].levels[0].movement == 4
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    again = aloftnb.new_match("cloudspire", players=2, catalogue=str(path))
    assert again.rules.catalogue.units["slagling"].levels[0].movement == 4
    loaded = aloftnb.Match.from_json(match.to_json())  # the save keeps the designer's data
    assert loaded.rules.catalogue.units["slagling"].levels[0].movement == 4


def broken(change):
    data = default_catalogue_data()
    change(data)
    return data


CASES = [
    (lambda d: d["factions"][0]["minions"][1].__setitem__("movement", "fast"),
     "factions[0].minions[1].movement must be a whole number"),
    (lambda d: d["factions"][1]["minions"][0].pop("health"),
     "factions[1].minions[0].health is missing"),
    (lambda d: d["factions"][1]["heroes"][0]["levels"][1].__setitem__("attack", -1),
     "factions[1].heroes[0].levels[1].attack must be a whole number"),
    (lambda d: d["factions"][0]["minions"][2].__setitem__("terrain", "water"),
     "factions[0].minions[2].terrain must be one of land, sky"),
    (lambda d: d["factions"][0]["spires"][0].__setitem__("start", "ARAFF"),
     "factions[0].spires[0].start has 5 upgrades, more than the capacity 4"),
    (lambda d: d["factions"][0]["spires"][0].__setitem__("start", "AX"),
     "factions[0].spires[0].start must be 1..8 upgrade letters"),
    (lambda d: d["factions"][1]["minions"][0].__setitem__("id", "slagling"),
     "factions[1].minions[0].id repeats the id 'slagling'"),
    (lambda d: d["factions"][0]["heroes"][0].__setitem__("cost", 2),
     "factions[0].heroes[0] is the starting hero"),
    (lambda d: d["factions"][0]["structures"][0]["advancements"][0].__setitem__("bonus", 1),
     "factions[0].structures[0].advancements[0].bonus is not a field here"),
    (lambda d: d["market"]["chips"][0].__setitem__("type", "dragon"),
     "market.chips[0].type must be one of minion, hero, spire, equipment"),
    (lambda d: d["market"]["chips"][4].__setitem__("movement", 9),
     "market.chips[4].movement must be a whole number 0..3"),
    (lambda d: d["events"][0].__setitem__("copies", 0), "events[0].copies must be a whole number"),
    (lambda d: d["landmark_faces"].__setitem__(slice(1, None), []),
     "landmark_faces needs at least 2 faces"),
    (lambda d: d["map"]["islands"]["Heartrock"].append("9,9"),
     "map.islands.Heartrock[7] must be a hex"),
    (lambda d: d["map"]["sky"].pop(), "map leaves hex -1,-1 neither island nor sky"),
    (lambda d: d["map"]["gates"]["2"].__setitem__(0, "1,-2"),
     "map.gates.2 puts a gate on 1,-2, which must be island ground without a well"),
    (lambda d: d["map"]["competitive_gates"]["4"].pop(),
     "map.competitive_gates.4 must be a list of 4..4 entries"),
    (lambda d: d["map"]["competitive_gates"].__setitem__("1", ["0,-3"]),
     "map.competitive_gates.1 is not a field here (fields: 2, 3, 4)"),
    (lambda d: d["map"]["competitive_gates"]["4"].__setitem__(0, "2,-2"),
     "map.competitive_gates.4 puts a gate on 2,-2, which must be island ground without a well "
     "or landmark"),
    (lambda d: d["map"]["competitive_gates"]["4"].__setitem__(1, "4,0"),
     "map.competitive_gates.4[1] must be a hex \"q,r\" within radius 3, not '4,0'"),
    (lambda d: d["map"].__setitem__("competitive_gates", ["0,-3"]),
     "map.competitive_gates must be a table, not ['0,-3']"),
    (lambda d: d["map"]["earthscape_slots"].append("0,0"),
     "map.earthscape_slots lists 0,0, which is not a sky hex"),
    (lambda d: d["map"]["wells"].append("2,-1"), "map.wells lists 2,-1, which is not on an"),
    (lambda d: d["rules"].__setitem__("spire_die", [1]), "rules.spire_die must be a list of 2..12"),
    (lambda d: d.pop("events"), "the catalogue.events is missing"),
]


@pytest.mark.parametrize("change, message", CASES, ids=[m.split(" ")[0] for _, m in CASES])
def test_malformed_data_is_refused_naming_the_entry_and_field(change, message):
    with pytest.raises(InvalidOptions) as error:
        aloftnb.new_match("cloudspire", players=2, catalogue=broken(change))
    assert message in str(error.value)


def test_a_catalogue_must_be_data_and_a_file_must_exist(tmp_path):
    with pytest.raises(InvalidOptions, match="must be a dict or a file path"):
        aloftnb.new_match("cloudspire", players=2, catalogue=42)
    with pytest.raises(InvalidOptions, match="no file"):
        aloftnb.new_match("cloudspire", players=2, catalogue=str(tmp_path / "none.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidOptions, match="is not a JSON file"):
        aloftnb.new_match("cloudspire", players=2, catalogue=str(bad))


def test_a_map_without_gates_for_the_player_count_is_refused():
    data = broken(lambda d: d["map"]["gates"].pop("3"))
    with pytest.raises(InvalidOptions, match="map.gates has no entry for 3 factions"):
        aloftnb.new_match("cloudspire", players=3, catalogue=data)
    aloftnb.new_match("cloudspire", players=2, catalogue=data)  # 2 players still fine
