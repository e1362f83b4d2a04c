"""Cloudspire: invariants checked at every state of seeded random games.

Random decisions and drawn chance outcomes through the rules' fast path, over every mode. At
every state the dict form round-trips (so check_state passes); every unit is accounted for (in a
barracks, a stack or on the map, or defeated); Source stays within each faction's cap; gates only
go down during an onslaught; cards only leave their decks; pieces never share a hex, and stand
only where their terrain allows; and a
seat's view never shows another seat's stack below its top; rounds never go back.
"""

from __future__ import annotations

import random

import pytest

import aloftnb

CONFIGS = [(2, {}), (3, {}), (4, {"waves": 2}), (2, {"variant": "simplified"}),
           (1, {"mode": "solo"}), (2, {"mode": "cooperative"}), (3, {"mode": "cooperative"})]
GAMES = [(players, options, seed) for players, options in CONFIGS for seed in range(3)]


def units_held(rules, s, f):
    """Copies of each unit kind a faction holds: barracks, stack and map."""
    held = list(s.sides[f].barracks)
    bands = [u for u in s.units if u.owner == f] + list(s.sides[f].stack)
    for band in bands:
        for member in band.members:
            held[rules.unit_index[member]] += 1
    return held


def check(rules, before, action, after):
    data = rules.state_to_dict(after)
    assert rules.state_from_dict(data) == after
    # rounds never go back, through the waves (pettingzoo's max_cycles reads them); rounds
    # without a decision pass within one step
    assert 0 <= rules.round(after) - rules.round(before) <= rules.round_limit
    for f in range(rules.factions):
        side, old = after.sides[f], before.sides[f]
        assert 0 <= side.source <= max(rules.source_cap(side), old.source)
        if before.phase == "onslaught" and after.wave == before.wave:
            assert side.gate <= old.gate  # gates only fall during the onslaught
        # units only come back (end of wave, a group's next minion) or go for good (defeat)
        held, was = units_held(rules, after, f), units_held(rules, before, f)
        for i, uid in enumerate(rules.unit_ids):
            kind = rules.catalogue.units[uid]
            if kind.merc and action.type == "buy":
                continue
            assert held[i] <= was[i] or (action.type == "buy" and kind.merc)
    for deck in ("event_deck", "market_deck", "earthscape_deck", "face_pool"):
        assert len(getattr(after, deck)) <= len(getattr(before, deck))
    hexes = [u.hex for u in after.units] + [sp.hex for sp in after.spires]
    assert len(hexes) == len(set(hexes))
    # every unit stands on ground its terrain allows (rulings 23 and 24: no hero displaced onto
    # the sky, no minion revealed there that cannot fly)
    land = rules.land(after.slots)
    assert all(u.hex in land or rules.stats(u)[3] == "sky" for u in after.units)
    for seat in range(rules.players):
        view = rules.view(after, seat)
        for f, side in enumerate(view["sides"]):
            if f != seat:
                assert all(b == "hidden" for b in side["stack"][1:])
        # determinize draws stacks prep could have built (issue 19, item 6)
        world = rules.determinize(after, seat, random.Random(len(after.units)))
        for side in world.sides:
            stack = side.stack
            text = "".join("h" if rules.is_hero(b) else "m" for b in stack)
            assert "h" not in text.strip("h"), text
            for band in stack:
                moves = [rules.catalogue.units[m].levels[0].movement for m in band.members]
                assert moves == sorted(moves) and band.health == rules.stats(band)[1]


@pytest.mark.parametrize("players, options, seed", GAMES,
                         ids=[f"{p}-{o or 'default'}-{s}" for p, o, s in GAMES])
def test_invariants_hold_through_random_games(players, options, seed):
    rules = aloftnb.make_rules("cloudspire", players, **options)
    rng = random.Random(seed)
    state = rules.initial_state(seed)
    steps = 0
    while not rules.is_over(state):
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            legal = rules.legal_actions(state)
            # what the action that led here found on its way (Work.legal) is a fresh search's
            assert legal == rules.flow.legal(rules, state, state.actor)
            # Favour doing something over passing, so games reach spires, fights and landmarks.
            busy = [a for a in legal if a.type not in ("pass", "ready", "end_turn",
                                                       "end_explore", "end_move")]
            action = rng.choice(busy if busy and rng.random() < 0.8 else legal)
        after = rules.apply(state, action)
        check(rules, state, action, after)
        state, steps = after, steps + 1
        assert steps <= rules.max_length()
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.reason
    if rules.traits.cooperative:
        assert outcome.winners in ((), tuple(range(players)))


def test_random_games_reach_every_phase_and_stage():
    seen = set()
    for seed in range(4):
        rules = aloftnb.make_rules("cloudspire", 2)
        rng = random.Random(seed)
        state = rules.initial_state(seed)
        while not rules.is_over(state):
            seen.add((state.phase, state.stage))
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
            else:
                state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    assert {"event", "market", "build", "prep", "onslaught"} <= {p for p, _ in seen}
    assert {"move", "fire", "explore", "attack"} <= {st for _, st in seen}


def test_onslaught_decisions_found_on_the_way_are_not_searched_again():
    """A handler that ends on a decision of the onslaught (continue_move and the others) keeps
    the decisions it found for the state it makes, and legal_actions returns them."""
    rules = aloftnb.make_rules("cloudspire", 2)
    rng = random.Random(5)
    state, kept, decisions = rules.initial_state(5), 0, 0
    while not rules.is_over(state):
        if rules.is_chance(state):
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        legal = rules.legal_actions(state)
        if state.phase == "onslaught":
            decisions += 1
            kept += rules._known_legal[0] is state
            assert legal == rules.flow.legal(rules, state, state.actor)
        state = rules.apply(state, rng.choice(legal))
    assert decisions and kept == decisions
