"""The OpenSpiel adapter, checked with OpenSpiel's own tests and algorithms.

`pyspiel.random_sim_test` (serialization on) and the checks of the wheel's
open_spiel/python/tests/games_sim_test.py run on every game with a few option sets; OpenSpiel's
MCTS plays complete games of each through the adapter, ISMCTS those with hidden information.
Budgets are tiny: these prove the plumbing, not the play.
"""

from __future__ import annotations

import pickle
import random
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from harbour_game import HarbourHooks, HarbourRules
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.tests import games_sim_test

import aloftnb
import aloftnb.openspiel as aos
from aloftnb.adapters.returns import outcome_returns
from aloftnb.core.bots import make_bot
from aloftnb.core.registry import register, rules_class

register(HarbourRules, hooks=HarbourHooks())  # after the adapter: registered later, still there


class SampledHarbour(HarbourRules):
    """Storm harbour whose storm is drawn (sampled chance) instead of listed."""

    name = "harbour-sampled"
    traits = replace(HarbourRules.traits, chance="sampled")


register(SampledHarbour)

GAMES = [
    "aloftnb_balloons",
    "aloftnb_balloons(players=3,edition=choice)",
    "aloftnb_balloons(players=5)",
    "aloftnb_balloons(players=1,mode=solo)",
    "aloftnb_balloons(players=4,mode=cooperative,edition=choice)",
    "aloftnb_balloons(players=2,columns=6,altitudes=2,balloons=GP GR PW lion,trucks=3,seed=5)",
    "aloftnb_alu",
    "aloftnb_alu(columns=4,rows=3,construction=8,iron=3)",
    "aloftnb_commodores",
    "aloftnb_commodores(players=4,turn_limit=8)",
    "aloftnb_commodores(players=2,two_players=True,radius=2,turn_limit=5)",
    "aloftnb_cloudspire",
    "aloftnb_cloudspire(players=3,waves=2)",
    "aloftnb_cloudspire(players=1,mode=solo,waves=2)",
    "aloftnb_harbour(players=1)",
    "aloftnb_harbour(players=3,rounds=6)",
    "aloftnb_harbour_sampled(players=2,seed=3)",
    # edge set-ups: the smallest sky, the smallest island, a wide sky with few trucks
    "aloftnb_balloons(players=2,edition=choice,columns=3,altitudes=1,trucks=2)",
    "aloftnb_alu(columns=2,rows=2,construction=1,iron=0,camps=2,raiding_pieces=1)",
    "aloftnb_balloons(players=5,mode=cooperative,columns=20,altitudes=6,trucks=3)",
]


@pytest.mark.parametrize("name", GAMES)
def test_pyspiel_random_sim_test_with_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_checks_of_openspiels_games_sim_test(name):
    np.random.seed(7)
    checks = games_sim_test.GamesSimTest("test_pig")
    checks.sim_game(pyspiel.load_game(name))


def test_every_registered_game_is_an_openspiel_game():
    registered = {g.short_name for g in pyspiel.registered_games()}
    for entry in aloftnb.games():
        cls = rules_class(entry["name"])
        if cls.num_distinct_actions is not aloftnb.Rules.num_distinct_actions:
            assert aos.short_name(entry["name"]) in registered
    assert "aloftnb_harbour" in registered  # registered after aloftnb.openspiel was imported


class UnencodedHarbour(HarbourRules):
    """Storm harbour without its encoding, like a game written in a notebook without one."""

    name = "harbour-unencoded"
    num_distinct_actions = aloftnb.Rules.num_distinct_actions


def test_games_without_an_encoding_are_left_out_with_a_reason():
    register(UnencodedHarbour)
    assert "aloftnb_harbour_unencoded" not in {g.short_name for g in pyspiel.registered_games()}
    aos.register_game("harbour-unencoded")  # asked for explicitly: loading it says why not
    with pytest.raises(aloftnb.AloftnbError, match="declares no action and observation encoding"):
        pyspiel.load_game("aloftnb_harbour_unencoded")


