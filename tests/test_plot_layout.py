"""The playtesting figures read cleanly: legends beside the plot area, never over the data, and
the seats' labels on the win-rate axis never running into each other."""

from __future__ import annotations

import pytest
from bokeh.models import Legend
from PIL import ImageFont

from aloftnb.playtest import dashboard, plots, score_distributions, simulate, win_rate_plot

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # the browsers' sans-serif here
AXIS_LABEL_PX = 11  # bokeh's default size for tick labels
FRAME_MARGIN = 60  # the y axis and its labels, left of the plot area


@pytest.fixture(scope="module")
def five_seats():
    return simulate("balloons", players=5, bots="greedy,random,greedy,random,greedy", games=20,
                    seed=3, progress=False, workers=1)


def legends_inside(fig) -> list[Legend]:
    return [r for r in fig.center if isinstance(r, Legend)]


def legends_beside(fig) -> list[Legend]:
    return [r for r in (*fig.right, *fig.below, *fig.above, *fig.left) if isinstance(r, Legend)]


def test_the_final_scores_legend_is_beside_the_plot_area(five_seats):
    fig = score_distributions(five_seats)
    assert not legends_inside(fig)
    [legend] = legends_beside(fig)
    assert [item.label.value for item in legend.items] == [f"seat {s}" for s in range(5)]
    assert legend.click_policy == "hide"  # a seat's line can still be hidden from the legend


def test_the_fair_share_legend_is_beside_the_bars(five_seats):
    fig = win_rate_plot(five_seats)
    assert not legends_inside(fig)
    assert [i.label.value for lg in legends_beside(fig) for i in lg.items] == [
        "fair share (1/5)"]


def test_the_seats_labels_never_run_into_each_other(five_seats):
    """Each label, as wide as DejaVu Sans draws it, fits its share of the axis, or the labels
    are slanted."""
    fig = win_rate_plot(five_seats)
    labels = list(fig.x_range.factors)
    assert len(labels) == 5 and labels[0] == "seat 0 (greedy)"
    # A legend beside the plot area takes plots.LEGEND_W of the figure's width.
    legend_room = (getattr(plots, "LEGEND_W", 0)
                   if any(lg in fig.right for lg in legends_beside(fig)) else 0)
    room = (fig.width - FRAME_MARGIN - legend_room) / len(labels)
    font = ImageFont.truetype(FONT, AXIS_LABEL_PX)
    widest = max(font.getlength(label) for label in labels)
    orientation = fig.xaxis[0].major_label_orientation
    slanted = isinstance(orientation, float) and orientation != 0
    assert slanted or widest <= room, (widest, room, orientation)
    assert widest > room  # five seats' labels do not fit flat: this checks the slant


def test_every_figure_of_the_dashboard_is_as_wide_as_the_others(five_seats):
    """A grid of figures of different widths squeezes the narrower figures' plot areas."""
    grid = dashboard(five_seats, table=False).children[-1]
    widths = {child.width for child, *_ in grid.children}
    assert len(widths) == 1, widths


def test_interval_plots_show_every_interval_whole():
    """Bokeh's automatic range follows glyphs, not whiskers: the balance lab's plots set ranges
    that hold each interval's ends (they once ran off the plot)."""
    from types import SimpleNamespace

    import pandas as pd

    from aloftnb.playtest.plots import interval_range
    from aloftnb.playtest.restriction_plots import restriction_plot

    span = interval_range([0.05, 0.07], [0.0, 0.01], [0.14, 0.17])
    assert span.start < 0 and span.end > 0.17
    table = pd.DataFrame({"cost": [0.278, 0.006], "cost_low": [0.232, -0.050],
                          "cost_high": [0.323, 0.062], "verdict": ["costs 27.8 points", "unclear"]},
                         index=["never unpacks", "never inflates early"])
    result = SimpleNamespace(table=table, game="balloons", players=3, bot="greedy", games=60)
    fig = restriction_plot(result)
    assert fig.x_range.start < -5.0 and fig.x_range.end > 32.3
