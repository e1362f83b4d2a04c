"""The guided search (`mcts`, MCTSBot) beside today's (`uct`, UCTBot): specs, settings, what each
guide does to the tree, the game's settings and default bot, root-parallel search, determinism."""

from __future__ import annotations

import random

import pytest
from test_bots import TakeAway

import aloftnb
from aloftnb.core import registry
from aloftnb.core.action import Action
from aloftnb.core.bots import (
    BOTS,
    MCTSBot,
    UCTBot,
    bot_for,
    default_bot,
    explicit_spec,
    make_bot,
)
from aloftnb.core.hooks import GameHooks
from aloftnb.core.registry import make_rules
from aloftnb.core.search_settings import (
    SEARCH_DEFAULTS,
    evaluation_estimate,
    evaluation_order,
    scored_rivals,
    with_score_bonus,
)
from aloftnb.errors import AloftnbError, InvalidGame


def test_both_searches_have_specs_that_round_trip():
    assert {"mcts", "uct"} <= set(BOTS)
    for spec in ("uct", "uct:400", "uct:0.5s", "uct:400:0.5s:c1.4", "mcts", "mcts:1s",
                 "mcts:500:0.5s:c1.2:mast:e0.1:t8:cut6:pw1.5:prior:w2", "mcts:200:eval:t3",
                 "mcts:100:random:noprior", "mcts:50:cut0:pw0", "mcts:100:nosecrets",
                 "mcts:0.2s:secrets"):
        bot = make_bot(spec)
        assert bot.spec == spec and make_bot(bot.spec) == bot, spec
    assert type(make_bot("uct:400")) is UCTBot and type(make_bot("mcts:400")) is MCTSBot
    bot = make_bot("mcts:2s:w4")
    assert (bot.iterations, bot.seconds, bot.workers) == (None, 2.0, 4)
    assert make_bot("mcts:300:mast:cut8").settings["cutoff"] == 8


@pytest.mark.parametrize(("spec", "says"), [
    ("uct:mast", "cannot read bot"), ("mcts:bogus", "cannot read bot"),
    ("mcts:e2", "epsilon must be"), ("mcts:t0", "tournament must be"),
    ("mcts:cut-1", "cutoff must be"), ("mcts:w0", "workers must be"),
    ("mcts:pw-1", "widening must be"), ("mcts:c99", "exploration must be")])
def test_bad_specs_and_settings_say_what_is_wrong(spec, says):
    with pytest.raises(AloftnbError, match=says):
        make_bot(spec)
    with pytest.raises(ValueError):  # AloftnbError is a ValueError
        make_bot(spec)


def test_mcts_finds_the_winning_move_with_every_playout():
    rules = TakeAway(2)
    for playout in MCTSBot.PLAYOUTS:
        for seed in range(3):
            bot = MCTSBot(iterations=300, playout=playout)
            assert bot.choose(rules, rules.initial_state(0), 0, random.Random(seed)) == Action(
                "take", n=2), (playout, seed)
        assert MCTSBot(iterations=300, playout=playout).choose(
            rules, (4, 0, None), 0, random.Random(0)) == Action("take", n=1)


def test_the_same_seed_gives_the_same_search():
    rules = make_rules("balloons", 3)
    state = rules.initial_state(4)
    first = MCTSBot(iterations=120).search(rules, state, 0, random.Random(9))
    again = MCTSBot(iterations=120).search(rules, state, 0, random.Random(9))
    assert first.visits == again.visits == 120
    assert ({a: (c.visits, c.reward) for a, c in first.children.items()}
            == {a: (c.visits, c.reward) for a, c in again.children.items()})
    assert sum(c.visits for c in first.children.values()) == 120


def test_widening_keeps_a_node_to_a_few_children_where_plain_search_tries_them_all():
    rules = make_rules("balloons", 3)
    state = rules.initial_state(2)
    seat = rules.current_player(state)
    moves = len(rules.legal_actions(state))
    assert moves >= 30  # the opening choice of a balloon and where it goes
    plain = MCTSBot(iterations=moves, cutoff=2).search(rules, state, seat, random.Random(1))
    assert len(plain.children) == moves  # each iteration tried a new move at the root
    wide = MCTSBot(iterations=moves, cutoff=2, widening=1.0).search(rules, state, seat,
                                                                   random.Random(1))
    # A new child only while fewer than 1 + W * sqrt(n) (n: the times passed through before).
    assert len(wide.children) <= 2 + (moves - 1) ** 0.5 < moves / 4
    assert sum(c.visits for c in wide.children.values()) == moves