def test_game_types_follow_the_traits():
    kinds = pyspiel.GameType
    balloons = pyspiel.load_game("aloftnb_balloons(players=3)").get_type()
    assert balloons.chance_mode == kinds.ChanceMode.DETERMINISTIC
    assert balloons.information == kinds.Information.IMPERFECT_INFORMATION
    assert balloons.utility == kinds.Utility.ZERO_SUM
    solo = pyspiel.load_game("aloftnb_balloons(players=1,mode=solo)").get_type()
    assert solo.information == kinds.Information.PERFECT_INFORMATION
    assert solo.utility == kinds.Utility.IDENTICAL
    harbour = pyspiel.load_game("aloftnb_harbour(players=2)")
    assert harbour.get_type().chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
    assert harbour.max_chance_outcomes() == 6 and harbour.num_distinct_actions() == 3
    alu = pyspiel.load_game("aloftnb_alu")
    assert alu.get_type().information == kinds.Information.PERFECT_INFORMATION
    assert alu.max_game_length() == aloftnb.make_rules("alu", 2).max_length()


def test_parameters_reach_the_rules():
    game = pyspiel.load_game("aloftnb_balloons(players=3,edition=choice,trucks=5)")
    rules = game.rules
    assert rules.players == 3 and rules.edition == "choice" and rules.truck_count == 5
    assert rules.options["balloons"] == aloftnb.make_rules("balloons", 3,
                                                         edition="choice").options["balloons"]
    listed = aos.load_game("balloons", players=2, balloons=["GP", "RW", "wolf"])
    assert listed.rules.ids == ("GP", "RW", "wolf")
    assert listed.num_distinct_actions() == 3 * 4 + 3 * 3 + 3
    with pytest.raises(aloftnb.InvalidOptions, match="solo balloons is for 1 player"):
        pyspiel.load_game("aloftnb_balloons(players=3,mode=solo)")


def test_chance_nodes_carry_the_games_probabilities():
    game = pyspiel.load_game("aloftnb_harbour(players=2)")
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(1)
    assert state.is_chance_node()
    rules = game.rules
    expected = sorted((rules.chance_to_index(o), p)
                      for o, p in rules.chance_outcomes(state.aloftnb_state))
    assert state.chance_outcomes() == expected == [(i, 1 / 6) for i in range(6)]
    state.apply_action(4)  # the storm rolls 5 against 3 sandbags: a breach
    assert state.aloftnb_state.breaches == 1 and state.aloftnb_state.last_roll == 5


def test_sampled_chance_offers_the_outcome_the_chance_stream_draws():
    game = pyspiel.load_game("aloftnb_harbour_sampled(players=2,seed=8)")
    match = aloftnb.new_match("harbour-sampled", players=2, seed=8)
    state = game.new_initial_state()
    for bags in (1, 2):
        state.apply_action(bags)
        match.play({"type": "commit", "bags": bags})  # the match draws the storm by itself
    [(index, probability)] = state.chance_outcomes()
    assert probability == 1.0
    state.apply_action(index)
    assert state.aloftnb_state == match.state


def test_the_same_seed_gives_the_same_game_as_a_match():
    game = pyspiel.load_game("aloftnb_balloons(players=3,seed=11)")
    match = aloftnb.new_match("balloons", players=3, seed=11)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        index = rng.choice(state.legal_actions())
        match.play(game.rules.action_from_index(index))
        state.apply_action(index)
        assert state.aloftnb_state == match.state
    result = match.rules.outcome(match.state)
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    for winner in result.winners:
        assert returns[winner] == max(returns)


def test_rank_returns_are_zero_sum_and_ties_share():
    rules = aloftnb.make_rules("alu", 2)
    draw = rules.initial_state(0)._replace(player=-1, winners=(0, 1), reason="no_actions")
    assert outcome_returns(rules, draw) == [0.0, 0.0]
    won = draw._replace(winners=(1,))
    assert outcome_returns(rules, won) == [-1.0, 1.0]
    # Three seats with scores: the winner beats both; the other two rank by score, or tie.
    scored = SimpleNamespace(players=3, higher_score_wins=True,
                             traits=aloftnb.Traits(player_counts=(3,)))
    scored.outcome = lambda state: aloftnb.Outcome((0,), state)
    assert outcome_returns(scored, {0: 9, 1: 4, 2: 6}) == [1.0, -1.0, 0.0]
    assert outcome_returns(scored, {0: 9, 1: 5, 2: 5}) == [1.0, -0.5, -0.5]


