"""Cloudspire's balance options (docs/rules/cloudspire.md, "Options"): which faction each
seat fields (`factions`), how strong the faction the rules play is (`difficulty`) and where the
gates of competitive games stand (`gate_layout`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import aloftnb
from aloftnb.core.registry import make_rules
from aloftnb.errors import InvalidOptions
from aloftnb.games.cloudspire.catalogue import shipped_catalogue_data


# -- factions ------------------------------------------------------------------------------------
def test_by_default_seats_take_the_catalogues_lineup():
    rules = make_rules("cloudspire", 3)
    assert [f.id for f in rules.faction_of] == ["emberwrights", "mistveil", "lodestone"]
    assert rules.options["factions"] is None


def test_the_factions_option_chooses_each_seats_faction_and_the_rules_own():
    m = aloftnb.new_match("cloudspire", players=2, seed=3, factions=["mistveil", "emberwrights"])
    assert [side["faction"] for side in m.view(0)["sides"]] == ["mistveil", "emberwrights"]
    solo = make_rules("cloudspire", 1, mode="solo", factions=["mistveil", "mistveil"])
    assert [f.id for f in solo.faction_of] == ["mistveil", "mistveil"]
    # The default order given explicitly plays the very same game.
    a = aloftnb.new_match("cloudspire", players=2, seed=5)
    b = aloftnb.new_match("cloudspire", players=2, seed=5, factions=["emberwrights", "mistveil"])
    assert a.state.to_dict()["sides"] == b.state.to_dict()["sides"]


@pytest.mark.parametrize("value, players, mode, words", [
    (["nope", "mistveil"], 2, "competitive", "has no faction 'nope'"),
    (["mistveil"], 2, "competitive", "names 1 faction(s); this game has 2"),
    (["mistveil"], 1, "solo", "the seats, then the rules' own"),
    ("mistveil", 2, "competitive", "must be a list"),
    (("mistveil", "emberwrights"), 2, "competitive", "must be a list"),
    ([1, 2], 2, "competitive", "faction ids (text)"),
    ([], 2, "competitive", "must be a list of 1 to 4"),
])
def test_bad_factions_are_refused_naming_the_option(value, players, mode, words):
    with pytest.raises(InvalidOptions, match="option factions") as info:
        make_rules("cloudspire", players, mode=mode, factions=value)
    assert words in str(info.value)


def test_a_save_with_chosen_factions_round_trips():
    m = aloftnb.new_match("cloudspire", players=3, seed=7, factions=["mistveil"] * 3)
    for _ in range(40):
        if m.is_over:
            break
        m.play(m.legal_actions()[-1])
    loaded = aloftnb.Match.from_json(m.to_json())
    assert loaded.options["factions"] == ["mistveil"] * 3
    assert loaded.rules == m.rules and loaded.state == m.state


# -- difficulty ----------------------------------------------------------------------------------
def _with_levels(**level):
    cat = shipped_catalogue_data()
    cat["difficulty"] = {"hard": level}
    return cat


def test_the_difficulty_level_helps_only_the_faction_the_rules_play():
    # RULING (difficulty): the level's numbers for this many seats go to the rules' faction.
    cat = _with_levels(starting_source=[1, 2, 3], income=[1, 3, 5], command=[4, 5, 6],
                       gate_health=[7, 8, 9])
    plain = make_rules("cloudspire", 2, mode="cooperative", difficulty="learning",
                       catalogue=cat).initial_state(0)
    hard = make_rules("cloudspire", 2, mode="cooperative", difficulty="hard",
                      catalogue=cat).initial_state(0)
    assert [side.gate for side in hard.sides] == [10, 10, 18]
    assert [side.gate for side in plain.sides] == [10, 10, 10]
    # Wave 1's income is paid at the start: 2 (starting) + 3 (income) more Source, 5 command.
    assert hard.sides[2].source - plain.sides[2].source == 5
    assert hard.sides[2].command - plain.sides[2].command == 5
    assert [s.source for s in hard.sides[:2]] == [s.source for s in plain.sides[:2]]
    # In a competitive game nobody is helped, whatever the level.
    duel = make_rules("cloudspire", 2, difficulty="hard", catalogue=cat).initial_state(0)
    assert [side.gate for side in duel.sides] == [10, 10]


def test_the_shipped_levels_get_harder_in_order():
    levels = make_rules("cloudspire", 1, mode="solo").catalogue.difficulty
    assert set(levels) == {"easy", "normal", "hard"}
    for seats in range(3):
        for key in ("starting_source", "income", "command", "gate_health"):
            row = [levels[name].get(key, (0, 0, 0))[seats] for name in ("easy", "normal", "hard")]
            assert row == sorted(row), (key, seats, row)


def played_and_saved_before(option: str, moves: int, **settings):
    """A match played up to `moves` moves (the last legal one each time), and its save loaded
    again as one written before `option` existed (the option left out): it replays as played."""
    m = aloftnb.new_match("cloudspire", **settings)
    for _ in range(moves):
        if m.is_over:
            break
        m.play(m.legal_actions()[-1])
    data = m.to_dict()
    del data["options"][option]
    return m, aloftnb.Match.from_dict(data)


def test_difficulty_defaults_to_normal_and_old_saves_keep_the_learning_opponent():
    assert aloftnb.new_match("cloudspire", players=1, mode="solo").options["difficulty"] == \
        "normal"
    m, old = played_and_saved_before("difficulty", 30, players=1, mode="solo", seed=2,
                                     difficulty="learning")
    assert old.options["difficulty"] == "learning" and old.state == m.state


def test_a_bad_difficulty_is_refused_naming_the_option_or_the_catalogue_field():
    with pytest.raises(InvalidOptions, match="option difficulty='brutal' is not one of"):
        make_rules("cloudspire", 1, mode="solo", difficulty="brutal")
    for level, words in [({"gate_health": [1, 2]}, "difficulty.hard.gate_health must be a list"),
                         ({"speed": [1, 1, 1]}, "difficulty.hard.speed is not a field"),
                         ({"income": [1, "x", 1]}, "difficulty.hard.income[1] must be a whole")]:
        with pytest.raises(InvalidOptions, match="catalogue: ") as info:
            make_rules("cloudspire", 1, mode="solo", catalogue=_with_levels(**level))
        assert words in str(info.value)
    cat = shipped_catalogue_data()
    cat["difficulty"] = {"insane": {}}
    with pytest.raises(InvalidOptions, match="difficulty.insane is not a field"):
        make_rules("cloudspire", 1, mode="solo", catalogue=cat)


def test_a_save_at_a_difficulty_round_trips():
    m = aloftnb.new_match("cloudspire", players=2, mode="cooperative", seed=4, difficulty="hard")
    for _ in range(40):
        if m.is_over:
            break
        m.play(m.legal_actions()[-1])
    loaded = aloftnb.Match.from_json(m.to_json())
    assert loaded.options["difficulty"] == "hard"
    assert loaded.rules == m.rules and loaded.state == m.state


# -- gates (ruling 28) ---------------------------------------------------------------------------
def test_competitive_4_player_games_stand_on_the_maps_competitive_gates():
    gates = shipped_catalogue_data()["map"]
    own = tuple(gates["competitive_gates"]["4"])
    assert own != tuple(gates["gates"]["4"])
    rules = make_rules("cloudspire", 4)
    assert rules.gate_hexes == own and rules.options["gate_layout"] == "balanced"
    # The original layout stays selectable.
    original = make_rules("cloudspire", 4, gate_layout="original")
    assert original.gate_hexes == tuple(gates["gates"]["4"])
    # 2 and 3 players: the map lists no competitive gates of their own, so its gates.
    assert set(gates["competitive_gates"]) == {"4"}
    for players in (2, 3):
        assert make_rules("cloudspire", players).gate_hexes == tuple(gates["gates"][str(players)])


def test_solo_and_cooperative_games_keep_the_maps_gates():
    gates = shipped_catalogue_data()["map"]["gates"]
    for players, mode in ((1, "solo"), (2, "cooperative"), (3, "cooperative")):
        rules = make_rules("cloudspire", players, mode=mode)
        assert rules.gate_hexes == tuple(gates[str(players + 1)]), (players, mode)


def test_a_designers_competitive_gates_are_used_and_a_count_they_leave_out_uses_the_gates():
    data = shipped_catalogue_data()
    data["map"]["competitive_gates"] = {"3": ["1,-3", "2,1", "-3,1"]}
    assert make_rules("cloudspire", 3, catalogue=data).gate_hexes == ("1,-3", "2,1", "-3,1")
    assert make_rules("cloudspire", 4, catalogue=data).gate_hexes == \
        tuple(data["map"]["gates"]["4"])
    del data["map"]["competitive_gates"]  # a catalogue written before the field
    assert make_rules("cloudspire", 3, catalogue=data).gate_hexes == \
        tuple(data["map"]["gates"]["3"])


def test_a_save_from_before_the_gate_layout_option_replays_on_the_original_gates():
    m, old = played_and_saved_before("gate_layout", 60, players=4, seed=2,
                                     gate_layout="original")
    assert old.options["gate_layout"] == "original" and old.state == m.state
    original = tuple(shipped_catalogue_data()["map"]["gates"]["4"])
    assert old.rules.gate_hexes == original
    # A version-2 save names the shipped catalogue, not its data: it too keeps the old gates.
    path = Path(__file__).parent / "saves" / "v2" / "cloudspire-competitive-4p-mid-forced.json"
    assert aloftnb.Match.from_json(path.read_text("utf-8")).rules.gate_hexes == original


def test_a_bad_gate_layout_is_refused_naming_the_option():
    with pytest.raises(InvalidOptions, match="option gate_layout='new' is not one of"):
        make_rules("cloudspire", 3, gate_layout="new")
