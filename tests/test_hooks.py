"""Typed playtest hooks (core/hooks.py): every hook with its fallback, older plain objects and
modules adopted once at registration, and badly formed hooks refused there."""

from __future__ import annotations

import ast
import pathlib
import types
from typing import Any

import pytest
from harbour_game import HarbourHooks, HarbourRules

import aloftnb
from aloftnb.core import registry
from aloftnb.core.hooks import (
    DEFAULT_ITERATIONS,
    NO_HOOKS,
    AdoptedHooks,
    GameHooks,
    rank_rewards,
    score_evaluation,
)
from aloftnb.core.registry import hooks_of, make_rules, register

register(HarbourRules, hooks=HarbourHooks())


@pytest.fixture
def harbour_again():
    """Registers harbour with the hooks given, and puts its usual hooks back afterwards."""
    yield lambda hooks: register(HarbourRules, hooks=hooks)
    register(HarbourRules, hooks=HarbourHooks())


def finished_harbour():
    match = aloftnb.new_match("harbour", players=2, seed=2)
    while not match.is_over:
        match.play(match.legal_actions()[0])
    return match


@pytest.mark.parametrize("game", ["balloons", "alu", "commodores", "cloudspire"])
def test_built_in_games_register_a_game_hooks_subclass(game):
    rules = make_rules(game, 3 if game == "commodores" else 2)
    hooks = hooks_of(rules)
    assert isinstance(hooks, GameHooks) and type(hooks) not in (GameHooks, AdoptedHooks)
    assert registry.BUILT_IN_GAMES[game].hooks.endswith(".metrics:HOOKS")
    assert hooks.MEASURES and hooks_of(rules) is hooks  # adopted once
    assert 2 <= len(hooks.restrictions(rules)) <= 4  # suggestions for restricted play


def test_a_game_without_hooks_gets_every_fallback(harbour_again):
    harbour_again(None)
    match = finished_harbour()
    rules, state = match.rules, match.state
    hooks = hooks_of(rules)
    assert hooks is NO_HOOKS
    assert hooks.evaluate(rules, state, 0) == score_evaluation(rules, state, 0)
    assert hooks.rewards(rules, state) == rank_rewards(rules, state)
    assert hooks.mcts_iterations(rules) == DEFAULT_ITERATIONS
    assert hooks.measures(rules, state) == {} and hooks.MEASURES == {}
    assert hooks.POSITION_AXES is None and hooks.position_grid(rules) is None
    assert hooks.PLAYOUT_DECISIONS is None
    assert hooks.restrictions(rules) == {}
    results = aloftnb.simulate("harbour", players=2, games=2, seed=1, workers=1, progress=False)
    assert "positions" not in results and "breaches" not in results


def test_a_plain_object_is_adopted_with_fallbacks_for_what_it_leaves_out(harbour_again):
    class Partial:
        MEASURES = {"breaches": "times the storm broke through"}
        POSITION_AXES = ("column", "row")  # no positions: the game records none

        def rewards(self, rules, state):
            return None  # older hooks answered None for "use the fallback"

        def mcts_iterations(self, rules):
            return 12.0

        def restrictions(self, rules):
            return {"never commits 2": lambda action: action.bags == 2}

    source = Partial()
    harbour_again(source)
    match = finished_harbour()
    rules, state = match.rules, match.state
    hooks = hooks_of(rules)
    assert isinstance(hooks, AdoptedHooks) and hooks.source is source
    assert hooks.rewards(rules, state) == rank_rewards(rules, state)
    assert hooks.evaluate(rules, state, 1) == score_evaluation(rules, state, 1)
    assert hooks.mcts_iterations(rules) == 12 and isinstance(hooks.mcts_iterations(rules), int)
    assert hooks.MEASURES == {"breaches": "times the storm broke through"}
    assert hooks.POSITION_AXES is None
    bars = hooks.restrictions(rules)["never commits 2"]
    assert bars(aloftnb.Action("commit", bags=2)) and not bars(aloftnb.Action("commit", bags=1))


