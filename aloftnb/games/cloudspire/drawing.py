"""A plain SVG of a Cloudspire view: the hex map (ground, sky, wells, landmarks), gates with their
health, spires with their upgrades, units with their health, and a header with the wave, phase
and each faction's Source. Drawn from the view dict alone (the rules put the map and every stat
into `view["board"]`); the full board with clicking is a later step.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

SIZE = 30  # hex radius in pixels
COLOURS = ("#c0392b", "#2c6fbb", "#7d3c98", "#b9770e")  # per faction
GROUND = ("#cfe3b4", "#d9e8bf", "#c6dcac", "#e0ebc8", "#bfd6a0", "#d3e4b8", "#c9deb0")


def _centre(name: str) -> tuple[float, float]:
    q, r = (int(x) for x in name.split(","))
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _hexagon(x: float, y: float, radius: float) -> str:
    points = " ".join(f"{x + radius * math.cos(math.radians(60 * k - 30)):.1f},"
                      f"{y + radius * math.sin(math.radians(60 * k - 30)):.1f}"
                      for k in range(6))
    return f'<polygon points="{points}"'


def draw_board(rules: Any, view: dict[str, Any]) -> str:
    board = view["board"]
    xs = [_centre(h["hex"]) for h in board["hexes"]]
    left = min(x for x, _ in xs) - SIZE * 1.2
    top = min(y for _, y in xs) - SIZE * 1.2
    width = max(x for x, _ in xs) - left + SIZE * 1.2
    header = 24 + 18 * len(board["factions"])
    height = max(y for _, y in xs) - top + SIZE * 1.2 + header
    groups = sorted({h["group"] for h in board["hexes"] if h["group"]})
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="{width:.0f}" height="{height:.0f}" role="img" '
             f'aria-label="Cloudspire, wave {view["wave"]}, {escape(view["phase"])} phase" '
             f'class="cloudspire-map" font-family="sans-serif">',
             f'<rect width="{width:.0f}" height="{height:.0f}" fill="#eef6fb"/>']
    stage = f" ({view['stage']})" if view["stage"] else ""
    event = f", event: {board['event_name']}" if board["event_name"] else ""
    parts.append(f'<text x="8" y="18" font-size="14" font-weight="bold">Wave {view["wave"]}, '
                 f'{escape(view["phase"])}{escape(stage)}{escape(event)}</text>')
    for f, info in enumerate(board["factions"]):
        side = view["sides"][f]
        colour = COLOURS[f % len(COLOURS)]
        turn = " ◀" if board["turn_of"] == f else ""
        parts.append(f'<text x="8" y="{38 + 18 * f}" font-size="12" fill="{colour}">'
                     f'{escape(info["name"])}{" (bot)" if info["bot"] else ""}: gate '
                     f'{side["gate"]}, Source {side["source"]}/{info["source_cap"]}, command '
                     f'{side["command"]}, stack {info["stack_size"]}{turn}</text>')
    shift = f'transform="translate({-left:.1f},{-top + header:.1f})"'
    parts.append(f"<g {shift}>")
    for h in board["hexes"]:
        x, y = _centre(h["hex"])
        fill = "#dbeefa" if h["sky"] else GROUND[groups.index(h["group"]) % len(GROUND)]
        parts.append(f'{_hexagon(x, y, SIZE - 1)} fill="{fill}" stroke="#8aa" '
                     f'stroke-width="1"><title>{escape(h["hex"])} '
                     f'{escape(h["group"] or "sky")}</title></polygon>')
        if h["well"]:
            parts.append(f'<circle cx="{x:.1f}" cy="{y + SIZE * 0.55:.1f}" r="4" '
                         'fill="#3fb6d6"/>')
        if h["landmark"]:
            parts.append(f'<rect x="{x - 9:.1f}" y="{y - 9:.1f}" width="18" height="18" '
                         f'fill="#8d6e4a" transform="rotate(45 {x:.1f} {y:.1f})"/>')
        if h["gate"] >= 0:
            gate = view["sides"][h["gate"]]["gate"]
            parts.append(f'<rect x="{x - 13:.1f}" y="{y - 13:.1f}" width="26" height="26" '
                         f'fill="{COLOURS[h["gate"] % len(COLOURS)]}" rx="3"/>'
                         f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="13" fill="white" '
                         f'text-anchor="middle">{gate}</text>')
    for sp in board["spires"]:
        x, y = _centre(sp["hex"])
        upgrades = next(s["upgrades"] for s in view["spires"] if s["hex"] == sp["hex"])
        parts.append(f'<polygon points="{x:.1f},{y - 14:.1f} {x - 11:.1f},{y + 8:.1f} '
                     f'{x + 11:.1f},{y + 8:.1f}" fill="{COLOURS[sp["owner"] % len(COLOURS)]}">'
                     f'<title>{escape(sp["name"])}: range {sp["range"]}, {sp["dice"]} dice'
                     f'</title></polygon><text x="{x:.1f}" y="{y + 20:.1f}" font-size="9" '
                     f'text-anchor="middle">{escape(upgrades)}</text>')
    for u in board["units"]:
        x, y = _centre(u["hex"])
        colour = COLOURS[u["owner"] % len(COLOURS)]
        shape = (f'<rect x="{x - 11:.1f}" y="{y - 11:.1f}" width="22" height="22" rx="5"'
                 if u["hero"] else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11"')
        parts.append(f'{shape} fill="white" stroke="{colour}" stroke-width="3">'
                     f'<title>{escape(u["name"])}: attack {u["attack"]}, health '
                     f'{u["health"]}/{u["full_health"]}, movement {u["movement"]}</title>'
                     f'{"</rect>" if u["hero"] else "</circle>"}'
                     f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle">'
                     f'{u["health"]}</text>')
    parts.append("</g></svg>")
    return "".join(parts)
