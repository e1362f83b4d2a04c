"""Bokeh figures of simulation results. Offline: BokehJS is always loaded inline, never from a CDN.

`dashboard(results)` lays them all out; `show(results_or_figure)` displays it in JupyterLab.
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from typing import Any, Literal

import pandas as pd
from bokeh.layouts import column, gridplot
from bokeh.models import (
    BasicTicker,
    ColumnDataSource,
    DataRange1d,
    FactorRange,
    LinearColorMapper,
    Range1d,
)
from bokeh.models.annotations import ColorBar, Span, Whisker
from bokeh.models.widgets import Div
from bokeh.palettes import Category10_10, Viridis256
from bokeh.plotting import figure
from bokeh.resources import INLINE, Resources

from ..core.registry import make_rules
from ..core.words import text_width
from .metrics import check_results, design_metrics, finished_games, hooks_for, seats, win_rates

# BokehJS inline, never from a CDN. Standalone pages keep only the parts they use by themselves;
# a notebook loads BokehJS before any figure exists, so name the parts these figures need.
RESOURCES = INLINE
NOTEBOOK_RESOURCES = Resources(mode="inline", components=["bokeh", "bokeh-widgets"])
# Every figure is as wide as the others, legend included: a grid of figures of different widths
# squeezes the plot areas of the narrower ones to line them up.
WIDTH, HEIGHT = 540, 300
LEGEND_W = 130  # the room a legend beside a plot area takes (outside it: it hid the data)
FRAME_MARGIN = 60  # the axis and its labels beside a plot's frame
LABEL_PX = 11  # bokeh's axis label font size


def _title(df: pd.DataFrame) -> str:
    return f"{df['game'].iloc[0]}, {seats(df)} players, {len(df)} games" if len(df) else "no games"


def _score_bins(values: list[float]) -> list[float]:
    """Bin centres shared by every seat: each whole score when scores are whole, else 20 bins."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low <= 200:
        return [float(v) for v in range(int(low), int(high) + 1)]
    width = (high - low) / 20 or 1.0
    return [low + width * (i + 0.5) for i in range(20)]


def score_distributions(df: pd.DataFrame) -> figure:
    """How often each final score happened, one step line per seat (zero counts included)."""
    check_results(df)
    done = finished_games(df)
    fig = figure(title="Final scores", width=WIDTH, height=HEIGHT, x_axis_label="score",
                 y_axis_label="games", tools="pan,box_zoom,reset,save,hover",
                 tooltips=[("seat", "@seat"), ("score", "@score"), ("games", "@games")])
    columns = [f"score_{seat}" for seat in range(seats(df))]
    values = [float(v) for c in columns for v in done[c]]
    if not values:
        return fig
    centres = _score_bins(values)
    half = (centres[1] - centres[0]) / 2 if len(centres) > 1 else 0.5
    for seat, score_column in enumerate(columns):
        counts = [0] * len(centres)
        for v in done[score_column]:  # the bins are evenly spaced: the nearest centre by arithmetic
            i = round((float(v) - centres[0]) / (2 * half)) if len(centres) > 1 else 0
            counts[min(max(i, 0), len(centres) - 1)] += 1
        source = ColumnDataSource({"score": centres, "games": counts,
                                   "seat": [f"{seat} ({done[f'bot_{seat}'].iloc[0]})"]
                                   * len(centres)})
        colour = Category10_10[seat % 10]
        fig.step("score", "games", source=source, color=colour, line_width=2, mode="center",
                 legend_label=f"seat {seat}")
    if isinstance(fig.x_range, DataRange1d):
        fig.x_range.range_padding = half / max(centres[-1] - centres[0], 1.0)
    _legend_outside(fig, "right")
    fig.legend.click_policy = "hide"
    return fig


def interval_range(*values: Any, zero: bool = True, pad: float = 0.06) -> Range1d:
    """An axis range that holds every finite value given (points and their intervals' ends; the
    automatic range follows glyphs only, so whiskers would run off the plot), and 0 when `zero`."""
    finite = [float(v) for group in values for v in group
              if v is not None and not (isinstance(v, float) and math.isnan(v))]
    low, high = min(finite, default=0.0), max(finite, default=1.0)
    if zero:
        low, high = min(low, 0.0), max(high, 0.0)
    margin = (high - low) * pad or 0.5
    return Range1d(start=low - margin, end=high + margin)


def _legend_outside(fig: figure, side: Literal["above", "below", "left", "right"]) -> None:
    """Move the figure's legend out of the plot area, where it hid lines and bars."""
    for legend in list(fig.legend):
        fig.center.remove(legend)
        fig.add_layout(legend, side)
        if side in ("above", "below"):
            legend.orientation = "horizontal"


def win_rate_plot(df: pd.DataFrame) -> figure:
    """Win rate per seat with 95% Wilson intervals; the dashed line is a fair share."""
    rates = win_rates(df).reset_index()
    labels = [f"seat {s} ({b})" for s, b in zip(rates["seat"], rates["bot"])]
    source = ColumnDataSource({"label": labels, "rate": rates["win_rate"].tolist(),
                               "low": rates["low"].tolist(), "high": rates["high"].tolist()})
    fig = figure(title="Win rate per seat (95% interval)", x_range=FactorRange(factors=labels),
                 width=WIDTH, height=HEIGHT, y_range=Range1d(start=0, end=1),
                 y_axis_label="win rate",
                 tools="save,hover", tooltips=[("", "@label"), ("win rate", "@rate{0.000}"),
                                               ("95%", "@low{0.000} to @high{0.000}")])
    fig.vbar(x="label", top="rate", width=0.6, source=source, color=Category10_10[0], alpha=0.8)
    fig.add_layout(Whisker(source=source, base="label", upper="high", lower="low"))
    if seats(df) > 1:
        share = 1 / seats(df)
        fig.add_layout(Span(location=share, dimension="width", line_dash="dashed",
                            line_color="grey"))
        # The span itself cannot be in a legend: a line on it, across the bars, names it.
        fig.line(x=labels, y=[share] * len(labels), line_dash="dashed", line_color="grey",
                 legend_label=f"fair share (1/{seats(df)})")
        _legend_outside(fig, "right")
    # Labels wider than their share of the axis ran into each other: slant them.
    room = (WIDTH - FRAME_MARGIN - LEGEND_W) / max(1, len(labels))
    if any(text_width(label, LABEL_PX) > 0.9 * room for label in labels):
        fig.xaxis.major_label_orientation = math.pi / 4
    return fig


