"""Cloudspire rule scenarios: one test per rule and per RULING (docs/rules/cloudspire.md).

Scenarios are built on the shipped learning map (2 players: faction 0, the Emberwrights, has its
gate at 0,-3; faction 1, the Mistveil, at 0,3; the straight road between them runs along q=0).
"""

from __future__ import annotations

import random

import pytest

import aloftnb
from aloftnb import CHANCE
from aloftnb.core.registry import make_rules
from aloftnb.errors import IllegalAction, InvalidOptions, InvalidState
from aloftnb.games.cloudspire import fights
from aloftnb.games.cloudspire.phases import market
from aloftnb.games.cloudspire.rules import FLOW
from aloftnb.games.cloudspire.rules import CloudspireAction as A
from aloftnb.games.cloudspire.state import NOBODY, OVER, Band, Spire
from aloftnb.games.cloudspire.work import Work


def rules_for(players: int = 2, **options):
    return make_rules("cloudspire", players, **options)


def band(rules, owner: int, *members: str, at: str = "", health: int | None = None,
         level: int = 0) -> Band:
    full = rules.catalogue.units[members[0]].levels[level].health
    return Band(owner, tuple(members), full if health is None else health, at, level, "",
                False, False, False)


def onslaught(rules, *, units=(), spires=(), stacks=None, marks=None, gates=None, source=0,
              wave=1):
    """The start of faction 0's first onslaught turn: the last seat readies its stack. With no
    Source there is no limited build to offer, so a lone march is played by the rules."""
    n = rules.factions
    s = rules.initial_state(0)
    marks = marks or tuple(1 if f == 0 else 0 for f in range(n))
    sides = []
    for f, side in enumerate(s.sides):
        sides.append(side._replace(source=source, mark=marks[f], done=f < n - 1,
                                   stack=tuple((stacks or {}).get(f, ())),
                                   gate=(gates or {}).get(f, side.gate)))
    s = s._replace(wave=wave, phase="prep", order=tuple(range(n)), turn=n - 1, actor=n - 1,
                   draw="", refills=(), sides=tuple(sides), units=tuple(units),
                   spires=tuple(spires))
    rules.check_state(s)
    return rules.apply(s, A("ready"))


def test_a_draft_holds_every_field_of_the_state_in_order():
    """work.py declares the state's fields one by one (a compiled class): a draft settles into
    the state it was made from, and a changed field into that field."""
    s = rules_for().initial_state(0)
    w = Work(s)
    assert [getattr(w, name) for name in s._fields] == [
        list(value) if name in ("sides", "units", "spires", "landmarks") else value
        for name, value in zip(s._fields, s)]
    assert w.freeze() == s and type(w.freeze()) is type(s)
    w.wave, w.reason = 3, "why"
    assert w.freeze() == s._replace(wave=3, reason="why")


def at(s, hex_):
    return next((u for u in s.units if u.hex == hex_), None)


def unit(s, kind):
    """The band whose top unit is of that kind (units move on once a turn ends)."""
    return next((u for u in s.units if u.members[0] == kind), None)


def march(rules, s):
    """Play the march when the seat could still do something else first."""
    return rules.apply(s, A("march")) if A("march") in rules.legal_actions(s) else s


def force(rules, s, outcome):
    assert rules.current_player(s) == CHANCE
    assert outcome in rules.legal_actions(s)
    return rules.apply(s, outcome)


def draw_all(rules, s, rng=None):
    rng = rng or random.Random(0)
    while rules.current_player(s) == CHANCE:
        s = rules.apply(s, rules.sample_chance(s, rng))
    return s


# -- set-up, waves and phases ----------------------------------------------------------------------
def test_new_match_starts_in_the_market_of_wave_1_without_an_event():
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    rules = match.rules
    assert rules.phases == ("event", "income", "market", "build", "prep", "onslaught")
    s = rules.initial_state(1)
    assert (s.wave, s.phase, s.event, s.draw) == (1, "market", "", "market")
    assert s.refills == (0, 1, 2, -1)  # players + 1 chips, then the earthscape
    # wave 1 income; RULING (first-player edge): the second seat starts with 1 more
    assert [side.source for side in s.sides] == [5, 6]
    assert [side.command for side in s.sides] == [5, 5]
    start = rules.numbers.gate_health
    assert [side.gate for side in s.sides] == [start, start] == [10, 10]  # the published 10


def test_income_follows_the_wave_adds_advancements_and_stops_at_the_cap():
    rules = rules_for(2, variant="simplified")
    assert [rules.income(w) for w in (1, 2, 3, 4, 5, 6)] == [5, 7, 9, 11, 13, 15]
    s = rules.initial_state(0)
    w = Work(s)
    w.side(0, source=18, advancements=(1, 0, 0))  # Foundry I: +1 income
    w.side(1, source=3)
    w.wave = 2
    FLOW.enter(rules, w, "income")
    assert w.sides[0].source == 20  # 18 + 7 + 1, capped at 20
    assert w.sides[1].source == 10
    w.side(0, source=18, advancements=(1, 1, 0))  # Coffers I raises the cap by 3
    FLOW.enter(rules, w, "income")
    assert w.sides[0].source == 23


def test_an_event_is_drawn_from_wave_2_and_the_simplified_variant_has_none():
    for variant, first in (("standard", "event"), ("simplified", "build")):
        rules = rules_for(2, variant=variant)
        w = Work(rules.initial_state(0))
        w.wave = 2
        FLOW.enter(rules, w, "event")
        assert w.phase == first
        if variant == "standard":
            assert w.actor == CHANCE and w.draw == "event"
            s = rules.apply(w.freeze(), A("draw", card="source_surge"))
            assert s.event == "source_surge" and s.phase == "market"
            assert [side.source for side in s.sides] == [5 + 2 + 7, 6 + 2 + 7]  # event, income


def test_market_turns_buy_or_pass_once_and_each_purchase_is_refilled_by_chance():
    rules = rules_for(2)
    s = rules.initial_state(0)
    for card in ("skyhook_raider", "salvage_spire", "gale_cloak"):
        s = force(rules, s, A("draw", card=card))
    s = force(rules, s, A("draw", card="shard_isle"))
    assert s.market == ("skyhook_raider", "salvage_spire", "gale_cloak")
    assert rules.current_player(s) == 0
    assert A("buy", slot=0) in rules.legal_actions(s)
    s = rules.apply(s, A("buy", slot=0))
    assert s.sides[0].source == 3
    assert s.sides[0].barracks[rules.unit_index["skyhook_raider"]] == 1
    assert s.draw == "market" and s.refills == (0,)  # the slot is refilled by a chance step
    s = force(rules, s, A("draw", card="rivet_hammer"))
    assert s.market[0] == "rivet_hammer" and rules.current_player(s) == 1
    s = rules.apply(s, A("buy_earthscape"))  # 2 Source; the offer refills
    assert s.sides[1].earthscapes == ("shard_isle",) and s.draw == "earthscape"
    s = draw_all(rules, s)
    # RULING (market turns): one turn each, so the market ends after both seats acted
    assert s.phase == "build"


def test_the_market_is_refreshed_from_wave_2():
    rules = rules_for(2)
    w = Work(rules.initial_state(0))
    w.market, w.earthscape_offer, w.wave = ("ward_plate", "gale_cloak", "rivet_hammer"), \
        "shard_isle", 2
    FLOW.enter(rules, w, "market")
    assert w.market == ("", "", "") and w.earthscape_offer == ""
    assert w.refills == (0, 1, 2, -1) and w.actor == CHANCE


def test_only_one_earthscape_a_wave():
    rules = rules_for(2)
    s = draw_all(rules, rules.initial_state(0))
    s = s._replace(sides=(s.sides[0]._replace(earthscape_bought=True), s.sides[1]))
    assert A("buy_earthscape") not in rules.legal_actions(s)


