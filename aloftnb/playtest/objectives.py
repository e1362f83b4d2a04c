"""Objectives of the balance lab: what `aloftnb.tune` drives towards 0.

Each objective is a small object with a name. From one trial's simulation results it gives an
`Estimate`: the value (0 is the goal; every objective is minimized) and a 95% interval around
it, built from the Wilson and Student-t intervals that `design_metrics` reports.

    aloftnb.objectives.seat_fairness()          # largest gap from a fair share of wins
    aloftnb.objectives.faction_fairness()       # the same per faction (Cloudspire)
    aloftnb.objectives.length_band(40, 80)      # mean length outside 40..80 actions
    aloftnb.objectives.coop_win_band(0.3, 0.5)  # a cooperative game's team win rate outside
    aloftnb.objectives.skill_shows("greedy", "random", 0.6)  # the stronger bot's shortfall
    aloftnb.objectives.fewest_changes()         # knobs moved from the shipped values
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pandas as pd

from ..core.bots import game_hooks, make_bot
from ..core.rules import AnyRules
from ..errors import AloftnbError
from .knobs import Knob
from .metrics import bot_win_rates, finished_games
from .stats import mean_interval, wilson_interval

__all__ = ["Estimate", "Objective", "TrialData", "as_objectives", "coop_win_band",
           "faction_fairness", "fewest_changes", "length_band", "seat_fairness", "skill_shows"]

Lineup = tuple[str, ...]  # the bot specs of a run, one per seat


class Estimate(NamedTuple):
    """An objective's value with its 95% interval (low, high); NaN ends when too few games."""

    value: float
    low: float
    high: float


