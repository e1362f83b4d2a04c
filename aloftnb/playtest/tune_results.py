"""What `aloftnb.tune` returns: the trials as a table, the best settings (the Pareto set for
several objectives), the options and catalogue they give, their diff from the shipped ones."""

from __future__ import annotations

import html
import math
from typing import Any

import pandas as pd

from ..errors import AloftnbError
from .knobs import Change, KnobSet, diff_data
from .objectives import Lineup, Objective

STATES = {"COMPLETE": "complete", "PRUNED": "pruned", "FAIL": "failed", "RUNNING": "running",
          "WAITING": "waiting"}


class TuneResults:
    """The outcome of a search: `.trials`, `.best`, `.best_options()`, `.best_catalogue()`,
    `.diff()`, `.plot()`. Shown as a table in a notebook. `study` is the Optuna study."""

    def __init__(self, study: Any, knobs: KnobSet, objectives: tuple[Objective, ...],
                 lineup: Lineup, interrupted: bool = False) -> None:
        self.study, self.knobs, self.objectives = study, knobs, objectives
        self.lineup, self.interrupted = lineup, interrupted
        self.game, self.players = knobs.game, knobs.players

    @property
    def objective_names(self) -> list[str]:
        return [o.name for o in self.objectives]

    @property
    def trials(self) -> pd.DataFrame:
        """One row per trial: its number, state (complete, pruned, failed), each knob's value,
        each objective's value with its 95% interval (<name>_low, <name>_high), the games its
        results held, and what stopped a failed one."""
        rows = []
        for t in self.study.get_trials(deepcopy=False):
            row: dict[str, Any] = {"trial": t.number,
                                   "state": STATES.get(t.state.name, t.state.name.lower())}
            for knob in self.knobs.knobs:
                row[knob.name] = t.params.get(knob.name)
            for name in self.objective_names:
                for part, suffix in (("value", ""), ("low", "_low"), ("high", "_high")):
                    row[name + suffix] = t.user_attrs.get(f"{part}:{name}", math.nan)
            row["games"] = t.user_attrs.get("games", 0)
            row["error"] = t.user_attrs.get("error", "")
            rows.append(row)
        columns = (["trial", "state"] + [k.name for k in self.knobs.knobs]
                   + [n + s for n in self.objective_names for s in ("", "_low", "_high")]
                   + ["games", "error"])
        return pd.DataFrame(rows, columns=columns).set_index("trial")

    @property
    def best(self) -> pd.DataFrame:
        """The best trial's row (one objective), or the Pareto set's rows (several: no other
        finished trial is at least as good on every objective and better on one), each setting
        once."""
        table = self.trials
        done = table[table["state"] == "complete"]
        if done.empty:
            return done
        names = self.objective_names
        if len(names) == 1:
            return done.loc[[done[names[0]].idxmin()]]
        values = done[names].to_numpy()
        keep = []
        for i, row in enumerate(values):
            dominated = any((other <= row).all() and (other < row).any() for other in values)
            if not dominated:
                keep.append(done.index[i])
        front = done.loc[keep]
        knobs = [k.name for k in self.knobs.knobs]  # a setting tried twice is shown once
        return front[~front[knobs].astype(str).duplicated()].sort_values(names)

    def _trial(self, trial: int | None) -> int:
        """The trial number asked for, or the best one: for several objectives, the Pareto
        trial best on the first objective (then the next...)."""
        table = self.trials
        if trial is None:
            best = self.best
            if best.empty:
                raise AloftnbError("no trial has finished yet: there is no best setting")
            return int(best.sort_values(self.objective_names).index[0])
        if trial not in table.index:
            raise AloftnbError(f"there is no trial {trial!r} (trials 0..{len(table) - 1})")
        return int(trial)

    def values(self, trial: int | None = None) -> dict[str, Any]:
        """The knob values of a trial (default: the best)."""
        number = self._trial(trial)
        params = self.study.get_trials(deepcopy=False)[number].params
        return {k.name: params.get(k.name, k.shipped) for k in self.knobs.knobs}

    def best_options(self, trial: int | None = None) -> dict[str, Any]:
        """The game options of a trial (default: the best), ready for `simulate(game, **...)`
        or `new_match`: the options given to tune with the knobs set, the catalogue as data."""
        return self.knobs.options(self.values(trial))

    def best_catalogue(self, trial: int | None = None) -> dict[str, Any]:
        """The whole catalogue of a trial (default: the best) as plain data: save it with
        json.dump and diff it against the shipped data/catalogue.json."""
        data = self.knobs.catalogue_for(self.values(trial))
        if data is None:
            raise AloftnbError(f"{self.game} has no catalogue; best_options() gives its options")
        return data

    def diff(self, trial: int | None = None) -> list[Change]:
        """What a trial (default: the best) changes from the settings tune started from: each
        place as `path: old -> new` (catalogue places as "catalogue.<path>")."""
        values = self.values(trial)
        changes = []
        for knob in self.knobs.knobs:
            if not knob.steps and values[knob.name] != knob.shipped:
                changes.append(Change(knob.where, knob.shipped, values[knob.name]))
        if self.knobs.catalogue is not None:
            changes.extend(diff_data(self.knobs.catalogue, self.knobs.catalogue_for(values)))
        return changes

    def plot(self) -> Any:
        """Bokeh figures: each objective against each knob; for two objectives the Pareto front
        too. Show them with aloftnb.playtest.show(...)."""
        from .tune_plots import tune_plots

        return tune_plots(self)

    def _summary(self) -> list[str]:
        table = self.trials
        counts = table["state"].value_counts()
        states = ", ".join(f"{counts[s]} {s}" for s in ("complete", "pruned", "failed")
                           if s in counts)
        lines = [f"{self.game}, {self.players} players, bots {', '.join(self.lineup)}: "
                 f"{len(table)} trials ({states or 'none'})"
                 + (", interrupted" if self.interrupted else "")]
        lines.append("objectives (0 is best): " + ", ".join(
            f"{o.name} ({o.description})" for o in self.objectives))
        best = self.best
        if best.empty:
            lines.append("no trial has finished")
            return lines
        label = "best" if len(self.objectives) == 1 else f"Pareto set ({len(best)} trials)"
        lines.append(f"{label}:")
        for number, row in best.iterrows():
            knobs = ", ".join(f"{k.name}={row[k.name]!r}" for k in self.knobs.knobs)
            scores = ", ".join(f"{n}={_interval(row, n)}" for n in self.objective_names)
            lines.append(f"  trial {number}: {knobs}: {scores}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._summary())

    def _repr_html_(self) -> str:
        lines = self._summary()
        head = "".join(f"<p>{html.escape(line)}</p>" for line in lines[:2])
        best = self.best
        body = (f"<p>{html.escape(lines[2])}</p>" + best.to_html(float_format=_fmt)
                if not best.empty else f"<p>{html.escape(lines[2])}</p>")
        return (head + body + "<details><summary>all trials</summary>"
                + self.trials.to_html(float_format=_fmt) + "</details>")


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def _interval(row: pd.Series, name: str) -> str:
    value, low, high = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if pd.isna(low) or low == high:
        return f"{value:.3f}"
    return f"{value:.3f} ({low:.3f} to {high:.3f})"
