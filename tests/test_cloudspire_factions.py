"""Cloudspire's starter factions and default lineups (docs/rules/cloudspire.md, "The data's
design" and ruling 29): every shipped faction plays a full game against every other, a
catalogue's `lineups` name each mode's default factions and are checked, and the games played
before the third and fourth factions joined are played exactly as before."""

from __future__ import annotations

import itertools
import random

import pytest

from aloftnb.core.registry import make_rules
from aloftnb.errors import InvalidOptions
from aloftnb.games.cloudspire.catalogue import load_catalogue, shipped_catalogue_data

E, M, G, L = "emberwrights", "mistveil", "gullwind", "lodestone"
# Every default game that kept its factions when the new ones joined: (players, mode) -> them.
# Only the 3- and 4-player competitive games changed, to three and four distinct factions.
DEFAULTS = {(2, "competitive"): [E, M], (1, "solo"): [E, M],
            (2, "cooperative"): [E, M, E], (3, "cooperative"): [E, M, E, M]}


def _older_catalogue():
    """The shipped catalogue as it was before issue 21's factions: two factions, no lineups."""
    cat = shipped_catalogue_data()
    cat["factions"] = [f for f in cat["factions"] if f["id"] in (E, M)]
    del cat["lineups"]
    return cat


def _play(rules, seed, steps=100_000):
    """The states of a seeded random game (at most `steps` steps)."""
    rng = random.Random(seed)
    state = rules.initial_state(seed)
    states = [state]
    while not rules.is_over(state) and len(states) <= steps:
        legal = rules.legal_actions(state)
        state = rules.apply(state, rules.sample_chance(state, rng) if rules.is_chance(state)
                            else rng.choice(legal))
        states.append(state)
    return states


def test_the_shipped_catalogue_has_four_distinct_starter_factions():
    cat, _ = load_catalogue(None)
    assert [f.id for f in cat.factions] == [E, M, G, L]
    assert len({f.name for f in cat.factions}) == 4
    flyers = {f.id: sum(cat.units[u].copies for u in f.minions if cat.units[u].terrain == "sky")
              for f in cat.factions}
    assert flyers[G] > max(flyers[E], flyers[M], flyers[L])  # the sky raiders fly most


@pytest.mark.parametrize("pair", list(itertools.combinations((E, M, G, L), 2)))
def test_every_pairing_plays_a_full_seeded_game(pair):
    rules = make_rules("cloudspire", 2, factions=list(pair))
    states = _play(rules, seed=3)
    assert rules.is_over(states[-1])
    assert [side.faction for side in states[-1].sides] == list(pair)
    # Each side fielded units of its own faction only (or mercs).
    for s in states:
        for band in s.units:
            kind = rules.catalogue.units[band.members[0]]
            assert kind.merc or kind.faction == pair[band.owner]


@pytest.mark.parametrize("players, mode", list(DEFAULTS))
def test_default_games_field_the_factions_they_did_before(players, mode):
    rules = make_rules("cloudspire", players, mode=mode)
    assert [f.id for f in rules.faction_of] == DEFAULTS[players, mode]


def test_three_and_four_seats_field_distinct_factions_by_default():
    assert [f.id for f in make_rules("cloudspire", 3).faction_of] == [E, M, L]
    rules = make_rules("cloudspire", 4)
    assert [f.id for f in rules.faction_of] == [E, M, G, L]
    older = make_rules("cloudspire", 4, catalogue=_older_catalogue())  # e.g. an older save's
    assert [f.id for f in older.faction_of] == [E, M, E, M]
    # RULING (default lineups): the original layout, which saves written before issue 21 load
    # with (those of format 2 hold no catalogue), seats the first two factions in turn.
    original = make_rules("cloudspire", 4, gate_layout="original")
    assert [f.id for f in original.faction_of] == [E, M, E, M]
    assert [f.id for f in make_rules("cloudspire", 3, gate_layout="original").faction_of] == [
        E, M, E]


@pytest.mark.parametrize("players, mode", list(DEFAULTS))
def test_default_games_play_as_with_the_two_faction_catalogue(players, mode):
    new = make_rules("cloudspire", players, mode=mode)
    old = make_rules("cloudspire", players, mode=mode, catalogue=_older_catalogue())
    assert new.unit_ids == old.unit_ids and new.spire_ids == old.spire_ids
    assert new.num_distinct_actions() == old.num_distinct_actions()
    for a, b in zip(_play(new, 5, steps=300), _play(old, 5, steps=300)):
        assert new.state_to_dict(a) == old.state_to_dict(b)


def test_a_catalogue_without_lineups_takes_its_factions_in_turn_and_numbers_them_all():
    cat = shipped_catalogue_data()
    del cat["lineups"]
    rules = make_rules("cloudspire", 3, catalogue=cat)
    assert [f.id for f in rules.faction_of] == [E, M, G]
    # As before lineups: every faction's pieces are numbered, in play or not.
    assert {rules.catalogue.units[u].faction for u in rules.unit_ids} == {E, M, G, L, ""}
    duel = make_rules("cloudspire", 2, catalogue=cat)
    assert "quarry_warden" in duel.unit_ids


def test_lineups_choose_the_default_factions_and_number_only_those_in_play():
    # RULING (default lineups): the catalogue's lineup for the mode and seats.
    cat = shipped_catalogue_data()
    cat["lineups"]["competitive"]["4"] = [E, M, G, L]
    cat["lineups"]["solo"]["1"] = [G, L]
    four = make_rules("cloudspire", 4, catalogue=cat)
    assert [f.id for f in four.faction_of] == [E, M, G, L]
    solo = make_rules("cloudspire", 1, mode="solo", catalogue=cat)
    assert [f.id for f in solo.faction_of] == [G, L]
    assert {solo.catalogue.units[u].faction for u in solo.unit_ids} == {G, L, ""}
    assert [st.id for f in solo.numbered for st in f.structures][0] == "prize_hold"
    # A count the lineups leave out takes the factions in turn; the option still overrides.
    del cat["lineups"]["competitive"]["3"]
    assert [f.id for f in make_rules("cloudspire", 3, catalogue=cat).faction_of] == [E, M, G]
    chosen = make_rules("cloudspire", 4, catalogue=cat, factions=[L, L, G, G])
    assert [f.id for f in chosen.faction_of] == [L, L, G, G]


@pytest.mark.parametrize("change, words", [
    (lambda c: c.update(lineups=[E, M]), "lineups must be a table"),
    (lambda c: c["lineups"].update(duel={"2": [E, M]}), "lineups.duel is not a field here"),
    (lambda c: c["lineups"]["competitive"].update({"5": [E] * 5}),
     "lineups.competitive.5 is not a field here"),
    (lambda c: c["lineups"]["solo"].update({"1": [E]}),
     "lineups.solo.1 must list 2 faction ids (the seats', then the rules' own)"),
    (lambda c: c["lineups"]["competitive"].update({"2": "emberwrights"}),
     "lineups.competitive.2 must list 2 faction ids"),
    (lambda c: c["lineups"]["cooperative"].update({"2": [E, M, "brawlers"]}),
     "lineups.cooperative.2[2] must be a faction id of the catalogue"),
    (lambda c: c["lineups"]["competitive"].update({"2": [[], M]}),  # found by the fuzz test
     "lineups.competitive.2[0] must be a faction id of the catalogue"),
])
def test_bad_lineups_are_refused_naming_the_field(change, words):
    cat = shipped_catalogue_data()
    change(cat)
    with pytest.raises(InvalidOptions) as info:
        load_catalogue(cat)  # refused before any game is made
    assert words in str(info.value)