def test_cooperative_returns_are_the_shared_reward():
    game = pyspiel.load_game("aloftnb_balloons(players=3,mode=cooperative,seed=2)")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    rules = game.rules
    score = rules.scores(state.aloftnb_state)[0]  # shared, lower is better
    shared = 1.0 - score / (rules.columns + 3 * len(rules.ids))  # balloons' rewards hook
    assert state.returns() == [pytest.approx(shared)] * 3
    harbour = pyspiel.load_game("aloftnb_harbour(players=2)")
    lost = harbour.new_initial_state()
    for action in (0, 0, 5, 0, 0, 5):  # no sandbags against two sixes: two breaches
        lost.apply_action(action)
    assert lost.is_terminal() and lost.returns() == [0.0, 0.0]


def test_observations_and_information_states_are_the_seats_own():
    game = pyspiel.load_game("aloftnb_harbour(players=2)")
    state = game.new_initial_state()
    state.apply_action(2)  # seat 0 commits 2 bags in secret
    rules = game.rules
    assert state.observation_string(1) == rules.observation_string(state.aloftnb_state, 1)
    assert np.allclose(state.observation_tensor(1), rules.observation(state.aloftnb_state, 1))
    other = game.new_initial_state()
    other.apply_action(0)  # a different secret: seat 1 cannot tell the two apart
    assert state.information_state_string(1) == other.information_state_string(1)
    assert state.information_state_string(0) != other.information_state_string(0)
    resampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensors_and_legal_actions_are_as_before_at_every_step(name):
    """observation_tensor is filled from the encoding's non-zero entries: rules.observation
    as float32, byte for byte, for every seat along a game. legal_actions() is answered in
    Python: the same list as pyspiel's own (chance steps and the end included)."""
    game = pyspiel.load_game(name)
    rules, state, rng = game.rules, game.new_initial_state(), random.Random(3)
    for _ in range(150):
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(rules.players):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        if state.is_terminal():
            break
        for seat in range(rules.players):
            expected = np.asarray(rules.observation(state.aloftnb_state, seat), np.float32)
            tensor = np.asarray(state.observation_tensor(seat), np.float32)
            assert tensor.tobytes() == expected.tobytes()
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])


def test_games_and_states_pickle():
    game = pyspiel.load_game("aloftnb_balloons(players=3,edition=choice)")
    state = game.new_initial_state()
    for index in state.legal_actions()[:1] * 1:
        state.apply_action(index)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def _answers_for_its_own_state(state, rules):
    """is_terminal, current_player and legal_actions say what the rules say of the aloftnb
    state this pyspiel state is at."""
    at = state.aloftnb_state
    seat = rules.current_player(at)
    assert state.is_terminal() == rules.is_over(at)
    assert state.current_player() == (pyspiel.PlayerId.TERMINAL if seat is None
                                      else pyspiel.PlayerId.CHANCE if seat == aos.CHANCE
                                      else seat)
    if seat is not None and seat >= 0:
        indices = {rules.action_to_index(action) for action in rules.legal_actions(at)}
        assert state.legal_actions() == sorted(indices)


@pytest.mark.parametrize("name, first", [
    ("aloftnb_balloons(players=3)", 8), ("aloftnb_alu", 8), ("aloftnb_commodores(players=3)", 8),
    ("aloftnb_cloudspire", 8), ("aloftnb_harbour_sampled(players=2,seed=3)", 2)])
def test_clones_and_unpickled_states_play_on_apart_from_their_original(name, first):
    """The four methods pyspiel calls every step are bound to the state they belong to (its
    cursor): a clone and an unpickled copy play on without moving the original, and each
    answers for its own aloftnb state."""
    game = pyspiel.load_game(name)
    rules, rng = game.rules, random.Random(11)

    def play(state, steps):
        for _ in range(steps):
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            _answers_for_its_own_state(state, rules)

    state = game.new_initial_state()
    play(state, first)
    history, text = state.history(), str(state)
    copies = [state.clone(), pickle.loads(pickle.dumps(state))]
    for copy in copies:
        play(copy, 2)
        assert copy.history()[:first] == history and len(copy.history()) == first + 2
        assert str(copy) != text
    assert (state.history(), str(state)) == (history, text)
    _answers_for_its_own_state(state, rules)
    play(state, 1)
    assert [len(copy.history()) for copy in copies] == [first + 2] * 2