# -- build ----------------------------------------------------------------------------------------
def build_state(rules, source=20):
    s = rules.initial_state(0)
    sides = tuple(side._replace(source=source) for side in s.sides)
    return s._replace(phase="build", order=(0, 1), turn=0, actor=0, draw="", refills=(),
                      sides=sides)


def test_spires_go_on_wells_within_influence_which_spires_extend():
    rules = rules_for(2)
    s = build_state(rules)
    spots = {a.at for a in rules.legal_actions(s) if a.type == "construct"}
    assert spots == {"1,-2", "-2,0"}  # islands next to the gate at 0,-3
    s = rules.apply(s, A("construct", spire="bellows_spire", at="1,-2", order="AR"))
    assert s.sides[0].source == 17
    assert s.spires == (Spire(0, "bellows_spire", "1,-2", "AR"),)  # starting upgrades
    s = rules.apply(s, A("pass"))  # faction 1 passes; faction 0 builds on
    spots = {a.at for a in rules.legal_actions(s) if a.type == "construct"}
    assert {"1,-1", "-1,1"} <= spots  # Heartrock neighbours the island holding the spire


def test_the_builder_chooses_the_order_of_a_spires_starting_upgrades():
    rules = rules_for(2)
    s = build_state(rules)
    orders = {(a.spire, a.order) for a in rules.legal_actions(s)
              if a.type == "construct" and a.at == "1,-2"}
    assert orders == {("bellows_spire", "AR"), ("bellows_spire", "RA"),
                      ("crucible_spire", "AAF"), ("crucible_spire", "AFA"),
                      ("crucible_spire", "FAA")}  # every distinct order, once
    built = rules.apply(s, A("construct", spire="crucible_spire", at="1,-2", order="FAA"))
    assert built.spires == (Spire(0, "crucible_spire", "1,-2", "FAA"),)  # bottom first
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    match.set_state(s)
    with pytest.raises(IllegalAction):
        match.play({"type": "construct", "spire": "bellows_spire", "at": "1,-2", "order": "AA"})
    assert match.state == s


def test_upgrade_costs_and_capacity():
    rules = rules_for(2)
    s = build_state(rules)._replace(spires=(Spire(0, "bellows_spire", "1,-2", "AR"),))
    s = rules.apply(s, A("upgrade", at="1,-2", kind="A"))  # 3 upgrades after: costs 3
    assert s.sides[0].source == 17 and s.spires[0].upgrades == "ARA"
    s = rules.apply(s, A("pass"))
    s = rules.apply(s, A("upgrade", at="1,-2", kind="F"))  # fortification: 2
    assert s.sides[0].source == 15 and s.spires[0].upgrades == "ARAF"
    assert not [a for a in rules.legal_actions(s) if a.type == "upgrade"]  # capacity 4


def test_fortress_advancements_are_bought_in_order():
    rules = rules_for(2)
    s = build_state(rules)
    assert A("advance", structure="foundry") in rules.legal_actions(s)
    s = rules.apply(s, A("advance", structure="bulwark"))
    assert s.sides[0].gate == rules.numbers.gate_health + 2
    assert s.sides[0].advancements == (0, 0, 1)
    s = rules.apply(s, A("pass"))
    s = rules.apply(s, A("advance", structure="bulwark"))
    assert s.sides[0].advancements == (0, 0, 2) and s.sides[0].source == 20 - 3 - 4
    assert A("advance", structure="bulwark") not in rules.legal_actions(rules.apply(
        s, A("pass")))


def test_build_turns_go_round_until_everybody_has_passed():
    rules = rules_for(2)
    s = build_state(rules)
    s = rules.apply(s, A("pass"))
    assert rules.current_player(s) == 1
    s = rules.apply(s, A("advance", structure="wellspring"))
    assert rules.current_player(s) == 1  # faction 0 has passed: faction 1 goes on alone
    s = rules.apply(s, A("pass"))
    assert s.phase == "prep"


def test_earthscapes_are_placed_on_an_empty_slot_and_become_ground():
    rules = rules_for(2)
    s = build_state(rules)
    s = s._replace(sides=(s.sides[0]._replace(earthscapes=("shard_isle",)), s.sides[1]))
    places = [a for a in rules.legal_actions(s) if a.type == "place"]
    assert {a.at for a in places} == set(rules.slots)  # RULING: any empty slot
    s = rules.apply(s, A("place", earthscape="shard_isle", at="-1,-1"))
    assert s.slots[rules.slots.index("-1,-1")] == "shard_isle"
    assert "-1,-1" in rules.land(s.slots) and "-1,-1" in rules.wells(s)
    # Out of faction 0's influence (no spire of its is next to it): the turn passes at once.
    assert rules.current_player(s) == 1 and not s.placed


def test_a_spire_may_go_on_a_new_earthscapes_well_in_the_same_turn_within_influence():
    rules = rules_for(2)
    s = build_state(rules)
    s = s._replace(sides=(s.sides[0]._replace(earthscapes=("shard_isle", "shard_isle")),
                          s.sides[1]), spires=(Spire(0, "bellows_spire", "1,-2", "A"),))
    s = rules.apply(s, A("place", earthscape="shard_isle", at="-1,-1"))
    # Next to Northreach, which holds faction 0's spire: the same turn goes on, and its only
    # choices are a spire on that well (paid for as usual) or none.
    assert rules.current_player(s) == 0 and s.placed == "-1,-1"
    legal = rules.legal_actions(s)
    assert {a.type for a in legal} == {"construct", "decline"}
    assert {a.at for a in legal if a.type == "construct"} == {"-1,-1"}
    cost = rules.catalogue.spires["bellows_spire"].cost
    s2 = rules.apply(s, A("construct", spire="bellows_spire", at="-1,-1", order="AR"))
    assert rules.current_player(s2) == 1 and not s2.placed
    assert s2.sides[0].source == 20 - cost and any(sp.hex == "-1,-1" for sp in s2.spires)
    s3 = rules.apply(s, A("decline"))
    assert rules.current_player(s3) == 1 and not s3.placed and s3.sides[0].source == 20
    assert A("decline") not in rules.legal_actions(s2)  # only right after a placement
    # A later build turn may still put a spire there.
    s3 = rules.apply(s3, A("pass"))
    assert any(a.type == "construct" and a.at == "-1,-1" for a in rules.legal_actions(s3))


# -- prep -----------------------------------------------------------------------------------------
def prep_state(rules, wave=1, command=5):
    s = rules.initial_state(0)
    sides = tuple(side._replace(command=command, mark=1 - f) for f, side in enumerate(s.sides))
    return s._replace(wave=wave, phase="prep", order=(0, 1), turn=0, actor=0, draw="",
                      refills=(), sides=sides)


def test_units_cost_command_points_and_wave_1_allows_one_hero():
    rules = rules_for(2)
    s = prep_state(rules)
    legal = rules.legal_actions(s)
    assert A("deploy", unit="forgemother", group=False) in legal
    assert A("deploy", unit="cinder_warden", group=False) not in legal  # from wave 2
    s = rules.apply(s, A("deploy", unit="forgemother", group=False))
    assert not [a for a in rules.legal_actions(s) if a.type == "deploy"
                and rules.catalogue.units[a.unit].hero]
    s = rules.apply(s, A("deploy", unit="anvil_brute", group=False))
    assert s.sides[0].command == 2
    assert A("deploy", unit="anvil_brute", group=False) not in rules.legal_actions(s)


def test_two_heroes_from_wave_2_and_merc_units_cost_no_command():
    rules = rules_for(2)
    s = prep_state(rules, wave=2, command=2)
    barracks = list(s.sides[0].barracks)
    barracks[rules.unit_index["skyhook_raider"]] = 1
    s = s._replace(sides=(s.sides[0]._replace(barracks=tuple(barracks)), s.sides[1]))
    s = rules.apply(s, A("deploy", unit="forgemother", group=False))
    s = rules.apply(s, A("deploy", unit="cinder_warden", group=False))  # costs 2
    assert s.sides[0].command == 0 and s.sides[0].heroes == 2
    assert A("deploy", unit="skyhook_raider", group=False) in rules.legal_actions(s)


