"""Drawings read only the view they are given: no drawing module re-runs a rule. Whatever a
drawing shows that a rule decides (balloons' next wind, ALU's action costs and actions per turn)
is in the view, produced by the rules."""

from __future__ import annotations

import ast
import importlib
import inspect
import random

import pytest

import aloftnb

GAMES = [("balloons", {"players": 3}), ("balloons", {"players": 2, "edition": "choice"}),
         ("balloons", {"players": 1, "mode": "solo"}), ("alu", {"players": 2}),
         ("commodores", {"players": 3}), ("cloudspire", {"players": 2}),
         ("cloudspire", {"players": 1, "mode": "solo"})]


def views_along_random_games(game, options, games=3):
    for seed in range(games):
        match = aloftnb.new_match(game, seed=seed, **options)
        rng = random.Random(seed)
        while True:
            rules, state = match.rules, match.state
            yield rules, rules.state_to_dict(state)
            for seat in range(match.players):
                yield rules, rules.view(state, seat)
            if match.is_over:
                break
            match.play(rng.choice(match.legal_actions()))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_drawing_needs_nothing_but_the_view(game, options):
    draw_board = importlib.import_module(f"aloftnb.games.{game}.drawing").draw_board
    seen_wind = False
    for rules, view in views_along_random_games(game, options):
        # With no rules object at all, the drawing is the same: it reads only the view.
        assert draw_board(None, view) == rules.render_svg(view)
        seen_wind |= "wind_choices" in view
    assert seen_wind == (options.get("edition") == "choice")


@pytest.mark.parametrize("game", ["balloons", "alu", "commodores", "cloudspire"])
def test_drawing_modules_import_no_rule_functions(game):
    drawing = importlib.import_module(f"aloftnb.games.{game}.drawing")
    rules_module = importlib.import_module(f"aloftnb.games.{game}.rules")
    tree = ast.parse(inspect.getsource(drawing))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "rules" for alias in node.names]
    for name in imported:
        value = getattr(rules_module, name)
        # data (the balloon catalogue) and type names for annotations only, never a function
        assert not callable(value) or inspect.isclass(value), name
        if inspect.isclass(value):
            assert name.endswith("Rules"), name


def test_balloons_wind_arrows_follow_the_rules_wind_choices():
    match = aloftnb.new_match("balloons", players=2, seed=4, edition="choice")
    while match.state.to_dict()["step"] != "wind":
        match.play(match.legal_actions()[0])
    view = match.view(None)
    assert view["wind_choices"] == match.rules.wind_choice_moves(match.state)
    svg = match.rules.render_svg(view)
    for action in match.legal_actions():
        choice = view["wind_choices"][action.truck]
        assert f'data-key="wind:{action.truck}"' in svg
        assert f"to column {choice['to']}" in svg
    # after the choice, the state has moved the truck the arrow said
    choice = view["wind_choices"]["safety" if "safety" in view["wind_choices"] else "launch"]
    match.play({"type": "wind", "truck": "safety" if "truck" not in choice else "launch"})
    after = match.state.to_dict()
    moved = after["safety"] if "truck" not in choice else after["trucks"][choice["truck"]]
    assert moved == choice["to"]


def test_alu_costs_on_the_board_are_the_rules_costs(monkeypatch):
    from aloftnb.games.alu import rules as alu_rules

    monkeypatch.setitem(alu_rules.COSTS, "camp", (3, 0, 0))
    match = aloftnb.new_match("alu", players=2, seed=1)
    view = match.view(None)
    assert view["derived"]["action_costs"]["camp"] == "3 construction"
    assert "3 construction" in match.rules.render_svg(view)
    camp = next(a for a in match.legal_actions() if a.type == "camp")
    assert match.rules.action_label(camp).endswith("(3 construction)")


def test_the_end_of_a_game_explains_its_scoring_tokens():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    rng = random.Random(1)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    svg = match.rules.render_svg(match.view(None))
    assert 'class="token"' in svg and 'class="balloons-token-key"' in svg
    assert "scoring token: 1 for the lowest leftmost balloon" in svg
