"""Restricted play, after Jaffe et al.: how much a seat loses when it is barred from a strategy.

`restricted_play(game, restrictions)` plays a baseline (every seat the same bot, unrestricted)
and, per restriction, the same deals again with one seat restricted, rotated through every seat.
`RestrictedPlay` holds the table (one row per restriction: win rates, the cost with its interval,
how often the restriction applied and was forced, a verdict in words), the runs and a plot.
"""

from __future__ import annotations

import concurrent.futures as cf
import html
import math
import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.bots import Bot, make_bot
from ..core.registry import make_rules, rules_class
from ..core.rules import AnyRules
from ..errors import AloftnbError, InvalidOptions, InvalidRestriction
from .metrics import finished_games
from .progress import ProgressBar
from .restrictions import (
    RestrictedBot,
    Restriction,
    probe_restrictions,
    resolve_restrictions,
    restriction_tally,
)
from .simulation import simulate
from .stats import mean_interval, wilson_interval

__all__ = ["NARROW", "RestrictedPlay", "restricted_play", "verdict"]

# "Costs nothing" needs the cost's whole 95% interval within this many win-rate points of 0.
NARROW = 0.05
# A verdict mentions forcing once the restriction could not be kept at this share of the
# decisions it applied to: its cost then understates what the strategy is worth.
FORCED_NOTE = 0.10

COLUMNS = ["win_rate", "win_low", "win_high", "baseline", "fair_share", "cost", "cost_low",
           "cost_high", "games", "applied", "forced", "verdict"]


def _points(share: float) -> str:
    return f"{100 * share:.1f}"


def verdict(cost: float, low: float, high: float, applied: float, forced: float) -> str:
    """The verdict in words on a restriction's cost (win-rate share, baseline − restricted) and
    its 95% interval; `applied` and `forced` are shares of the restricted seat's decisions."""
    if math.isnan(cost):
        return "no finished games: nothing measured"
    if applied == 0:
        return "never applied: it barred no action the seat had"
    if forced >= 1:
        return "always forced: the seat never had another choice, nothing measured"
    if math.isnan(low):
        return "too few games to tell"
    if low > 0:
        text = f"costs {_points(cost)} points"
    elif high < 0:
        text = f"wins {_points(-cost)} points: a dominant strategy to avoid this"
    elif -NARROW <= low and high <= NARROW:
        text = "costs nothing: the feature may be useless"
    else:
        text = (f"unclear: between {_points(low)} and {_points(high)} points; "
                "play more games")
    if forced >= FORCED_NOTE:
        text += (f" (forced at {forced:.0%} of the decisions it applied to, so it measures "
                 "less)")
    return text


