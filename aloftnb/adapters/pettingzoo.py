"""Every aloftnb game as a PettingZoo AEC environment (pip install "aloftnb[pettingzoo]").

    from aloftnb.pettingzoo import env
    game = env("balloons", players=3, edition="choice")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        game.step(None if termination or truncation else int(mask.nonzero()[0][0]))

- Agents are "player_0", "player_1", ... (the seats). Each observes a dict: "observation", the
  game's `rules.observation` for that seat (numbers in 0..1, from the seat's view only), and
  "action_mask", 1 at the legal action indices of the agent to move (zeros for the others).
  The action space is Discrete(rules.num_distinct_actions()).
- `reset(seed=...)` seeds the game; chance steps are resolved inside the environment from the
  game's chance stream (`chance_rng(seed, step)`), exactly as a `Match` with that seed does, so
  agents never see a chance step. `reset()` without a seed continues the seed sequence.
- Rewards come at the end only, from `aloftnb.adapters.returns` (rank-based and zero-sum in
  competitive games, the shared reward in 0..1 in cooperative ones).
- `max_cycles=N` truncates the game when its round N + 1 begins (`rules.round`): every seat has
  had its turns of N rounds.
- render_mode "ansi": `render()` returns the observation string of the agent to move (what that
  seat sees); "svg": the game's drawing of the spectator view (what nobody hides), as SVG text.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - exercised with a monkeypatched import
    raise ImportError(
        "aloftnb.pettingzoo needs PettingZoo, gymnasium and numpy, which aloftnb does not "
        "install by default: pip install 'aloftnb[pettingzoo]'") from exc

from ..core.options import _short_repr, seed_problem
from ..core.registry import rules_class
from ..core.rules import Rules
from ..errors import AloftnbError, IllegalAction, InvalidOptions
from .observations import Observations
from .returns import outcome_returns
from .steps import ZooGame

# observe runs at every step: its calls are looked up once (and numpy would convert np.int8 to
# a dtype at every call)
_MASK_TYPE = np.dtype(np.int8)
_from_buffer, _new_dict, _put = np.frombuffer, dict.__new__, dict.__setitem__


def start_bookkeeping(zoo: AECEnv) -> None:
    """PettingZoo's own fields at a reset: every agent in, no rewards, nobody done."""
    zoo.agents = zoo.possible_agents[:]
    zoo.rewards = dict.fromkeys(zoo.agents, 0.0)
    zoo._cumulative_rewards = dict.fromkeys(zoo.agents, 0.0)
    zoo.terminations = dict.fromkeys(zoo.agents, False)
    zoo.truncations = dict.fromkeys(zoo.agents, False)
    zoo.infos = {agent: {} for agent in zoo.agents}


def env(game: str, players: int | None = None, *, render_mode: str | None = None,
        max_cycles: int | None = None, **options: Any) -> AloftnbEnv:
    """The AEC environment of an aloftnb game; `players` defaults to the fewest seats the options
    allow."""
    cls = rules_class(game)
    if players is None:
        for count in sorted(cls.traits.player_counts):
            try:
                rules = cls(count, **options)
                break
            except InvalidOptions:
                continue
        else:
            raise InvalidOptions(f"{game} has no player count that suits options {options}")
    else:
        rules = cls(players, **options)
    return AloftnbEnv(rules, render_mode=render_mode, max_cycles=max_cycles)