def test_groups_are_ordered_by_movement_and_keep_the_top_minions_health():
    rules = rules_for(2)
    s = prep_state(rules, command=9)
    s = rules.apply(s, A("deploy", unit="anvil_brute", group=False))  # movement 1
    assert A("deploy", unit="slagling", group=True) in rules.legal_actions(s)  # movement 2
    s = rules.apply(s, A("deploy", unit="slagling", group=True))
    assert s.sides[0].stack[0].members == ("anvil_brute", "slagling")
    assert s.sides[0].stack[0].health == 5
    s = rules.apply(s, A("deploy", unit="ember_kite", group=False))  # movement 3
    assert A("deploy", unit="slagling", group=True) not in rules.legal_actions(s)  # 2 < 3


def test_heroes_go_before_or_after_all_minions():
    rules = rules_for(2)
    s = prep_state(rules, command=9)
    s = rules.apply(s, A("deploy", unit="slagling", group=False))
    s = rules.apply(s, A("deploy", unit="forgemother", group=False))  # after the minions
    assert not [a for a in rules.legal_actions(s) if a.type == "deploy"]
    assert rules.legal_actions(s)[-1] == A("ready")


def test_only_the_top_of_a_stack_is_open_and_determinize_keeps_the_view():
    rules = rules_for(2)
    s = prep_state(rules, command=9)
    for unit in ("slagling", "ember_kite", "slagling", "anvil_brute"):
        s = rules.apply(s, A("deploy", unit=unit, group=False))
    s = rules.apply(s, A("ready"))
    seen_by_1 = rules.view(s, 1)["sides"][0]["stack"]
    assert seen_by_1[0]["members"] == ["slagling"] and seen_by_1[1:] == ["hidden"] * 3
    assert len(rules.view(s, 0)["sides"][0]["stack"]) == 4
    orders = set()
    for seed in range(12):
        world = rules.determinize(s, 1, random.Random(seed))
        assert rules.view(world, 1) == rules.view(s, 1)
        orders.add(tuple(b.members for b in world.sides[0].stack))
    assert len(orders) > 1  # the hidden part really is resampled


def test_the_chips_under_the_top_of_a_group_are_hidden_too():
    rules = rules_for(2)
    s = prep_state(rules, command=9)
    s = rules.apply(s, A("deploy", unit="anvil_brute", group=False))
    s = rules.apply(s, A("deploy", unit="slagling", group=True))  # joins the brute's group
    s = rules.apply(s, A("ready"))
    assert s.sides[0].stack[0].members == ("anvil_brute", "slagling")
    assert rules.view(s, 1)["sides"][0]["stack"][0]["members"] == ["anvil_brute", "hidden"]
    assert rules.view(s, 0)["sides"][0]["stack"][0]["members"] == ["anvil_brute", "slagling"]


def test_the_mark_is_declared_only_when_there_is_a_choice():
    rules = rules_for(3)
    s = rules.initial_state(0)
    s = s._replace(phase="prep", order=(0, 1, 2), turn=0, actor=0, draw="", refills=())
    assert rules.legal_actions(s) == [A("mark", gate=1), A("mark", gate=2)]
    rules2 = rules_for(2)
    w = Work(rules2.initial_state(0))
    w.order = (0, 1)
    FLOW.enter(rules2, w, "prep")
    assert w.sides[0].mark == 1  # one opponent: declared for the seat


def test_every_mark_is_declared_in_turn_order_before_any_stack_is_built():
    rules = rules_for(3)
    s = rules.initial_state(0)
    sides = tuple(side._replace(command=5) for side in s.sides)
    s = s._replace(phase="prep", order=(2, 0, 1), turn=0, actor=2, draw="", refills=(),
                   sides=sides)
    s = rules.apply(s, A("mark", gate=0))
    assert rules.current_player(s) == 0  # the next faction in turn order declares next...
    assert {a.type for a in rules.legal_actions(s)} == {"mark"}
    s = rules.apply(rules.apply(s, A("mark", gate=2)), A("mark", gate=2))
    assert [side.mark for side in s.sides] == [2, 2, 0]
    # ...and only then does the first faction build its stack, knowing every mark.
    assert rules.current_player(s) == 2
    assert "deploy" in {a.type for a in rules.legal_actions(s)}
    assert all(m >= 0 for m in (side["mark"] for side in rules.view(s, 2)["sides"]))


# -- onslaught: movement --------------------------------------------------------------------------
def test_minions_march_their_full_movement_toward_the_mark():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1"),
                                band(rules, 1, "murk_golem", at="1,2")])
    assert at(s, "0,1").members == ("slagling",)  # two steps: 0,0 then 0,1


def test_the_leading_minion_moves_first():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1"),
                                band(rules, 0, "slagling", at="0,0"),
                                band(rules, 1, "murk_golem", at="2,1")])
    assert at(s, "0,2") and at(s, "0,1")  # the leader went first, so the other could follow


def test_a_blocked_minion_steps_sideways_then_on():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1"),
                                band(rules, 1, "murk_golem", at="0,0")])
    # RULING (minion steps): 0,0 is taken, so sideways to the lower-numbered of 1,-1 and -1,0,
    # then on to -1,1
    assert at(s, "-1,1").owner == 0 and at(s, "0,-1") is None


def test_a_minion_next_to_its_mark_stays_and_minions_leave_the_stack_top_first():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,2"),
                                band(rules, 1, "murk_golem", at="2,1")],
                  stacks={0: [band(rules, 0, "slagling"), band(rules, 0, "anvil_brute")]})
    assert at(s, "0,2").owner == 0  # next to the gate at 0,3: it stays
    assert at(s, "0,-1").members == ("slagling",)  # from the gate: 0,-2 then 0,-1
    assert at(s, "0,-2").members == ("anvil_brute",)
    assert s.sides[0].stack == ()


def test_a_hero_on_top_of_minions_must_move_first():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 1, "murk_golem", at="2,1")],
                  stacks={0: [band(rules, 0, "forgemother"), band(rules, 0, "slagling")]})
    legal = rules.legal_actions(s)
    assert A("march") not in legal
    moves = [a for a in legal if a.type == "move"]
    assert moves and all(a.at == "0,-3" for a in moves)
    assert all(a.type in ("move", "construct", "upgrade") for a in legal)
    s = rules.apply(s, A("move", at="0,-3", to="1,-3"))
    assert at(s, "1,-3").members == ("forgemother",)


def test_minions_displace_friendly_heroes():
    rules = rules_for(2)
    hero = band(rules, 0, "forgemother", at="0,0")._replace(moved=True)
    s = march(rules, onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1"), hero,
                                             band(rules, 1, "murk_golem", at="2,1")]))
    assert at(s, "0,1").members == ("slagling",)
    assert at(s, "0,-1").members == ("forgemother",)  # swapped into the minion's hex


def test_heroes_move_up_to_their_movement_within_their_terrain():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"),
                                band(rules, 1, "murk_golem", at="2,1")])
    targets = {a.to for a in rules.legal_actions(s) if a.type == "move"}
    assert "0,2" in targets and "0,-2" in targets and "1,1" not in targets  # 1,1 is sky
    assert all(rules.neighbours for _ in targets)
    assert "0,3" not in targets  # a gate hex


def test_limited_builds_two_per_onslaught_before_anything_moves():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"),
                                band(rules, 1, "murk_golem", at="2,1")], source=20)
    s = rules.apply(s, A("construct", spire="bellows_spire", at="1,-2", order="AR"))
    s = rules.apply(s, A("upgrade", at="1,-2", kind="A"))
    assert s.sides[0].limited_builds == 2 and s.sides[0].spent == (0, 0, 6)
    assert not [a for a in rules.legal_actions(s) if a.type in ("construct", "upgrade")]


