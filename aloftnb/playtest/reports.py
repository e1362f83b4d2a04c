"""A self-contained HTML report of simulation results: the dashboard with BokehJS inline."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from bokeh.embed import file_html

from .plots import RESOURCES, _title, dashboard


def report_html(results: pd.DataFrame, title: str | None = None) -> str:
    """The report as one HTML page that works offline (no CDN)."""
    return file_html(dashboard(results), resources=RESOURCES, title=title or _title(results))


def report(results: pd.DataFrame, path: str | Path, title: str | None = None) -> Path:
    """Write the report to `path` and return the path."""
    path = Path(path)
    path.write_text(report_html(results, title), encoding="utf-8")
    return path
