"""Observations read from the state (each encoding's `observation_entries_from_state`, which the
adapters use) against those read from the view (`rules.observation`): the same numbers at every
step of seeded games in every configuration, and nothing a seat's view does not show."""

from __future__ import annotations

import random

import numpy as np
import pytest

from aloftnb.adapters.observations import Observations, blocks_function
from aloftnb.core.registry import make_rules
from aloftnb.games.balloons.rules import BalloonsRules
from aloftnb.kit.observations import dense_blocks
from aloftnb.playtest.fingerprints import CONFIGURATIONS, _games

# The fingerprints' configurations, and the adapter tests' other option sets.
CONFIGS = [*CONFIGURATIONS,
           ("balloons", {"players": 4, "mode": "cooperative", "edition": "choice"}),
           ("balloons", {"players": 2, "columns": 6, "altitudes": 2,
                         "balloons": ["GP", "GR", "lion"]}),
           ("alu", {"players": 2, "columns": 4, "rows": 3, "construction": 8, "iron": 3}),
           ("commodores", {"players": 2, "two_players": True, "radius": 3, "turn_limit": 6}),
           ("cloudspire", {"players": 3, "mode": "cooperative", "waves": 2})]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, o in CONFIGS]


def _from_state(rules, state, seat) -> bytes:
    function = rules._encoding_function("observation_entries_from_state", "")
    size = rules.observation_shape()[0]
    return np.asarray(dense_blocks(size, function(rules, state, seat)), np.float32).tobytes()


def _from_view(rules, state, seat) -> bytes:
    return np.asarray(rules.observation(state, seat), np.float32).tobytes()


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_state_observations_equal_view_observations_at_every_step(game, options):
    checked = 0
    for rules, states, _ in _games(game, options, 2):
        assert blocks_function(rules) is rules._encoding_function(
            "observation_entries_from_state", "")  # the adapters use it
        for state in states:
            for seat in range(rules.players):
                assert _from_state(rules, state, seat) == _from_view(rules, state, seat), (
                    f"seat {seat} at {state!r}")
                checked += 1
    assert checked > 50


HIDDEN = [(g, o) for g, o in CONFIGS if g in ("balloons", "commodores", "cloudspire")
          and o.get("mode", "competitive") == "competitive"]


@pytest.mark.parametrize(("game", "options"), HIDDEN, ids=[f"{g}-{o}" for g, o in HIDDEN])
def test_states_that_look_the_same_to_a_seat_give_it_the_same_observation(game, options):
    """What a seat cannot see is resampled (`determinize` keeps the seat's view); the
    observation read from the state must not change."""
    rng = random.Random(5)
    resampled = 0
    for rules, states, _ in _games(game, options, 2):
        for state in states:
            for seat in range(rules.players):
                other = rules.determinize(state, seat, rng)
                assert rules.view(other, seat) == rules.view(state, seat)
                if other != state:
                    resampled += 1
                    assert _from_state(rules, other, seat) == _from_state(rules, state, seat)
    assert resampled > 10  # hidden parts really differed


def test_observations_written_in_turn_for_unrelated_states_stay_exact():
    """The PettingZoo arrays rewrite only the blocks that changed since a seat's last
    observation: states of two different games in turn, and seats in turn, change them all."""
    (rules, first, _), (_, second, _) = _games("commodores", {"players": 3}, 2)
    observations = Observations(rules)
    rng = random.Random(3)
    for _ in range(200):
        state = rng.choice(first if rng.random() < 0.5 else second)
        seat = rng.randrange(rules.players)
        array = observations.array(seat, observations.read(state, seat))
        assert array.tobytes() == _from_view(rules, state, seat)
        array[:] = 7.0  # the caller's copy


def test_a_kept_block_is_known_by_its_lists_even_in_a_new_tuple():
    """Compiled encodings hand a kept block back as a new tuple of the same three lists: the
    arrays must still leave it alone (only the block that changed is rewritten)."""
    rules = make_rules("commodores", 3)
    observations = Observations(rules)
    kept = ([1, 2], [5], [0.25])
    first = observations.array(0, [kept, ([7], [], [])])
    kept[2][0] = 0.75  # never done by an encoding: it shows whether the block was rewritten
    again = (kept[0], kept[1], kept[2])
    assert again is not kept
    second = observations.array(0, [again, ([8], [], [])])
    assert first[5] == second[5] == 0.25  # kept: not rewritten
    assert (second[7], second[8]) == (0.0, 1.0)  # changed: cleared and rewritten


def test_a_rules_class_with_its_own_view_gets_observations_from_that_view():
    class Masked(BalloonsRules):
        def view(self, s, seat):
            data = super().view(s, seat)
            data["row"] = []
            return data

    rules = Masked(3)
    assert blocks_function(rules) is not rules._encoding_function(
        "observation_entries_from_state", "")
    state = rules.initial_state(4)
    observations = Observations(rules)
    for seat in range(3):
        array = observations.array(seat, observations.read(state, seat))
        assert array.tobytes() == _from_view(rules, state, seat)
    assert _from_view(rules, state, 0) != _from_view(make_rules("balloons", 3), state, 0)
