"""Evidence for a game's shipped numbers: named, seeded simulations stored with the setting they
were measured on, read back, pooled by group and checked against the targets they stand for.

A directory of evidence holds `measurements.json` (what to play, and what each group of runs is
meant to show) and, per run, `runs/<name>.csv.gz` (simulate's rows, without the move lists: a
game is replayed from its seed) and `runs/<name>.json` (how and on what it was measured):

    {"groups": [{"group": "cloudspire, 2 players: factions", "game": "cloudspire",
                 "players": 2, "bots": "greedy", "seed": 11,
                 "claims": [{"factions_between": [0.45, 0.55]}],
                 "runs": [{"name": "cs2-ember-mist", "games": 400,
                           "options": {"factions": ["emberwrights", "mistveil"]}}, ...]}]}

Claims: `{"seats_within": 0.05}` (every seat's win rate within 5 points of its fair share, the
seats' mean), `{"factions_between": [lo, hi]}` (every faction's share of the games between the
factions it met, a shared win split between its winners), `{"mean": column, "between": [lo, hi]}`
(a column's mean: `win_0` for cooperative seats, `gate_fell`...) and `{"bot": spec,
"between": [lo, hi]}` (the share of its seat-games a bot won; a run may name its own `bots`, so
that a stronger bot sits in each seat in turn).

A group's `role` is "target" (the default: its claims are the targets the shipped numbers were
chosen to meet) or "check" (the same claims asked of another player, a stronger bot say, on a
smaller sample: a missed claim there is a disagreement to report, not a target missed).

Each run records a digest of its setting (the options a save records, the catalogue's data
included); `evidence_status` says which runs were measured on other data, and whether each run's
shortest game still plays out as stored, so evidence that today's rules would change shows.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
import textwrap
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.processes import process_context, registered_here
from ..core.registry import make_rules
from ..core.rules import AnyRules
from ..errors import AloftnbError
from .stats import wilson_interval

__all__ = ["Group", "Run", "evidence_plot", "evidence_status", "evidence_table", "load_groups",
           "measure", "measured_as_asked", "read_meta", "read_run", "replays", "seconds_a_game",
           "setting_digest"]

SPEC_FILE = "measurements.json"
RUNS = "runs"
LEFT_OUT = ("moves",)  # long, and a game replays from its seed
ROLES = ("target", "check")
TITLE_CHARACTERS = 70  # what a plot title of the playtest plots' width holds


@dataclass(frozen=True)
class Run:
    """One seeded simulation of a group."""

    name: str
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: str | None = None  # the group's bots when None

    def bots_of(self, group: Group) -> str:
        return self.bots if self.bots is not None else group.bots


@dataclass(frozen=True)
class Group:
    """Runs of one setting (seat orders or faction rotations of it) pooled for their claims."""

    group: str
    game: str
    players: int
    bots: str
    seed: int
    claims: tuple[dict[str, Any], ...]
    runs: tuple[Run, ...]
    role: str = "target"  # or "check" (see the module's docstring)


def load_groups(directory: str | Path) -> list[Group]:
    """The groups of `directory`/measurements.json; AloftnbError naming what is malformed."""
    path = Path(directory) / SPEC_FILE
    try:
        data = json.loads(path.read_text("utf-8"))
        groups = []
        for g in data["groups"]:
            runs = tuple(Run(r["name"], int(r["games"]), dict(r.get("options", {})),
                             r.get("bots")) for r in g["runs"])
            claims = tuple(dict(c) for c in g.get("claims", ()))
            for claim in claims:
                _claim_kind(claim)
            role = g.get("role", "target")
            if role not in ROLES:
                raise ValueError(f"group {g['group']!r}: role is one of {', '.join(ROLES)}, "
                                 f"not {role!r}")
            groups.append(Group(g["group"], g["game"], int(g["players"]), g.get("bots", "greedy"),
                                int(g.get("seed", 0)), claims, runs, role))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise AloftnbError(f"{path}: {type(exc).__name__}: {exc}") from exc
    names = [r.name for g in groups for r in g.runs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise AloftnbError(f"{path}: run names must be unique; {', '.join(twice)} repeat")
    return groups


def _claim_kind(claim: Mapping[str, Any]) -> str:
    for kind in ("seats_within", "factions_between", "mean", "bot"):
        if kind in claim:
            if kind in ("mean", "bot") and "between" not in claim:
                break
            return kind
    raise ValueError(f"a claim is seats_within, factions_between, or mean or bot with between, "
                     f"not {dict(claim)!r}")


def setting_digest(rules: AnyRules) -> str:
    """A digest of what a run plays: the game, the seats and the options a save records (a
    catalogue's data included)."""
    text = json.dumps({"game": rules.name, "players": rules.players,
                       "options": rules.options_for_save()}, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replays(group: Group, run: Run, rows: pd.DataFrame) -> bool:
    """Whether the stored game in `rows` (its first row; `replay_choice` picks it), played again
    today with the run's bots, seed and options, ends as it is stored: the same winners, reason,
    length and scores. False when the rules or data changed what happens (a game depends only on
    the run's seed and its index, so the same index is the same deal)."""
    from .runner import play_chunk
    from .simulation import game_spec

    if not len(rows):
        return False
    stored = rows.iloc[0]
    index = int(stored["game_index"]) if "game_index" in rows else 0
    spec = game_spec(group.game, group.players, run.bots_of(group), **run.options)
    (again,) = play_chunk(spec, group.seed, [index])
    columns = ["winners", "reason", "length"] + [f"score_{s}" for s in range(group.players)]
    return all(_same(again[c], stored[c]) for c in columns)


def replay_choice(stored: pd.DataFrame) -> pd.DataFrame:
    """The stored game that `replays` plays again, as a one-row frame: the run's shortest (fewest
    actions, the first of equals). Any game of a run shows whether today's rules still play it
    as stored, and a short one costs least (MCTS games can take minutes)."""
    if not len(stored) or "length" not in stored:
        return stored.iloc[:1]
    return stored.loc[[stored["length"].idxmin()]]


def _same(played: Any, stored: Any) -> bool:
    """A value as played against the same value read back from CSV, which reads an empty text
    (no winners) as NaN and may read a whole number as a float."""
    if pd.isna(played) or pd.isna(stored) or played == "" or stored == "":
        return bool((pd.isna(played) or played == "") and (pd.isna(stored) or stored == ""))
    try:
        return float(played) == float(stored)
    except (TypeError, ValueError):
        return str(played) == str(stored)


def _rules_of(group: Group, run: Run) -> AnyRules:
    return make_rules(group.game, group.players, **run.options)


def measure(directory: str | Path, names: Iterable[str] | None = None, *,
            workers: int | None = None, progress: bool = False, missing_only: bool = False
            ) -> list[str]:
    """Play the runs named (all of them by default; only those not yet stored with
    `missing_only`) and store them; returns the names played."""
    from .simulation import simulate

    directory = Path(directory)
    groups = load_groups(directory)
    known = {r.name: (g, r) for g in groups for r in g.runs}
    wanted = list(known) if names is None else list(names)
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise AloftnbError(f"no run named {', '.join(unknown)} in {directory / SPEC_FILE}")
    (directory / RUNS).mkdir(exist_ok=True)
    played = []
    for name in wanted:
        group, run = known[name]
        if missing_only and (directory / RUNS / f"{name}.json").exists():
            continue
        rules = _rules_of(group, run)
        began = time.perf_counter()
        rows = simulate(group.game, players=group.players, bots=run.bots_of(group), games=run.games,
                        seed=group.seed, workers=workers, progress=progress, **run.options)
        seconds = time.perf_counter() - began
        rows = rows.drop(columns=[c for c in LEFT_OUT if c in rows])
        rows.to_csv(directory / RUNS / f"{name}.csv.gz", index=False)
        from .. import __version__

        meta = {"name": name, "group": group.group, "game": group.game,
                "players": group.players, "bots": run.bots_of(group), "seed": group.seed,
                "games": run.games, "options": run.options,
                "setting_digest": setting_digest(rules),
                "aloftnb": __version__, "seconds": round(seconds, 1),
                "measured": time.strftime("%Y-%m-%d", time.gmtime())}
        (directory / RUNS / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n",
                                                       "utf-8")
        played.append(name)
    return played


def read_meta(directory: str | Path, name: str) -> dict[str, Any]:
    """How a stored run was measured (its runs/<name>.json), without reading its rows."""
    runs = Path(directory) / RUNS  # (not with_suffix: a run's name may hold a dot)
    meta: dict[str, Any] = json.loads((runs / f"{name}.json").read_text("utf-8"))
    return meta


def read_run(directory: str | Path, name: str) -> tuple[dict[str, Any], pd.DataFrame]:
    """(how it was measured, its rows) of a stored run."""
    return read_meta(directory, name), pd.read_csv(Path(directory) / RUNS / f"{name}.csv.gz")


def measured_as_asked(group: Group, run: Run, meta: Mapping[str, Any]) -> bool:
    """Whether a stored run was played with the games, seed, bots and options its group asks
    for (only then can its games be replayed and compared)."""
    return (meta.get("games") == run.games and meta.get("seed") == group.seed
            and meta.get("bots") == run.bots_of(group) and meta.get("options") == run.options)


def seconds_a_game(run: Run, meta: Mapping[str, Any]) -> float:
    """The seconds each of a stored run's games took when it was measured."""
    return float(meta.get("seconds") or 0.0) / max(run.games, 1)


def evidence_status(directory: str | Path, *, workers: int | None = None,
                    replay_limit: float | None = None) -> pd.DataFrame:
    """One row a run: whether it is stored, whether its data is today's (`same_data`: the
    options and catalogue data a save records, byte for byte; any change to the shipped data,
    even one this game does not use, makes it False), and whether its shortest game replays as
    stored on today's rules and data (`replays`: False means the figures may have moved).
    The games replay on `workers` processes (default: all cores; 1 plays here).

    `replay_limit`: replay only the runs whose games took at most this many seconds each when
    they were measured; the others say None under `replays` (not replayed). A run of MCTS games
    can take minutes to replay where a notebook's reader is waiting."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise AloftnbError(f"workers must be a whole number >= 1, not {workers!r}")
    if replay_limit is not None and (isinstance(replay_limit, bool)
                                     or not isinstance(replay_limit, (int, float))
                                     or not replay_limit >= 0):
        raise AloftnbError(f"replay_limit must be a number of seconds >= 0, not "
                           f"{replay_limit!r}")
    rows: list[dict[str, Any]] = []
    to_replay: list[tuple[float, int, Group, Run, pd.DataFrame]] = []  # (cost, row, ...)
    for group in load_groups(directory):
        for run in group.runs:
            row: dict[str, Any] = {"group": group.group, "run": run.name, "games": run.games}
            if not (Path(directory) / RUNS / f"{run.name}.json").exists():
                rows.append({**row, "stored": False, "same_data": None, "replays": None})
                continue
            meta, stored = read_run(directory, run.name)
            same = measured_as_asked(group, run, meta)
            rows.append({**row, "stored": True,
                         "same_data": same and meta["setting_digest"] == setting_digest(
                             _rules_of(group, run)),
                         "replays": False,
                         "measured": meta.get("measured"), "seconds": meta.get("seconds")})
            cost = seconds_a_game(run, meta)
            if same and replay_limit is not None and cost > replay_limit:
                rows[-1]["replays"] = None
            elif same:
                to_replay.append((cost, len(rows) - 1, group, run, replay_choice(stored)))
    # The slowest games first, so that no long one is left to play alone at the end.
    to_replay.sort(key=lambda job: -job[0])
    lanes = min(workers or os.cpu_count() or 1, len(to_replay))
    if lanes <= 1:
        for _, at, group, run, chosen in to_replay:
            rows[at]["replays"] = replays(group, run, chosen)
    else:
        # A game registered in this process only is known to forked workers only.
        here = any(registered_here(job[2].game) for job in to_replay)
        with cf.ProcessPoolExecutor(max_workers=lanes,
                                    mp_context=process_context(here)) as pool:
            futures = {pool.submit(replays, group, run, chosen): at
                       for _, at, group, run, chosen in to_replay}
            for future, at in futures.items():
                rows[at]["replays"] = future.result()
    return pd.DataFrame(rows)


def _pooled(directory: Path, group: Group) -> list[tuple[Run, pd.DataFrame]]:
    return [(run, read_run(directory, run.name)[1]) for run in group.runs
            if (directory / RUNS / f"{run.name}.json").exists()]


def _row(group: Group, claim: str, subject: str, wins: float, games: int, target: str,
         low_ok: float, high_ok: float) -> dict[str, Any]:
    rate = wins / games if games else float("nan")
    low, high = wilson_interval(wins, games) if games else (float("nan"), float("nan"))
    return {"group": group.group, "role": group.role, "claim": claim, "subject": subject,
            "games": games, "value": rate, "low": low, "high": high, "target": target,
            "target_low": low_ok, "target_high": high_ok,
            # None: not measured yet (no stored run).
            "met": low_ok - 1e-12 <= rate <= high_ok + 1e-12 if games else None}


def evidence_table(directory: str | Path) -> pd.DataFrame:
    """Every claim of every group, from the stored runs pooled: the value with its 95%
    interval, the target and whether the value meets it (None while no run is stored), with
    the group's role (a "check" that misses shows a disagreement, not a target missed)."""
    directory = Path(directory)
    rows: list[dict[str, Any]] = []
    for group in load_groups(directory):
        runs = _pooled(directory, group)
        for claim in group.claims:
            rows.extend(_claim_rows(group, claim, runs))
    return pd.DataFrame(rows)


def _claim_rows(group: Group, claim: dict[str, Any], runs: list[tuple[Run, pd.DataFrame]]
                ) -> list[dict[str, Any]]:
    kind = _claim_kind(claim)
    games = sum(len(rows) for _, rows in runs)
    if kind == "mean":
        column, (lo, hi) = claim["mean"], claim["between"]
        total = sum(float(rows[column].sum()) for _, rows in runs)
        return [_row(group, f"{column} between", column, total, games,
                     f"{lo:.0%}-{hi:.0%}", lo, hi)]
    if kind == "bot":  # the share of its seat-games a bot won (runs give it different seats)
        bot, (lo, hi) = claim["bot"], claim["between"]
        bot_won, seat_games = 0.0, 0
        for run, rows in runs:
            specs = run.bots_of(group).split(",")
            for seat in range(group.players):
                if (specs[seat] if len(specs) > 1 else specs[0]).strip() == bot:
                    bot_won += float(rows[f"win_{seat}"].sum())
                    seat_games += len(rows)
        return [_row(group, "bot share", bot, bot_won, seat_games, f"{lo:.0%}-{hi:.0%}", lo,
                     hi)]
    if kind == "seats_within":
        within = float(claim["seats_within"])
        wins = [sum(float(rows[f"win_{s}"].sum()) for _, rows in runs)
                for s in range(group.players)]
        fair = sum(wins) / group.players / games if games else 0.0
        return [_row(group, "seat share", f"seat {s}", w, games,
                     f"{fair:.1%} ± {within:.0%}", fair - within, fair + within)
                for s, w in enumerate(wins)]
    lo, hi = claim["factions_between"]
    won: dict[str, float] = {}  # faction -> games won, and played
    played: dict[str, int] = {}
    for run, rows in runs:
        factions = run.options.get("factions")
        if not factions:
            raise AloftnbError(f"run {run.name}: a factions claim needs options.factions")
        # A shared win is split between its winners, so the factions' shares add up to 1.
        seat_wins = rows[[f"win_{seat}" for seat in range(group.players)]]
        winners = seat_wins.sum(axis=1).clip(lower=1)
        for seat in range(group.players):
            credit = float((rows[f"win_{seat}"] / winners).sum())
            won[factions[seat]] = won.get(factions[seat], 0.0) + credit
            played[factions[seat]] = played.get(factions[seat], 0) + len(rows)
    return [_row(group, "faction share", faction, won[faction], played[faction],
                 f"{lo:.0%}-{hi:.0%}", lo, hi) for faction in sorted(won)]


def evidence_plot(table: pd.DataFrame, title: str = "Evidence for the shipped numbers") -> Any:
    """One small figure a group: each claim's value with its 95% interval over its target (the
    shaded band), green when the value meets it and red when not, on one shared axis in per
    cent; a check's misses are orange (a disagreement) and its title says it is a check.
    `table` is evidence_table's, or some of its rows; claims not yet measured are left out.
    """
    from bokeh.layouts import column
    from bokeh.models import ColumnDataSource, FactorRange
    from bokeh.models.annotations import Whisker
    from bokeh.models.widgets import Div
    from bokeh.plotting import figure

    from .plots import WIDTH, interval_range

    measured = table[table["games"] > 0]
    shared = interval_range([100 * v for v in measured["low"]],
                            [100 * v for v in measured["high"]],
                            [100 * v for v in measured["target_low"]],
                            [100 * v for v in measured["target_high"]])
    figures: list[Any] = [Div(text=f"<b>{title}</b>")]
    for group, rows in measured.groupby("group", sort=False):
        rows = rows.iloc[::-1]  # the first claim on top
        subjects = [str(s) for s in rows["subject"]]
        check = "role" in rows and (rows["role"] == "check").all()
        miss = "#ff7f0e" if check else "#d62728"
        source = ColumnDataSource({
            "subject": subjects, "value": [100 * v for v in rows["value"]],
            "low": [100 * v for v in rows["low"]], "high": [100 * v for v in rows["high"]],
            "target_low": [100 * v for v in rows["target_low"]],
            "target_high": [100 * v for v in rows["target_high"]],
            "target": rows["target"].astype(str).tolist(), "games": rows["games"].tolist(),
            "colour": ["#2ca02c" if met else miss for met in rows["met"]]})
        # A title does not wrap by itself: long group names are broken into lines.
        title = textwrap.fill(f"{group} (a check)" if check else str(group), TITLE_CHARACTERS)
        fig = figure(title=title, y_range=FactorRange(factors=subjects), x_range=shared,
                     width=WIDTH, height=50 + 22 * len(subjects) + 16 * title.count("\n"),
                     toolbar_location=None,
                     tools="hover", tooltips=[("", "@subject"), ("value", "@value{0.0}%"),
                                              ("95%", "@low{0.0} to @high{0.0}"),
                                              ("target", "@target"), ("games", "@games")])
        fig.hbar(y="subject", left="target_low", right="target_high", height=0.8,
                 source=source, color="#2ca02c", alpha=0.15)
        fig.add_layout(Whisker(source=source, base="subject", lower="low", upper="high",
                               dimension="width"))
        fig.scatter(x="value", y="subject", source=source, size=9, color="colour")
        figures.append(fig)
    figures[-1].xaxis.axis_label = "per cent"
    return column(*figures)
