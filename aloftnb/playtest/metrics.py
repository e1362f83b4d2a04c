"""Design metrics of simulation results, after Ludii's game evaluation metrics.

Balance (win rate per seat with 95% intervals), first-player advantage, decisiveness and ties,
duration, branching factor, lead changes (drama), score spread, and each game's own measures
(its hooks module's MEASURES). Errored games are counted, then left out of every other metric.
"""

from __future__ import annotations

import json
import math
import warnings
from typing import Any

import pandas as pd

from ..core.bots import game_hooks
from ..core.hooks import AnyHooks
from ..core.registry import make_rules
from ..core.rules import AnyRules
from ..errors import AloftnbError
from .stats import mean_interval, wilson_interval

# Metrics measured per game and averaged; proportions get Wilson intervals.
GENERIC = {
    "decisiveness": ("proportion", "share of games with exactly one winner"),
    "ties": ("proportion", "share of games won by several seats at once (shared wins)"),
    "duration": ("mean", "actions per game"),
    "branching_factor": ("mean", "legal actions per decision, averaged over each game"),
    "lead_changes": ("mean", "times the sole leader changed, checked after each round"),
    "score_spread": ("mean", "best final score minus worst"),
}


class SeatsNotComparableWarning(UserWarning):
    """A seat effect (first-player advantage, balance, per-seat win rates) was computed from a run
    in which different bots sat at different seats, so it mixes the seat with the bot."""


def check_results(df: Any) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise AloftnbError(f"expected simulation results (a DataFrame), not {type(df).__name__}")
    for column in ("game", "players", "error", "winners", "length"):
        if column not in df:
            raise AloftnbError(f"these results have no {column!r} column; they are not from "
                               "aloftnb.simulate")
    if df["players"].nunique() > 1 or df["game"].nunique() > 1:
        raise AloftnbError("these results mix games or player counts; measure each on its own")
    return df


