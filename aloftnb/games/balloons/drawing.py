"""Draw a balloons view dict as SVG: the sky, the launch zone, the safety truck and the packed row.

Pure string building from the view dict (what the viewer may see), so the same drawing serves the
live board, `_repr_svg_` in notebooks and static reports. Clickable parts carry `data-key` (the
board's click paths) and an `aria-label` for screen readers, with a `.hit` shape to highlight.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import BalloonsRules

CELL = 56
LEFT = 58
TOP = 40
PALETTE = {
    "green": "#3a9d4a", "purple": "#8a4fbf", "red": "#d63b3b", "white": "#f6f6f2",
    "yellow": "#f2c230",
}
SPECIAL_FILL = {"lion": "#d98b2b", "wolf": "#7d8794", "monkey": "#8b5a2b"}
FONT = 'font-family="system-ui, sans-serif"'
HIT = '<rect class="hit" fill="#ffffff" fill-opacity="0"'  # the area a click or focus highlights


def _attr(text: str) -> str:
    return escape(text, quote=True)


def _fills(rules: BalloonsRules, bid: str) -> list[str]:
    from .rules import BALLOON_COLOURS

    colours = BALLOON_COLOURS[bid]
    if not colours:
        return [SPECIAL_FILL.get(bid, "#999999")]
    return [PALETTE.get(c, "#bbbbbb") for c in colours]


def _describe(bid: str) -> str:
    from .rules import BALLOON_COLOURS

    colours = BALLOON_COLOURS[bid]
    return f"{bid} ({' and '.join(colours)})" if colours else f"{bid} (special shape, no colour)"


def _envelope(rules, bid: str, cx: float, cy: float, r: float) -> str:
    """A balloon: the envelope split into its colours, ropes and a basket."""
    fills = _fills(rules, bid)
    parts = []
    if len(fills) == 1:
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fills[0]}" stroke="#333" '
                     'stroke-width="1.2"/>')
    else:
        parts.append(f'<path d="M{cx},{cy - r} A{r},{r} 0 0 0 {cx},{cy + r} Z" fill="{fills[0]}"/>')
        parts.append(f'<path d="M{cx},{cy - r} A{r},{r} 0 0 1 {cx},{cy + r} Z" fill="{fills[1]}"/>')
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#333" '
                     'stroke-width="1.2"/>')
    basket_y = cy + r + r * 0.45
    parts.append(f'<path d="M{cx - r * 0.55},{cy + r * 0.8} L{cx - r * 0.2},{basket_y} '
                 f'M{cx + r * 0.55},{cy + r * 0.8} L{cx + r * 0.2},{basket_y}" stroke="#555" '
                 'stroke-width="1"/>')
    parts.append(f'<rect x="{cx - r * 0.25}" y="{basket_y}" width="{r * 0.5}" height="{r * 0.3}" '
                 'fill="#8d6e63"/>')
    label = bid if len(bid) <= 2 else bid[:4]
    size = max(11, r * 0.7)
    parts.append(f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="{size:.0f}"'
                 f' font-weight="700" fill="#111" stroke="#fff" stroke-width="2.5" '
                 f'paint-order="stroke" {FONT}>{escape(label)}</text>')
    return "".join(parts)


def _card(rules, bid: str, x: float, y: float, w: float, h: float, vertical: bool) -> str:
    """A balloon card lying on a truck (unpacked) or waiting in the row (packed)."""
    fills = _fills(rules, bid)
    parts = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" fill="#fff" stroke="#333"/>']
    band = (w - 6) / len(fills) if not vertical else (h - 6) / len(fills)
    for i, fill in enumerate(fills):
        if vertical:
            parts.append(f'<rect x="{x + 3}" y="{y + 3 + i * band}" width="{w - 6}" '
                         f'height="{band}" fill="{fill}"/>')
        else:
            parts.append(f'<rect x="{x + 3 + i * band}" y="{y + 3}" width="{band}" '
                         f'height="{h - 6}" fill="{fill}"/>')
    label = bid if len(bid) <= 2 else bid[:4]
    parts.append(f'<text x="{x + w / 2}" y="{y + h / 2 + 4}" text-anchor="middle" font-size="11" '
                 f'font-weight="700" fill="#111" stroke="#fff" stroke-width="2.5" '
                 f'paint-order="stroke" {FONT}>{escape(label)}</text>')
    return "".join(parts)


def _truck(x: float, y: float, label: str, body: str) -> str:
    return (f'<rect x="{x + 6}" y="{y}" width="{CELL - 12}" height="16" rx="3" fill="{body}" '
            f'stroke="#333"/><rect x="{x + CELL - 18}" y="{y - 8}" width="12" height="10" '
            f'fill="{body}" stroke="#333"/>'
            f'<circle cx="{x + 15}" cy="{y + 18}" r="4" fill="#333"/>'
            f'<circle cx="{x + CELL - 15}" cy="{y + 18}" r="4" fill="#333"/>'
            f'<text x="{x + CELL / 2 - 4}" y="{y + 12}" text-anchor="middle" font-size="11" '
            f'fill="#fff" {FONT}>{escape(label)}</text>')


def draw_board(rules: BalloonsRules, view: dict[str, Any], **_: Any) -> str:
    columns, altitudes = view["columns"], view["altitudes"]
    balloons, trucks = view["balloons"], view["trucks"]
    sky_w = (columns + 1) * CELL  # one extra column for a lead truck that has left the field
    sky_bottom = TOP + altitudes * CELL
    zone_y = sky_bottom + 26
    # The choice edition draws its wind arrows under the trucks: room for them and their labels.
    arrow_room = 26 if view["edition"] == "choice" else 0
    safety_y = zone_y + 72 + arrow_room
    row_y = safety_y + 44 + arrow_room
    width = LEFT + sky_w + 10
    height = row_y + (128 if view["step"] == "over" else 92)
    over = view["step"] == "over"
    tokens = view.get("tokens", {})
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" class="balloons-board" role="group" '
           f'aria-label="Aloft board">']

    # Header: what the wind did and whose turn it is.
    if over:
        head = "Game over" + (f" — {view['wind']}" if view["wind"] else "")
    else:
        step = "move a truck (choose the wind)" if view["step"] == "wind" else "advance a balloon"
        head = f"Seat {view['current_player']} to {step}"
        if view["wind"]:
            head += f" · wind: {view['wind']}"
    out.append(f'<text x="{LEFT}" y="20" font-size="14" font-weight="600" {FONT} '
               f'class="balloons-headline">{escape(head)}</text>')

    # The sky.
    for a in range(1, altitudes + 1):
        y = TOP + (altitudes - a) * CELL
        out.append(f'<text x="{LEFT - 8}" y="{y + CELL / 2 + 4}" text-anchor="end" font-size="11" '
                   f'fill="#44546a" {FONT}>alt {a}</text>')
        for c in range(1, columns + 1):
            x = LEFT + (c - 1) * CELL
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" class="sky-cell" '
                       f'fill="#dceefb" stroke="#b8d4ea"/>')
    for c in range(1, columns + 2):
        x = LEFT + (c - 1) * CELL
        label = str(c) if c <= columns else "off"
        out.append(f'<text x="{x + CELL / 2}" y="{sky_bottom + 15}" text-anchor="middle" '
                   f'font-size="11" fill="#44546a" {FONT}>{label}</text>')

    for bid, entry in balloons.items():
        if entry["status"] != "flying":
            continue
        c, a = entry["column"], entry["altitude"]
        x, y = LEFT + (c - 1) * CELL, TOP + (altitudes - a) * CELL
        token = tokens.get(bid)
        label = f"{_describe(bid)}, flying at column {c}, altitude {a}"
        if token:
            label += f", scoring token {token}"
        out.append(f'<g data-key="balloon:{_attr(bid)}" aria-label="{_attr(label)}" '
                   f'class="balloon flying">{HIT} x="{x + 2}" y="{y + 2}" '
                   f'width="{CELL - 4}" height="{CELL - 4}" rx="6"/>'
                   f'{_envelope(rules, bid, x + CELL / 2, y + CELL / 2 - 6, 17)}')
        if token:
            out.append(f'<circle cx="{x + CELL - 11}" cy="{y + 11}" r="9" fill="#fff7d6" '
                       f'stroke="#b8860b"/><text x="{x + CELL - 11}" y="{y + 15}" '
                       f'text-anchor="middle" font-size="11" font-weight="700" {FONT} '
                       f'class="token">{token}</text>')
        out.append("</g>")

    # The launch zone: trucks and the balloons riding them.
    riders = {entry["truck"]: (bid, entry["status"]) for bid, entry in balloons.items()
              if entry["status"] in ("unpacked", "inflated")}
    out.append(f'<text x="{LEFT - 8}" y="{zone_y + 52}" text-anchor="end" font-size="11" '
               f'fill="#44546a" {FONT}>launch</text>')
    for k, c in enumerate(trucks):
        x = LEFT + (c - 1) * CELL
        rider = riders.get(k)
        carrying = f", carrying {rider[0]} ({rider[1]})" if rider else ", empty"
        where = f"at column {c}" if c <= columns else "past the last column"
        out.append(f'<g data-key="truck:{k}" aria-label="truck {k} {_attr(where)}'
                   f'{_attr(carrying)}" class="truck">{HIT} x="{x + 2}" '
                   f'y="{zone_y + 34}" width="{CELL - 4}" height="32" rx="5"/>'
                   f'{_truck(x, zone_y + 44, f"T{k}", "#46607a")}</g>')
        if rider:
            bid, status = rider
            label = f"{_describe(bid)}, {status} on truck {k}"
            out.append(f'<g data-key="balloon:{_attr(bid)}" aria-label="{_attr(label)}" '
                       f'class="balloon {status}">')
            if status == "unpacked":
                card = _card(rules, bid, x + 8, zone_y + 20, CELL - 16, 20, False)
                out.append(f'{HIT} x="{x + 4}" y="{zone_y + 14}" width="{CELL - 8}" '
                           f'height="28" rx="4"/>{card}')
            else:
                envelope = _envelope(rules, bid, x + CELL / 2, zone_y + 16, 13)
                out.append(f'{HIT} x="{x + 4}" y="{zone_y - 2}" width="{CELL - 8}" '
                           f'height="46" rx="4"/>{envelope}')
            out.append("</g>")

    # The safety truck.
    sx = LEFT + (view["safety"] - 1) * CELL
    out.append(f'<text x="{LEFT - 8}" y="{safety_y + 14}" text-anchor="end" font-size="11" '
               f'fill="#44546a" {FONT}>safety</text>')
    out.append(f'<g class="safety-truck" aria-label="safety truck at column {view["safety"]}">'
               f'{_truck(sx, safety_y, "S", "#e07b00")}</g>')

    # Wind choices (choice edition): an arrow under each truck that a choice would move, with
    # what it does; the rules say which choices there are and where they lead (wind_choices).
    choices = view.get("wind_choices", {})
    arrows = []
    if "launch" in choices:
        move = choices["launch"]
        arrows.append(("wind:launch", LEFT + (move["from"] - 1) * CELL, zone_y + 70,
                       f"wind: truck T{move['truck']} to column {move['to']}"))
    if "safety" in choices:
        move = choices["safety"]
        arrows.append(("wind:safety", LEFT + (move["from"] - 1) * CELL, safety_y + 26,
                       f"wind: safety truck to column {move['to']}"))
    for key, x, y, label in arrows:
        out.append(f'<g data-key="{key}" aria-label="{_attr(label)}" class="wind-arrow">'
                   f'<rect class="hit" fill="#ffffff" fill-opacity="0" x="{x + CELL / 2 - 4}" '
                   f'y="{y - 2}" width="{CELL + 150}" height="20" rx="4"/>'
                   f'<path d="M{x + CELL / 2},{y + 8} h{CELL - 14} l-7,-6 M{x + CELL * 1.5 - 14},'
                   f'{y + 8} l-7,6" stroke="#1565c0" stroke-width="3" fill="none"/>'
                   f'<text x="{x + CELL * 1.5 - 6}" y="{y + 12}" font-size="11" fill="#1565c0" '
                   f'{FONT}>{escape(label)}</text></g>')

    # The packed row.
    only_first = "" if view["mode"] == "competitive" else " (only the first may be unpacked)"
    out.append(f'<text x="{LEFT}" y="{row_y - 6}" font-size="11" fill="#44546a" {FONT}>'
               f'packed row{only_first}</text>')
    for i, bid in enumerate(view["row"]):
        x = LEFT + i * 52
        label = f"{_describe(bid)}, packed, position {i + 1} in the row"
        out.append(f'<g data-key="balloon:{_attr(bid)}" aria-label="{_attr(label)}" '
                   f'class="balloon packed">{HIT} x="{x - 2}" y="{row_y - 2}" '
                   f'width="50" height="64" rx="5"/>'
                   f'{_card(rules, bid, x + 2, row_y + 2, 42, 56, True)}</g>')

    # Colour cards this view may see, and scores at the end.
    colours = view.get("colours", {})
    if view["mode"] != "competitive":
        legend = "Solo rules: same-colour balloons may not touch diagonally; lower score is better."
    elif colours:
        legend = "Colour cards: " + ", ".join(f"seat {s} {c}" for s, c in sorted(colours.items()))
    else:
        legend = "Colour cards are hidden in this view."
    out.append(f'<text x="{LEFT}" y="{row_y + 84}" font-size="12" {FONT} '
               f'class="balloons-legend">{escape(legend)}</text>')
    if over:
        text = "Scores: " + ", ".join(f"seat {s}: {v}" for s, v in view["scores"].items())
        out.append(f'<text x="{LEFT}" y="{row_y + 102}" font-size="12" font-weight="700" {FONT} '
                   f'class="balloons-scores">{escape(text)}</text>')
    if over and tokens:  # the key to the scoring tokens drawn on the flying balloons
        out.append(f'<g class="balloons-token-key"><circle cx="{LEFT + 9}" cy="{row_y + 116}" '
                   f'r="9" fill="#fff7d6" stroke="#b8860b"/><text x="{LEFT + 9}" '
                   f'y="{row_y + 120}" text-anchor="middle" font-size="11" font-weight="700" '
                   f'{FONT}>n</text><text x="{LEFT + 24}" y="{row_y + 120}" font-size="12" '
                   f'{FONT}>scoring token: 1 for the lowest leftmost balloon, then left to right, '
                   'upwards; a seat scores its colour&#8217;s tokens</text></g>')
    out.append("</svg>")
    return "".join(out)
