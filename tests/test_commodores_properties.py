"""Aloft, sky commodores: invariants checked at every state of seeded random games.

Random decisions and drawn chance outcomes through the rules' fast path; at every state the dict
form round-trips (and so check_state passes), every hex and number token is accounted for, pools
stay within the tracker's cap, ships sit on distinct corners touching a hex, goals and tallies
only grow, and every legal action applies.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import aloftnb

# The current rulings (2) on 8 seeds, the first rulings (1, kept for old saves) on 3.
GAMES = [(players, seed, rulings) for players in (3, 4, 5) for rulings in (2, 1)
         for seed in range(8 if rulings == 2 else 3)]


def play_random_game(players, seed, check, rulings=2):
    """Play one random game, calling check(rules, before, action, after) after every step."""
    rules = aloftnb.make_rules("commodores", players, turn_limit=6, radius=3, rulings=rulings)
    rng = random.Random(seed)
    state = rules.initial_state(seed)
    steps = 0
    while not rules.is_over(state):
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            legal = rules.legal_actions(state)
            for other in legal:  # every legal action applies
                rules.apply(state, other)
            # Favour doing something over ending, so games reach builds, plunders and goals.
            busy = [a for a in legal if a.type not in ("end_ship", "end_turn")]
            action = rng.choice(busy if busy and rng.random() < 0.85 else legal)
        after = rules.apply(state, action)
        check(rules, state, action, after)
        state, steps = after, steps + 1
        assert steps <= rules.max_length()
    return rules, state


class Ledger:
    """What left the game by terraforming: resource hexes and their number tokens."""

    def __init__(self):
        self.hexes: Counter[str] = Counter()
        self.tokens: Counter[int] = Counter()

    def note(self, rules, before, action):
        if action.type == "terraform":
            h = before.hexes[rules.geometry.space_index[action.space]]
            if h.kind in rules.resources:
                self.hexes[h.kind] += 1
                self.tokens[h.number] += 1


def check_accounting(rules, s, ledger):
    cat = rules.catalogue
    on_map = Counter(h.kind for h in s.hexes if h is not None)
    on_map[s.drawn] += bool(s.drawn)  # rulings 2: drawn, about to be placed
    totals = Counter(dict(cat.hexes)) + Counter(rules.leviathan_ids)
    for kind, in_stack in zip(rules.kinds, s.stack):
        where = on_map[kind] + in_stack + s.set_aside.count(kind) + ledger.hexes[kind]
        # (a felled leviathan terraformed away is back in the stack: it needs no ledger)
        assert where == totals[kind], (kind, where, totals[kind])
    placed = Counter(h.number for h in s.hexes if h is not None and h.number)
    for n in range(1, 7):
        where = s.tokens[n - 1] + placed[n] + (s.goal_number == n) + ledger.tokens[n]
        assert where == cat.number_tokens[n - 1], (n, where)


def check_state(rules, before, action, after, ledger):
    assert rules.state_from_dict(rules.state_to_dict(after)) == after
    ledger.note(rules, before, action)
    check_accounting(rules, after, ledger)
    cap = rules.catalogue.pool_cap
    assert all(0 <= n <= cap for pool in after.pools for n in pool)
    corners = [ship.corner for ship in after.ships]
    assert len(set(corners)) == len(corners)
    filling = after.target if after.step in ("draw_hex", "place_hex") else -1
    for ship in after.ships:
        spaces = rules.geometry.corner_spaces[ship.corner]
        assert any(after.hexes[sp] is not None or sp == filling for sp in spaces)
    for seat in range(rules.players):
        old, new = before.completed[seat], after.completed[seat]
        assert new[:len(old)] == old and len(set(new)) == len(new)
        assert all(a <= b for a, b in zip(before.tallies[seat], after.tallies[seat]))
        if new != old:
            assert seat == after.player  # goals only on the seat's own turn


@pytest.mark.parametrize("players, seed, rulings", GAMES)
def test_invariants_hold_at_every_state_of_random_games(players, seed, rulings):
    ledger = Ledger()
    rules, final = play_random_game(
        players, seed, lambda r, b, a, s: check_state(r, b, a, s, ledger), rulings)
    outcome = rules.outcome(final)
    assert outcome is not None and final.end in ("goals", "turn_limit")
    if final.end == "goals":
        assert outcome.winners == (final.player,)
        assert len(final.completed[final.player]) == rules.catalogue.goals_to_win


def test_random_games_reach_the_interesting_rules():
    """The games above are not idle: they explore, terraform, build, plunder and trade."""
    seen: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for players, seed, rulings in GAMES:
        _, final = play_random_game(players, seed,
                                    lambda r, b, a, s: seen.update([a.type]), rulings)
        ends[final.end] += 1
    for kind in ("explore", "terraform", "build", "plunder", "take", "trade", "upgrade",
                 "move", "hex", "number", "place_hex"):
        assert seen[kind] > 0, kind
    assert sum(ends.values()) == len(GAMES)