def test_a_module_is_adopted_as_hooks(harbour_again):
    module = types.ModuleType("harbour_hooks")
    module.PLAYOUT_DECISIONS = 4  # type: ignore[attr-defined]

    def positions(rules, state):
        return ["1:1"]

    module.positions = positions  # type: ignore[attr-defined]
    harbour_again(module)
    hooks = hooks_of(finished_harbour().rules)
    # Without an estimate the cut-off never applied, and positions default to axes x and y.
    assert hooks.PLAYOUT_DECISIONS is None and hooks.POSITION_AXES == ("x", "y")
    results = aloftnb.simulate("harbour", players=2, games=2, seed=1, workers=1, progress=False)
    assert set(results["positions"]) == {"1:1"}


def test_a_game_hooks_subclass_is_used_as_it_is(harbour_again):
    class Hooks(GameHooks[Any, Any]):
        MEASURES = {"breaches": "times the storm broke through"}

        def measures(self, rules, state):
            return {"breaches": state.breaches}

    hooks = Hooks()
    harbour_again(hooks)
    assert hooks_of(finished_harbour().rules) is hooks
    results = aloftnb.simulate("harbour", players=2, games=2, seed=1, workers=1, progress=False)
    assert "breaches" in results


class _NoEstimate(GameHooks[Any, Any]):
    PLAYOUT_DECISIONS = 5


class _NoAxes(GameHooks[Any, Any]):
    def positions(self, rules, state):
        return []


def _plain(**parts):
    return type("Hooks", (), parts)()


@pytest.mark.parametrize("hooks, part", [
    (_plain(evaluate=3), "evaluate"),
    (_plain(evaluate=lambda self, rules, state: 0.0), "evaluate"),  # takes no seat
    (_plain(rewards=lambda self, rules, state, seat: {}), "rewards"),
    (_plain(measures="breaches"), "measures"),
    (_plain(MEASURES=["breaches"]), "MEASURES"),
    (_plain(MEASURES={"breaches": 3}), "MEASURES"),
    (_plain(PLAYOUT_DECISIONS="16"), "PLAYOUT_DECISIONS"),
    (_plain(PLAYOUT_DECISIONS=-1), "PLAYOUT_DECISIONS"),
    (_plain(POSITION_AXES="xy"), "POSITION_AXES"),
    (_plain(position_grid=lambda self: (3, 3)), "position_grid"),
    (_plain(restrictions=lambda self, rules, state: {}), "restrictions"),
    (_plain(restrictions={"never": lambda action: True}), "restrictions"),
    (HarbourHooks, "class"),
    (_NoEstimate(), "estimate"),
    (_NoAxes(), "POSITION_AXES"),
], ids=["not-callable", "too-few-arguments", "too-many-arguments", "measures-text",
        "measures-list", "measure-description", "cutoff-text", "cutoff-negative", "axes",
        "grid-arguments", "restrictions-arguments", "restrictions-not-a-function", "a-class",
        "cutoff-without-estimate", "positions-without-axes"])
def test_badly_formed_hooks_are_refused_at_registration_naming_the_part(hooks, part):
    before = dict(registry._GAMES)
    kept = hooks_of(make_rules("harbour", 2))
    with pytest.raises(aloftnb.InvalidGame, match=rf"register\('harbour'\): .*{part}"):
        register(HarbourRules, hooks=hooks)
    assert registry._GAMES == before
    assert hooks_of(make_rules("harbour", 2)) is kept  # the working game and its hooks stay


def test_nothing_asks_a_games_hooks_what_they_define():
    """Callers use the GameHooks methods: hasattr/getattr on hooks lives in core/hooks.py only,
    where an older object is read once at registration."""
    package = pathlib.Path(aloftnb.__file__).parent
    probes = []
    for path in package.rglob("*.py"):
        if path == package / "core" / "hooks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("hasattr", "getattr") and node.args
                    and "hooks" in ast.unparse(node.args[0]).lower()):
                probes.append(f"{path.relative_to(package)}:{node.lineno}")
    assert probes == []
