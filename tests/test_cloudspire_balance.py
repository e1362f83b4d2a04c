"""Cloudspire's balance options (docs/rules/cloudspire.md, "Options"): which faction each
seat fields (`factions`) and how strong the faction the rules play is (`difficulty`)."""

from __future__ import annotations

import pytest

import aloftnb
from aloftnb.core.registry import make_rules
from aloftnb.errors import InvalidOptions


# -- factions ------------------------------------------------------------------------------------
def test_by_default_seats_take_the_catalogues_factions_in_turn():
    rules = make_rules("cloudspire", 4)
    assert [f.id for f in rules.faction_of] == ["emberwrights", "mistveil"] * 2
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