def test_the_prior_tries_the_move_the_evaluation_likes_best_first():
    rules = make_rules("balloons", 2)
    state = rules.initial_state(5)
    seat = rules.current_player(state)
    rank = evaluation_order(rules, state, seat, random.Random(2), None, None)
    assert sorted(rank.values()) == list(range(len(rules.legal_actions(state))))
    best = min(rank, key=rank.get)
    root = MCTSBot(iterations=1, prior=True).search(rules, state, seat, random.Random(2))
    assert list(root.children) == [best]
    # Time out at once: the ranking stops early and the search still answers.
    late = evaluation_order(rules, state, seat, random.Random(2), lambda: True, None)
    assert len(late) <= len(rank)


def test_a_cutoff_in_a_game_without_an_estimate_ranks_the_seats_by_their_evaluation():
    rules = TakeAway(2)
    assert evaluation_estimate(rules, (0, 1, 0)) == {0: 1.0, 1: 0.0}  # seat 0 took the last
    assert evaluation_estimate(rules, (3, 0, None)) == {0: 0.5, 1: 0.5}
    root = MCTSBot(iterations=40, cutoff=1).search(rules, (5, 0, None), 0, random.Random(0))
    assert root.visits == 40


class _Settled(GameHooks):
    def search_settings(self, rules):
        return {"playout": "eval", "tournament": 2, "cutoff": 3}

    def default_bot(self, rules):
        return "mcts:77" if rules.players == 2 else "uct:55"


class _BadSettings(GameHooks):
    def search_settings(self, rules):
        return {"playout": "clever"}


class SettledTakeAway(TakeAway):
    name = "settled_takeaway"
    traits = aloftnb.Traits(player_counts=(2, 3))


@pytest.fixture()
def settled():
    registry.register(SettledTakeAway, hooks=_Settled())
    yield make_rules("settled_takeaway", 2)
    registry._GAMES.pop("settled_takeaway")
    registry._HOOKS.pop("settled_takeaway", None)


def test_a_game_sets_the_search_and_its_default_bot_and_a_bot_overrides_them(settled):
    resolved = MCTSBot().resolved(settled)
    assert (resolved["playout"], resolved["tournament"], resolved["cutoff"]) == ("eval", 2, 3)
    assert resolved["epsilon"] == SEARCH_DEFAULTS["epsilon"]
    assert MCTSBot(playout="mast", cutoff=5).resolved(settled)["playout"] == "mast"
    spec = default_bot("settled_takeaway", players=2)
    assert spec == "mcts:77:c0.7:eval:e0.2:t2:cut3:noprior:b0"
    assert make_bot(spec).resolved(settled) == resolved  # written out, it plays the same
    assert default_bot("settled_takeaway", players=3) == "uct:55"
    assert default_bot(settled) == spec
    assert explicit_spec(make_bot("greedy"), settled) == "greedy"
    with pytest.raises(AloftnbError, match="players"):
        default_bot("settled_takeaway")


def test_a_games_bad_search_settings_are_named_when_a_search_reads_them():
    registry.register(type("BadTakeAway", (TakeAway,), {"name": "bad_takeaway"}),
                      hooks=_BadSettings())
    try:
        with pytest.raises(AloftnbError, match="bad_takeaway's search_settings playout"):
            MCTSBot(iterations=5).choose(make_rules("bad_takeaway", 2), (5, 0, None), 0,
                                         random.Random(0))
    finally:
        registry._GAMES.pop("bad_takeaway")
        registry._HOOKS.pop("bad_takeaway", None)