def length_histogram(df: pd.DataFrame) -> figure:
    """How many actions the games lasted."""
    check_results(df)
    counts = finished_games(df)["length"].value_counts().sort_index()
    source = ColumnDataSource({"length": counts.index.tolist(), "games": counts.tolist()})
    fig = figure(title="Game length", width=WIDTH, height=HEIGHT, x_axis_label="actions",
                 y_axis_label="games", tools="pan,box_zoom,reset,save,hover",
                 tooltips=[("actions", "@length"), ("games", "@games")])
    fig.vbar(x="length", top="games", width=0.9, source=source, color=Category10_10[2])
    return fig


def position_heatmap(df: pd.DataFrame) -> figure | None:
    """Where pieces end up (balloons: column x altitude), for games whose hooks give positions."""
    check_results(df)
    hooks = hooks_for(df)
    if hooks is None or "positions" not in df:
        return None
    row = df.iloc[0]
    rules = make_rules(str(row["game"]), int(row["players"]), **json.loads(row["options"]))
    grid = hooks.position_grid(rules)
    if grid is None:
        return None
    width, height = grid
    x_name, y_name = hooks.POSITION_AXES or ("x", "y")
    counts: Counter[tuple[int, int]] = Counter()
    for text in finished_games(df)["positions"].fillna(""):
        for cell in str(text).split():
            x_text, _, y_text = cell.partition(":")
            counts[int(x_text), int(y_text)] += 1
    xs, ys, values = [], [], []
    for x in range(1, width + 1):
        for y in range(1, height + 1):
            xs.append(x)
            ys.append(y)
            values.append(counts[x, y])
    source = ColumnDataSource({"x": xs, "y": ys, "count": values})
    mapper = LinearColorMapper(palette=Viridis256, low=0, high=max(values) if values else 1)
    fig = figure(title=f"Final positions ({x_name} x {y_name})", width=WIDTH,
                 height=HEIGHT, x_range=Range1d(start=0.5, end=width + 0.5),
                 y_range=Range1d(start=0.5, end=height + 0.5),
                 x_axis_label=x_name, y_axis_label=y_name, tools="save,hover",
                 tooltips=[(x_name, "@x"), (y_name, "@y"), ("pieces", "@count")])
    fig.rect(x="x", y="y", width=1, height=1, source=source, line_color=None,
             fill_color={"field": "count", "transform": mapper})
    fig.add_layout(ColorBar(color_mapper=mapper, ticker=BasicTicker(), width=10,
                            title="pieces ended here"), "right")
    fig.xaxis.ticker = list(range(1, width + 1))
    fig.yaxis.ticker = list(range(1, height + 1))
    return fig


def metrics_table_html(df: pd.DataFrame) -> str:
    table = design_metrics(df)
    rows = []
    for name, r in table.iterrows():
        interval = "" if pd.isna(r["low"]) else f"{r['low']:.3f} to {r['high']:.3f}"
        rows.append(f"<tr><td>{html.escape(str(name))}</td><td>{r['value']:.3f}</td>"
                    f"<td>{interval}</td><td>{html.escape(str(r['description']))}</td></tr>")
    return ("<table><tr><th>metric</th><th>value</th><th>95% interval</th><th>meaning</th></tr>"
            + "".join(rows) + "</table>")


def figures(df: pd.DataFrame) -> list[Any]:
    figs: list[Any] = [win_rate_plot(df), score_distributions(df), length_histogram(df)]
    heat = position_heatmap(df)
    return figs + ([heat] if heat is not None else [])


def dashboard(df: pd.DataFrame, *, table: bool = True) -> Any:
    """All the figures (and the metrics table) in one bokeh layout."""
    check_results(df)
    grid = gridplot(figures(df), ncols=2, toolbar_location="right")
    parts: list[Any] = [Div(text=f"<h3>{html.escape(_title(df))}</h3>")]
    if table:
        parts.append(Div(text=metrics_table_html(df), width=900))
    parts.append(grid)
    return column(*parts)


_LOADED = False


def load_bokeh() -> None:
    """Load BokehJS into the notebook, inline (offline); once per kernel."""
    global _LOADED
    if not _LOADED:
        from bokeh.io import output_notebook

        output_notebook(resources=NOTEBOOK_RESOURCES, hide_banner=True)
        _LOADED = True


def live(obj: Any, *, table: bool = False) -> Any:
    """A jupyter_bokeh widget of results or a figure: change the figure's data sources from a
    cell (e.g. after more games) and the displayed plot follows."""
    from jupyter_bokeh import BokehModel

    load_bokeh()
    if isinstance(obj, pd.DataFrame):
        obj = dashboard(obj, table=table)
    return BokehModel(obj)


def show(obj: Any, *, table: bool = False) -> None:
    """Show results (as a dashboard) or any bokeh figure in JupyterLab, with inline BokehJS."""
    from bokeh.io import show as bokeh_show

    load_bokeh()
    if isinstance(obj, pd.DataFrame):
        obj = dashboard(obj, table=table)
    bokeh_show(obj)
