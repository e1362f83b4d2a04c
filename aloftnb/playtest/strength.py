"""How strong a bot is, at equal time per move (`python -m aloftnb strength` prints it).

A candidate (by default the game's default bot, `aloftnb.default_bot`) plays one opponent at a
time on one core per game: with two players one seat each, with more the candidate in one seat
and copies of the opponent in the others. Every deal is played in each distinct seat order on
the same seed, so no seat's edge favours either bot. Both search bots get the same seconds per
move: `seconds`, or the candidate's own time budget where that is less.

The candidate's share of the wins (a win shared by k seats counts 1/k) is compared with its fair
share (1 / players) and a target multiple of it, and judged by its 95% Wilson interval: "met"
when the whole interval is at or above the target, "short" when it is all below, "unclear" when
it straddles the target (more games would tell). Modes without rival seats (solo, cooperative)
have no fair share: there the candidate and the opponent each play the same deals alone and
their win rates are set side by side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.bots import MCTSBot, UCTBot, default_bot, make_bot
from ..core.registry import make_rules
from ..errors import AloftnbError
from .simulation import simulate
from .stats import wilson_interval

SECONDS_PER_MOVE = 0.25
# The target multiple of the fair share for each opponent (issue: the default bot against
# today's search, greedy and OpenSpiel's MCTS, all at equal time).
TARGETS: dict[str, float] = {"uct": 1.3, "greedy": 1.6, "openspiel-mcts": 1.0}


@dataclass(frozen=True)
class StrengthCase:
    """One game and mode to measure: its options and the games to play (deals x seat orders)."""

    game: str
    players: int
    label: str
    games: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def rivals(self) -> bool:
        """Whether the seats play against each other (fair shares apply)."""
        return self.players > 1 and self.options.get("mode", "competitive") == "competitive"


# Every game and mode: at least 100 games for balloons and ALU, 60 for sky commodores and
# Cloudspire (their games are long).
CASES: tuple[StrengthCase, ...] = (
    StrengthCase("balloons", 3, "balloons 3p fixed", 102, {"edition": "fixed"}),
    StrengthCase("balloons", 3, "balloons 3p choice", 102, {"edition": "choice"}),
    StrengthCase("balloons", 2, "balloons 2p fixed", 100, {"edition": "fixed"}),
    StrengthCase("balloons", 1, "balloons solo", 100, {"mode": "solo"}),
    StrengthCase("balloons", 3, "balloons 3p cooperative", 100, {"mode": "cooperative"}),
    StrengthCase("alu", 2, "ALU", 100),
    StrengthCase("commodores", 3, "commodores 3p", 60),
    StrengthCase("cloudspire", 2, "cloudspire 2p", 60),
    StrengthCase("cloudspire", 1, "cloudspire solo", 60, {"mode": "solo"}),
    StrengthCase("cloudspire", 2, "cloudspire 2p cooperative", 60, {"mode": "cooperative"}),
)


def timed(spec: str, seconds: float) -> str:
    """`spec` with its budget replaced by `seconds` per move (settings kept): "mcts:1000:mast"
    -> "mcts:0.25s:mast"; greedy and random have no budget and stay as they are."""
    bot = make_bot(spec)
    if isinstance(bot, MCTSBot):
        given = {k: v for k, v in bot.settings.items() if v is not None}
        exploration = given.pop("exploration", None)
        return MCTSBot(None, seconds, exploration, workers=bot.workers, **given).spec
    if isinstance(bot, UCTBot):
        return UCTBot(None, seconds, bot.exploration).spec
    if spec.startswith("openspiel-"):
        name = spec.split(":")[0]
        exploration = getattr(bot, "exploration", 2.0)
        tail = "" if exploration == 2.0 else f":c{exploration:g}"
        return f"{name}:{seconds:g}s{tail}"
    return bot.spec


def move_seconds(candidate: str, seconds: float = SECONDS_PER_MOVE) -> float:
    """The time per move both bots get: `seconds`, or the candidate's own budget if less."""
    own = getattr(make_bot(candidate), "seconds", None)
    return seconds if own is None else min(seconds, float(own))


