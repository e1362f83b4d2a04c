"""Bots: the one interface, greedy and MCTS, determinism, and never reading hidden state."""

from __future__ import annotations

import random

import pytest

import aloftnb
from aloftnb.core import registry
from aloftnb.core.action import Action
from aloftnb.core.bots import (
    BOTS,
    GreedyBot,
    MCTSBot,
    RandomBot,
    game_hooks,
    make_bot,
    outcome_rewards,
    rank_rewards,
)
from aloftnb.core.hooks import NO_HOOKS
from aloftnb.core.registry import hooks_of, make_rules
from aloftnb.core.rules import Rules
from aloftnb.games.balloons.metrics import BalloonsHooks


class TakeAway(Rules):
    """A tiny perfect-information test game: take 1 or 2 stones; whoever takes the last wins."""

    name = "takeaway"
    title = "Take-away"

    def initial_state(self, seed):
        return (5, 0, None)  # stones left, seat to move, winner

    def current_player(self, state):
        return None if state[0] == 0 else state[1]

    def legal_actions(self, state):
        return [Action("take", n=n) for n in (1, 2) if n <= state[0]]

    def apply(self, state, action):
        left = state[0] - action.n
        return (left, 1 - state[1], state[1] if left == 0 else None)

    def is_over(self, state):
        return state[0] == 0

    def scores(self, state):
        return {seat: 1.0 if state[2] == seat else 0.0 for seat in (0, 1)}

    def state_to_dict(self, state):
        return {"stones": state[0], "player": state[1]}

    def state_from_dict(self, data):
        return (data["stones"], data["player"], None)


def test_make_bot_names_and_specs_round_trip():
    assert set(BOTS) == {"random", "greedy", "mcts", "uct"}
    for spec in ("random", "greedy", "greedy:4", "mcts", "mcts:500", "mcts:0.25s",
                 "mcts:200:0.5s", "mcts:300:c1.4"):
        bot = make_bot(spec)
        assert make_bot(bot.spec) == bot, spec
    assert make_bot("mcts").spec == "mcts"  # the game's default budget
    assert make_bot("mcts:0.25s").iterations is None
    assert make_bot("mcts:0.25s").seconds == 0.25
    bot = RandomBot()
    assert make_bot(bot) is bot


@pytest.mark.parametrize("spec", ["nope", "mcts:abc", "greedy:1:2", "random:3", 42, None])
def test_make_bot_refuses_unknown_or_malformed_specs(spec):
    with pytest.raises(ValueError, match="bot"):
        make_bot(spec)


@pytest.mark.parametrize("kwargs", [{"iterations": 0}, {"iterations": -5},
                                    {"seconds": -1}, {"exploration": -0.1},
                                    {"iterations": True}])
def test_mcts_refuses_bad_budgets(kwargs):
    with pytest.raises(ValueError):
        MCTSBot(**kwargs)


def test_greedy_refuses_bad_samples():
    with pytest.raises(ValueError, match="samples"):
        GreedyBot(samples=0)


def test_budget_descriptions_for_boards():
    assert RandomBot().budget == "instant"
    assert GreedyBot().budget == "one move of lookahead"
    assert MCTSBot(iterations=500).budget == "500 iterations per move"
    assert MCTSBot(iterations=None, seconds=0.5).budget == "0.5 s per move"
    assert MCTSBot(iterations=100, seconds=2).budget == "100 iterations or 2 s per move"


SETTINGS = [
    dict(players=3),
    dict(players=2, edition="choice"),
    dict(players=1, mode="solo"),
    dict(players=3, mode="cooperative"),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(map(str, s.values())))
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:40"])
def test_bots_play_legal_actions_to_the_end(settings, spec):
    match = aloftnb.new_match("balloons", seed=5, **settings)
    bot, rng = make_bot(spec), random.Random(1)
    while not match.is_over:
        action = bot.choose(match.rules, match.state, match.current_player, rng)
        assert action in match.legal_actions()
        match.play(action)
    assert match.winners()


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:60"])
def test_bots_are_deterministic_given_their_rng(spec):
    rules = make_rules("balloons", 3)
    state = rules.initial_state(11)
    for _ in range(9):  # a position with balloons in the air
        state = rules.apply(state, rules.legal_actions(state)[0])
    choices = {make_bot(spec).choose(rules, state, rules.current_player(state),
                                     random.Random(99)) for _ in range(3)}
    assert len(choices) == 1


