"""Playtesting: simulate many games with bots, measure the design, plot it, compare variants.

    >>> import aloftnb
    >>> results = aloftnb.simulate("balloons", players=3, bots="random", games=1000, seed=1)
    >>> aloftnb.design_metrics(results)
    >>> aloftnb.tune("cloudspire", {"catalogue.rules.gate_health": (6, 14)}, "seat_fairness",
    ...              players=2, trials=20)

Imported lazily: pandas and bokeh load only when these are used.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "simulate": "simulation", "results_match": "simulation",
    "design_metrics": "metrics", "win_rates": "metrics", "bot_win_rates": "metrics",
    "seats_comparable": "metrics", "SeatsNotComparableWarning": "metrics",
    "compare": "comparison", "Comparison": "comparison",
    "dashboard": "plots", "show": "plots", "live": "plots", "score_distributions": "plots",
    "win_rate_plot": "plots", "length_histogram": "plots", "position_heatmap": "plots",
    "report": "reports", "report_html": "reports",
    "tune": "tuning", "TuneResults": "tune_results", "objectives": "objectives",
    "restricted_play": "restricted", "RestrictedPlay": "restricted",
    "Restriction": "restrictions", "RestrictedBot": "restrictions",
    "restriction_plot": "restriction_plots",
    "evidence_table": "evidence", "evidence_status": "evidence", "evidence_plot": "evidence",
}
# Exports that are modules themselves: aloftnb.objectives.seat_fairness().
_MODULES = {"objectives"}

__all__ = [
    "Comparison", "SeatsNotComparableWarning", "bot_win_rates", "compare", "dashboard",
    "design_metrics", "length_histogram", "live", "position_heatmap", "report", "report_html",
    "results_match", "score_distributions", "seats_comparable", "show", "simulate",
    "TuneResults", "objectives", "tune", "win_rate_plot", "win_rates",
    "evidence_plot", "evidence_status", "evidence_table",
    "RestrictedBot", "RestrictedPlay", "Restriction", "restricted_play", "restriction_plot",
]


# What playtesting needs beyond the boards: `pip install aloftnb` brings them, but the browser
# build (the JupyterLite site, whose Python cannot run them) has none.
FULL_INSTALL = ("pandas", "bokeh", "jupyter_bokeh", "numpy")


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        try:
            module = import_module(f".{_EXPORTS[name]}", __name__)
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] not in FULL_INSTALL:
                raise
            raise ModuleNotFoundError(
                f"aloftnb.{name} needs {exc.name}, which this Python does not have: "
                "playtesting (simulations, metrics, plots) needs the full install, `pip install "
                "aloftnb` in JupyterLab (see aloftnb's README). Boards, bots and editing from "
                "cells work without it.", name=exc.name) from exc
        return module if name in _MODULES else getattr(module, name)
    raise AttributeError(f"module 'aloftnb.playtest' has no attribute {name!r}")