# -- onslaught: spires, exploration, attacks ------------------------------------------------------
def test_spires_fire_with_one_die_per_attack_upgrade_and_rewards_go_to_their_owner():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1")],
                  spires=[Spire(1, "haze_spire", "-1,1", "RA")])
    assert at(s, "0,1") is not None and s.stage == "fire"
    assert rules.chance_outcomes(s) == [(A("roll", pips=0), 1 / 6), (A("roll", pips=1), 2 / 6),
                                        (A("roll", pips=2), 2 / 6), (A("roll", pips=3), 1 / 6)]
    s = force(rules, s, A("roll", pips=2))
    assert at(s, "0,1") is None  # 2 damage defeats the slagling
    assert s.sides[1].source == 1 and s.sides[1].spire_kills == 1
    assert s.sides[0].units_lost == 1


def test_several_dice_are_several_chance_steps_and_their_damage_adds_up():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "anvil_brute", at="0,0"),
                                band(rules, 1, "murk_golem", at="2,1")],
                  spires=[Spire(1, "tidecaller_spire", "-1,1", "ARFAA")])
    for pips in (2, 2):
        s = force(rules, s, A("roll", pips=pips))
    assert at(s, "0,1").health == 5  # not yet: three dice
    s = force(rules, s, A("roll", pips=1))
    assert at(s, "0,1") is None


def test_the_spires_owner_chooses_among_several_targets():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,1"),
                                band(rules, 0, "cinder_warden", at="-1,2"),
                                band(rules, 1, "murk_golem", at="2,1")],
                  spires=[Spire(1, "haze_spire", "-1,1", "RA")])
    s = rules.apply(s, A("end_move"))
    assert rules.current_player(s) == 1 and s.stage == "fire"
    assert rules.legal_actions(s) == [A("target", at="0,1"), A("target", at="-1,2")]


def test_spire_range_never_crosses_sky():
    rules = rules_for(2)
    slots = ("",) * len(rules.slots)
    pairs = [(a, b) for a in rules.hexes for b in rules.hexes
             if a in rules.land(slots) and b in rules.land(slots)
             and _hex_distance(a, b) <= 2 < rules.range_distance(slots, a).get(b, 99)]
    assert pairs  # the map has hexes near in the sky but far over ground
    spire_hex, unit_hex = pairs[0]
    assert unit_hex not in rules.walls and spire_hex not in rules.walls
    s = rules.initial_state(0)._replace(
        phase="onslaught", stage="move", round=1, order=(0, 1), turn=0, actor=0, draw="",
        refills=(), units=(band(rules, 0, "forgemother", at=unit_hex),),
        spires=(Spire(1, "haze_spire", spire_hex, "RA"),))
    assert rules.fire_targets(s, spire_hex) == []  # range 2 counts ground steps only


def _hex_distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = (tuple(map(int, h.split(","))) for h in (a, b))
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 - q2 + r1 - r2))


def test_exploring_draws_a_hidden_face_the_explorer_may_reveal():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="1,-2"),
                                band(rules, 1, "murk_golem", at="2,1")])
    s = rules.apply(s, A("end_move"))
    assert A("explore", at="2,-2") in rules.legal_actions(s)
    s = rules.apply(s, A("explore", at="2,-2"))
    s = force(rules, s, A("draw", card="abandoned_cache"))
    assert rules.view(s, 0)["landmarks"][0]["face"] == "abandoned_cache"
    assert rules.view(s, 1)["landmarks"][0]["face"] == "hidden"
    assert rules.legal_actions(s) == [A("reveal"), A("leave")]
    revealed = rules.apply(s, A("reveal"))
    assert revealed.sides[0].source == 3 and revealed.landmarks[0].revealed
    left = rules.apply(s, A("leave"))
    assert rules.view(left, 1)["landmarks"][0]["face"] == "hidden"
    assert not left.landmarks[0].revealed
    assert A("explore", at="2,-2") not in rules.legal_actions(left)  # once per turn


def test_a_revealed_landmark_with_health_can_be_attacked_for_its_reward():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="1,-2"),
                                band(rules, 1, "murk_golem", at="2,1")])
    s = rules.apply(s, A("end_move"))
    s = rules.apply(s, A("explore", at="2,-2"))
    s = force(rules, s, A("draw", card="stone_sentinel"))
    s = rules.apply(s, A("reveal"))
    assert s.landmarks[0].health == 3 and s.stage == "attack"
    s = rules.apply(s, A("attack", at="1,-2", target="2,-2"))
    assert s.landmarks[0].health == 2  # the hero's attack is 1
    assert at(s, "1,-2").health == 4  # the sentinel strikes back for 1


def test_minions_must_attack_heroes_may():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "slagling", at="0,2"),
                                band(rules, 1, "fogling", at="1,2"),
                                band(rules, 0, "forgemother", at="0,0")])
    s = rules.apply(s, A("end_move"))
    legal = rules.legal_actions(s)
    assert A("end_turn") not in legal and A("attack", at="0,2", target="1,2") in legal


def test_retaliation_comes_only_the_first_time_a_unit_is_attacked_each_turn():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"),
                                band(rules, 0, "cinder_warden", at="1,0"),
                                band(rules, 1, "murk_golem", at="0,1")])
    s = rules.apply(s, A("end_move"))
    s = rules.apply(s, A("attack", at="0,0", target="0,1"))
    assert at(s, "0,1").health == 5 and at(s, "0,0").health == 3  # the golem hits back 2
    s = rules.apply(s, A("attack", at="1,0", target="0,1"))
    assert unit(s, "murk_golem").health == 4  # the turn is over and the golem marched on
    assert unit(s, "cinder_warden").health == 4  # no second retaliation


def test_a_defeated_group_minion_reveals_the_next_at_full_health_and_heroes_level_up():
    rules = rules_for(2)
    group = band(rules, 1, "murk_golem", "fogling", at="0,1", health=1)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"), group])
    s = rules.apply(s, A("end_move"))
    s = rules.apply(s, A("attack", at="0,0", target="0,1"))
    assert unit(s, "fogling").members == ("fogling",) and unit(s, "fogling").health == 2
    assert s.sides[0].source == 2  # the golem's reward
    hero = unit(s, "forgemother")
    assert hero.level == 1 and hero.health == 6  # RULING: levels up, gains the health added
    assert s.sides[1].barracks[rules.unit_index["murk_golem"]] == 3  # back to the barracks


def test_spire_damage_removes_one_upgrade_from_the_bottom_fortification_only_to_two():
    rules = rules_for(2)
    s = rules.initial_state(0)._replace(spires=(Spire(1, "haze_spire", "-1,1", "FA"),))
    w = Work(s)
    fights.damage_spire(rules, w, 0, 1, 0, None)
    assert w.spires[0].upgrades == "FA"  # 1 damage does not remove a fortification
    fights.damage_spire(rules, w, 0, 5, 0, None)
    assert w.spires[0].upgrades == "A"  # never more than one upgrade
    fights.damage_spire(rules, w, 0, 1, 0, None)
    assert w.spires == [] and w.sides[0].source == 5 + 2  # defeated: its reward
    assert w.sides[1].spire_stock[rules.spire_index["haze_spire"]] == 3  # back to barracks


def test_gates_retaliate_for_one_every_time_and_a_fallen_gate_ends_a_two_player_game():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,2"),
                                band(rules, 0, "cinder_warden", at="1,2"),
                                band(rules, 1, "murk_golem", at="3,-1")],
                  gates={1: 5})
    s = rules.apply(s, A("end_move"))
    s = rules.apply(s, A("attack", at="0,2", target="0,3"))
    assert s.sides[1].gate == 4 and at(s, "0,2").health == 4
    s2 = rules.apply(s, A("attack", at="1,2", target="0,3"))  # RULING: again retaliates
    assert s2.sides[1].gate == 3 and unit(s2, "cinder_warden").health == 3
    s3 = rules.apply(s._replace(sides=(s.sides[0], s.sides[1]._replace(gate=1))),
                     A("attack", at="1,2", target="0,3"))
    assert s3.phase == OVER and s3.actor == NOBODY and s3.winners == (0,) and rules.is_over(s3)
    assert rules.phase(s3) == "onslaught" and s3.stage == ""  # the phase it ended in
    assert rules.outcome(s3).reason == "faction 0's gate is the last standing"


