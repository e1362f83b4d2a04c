"""Drawings: the one every game has before it draws itself, and the pieces game drawings share.

`draw_view_table`: a game's view as a table of keys and values. A game written in a notebook gets
a working board at once (the moves appear as buttons next to this table); it overrides
`Rules.render_svg` when it wants a picture.

`attr` and `FONT` for any SVG a game writes, `PanelText` for the text of a side panel, and
`map_and_panel`: a drawing in two parts, a map the board may zoom and a side panel, as
aloftnb/widget/board.js lays them out (alone they sit side by side; the board scales the map to
its frame and puts the panel beside or below it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape
from typing import Any

from .words import wrap

LINE = 22
MAX_VALUE_CHARS = 90


class PanelText:
    """A side panel's text, written downwards into `out` from the height `y`: `text` writes one
    line at the current height (`dy` below it); `wrapped` breaks a text between words into lines
    that fit the panel from `tx` on (less `margin`) and moves `y` past them. `number` is the
    format of x coordinates (a game's drawing keeps the one it was written with)."""

    def __init__(self, out: list[str], x: float, width: float, *, y: int = 22,
                 margin: float = 8, line_gap: int = 3, end_gap: int = 5, number: str = "g"):
        self.out, self.x, self.width, self.y = out, x, width, y
        self.margin, self.line_gap, self.end_gap, self.number = margin, line_gap, end_gap, number

    def text(self, tx: float, content: str, size: int = 12, weight: str = "400",
             fill: str = "#1c2833", cls: str = "", dy: int = 0) -> None:
        extra = f' class="{cls}"' if cls else ""
        self.out.append(f'<text x="{format(tx, self.number)}" y="{self.y + dy}" '
                        f'font-size="{size}" font-weight="{weight}" fill="{fill}"{extra}>'
                        f'{escape(content)}</text>')

    def wrapped(self, tx: float, content: str, size: int = 11, fill: str = "#1c2833",
                weight: str = "400") -> None:
        lines = wrap(content, self.width - (tx - self.x) - self.margin, size,
                     bold=int(weight) >= 600)
        for line in lines[:-1]:
            self.text(tx, line, size, weight, fill)
            self.y += size + self.line_gap
        self.text(tx, lines[-1], size, weight, fill)
        self.y += size + self.end_gap


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


FONT = 'font-family="system-ui, sans-serif"'  # the font of every game's drawing text
MAX_ZOOM = 3.0  # the most a map part is enlarged (the board's largest zoom)


def attr(text: Any) -> str:
    """`text` (or anything, as str) escaped for an SVG attribute's value."""
    return escape(str(text), quote=True)


def zoom_scale(zoom: float) -> float:
    """How much a map part is enlarged at the board's `zoom`: 1 (fit) to MAX_ZOOM."""
    return max(1.0, min(float(zoom), MAX_ZOOM))


def map_and_panel(game: str, title: str, head: str, head_size: float, *, area: str,
                  map_size: tuple[float, float], scale: float, focus: tuple[float, float],
                  background: str, body: Iterable[str], panel_x: float,
                  panel_size: tuple[int, int], panel_label: str, panel: str) -> str:
    """A drawing in two parts as board.js lays them out (`data-part="map"` and `"panel"`).

    The map part (`map_size` pixels at zoom `scale`) shows `head` at `head_size` on `background`
    and holds `body`, a group named by `area` ("map": class "map", "the map"); its
    `data-focus` is where the play is (`focus`, map pixels): a zoomed map opens centred there.
    The panel part (`panel_size`, `panel_label`) stands at `panel_x`. CSS classes are
    "<game>-board" and "<game>-headline"; `title` starts the whole drawing's label."""
    map_w, map_h = map_size
    panel_w, panel_h = panel_size
    width, height = panel_x + panel_w, max(map_h, panel_h)
    focus_x, focus_y = focus
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
           f'width="{width:g}" height="{height:g}" class="{game}-board" data-parts="" '
           f'role="group" aria-label="{attr(f"{title} board. {head}")}">',
           f'<svg x="0" y="0" width="{map_w:g}" height="{map_h:g}" '
           f'viewBox="0 0 {map_w:g} {map_h:g}" overflow="hidden" class="{game}-board" '
           f'data-part="map" data-zoom="{scale:g}" data-focus="{focus_x:.1f} {focus_y:.1f}" '
           f'role="group" aria-label="{attr(f"The {area}. {head}")}">',
           f'<rect x="0" y="0" width="{map_w:g}" height="{map_h:g}" fill="{background}" rx="8"/>',
           f'<text x="12" y="18" font-size="{head_size:.1f}" font-weight="700" {FONT} '
           f'class="{game}-headline">{escape(head)}</text>',
           f'<g class="{area}" role="group" aria-label="the {area}">', *body, "</g></svg>",
           f'<svg x="{panel_x:g}" y="0" width="{panel_w}" height="{panel_h}" '
           f'viewBox="{panel_x:g} 0 {panel_w} {panel_h}" class="{game}-board" '
           f'data-part="panel" role="group" aria-label="{attr(panel_label)}">{panel}</svg>',
           "</svg>"]
    return "".join(out)