def _with_rival_colours(rules, state, seat, colours):
    """The same position with other seats' (hidden) colour cards replaced."""
    new = list(state.colours)
    for other, colour in zip([p for p in range(rules.players) if p != seat], colours):
        new[other] = colour
    return state._replace(colours=tuple(new))


@pytest.mark.parametrize("spec", ["greedy", "uct:80", "mcts:80", "mcts:80:nosecrets"])
def test_searching_bots_never_read_hidden_colours(spec):
    # Two worlds the seat cannot tell apart (only rivals' secret colours differ) must get the
    # same move from the same rng: the bot may only look at them through determinize.
    rules = make_rules("balloons", 3)
    state = rules.initial_state(3)
    rng = random.Random(4)
    for _ in range(12):
        actions = rules.legal_actions(state)
        state = rules.apply(state, actions[int(rng.random() * len(actions))])
    seat = rules.current_player(state)
    mine = state.colours[seat]
    free = [c for c in range(5) if c != mine]
    world_a = _with_rival_colours(rules, state, seat, free[:2])
    world_b = _with_rival_colours(rules, state, seat, free[2:4])
    assert world_a.colours != world_b.colours
    assert rules.view(world_a, seat) == rules.view(world_b, seat)
    bot = make_bot(spec)
    assert (bot.choose(rules, world_a, seat, random.Random(8))
            == bot.choose(rules, world_b, seat, random.Random(8)))


def test_mcts_finds_the_winning_move_in_a_small_game():
    rules = TakeAway(2)
    state = rules.initial_state(0)  # 5 stones: taking 2 leaves 3, a lost position for the rival
    for seed in range(3):
        assert MCTSBot(iterations=400).choose(rules, state, 0, random.Random(seed)) == Action(
            "take", n=2)
    # From 4 stones the winning move is to take 1.
    assert MCTSBot(iterations=400).choose(rules, (4, 0, None), 0, random.Random(0)) == Action(
        "take", n=1)


def test_greedy_takes_an_immediate_win_by_score_fallback():
    rules = TakeAway(2)
    assert game_hooks(rules) is NO_HOOKS  # an unregistered game: the score fallback
    for seed in range(5):
        assert GreedyBot().choose(rules, (2, 1, None), 1, random.Random(seed)) == Action(
            "take", n=2)


def test_greedy_plays_each_action_once_where_its_seat_sees_everything(monkeypatch):
    """ALU hides nothing and has no chance: the determinized worlds are equal, so each action
    is evaluated once (not once a world) and the choice is the one evaluating every world
    gives, draw for draw."""
    import aloftnb.core.bots as bots_module

    rules = make_rules("alu", 2)
    state = rules.initial_state(3)
    actions = rules.legal_actions(state)
    seat = rules.current_player(state)
    calls = []
    real = bots_module.evaluate
    monkeypatch.setattr(bots_module, "evaluate",
                        lambda r, s, who: calls.append(s) or real(r, s, who))
    chosen = GreedyBot(samples=3).choose(rules, state, seat, random.Random(5))
    assert len(calls) == len(actions) > 1
    # The same choice as summing each world's value, with the tie broken by the same draw.
    values = [3 * real(rules, rules.apply(state, a), seat) for a in actions]
    best = [a for a, v in zip(actions, values) if v >= max(values) - 1e-12]
    assert chosen == best[int(random.Random(5).random() * len(best))]


def test_mcts_with_a_time_budget_returns_a_legal_action():
    rules = make_rules("balloons", 3)
    state = rules.initial_state(1)
    action = MCTSBot(iterations=None, seconds=0.05).choose(rules, state, 0, random.Random(0))
    assert action in rules.legal_actions(state)


def test_search_statistics_add_up():
    rules = make_rules("balloons", 2)
    state = rules.initial_state(2)
    root = MCTSBot(iterations=150).search(rules, state, 0, random.Random(0))
    assert root.visits == 150
    assert sum(child.visits for child in root.children.values()) == 150
    assert set(root.children) <= set(rules.legal_actions(state))


