"""Sky commodores' declared turn structure (games/commodores/rules.py, FLOW): the phases, stages
and actions it declares, and the fast paths derived from it agreeing with it."""

from __future__ import annotations

import random

import pytest

from aloftnb.core.chance import CHANCE
from aloftnb.core.registry import make_rules
from aloftnb.core.rules import Rules
from aloftnb.errors import InvalidGame
from aloftnb.games.commodores.actions import CommodoresAction
from aloftnb.games.commodores.rules import FLOW, CommodoresRules


def test_the_phases_and_their_actions_come_from_the_flow():
    assert CommodoresRules.flow is FLOW
    assert CommodoresRules.phases == ("setup", "forage", "ships")
    assert {phase: set(kinds) for phase, kinds in CommodoresRules.phase_actions.items()} == {
        "setup": {"set_aside", "goal", "goal_number", "ship_type", "place", "free"},
        "forage": {"forage"},
        "ships": {"ship", "move", "explore", "terraform", "upgrade", "build", "plunder", "take",
                  "trade", "end_ship", "end_turn", "hex", "number", "place_hex"},
    }
    # Every step the state can record is a stage of one phase, or the end of the game.
    stages = [stage.name for phase in FLOW.phases for stage in phase.stages]
    assert sorted(stages + [FLOW.ended]) == sorted(
        ("set_aside", "goal", "goal_number", "ship_type", "place", "free", "forage", "ships",
         "take", "draw_hex", "draw_number", "place_hex", "over"))


def test_each_phase_hands_on_to_the_first_stage_of_the_next():
    assert CommodoresRules.step_after == {"setup": "forage", "forage": "ships",
                                          "ships": "forage"}


def play(rules, seed):
    """The states and decisions of one random game."""
    rng = random.Random(seed)
    state = rules.initial_state(seed)
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        action = (rules.sample_chance(state, rng) if rules.current_player(state) == CHANCE
                  else legal[int(rng.random() * len(legal))])
        yield state, action
        state = rules.apply(state, action)
    yield state, None


@pytest.mark.parametrize("rulings", [1, 2])
def test_the_fast_legal_actions_and_apply_agree_with_the_declared_flow(rulings):
    rules = make_rules("commodores", 3, rulings=rulings)
    phases = set()
    for seed in range(3):
        for state, action in play(rules, seed):
            assert rules.legal_actions(state) == Rules._legal_by_flow(rules, state)
            phases.add(rules.phase(state))
            if action is None:
                assert rules.phase(state) == "ships"  # an over state, as before the flow
                continue
            assert action.type in FLOW.allowed(state)
            assert FLOW.apply(rules, state, action) == rules.apply(state, action)
            assert rules.round(state) == min(state.turn // 3 + 1, rules.turn_limit)
    assert phases == {"setup", "forage", "ships"}


def test_an_action_outside_its_step_is_refused_by_the_dispatch():
    rules = make_rules("commodores", 3)
    state = rules.initial_state(0)  # chance sets leviathans aside
    with pytest.raises(InvalidGame, match="no handler for 'end_turn' in the setup phase, "
                                          "set_aside stage"):
        rules.apply(state, CommodoresAction("end_turn"))


def test_changed_is_the_records_replace():
    """The handlers change the state with changes.changed and ships and hexes with
    changes.replaced (compiled with them): the same record as `_replace`, of the same class,
    the original untouched."""
    from aloftnb.games.commodores.changes import changed, replaced
    from aloftnb.games.commodores.state import Hex, Ship

    s = make_rules("commodores", 3).initial_state(0)
    new = changed(s, step="ships", player=2, done=("move",))
    assert type(new) is type(s) and new == s._replace(step="ships", player=2, done=("move",))
    assert (s.player, s.done) == (0, ())
    ship = Ship(0, 1, "barge", 5, (), True)
    assert replaced(ship, corner=7, new=False) == Ship(0, 1, "barge", 7, (), False)
    assert type(replaced(Hex("wood", 0, 0), number=3)) is Hex
    with pytest.raises(KeyError):
        replaced(ship, speed=3)


def test_changed_names_every_field_of_the_state():
    """changed() lists the state's fields as its parameters, one by one (the pure build uses
    the state's _replace): each field it is given lands in that field and no other, and it
    refuses a name that is not a field."""
    from aloftnb.games.commodores.changes import changed
    from aloftnb.games.commodores.state import CommodoresState

    s = make_rules("commodores", 3).initial_state(0)
    for field in CommodoresState._fields[1:]:  # all but the rules object
        marker = object()
        new = changed(s, **{field: marker})
        assert type(new) is CommodoresState and new == s._replace(**{field: marker}), field
    with pytest.raises((TypeError, ValueError)):  # compiled: TypeError; pure (_replace): ValueError
        changed(s, speed=3)