def test_a_state_pickled_before_cursors_loads_and_plays_on():
    """Pickles written before this version kept the node itself (and the seed) in the state's
    dict: one loads at that node and plays on."""
    game = pyspiel.load_game("aloftnb_alu")
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    node = state._node
    state.__dict__.clear()
    state.__dict__.update({"_seed": 0, "_node": node})  # that version's dict
    again = pickle.loads(pickle.dumps(state))
    assert again.aloftnb_state == node.state and again.history() == state.history()
    _answers_for_its_own_state(again, game.rules)
    again.apply_action(again.legal_actions()[-1])
    assert again.move_number() == 5
    _answers_for_its_own_state(again, game.rules)


INFO_GAMES = ["aloftnb_balloons(players=3)", "aloftnb_alu", "aloftnb_commodores(players=3)",
              "aloftnb_cloudspire(players=3,waves=2)", "aloftnb_harbour(players=3,rounds=6)",
              "aloftnb_harbour_sampled(players=2,seed=3)"]


@pytest.mark.parametrize("name", INFO_GAMES)
def test_information_states_are_the_same_step_by_step_cold_and_after_pickling(name):
    """A state keeps only its own aloftnb state and its game's first; the ones in between are
    replayed for an information state asked late or after unpickling. All three ways give the
    seat's observations along the game with its own moves, as rules.observation_string does."""
    game = pyspiel.load_game(name)
    rules, rng = game.rules, random.Random(5)
    warm, cold = game.new_initial_state(), game.new_initial_state()
    seats = range(rules.players)
    expected = [rules.observation_string(warm.aloftnb_state, seat) for seat in seats]
    pickled = None
    for step in range(60):
        if warm.is_terminal():
            break
        assert [warm.information_state_string(seat) for seat in seats] == expected
        mover, actions = warm.current_player(), warm.legal_actions()
        action = actions[int(rng.random() * len(actions))]
        for state in (warm, cold):
            state.apply_action(action)
        for seat in seats:
            move = f"> {action}" if mover == seat else ">"
            seen = rules.observation_string(warm.aloftnb_state, seat)
            expected[seat] += f"\n{move}\n{seen}"
        if step == 5:
            pickled, expected_then = pickle.dumps(cold), list(expected)
    assert warm.move_number() > 6, "a game long enough to replay"
    assert [cold.information_state_string(seat) for seat in seats] == expected
    again = pickle.loads(pickled)
    assert again.move_number() == 6
    assert [again.information_state_string(seat) for seat in seats] == expected_then
    again = pickle.loads(pickled)  # (and asked only at the end, from the first state)
    for action in warm.history()[6:]:
        again.apply_action(action)
    assert str(again) == str(warm)
    assert [again.information_state_string(seat) for seat in seats] == expected


def test_a_resampled_state_replays_from_its_world():
    """resample_from_infostate gives a state at another world: pickled, it keeps that world,
    and the other seat's information state ends with the world as that seat sees it."""
    game = pyspiel.load_game("aloftnb_harbour(players=2)")
    rules, state = game.rules, game.new_initial_state()
    state.apply_action(2)  # seat 0 commits 2 bags in secret
    resampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    world = resampled.aloftnb_state
    again = pickle.loads(pickle.dumps(resampled))
    assert again.aloftnb_state == world
    assert again.information_state_string(1) == state.information_state_string(1)
    first = game.new_initial_state().information_state_string(0)
    for copy in (resampled, again):
        assert copy.information_state_string(0) == (
            f"{first}\n> 2\n{rules.observation_string(world, 0)}")
    mover, action = resampled.current_player(), resampled.legal_actions()[0]
    for copy in (resampled, again):
        copy.apply_action(action)
        move = f"> {action}" if mover == 0 else ">"
        assert copy.information_state_string(0) == (
            f"{first}\n> 2\n{rules.observation_string(world, 0)}\n{move}\n"
            f"{rules.observation_string(copy.aloftnb_state, 0)}")
    assert str(again) == str(resampled)


