"""The bokeh figure of restricted play: each restriction's cost in win-rate points with its 95%
interval, coloured by verdict. Offline like every playtest figure (plots.py: BokehJS inline)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bokeh.models import ColumnDataSource, FactorRange
from bokeh.models.annotations import Span, Whisker
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from .plots import HEIGHT, WIDTH, interval_range

if TYPE_CHECKING:
    from .restricted import RestrictedPlay

# Verdict colours: a cost red, a trap (barring it wins) green, nothing grey, unclear blue.
_COLOURS = {"costs": Category10_10[3], "wins": Category10_10[2], "costs nothing": "grey"}
_ROW_PX = 36  # height per restriction beyond the first few


def _colour(verdict: str) -> str:
    for start, colour in (("costs nothing", _COLOURS["costs nothing"]),
                          ("costs", _COLOURS["costs"]), ("wins", _COLOURS["wins"])):
        if verdict.startswith(start):
            return colour
    return Category10_10[0] if verdict.startswith("unclear") else "grey"


def restriction_plot(result: RestrictedPlay) -> figure:
    """Cost of each restriction (baseline − restricted win rate, in points) with its 95%
    interval; the dashed line is no cost. Right of it the seat lost by the restriction."""
    table = result.table
    names = [str(n) for n in table.index][::-1]  # the first restriction on top
    rows = table.loc[names] if names else table
    source = ColumnDataSource({
        "name": names,
        "cost": [100 * v for v in rows["cost"]],
        "low": [100 * v for v in rows["cost_low"]],
        "high": [100 * v for v in rows["cost_high"]],
        "verdict": rows["verdict"].astype(str).tolist(),
        "colour": [_colour(str(v)) for v in rows["verdict"]],
    })
    title = (f"Restricted play: {result.game}, {result.players} players, {result.bot}, "
             f"{result.games} deals")
    fig = figure(title=title, y_range=FactorRange(factors=names), width=WIDTH,
                 x_range=interval_range(source.data["cost"], source.data["low"],
                                        source.data["high"]),
                 height=max(HEIGHT, 90 + _ROW_PX * len(names)),
                 x_axis_label="cost (win-rate points lost by the restricted seat)",
                 tools="save,hover", tooltips=[("", "@name"), ("cost", "@cost{0.0}"),
                                               ("95%", "@low{0.0} to @high{0.0}"),
                                               ("verdict", "@verdict")])
    fig.add_layout(Span(location=0, dimension="height", line_dash="dashed", line_color="grey"))
    fig.add_layout(Whisker(source=source, base="name", lower="low", upper="high",
                           dimension="width"))
    fig.scatter(x="cost", y="name", source=source, size=10, color="colour")
    return fig
