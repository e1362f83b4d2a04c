"""Storm harbour: a tiny cooperative game that exercises every part of protocol v2.

It lives outside the package on purpose: the conformance suite registers it the way a designer
registers a game written in a notebook. Its parts:

- simultaneous hidden choices: in the "sandbags" phase each seat in turn commits 0-2 sandbags
  from its own supply; the others' commitments stay hidden from a seat's view until the storm;
- chance during play: the "storm" phase is one chance step, a die of 1-6 (explicit outcomes);
- a phase change every round, and rounds declared for metrics;
- a cooperative loss: the storm breaks through when the round's sandbags are fewer than the die;
  two breaches lose the game for everybody (winners are then nobody).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import aloftnb
from aloftnb.core.chance import CHANCE
from aloftnb.core.options import Option, int_between, whole_number_problem
from aloftnb.errors import IllegalAction, InvalidOptions, InvalidState

SUPPLY = 5  # sandbags each seat starts with
OVER = -2  # `to_act` once the game is over (CHANCE, -1, marks the storm)
BREACHES_TO_LOSE = 2


class HarbourState(NamedTuple):
    rules: HarbourRules
    round: int  # 1..rounds; rounds + 1 once over
    to_act: int  # seat committing, CHANCE during the storm, OVER once over
    supply: tuple[int, ...]  # sandbags left per seat
    committed: tuple[int, ...]  # this round's hidden commitments (-1: not yet)
    breaches: int
    last_roll: int  # 0 before the first storm

    def to_dict(self) -> dict[str, Any]:
        return self.rules.state_to_dict(self)


class HarbourRules(aloftnb.Rules[HarbourState, aloftnb.Action]):
    name = "harbour"
    title = "Storm harbour"
    summary = "Cooperative: commit sandbags in secret, then the storm rolls a die."
    traits = aloftnb.Traits(player_counts=(1, 2, 3), chance="explicit", information="imperfect",
                            utility="win_loss", cooperative=True, simultaneous=True)
    phases = ("sandbags", "storm")
    phase_actions = {"sandbags": ("commit",), "storm": ("storm",)}
    action_types = ("commit", "storm")
    option_spec = {"rounds": Option("rounds", 4, "storms to weather", check=int_between(1, 20))}

    def configure(self) -> None:
        if self.players not in self.traits.player_counts:
            raise InvalidOptions(f"harbour is for 1-3 players, not {self.players}")
        self.rounds = self.options["rounds"]
        self._commits = [aloftnb.Action("commit", bags=n) for n in range(3)]
        self._storms = [aloftnb.Action("storm", roll=n) for n in range(1, 7)]

    def max_length(self) -> int:
        return self.rounds * (self.players + 1)

    def initial_state(self, seed: int) -> HarbourState:
        n = self.players
        return HarbourState(self, 1, 0, (SUPPLY,) * n, (-1,) * n, 0, 0)

    def current_player(self, s: HarbourState) -> int | None:
        return None if s.to_act == OVER else s.to_act

    def is_over(self, s: HarbourState) -> bool:
        return s.to_act == OVER

    def phase(self, s: HarbourState) -> str:
        return "storm" if s.to_act == CHANCE else "sandbags"

    def round(self, s: HarbourState) -> int:
        return min(s.round, self.rounds)

    def legal_actions(self, s: HarbourState) -> list[aloftnb.Action]:
        if s.to_act == OVER:
            return []
        if s.to_act == CHANCE:
            return list(self._storms)
        return self._commits[: min(2, s.supply[s.to_act]) + 1]

    def why_illegal(self, s: HarbourState, action: aloftnb.Action) -> str:
        """Name the rule: a seat commits at most 2 sandbags, and no more than it has left."""
        if action.type == "commit" and s.to_act >= 0:
            left = s.supply[s.to_act]
            if action.bags > left:
                return (f"seat {s.to_act} has {left} sandbag{'s' * (left != 1)} left, so it "
                        f"cannot commit {action.bags}")
            return "a seat commits 0, 1 or 2 sandbags a storm"
        return super().why_illegal(s, action)

    def chance_outcomes(self, s: HarbourState) -> list[tuple[aloftnb.Action, float]]:
        return [(storm, 1 / 6) for storm in self._storms]

    def apply(self, s: HarbourState, action: aloftnb.Action) -> HarbourState:
        if action.type == "commit":
            seat = s.to_act
            committed = s.committed[:seat] + (action.bags,) + s.committed[seat + 1:]
            nxt = seat + 1 if seat + 1 < self.players else CHANCE
            return s._replace(to_act=nxt, committed=committed)
        bags = sum(s.committed)
        breaches = s.breaches + (1 if bags < action.roll else 0)
        supply = tuple(left - c for left, c in zip(s.supply, s.committed))
        over = breaches >= BREACHES_TO_LOSE or s.round == self.rounds
        return HarbourState(self, s.round + 1, OVER if over else 0, supply,
                            (-1,) * self.players, breaches, action.roll)

    def scores(self, s: HarbourState) -> dict[int, float]:
        return {seat: float(-s.breaches) for seat in range(self.players)}

    def outcome(self, s: HarbourState) -> aloftnb.Outcome | None:
        if s.to_act != OVER:
            return None
        if s.breaches >= BREACHES_TO_LOSE:
            return aloftnb.Outcome((), self.scores(s),
                                   f"the storm broke through {s.breaches} times")
        return aloftnb.Outcome(tuple(range(self.players)), self.scores(s),
                               f"the harbour held with {s.breaches} breach(es)")

    def describe_chance(self, s: HarbourState, outcome: aloftnb.Action) -> str:
        return f"the storm rolled {outcome.roll}"

    def hidden_text(self, s: HarbourState, action: aloftnb.Action, seat: int | None
                    ) -> str | None:
        # The others read that a seat committed, not how many sandbags (its view hides them).
        if action.type == "commit" and seat != s.to_act:
            return "committed sandbags in secret"
        return None

    def parse_action(self, data: Any) -> aloftnb.Action:
        action = super().parse_action(data)
        field, values = ("bags", range(3)) if action.type == "commit" else ("roll", range(1, 7))
        if set(action.params) != {field} or whole_number_problem(action.params[field],
                                                                 values[0], values[-1]):
            raise IllegalAction(f"a {action.type} action takes {field}={values[0]}..{values[-1]}")
        return action

    # -- encodings: 3 commitments, 6 storm rolls; observations read from the view --------------
    def num_distinct_actions(self) -> int:
        return 3

    def action_to_index(self, action: aloftnb.Action) -> int:
        return action.bags

    def action_from_index(self, index: int) -> aloftnb.Action:
        return self._commits[index]

    def max_chance_outcomes(self) -> int:
        return 6

    def chance_to_index(self, outcome: aloftnb.Action) -> int:
        return outcome.roll - 1

    def chance_from_index(self, index: int) -> aloftnb.Action:
        return self._storms[index]

    def observation_shape(self) -> tuple[int, ...]:
        return (self.players * 5 + self.players + 2 + 3,)

    def observation(self, s: HarbourState, seat: int) -> list[float]:
        view = self.view(s, seat)
        out: list[float] = []
        for p in range(self.players):  # supply, then committed: not yet / hidden / 0, 1, 2 bags
            c = view["committed"][p]
            out += [view["supply"][p] / SUPPLY, float(c == -1), float(c == "hidden")]
            out += [float(c == n) for n in (1, 2)]  # 0 bags is "committed and neither"
        out += [float(view["to_act"] == p) for p in range(self.players)]
        out += [float(view["to_act"] == CHANCE), float(view["to_act"] == OVER)]
        out += [view["round"] / (self.rounds + 1), view["breaches"] / BREACHES_TO_LOSE,
                view["last_roll"] / 6]
        return out

    def observation_string(self, s: HarbourState, seat: int) -> str:
        view = self.view(s, seat)
        committed = ", ".join("-" if c == -1 else str(c) for c in view["committed"])
        return (f"round {view['round']}, to act {view['to_act']}, supply {view['supply']}, "
                f"committed [{committed}], breaches {view['breaches']}, "
                f"last roll {view['last_roll']}")

    # -- dict form, views, determinization -----------------------------------------------------
    def state_to_dict(self, s: HarbourState) -> dict[str, Any]:
        return {"round": s.round, "to_act": s.to_act, "supply": list(s.supply),
                "committed": list(s.committed), "breaches": s.breaches,
                "last_roll": s.last_roll}

    def state_from_dict(self, data: Any) -> HarbourState:
        keys = {"round", "to_act", "supply", "committed", "breaches", "last_roll"}
        if not isinstance(data, dict) or set(data) != keys:
            raise InvalidState(f"a harbour state is a dict with exactly {sorted(keys)}")
        n = self.players

        def whole(value: Any, name: str, low: int, high: int) -> int:
            problem = whole_number_problem(value, low, high)
            if problem:
                raise InvalidState(f"{name} {problem}")
            return value

        rnd = whole(data["round"], "round", 1, self.rounds + 1)
        to_act = whole(data["to_act"], "to_act", OVER, n - 1)
        for key in ("supply", "committed"):
            if not isinstance(data[key], list) or len(data[key]) != n:
                raise InvalidState(f"{key} must list {n} numbers")
        supply = tuple(whole(v, "supply", 0, SUPPLY) for v in data["supply"])
        committed = tuple(whole(v, "committed", -1, 2) for v in data["committed"])
        breaches = whole(data["breaches"], "breaches", 0, BREACHES_TO_LOSE)
        last_roll = whole(data["last_roll"], "last_roll", 0, 6)
        state = HarbourState(self, rnd, to_act, supply, committed, breaches, last_roll)
        deciding = n if to_act == CHANCE else (0 if to_act == OVER else to_act)
        if any((c >= 0) != (seat < deciding) for seat, c in enumerate(committed)):
            raise InvalidState("exactly the seats before the one to act have committed")
        if any(c > left for c, left in zip(committed, supply)):
            raise InvalidState("a seat committed more sandbags than it has")
        if (to_act == OVER) != (breaches >= BREACHES_TO_LOSE or rnd == self.rounds + 1):
            raise InvalidState("the game is over exactly after the last round or two breaches")
        return state

    def view(self, s: HarbourState, seat: int | None) -> dict[str, Any]:
        data = self.state_to_dict(s)
        data["committed"] = [c if (p == seat or c < 0) else "hidden"
                             for p, c in enumerate(s.committed)]
        return data

    def determinize(self, s: HarbourState, seat: int, rng: random.Random) -> HarbourState:
        committed = tuple(c if (p == seat or c < 0) else rng.randint(0, min(2, s.supply[p]))
                          for p, c in enumerate(s.committed))
        return s._replace(committed=committed)


class HarbourHooks:
    """Playtest hooks as a plain object, the way a notebook would write them."""

    MEASURES = {"breaches": "times the storm broke through"}

    def evaluate(self, rules: HarbourRules, s: HarbourState, seat: int) -> float:
        return -10.0 * s.breaches + 0.1 * sum(s.supply)

    def measures(self, rules: HarbourRules, s: HarbourState) -> dict[str, Any]:
        return {"breaches": s.breaches}
