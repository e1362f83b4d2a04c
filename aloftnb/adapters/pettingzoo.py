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

from ..core.chance import CHANCE, chance_rng
from ..core.options import _short_repr, seed_problem
from ..core.registry import rules_class
from ..core.rules import Rules
from ..errors import AloftnbError, IllegalAction, InvalidOptions
from .observations import Observations
from .returns import outcome_returns
from .steps import mask_bytes, moves_by_index

_UNASKED = object()  # _settle did not ask for the seat to move


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
        # action -> index, looked up at every step
        self._indices: dict[Any, int] = {}
        self._known_moves: dict[int, tuple[Any, int]] = {}  # the same by the action's identity
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._count, self._shape = count, tuple(shape)
        self._observations = Observations(rules)
        # What is known of one state (the one `_known` is): its legal moves by index, and the
        # observations read of it by seat (Observations.read: each observe writes them into a
        # new array). Kept until the state changes.
        self._known: Any = None
        self._moves: dict[int, Any] | None = None
        self._seen: dict[int, Any] = {}
        self._over: bool | None = None  # whether that state ends the game, when asked
        # OpenSpiel's default is_chance (the seat to move is CHANCE): then one current_player
        # call after a move tells chance, the end and the seat apart.
        self._plain_chance = type(rules).is_chance is Rules.is_chance
        self.game_seed = 0
        self.game_state: Any = None  # the aloftnb state (AECEnv.state() is another thing)

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
        self.game_state = self.rules.initial_state(self.game_seed)
        self.steps = 0  # decisions and chance steps, so chance draws match a Match's
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._settle()

    def _chance_step(self) -> None:
        rules = self.rules
        outcome = rules.sample_chance(self.game_state, chance_rng(self.game_seed, self.steps))
        self.game_state = rules.apply(self.game_state, outcome)
        self.steps += 1

    def _settle(self) -> None:
        """After a move: play the chance steps, then learn whose turn it is, and the end of the
        game (rewards) or a truncation. (One call, as it runs at every step.)"""
        rules = self.rules
        seat: Any
        if self._plain_chance:  # one current_player call tells chance, the end and the seat
            seat = rules.current_player(self.game_state)
            while seat == CHANCE:
                self._chance_step()
                seat = rules.current_player(self.game_state)
            over = seat is None  # (None once the game is over, the conformance suite checks)
        else:
            while rules.is_chance(self.game_state):
                self._chance_step()
            seat = _UNASKED
            over = rules.is_over(self.game_state)
        state = self.game_state
        # a new state: what observe and step learn of it is kept from here
        self._known, self._moves, self._seen, self._over = state, None, {}, over
        if over:
            for agent, value in zip(self.possible_agents, outcome_returns(rules, state)):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
            return
        if seat is _UNASKED:
            seat = rules.current_player(state)
        assert seat is not None and seat >= 0  # not over, and chance was resolved above
        self.agent_selection = self.possible_agents[seat]
        if self.max_cycles is not None and rules.round(state) > self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rules = self.rules
        moves = self._moves
        move = (moves.get(action) if type(action) is int and moves is not None
                and self._known is self.game_state else None)
        if move is None:
            move = self._legal_move(action)
        self._cumulative_rewards[agent] = 0.0
        # The rewards are all 0 until the game ends, after which no step is live: so
        # PettingZoo's clearing and adding up of rewards are needed only at the end.
        self.game_state = rules.apply(self.game_state, move)
        self.steps += 1
        self._settle()
        if self.terminations[agent]:
            self._accumulate_rewards()

    def _legal_move(self, action: Any):
        """The game's action for an index, if it is legal now; IllegalAction otherwise."""
        rules = self.rules
        if type(action) is not int and (isinstance(action, (bool, np.bool_))
                                        or not isinstance(action, (int, np.integer))):
            raise IllegalAction(f"an action is an index 0..{rules.num_distinct_actions() - 1}, "
                                f"not {_short_repr(action)}")
        index = int(action)
        move = self._legal_moves().get(index)
        if move is not None:
            return move
        if not 0 <= index < rules.num_distinct_actions():
            raise IllegalAction(f"action {index} is outside 0..{rules.num_distinct_actions() - 1}")
        why = rules.why_illegal(self.game_state, rules.action_from_index(index))
        raise IllegalAction(f"action {index} is not legal now: {why}")

    def _now(self) -> None:
        """Forget what was known of an earlier state."""
        if self._known is not self.game_state:
            self._known, self._moves, self._seen, self._over = self.game_state, None, {}, None

    def _legal_moves(self) -> dict[int, Any]:
        """The legal moves of the state by index (the first move with an index wins, as
        before), computed once per state: the action mask and step both ask."""
        if self._known is not self.game_state:
            self._now()
        moves = self._moves
        if moves is None:
            moves = self._moves = moves_by_index(self.rules.legal_actions(self.game_state),
                                                 self._known_moves, AloftnbEnv._index_of, self,
                                                 True)
        return moves

    def _index_of(self, move: Any) -> int:
        """An action's index, kept by the action (actions hash as tuples, at C speed)."""
        index = self._indices.get(move)
        if index is None:
            index = self._indices[move] = self.rules.action_to_index(move)
        return index

    def observe(self, agent: str) -> Observation:
        """The agent's observation dict. Its "observation" array is built when it is first
        read (see Observation); its "action_mask" is made now."""
        seat = self._seat[agent]
        if self._known is not self.game_state:
            self._now()
        observed = Observation.__new__(Observation)  # (no __init__ to run)
        observed._pending = (self, self.game_state, seat)
        if agent != self.agent_selection:
            dict.__setitem__(observed, "action_mask", np.zeros(self._count, np.int8))
            return observed
        over = self._over
        if over is None:
            over = self._over = self.rules.is_over(self.game_state)
        dict.__setitem__(observed, "action_mask", np.zeros(self._count, np.int8) if over else
                         np.frombuffer(mask_bytes(self._count, self._legal_moves()), np.int8))
        return observed

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, with observe's work done in the same call (it runs at every step)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def _observation_array(self, state: Any, seat: int) -> np.ndarray:
        """The seat's observation of `state` as a new float32 array of the observation shape
        (what is read of the state is kept while it is the current one)."""
        current = state is self._known
        seen = self._seen.get(seat) if current else None
        if seen is None:
            seen = self._observations.read(state, seat)
            if current:
                self._seen[seat] = seen
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