class TakeThree(TakeAway):
    """Take-away from 9 stones, 1 to 3 at a time (a tree a few levels deep)."""

    ACTION = Action

    def initial_state(self, seed):
        return (9, 0, None)

    def legal_actions(self, state):
        return [self.ACTION("take", n=n) for n in (1, 2, 3) if n <= state[0]]


class CollidingAction(Action):
    """Every action hashes alike, so the search tells them apart by value alone."""

    __slots__ = ()

    def __hash__(self):
        return 7


class CollidingTakeThree(TakeThree):
    ACTION = CollidingAction


def test_the_search_tree_finds_children_by_value_when_hashes_collide():
    """The search finds a move's child by the action's value: with every hash alike (and new
    action objects at every step) it grows the same tree."""

    def tree(rules):
        root = MCTSBot(iterations=200).search(rules, rules.initial_state(0), 0, random.Random(3))
        stats = {}
        for a, child in root.children.items():
            stats[a.n,] = (child.visits, child.available, child.reward)
            for b, grandchild in child.children.items():
                stats[a.n, b.n] = (grandchild.visits, grandchild.available, grandchild.reward)
        return stats

    plain, colliding = tree(TakeThree(2)), tree(CollidingTakeThree(2))
    assert colliding == plain
    assert len(plain) == 3 + 9  # three moves at the root, three after each
    assert sum(plain[n,][0] for n in (1, 2, 3)) == 200


def test_single_legal_action_is_played_without_search():
    rules = TakeAway(2)
    assert MCTSBot(iterations=1).choose(rules, (1, 0, None), 0, random.Random(0)) == Action(
        "take", n=1)


def test_balloons_hooks_are_found_and_rewards_are_in_range(finished_match):
    rules, state = finished_match.rules, finished_match.state
    hooks = game_hooks(rules)
    assert isinstance(hooks, BalloonsHooks)
    rewards = outcome_rewards(rules, state)
    assert set(rewards) == {0, 1, 2}
    assert all(0.0 <= r <= 1.0 for r in rewards.values())
    for winner in finished_match.winners():
        assert rewards[winner] == max(rewards.values())
    solo = aloftnb.new_match("balloons", players=1, mode="solo", seed=3)
    while not solo.is_over:
        solo.play(solo.legal_actions()[-1])
    worst = solo.rules.columns + 3 * len(solo.rules.ids)
    assert outcome_rewards(solo.rules, solo.state) == {0: 1 - solo.scores()[0] / worst}


def test_rank_rewards_share_ties():
    rules = make_rules("balloons", 3)

    class Fixed:
        pass

    scores = {0: 10, 1: 10, 2: 3}
    original = rules.scores
    rules.scores = lambda state: scores  # type: ignore[method-assign]
    try:
        assert rank_rewards(rules, Fixed()) == {0: 0.75, 1: 0.75, 2: 0.0}
    finally:
        rules.scores = original  # type: ignore[method-assign]


def test_searching_bots_beat_random_play():
    results = aloftnb.playtest.simulate("balloons", players=3, bots="mcts:60,random,random",
                                        games=24, seed=1, workers=1, progress=False)
    assert results["win_0"].mean() > 0.6  # a fair share would be a third


class LongTakeAway(TakeAway):
    """Take-away from 40 stones: random playouts are long, so its hooks cut them short."""

    name = "long_takeaway"

    def initial_state(self, seed):
        return (40, 0, None)


class CutOffHooks:
    PLAYOUT_DECISIONS = 3

    def __init__(self):
        self.calls = 0

    def estimate(self, rules, state):
        self.calls += 1
        # Pretend the seat to move is winning: the playout must stop and use this.
        return {seat: 1.0 if seat == state[1] else 0.0 for seat in (0, 1)}


def test_mcts_cuts_long_playouts_short_with_the_games_estimate():
    hooks = CutOffHooks()
    aloftnb.register(LongTakeAway, hooks=hooks)
    rules = make_rules("long_takeaway", 2)
    root = MCTSBot(iterations=50).search(rules, rules.initial_state(0), 0, random.Random(1))
    assert root.visits == 50
    # 40 stones take at least 20 moves: every playout was cut after 3 decisions and estimated.
    assert hooks.calls == 50
    del CutOffHooks.PLAYOUT_DECISIONS  # without the limit the playouts run to the end
    try:
        assert hooks_of(rules).PLAYOUT_DECISIONS == 3  # hooks are read when registered
        aloftnb.register(LongTakeAway, hooks=hooks)
        hooks.calls = 0
        MCTSBot(iterations=20).search(rules, rules.initial_state(0), 0, random.Random(1))
        assert hooks.calls == 0
    finally:
        CutOffHooks.PLAYOUT_DECISIONS = 3
        registry._GAMES.pop("long_takeaway")  # other tests list every registered game