def test_a_finished_game_records_over_in_its_phase_and_nobody_as_its_actor():
    """core.flow.OVER is every game's game-over marker; the flow reports the phase it ended in."""
    rules = rules_for(2, waves=1)
    s, rng = rules.initial_state(4), random.Random(4)
    middle = None
    while not rules.is_over(s):
        middle = middle or (s if s.phase == "build" else None)
        s = rules.apply(s, rng.choice(rules.legal_actions(s)) if s.actor >= 0
                        else rules.sample_chance(s, rng))
    assert (s.phase, s.actor, s.stage) == (OVER, NOBODY, "") and FLOW.ended == OVER
    assert rules.phase(s) == "onslaught" and rules.current_player(s) is None
    assert repr(s) == "<CloudspireState wave 1, over>"
    assert s.to_dict() == rules.state_to_dict(s) and s.to_dict()["phase"] == "over"
    rules.check_state(s)
    for wrong in (s._replace(actor=0), s._replace(phase="onslaught"),
                  middle._replace(actor=NOBODY, winners=(0,), reason="made up")):
        with pytest.raises(InvalidState, match="actor is -2 .nobody. exactly when the phase"):
            rules.check_state(wrong)


def test_ties_on_gate_health_go_to_damage_dealt_then_source():
    rules = rules_for(2)
    w = Work(rules.initial_state(0))
    w.side(0, gate=6, gate_damage=3, source=1)
    w.side(1, gate=6, gate_damage=4, source=0)
    fights.finish(rules, w)
    assert w.winners == (1,) and "tie broken" in w.reason
    w.side(1, gate_damage=3, source=1)
    fights.finish(rules, w)
    assert w.winners == (0, 1)  # still equal: a shared win
    w.side(0, gate=7)
    fights.finish(rules, w)
    assert w.winners == (0,) and "tie" not in w.reason


def test_the_onslaught_ends_when_all_minions_are_defeated_and_units_go_home():
    rules = rules_for(2)
    hero = band(rules, 0, "forgemother", at="0,0", level=1)
    s = onslaught(rules, units=[hero, band(rules, 1, "fogling", at="0,1", health=1)])
    s = rules.apply(s, A("end_move"))
    s = rules.apply(s, A("attack", at="0,0", target="0,1"))
    assert s.wave == 2 and s.units == ()  # no minion left: the wave ended
    assert s.sides[0].barracks[rules.unit_index["forgemother"]] == 2  # home (and was there)
    assert s.sides[0].hero_levels[rules.unit_index["forgemother"]] == 2  # levelled up twice
    assert s.sides[0].gate_history == (rules.numbers.gate_health,)


def test_the_onslaught_round_limit_ends_a_wave():
    rules = rules_for(2, onslaught_rounds=1)
    s = onslaught(rules, units=[band(rules, 0, "anvil_brute", at="1,-3"),
                                band(rules, 1, "murk_golem", at="2,1")])
    s = draw_all(rules, rules.apply(s, A("end_move")) if s.wave == 1 and s.actor == 0 else s)
    while s.wave == 1 and not rules.is_over(s):
        s = draw_all(rules, rules.apply(s, rules.legal_actions(s)[-1]))
    assert s.wave == 2 and s.round == 0


def test_campfire_rests_the_heroes_of_the_only_faction_left_in_play():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="1,2"),
                                band(rules, 0, "slagling", at="1,-3")])
    assert rules.campfire(s, 0)  # RULING: faction 1 has no units in play
    assert s.stage == "attack"  # the hero could not move, so the rules marched and went on
    assert [a for a in rules.legal_actions(s) if a.type == "attack"] == [
        A("attack", at="0,2", target="0,3")]  # the minion, never the hero next to the gate


def test_campfire_is_checked_at_the_start_of_a_turn_and_lasts_to_the_end_of_the_wave():
    rules = rules_for(2)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"),
                                band(rules, 0, "cinder_warden", at="1,2"),
                                band(rules, 0, "slagling", at="1,-3"),
                                band(rules, 1, "fogling", at="0,1", health=1)])
    assert not rules.campfire(s, 0)  # both factions have units in play
    s = rules.apply(march(rules, s), A("end_move"))
    while s.stage == "explore":
        s = rules.apply(s, A("end_explore"))
    s = rules.apply(s, A("attack", at="0,0", target="0,1"))  # the last Mistveil unit falls
    assert not any(u.owner == 1 for u in s.units)
    # RULING (campfire): the check is at the start of a turn, so the turn goes on as it began:
    # the other hero may still attack the gate.
    assert not rules.campfire(s, 0)
    assert A("attack", at="1,2", target="0,3") in rules.legal_actions(s)
    s = draw_all(rules, rules.apply(s, A("end_turn")))
    # Mistveil's turns are empty; from Emberwrights' next turn the heroes rest (the rules play
    # the lone minion's marches by themselves).
    assert s.phase == "onslaught" and s.round >= 2 and s.actor == 0
    assert rules.campfire(s, 0)
    heroes = {u.hex for u in s.units if rules.is_hero(u)}
    while s.wave == 1 and not rules.is_over(s):
        assert rules.campfire(s, 0)
        assert not any(a.type == "move" or (a.type == "attack" and a.at in heroes)
                       for a in rules.legal_actions(s))  # the heroes neither move nor attack
        s = draw_all(rules, rules.apply(s, rules.legal_actions(s)[-1]))
    assert s.wave == 2 and not s.sides[0].campfire  # a new wave wakes them


# -- modes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, mode", [(1, "solo"), (2, "cooperative"), (3, "cooperative")])
def test_bot_factions_never_wait_for_a_seat(players, mode):
    rules = rules_for(players, mode=mode)
    assert rules.factions == players + 1
    rng = random.Random(2)
    s = rules.initial_state(2)
    bot_moved = False
    while not rules.is_over(s):
        actor = rules.current_player(s)
        assert actor == CHANCE or 0 <= actor < players
        if actor == CHANCE:
            s = rules.apply(s, rules.sample_chance(s, rng))
        else:
            s = rules.apply(s, rng.choice(rules.legal_actions(s)))
        bot_moved = bot_moved or any(u.owner == players for u in s.units)
    assert bot_moved  # the bot faction really played


def test_cooperative_seats_share_the_outcome_against_the_bot_faction():
    rules = rules_for(2, mode="cooperative")
    assert rules.traits.cooperative and not rules.opposed(0, 1) and rules.opposed(0, 2)
    w = Work(rules.initial_state(0))
    w.side(0, gate=6)
    w.side(1, gate=7)
    w.side(2, gate=5)
    fights.finish(rules, w)
    assert w.winners == (0, 1)
    w.side(2, gate=6)
    fights.finish(rules, w)
    assert w.winners == ()  # RULING: every seat's gate must stand higher than the bot's
    w.side(2, gate=0)
    fights.finish(rules, w)
    assert w.winners == (0, 1)


def test_allies_never_attack_each_other():
    rules = rules_for(2, mode="cooperative")
    s = rules.initial_state(0)._replace(
        phase="onslaught", stage="attack", round=1, order=(0, 1, 2), turn=0, actor=0,
        draw="", refills=(), units=(band(rules, 0, "forgemother", at="0,0"),
                                    band(rules, 1, "veil_seer", at="0,1")))
    assert rules.targets_of(s, 0, "0,0") == []


def test_modes_check_the_seat_count():
    with pytest.raises(InvalidOptions, match="solo is for 1"):
        rules_for(2, mode="solo")
    with pytest.raises(InvalidOptions, match="competitive is for 2-4"):
        rules_for(1)
    with pytest.raises(InvalidOptions, match="cooperative is for 2-3"):
        rules_for(4, mode="cooperative")


