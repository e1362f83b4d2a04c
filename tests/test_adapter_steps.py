"""The adapters' per-step bookkeeping (aloftnb.adapters.steps) and the shortcuts the adapters take
with it: legal actions by index kept by the actions' identity, the action mask's bytes, and the
OpenSpiel and PettingZoo fast paths giving what the slow ones give."""

from __future__ import annotations

import random
import warnings

import pytest

from aloftnb import Action
from aloftnb.adapters.steps import identity_key, mask_bytes, numbered

np = pytest.importorskip("numpy")


def _counting(table):
    asked = []

    def index_of(owner, action):
        assert owner == "owner"
        asked.append(action)
        return table[action]

    return index_of, asked


def test_numbered_asks_once_per_action_object():
    a, b, c = Action("go", to=1), Action("go", to=2), Action("stay")
    index_of, asked = _counting({a: 4, b: 2, c: 4})
    known: dict = {}
    assert numbered([a, b, c], known, index_of, "owner") == [4, 2, 4]
    assert numbered((c, a), known, index_of, "owner") == [4, 4]
    assert asked == [a, b, c]  # the second call found them by identity
    twin = Action("go", to=1)  # equal to a, another object: asked again
    assert numbered([twin], known, index_of, "owner") == [4]
    assert asked[-1] is twin


def test_numbered_never_takes_an_entry_of_another_object_with_the_same_id():
    a, b = Action("go", to=1), Action("go", to=2)
    known = {identity_key(b): (a, 99)}  # as if a freed action's id were now b's
    index_of, asked = _counting({b: 3})
    assert numbered([b], known, index_of, "owner") == [3]
    assert asked == [b] and known[identity_key(b)] == (b, 3)


def test_numbered_starts_its_table_again_at_the_limit():
    actions = [Action("go", to=i) for i in range(5)]
    index_of, asked = _counting({x: i for i, x in enumerate(actions)})
    known: dict = {}
    assert numbered(actions, known, index_of, "owner", limit=3) == [0, 1, 2, 3, 4]
    assert len(known) == 2 and len(asked) == 5  # cleared before the 4th: holds the last two


class _TwoOfOneIndex:
    """A game's rules in miniature whose three legal actions number 4, 2 and 4."""

    def __init__(self):
        self.a, self.b, self.c = Action("go", to=1), Action("go", to=2), Action("go", to=3)
        self.table = {self.a: 4, self.b: 2, self.c: 4}
        self.applied = []

    class traits:
        chance = "none"

    def num_distinct_actions(self):
        return 5

    def legal_actions(self, state):
        return [self.a, self.b, self.c]

    def action_to_index(self, action):
        return self.table[action]

    def current_player(self, state):
        return 0

    def is_over(self, state):
        return False

    def apply(self, state, action):
        self.applied.append(action)
        return state + 1


def test_two_legal_actions_of_one_index_pettingzoo_plays_the_first_openspiel_the_last():
    """As before the numbering was shared: PettingZoo's step plays the first action of an
    index, OpenSpiel's the last (what moves_by_index's `first` chose)."""
    from aloftnb.adapters.spiel_nodes import root_node
    from aloftnb.adapters.steps import OVER, ZooGame

    rules = _TwoOfOneIndex()
    game = ZooGame(rules, True)
    game.state, game.seat, game.over = 0, 0, False
    assert game.legal_order() == [4, 2, 4] and mask_bytes(5, game.legal_order())[4] == 1
    assert game.move_of(4) is rules.a and game.move_of(3) is None
    assert game.play_index(4) and rules.applied == [rules.a] and game.state == 1
    assert not game.play_index(3) and not game.play_index("4") and game.state == 1
    assert OVER < 0 and game.seat == 0
    node = root_node(rules, 0)
    assert node.decisions() == [2, 4] and node.move_of(4) is rules.c
    assert node.child(4).state == 1 and rules.applied[-1] is rules.c


class _Step:
    """A state that can be referred to weakly (to see which states stay alive)."""

    def __init__(self, n):
        self.n = n