def test_the_random_bot_picks_the_same_action_by_index_as_by_choose():
    # simulate asks bots for an index (choose_index); a board asks for an action (choose). The
    # random bot must make the same pick either way from the same generator.
    rules = make_rules("commodores", 3)
    bot, state = RandomBot(), rules.initial_state(0)
    picks = 0
    for step in range(300):
        if rules.is_over(state):
            break
        seat = rules.current_player(state)
        actions = rules.legal_actions(state)
        if seat != aloftnb.CHANCE:
            by_index = actions[bot.choose_index(rules, state, seat, random.Random(step), actions)]
            assert by_index == bot.choose(rules, state, seat, random.Random(step))
            picks += len(actions) > 1
        state = rules.apply(state, actions[step % len(actions)])
    assert picks > 50


@pytest.mark.parametrize("game, players, options, iterations", [
    ("balloons", 3, {}, 1000),
    ("cloudspire", 2, {}, 1000),
    ("cloudspire", 1, {"mode": "solo"}, 400),
    ("cloudspire", 2, {"mode": "cooperative"}, 500),
    ("cloudspire", 3, {"mode": "cooperative"}, 700),
])
def test_mcts_at_its_default_budget_searches_the_games_own_iterations(game, players, options,
                                                                      iterations):
    # Cloudspire's solo and cooperative iterations cost more: each mode's default keeps a
    # decision within the rules page's 2 s (python -m aloftnb bench checks every mode).
    from aloftnb.core.bots import default_iterations
    from aloftnb.core.registry import make_rules

    rules = make_rules(game, players, **options)
    assert default_iterations(rules) == iterations
    state = rules.initial_state(0)
    while rules.is_chance(state) or len(rules.legal_actions(state)) < 2:
        state = rules.apply(state, rules.sample_chance(state, random.Random(0))
                            if rules.is_chance(state) else rules.legal_actions(state)[0])
    seat = rules.current_player(state)
    root = MCTSBot().search(rules, state, seat, random.Random(1))
    assert root.visits == iterations
    assert MCTSBot(iterations=50).search(rules, state, seat, random.Random(1)).visits == 50


def test_the_core_imports_no_adapter():
    """Adapters (OpenSpiel, PettingZoo, their returns) live in aloftnb/adapters; the core names
    none of them, not even lazily (bot families from outside are registered by name)."""
    import ast
    from pathlib import Path

    core = Path(aloftnb.__file__).parent / "core"
    found = []
    for path in sorted(core.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(word in name for name in names
                   for word in ("openspiel", "pettingzoo", "adapters", "pyspiel")):
                found.append((path.name, node.lineno))
    assert found == []
    assert not (core / "returns.py").exists()


def test_bot_families_from_outside_are_registered_by_name(monkeypatch):
    from aloftnb.core import bots

    monkeypatch.setitem(bots._FAMILIES, "always-first", f"{__name__}:first_bot_from_spec")
    bot = make_bot("always-first:7")
    assert isinstance(bot, RandomBot) and bot.spec == "random"
    with pytest.raises(ValueError, match="two texts"):
        bots.register_bot_family("nope", "no colon")
    assert "openspiel-" in bots._FAMILIES  # aloftnb registers the OpenSpiel adapter's bots


def first_bot_from_spec(spec):
    assert spec == "always-first:7"
    return RandomBot()


def test_every_shipped_bot_takes_stop_and_a_designers_bot_without_it_still_plays():
    from aloftnb.widget.seats import takes_stop

    assert all(takes_stop(cls()) for cls in BOTS.values())

    class OldStyle(RandomBot):
        def choose(self, rules, state, seat, rng):
            return rules.legal_actions(state)[0]

    assert not takes_stop(OldStyle())
