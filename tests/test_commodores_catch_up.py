"""Sky commodores' `catch_up` option (issue 21): a designer's compensation for the first
player's edge, off by default. Seat k takes 1 + (k x catch_up + 1) // 2 free resources at set-up,
one at a time, in seat order; everything else is the text's set-up. The figures that chose its
strength are in docs/rules/commodores.md (playtesting), not here: a statistical test would be
slow or could flake."""

from __future__ import annotations

import json

import pytest
from test_commodores_rules import data, new, of, pool, refusal, started

import aloftnb
from aloftnb import InvalidOptions
from aloftnb.core.options import recorded_options
from aloftnb.games.commodores.catalogue import CATALOGUE
from aloftnb.playtest import simulate


def take(match, *resources):
    for resource in resources:
        match.play({"type": "free", "resource": resource})


def at_free_step(players=3, **options):
    """A match whose starters are placed: the first free resource is next."""
    match = started(players, free=(), **options)
    assert data(match)["step"] == "free" and match.current_player == 0
    return match


def test_ruling_catch_up_later_seats_take_more_free_resources_one_at_a_time():
    match = at_free_step(catch_up=1)  # 1, 2 and 2 free resources
    take(match, "glass")
    assert match.current_player == 1
    take(match, "wood")
    assert match.current_player == 1 and data(match)["step"] == "free"  # seat 1 takes another
    take(match, "glass")
    assert match.current_player == 2
    take(match, "breath")
    assert match.current_player == 2 and data(match)["step"] == "free"
    take(match, "breath")
    state = data(match)
    assert state["pools"] == [pool(glass=1), pool(wood=1, glass=1), pool(breath=2)]
    assert state["step"] == "forage" and match.current_player == 0

    match = at_free_step(catch_up=2)  # 1, 2 and 3
    take(match, "glass")
    assert match.current_player == 1
    take(match, "wood")
    assert match.current_player == 1 and data(match)["step"] == "free"
    take(match, "wood", "canvas", "breath")
    assert match.current_player == 2 and data(match)["step"] == "free"
    take(match, "canvas")
    assert data(match)["pools"] == [pool(glass=1), pool(wood=2), pool(canvas=2, breath=1)]
    assert data(match)["step"] == "forage" and match.current_player == 0


@pytest.mark.parametrize("catch_up, players, counts", [
    (0, 3, [1, 1, 1]), (0, 5, [1, 1, 1, 1, 1]), (1, 3, [1, 2, 2]), (1, 4, [1, 2, 2, 3]),
    (1, 5, [1, 2, 2, 3, 3]), (2, 4, [1, 2, 3, 4]), (3, 5, [1, 3, 4, 6, 7]),
    (4, 5, [1, 3, 5, 7, 9]), (1, 2, [1, 2]), (2, 2, [1, 2]),
])
def test_the_free_resources_each_seat_takes(catch_up, players, counts):
    options = {"two_players": True} if players == 2 else {}
    match = at_free_step(players, catch_up=catch_up, **options)
    taken = [0] * players
    while data(match)["step"] == "free":
        taken[match.current_player] += 1
        take(match, "canvas")
    assert taken == counts
    assert [p["canvas"] for p in data(match)["pools"]] == counts
    assert match.current_player == 0


def test_the_default_is_the_texts_set_up_one_free_resource_each():
    assert new().options["catch_up"] == 0
    assert data(started()) == data(started(catch_up=0))


def test_only_the_free_resources_change():
    plain = started(free=("canvas", "wood", "wood"))
    helped = at_free_step(catch_up=4)
    take(helped, "canvas", *["wood"] * 8)
    before, after = data(plain), data(helped)
    assert after["pools"] == [pool(canvas=1), pool(wood=3), pool(wood=5)]
    for key in before:
        if key not in ("pools", "derived"):
            assert before[key] == after[key], key


def catalogue_holding(cap):
    catalogue = json.loads(json.dumps(CATALOGUE.shipped_data()))
    catalogue["supply"]["pool_cap"] = cap
    return catalogue


def test_a_full_tracker_is_not_offered_and_is_refused_in_words():
    # Seat 4 takes 9, more than one row of a tracker holding 3 takes.
    match = at_free_step(5, catch_up=4, catalogue=catalogue_holding(3))
    while match.current_player != 4:
        match.play(of(match, "free")[0])
    take(match, *["canvas"] * 3)
    assert {a.resource for a in of(match, "free")} == {"breath", "glass", "wood"}
    assert "holds 3 canvas already" in refusal(match, {"type": "free", "resource": "canvas"})
    assert "not metal" in refusal(match, {"type": "free", "resource": "metal"})
    take(match, "wood", "wood", "glass", "breath", "breath", "breath")
    assert data(match)["pools"][4] == pool(canvas=3, wood=2, glass=1, breath=3)
    assert data(match)["step"] == "forage"


@pytest.mark.parametrize("value, message", [
    (5, "between 0 and 4"), (-1, "between 0 and 4"), (True, "whole number"),
    (1.0, "whole number"), ("1", "whole number"), (None, "whole number"),
])
def test_bad_values_are_refused(value, message):
    with pytest.raises(InvalidOptions, match=f"catch_up=.*{message}"):
        new(catch_up=value)


def test_more_free_resources_than_a_tracker_holds_are_refused():
    catalogue = catalogue_holding(2)  # 4 free kinds x 2 = 8 < 1 + (4 x 4 + 1) // 2 for seat 4
    with pytest.raises(InvalidOptions, match="catch_up=4: seat 4 would take 9 free resources"):
        new(5, catch_up=4, catalogue=catalogue)
    assert new(5, catch_up=3, catalogue=catalogue).options["catch_up"] == 3  # 7 <= 8


def test_a_save_with_catch_up_round_trips_and_plays_on():
    match = aloftnb.new_match("commodores", players=4, seed=7, catch_up=2)
    for _ in range(60):
        match.play(match.legal_actions()[-1])
    text = match.to_json()
    assert json.loads(text)["options"]["catch_up"] == 2
    loaded = aloftnb.Match.from_json(text)
    assert loaded.options["catch_up"] == 2
    assert loaded.rules == match.rules and loaded.state == match.state
    loaded.play(loaded.legal_actions()[0])


def test_a_save_without_the_option_loads_with_the_texts_set_up():
    data_ = aloftnb.new_match("commodores", players=3, seed=2).to_dict()
    del data_["options"]["catch_up"]  # as written before the option existed
    assert aloftnb.Match.from_dict(data_).options["catch_up"] == 0


def test_simulation_rows_name_catch_up_only_when_it_is_on():
    spec = aloftnb.new_match("commodores", players=3).rules.option_spec
    assert "catch_up" not in recorded_options(spec, {"catch_up": 0, "radius": 4})
    assert recorded_options(spec, {"catch_up": 1, "radius": 4}) == {"catch_up": 1, "radius": 4}
    off = simulate("commodores", players=3, bots="random", games=1, seed=3, workers=1,
                   progress=False, turn_limit=2)
    on = simulate("commodores", players=3, bots="random", games=1, seed=3, workers=1,
                  progress=False, turn_limit=2, catch_up=1)
    assert "catch_up" not in json.loads(off["options"][0])
    assert json.loads(on["options"][0])["catch_up"] == 1
    assert aloftnb.results_match(on, 0).options["catch_up"] == 1