def test_hooks_written_as_a_plain_object_may_give_settings_and_a_default_bot():
    class Plain:
        @staticmethod
        def search_settings(rules):
            return {"cutoff": 4}

        @staticmethod
        def default_bot(rules):
            return "uct:10"

    registry.register(type("PlainTakeAway", (TakeAway,), {"name": "plain_takeaway"}),
                      hooks=Plain())
    try:
        rules = make_rules("plain_takeaway", 2)
        assert MCTSBot().resolved(rules)["cutoff"] == 4
        assert default_bot(rules) == "uct:10"
    finally:
        registry._GAMES.pop("plain_takeaway")
        registry._HOOKS.pop("plain_takeaway", None)
    with pytest.raises(InvalidGame, match="default_bot"):
        registry.register(type("Odd", (TakeAway,), {"name": "odd_takeaway"}),
                          hooks=type("H", (), {"default_bot": staticmethod(lambda: "mcts")})())


@pytest.mark.parametrize(("game", "players", "options"), [
    ("balloons", 2, {}), ("alu", 2, {}), ("commodores", 3, {}), ("cloudspire", 2, {}),
    ("cloudspire", 1, {"mode": "solo"})])
def test_every_games_default_bot_is_a_spec_that_plays(game, players, options):
    rules = make_rules(game, players, **options)
    spec = default_bot(rules)
    bot = make_bot(spec)
    assert bot.spec == spec and default_bot(game, players=players, **options) == spec
    state = rules.initial_state(1)
    rng = random.Random(2)
    while rules.is_chance(state):
        state = rules.apply(state, rules.sample_chance(state, rng))
    seat = rules.current_player(state)
    small = make_bot(spec.split(":")[0] + ":8:" + ":".join(spec.split(":")[2:])
                     if spec.split(":")[1].isdigit() else spec)
    assert small.choose(rules, state, seat, random.Random(0)) in rules.legal_actions(state)


def test_each_game_sets_the_search_its_evidence_chose():
    # Balloons: cut playouts in competitive games only; commodores: widening; the others: the
    # defaults. uct keeps its own cutoff rule (the game's PLAYOUT_DECISIONS, none in balloons).
    assert ":cut24:" in default_bot("balloons", players=3)
    assert ":cut" not in default_bot("balloons", players=1, mode="solo")
    assert ":cut" not in default_bot("balloons", players=2, mode="cooperative")
    assert ":pw1:" in default_bot("commodores", players=3)
    assert ":pw" not in default_bot("alu", players=2)
    balloons = make_rules("balloons", 2)
    assert registry.hooks_of(balloons).PLAYOUT_DECISIONS is None
    assert explicit_spec(make_bot("uct"), balloons) == "uct:1000"


def test_balloons_estimate_favours_the_seat_its_evaluation_favours():
    rules, state = _balloons_after(3, 20)
    hooks = registry.hooks_of(rules)
    values = [hooks.evaluate(rules, state, seat) for seat in range(3)]
    worth = hooks.estimate(rules, state)
    assert set(worth) == {0, 1, 2} and all(0.0 < v < 1.0 for v in worth.values())
    assert max(worth, key=worth.get) == max(range(3), key=values.__getitem__)
    assert min(worth, key=worth.get) == min(range(3), key=values.__getitem__)
    solo = make_rules("balloons", 1, mode="solo")
    start = solo.initial_state(0)
    assert hooks.estimate(solo, start) == hooks.rewards(solo, start)


def test_root_parallel_search_adds_up_its_workers_and_repeats_for_a_seed():
    rules = make_rules("balloons", 3)
    state = rules.initial_state(6)
    seat = rules.current_player(state)
    bot = MCTSBot(iterations=40, workers=2)
    root = bot.search(rules, state, seat, random.Random(5))
    assert root.visits == 80 and sum(c.visits for c in root.children.values()) == 80
    again = bot.search(rules, state, seat, random.Random(5))
    assert ({a: c.visits for a, c in root.children.items()}
            == {a: c.visits for a, c in again.children.items()})
    assert bot.choose(rules, state, seat, random.Random(5)) == bot.choose(
        rules, state, seat, random.Random(5))
    # Each worker searched with its own seed: one worker's tree is not the whole.
    alone = MCTSBot(iterations=40).search(rules, state, seat, random.Random(5))
    assert alone.visits == 40


