"""Sky commodores hooks for bots and playtesting: `CommodoresHooks`, registered as `HOOKS` (see
aloftnb/core/hooks.py for every hook and its fallback), and the balance tables the playtesting
notebook reads from simulation results.

- `evaluate`: greedy's evaluation, higher is better for `seat`: goals done count most, then
  progress towards the goals in play, then resources and ships.
- `rewards`: MCTS outcome in 0..1 per seat, from the game's own winners.
- `estimate` with `PLAYOUT_DECISIONS`: MCTS playouts stop after that many decisions and score the
  position from the goals done and near.
- `measures`: per-game numbers in each simulated game's row. Besides MEASURES a row gets
  `goal_<id>` (seats that completed that goal; NaN when it was not in play) and `fleet_<seat>`
  (the ship types that seat built, for win rates by ship type).
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.hooks import GameHooks, RestrictionPredicate
from .goals import goal_estimate, goal_progress
from .rules import CommodoresRules
from .state import (
    DRAW_NUMBER,
    FORAGED,
    FROM_LEVIATHANS,
    OVER,
    PLACE_HEX,
    PLUNDERED,
    TRADED,
    CommodoresState,
)


def forage_reach(rules: CommodoresRules, s: CommodoresState, fleet: list[Any]) -> float:
    """Resources a fleet collects over the six numbers: where ships stand is worth something."""
    total = 0.0
    for ship in fleet:
        forage = rules.stats(ship)[1]
        if forage:
            # a resource hex whose number is being drawn counts as numbered
            numbered = [sp for sp in rules.touching(s, ship.corner)
                        if s.hexes[sp].number > 0  # type: ignore[union-attr]
                        or (s.step == DRAW_NUMBER and sp == s.target)]
            total += forage * len(numbered)
    return total


class CommodoresHooks(GameHooks[CommodoresRules, CommodoresState]):
    MEASURES = {
        "goals_completed": "goals completed by all seats together",
        "winner_goals": "goals the winner completed (0 when nobody won)",
        "map_hexes": "hexes on the map at the end",
        "ships": "ships in play at the end, all seats",
        "upgrades": "upgrades on ships at the end, all seats",
        "foraged": "resources gained by foraging, all seats",
        "plundered": "resources taken from rivals' ships, all seats",
        "from_leviathans": "resources taken from leviathans (discovery and plunder), all seats",
        "traded": "resources gained by trading, all seats",
        "turn_limit": "1 when the game stopped at the turn limit",
        "rounds": "rounds played",
    }
    # MCTS: random playouts of this game run for hundreds of steps, so they stop after this
    # many decisions and `estimate` scores the position instead.
    PLAYOUT_DECISIONS = 12

    def evaluate(self, rules: CommodoresRules, s: CommodoresState, seat: int) -> float:
        if s.step == OVER:
            outcome = rules.outcome(s)
            assert outcome is not None
            return 1000.0 if seat in outcome.winners else -1000.0
        if s.step == PLACE_HEX and s.player == seat:
            # A drawn hex is worth its best placement (the greedy bot's explore looks one step
            # on).
            return max(self.evaluate(rules, rules.apply(s, a), seat)
                       for a in rules.legal_actions(s))
        done = len(s.completed[seat])
        progress = sum(goal_progress(rules, s, seat, g) ** 2 for g in s.goals
                       if g not in s.completed[seat])
        rivals = max((len(c) for p, c in enumerate(s.completed) if p != seat), default=0)
        fleet = [ship for ship in s.ships if ship.owner == seat]
        return (10.0 * done + 2.0 * progress - 3.0 * rivals + 0.1 * sum(s.pools[seat])
                + 0.5 * len(fleet) + 0.1 * forage_reach(rules, s, fleet))

    def search_settings(self, rules: CommodoresRules) -> dict[str, Any]:
        """Progressive widening: a decision offers up to hundreds of moves (build, sail,
        trade), and the guided search beat `uct` at equal time more often with widening 0.5
        or 1 than without (docs/playtesting.md, "How strong the bots are")."""
        return {"widening": 1.0}

    def estimate(self, rules: CommodoresRules, s: CommodoresState) -> dict[int, float]:
        """A position's worth per seat in 0..1: goals done, plus progress towards the nearest goals
        still open (a seat one step from its third goal is close to 1)."""
        return goal_estimate(rules, s)  # compiled with the goals (an MCTS playout's reward)

    def rewards(self, rules: CommodoresRules, s: CommodoresState) -> dict[int, float]:
        outcome = rules.outcome(s)
        winners = outcome.winners if outcome else ()
        return {seat: (1.0 if seat in winners else 0.0) for seat in range(rules.players)}

    def measures(self, rules: CommodoresRules, s: CommodoresState) -> dict[str, Any]:
        outcome = rules.outcome(s)
        winners = outcome.winners if outcome else ()
        totals = [sum(t[i] for t in s.tallies) for i in (FORAGED, PLUNDERED, FROM_LEVIATHANS,
                                                        TRADED)]
        row: dict[str, Any] = {
            "goals_completed": sum(len(c) for c in s.completed),
            "winner_goals": max((len(s.completed[w]) for w in winners), default=0),
            "map_hexes": sum(h is not None for h in s.hexes),
            "ships": len(s.ships),
            "upgrades": sum(len(ship.upgrades) for ship in s.ships),
            "foraged": totals[0], "plundered": totals[1], "from_leviathans": totals[2],
            "traded": totals[3],
            "turn_limit": int(s.end == "turn_limit"),
            "rounds": rules.round(s),
        }
        for goal in rules.catalogue.goals:
            row[f"goal_{goal.id}"] = (sum(goal.id in c for c in s.completed)
                                      if goal.id in s.goals else float("nan"))
        for seat in range(rules.players):
            row[f"fleet_{seat}"] = ",".join(sorted(ship.kind for ship in s.ships
                                                   if ship.owner == seat
                                                   and ship.kind != "starter"))
        return row


    def restrictions(self, rules: CommodoresRules) -> dict[str, RestrictionPredicate]:
        """Strategies to bar in restricted play (docs/rules/commodores.md, "Restricted play")."""
        basic = rules.catalogue.basic.id

        def shipyard(action: Action) -> bool:
            return action.type == "build" and action.ship != basic

        return {
            "never plunders": lambda action: action.type == "plunder",
            "never trades": lambda action: action.type == "trade",
            "builds no shipyard ship": shipyard,
            "forages only on 6": lambda action: action.type == "forage" and action.number != 6,
        }


HOOKS = CommodoresHooks()


# -- reading simulation results (the playtesting notebook's balance tables) -----------------------
def goal_completion(results: Any) -> Any:
    """Per goal card: games it was in play, the share of those in which some seat completed it,
    and completions per seat. `results` is a `simulate` frame of this game."""
    import pandas as pd

    players = int(results["players"].iloc[0])
    rows = []
    for column in sorted(c for c in results.columns if c.startswith("goal_")):
        in_play = results[column].notna()
        done = results.loc[in_play, column]
        rows.append({"goal": column[5:], "in_play": int(in_play.sum()),
                     "completed_in": float((done > 0).mean()) if len(done) else float("nan"),
                     "per_seat": float(done.mean() / players) if len(done) else float("nan")})
    return pd.DataFrame(rows).set_index("goal")


def win_rates_by_ship_type(results: Any) -> Any:
    """Per ship type: how many seats built at least one, and their win rate against the seats
    that did not. A type that wins far more often than the rest would dominate."""
    import pandas as pd

    players = int(results["players"].iloc[0])
    seats = []
    for _, row in results[results["error"] == ""].iterrows():
        winners = {int(w) for w in str(row["winners"]).split()}
        for seat in range(players):
            fleet = row[f"fleet_{seat}"]
            seats.append((set(fleet.split(",")) if fleet else set(), seat in winners))
    types = sorted(set().union(*(built for built, _ in seats)))
    rows = []
    for kind in types:
        with_it = [won for built, won in seats if kind in built]
        without = [won for built, won in seats if kind not in built]
        rows.append({"ship_type": kind, "seats_built": len(with_it),
                     "win_rate_built": sum(with_it) / len(with_it),
                     "win_rate_not_built": sum(without) / len(without) if without
                     else float("nan")})
    return pd.DataFrame(rows).set_index("ship_type")