# -- OpenSpiel's search through the adapter --------------------------------------------------------
MCTS_GAMES = [
    "aloftnb_balloons(players=3)",
    "aloftnb_balloons(players=2,edition=choice)",
    "aloftnb_balloons(players=1,mode=solo)",
    "aloftnb_balloons(players=3,mode=cooperative)",
    "aloftnb_alu(columns=5,rows=4,construction=10,iron=4)",
    "aloftnb_alu",
    "aloftnb_harbour(players=3)",
]


def play_out(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state


@pytest.mark.parametrize("name", MCTS_GAMES)
def test_openspiel_mcts_plays_a_complete_game(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng)
    state = play_out(game, [bot] * game.num_players(), 3)
    assert state.is_terminal() and game.rules.is_over(state.aloftnb_state)
    assert len(state.history()) <= game.max_game_length()


@pytest.mark.parametrize("name", ["aloftnb_balloons(players=3)",
                                  "aloftnb_balloons(players=2,edition=choice)",
                                  "aloftnb_harbour(players=3)"])
def test_openspiel_ismcts_plays_a_complete_game_with_hidden_information(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)
    state = play_out(game, [bot] * game.num_players(), 4)
    assert state.is_terminal()


# -- the bot specs ---------------------------------------------------------------------------------
def test_openspiel_bots_take_a_seat_in_a_match_by_spec():
    bot = make_bot("openspiel-mcts:3")
    assert bot.spec == "openspiel-mcts:3" and make_bot(bot.spec) == bot
    assert make_bot("openspiel-ismcts:2:c1.5").spec == "openspiel-ismcts:2:c1.5"
    match = aloftnb.new_match("alu", players=2, seed=2, columns=4, rows=3, construction=6,
                              iron=2)
    rng = random.Random(1)
    while not match.is_over:
        match.play(bot.choose(match.rules, match.state, match.current_player, rng))
    assert match.winners()


def test_openspiel_bots_in_simulate_and_on_a_board():
    results = aloftnb.simulate("balloons", players=2, games=2, seed=1, workers=1, progress=False,
                               bots=["openspiel-ismcts:2", "random"], columns=6, altitudes=2)
    assert (results["error"] == "").all() and len(results) == 2
    match = aloftnb.new_match("harbour", players=2, seed=3)
    board = match.board()
    board.set_seat(0, "openspiel-mcts:2")
    assert board.step() and match.position >= 1


def test_openspiel_mcts_with_a_time_budget_stops_at_its_deadline():
    from aloftnb.adapters.openspiel import _TimedMCTSBot

    bot = make_bot("openspiel-mcts:0.05s")
    assert bot.spec == "openspiel-mcts:0.05s" and bot.budget == "0.05 s per move"
    assert make_bot("openspiel-mcts:40:0.05s").spec == "openspiel-mcts:40:0.05s"
    assert make_bot("openspiel-mcts:40:0.05s").budget == "40 simulations or 0.05 s per move"
    rules = aloftnb.make_rules("balloons", 3, columns=6, altitudes=2)
    state = rules.initial_state(4)
    assert bot.choose(rules, state, 0, random.Random(1)) in rules.legal_actions(state)
    # A deadline already past: the simulation that expands the root is the last, whatever the
    # cap.
    game = pyspiel.load_game("aloftnb_balloons(players=3)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    timed = _TimedMCTSBot(game, 2.0, 100_000, evaluator, random_state=np.random.RandomState(1))
    timed.deadline = time.perf_counter() - 1
    root = timed.mcts_search(game.new_initial_state())
    assert root.explore_count == 2 and root.best_child().explore_count == 1
    timed.deadline = None  # no deadline: the cap alone
    timed.max_simulations = 30
    assert timed.mcts_search(game.new_initial_state()).explore_count == 30
    with pytest.raises(aloftnb.AloftnbError, match="simulations, not seconds"):
        make_bot("openspiel-ismcts:0.5s")
    with pytest.raises(aloftnb.AloftnbError, match="seconds must be"):
        make_bot("openspiel-mcts:0s")


def test_bad_openspiel_bot_specs_are_refused_clearly():
    with pytest.raises(aloftnb.AloftnbError, match="OpenSpiel bots"):
        make_bot("openspiel-alphazero")
    with pytest.raises(aloftnb.AloftnbError, match="cannot read bot"):
        make_bot("openspiel-mcts:many")
    with pytest.raises(aloftnb.AloftnbError, match="must be between 1 and 100000, not 0"):
        make_bot("openspiel-mcts:0")
    # The bounds of aloftnb's own MCTS: a board's seat menu cannot start an endless search.
    with pytest.raises(aloftnb.AloftnbError, match="simulations must be between 1 and 100000"):
        make_bot("openspiel-mcts:100000000")
    for exploration in ("cnan", "cinf", "c1e9"):
        with pytest.raises(aloftnb.AloftnbError, match="exploration must be"):
            make_bot(f"openspiel-ismcts:10:{exploration}")


def test_openspiel_bots_play_reproducibly_from_their_generator():
    rules = aloftnb.make_rules("balloons", 3, columns=6, altitudes=2)
    state = rules.initial_state(4)
    for spec in ("openspiel-mcts:3", "openspiel-ismcts:3"):
        chosen = {make_bot(spec).choose(rules, state, 0, random.Random(9)) for _ in range(3)}
        assert len(chosen) == 1


# -- the optional extra ----------------------------------------------------------------------------
ADAPTER_MODULES = ("aloftnb.openspiel", "aloftnb.pettingzoo")


def test_importing_aloftnb_needs_neither_adapter():
    code = ("import sys, aloftnb; aloftnb.new_match('balloons', players=3, seed=1); "
            "aloftnb.make_bot('mcts'); "
            "print(sorted(m for m in ('numpy', 'pyspiel', 'pettingzoo', 'gymnasium') "
            "if m in sys.modules))")
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "[]"


def test_a_missing_openspiel_names_the_extra_to_install(monkeypatch):
    import builtins
    import importlib
    import sys

    real_import = builtins.__import__

    def without_openspiel(name, *args, **kwargs):
        if name == "pyspiel" or name.startswith("open_spiel"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_openspiel)
    monkeypatch.delitem(sys.modules, "aloftnb.openspiel")
    monkeypatch.delitem(sys.modules, "aloftnb.adapters.openspiel")
    monkeypatch.delattr(aloftnb, "openspiel")
    monkeypatch.delattr(aloftnb.adapters, "openspiel")
    with pytest.raises(ImportError, match=r"pip install 'aloftnb\[openspiel\]'"):
        importlib.import_module("aloftnb.openspiel")
    with pytest.raises(ImportError, match=r"aloftnb\[openspiel\]"):
        make_bot("openspiel-mcts:10")


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_indices_are_refused_and_change_nothing(name):
    """Every index outside the legal set, at every step of a random game (chance steps too),
    raises an error that is both aloftnb's IllegalAction and OpenSpiel's SpielError, and the
    state reads the same after it."""
    from aloftnb.errors import IllegalAction

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(3)
    refused = 0
    while not state.is_terminal():
        if state.is_chance_node():
            legal = [a for a, _ in state.chance_outcomes()]
            top = game.max_chance_outcomes()
        else:
            legal = state.legal_actions()
            top = game.num_distinct_actions()
        illegal = sorted(set(range(top)) - set(legal))
        for index in rng.sample(illegal, min(4, len(illegal))):
            before = (str(state), state.move_number(), state.history())
            with pytest.raises(IllegalAction, match="not a legal action") as refusal:
                state.apply_action(index)
            assert isinstance(refusal.value, pyspiel.SpielError)
            assert (str(state), state.move_number(), state.history()) == before
            refused += 1
        state.apply_action(rng.choice(legal))
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply_action(0)
    if "(" not in name and "harbour" not in name:  # a whole default game meets many
        assert refused > 20


def test_a_negative_seed_is_refused_as_a_match_refuses_it():
    with pytest.raises(aloftnb.errors.InvalidOptions, match="seed must be at least 0"):
        aos.load_game("alu", players=2, seed=-1)
