"""The drawing every game has before it draws itself: its view as a table of keys and values.

A game written in a notebook gets a working board at once (the moves appear as buttons next to
this table); it overrides `Rules.render_svg` when it wants a picture.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

LINE = 22
MAX_VALUE_CHARS = 90


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def draw_view_table(title: str, view: dict[str, Any]) -> str:
    """An SVG listing `view`'s top-level keys and their values (long values shortened)."""
    rows = [(str(key), _text(value)) for key, value in view.items()]
    width = 760
    height = LINE * (len(rows) + 2)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}: the state as a table" class="aloft-view-table">',
             f'<rect width="{width}" height="{height}" fill="#f8f8f4" rx="6"/>',
             f'<text x="12" y="{LINE}" font-size="15" font-weight="bold" '
             f'font-family="sans-serif">{escape(title)}</text>']
    for i, (key, value) in enumerate(rows, start=2):
        y = LINE * i
        parts.append(f'<text x="12" y="{y}" font-size="13" font-family="monospace" '
                     f'fill="#555">{escape(key)}</text>')
        parts.append(f'<text x="200" y="{y}" font-size="13" font-family="monospace">'
                     f'{escape(value)}</text>')
    parts.append("</svg>")
    return "".join(parts)