class _Counting:
    """A game's rules in miniature: action i adds i + 1; the seats take turns by parity."""

    name = "counting"

    class traits:
        chance = "none"

    def __init__(self):
        self.go = [Action("go", to=i) for i in range(3)]
        self.table = {action: i for i, action in enumerate(self.go)}

    def initial_state(self, seed):
        return _Step(0)

    def num_distinct_actions(self):
        return 3

    def legal_actions(self, state):
        return list(self.go)

    def action_to_index(self, action):
        return self.table[action]

    def current_player(self, state):
        return state.n % 2

    def is_over(self, state):
        return False

    def apply(self, state, action):
        return _Step(state.n + self.table[action] + 1)

    def observation_string(self, state, player):
        return f"at {state.n}"


def test_openspiel_nodes_keep_only_the_first_and_their_own_state_and_replay_the_rest():
    """A chain of every state reached kept them all alive for the collector to walk; a node
    keeps its own and its game's first, and information states replay those in between."""
    import weakref

    from aloftnb.adapters.spiel_nodes import root_node

    rules = _Counting()
    node = root_node(rules, _Step(0))
    first, reached, expected = weakref.ref(node.state), [], {0: "at 0", 1: "at 0"}
    for k in range(12):
        mover = node.to_move()
        node.decisions()
        node = node.child(k % 3)
        reached.append(weakref.ref(node.state))
        for seat in (0, 1):
            move = f"> {k % 3}" if mover == seat else ">"
            expected[seat] += f"\n{move}\nat {node.state.n}"
    assert first() is not None and reached[-1]() is node.state
    assert [ref() for ref in reached[:-1]] == [None] * 11
    assert node.state.n == sum(k % 3 + 1 for k in range(12))
    assert node.info(1) == expected[1] and node.info(0) == expected[0]


class _GivesIndices(_Counting):
    """_Counting, listing its actions out of index order, that gives their indices itself."""

    def __init__(self):
        super().__init__()
        self.listed = 0

    def legal_actions(self, state):
        self.listed += 1
        return [self.go[2], self.go[0], self.go[1]]

    def legal_indices(self, state, seat):
        return [2, 0, 1]

    def action_from_index(self, index):
        return self.go[index]


def test_the_adapters_take_the_indices_a_game_gives_and_find_its_actions_by_index():
    from aloftnb.adapters.spiel_nodes import root_node
    from aloftnb.adapters.steps import ZooGame

    rules = _GivesIndices()
    node = root_node(rules, _Step(0))
    node.to_move()
    assert node.decisions() == [0, 1, 2] and node.child(7) is None
    assert node.child(2).state.n == 3 and node.child(0).state.n == 1
    game = ZooGame(rules, True)
    game.start(0)
    assert game.legal_order() == [2, 0, 1] and mask_bytes(3, game.legal_order()) == b"\1\1\1"
    assert game.move_of(2) is rules.go[2] and game.move_of(7) is None
    assert game.play_index(1) and game.state.n == 2
    assert rules.listed == 0  # neither adapter listed the actions


def test_balloons_gives_its_advances_indices_and_its_wind_phase_leaves_them_to_the_adapters():
    from aloftnb.core.chance import CHANCE
    from aloftnb.core.registry import make_rules

    rules, rng, kinds = make_rules("balloons", 3, edition="choice"), random.Random(2), set()
    state = rules.initial_state(3)
    while not rules.is_over(state) and len(kinds) < 2:
        seat = rules.current_player(state)
        if seat == CHANCE:
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        legal, given = rules.legal_actions(state), rules.legal_indices(state, seat)
        if rules.phase(state) == "advance":
            assert given == [rules.action_to_index(action) for action in legal]
        else:
            assert given is None
        kinds.add(rules.phase(state))
        state = rules.apply(state, legal[int(rng.random() * len(legal))])
    assert kinds == {"advance", "wind"}