def finished_games(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of games that ended normally (no bot or rules error)."""
    errors = df["error"].fillna("").astype(str)
    return df[errors == ""]


def seats(df: pd.DataFrame) -> int:
    return int(df["players"].iloc[0]) if len(df) else 0


def rules_for(df: pd.DataFrame) -> AnyRules | None:
    """The rules the results were played with, from their first row (None when empty)."""
    if not len(df):
        return None
    row = df.iloc[0]
    options = json.loads(row["options"]) if "options" in df else {}
    return make_rules(str(row["game"]), int(row["players"]), **options)


def hooks_for(df: pd.DataFrame) -> AnyHooks | None:
    """The game's hooks (MEASURES, positions...), from the results' first row."""
    rules = rules_for(df)
    return None if rules is None else game_hooks(rules)


def _winner_counts(done: pd.DataFrame) -> pd.Series:
    return done["winners"].fillna("").astype(str).map(lambda text: len(text.split()))


def metric_samples(df: pd.DataFrame) -> dict[str, tuple[str, list[float], str]]:
    """Per-game samples of every metric: {name: (kind, values, description)}."""
    check_results(df)
    done = finished_games(df)
    n_seats = seats(df)
    samples: dict[str, tuple[str, list[float], str]] = {}
    samples["error_rate"] = ("proportion", [0.0 if not e else 1.0 for e in
                                            df["error"].fillna("").astype(str)],
                             "share of games stopped by a bot or rules error")
    for seat in range(n_seats):
        bot = seat_bot_label(done, seat) or "?"
        samples[f"win_rate_seat_{seat}"] = (
            "proportion", done[f"win_{seat}"].astype(float).tolist(),
            f"share of games seat {seat} ({bot}) won, shared wins included")
    winners = _winner_counts(done)
    values = {
        "decisiveness": (winners == 1).astype(float).tolist(),
        "ties": (winners > 1).astype(float).tolist(),
        "duration": done["length"].astype(float).tolist(),
        "branching_factor": done["branching"].astype(float).tolist(),
        "lead_changes": done["lead_changes"].astype(float).tolist(),
        "score_spread": done["score_spread"].astype(float).tolist(),
    }
    for name, (kind, description) in GENERIC.items():
        samples[name] = (kind, values[name], description)
    rules = rules_for(df)
    if rules is not None and rules.traits.chance != "none" and "chance_steps" in done:
        samples["chance_steps"] = ("mean", done["chance_steps"].astype(float).tolist(),
                                   "chance steps per game (draws, rolls), not counted in duration")
    for phase in (rules.phases if rules is not None and len(rules.phases) > 1 else ()):
        # Phases where nobody decides (a dice roll) have no length or branching of their own.
        if f"length_{phase}" in done and done[f"length_{phase}"].astype(float).sum() > 0:
            samples[f"duration_{phase}"] = (
                "mean", done[f"length_{phase}"].astype(float).tolist(),
                f"decisions per game in the {phase} phase")
            samples[f"branching_{phase}"] = (
                "mean", done[f"branching_{phase}"].dropna().astype(float).tolist(),
                f"legal actions per decision in the {phase} phase")
    for seat in range(n_seats):
        samples[f"score_seat_{seat}"] = ("mean", done[f"score_{seat}"].astype(float).tolist(),
                                         f"seat {seat}'s final score")
    hooks = hooks_for(df)
    for name, description in (hooks.MEASURES if hooks is not None else {}).items():
        if name in done:
            samples[name] = ("mean", done[name].astype(float).tolist(), description)
    return samples


def seat_bot_label(done: pd.DataFrame, seat: int) -> str:
    """The bot at `seat`: its spec, or "rotated: a, b" when several bots took turns there."""
    specs: list[str] = done[f"bot_{seat}"].astype(str).unique().tolist() if len(done) else []
    if len(specs) == 1:
        return specs[0]
    return "rotated: " + ", ".join(sorted(specs)) if specs else ""


def seat_bot_counts(df: pd.DataFrame) -> pd.DataFrame:
    """How many finished games each bot (rows) played at each seat (columns)."""
    check_results(df)
    done = finished_games(df)
    counts = {seat: done[f"bot_{seat}"].astype(str).value_counts()
              for seat in range(seats(df))}
    return pd.DataFrame(counts).fillna(0).astype(int).rename_axis(index="bot", columns="seat")


def seats_comparable(df: pd.DataFrame) -> bool:
    """Whether every seat saw the same bots equally often (true for one bot everywhere, and for
    `simulate(..., rotate_seats=True)`): only then do per-seat figures measure the seat alone."""
    counts = seat_bot_counts(df)
    return counts.empty or bool((counts.nunique(axis=1) <= 1).all())


def _warn_seats_not_comparable(df: pd.DataFrame, what: str) -> None:
    warnings.warn(
        f"{what} compare seats at which different bots sat (e.g. seat 0: "
        f"{seat_bot_label(finished_games(df), 0)}), so it mixes the seat with the bot; "
        "simulate(..., rotate_seats=True) plays every seat order, and bot_win_rates() gives "
        "each bot's own rate", SeatsNotComparableWarning, stacklevel=3)


def bot_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate per bot with a 95% Wilson interval, whatever seats it sat at.

    A bot sitting at two seats of a game counts twice there (`seats` counts seat-games). With
    seats rotated this is the bot's strength with the seat effects averaged out.
    """
    check_results(df)
    done = finished_games(df)
    totals: dict[str, list[float]] = {}
    for seat in range(seats(df)):
        bots = done[f"bot_{seat}"].astype(str)
        wins = done[f"win_{seat}"].astype(float)
        for bot in bots.unique():
            mask = bots == bot
            entry = totals.setdefault(bot, [0.0, 0.0])
            entry[0] += float(mask.sum())
            entry[1] += float(wins[mask].sum())
    rows = []
    for bot, (played, won) in totals.items():
        low, high = wilson_interval(won, int(played))
        rows.append({"bot": bot, "seats": int(played), "wins": won,
                     "win_rate": won / played if played else math.nan, "low": low,
                     "high": high})
    columns = ["bot", "seats", "wins", "win_rate", "low", "high"]
    return pd.DataFrame(rows, columns=columns).set_index("bot")


def win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate per seat with a 95% Wilson interval (shared wins count for each winner)."""
    check_results(df)
    done = finished_games(df)
    rows = []
    for seat in range(seats(df)):
        wins = float(done[f"win_{seat}"].sum())
        low, high = wilson_interval(wins, len(done))
        rows.append({"seat": seat, "bot": seat_bot_label(done, seat),
                     "games": len(done), "wins": wins,
                     "win_rate": wins / len(done) if len(done) else math.nan,
                     "low": low, "high": high})
    return pd.DataFrame(rows).set_index("seat")


def _summarize(kind: str, values: list[float]) -> tuple[float, float, float]:
    if kind == "proportion":
        if not values:
            return math.nan, math.nan, math.nan
        low, high = wilson_interval(sum(values), len(values))
        return sum(values) / len(values), low, high
    return mean_interval(values)


def design_metrics(df: pd.DataFrame) -> pd.DataFrame:
    """One row per metric: value, its 95% interval (low, high) and what it measures.

    Per-seat figures (win_rate_seat_N, first_player_advantage, balance) measure the seats only
    when every seat saw the same bots: otherwise a SeatsNotComparableWarning is raised and their
    descriptions say so. With several bots, win_rate_bot[spec] rows give each bot's own rate.
    """
    samples = metric_samples(df)
    comparable = seats_comparable(df)
    if not comparable:
        _warn_seats_not_comparable(df, "design_metrics' first_player_advantage and balance")
    done = finished_games(df)
    rows: list[dict[str, Any]] = [
        {"metric": "games", "value": float(len(done)), "low": math.nan, "high": math.nan,
         "description": "games that ended normally"},
    ]
    n_seats = seats(df)
    rates = win_rates(df) if n_seats else None
    for name, (kind, values, description) in samples.items():
        value, low, high = _summarize(kind, values)
        rows.append({"metric": name, "value": value, "low": low, "high": high,
                     "description": description})
        if name == "win_rate_seat_0" and n_seats > 1:
            fair = 1.0 / n_seats
            rows.append({"metric": "first_player_advantage", "value": value - fair,
                         "low": low - fair, "high": high - fair,
                         "description": f"seat 0's win rate minus a fair share (1/{n_seats})"})
        if name == f"win_rate_seat_{n_seats - 1}" and n_seats > 1 and rates is not None:
            spread = float(rates["win_rate"].max() - rates["win_rate"].min())
            rows.append({"metric": "balance", "value": 1.0 - spread, "low": math.nan,
                         "high": math.nan,
                         "description": "1 minus the gap between the best and worst seat's "
                                        "win rate (1 is perfectly balanced)"})
    if not comparable:
        for row in rows:
            if row["metric"].startswith("win_rate_seat_") or row["metric"] in (
                    "first_player_advantage", "balance"):
                row["description"] += " [seats not comparable: different bots sat there]"
    by_bot = bot_win_rates(df)
    if len(by_bot) > 1:
        for bot, r in by_bot.iterrows():
            rows.append({"metric": f"win_rate_bot[{bot}]", "value": r["win_rate"],
                         "low": r["low"], "high": r["high"],
                         "description": f"share of its seat-games the {bot} bot won, "
                                        "whatever the seat"})
    return pd.DataFrame(rows).set_index("metric")