class AloftnbEnv(AECEnv):
    """One configured aloftnb game as an AEC environment (build it with `env(...)`)."""

    def __init__(self, rules: Rules, render_mode: str | None = None,
                 max_cycles: int | None = None) -> None:
        super().__init__()
        if not rules.has_encoding:
            raise AloftnbError(f"{rules.name} declares no action and observation encoding, so it "
                               "cannot be a PettingZoo environment (see docs/adapters.md)")
        if render_mode not in (None, *self.render_modes):
            raise AloftnbError(f"render_mode must be one of {self.render_modes} or None, "
                               f"not {render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, int) or max_cycles < 1):
            raise AloftnbError(f"max_cycles must be a whole number >= 1, not {max_cycles!r}")
        self.rules, self.render_mode, self.max_cycles = rules, render_mode, max_cycles
        self.metadata = {"render_modes": list(self.render_modes),
                         "name": f"aloftnb_{rules.name.replace('-', '_')}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        count, shape = rules.num_distinct_actions(), rules.observation_shape()
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._shape = tuple(shape)
        self._observations = Observations(rules)
        # the state, chance, whose turn and the legal moves (compiled in the compiled build)
        self._game = ZooGame(rules, type(rules).is_chance is Rules.is_chance)
        self.game_seed = 0

    @property
    def game_state(self) -> Any:
        """The aloftnb state now (AECEnv.state() is another thing); reset and step change it."""
        return self._game.state

    @property
    def steps(self) -> int:
        """Decisions and chance steps so far, so chance draws match a Match's."""
        return self._game.steps

    render_modes = ("ansi", "svg")

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        problem = None if seed is None else seed_problem(seed)
        if problem:  # as Match refuses it; nothing is reset
            raise InvalidOptions(f"reset: seed {problem}")
        if seed is not None:
            self._seeds.seed(seed)
        self.game_seed = self._seeds.randrange(2**31) if seed is None else seed
        start_bookkeeping(self)
        self._game.start(self.game_seed)
        self._after_move()

    def _after_move(self) -> None:
        """Whose turn it is, and the end of the game (rewards) or a truncation."""
        game = self._game
        if game.over:
            for agent, value in zip(self.possible_agents,
                                    outcome_returns(self.rules, game.state)):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[game.seat]
        if self.max_cycles is not None and self.rules.round(game.state) > self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        if not game.play_index(action):  # not a legal index as an int: say why, or play it
            game.play(self._legal_move(action))
        # The rewards are all 0 until the game ends, after which no step is live: so
        # PettingZoo's clearing of the agent's reward and adding up of rewards are needed only
        # at the end (the agent's cumulative reward is 0 until then).
        if game.over or self.max_cycles is not None:
            self._after_move()
            if self.terminations[agent]:
                self._cumulative_rewards[agent] = 0.0
                self._accumulate_rewards()
        else:  # (the common case of _after_move, without the call)
            self.agent_selection = self.possible_agents[game.seat]

    def _legal_move(self, action: Any):
        """The game's action for an index, if it is legal now; IllegalAction otherwise."""
        rules = self.rules
        if type(action) is not int and (isinstance(action, (bool, np.bool_))
                                        or not isinstance(action, (int, np.integer))):
            raise IllegalAction(f"an action is an index 0..{rules.num_distinct_actions() - 1}, "
                                f"not {_short_repr(action)}")
        index = int(action)
        move = self._game.move_of(index)
        if move is not None:
            return move
        if not 0 <= index < rules.num_distinct_actions():
            raise IllegalAction(f"action {index} is outside 0..{rules.num_distinct_actions() - 1}")
        why = rules.why_illegal(self.game_state, rules.action_from_index(index))
        raise IllegalAction(f"action {index} is not legal now: {why}")

    def observe(self, agent: str) -> Observation:
        """The agent's observation dict. Its "observation" array is built when it is first
        read (see Observation); its "action_mask" is made now."""
        game, seat = self._game, self._seat[agent]
        observed = _new_dict(Observation)  # (no __init__ to run)
        observed._pending = (self, game.state, seat)
        _put(observed, "action_mask", _from_buffer(game.mask(seat), _MASK_TYPE))
        return observed

    def _observation_array(self, state: Any, seat: int) -> np.ndarray:
        """The seat's observation of `state` as a new float32 array of the observation shape
        (what is read of the state is kept while it is the current one)."""
        game = self._game
        current = state is game.state
        seen = game.seen.get(seat) if current else None
        if seen is None:
            seen = self._observations.read(state, seat)
            if current:
                game.seen[seat] = seen
        observation = self._observations.array(seat, seen)
        return observation.reshape(self._shape) if len(self._shape) > 1 else observation

    # -- rendering -----------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        rules, state = self.rules, self.game_state
        if self.render_mode == "svg":
            return rules.render_svg(rules.view(state, None))
        seat = rules.current_player(state)
        return rules.observation_string(state, 0 if seat is None else seat)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


class Observation(dict):
    """What `observe` returns: {"observation": the seat's array, "action_mask": the mask}.

    The array is built when it is first read, as PettingZoo's own play loop reads only the mask
    and the array costs more than a move of the game. States never change, so the array built
    later is the one of the state observed. Until then the dict holds only the mask, and every
    dict method that looks at all of it (iteration, keys, values, items, get, copy, pickling,
    comparison, printing...) builds the array first; `[]` finds it by `__missing__`. Copies
    and unpickled copies are plain dicts."""

    __slots__ = ("_pending",)
    _pending: tuple[AloftnbEnv, Any, int] | None  # (the env, the state, the seat) until built

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        dict.__init__(self, *args, **kwargs)
        self._pending = None

    def __missing__(self, key: Any) -> Any:
        if key == "observation" and self._pending is not None:
            return dict.__getitem__(self._whole(), key)
        raise KeyError(key)

    def _whole(self) -> Observation:
        """This dict with its array built (kept first, where a plain dict would have it)."""
        pending = self._pending
        if pending is not None:
            env, state, seat = pending
            array = env._observation_array(state, seat)
            self._pending = None
            rest = dict(dict.items(self))
            dict.clear(self)
            dict.__setitem__(self, "observation", array)
            dict.update(self, rest)
        return self

    def __contains__(self, key: Any) -> bool:
        return dict.__contains__(self, key) or (self._pending is not None
                                                and key == "observation")

    def __len__(self) -> int:
        return dict.__len__(self) + (self._pending is not None)

    def clear(self) -> None:
        self._pending = None
        dict.clear(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Observation):
            other._whole()
        return dict.__eq__(self._whole(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (list(dict.items(self._whole())),)


def _built_first(name: str) -> Any:
    """Observation's dict method `name`, run on the dict with its array built."""
    method = getattr(dict, name)

    def built_first(self: Observation, *args: Any, **kwargs: Any) -> Any:
        return method(self._whole(), *args, **kwargs)

    built_first.__name__ = built_first.__qualname__ = name
    return built_first


# (The methods implemented in C that would otherwise miss an array not yet built. Iteration
# by Python, rather than dict's own, also makes dict(...), {**...} and | ask for the keys.)
for _name in ("__iter__", "__reversed__", "__repr__", "__or__", "__ror__", "__ior__",
              "__setitem__", "__delitem__", "keys", "values", "items", "get", "copy", "pop",
              "popitem", "setdefault", "update"):
    setattr(Observation, _name, _built_first(_name))
del _name