def test_alu_gives_the_indices_of_its_legal_actions_at_every_step():
    from aloftnb.core.registry import make_rules

    rules, rng = make_rules("alu", 2, columns=4, rows=3), random.Random(1)
    state, steps = rules.initial_state(0), 0
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        given = rules.legal_indices(state, rules.current_player(state))
        assert given == [rules.action_to_index(action) for action in legal]
        state, steps = rules.apply(state, legal[int(rng.random() * len(legal))]), steps + 1
    assert steps > 10


def test_mask_bytes_marks_the_indices():
    assert mask_bytes(5, [0, 3]) == bytearray([1, 0, 0, 1, 0])
    assert mask_bytes(3, []) == bytearray(3)


def test_pettingzoo_masks_are_new_int8_arrays_at_every_observe():
    from aloftnb.pettingzoo import env

    zoo = env("balloons", 3)
    zoo.reset(seed=4)
    agent = zoo.agent_selection
    first = zoo.observe(agent)["action_mask"]
    assert first.dtype == np.int8 and first.shape == (zoo.rules.num_distinct_actions(),)
    legal = first.copy()
    first[:] = 0  # the caller's array: the next observe is unchanged
    again = zoo.observe(agent)["action_mask"]
    assert again.tobytes() == legal.tobytes() and again.flags.writeable
    other = next(a for a in zoo.agents if a != agent)
    assert not zoo.observe(other)["action_mask"].any()


def test_pettingzoo_numpy_and_python_indices_play_the_same_game():
    from aloftnb.pettingzoo import env

    runs = []
    for wrap in (int, np.int64):
        zoo = env("alu", 2)
        zoo.reset(seed=3)
        rng, seen = random.Random(3), []
        for _ in zoo.agent_iter(max_iter=60):
            observation, _, termination, truncation, _ = zoo.last()
            if termination or truncation:
                zoo.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            zoo.step(wrap(legal[rng.randrange(len(legal))]))
            seen.append(zoo.rules.state_to_dict(zoo.game_state))
        runs.append(seen)
    assert runs[0] == runs[1]


def test_openspiel_legal_actions_and_apply_agree_whatever_is_asked_first():
    pytest.importorskip("pyspiel")
    from aloftnb.adapters.openspiel import load_game

    game = load_game("commodores", players=3)
    rng = random.Random(1)
    first, second = game.new_initial_state(), game.new_initial_state()
    for step in range(80):
        if first.is_terminal():
            break
        legal = first.legal_actions()  # after is_terminal: the shortcut
        assert second.legal_actions() == legal  # before anything else: the long way
        assert second.is_terminal() is False
        assert legal == first.legal_actions(first.current_player())
        action = legal[rng.randrange(len(legal))]
        first.apply_action(action)
        second.apply_action(np.int64(action) if step % 2 else action)
        assert first.history() == second.history()
        assert str(first) == str(second)


def test_the_floors_under_the_bench_loops_are_environments_of_the_game_s_shape():
    """The bench's floors (aloftnb/adapters/bench.py) must be environments the libraries
    accept, shaped like the game, or the floor they measure means nothing."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    from pettingzoo.test import api_test

    from aloftnb.adapters import bench

    zoo = bench.pettingzoo_floor(count=40, legal=6)
    with warnings.catch_warnings():  # (one constant zero to observe and nothing to draw)
        warnings.filterwarnings("ignore", "Observation (is a single number|numpy array is all)")
        warnings.filterwarnings("ignore", "Observation (space for each agent probably|is not a)")
        warnings.filterwarnings("ignore", "Environment has not defined a render")
        api_test(zoo, num_cycles=60)
    zoo.reset(seed=0)
    observation, *_ = zoo.last()
    assert observation["action_mask"].shape == (40,) and observation["action_mask"].sum() == 6
    assert bench.pettingzoo_loop(zoo, random.Random(0))(1) == bench.STEPS
    spiel_game = bench.openspiel_floor(7)
    state = spiel_game.new_initial_state()
    assert state.legal_actions() == list(range(7))
    assert bench.openspiel_loop(spiel_game, random.Random(0))(1) == bench.STEPS
    assert bench.openspiel_floor(3).new_initial_state().legal_actions() == [0, 1, 2]