def test_turn_order_rotates_each_wave():
    rules = rules_for(3, variant="simplified")
    w = Work(rules.initial_state(0))
    assert w.order == (0, 1, 2)
    w.wave = 2
    FLOW.enter(rules, w, "event")
    assert w.order == (1, 2, 0)  # RULING: the first player moves one seat each wave


def test_actions_read_and_refuse_cleanly():
    match = aloftnb.new_match("cloudspire", players=2, seed=0)
    while match.is_chance:
        match.resolve_chance()
    with pytest.raises(IllegalAction, match="takes slot: int"):
        match.play({"type": "buy", "slot": "0"})
    with pytest.raises(IllegalAction, match="build phase"):
        match.play({"type": "advance", "structure": "foundry"})
    action = match.legal_actions()[0]
    assert str(action) and A(**{"type": action.type, **action.params}) == action


def test_a_minion_that_cannot_leave_its_gate_stays_on_the_stack():
    rules = rules_for(2)
    blockers = [band(rules, 1, "murk_golem", at=h) for h in ("1,-3", "0,-2", "-1,-2")]
    s = onslaught(rules, units=blockers, stacks={0: [band(rules, 0, "slagling")]})
    # RULING (blocked gate): every step off the gate is taken, so the slagling waits
    assert [b.members for b in s.sides[0].stack] == [("slagling",)]
    assert not [u for u in s.units if u.owner == 0]
    assert rules.current_player(s) == 1  # faction 0's turn ended; the golems must attack


def test_factions_marking_a_fallen_gate_turn_to_the_next_standing_one():
    rules = rules_for(3)
    w = Work(rules.initial_state(0))
    w.side(0, mark=1)
    w.side(2, mark=1)
    w.side(1, gate=0)
    fights.eliminate(rules, w, 1)
    assert w.sides[0].mark == 2 and w.sides[2].mark == 0  # RULING (fallen mark)
    assert w.phase != OVER  # two gates still stand


def test_event_repairs_never_raise_a_gate_above_its_start():
    rules = rules_for(2)
    w = Work(rules.initial_state(0))
    w.wave, w.order = 2, (0, 1)
    start = rules.numbers.gate_health
    w.side(0, gate=start)
    w.side(1, gate=7)
    w.phase, w.draw, w.actor = "event", "event", CHANCE
    market.on_event(rules, w, A("draw", card="mending_winds"))
    assert [side.gate for side in w.sides] == [start, 8]  # RULING (events)


# -- playtest hooks -------------------------------------------------------------------------------
def test_hooks_measure_gates_by_wave_spending_losses_and_spire_kills():
    results = aloftnb.simulate("cloudspire", players=2, bots="greedy", games=4, seed=1,
                               workers=1, progress=False)
    assert (results["error"] == "").all()
    for column in ("gate_0_wave_1", "gate_1_wave_1", "spent_market", "spent_build",
                   "spent_onslaught", "units_lost", "spire_kills"):
        assert column in results.columns
    assert (results["spent_build"] > 0).all()
    assert results["spent_market"].sum() > 0  # the greedy bot buys at the market
    assert (results["gate_0_wave_1"] <= rules_for(2).numbers.gate_health + 4).all()  # +bulwark


def test_greedy_values_source_spent_well_over_source_held():
    from aloftnb.games.cloudspire.metrics import HOOKS

    rules = rules_for(2)
    s = build_state(rules, source=3)
    built = rules.apply(s, A("construct", spire="bellows_spire", at="1,-2", order="AR"))
    assert HOOKS.evaluate(rules, built, 0) > HOOKS.evaluate(rules, s, 0)
    est = HOOKS.estimate(rules, s)
    assert set(est) == {0, 1} and all(0 < v < 1 for v in est.values())


@pytest.mark.parametrize("players,mode", [(2, "competitive"), (3, "competitive"),
                                          (4, "competitive"), (2, "cooperative")])
def test_the_playout_estimate_is_each_seats_evaluation_squashed(players, mode):
    """estimate finds every faction's strength once for all the seats: it must still give each
    seat the logistic of its greedy evaluation over 15, at every step of random games."""
    import math

    from aloftnb.games.cloudspire import worth

    rules = rules_for(players, mode=mode)
    rng = random.Random(players)
    for seed in range(2):
        s = rules.initial_state(seed)
        for _ in range(150):
            want = {seat: 1 / (1 + math.exp(-worth.evaluate(rules, s, seat) / 15.0))
                    for seat in range(rules.players)}
            assert worth.estimate(rules, s) == want
            seat = rules.current_player(s)
            if seat is None:
                break
            s = rules.apply(s, rules.sample_chance(s, rng) if seat == CHANCE
                            else rng.choice(rules.legal_actions(s)))


def test_measures_in_simulate_results_are_present_and_consistent():
    from aloftnb.games.cloudspire.metrics import HOOKS

    results = aloftnb.simulate("cloudspire", players=2, bots="greedy", games=6, seed=5,
                               workers=1, progress=False)
    assert (results["error"] == "").all()
    assert set(HOOKS.MEASURES) <= set(results.columns)
    assert results["waves_played"].between(1, 4).all()
    # a game stops before the last wave only when a gate fell
    assert ((results["waves_played"] == 4) | (results["gate_fell"] == 1)).all()
    assert (results["spire_kills"] <= results["units_lost"]).all()
    by_phase = results[["spent_market", "spent_build", "spent_onslaught"]].sum(axis=1)
    assert (by_phase == results["spent_0"] + results["spent_1"]).all()
    decided = results["winners"].str.len() > 0
    assert (results.loc[decided, "winner_gate"] > 0).all()
    for seat in (0, 1):
        wave_1 = results[f"gate_{seat}_wave_1"].dropna()
        assert wave_1.between(0, 18).all()  # 14 at the start, 4 more from advancements at most


def test_greedy_plays_every_phase_and_buys_at_the_market():
    kinds: dict[str, set[str]] = {}
    for seed in range(3):
        match = aloftnb.new_match("cloudspire", players=2, seed=seed)
        bots = [aloftnb.make_bot("greedy") for _ in range(2)]
        rng = random.Random(seed)
        while not match.is_over:
            seat = match.current_player
            action = bots[seat].choose(match.rules, match.state, seat, rng)
            kinds.setdefault(match.phase, set()).add(action.type)
            match.play(action)
    assert "buy" in kinds["market"]
    assert {"construct", "upgrade", "advance"} <= kinds["build"]
    assert "deploy" in kinds["prep"]
    assert {"march", "attack", "target"} <= kinds["onslaught"]


def test_greedy_values_an_earthscape_placed_within_its_influence():
    from aloftnb.games.cloudspire.metrics import HOOKS

    rules = rules_for(2)
    s = build_state(rules)._replace(spires=(Spire(0, "bellows_spire", "1,-2", "AR"),))
    s = s._replace(sides=(s.sides[0]._replace(earthscapes=("shard_isle",)), s.sides[1]))
    before = HOOKS.evaluate(rules, s, 0)
    values = {}
    for action in rules.legal_actions(s):
        if action.type == "place":
            after = rules.apply(s, action)
            group_of, _ = rules.groups(after.slots)
            values[group_of[action.at] in rules.influence(after, 0)] = (
                HOOKS.evaluate(rules, after, 0))
    assert values[True] > before  # within reach of its spires: worth placing
    assert values[False] < before  # out of reach: kept for later


def test_the_bot_faction_moves_its_heroes_toward_its_mark_and_never_shops():
    rules = rules_for(1, mode="solo")
    s = rules.initial_state(0)
    s = s._replace(sides=(s.sides[0], s.sides[1]._replace(mark=0)))
    nearer = [A("move", at="0,1", to="0,2"), A("move", at="0,1", to="0,0"), A("end_move")]
    assert rules.bot_choice(s, nearer) == A("move", at="0,1", to="0,0")
    farther = [A("move", at="0,1", to="0,2"), A("end_move")]
    assert rules.bot_choice(s, farther) == A("end_move")
    assert rules.bot_choice(s, [A("buy", slot=0), A("pass")]) == A("pass")


