"""Bokeh figures of a tuning search: each objective against each knob (with 95% intervals),
and the Pareto front of two objectives. Offline like plots.py: BokehJS is loaded inline."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pandas as pd
from bokeh.layouts import column, gridplot
from bokeh.models import ColumnDataSource, FactorRange
from bokeh.models.annotations import Whisker
from bokeh.models.widgets import Div
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from .plots import HEIGHT, WIDTH, _legend_outside, interval_range

if TYPE_CHECKING:
    from .tune_results import TuneResults

COLOURS = {"complete": Category10_10[0], "pruned": "#aaaaaa", "best": Category10_10[3]}
TOOLTIPS = [("trial", "@trial"), ("value", "@value{0.000}"),
            ("95%", "@low{0.000} to @high{0.000}"), ("state", "@state")]


def _source(rows: pd.DataFrame, knob: str, objective: str) -> ColumnDataSource:
    return ColumnDataSource({
        "x": [x if isinstance(x, (int, float)) else str(x) for x in rows[knob]],
        "value": rows[objective].tolist(), "low": rows[f"{objective}_low"].tolist(),
        "high": rows[f"{objective}_high"].tolist(), "trial": rows.index.tolist(),
        "state": rows["state"].tolist()})


def objective_plot(results: TuneResults, knob: str, objective: str) -> figure:
    """One objective against one knob: a dot per trial (grey when pruned, red for the best),
    its 95% interval as a whisker."""
    table = results.trials
    table = table[table["state"].isin(("complete", "pruned"))]
    best = set(results.best.index)
    categorical = not all(isinstance(x, (int, float)) for x in table[knob].dropna())
    extra: dict[str, Any] = {}
    if categorical:
        extra["x_range"] = FactorRange(factors=list(dict.fromkeys(map(str, table[knob]))))
    # The whole of every interval shows, from 0 (the goal) up.
    extra["y_range"] = interval_range(table[objective], table[f"{objective}_low"],
                                      table[f"{objective}_high"])
    fig = figure(title=f"{objective} against {knob}", width=WIDTH, height=HEIGHT,
                 x_axis_label=knob, y_axis_label=f"{objective} (0 is best)",
                 tools="pan,box_zoom,reset,save,hover", tooltips=TOOLTIPS, **extra)
    for label, rows in (("complete", table[(table["state"] == "complete")
                                           & ~table.index.isin(best)]),
                        ("pruned", table[table["state"] == "pruned"]),
                        ("best", table[table.index.isin(best)])):
        if rows.empty:
            continue
        source = _source(rows, knob, objective)
        fig.scatter("x", "value", source=source, size=8, color=COLOURS[label],
                    legend_label=label)
        fig.add_layout(Whisker(source=source, base="x", upper="high", lower="low",
                               line_color=COLOURS[label]))
    if fig.legend:
        _legend_outside(fig, "right")
    return fig


def pareto_plot(results: TuneResults, x: str | None = None, y: str | None = None) -> figure:
    """Two objectives against each other: every finished trial, and the Pareto front (the
    trials no other beats on both) joined by a step line."""
    names = results.objective_names
    if len(names) < 2:
        raise ValueError("a Pareto front needs two objectives")
    x, y = x or names[0], y or names[1]
    table = results.trials
    done = table[table["state"] == "complete"]
    front = results.best.sort_values([x, y])
    fig = figure(title=f"Pareto front: {x} and {y}", width=WIDTH, height=HEIGHT,
                 x_axis_label=f"{x} (0 is best)", y_axis_label=f"{y} (0 is best)",
                 tools="pan,box_zoom,reset,save,hover",
                 tooltips=[("trial", "@trial"), (x, "@x{0.000}"), (y, "@y{0.000}")])
    for label, rows in (("trials", done[~done.index.isin(front.index)]),
                        ("Pareto front", front)):
        source = ColumnDataSource({"x": rows[x].tolist(), "y": rows[y].tolist(),
                                   "trial": rows.index.tolist()})
        colour = COLOURS["best" if label == "Pareto front" else "complete"]
        fig.scatter("x", "y", source=source, size=8, color=colour, legend_label=label)
    if len(front) > 1:
        fig.step(front[x].tolist(), front[y].tolist(), mode="after", color=COLOURS["best"])
    _legend_outside(fig, "right")
    return fig


def tune_plots(results: TuneResults) -> Any:
    """Every objective against every knob, and the Pareto front of the first two objectives."""
    figs: list[Any] = []
    if len(results.objective_names) >= 2:
        figs.append(pareto_plot(results))
    for objective in results.objective_names:
        for knob in results.knobs.knobs:
            figs.append(objective_plot(results, knob.name, objective))
    title = f"Tuning {results.game}, {results.players} players: {len(results.trials)} trials"
    return column(Div(text=f"<h3>{html.escape(title)}</h3>"),
                  gridplot(figs, ncols=2, toolbar_location="right"))
