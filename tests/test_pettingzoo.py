"""The PettingZoo adapter, checked with PettingZoo's own api_test and seed_test on every game, and
the AEC half of its max_cycles_test (the parallel half needs every agent to act each cycle, which
turn-based games do not)."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from harbour_game import HarbourHooks, HarbourRules
from pettingzoo.test import api_test, seed_test

import aloftnb
from aloftnb.core.registry import register
from aloftnb.pettingzoo import env

register(HarbourRules, hooks=HarbourHooks())

CONFIGS = [
    ("balloons", 2, {}),
    ("balloons", 3, {"edition": "choice"}),
    ("balloons", 5, {}),
    ("balloons", 1, {"mode": "solo"}),
    ("balloons", 4, {"mode": "cooperative", "edition": "choice"}),
    ("balloons", 2, {"columns": 6, "altitudes": 2, "balloons": ["GP", "GR", "lion"]}),
    ("alu", 2, {}),
    ("alu", 2, {"columns": 4, "rows": 3, "construction": 8, "iron": 3}),
    ("commodores", 3, {}),
    ("commodores", 2, {"two_players": True, "radius": 3, "turn_limit": 6}),
    ("cloudspire", 2, {}),
    ("cloudspire", 3, {"mode": "cooperative", "waves": 2}),
    ("harbour", 1, {}),
    ("harbour", 3, {"rounds": 6}),
]
IDS = [f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
       for g, p, o in CONFIGS]


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(game, players, options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game, players, render_mode="ansi", **options), num_cycles=400)
    # api_test warns about dict observations unless the environment is one of PettingZoo's own
    # that it lists by name; the dict with an action mask is what the classic games use too.
    dict_observations = {
        "Observation is not a NumPy array",
        ("Observation space for each agent probably should be gymnasium.spaces.box or "
         "gymnasium.spaces.discrete")}
    assert {str(w.message) for w in caught} <= dict_observations


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(game, players, options):
    seed_test(lambda: env(game, players, **options), num_cycles=60)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_max_cycles_truncates_when_that_many_rounds_are_played(game, players, options):
    """pettingzoo.test.max_cycles_test, AEC half (the parallel half needs every agent to act in
    every cycle, which turn-based games do not). A cycle is a round of the game. Where a seat's
    turn is one move (balloons' fixed edition, harbour), every agent is seen max_cycles + 1 times
    (its moves, then its truncation), as PettingZoo's test asserts; where a turn is several moves
    (balloons' choice edition with its wind step, ALU) each agent is seen once per move plus once.
    """
    max_cycles = 3
    zoo = env(game, players, max_cycles=max_cycles, **options)
    zoo.reset(seed=3)
    rules = zoo.rules
    counts = np.zeros(len(zoo.possible_agents))
    moves = np.zeros(len(zoo.possible_agents))
    rng = random.Random(1)
    truncated = False
    for agent in zoo.agent_iter():
        seat = zoo.possible_agents.index(agent)
        counts[seat] += 1
        observation, _, termination, truncation, _ = zoo.last()
        truncated |= truncation
        if not (termination or truncation):
            moves[seat] += 1
        legal = np.flatnonzero(observation["action_mask"])
        zoo.step(None if termination or truncation else int(rng.choice(legal)))
    if not truncated:  # the game ended by itself first: harbour lost in two storms, tiny ALU
        assert rules.is_over(zoo.game_state)
        assert game == "harbour" or options.get("construction") == 8
        return
    assert rules.round(zoo.game_state) == max_cycles + 1 and not rules.is_over(zoo.game_state)
    assert list(counts) == list(moves + 1)
    one_move_turns = game == "harbour" or (game == "balloons" and "edition" not in options)
    if one_move_turns:
        assert max_cycles == np.max(counts) - 1
        assert max_cycles == np.median(counts) - 1


def test_a_seeded_game_replays_a_match_with_the_same_seed_and_chance():
    zoo = env("harbour", 3, rounds=6)
    zoo.reset(seed=12)
    match = aloftnb.new_match("harbour", players=3, seed=12, rounds=6)
    rules = zoo.rules
    rng = random.Random(5)
    for agent in zoo.agent_iter():
        observation, _, termination, truncation, _ = zoo.last()
        if termination or truncation:
            zoo.step(None)
            continue
        assert zoo.possible_agents.index(agent) == match.current_player
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        zoo.step(index)
        match.play(rules.action_from_index(index))
        assert zoo.game_state == match.state  # chance drawn from the same stream
    assert match.is_over


def test_rewards_come_from_the_outcome_at_the_end():
    zoo = env("alu", 2, columns=4, rows=3, construction=6, iron=2)
    zoo.reset(seed=1)
    totals = dict.fromkeys(zoo.possible_agents, 0.0)
    rng = random.Random(2)
    for agent in zoo.agent_iter():
        observation, reward, termination, truncation, _ = zoo.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])
        zoo.step(None if termination or truncation else int(rng.choice(legal)))
    result = zoo.rules.outcome(zoo.game_state)
    assert sum(totals.values()) == 0.0
    if len(result.winners) == 1:
        assert totals[f"player_{result.winners[0]}"] == 1.0


def test_illegal_actions_are_refused_and_change_nothing():
    zoo = env("balloons", 3)
    zoo.reset(seed=4)
    before = zoo.game_state
    observation = zoo.observe(zoo.agent_selection)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    for junk, message in ((illegal, "not legal now"), (10_000, "outside"), ("up", "index"),
                          (None, "index"), (True, "index")):
        with pytest.raises(aloftnb.IllegalAction, match=message):
            zoo.step(junk)
        assert zoo.game_state == before


def test_only_the_agent_to_move_has_a_mask_and_observations_hide_others_cards():
    zoo = env("balloons", 3)
    zoo.reset(seed=6)
    to_move = zoo.agent_selection
    for agent in zoo.possible_agents:
        mask = zoo.observe(agent)["action_mask"]
        assert mask.any() == (agent == to_move)
    rules = zoo.rules
    for seat, agent in enumerate(zoo.possible_agents):
        world = rules.determinize(zoo.game_state, seat, random.Random(seat))
        assert np.array_equal(zoo.observe(agent)["observation"],
                              np.asarray(rules.observation(world, seat), np.float32))


def test_render_modes():
    zoo = env("alu", 2, render_mode="ansi")
    zoo.reset(seed=0)
    assert "circle to act" in zoo.render()
    drawing = env("balloons", 2, render_mode="svg")
    drawing.reset(seed=0)
    assert drawing.render().startswith("<svg")
    assert env("balloons", 2).render() is None
    with pytest.raises(aloftnb.AloftnbError, match="render_mode"):
        env("balloons", 2, render_mode="human")


def test_players_default_to_the_fewest_the_options_allow():
    assert env("balloons").rules.players == 2
    assert env("balloons", mode="solo").rules.players == 1
    with pytest.raises(aloftnb.InvalidOptions):
        env("balloons", 3, mode="solo")


def test_a_game_without_an_encoding_is_refused_with_a_reason():
    class UnencodedHarbour(HarbourRules):
        name = "harbour-unencoded-zoo"
        num_distinct_actions = aloftnb.Rules.num_distinct_actions

    register(UnencodedHarbour)
    with pytest.raises(aloftnb.AloftnbError, match="declares no action and observation encoding"):
        env("harbour-unencoded-zoo", 2)


def test_a_missing_pettingzoo_names_the_extra_to_install(monkeypatch):
    import builtins
    import importlib
    import sys

    real_import = builtins.__import__

    def without_pettingzoo(name, *args, **kwargs):
        if name.split(".")[0] in ("pettingzoo", "gymnasium"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_pettingzoo)
    monkeypatch.delitem(sys.modules, "aloftnb.pettingzoo")
    monkeypatch.delitem(sys.modules, "aloftnb.adapters.pettingzoo", raising=False)
    import aloftnb.adapters
    monkeypatch.delattr(aloftnb.adapters, "pettingzoo", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'aloftnb\[pettingzoo\]'"):
        importlib.import_module("aloftnb.pettingzoo")


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_observations_and_masks_are_the_rules_own_at_every_step(game, players, options):
    """The adapter fills its arrays from the encoding's non-zero entries and keeps them per
    state: they must be rules.observation as float32, byte for byte, and the mask the legal
    indices, for every seat along a game (asked twice, and changed by the caller in between)."""
    zoo = env(game, players, **options)
    zoo.reset(seed=2)
    rules = zoo.rules
    rng = random.Random(2)
    for _agent in zoo.agent_iter(max_iter=300):
        state = zoo.game_state
        for seat, other in enumerate(zoo.possible_agents):
            expected = np.asarray(rules.observation(state, seat), np.float32)
            seen = zoo.observe(other)
            assert seen["observation"].shape == rules.observation_shape()
            assert seen["observation"].tobytes() == expected.tobytes()
            seen["observation"][...] = 7.0  # the caller's copy, not the adapter's
            assert zoo.observe(other)["observation"].tobytes() == expected.tobytes()
        observation, _, termination, truncation, _ = zoo.last()
        if termination or truncation:
            assert not observation["action_mask"].any()
            zoo.step(None)
            continue
        legal = sorted(rules.action_to_index(a) for a in rules.legal_actions(state))
        assert list(np.flatnonzero(observation["action_mask"])) == legal
        zoo.step(legal[int(rng.random() * len(legal))])


def test_dense_observations_from_entries_write_the_ones_first():
    from aloftnb.kit.observations import dense

    assert dense(5, ([0, 3], [3, 4], [0.5, 0.25])) == [1.0, 0.0, 0.0, 0.5, 0.25]
    assert dense(2, ([], [], [])) == [0.0, 0.0]


def test_the_observation_array_is_built_only_when_read_and_is_of_the_state_observed(
        monkeypatch):
    """PettingZoo's loop reads only the mask at most steps, so observe builds the array on the
    first read; read later, after other steps, it is still the array of the state observed."""
    zoo = env("balloons", 3)
    zoo.reset(seed=5)
    rules = zoo.rules
    built = []
    real = type(zoo)._observation_array

    def counted(self, state, seat):
        built.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(type(zoo), "_observation_array", counted)
    seats = {agent: seat for seat, agent in enumerate(zoo.possible_agents)}
    kept = []  # (observation dict, its agent, the state observed), unread
    rng = random.Random(5)
    for agent in zoo.agent_iter(max_iter=40):
        observation, _, termination, truncation, _ = zoo.last()
        kept.append((observation, agent, zoo.game_state))
        mask = observation["action_mask"]
        if termination or truncation:
            zoo.step(None)
            continue
        legal = np.flatnonzero(mask)
        zoo.step(int(legal[int(rng.random() * len(legal))]))
    assert built == []  # the masks were read, never an array
    for observation, agent, state in reversed(kept):  # read in another order than observed
        expected = np.asarray(rules.observation(state, seats[agent]), np.float32)
        assert observation["observation"].tobytes() == expected.tobytes()
    assert built == [seats[agent] for _, agent, _ in reversed(kept)]
    assert observation["observation"] is observation["observation"]  # built once
    assert len(built) == len(kept)  # (not again by the read above)


def test_an_observation_not_yet_built_behaves_as_the_whole_dict():
    import copy
    import pickle

    zoo = env("alu", 2)
    zoo.reset(seed=1)
    agent = zoo.agent_selection
    whole = {"observation": np.asarray(zoo.rules.observation(zoo.game_state, 0), np.float32),
             "action_mask": zoo.observe(agent)["action_mask"]}

    def same(seen):
        assert isinstance(seen, dict)
        assert list(seen) == ["observation", "action_mask"]
        for key, value in whole.items():
            assert np.array_equal(seen[key], value)

    def fresh():
        return zoo.observe(agent)

    assert isinstance(fresh(), dict)
    assert len(fresh()) == 2 and "observation" in fresh() and "action_mask" in fresh()
    assert "other" not in fresh() and fresh().get("other", 3) == 3
    assert list(fresh()) == list(fresh().keys()) == ["observation", "action_mask"]
    assert np.array_equal(fresh().get("observation"), whole["observation"])
    assert np.array_equal(list(fresh().values())[0], whole["observation"])
    assert np.array_equal(dict(fresh().items())["observation"], whole["observation"])
    for copied in (fresh().copy(), dict(fresh()), {**fresh()}, fresh() | {},
                   {} | fresh(), pickle.loads(pickle.dumps(fresh())), copy.deepcopy(fresh()),
                   copy.copy(fresh())):
        same(copied)
    assert type(fresh().copy()) is dict and type(pickle.loads(pickle.dumps(fresh()))) is dict
    assert repr(fresh()).startswith("{'observation': array([")
    popped = fresh()
    assert np.array_equal(popped.pop("observation"), whole["observation"])
    assert list(popped) == ["action_mask"] and len(popped) == 1
    replaced = fresh()
    replaced["observation"] = "mine"
    assert replaced["observation"] == "mine" and len(replaced) == 2
    emptied = fresh()
    emptied.clear()
    assert len(emptied) == 0 and "observation" not in emptied
    with pytest.raises(KeyError):
        emptied["observation"]
    with pytest.raises(KeyError):
        fresh()["other"]
    observed = fresh()
    assert observed == observed and not observed != observed
    assert zoo.observation_space(agent).contains(fresh())


@pytest.mark.parametrize("copy_of", ["deepcopy", "pickle"])
def test_an_environment_copied_mid_game_plays_on_as_the_original(copy_of):
    import copy
    import pickle

    zoo = env("commodores", 3)
    zoo.reset(seed=3)
    rng = random.Random(3)

    def play(environment, steps):
        taken = []
        for _ in range(steps):
            observation = environment.last()[0]
            legal = np.flatnonzero(observation["action_mask"])
            taken.append(int(legal[int(rng.random() * len(legal))]))
            environment.step(taken[-1])
        return taken

    play(zoo, 15)
    twin = copy.deepcopy(zoo) if copy_of == "deepcopy" else pickle.loads(pickle.dumps(zoo))
    assert twin.game_state == zoo.game_state and twin.steps == zoo.steps
    assert twin.agent_selection == zoo.agent_selection
    taken = play(zoo, 20)
    for index in taken:  # the same moves are legal in the copy, and lead to the same states
        assert twin.observe(twin.agent_selection)["action_mask"][index] == 1
        twin.step(index)
    assert twin.game_state == zoo.game_state and twin.steps == zoo.steps
    assert np.array_equal(twin.observe("player_0")["observation"],
                          zoo.observe("player_0")["observation"])