@dataclass
class RestrictedPlay:
    """What `restricted_play` measured. `table`: one row per restriction (see `restricted_play`);
    `baseline`: the unrestricted run (exactly `simulate`'s); `runs`: each restriction's rotated
    run; `plot()`: the costs with their intervals (bokeh)."""

    game: str
    players: int
    bot: str
    games: int
    seed: int
    options: dict[str, Any]
    restrictions: list[Restriction]
    table: pd.DataFrame
    baseline: pd.DataFrame
    runs: dict[str, pd.DataFrame] = field(default_factory=dict)
    interrupted: bool = False

    def _lines(self) -> list[str]:
        head = (f"{self.game}, {self.players} players, {self.bot} bots: {self.games} deals, "
                "each restriction carried by every seat in turn")
        lines = [head + (" (interrupted: partial)" if self.interrupted else "")]
        for name, row in self.table.iterrows():
            lines.append(f"  {name}: win rate {row['win_rate']:.3f} vs {row['baseline']:.3f}, "
                         f"cost {_points(row['cost'])} points ({_points(row['cost_low'])} to "
                         f"{_points(row['cost_high'])}): {row['verdict']}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._lines())

    def _repr_html_(self) -> str:
        head = f"<p>{html.escape(self._lines()[0])}</p>"
        return head + self.table.to_html(float_format=lambda v: f"{v:.3g}")

    def plot(self) -> Any:
        """The cost of each restriction in win-rate points with its 95% interval (bokeh)."""
        from .restriction_plots import restriction_plot

        return restriction_plot(self)


def _default_players(game: str, options: dict[str, Any]) -> int:
    """The smallest count of two or more seats these options allow (else the smallest)."""
    counts = sorted(rules_class(game).traits.player_counts)
    for n in [n for n in counts if n >= 2] + counts:
        try:
            make_rules(game, n, **options)
        except InvalidOptions:
            continue
        return n
    return counts[0]  # every count refused: make_rules says why below


def _one_bot(bots: Any) -> Bot:
    if isinstance(bots, str) and "," in bots or isinstance(bots, (list, tuple)):
        raise AloftnbError("restricted play seats one kind of bot everywhere (one seat carries "
                           f"the restriction): give one bot, not {bots!r:.80}")
    return make_bot(bots)


def _executor(restrictions: list[Restriction], workers: int | None,
              executor: cf.Executor | None) -> tuple[cf.Executor | None, int | None, bool]:
    """(executor, workers, ours): a restriction that cannot be pickled (a lambda) reaches only
    forked workers, so its runs get a forked pool (or run here when fork is unavailable)."""
    if executor is not None or workers == 1 or all(r.portable for r in restrictions):
        return executor, workers, False
    if "fork" not in multiprocessing.get_all_start_methods():
        return None, 1, False
    for restriction in restrictions:
        if not restriction.portable:
            restriction.local_key()
    pool = cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1,
                                  mp_context=multiprocessing.get_context("fork"))
    return pool, None, True


def restricted_play(game: str, restrictions: Any = None, *, players: int | None = None,
                    bots: str | Bot = "greedy", games: int = 200, seed: int = 0,
                    workers: int | None = None, executor: cf.Executor | None = None,
                    progress: bool | Callable[[int, int], None] = True,
                    **options: Any) -> RestrictedPlay:
    """How much a seat loses when barred from a strategy (docs/playtesting.md, "Restricted play").

    - `restrictions`: None (the game's suggestions, its hooks' `restrictions`), a dict
      {name: predicate}, or a list of suggestion names, (name, predicate) pairs and
      Restrictions. A predicate `bars(action)` or `bars(state, action)` is True for an action
      the restricted seat may not play.
    - `bots`: one bot for every seat (default greedy); `players`: default the game's smallest
      count of two or more.
    - The baseline is `simulate(game, players, bots=bot, games, seed)` exactly. Each restriction
      is then played on the same `games` deals once per seat (seats rotated), by one restricted
      seat against unrestricted bots of the same kind, on the same game seeds.

    Table columns, one row per restriction: `win_rate` of the restricted seat with its 95%
    Wilson interval (`win_low`, `win_high`); `baseline`, the unrestricted seats' win rate on the
    same deals and seats; `fair_share` (1/players; NaN in cooperative games); `cost` = baseline
    − win_rate with a 95% interval over deals (`cost_low`, `cost_high`); `games` (restricted
    seat-games that finished); `applied` (share of the restricted seat's decisions at which the
    restriction barred something); `forced` (share of those at which it barred everything, so
    the seat played from all of them); `verdict`.
    """
    if players is None:
        players = _default_players(game, options)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AloftnbError(f"games must be a whole number >= 1, not {games!r}")
    rules = make_rules(game, players, **options)
    bot = _one_bot(bots)
    chosen = resolve_restrictions(rules, restrictions)
    probe_restrictions(rules, chosen, seed)  # a predicate that raises is named before any game
    orders = players  # the restricted seat at each seat in turn
    total = games * (1 + orders * len(chosen))
    bar = ProgressBar(total) if progress is True else None
    report = progress if callable(progress) else None
    done = [0]

    def hook(finished: int, _: int) -> None:
        if bar is not None:
            bar.update(done[0] + finished)
        if report is not None:
            report(done[0] + finished, total)

    pool, workers, ours = _executor(chosen, workers, executor)
    pool = pool if pool is not None else executor
    runs: dict[str, pd.DataFrame] = {}
    interrupted = False
    settings: dict[str, Any] = dict(players=players, games=games, seed=seed, workers=workers,
                                    executor=pool, progress=hook, **options)
    try:
        baseline = simulate(game, bots=bot, **settings)
        done[0] += len(baseline)
        interrupted = bool(baseline.attrs.get("interrupted"))
        for restriction in chosen:
            if interrupted:
                break
            lineup = [RestrictedBot(bot, restriction)] + [bot] * (players - 1)
            run = simulate(game, bots=lineup, rotate_seats=True, **settings)
            _raise_restriction_error(run)
            runs[restriction.name] = run
            done[0] += len(run)
            interrupted = bool(run.attrs.get("interrupted"))
    finally:
        if ours and pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close(interrupted)
    rows = [_row(rules, r, baseline, runs[r.name]) for r in chosen if r.name in runs]
    table = pd.DataFrame(rows, columns=["restriction", *COLUMNS]).set_index("restriction")
    return RestrictedPlay(game, players, bot.spec, games, seed, dict(rules.options), chosen,
                          table, baseline, runs, interrupted)