# -- rulings option (issue 19): 1 keeps the older rulings, so saves made before it replay ----------
def test_the_rulings_option_defaults_to_the_current_rulings_and_old_saves_load_with_1():
    from pathlib import Path

    assert rules_for(2).options["rulings"] == 2 and rules_for(2).new_rulings
    assert not rules_for(2, rulings=1).new_rulings
    with pytest.raises(InvalidOptions, match="rulings"):
        rules_for(2, rulings=3)
    saves = sorted((Path(__file__).parent / "saves" / "v2").glob("cloudspire-*.json"))
    assert saves
    for path in saves:  # written before the option: they load, and replay, under rulings 1
        match = aloftnb.Match.from_json(path.read_text("utf-8"))
        assert match.rules.options["rulings"] == 1


def _issue_19_displacement(rulings: int) -> aloftnb.Match:
    """Issue 19's recipe: an Ember Kite on the sky hex -1,-1 marches south with a Cinder Warden
    (a land hero) on -1,0, the nearer hex in its way."""
    m = aloftnb.new_match("cloudspire", players=2, seed=1, rulings=rulings)
    for _ in range(4):
        m.play({"type": "pass"})
    for u in ("slagling", "fogling"):
        m.play({"type": "deploy", "unit": u, "group": False})
        m.play({"type": "ready"})

    def b(o, u, h, hp):
        return dict(owner=o, members=[u], health=hp, hex=h, level=0, equipment="",
                    moved=False, attacked=False, struck=False)

    d = m.state.to_dict()
    d["sides"][0]["stack"] = d["sides"][1]["stack"] = []
    d["units"] = [b(0, "ember_kite", "-1,-1", 2), b(0, "cinder_warden", "-1,0", 4),
                  b(1, "murk_golem", "0,-1", 6), b(0, "forgemother", "-3,0", 5)]
    m.set_state(d)
    m.play({"type": "march"})
    return m


def test_a_hero_that_cannot_stand_on_the_minions_hex_blocks_instead_of_being_displaced():
    m = _issue_19_displacement(2)
    rules = m.rules
    land = rules.land(m.state.slots)
    for u in m.state.units:  # RULING (displacement): no land unit ends on sky
        assert rules.stats(u)[3] == "sky" or u.hex in land, u
    warden = unit(m.state, "cinder_warden")
    assert warden.hex != "-1,-1"
    # the kite went round it (sideways to -2,0, then on), displacing it onto ground there
    assert (unit(m.state, "ember_kite").hex, warden.hex) == ("0,0", "-2,0")
    # rulings 1, as saves written before the option were played: pushed onto the sky hex
    old = _issue_19_displacement(1)
    assert unit(old.state, "cinder_warden").hex == "-1,-1" and "-1,-1" not in land


def test_a_hero_on_ground_still_swaps_with_a_minion_under_the_current_rulings():
    rules = rules_for(2)
    assert rules.new_rulings
    hero = band(rules, 0, "forgemother", at="0,0")._replace(moved=True)
    s = march(rules, onslaught(rules, units=[band(rules, 0, "slagling", at="0,-1"), hero,
                                             band(rules, 1, "murk_golem", at="2,1")]))
    assert at(s, "0,-1").members == ("forgemother",) and at(s, "0,1").members == ("slagling",)


def _group_on_sky(rulings: int):
    """A Gale Wisp (flies) on top of a Fogling (does not) on the sky hex 1,1, its top at 1
    health; the Forgemother next to it on 1,0 attacks it."""
    rules = rules_for(2, rulings=rulings)
    group = band(rules, 1, "gale_wisp", "fogling", at="1,1", health=1)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="1,0"), group,
                                band(rules, 1, "murk_golem", at="-2,3")])
    s = rules.apply(s, A("end_move"))
    return rules, s, rules.apply(s, A("attack", at="1,0", target="1,1"))


def test_a_minion_revealed_on_sky_that_cannot_fly_falls():
    rules, before, s = _group_on_sky(2)
    assert "1,1" not in rules.land(s.slots)
    assert at(s, "1,1") is None  # RULING (revealed on sky): the Fogling falls
    fogling = rules.unit_index["fogling"]
    assert s.sides[1].barracks[fogling] == before.sides[1].barracks[fogling] + 1
    assert s.sides[1].units_lost == before.sides[1].units_lost + 2
    assert s.sides[0].source == before.sides[0].source + 1  # the wisp's reward only
    assert unit(s, "forgemother").level == 1  # it levelled up for the wisp, not for the fall
    text = rules.describe_action(before, A("attack", at="1,0", target="1,1"))
    assert "attacks 1,1; then Mistveil's Fogling, revealed on the sky at 1,1, falls" in text
    # rulings 1 (saves written before the option): the Fogling was revealed on the sky and
    # marched on from there
    rules, _, s = _group_on_sky(1)
    assert unit(s, "fogling") is not None and s.sides[1].units_lost == 1


def test_a_flying_minion_revealed_on_sky_stays():
    rules = rules_for(2)
    group = band(rules, 1, "gale_wisp", "cloud_lancer", at="1,1", health=1)
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="1,0"), group,
                                band(rules, 1, "murk_golem", at="-2,3")])
    s = rules.apply(rules.apply(s, A("end_move")), A("attack", at="1,0", target="1,1"))
    lancer = unit(s, "cloud_lancer")  # revealed at full health; it marched on in its turn
    assert lancer.members == ("cloud_lancer",) and lancer.health == 3


def test_one_earthscape_may_be_bought_per_wave_by_the_whole_table():
    for rulings, seat_1_may_buy in ((2, False), (1, True)):
        rules = rules_for(2, rulings=rulings)
        s = draw_all(rules, rules.initial_state(0))
        assert rules.current_player(s) == 0
        s = draw_all(rules, rules.apply(s, A("buy_earthscape")))  # the offer is refilled
        assert s.earthscape_offer and rules.current_player(s) == 1
        assert s.sides[1].source >= rules.numbers.earthscape_cost
        # RULING (one earthscape a wave): with rulings 2 nobody else buys one this wave
        assert (A("buy_earthscape") in rules.legal_actions(s)) is seat_1_may_buy
        sold = "one is bought)" in rules.render_svg(rules.view(s, 1))
        assert sold is not seat_1_may_buy  # the board says so
        if not seat_1_may_buy:
            assert rules.why_illegal(s, A("buy_earthscape")) == (
                "only one earthscape may be bought per wave, and Emberwrights bought this "
                "wave's")
        w = Work(s)
        w.wave = 2
        FLOW.enter(rules, w, "event")  # a new wave, a new purchase
        assert not any(rules.earthscape_bought(w, f) for f in range(2))


def _stalker_on_sky_beside_a_spire(rulings: int):
    """The Mistveil's flying Drift Stalker on the sky hex 2,-1, beside an Emberwright Bellows
    Spire (range 2) on the well 1,-1; the Mistveil's turn, movement stage."""
    rules = rules_for(2, rulings=rulings)
    s = rules.initial_state(0)._replace(
        phase="onslaught", stage="move", round=1, order=(0, 1), turn=1, actor=1, draw="",
        refills=(), marched=True, units=(band(rules, 1, "drift_stalker", at="2,-1"),),
        spires=(Spire(0, "bellows_spire", "1,-1", "AR"),))
    rules.check_state(s)
    return rules, s


def test_a_unit_on_a_sky_hex_beside_a_spire_is_in_its_range():
    rules, s = _stalker_on_sky_beside_a_spire(2)
    assert "2,-1" not in rules.land(s.slots)
    # RULING (range): the target's own hex is not counted through
    assert rules.range_distance(s.slots, "1,-1")["2,-1"] == 1
    assert rules.fire_targets(s, "1,-1") == ["2,-1"]
    s = rules.apply(s, A("end_move"))
    assert (s.stage, s.draw, s.target) == ("fire", "die", "2,-1")
    # a sky hex one ground step and its own step away is at 2
    assert rules.range_distance(s.slots, "1,-1")["1,1"] == 2  # via 1,0
    # rulings 1 (saves written before the option): sky hexes were out of every spire's range
    rules, s = _stalker_on_sky_beside_a_spire(1)
    assert rules.fire_targets(s, "1,-1") == [] and "2,-1" not in rules.range_distance(
        s.slots, "1,-1")
    assert rules.apply(s, A("end_move")).stage != "fire"