@dataclass
class TrialData:
    """What a trial gives its objectives: the rules it played, its runs by line-up (the tune's
    own line-up is `lineup`), and its knob values."""

    rules: AnyRules
    lineup: Lineup
    runs: dict[Lineup, pd.DataFrame]
    knobs: tuple[Knob, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def results(self) -> pd.DataFrame:
        return self.runs[self.lineup]


def _outside(x: float, lo: float, hi: float) -> float:
    return max(0.0, lo - x, x - hi)


def _band(value: float, low: float, high: float, lo: float, hi: float) -> Estimate:
    """The distance outside [lo, hi] of a figure and the image of its interval under it."""
    if math.isnan(low) or math.isnan(high):
        return Estimate(_outside(value, lo, hi), math.nan, math.nan)
    ends = (_outside(low, lo, hi), _outside(high, lo, hi))
    overlaps = low <= hi and high >= lo
    return Estimate(_outside(value, lo, hi), 0.0 if overlaps else min(ends), max(ends))


def _gap(rates: list[tuple[float, float, float]], fair: float) -> Estimate:
    """The largest distance of a rate from `fair`, with bounds from each rate's interval: the
    low end is the largest distance that even the interval nearest `fair` keeps, the high end
    the largest distance any interval allows."""
    if not rates or math.isnan(fair):
        return Estimate(math.nan, math.nan, math.nan)
    value = max(abs(rate - fair) for rate, _, _ in rates)
    low = max(max(0.0, lo - fair, fair - hi) for _, lo, hi in rates)
    high = max(max(abs(lo - fair), abs(hi - fair)) for _, lo, hi in rates)
    return Estimate(value, low, high)


class Objective:
    """An objective: `name`, `description`, and `evaluate(trial) -> Estimate`.

    `lineup(players, lineup)` says which bots its games need: the tune's own line-up (the
    default), another one (the objective's own games), or None (no games at all)."""

    name: str = "objective"
    description: str = ""

    def lineup(self, players: int, lineup: Lineup) -> Lineup | None:
        return lineup

    def check(self, rules: AnyRules) -> None:
        """Refuse (AloftnbError) a game this objective cannot measure, before any game."""

    def evaluate(self, trial: TrialData) -> Estimate:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<objective {self.name}: {self.description}>"


def _fair_share(done: pd.DataFrame, players: int) -> float:
    """What each seat would win in a fair game: the mean of the seats' win rates. Without shared
    wins or games nobody wins it is 1/players; shared wins raise it, games nobody won lower it."""
    if not len(done):
        return math.nan
    return sum(float(done[f"win_{s}"].astype(float).mean()) for s in range(players)) / players


def _refuse_cooperative(rules: AnyRules, name: str) -> None:
    if rules.traits.cooperative or rules.players < 2:
        raise AloftnbError(f"{name} compares seats, but in {rules.name} "
                           f"({rules.players} seat{'s' * (rules.players != 1)}"
                           f"{', cooperative' if rules.traits.cooperative else ''}) the seats "
                           "share one outcome: use coop_win_band(lo, hi) instead")


class SeatFairness(Objective):
    """The largest gap between a seat's win rate and a fair share (shared wins count for each
    winner, so the fair share is the seats' mean rate: 1/players when every game has one
    winner)."""

    def __init__(self, name: str = "seat_fairness") -> None:
        self.name = name
        self.description = "largest gap between a seat's win rate and a fair share"

    def check(self, rules: AnyRules) -> None:
        _refuse_cooperative(rules, self.name)

    def evaluate(self, trial: TrialData) -> Estimate:
        done = finished_games(trial.results)
        players = trial.rules.players
        rates = []
        for seat in range(players):
            wins = float(done[f"win_{seat}"].astype(float).sum())
            low, high = wilson_interval(wins, len(done))
            rates.append((wins / len(done) if len(done) else math.nan, low, high))
        return _gap(rates, _fair_share(done, players))


def seat_factions(rules: AnyRules) -> list[str] | None:
    """The faction each seat fields (a game's rules name them in `faction_of`), else None."""
    factions = getattr(rules, "faction_of", None)
    if factions is None:
        return None
    return [str(getattr(f, "id", f)) for f in list(factions)[:rules.players]]


class FactionFairness(Objective):
    """The largest gap between a faction's win rate (over the seat-games it was fielded in) and
    a fair share: 50% in a two-faction pairing, the seats' mean rate otherwise."""

    def __init__(self, name: str = "faction_fairness") -> None:
        self.name = name
        self.description = "largest gap between a faction's win rate and a fair share"

    def check(self, rules: AnyRules) -> None:
        _refuse_cooperative(rules, self.name)
        factions = seat_factions(rules)
        if factions is None or len(set(factions)) < 2:
            raise AloftnbError(f"{self.name}: the seats of {rules.name} do not field different "
                               "factions (the rules name none in faction_of)")

    def evaluate(self, trial: TrialData) -> Estimate:
        done = finished_games(trial.results)
        factions = seat_factions(trial.rules) or []
        rates = []
        for faction in dict.fromkeys(factions):
            seats = [s for s, f in enumerate(factions) if f == faction]
            played = len(done) * len(seats)
            wins = sum(float(done[f"win_{s}"].astype(float).sum()) for s in seats)
            low, high = wilson_interval(wins, played)
            rates.append((wins / played if played else math.nan, low, high))
        return _gap(rates, _fair_share(done, trial.rules.players))


def _check_band(name: str, lo: Any, hi: Any) -> None:
    for end in (lo, hi):
        if isinstance(end, bool) or not isinstance(end, (int, float)) or not math.isfinite(end):
            raise AloftnbError(f"{name}: the band's ends must be numbers, not {end!r}")
    if lo > hi:
        raise AloftnbError(f"{name}: the band's low end {lo!r} is above its high end {hi!r}")


GENERIC_MEASURES = ("length", "chance_steps", "branching", "lead_changes", "score_spread")


class LengthBand(Objective):
    """How far the mean game length lies outside [lo, hi] (0 inside): `measure` is "length"
    (actions) or any numeric column of the results, e.g. a game's own count of rounds or waves
    ("waves_played" in Cloudspire, "turns" in Alu)."""

    def __init__(self, lo: float, hi: float, measure: str = "length",
                 name: str = "length_band") -> None:
        _check_band(name, lo, hi)
        self.name, self.lo, self.hi, self.measure = name, lo, hi, measure
        self.description = f"mean {measure} outside {lo:g}..{hi:g}"

    def check(self, rules: AnyRules) -> None:
        known = list(GENERIC_MEASURES) + list(game_hooks(rules).MEASURES)
        if self.measure not in known:
            raise AloftnbError(f"{self.name}: {rules.name}'s results have no measure "
                               f"{self.measure!r} (they have {', '.join(known)})")

    def evaluate(self, trial: TrialData) -> Estimate:
        done = finished_games(trial.results)
        mean, low, high = mean_interval(done[self.measure].astype(float).dropna().tolist())
        return _band(mean, low, high, self.lo, self.hi)


class CoopWinBand(Objective):
    """How far a cooperative (or solo) game's win rate lies outside [lo, hi] (0 inside)."""

    def __init__(self, lo: float, hi: float, name: str = "coop_win_band") -> None:
        _check_band(name, lo, hi)
        self.name, self.lo, self.hi = name, lo, hi
        self.description = f"team win rate outside {lo:g}..{hi:g}"

    def check(self, rules: AnyRules) -> None:
        if not rules.traits.cooperative and rules.players > 1:
            raise AloftnbError(f"{self.name} is for cooperative or solo games; {rules.name} "
                               "with these options is competitive: use seat_fairness")

    def evaluate(self, trial: TrialData) -> Estimate:
        done = finished_games(trial.results)
        won = done["winners"].fillna("").astype(str).str.strip() != ""
        wins, n = float(won.sum()), len(done)
        low, high = wilson_interval(wins, n)
        return _band(wins / n if n else math.nan, low, high, self.lo, self.hi)


class SkillShows(Objective):
    """How far the stronger bot's win rate falls short of `threshold` (0 when it reaches it),
    from its own games: `strong` at one seat, `weak` at every other, in every seat order.
    The default threshold is a fair share plus 0.1 (0.6 for two players)."""

    def __init__(self, strong: str = "greedy", weak: str = "random",
                 threshold: float | None = None, name: str = "skill_shows") -> None:
        strong, weak = make_bot(strong).spec, make_bot(weak).spec  # refuse an unknown bot now
        if strong == weak:
            raise AloftnbError(f"{name}: the strong and the weak bot are both {strong!r}")
        if threshold is not None:
            _check_band(name, threshold, threshold)
        self.name, self.strong, self.weak, self.threshold = name, strong, weak, threshold
        self.description = f"{strong}'s win rate against {weak} short of the threshold"

    def lineup(self, players: int, lineup: Lineup) -> Lineup | None:
        return (self.strong,) + (self.weak,) * (players - 1)

    def check(self, rules: AnyRules) -> None:
        _refuse_cooperative(rules, self.name)

    def evaluate(self, trial: TrialData) -> Estimate:
        players = trial.rules.players
        run = trial.runs[self.lineup(players, trial.lineup) or ()]
        threshold = self.threshold if self.threshold is not None else 1 / players + 0.1
        rates = bot_win_rates(run)
        if self.strong not in rates.index:
            return Estimate(math.nan, math.nan, math.nan)
        figures = rates.loc[self.strong].astype(float).to_dict()
        short = [max(0.0, threshold - float(figures[k])) for k in ("win_rate", "high", "low")]
        return Estimate(short[0], short[1], short[2])


class FewestChanges(Objective):
    """How far the settings are from the shipped ones: "count" (knobs moved, the default) or
    "distance" (the sum of each knob's move as a fraction of its range; 1 per changed listed
    value). Needs no games; its interval is the value itself."""

    def __init__(self, measure: str = "count", name: str = "fewest_changes") -> None:
        if measure not in ("count", "distance"):
            raise AloftnbError(f"{name}: measure is 'count' or 'distance', not {measure!r}")
        self.name, self.measure = name, measure
        self.description = ("knobs moved from the shipped values" if measure == "count" else
                            "normalized distance from the shipped values")

    def lineup(self, players: int, lineup: Lineup) -> Lineup | None:
        return None

    def evaluate(self, trial: TrialData) -> Estimate:
        total = 0.0
        for knob in trial.knobs:
            moved = knob.distance(trial.values.get(knob.name, knob.shipped))
            total += (1.0 if moved else 0.0) if self.measure == "count" else moved
        return Estimate(total, total, total)


def seat_fairness(name: str = "seat_fairness") -> Objective:
    """The largest gap between a seat's win rate and a fair share (see SeatFairness)."""
    return SeatFairness(name)


def faction_fairness(name: str = "faction_fairness") -> Objective:
    """The largest gap between a faction's win rate and a fair share (see FactionFairness)."""
    return FactionFairness(name)


def length_band(lo: float, hi: float, measure: str = "length",
                name: str = "length_band") -> Objective:
    """The mean game length's distance outside [lo, hi] (see LengthBand)."""
    return LengthBand(lo, hi, measure, name)


def coop_win_band(lo: float, hi: float, name: str = "coop_win_band") -> Objective:
    """A cooperative game's win rate's distance outside [lo, hi] (see CoopWinBand)."""
    return CoopWinBand(lo, hi, name)


def skill_shows(strong: str = "greedy", weak: str = "random", threshold: float | None = None,
                name: str = "skill_shows") -> Objective:
    """The stronger bot's shortfall from a winning threshold (see SkillShows)."""
    return SkillShows(strong, weak, threshold, name)


def fewest_changes(measure: str = "count", name: str = "fewest_changes") -> Objective:
    """How many knobs moved, or how far (see FewestChanges)."""
    return FewestChanges(measure, name)


BY_NAME: dict[str, Callable[[], Objective]] = {
    "seat_fairness": seat_fairness, "faction_fairness": faction_fairness,
    "skill_shows": skill_shows, "fewest_changes": fewest_changes}
NEEDS_ARGUMENTS = {"length_band": "length_band(lo, hi)", "coop_win_band": "coop_win_band(lo, hi)"}


def as_objectives(objectives: Any) -> tuple[Objective, ...]:
    """One objective or several, as objects or names; AloftnbError for anything else."""
    given: Sequence[Any] = (objectives if isinstance(objectives, (list, tuple))
                            else [objectives])
    made: list[Objective] = []
    for item in given:
        if isinstance(item, Objective):
            made.append(item)
        elif isinstance(item, str) and item in BY_NAME:
            made.append(BY_NAME[item]())
        elif isinstance(item, str) and item in NEEDS_ARGUMENTS:
            raise AloftnbError(f"objective {item!r} needs its band: "
                               f"aloftnb.objectives.{NEEDS_ARGUMENTS[item]}")
        else:
            known = ", ".join(sorted(BY_NAME) + sorted(NEEDS_ARGUMENTS))
            raise AloftnbError(f"unknown objective {item!r}: give an aloftnb.objectives object "
                               f"or one of {known}")
    if not made:
        raise AloftnbError("tune needs at least one objective")
    names = [o.name for o in made]
    for name in names:
        if names.count(name) > 1:
            raise AloftnbError(f"two objectives are named {name!r}: give one another name "
                               "(name=...)")
    return tuple(made)