def test_asking_for_a_bot_without_naming_one_gets_the_games_default():
    rules = make_rules("alu", 2)
    assert bot_for("bot", rules).spec == default_bot(rules)
    assert bot_for("greedy", rules).spec == "greedy"
    results = aloftnb.simulate("alu", players=2, bots=["bot", "random"], games=1, seed=1,
                               workers=1, progress=False, max_steps=6)
    assert results.loc[0, "bot_0"] == default_bot(rules)
    # A board's seat menu offers it, and choosing it seats the game's default bot.
    match = aloftnb.new_match("alu", players=2, seed=3)
    board = match.board()
    assert board.bot_names[0] == "bot" and set(BOTS) <= set(board.bot_names)
    board.control.set_controller(1, "bot")
    assert board.control.bots[1].spec == default_bot(match.rules)
    assert board.seats[1]["controller"] == board.control.bots[1].name
    board.close()
    with pytest.raises(AloftnbError, match="no bot called"):
        bot_for("bots", rules)


def test_a_score_bonus_blends_the_outcome_with_each_seats_margin_by_points():
    rules = make_rules("balloons", 3)
    state = rules.initial_state(2)
    rng = random.Random(3)
    while not rules.is_over(state):
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    base = registry.hooks_of(rules).rewards
    blended = with_score_bonus(base, 0.25)(rules, state)
    scores = rules.scores(state)
    assert len(set(scores.values())) > 1  # a game whose margins differ
    everything = sum(abs(v) for v in scores.values())
    for seat in range(3):
        rivals_mean = (sum(scores.values()) - scores[seat]) / 2
        margin = 0.5 + 0.5 * (scores[seat] - rivals_mean) / everything
        assert blended[seat] == pytest.approx(0.75 * base(rules, state)[seat] + 0.25 * margin)
    # With two seats the margin still tells a close game from a rout (a place would not).
    close = with_score_bonus(lambda r, s: {0: 1.0, 1: 0.0}, 0.5)
    fake = type("Scored", (), {"players": 2, "higher_score_wins": True,
                               "scores": lambda self, s: s})()
    assert close(fake, {0: 11, 1: 9})[0] < close(fake, {0: 20, 1: 0})[0]
    assert scored_rivals(rules)
    assert not scored_rivals(make_rules("balloons", 3, mode="cooperative"))
    assert not scored_rivals(make_rules("alu", 2))  # won or lost, not on points
    bot = make_bot("mcts:50:b0.25")
    assert bot.spec == "mcts:50:b0.25" and bot.resolved(rules)["bonus"] == 0.25
    assert bot.choose(rules, rules.initial_state(1), 0, random.Random(0)) in rules.legal_actions(
        rules.initial_state(1))
    with pytest.raises(AloftnbError, match="bonus must be"):
        make_bot("mcts:50:b2")


def _balloons_after(players, moves, seed=3):
    rules = make_rules("balloons", players)
    state = rules.initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actions = rules.legal_actions(state)
        state = rules.apply(state, actions[int(rng.random() * len(actions))])
    return rules, state


def test_a_rival_plays_as_one_who_knows_its_own_secret():
    rules, state = _balloons_after(2, 6)
    seat = rules.current_player(state)
    rival = 1 - seat
    hooks = registry.hooks_of(rules)
    assert hooks.secret(rules, state, rival) == state.colours[rival]
    solo = make_rules("balloons", 1, mode="solo")
    assert hooks.secret(solo, solo.initial_state(0), 0) is None
    root = make_bot("mcts:300").search(rules, state, seat, random.Random(5))
    unseen = {c for c in range(5) if c != state.colours[seat]}
    split = [child for child in root.children.values() if child.visits > 8]
    assert split
    for child in split:  # the rival moves next: its moves are kept per colour it may hold
        assert not child.children and child.secrets
        assert set(child.secrets) <= unseen and len(child.secrets) >= 2
        assert sum(inner.visits for inner in child.secrets.values()) == child.visits - 1
    plain = make_bot("mcts:300:nosecrets").search(rules, state, seat, random.Random(5))
    assert all(child.secrets is None for child in plain.children.values())
    assert any(child.children for child in plain.children.values())
    assert default_bot(rules).endswith(":secrets")  # written out where the game has secrets
    assert "secrets" not in default_bot("alu", players=2)
    # A game without secrets (ALU's hooks do not override the hook) keeps one tree.
    alu = make_rules("alu", 2)
    alu_root = make_bot("mcts:100").search(alu, alu.initial_state(0), 0, random.Random(1))
    assert all(child.secrets is None for child in alu_root.children.values())