def test_every_shipped_hero_level_is_at_least_as_strong_as_the_one_before():
    """Why ruling 14 levels heroes up without asking: in the shipped data a level never makes a
    hero weaker (and rewards do not depend on levels), so declining never helps."""
    rules = rules_for(2)
    heroes = [u for u in rules.catalogue.units.values() if u.hero]
    assert heroes and any(len(u.levels) > 1 for u in heroes)
    for hero in heroes:
        for lower, higher in zip(hero.levels, hero.levels[1:]):
            assert (higher.attack >= lower.attack and higher.health >= lower.health
                    and higher.movement >= lower.movement), hero.id


# -- determinize (issue 19, item 6): only the top of a stack is open -----------------------------
def _stack_is_well_formed(rules, stack):
    """What prep allows: heroes above or below all minions, never between; a group's minions in
    movement order; a band's health its top unit's (with its level and equipment)."""
    kinds = ["hero" if rules.is_hero(b) else "minion" for b in stack]
    text = "".join("h" if k == "hero" else "m" for k in kinds)
    assert "h" not in text.strip("h"), text
    for b in stack:
        moves = [rules.catalogue.units[m].levels[0].movement for m in b.members]
        assert moves == sorted(moves) and b.health == rules.stats(b)[1]
        assert len(b.members) == 1 or not rules.is_hero(b)


def _issue_19_stack(plan):
    m = aloftnb.new_match("cloudspire", players=2, seed=6)
    while m.phase != "prep":
        m.play({"type": "pass"})
    for u, g in plan:
        m.play({"type": "deploy", "unit": u, "group": g})
    m.play({"type": "ready"})
    return m


def test_determinize_resamples_the_grouping_of_a_stack_from_what_the_view_shows():
    a = _issue_19_stack([("slagling", False), ("slagling", False), ("slagling", True),
                         ("ember_kite", False)])
    b = _issue_19_stack([("slagling", False), ("slagling", False), ("slagling", False),
                         ("ember_kite", True)])
    rules = a.rules
    assert a.state.sides[0].stack != b.state.sides[0].stack
    assert a.view(1) == b.view(1)
    worlds_a, worlds_b = set(), set()
    for seed in range(60):
        world_a = rules.determinize(a.state, 1, random.Random(seed))
        world_b = rules.determinize(b.state, 1, random.Random(seed))
        # the draw reads only what seat 1 sees: the same seed gives the same world from both
        assert world_a == world_b and rules.view(world_a, 1) == a.view(1)
        _stack_is_well_formed(rules, world_a.sides[0].stack)
        worlds_a.add(world_a.sides[0].stack)
        worlds_b.add(world_b.sides[0].stack)
    assert worlds_a == worlds_b
    assert a.state.sides[0].stack in worlds_a and b.state.sides[0].stack in worlds_a
    assert rules.determinize(a.state, 0, random.Random(0)).sides[0] == a.state.sides[0]


def test_determinize_resamples_the_heroes_places_and_their_equipment():
    rules = rules_for(2)
    s = prep_state(rules, wave=2, command=11)
    s = s._replace(sides=(s.sides[0]._replace(equipment=("ward_plate",)), s.sides[1]))
    for act in (A("deploy", unit="forgemother", group=False),
                A("deploy", unit="cinder_warden", group=False), A("equip", item="ward_plate"),
                A("deploy", unit="anvil_brute", group=False),
                A("deploy", unit="slagling", group=True),
                A("deploy", unit="ember_kite", group=False)):
        s = rules.apply(s, act)
    s = rules.apply(s, A("ready"))
    stack = s.sides[0].stack
    assert [b.members[0] for b in stack][:2] == ["forgemother", "cinder_warden"]
    places, holders = set(), set()
    for seed in range(80):
        world = rules.determinize(s, 1, random.Random(seed))
        assert rules.view(world, 1) == rules.view(s, 1)
        new = world.sides[0].stack
        _stack_is_well_formed(rules, new)
        assert new[0] == stack[0]  # the open top
        kinds = [b.members[0] for b in new]
        places.add(kinds.index("cinder_warden") == 1)
        holders.add(next(b.members[0] for b in new if b.equipment == "ward_plate"))
    assert places == {True, False}  # the second hero above or below the minions
    assert holders == {"cinder_warden"}  # the open top shows it has none: the hidden hero


# -- refusals name their rule (issue 19, item 11) -----------------------------------------------
GENERIC = ("is not possible now", "is not a legal action now")


def test_refusals_name_the_rule_they_break():
    rules = rules_for(2)
    s = draw_all(rules, rules.initial_state(0))  # seat 0's market turn, 5 Source
    chip = next(i for i, c in enumerate(s.market) if rules.catalogue.chips[c].cost > 5) \
        if any(rules.catalogue.chips[c].cost > 5 for c in s.market) else None
    if chip is not None:
        assert "costs" in rules.why_illegal(s, A("buy", slot=chip))
    assert rules.why_illegal(s, A("buy", slot=7)) == "the market has slots 0 to 2, not 7"
    assert rules.why_illegal(s, A("draw", card="gale_cloak")) == (
        "drawing cards is a chance step, not a decision: Emberwrights is to play")
    s = prep_state(rules, command=5)
    s = rules.apply(s, A("deploy", unit="ember_kite", group=False))
    assert rules.why_illegal(s, A("deploy", unit="anvil_brute", group=True)) == (
        "a group is ordered by movement, lowest on top: an Anvil Brute (movement 1) cannot go "
        "under an Ember Kite (movement 3)")
    assert rules.why_illegal(s, A("deploy", unit="veil_seer", group=False)) == (
        "Emberwrights has no Veil Seer Anhra left in its barracks")
    assert rules.why_illegal(s, A("equip", item="ward_plate")) == (
        "equipment goes under the hero just added to the stack")
    s = onslaught(rules, units=[band(rules, 0, "forgemother", at="0,0"),
                                band(rules, 0, "slagling", at="0,1"),
                                band(rules, 1, "murk_golem", at="0,2")])
    assert rules.why_illegal(s, A("end_move")) == (
        "Emberwrights' minions march before the movement stage ends")
    assert rules.why_illegal(s, A("attack", at="0,1", target="0,2")) == (
        "this is the move stage of Emberwrights' turn: the attack stage comes later")
    assert rules.why_illegal(s, A("move", at="0,1", to="1,0")) == (
        "minions are not moved by hand: they march")
    s = rules.apply(rules.apply(s, A("march")), A("end_move"))
    while rules.current_player(s) == CHANCE:
        s = draw_all(rules, s)
    if s.stage == "attack" and rules.attacks(s, 0)[1]:
        assert rules.why_illegal(s, A("end_turn")).startswith("minions must attack when they "
                                                               "can")


def test_random_well_formed_illegal_actions_are_refused_with_their_rule():
    checked = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        rules = rules_for(players)
        space = [rules.action_from_index(i) for i in range(rules.num_distinct_actions())]
        space += [A("draw", card="gale_cloak"), A("roll", pips=2), A("roll", pips=5)]
        rng = random.Random(seed)
        s = rules.initial_state(seed)
        while not rules.is_over(s):
            legal = rules.legal_actions(s)
            for action in rng.sample(space, 12):
                if action not in legal:
                    why = rules.why_illegal(s, action)
                    assert why and not why.endswith(GENERIC) and GENERIC[0] + " (" not in why, (
                        s.phase, s.stage, action, why)
                    checked += 1
            s = rules.apply(s, rules.sample_chance(s, rng) if rules.is_chance(s)
                            else rng.choice(legal))
    assert checked > 1000