def _raise_restriction_error(run: pd.DataFrame) -> None:
    """A predicate that raised during a game gave that game an error row: name it instead."""
    marker = "raised InvalidRestriction: "
    for error in run["error"].fillna("").astype(str) if "error" in run else ():
        if marker in error:
            raise InvalidRestriction(error.split(marker, 1)[1])


def _restricted_seat(order: str) -> int:
    """The seat of the restricted bot (line-up index 0) in a rotated row's `seat_order`."""
    return [int(i) for i in order.split()].index(0)


def _row(rules: AnyRules, restriction: Restriction, baseline: pd.DataFrame,
         run: pd.DataFrame) -> dict[str, Any]:
    """One restriction's figures, paired with the baseline deal by deal and seat by seat."""
    base = finished_games(baseline).set_index("game_index")
    done = finished_games(run)
    complete = done.groupby("deal").size() == rules.players  # every seat's game finished
    pairs: dict[int, list[tuple[float, float]]] = {}
    decisions = applied = forced = 0
    for _, row in done[done["deal"].map(complete).fillna(False).astype(bool)].iterrows():
        deal = int(row["deal"])
        if deal not in base.index:
            continue
        seat = _restricted_seat(str(row["seat_order"]))
        pairs.setdefault(deal, []).append((float(base[f"win_{seat}"][deal]),
                                           float(row[f"win_{seat}"])))
        moves = row["moves"] if isinstance(row["moves"], str) else ""
        tally = restriction_tally(rules, restriction, int(row["seed"]), moves, seat)
        if tally.broken:
            raise AloftnbError(f"restriction {restriction.name!r}: the {row[f'bot_{seat}']} "
                               "bot played a barred action it could have avoided (it does not "
                               "read its choices from rules.legal_actions)")
        decisions, applied, forced = (decisions + tally.decisions, applied + tally.applied,
                                      forced + tally.forced)
    wins = [won for deal in pairs.values() for _, won in deal]
    base_wins = [won for deal in pairs.values() for won, _ in deal]
    costs = [sum(b - r for b, r in deal) / len(deal) for deal in pairs.values()]
    cost, low, high = mean_interval(costs)
    n = len(wins)
    win_low, win_high = wilson_interval(sum(wins), n)
    applied_share = applied / decisions if decisions else math.nan
    forced_share = forced / applied if applied else 0.0
    return {
        "restriction": restriction.name,
        "win_rate": sum(wins) / n if n else math.nan, "win_low": win_low, "win_high": win_high,
        "baseline": sum(base_wins) / n if n else math.nan,
        "fair_share": math.nan if rules.traits.cooperative else 1 / rules.players,
        "cost": cost, "cost_low": low, "cost_high": high, "games": n,
        "applied": applied_share, "forced": forced_share,
        "verdict": verdict(cost, low, high, applied_share if decisions else 0.0, forced_share),
    }
