"""Statistics, design metrics, compare() and the bokeh figures and report."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

import aloftnb
from aloftnb.playtest import (
    compare,
    dashboard,
    design_metrics,
    length_histogram,
    position_heatmap,
    report,
    score_distributions,
    simulate,
    win_rate_plot,
    win_rates,
)
from aloftnb.playtest.stats import (
    holm,
    mean_interval,
    t_quantile_975,
    t_sf_two_sided,
    two_proportion_test,
    welch_test,
    wilson_interval,
)

QUIET = dict(progress=False, workers=1)


# -- statistics (reference values from SciPy and textbook examples) ------------------------------
def test_student_t_tail_and_quantile():
    assert t_sf_two_sided(2.0, 10) == pytest.approx(0.0733880347707, rel=1e-9)
    assert t_quantile_975(7) == pytest.approx(2.364624251592784, rel=1e-9)
    assert t_sf_two_sided(1.959963984540054, math.inf) == pytest.approx(0.05)


def test_welch_and_two_proportion_tests():
    a, b = [1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5, 6, 7, 8, 9, 12, 14]
    assert welch_test(a, b) == pytest.approx(0.05969303187773838, rel=1e-8)
    assert two_proportion_test(30, 100, 50, 100) == pytest.approx(0.0038924, rel=1e-4)
    assert two_proportion_test(0, 50, 0, 50) == 1.0
    assert welch_test([2, 2, 2], [2, 2, 2]) == 1.0
    assert welch_test([2, 2, 2], [3, 3, 3]) == 0.0


def test_wilson_and_mean_intervals():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3 and (high - mean) == pytest.approx(2.776445 * math.sqrt(2.5 / 5), rel=1e-6)


def test_holm_rejects_step_down():
    assert holm([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert holm([0.001, 0.012, 0.02, 0.9]) == [True, True, True, False]
    assert holm([math.nan, 0.001]) == [False, True]


# -- design metrics on a hand-made table ----------------------------------------------------------
def _table() -> pd.DataFrame:
    rows = []
    for i, (scores, winners, length) in enumerate([
        ((10, 5), "0", 40), ((3, 8), "1", 50), ((6, 6), "0 1", 60), ((9, 1), "0", 50),
    ]):
        rows.append({"game_index": i, "seed": i, "game": "balloons", "players": 2,
                     "options": "{}", "bots": "random,greedy", "bot_0": "random",
                     "bot_1": "greedy", "score_0": scores[0], "score_1": scores[1],
                     "win_0": int("0" in winners.split()), "win_1": int("1" in winners.split()),
                     "winners": winners, "length": length, "branching": 5.0,
                     "lead_changes": i % 2, "score_spread": abs(scores[0] - scores[1]),
                     "unlaunched": 2, "formation_width": 9, "mean_altitude": 2.0,
                     "positions": "1:1 3:2", "error": "", "error_seat": -1, "moves": ""})
    rows.append({**rows[0], "game_index": 4, "error": "seat 1 (x) raised", "score_0": math.nan,
                 "score_1": math.nan, "win_0": math.nan, "win_1": math.nan, "winners": ""})
    return pd.DataFrame(rows)


def test_design_metrics_values():
    m = design_metrics(_table())["value"]
    assert m["games"] == 4
    assert m["error_rate"] == pytest.approx(1 / 5)
    assert m["win_rate_seat_0"] == 0.75 and m["win_rate_seat_1"] == 0.5
    assert m["first_player_advantage"] == pytest.approx(0.25)
    assert m["balance"] == pytest.approx(0.75)
    assert m["decisiveness"] == 0.75 and m["ties"] == 0.25
    assert m["duration"] == 50 and m["branching_factor"] == 5.0
    assert m["lead_changes"] == 0.5
    assert m["score_spread"] == pytest.approx((5 + 5 + 0 + 8) / 4)
    assert m["score_seat_1"] == pytest.approx(5.0)
    assert m["unlaunched"] == 2 and m["formation_width"] == 9


def test_win_rates_have_intervals_around_the_rate():
    rates = win_rates(_table())
    assert list(rates.index) == [0, 1]
    assert rates.loc[0, "bot"] == "random" and rates.loc[0, "games"] == 4
    for seat in (0, 1):
        assert rates.loc[seat, "low"] < rates.loc[seat, "win_rate"] < rates.loc[seat, "high"]


def test_metrics_refuse_what_is_not_results():
    with pytest.raises(ValueError, match="not from aloftnb.simulate"):
        design_metrics(pd.DataFrame({"a": [1]}))
    with pytest.raises(ValueError, match="DataFrame"):
        design_metrics([1, 2])
    mixed = _table()
    mixed.loc[1, "players"] = 3
    with pytest.raises(ValueError, match="mix"):
        design_metrics(mixed)


# -- compare ---------------------------------------------------------------------------------------
def test_compare_a_variant_with_itself_moves_nothing():
    same = compare("balloons", {}, {}, players=3, games=60, seed=4, **QUIET)
    assert same.moved == []
    assert (same.table["change"].fillna(0) == 0).all()
    assert "nothing" in repr(same)


def test_compare_finds_what_a_rule_change_moves():
    result = compare("balloons", {"edition": "fixed"}, {"edition": "choice"}, players=3,
                     games=80, seed=2, **QUIET)
    assert "duration" in result.moved  # the choice edition plays each wind step as an action
    assert result.table.loc["duration", "b"] > result.table.loc["duration", "a"]
    assert result.table.loc["duration", "test"] == "Welch t"
    assert result.labels == ("edition=fixed", "edition=choice")
    pd.testing.assert_series_equal(result.results_a["seed"], result.results_b["seed"])
    assert "duration:" in repr(result) and "<table" in result._repr_html_()


def test_compare_finds_a_stronger_bot_in_the_first_seat():
    result = compare("balloons", {"bots": "random"}, {"bots": "greedy,random,random"},
                     players=3, games=80, seed=1, **QUIET)
    assert "win_rate_seat_0" in result.moved
    assert result.table.loc["win_rate_seat_0", "test"] == "two-proportion z"


def test_compare_refuses_bad_variants():
    with pytest.raises(ValueError, match="variant a must be a dict"):
        compare("balloons", "fixed", {}, players=3, games=2, **QUIET)
    with pytest.raises(ValueError, match="alpha"):
        compare("balloons", {}, {}, players=3, games=2, alpha=2, **QUIET)


# -- plots and report ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def results():
    return simulate("balloons", players=3, games=30, seed=5, **QUIET)


def test_figures_hold_the_results(results):
    fig = win_rate_plot(results)
    data = fig.renderers[0].data_source.data
    assert list(data["rate"]) == pytest.approx(list(win_rates(results)["win_rate"]))
    lengths = length_histogram(results).renderers[0].data_source.data
    assert sum(lengths["games"]) == len(results)
    scores = score_distributions(results)
    lines = [r for r in scores.renderers if r.glyph.__class__.__name__ == "Step"]
    assert len(lines) == 3 and all(sum(r.data_source.data["games"]) == 30 for r in lines)


def test_position_heatmap_counts_every_final_balloon(results):
    heat = position_heatmap(results)
    data = heat.renderers[0].data_source.data
    flying = sum(len(p.split()) for p in results["positions"])
    assert sum(data["count"]) == flying
    assert len(data["count"]) == 12 * 4  # every cell of the sky, empty ones too


def test_report_is_self_contained_html(results, tmp_path):
    path = report(results, tmp_path / "report.html")
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"<script[^>]*\bsrc=", text)  # BokehJS inline, nothing fetched
    assert not re.search(r"<link[^>]*\bhref=\"?https?:", text)
    assert "Bokeh" in text and "win_rate_seat_0" in text and "Final positions" in text


def test_dashboard_and_show_load_bokeh_inline(results, monkeypatch):
    layout = dashboard(results)
    assert len(layout.children) == 3
    shown, loaded = [], []
    import bokeh.io

    monkeypatch.setattr(bokeh.io, "show", lambda obj: shown.append(obj))
    monkeypatch.setattr(bokeh.io, "output_notebook",
                        lambda resources, hide_banner: loaded.append(resources))
    from aloftnb.playtest import plots

    monkeypatch.setattr(plots, "_LOADED", False)
    aloftnb.playtest.show(results)
    assert loaded and loaded[0].mode == "inline"
    assert shown and shown[0].__class__.__name__ == "Column"


def test_live_gives_a_jupyter_bokeh_widget_with_bokeh_loaded_inline(results, monkeypatch):
    from aloftnb.playtest import plots

    loaded = []
    monkeypatch.setattr(plots, "_LOADED", False)
    import bokeh.io

    monkeypatch.setattr(bokeh.io, "output_notebook",
                        lambda resources, hide_banner: loaded.append(resources.mode))
    fig = length_histogram(results)
    widget = aloftnb.playtest.live(fig)
    assert type(widget).__name__ == "BokehModel" and loaded == ["inline"]
    assert type(aloftnb.playtest.live(results)).__name__ == "BokehModel"


def test_plots_explain_their_marks(results):
    legend = [item.label.value for item in win_rate_plot(results).legend[0].items]
    assert legend == ["fair share (1/3)"]
    bars = [r for r in position_heatmap(results).right if r.__class__.__name__ == "ColorBar"]
    assert bars and bars[0].title == "pieces ended here"