def credit(results: pd.DataFrame, bot: str) -> tuple[float, int]:
    """`bot`'s wins in `results` (a win shared by k seats counts 1/k) and the games counted
    (those that ended normally)."""
    done = results[results["error"].fillna("") == ""]
    seats = [int(c.split("_")[1]) for c in done.columns
             if c.startswith("win_") and c.split("_")[1].isdigit()]
    wins = done[[f"win_{s}" for s in seats]].astype(float).sum(axis=1)
    total = 0.0
    for seat in seats:
        mine = (done[f"bot_{seat}"].astype(str) == bot) & (wins > 0)
        total += float((done.loc[mine, f"win_{seat}"].astype(float) / wins[mine]).sum())
    return total, len(done)


def verdict(low: float, high: float, target: float) -> str:
    """The interval against the target: met, short or unclear."""
    if math.isnan(low):
        return "unclear"
    if low >= target:
        return "met"
    if high < target:
        return "short"
    return "unclear"


def measure_case(case: StrengthCase, opponent: str, *, candidate: str | None = None,
                 seconds: float = SECONDS_PER_MOVE, seed: int = 0, workers: int | None = None,
                 games: int | None = None, progress: bool = False) -> dict[str, Any]:
    """One row: `candidate` (default: the case's default bot) against `opponent` in `case`."""
    rules = make_rules(case.game, case.players, **case.options)
    chosen = candidate or default_bot(rules)
    per_move = move_seconds(chosen, seconds)
    mine, theirs = timed(chosen, per_move), timed(opponent, per_move)
    if mine == theirs:
        raise AloftnbError(f"the candidate and the opponent are the same bot ({mine})")
    wanted = case.games if games is None else games
    row: dict[str, Any] = {"case": case.label, "game": case.game, "players": case.players,
                           "candidate": mine, "opponent": theirs, "seconds": per_move}
    if case.rivals:
        lineup = [mine] + [theirs] * (case.players - 1)
        orders = case.players  # distinct seatings of one candidate among copies
        results = simulate(case.game, players=case.players, bots=lineup, seed=seed,
                           games=max(1, math.ceil(wanted / orders)), rotate_seats=True,
                           workers=workers, progress=progress, **case.options)
        won, played = credit(results, mine)
        fair = 1.0 / case.players
        share = won / played if played else math.nan
        low, high = wilson_interval(won, played)
        multiple = TARGETS.get(opponent.split(":")[0], 1.0)
        row.update({"games": played, "wins": round(won, 2), "share": share, "low": low,
                    "high": high, "fair": fair, "target": multiple * fair,
                    "multiple": share / fair if played else math.nan})
        row["verdict"] = verdict(low, high, multiple * fair)
        return row
    # No rival seats: each bot plays the same deals on its own side.
    rates = {}
    for name, spec in (("candidate", mine), ("opponent", theirs)):
        results = simulate(case.game, players=case.players, bots=spec, seed=seed, games=wanted,
                           workers=workers, progress=progress, **case.options)
        done = results[results["error"].fillna("") == ""]
        won = float(done["win_0"].astype(float).sum())
        rates[name] = (won, len(done))
    (won, played), (their_won, their_played) = rates["candidate"], rates["opponent"]
    low, high = wilson_interval(won, played)
    their_low, their_high = wilson_interval(their_won, their_played)
    row.update({"games": played, "wins": won, "share": won / played if played else math.nan,
                "low": low, "high": high, "opponent_share": their_won / their_played
                if their_played else math.nan, "opponent_low": their_low,
                "opponent_high": their_high})
    row["verdict"] = ("better" if low > their_high else "worse" if high < their_low
                      else "unclear")
    return row


def strength(cases: Sequence[StrengthCase] = CASES,
             opponents: Sequence[str] = ("uct", "greedy", "openspiel-mcts"), *,
             candidate: str | None = None, seconds: float = SECONDS_PER_MOVE, seed: int = 0,
             workers: int | None = None, games: int | None = None,
             report: Callable[[dict[str, Any]], None] | None = None) -> pd.DataFrame:
    """Every case against every opponent (modes without rival seats: against uct only), one
    row each; `report` is called with each row as it is measured."""
    rows = []
    for case, opponent in pairs(cases, opponents):
        row = measure_case(case, opponent, candidate=candidate, seconds=seconds, seed=seed,
                           workers=workers, games=games)
        rows.append(row)
        if report is not None:
            report(row)
    return pd.DataFrame(rows)


def pairs(cases: Sequence[StrengthCase], opponents: Sequence[str]
          ) -> Iterator[tuple[StrengthCase, str]]:
    for case in cases:
        for opponent in opponents:
            if case.rivals or opponent.split(":")[0] == "uct":
                yield case, opponent
