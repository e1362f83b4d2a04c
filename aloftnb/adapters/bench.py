"""The adapters' bench (`python -m aloftnb bench`): the loops that play random games through an
OpenSpiel game and a PettingZoo environment, and the floor under them: an environment and a
game that play nothing, shaped like a given game (its number of distinct actions and its legal
actions a step). An adapter's step costs at least its floor plus the game's move. The floors
need what the adapters need (PettingZoo, gymnasium and numpy; OpenSpiel).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core.chance import CHANCE

STEPS = 50  # a floor game's length


def openspiel_loop(spiel_game: Any, rng: random.Random) -> Callable[[int], int]:
    """Random play of a pyspiel game: legal_actions and apply_action until the end."""
    def play(i: int) -> int:
        state, steps = spiel_game.new_initial_state(), 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            steps += 1
        return steps

    return play


def pettingzoo_loop(zoo: Any, rng: random.Random) -> Callable[[int], int]:
    """Random play of an AEC environment: an agent_iter loop that reads each step's mask and
    picks among its non-zero places (reset with seed i for game i)."""
    def play(i: int) -> int:
        zoo.reset(seed=i)
        steps = 0
        for _ in zoo.agent_iter():
            observation, _, termination, truncation, _ = zoo.last()
            if termination or truncation:
                zoo.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            zoo.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps

    return play


def mean_legal(rules: Any, games: int) -> float:
    """The mean number of legal actions at a decision, over random play of seeded games."""
    rng, total, decisions = random.Random(0), 0, 0
    for seed in range(games):
        state = rules.initial_state(seed)
        while not rules.is_over(state):
            if rules.current_player(state) == CHANCE:
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            actions = rules.legal_actions(state)
            total, decisions = total + len(actions), decisions + 1
            state = rules.apply(state, actions[int(rng.random() * len(actions))])
    return total / max(1, decisions)


def pettingzoo_floor(count: int, legal: int) -> Any:
    """An AEC environment of `count` actions, `legal` of them legal at every step. Its observe
    makes a new action mask from a bytearray (as the adapter's does) beside a constant
    observation; its step passes the turn."""
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv

    from .pettingzoo import start_bookkeeping

    places = list(range(0, count, max(1, count // legal)))[:legal]
    constant, mask_type = np.zeros(1, np.float32), np.dtype(np.int8)

    class FloorEnv(AECEnv):
        metadata = {"render_modes": [], "name": "aloftnb_floor_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0", "player_1"]
            self.observation_spaces = {agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (1,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8)})
                for agent in self.possible_agents}
            self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
            self.terminations: dict[str, bool] = {}  # (reset fills it)

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            start_bookkeeping(self)  # (as the adapter's reset does)
            self.agent_selection, self.turn = self.agents[0], 0

        def observe(self, agent: str) -> dict[str, Any]:
            mask = bytearray(count)
            for place in places:
                mask[place] = 1
            return {"observation": constant, "action_mask": np.frombuffer(mask, mask_type)}

        def step(self, action: Any) -> None:
            if self.terminations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self.turn += 1
            if self.turn == STEPS:
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[self.turn % 2]

    return FloorEnv()


_OPENSPIEL_NAME = "python_aloftnb_floor"


def openspiel_floor(legal: int) -> Any:
    """A pyspiel game whose states answer legal_actions with a new list of `legal` indices (as
    the adapter's do), count the moves applied and end after STEPS of them."""
    import pyspiel

    if _OPENSPIEL_NAME not in pyspiel.registered_names():
        _register_openspiel_floor(pyspiel)
    return pyspiel.load_game(_OPENSPIEL_NAME, {"legal": legal})


def _register_openspiel_floor(pyspiel: Any) -> None:
    game_type = pyspiel.GameType(
        short_name=_OPENSPIEL_NAME, long_name="aloftnb: an adapter's floor",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={"legal": 8})

    class FloorGame(pyspiel.Game):
        def __init__(self, params: dict | None = None) -> None:
            params = {"legal": 8, **(params or {})}
            self.legal = list(range(params["legal"]))
            info = pyspiel.GameInfo(num_distinct_actions=len(self.legal), max_chance_outcomes=0,
                                    num_players=2, min_utility=-1.0, max_utility=1.0,
                                    utility_sum=0.0, max_game_length=STEPS)
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    class FloorState(pyspiel.State):
        def __init__(self, game: FloorGame) -> None:
            super().__init__(game)
            self.legal, self.turn = game.legal, 0

        def current_player(self) -> int:
            return pyspiel.PlayerId.TERMINAL if self.turn >= STEPS else self.turn % 2

        def legal_actions(self, player: int | None = None) -> list[int]:
            return list(self.legal)

        def _apply_action(self, action: int) -> None:
            self.turn += 1

        def is_terminal(self) -> bool:
            return self.turn >= STEPS

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    pyspiel.register_game(game_type, FloorGame)
