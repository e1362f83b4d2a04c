"""Draw a sky commodores view dict as SVG: the growing hex map, ships, pools, goals and shipyard.

Pure string building from the view dict (its "derived" part holds what the rules work out), so
the same drawing serves the live board, `_repr_svg_` and reports. The map is scaled to fit its
frame whatever its size, and `zoom` (a drawing option the board's zoom buttons set) enlarges it
around the centre of the placed hexes. Clickable parts carry `data-key`: "space:q,r" for hexes
and empty spaces, "corner:q,r,N" for corners, "ship:seat:captain" for ships.

It is drawn in two parts, the sky and a panel (core/drawing.py's `map_and_panel`); a zoomed
sky opens on the acting ship, else on the ships of the seat to play.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ...core.drawing import FONT, PanelText, attr, map_and_panel, zoom_scale
from ...core.words import fit_size
from ...kit import hexdraw, hexgrid

if TYPE_CHECKING:
    from .rules import CommodoresRules

MAP_W, MAP_H = 600, 560
PANEL_X, PANEL_W = 616, 384
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")
HEX_FILLS = {"merchant": "#f6d365", "canvas": "#efe6cf", "breath": "#f7b27a",
             "glass": "#b9e3e6", "wood": "#b08d72", "metal": "#a9b6bf"}
LEVIATHAN_FILL = "#8e7cc3"
OTHER_FILL = "#d5d8dc"  # resources a designer added beyond the five


def _neighbours(name: str) -> list[str]:
    return [hexgrid.name(*h) for h in hexgrid.neighbours(*hexgrid.parse(name))]


def _hex_corners(name: str) -> list[str]:
    return [hexgrid.corner_name(*c) for c in hexgrid.hex_corners(*hexgrid.parse(name))]


def _corner_touches(corner: str) -> list[str]:
    """The spaces a corner touches: its own hex, then the two across from it."""
    return [hexgrid.name(*h) for h in hexgrid.corner_touches(*hexgrid.parse_corner(corner))]


def _space_words(name: str, hexes: dict[str, dict[str, Any]], d: dict[str, Any]) -> str:
    """A space as a corner's neighbour: "the wood hex at 0,0 (number 4)", "empty sky at 1,0"."""
    h = hexes.get(name)
    if h is None:
        return f"empty sky at {name}"
    kind = h["kind"]
    if "health" in h:
        return f"the leviathan {d['leviathans'].get(kind, {'name': kind})['name']} at {name}"
    if kind == "merchant":
        return f"the merchant hex at {name}"
    number = h.get("number", 0)
    return (f"the {d['resources'].get(kind, kind)} hex at {name}"
            + (f" (number {number})" if number else ""))


def _around(corner: str, hexes: dict[str, dict[str, Any]], d: dict[str, Any]) -> str:
    """Where a corner is, for a screen reader: the spaces of the sky around it."""
    around = [_space_words(n, hexes, d) for n in _corner_touches(corner)
              if hexgrid.within(hexgrid.parse(n), d["radius"])]
    if len(around) > 1:
        return f"between {', '.join(around[:-1])} and {around[-1]}"
    return f"by {around[0]}" if around else "at the sky's edge"


def draw_board(rules: CommodoresRules | None, view: dict[str, Any], *, zoom: float = 1.0,
               **_: Any) -> str:
    d = view["derived"]
    hexes: dict[str, dict[str, Any]] = view["hexes"]
    radius = d["radius"]
    # Empty spaces next to the map, inside the sky: where exploring can place a hex.
    frontier = sorted({n for name in hexes for n in _neighbours(name)
                       if n not in hexes and hexgrid.within(hexgrid.parse(n), radius)})
    # Zoom enlarges the map's frame (the board scrolls to pan it); the map fits the frame.
    scale = zoom_scale(zoom)
    map_w, map_h = MAP_W * scale, MAP_H * scale
    # Fit every placed hex and its empty neighbours into the map frame.
    frame = hexdraw.fit([hexdraw.centre_of(n) for n in [*hexes, *frontier]], map_w, map_h - 40,
                        top=20, max_size=70 * scale)
    size, at = frame.size, frame.at
    panel_x = map_w + PANEL_X - MAP_W

    head = _headline(view)
    panel, panel_h = _panel(view, panel_x)
    head_fs = min(14.0, (map_w - 24) / (0.6 * max(1, len(head))))  # a long headline fits
    sky = [_space(name, None, at, size, d) for name in frontier]
    sky += [_space(name, h, at, size, d) for name, h in hexes.items()]
    corners = sorted({c for name in hexes for c in _hex_corners(name)})
    ships = {ship["corner"]: ship for ship in view["ships"]}
    for corner in corners:
        if corner not in ships:
            x, y = at(*hexdraw.corner_point_of(corner))
            hit_r = max(5, size * 0.16)
            label = f"corner {corner}, empty, {_around(corner, hexes, d)}"
            sky.append(f'<g data-key="corner:{corner}" aria-label="{attr(label)}">'
                       f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="{hit_r:.1f}"'
                       ' fill="#ffffff" fill-opacity="0.01" stroke="none"/>'
                       f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="#8595a6"/></g>')
    for corner, ship in ships.items():
        sky.append(_ship(ship, at(*hexdraw.corner_point_of(corner)), size, view))
    return map_and_panel("commodores", "Sky commodores", head, head_fs, area="sky",
                         map_size=(map_w, map_h), scale=scale, focus=at(*_focus(view, hexes)),
                         background="#eaf2fb", body=sky, panel_x=panel_x,
                         panel_size=(PANEL_W, panel_h),
                         panel_label="commodores, goals and shipyard", panel=panel)


def _focus(view: dict[str, Any], hexes: dict[str, Any]) -> tuple[float, float]:
    """Where the play is, in map units: the acting ship, else the ships of the seat to play,
    else the middle of the placed hexes. A zoomed map opens centred there."""
    ships = view["ships"]
    seat = view["derived"]["current_player"]
    if view["acting"]:
        points = [hexdraw.corner_point_of(s["corner"]) for s in ships
                  if s["ship"] == view["acting"]]
    else:
        points = [hexdraw.corner_point_of(s["corner"]) for s in ships
                  if seat is not None and s["ship"].split(":")[0] == str(seat)]
    points = points or [hexdraw.centre_of(n) for n in hexes] or [(0.0, 0.0)]
    return hexdraw.middle(points)


def _headline(view: dict[str, Any]) -> str:
    d = view["derived"]
    if d["result_text"]:
        return "Game over: " + d["result_text"]
    seat = d["current_player"]
    if seat is None or seat < 0:
        return f"Set-up: drawing ({view['step'].replace('_', ' ')})" if d["phase"] == "setup" \
            else "Drawing from the stack"
    if d["phase"] == "setup":
        return f"Set-up: seat {seat} " + ("places a starter ship" if view["step"] == "place"
                                          else "takes a free resource")
    if view["step"] == "place_hex" and view.get("drawn"):
        return (f"Round {d['round']}: seat {seat} drew {_drawn_text(view)}: click where it goes")
    return f"Round {d['round']}: seat {seat}, {d['phase']} phase"


def _drawn_text(view: dict[str, Any]) -> str:
    """The hex waiting to be placed (rulings 2), in words: "a canvas hex", "Barkwyrm (a
    leviathan)"."""
    d, drawn = view["derived"], view["drawn"]
    if drawn in d["leviathans"]:
        return f"{d['leviathans'][drawn]['name']} (a leviathan)"
    if drawn == "merchant":
        return "a merchant hex"
    return f"a {d['resources'].get(drawn, drawn)} hex"


def _space(name: str, h: dict[str, Any] | None, at: Any, size: float, d: dict[str, Any]) -> str:
    cx, cy = at(*hexdraw.centre_of(name))
    r = size * 0.97
    pts = hexdraw.hexagon_points(cx, cy, r)
    if h is None:
        return (f'<g data-key="space:{name}" aria-label="empty sky at {name}">'
                f'<polygon class="hit painted" points="{pts}" fill="#ffffff" fill-opacity="0.35" '
                'stroke="#9fb3c8" stroke-dasharray="4 3"/></g>')
    kind = h["kind"]
    fs = max(9, min(13, size * 0.22))
    body = []
    if "health" in h:
        lv = d["leviathans"].get(kind, {"name": kind, "reward": "?"})
        fill = LEVIATHAN_FILL
        label = (f"{lv['name']}, a leviathan at {name}: health {h['health']}, reward "
                 f"{d['resources'].get(lv['reward'], lv['reward'])}")
        name_fs = fit_size(lv["name"], 1.6 * r, fs, 5.0, bold=True)  # long names fit the hex
        body.append(f'<text x="{cx:.1f}" y="{cy - fs * 0.4:.1f}" text-anchor="middle" '
                    f'font-size="{name_fs:.1f}" font-weight="700" fill="#fff" {FONT}>'
                    f'{escape(lv["name"])}</text>')
        body.append(f'<text x="{cx:.1f}" y="{cy + fs * 1.1:.1f}" text-anchor="middle" '
                    f'font-size="{fs:.1f}" fill="#fff" {FONT}>♥ {h["health"]}</text>')
    elif kind == "merchant":
        fill = HEX_FILLS["merchant"]
        label = f"merchant hex at {name}"
        body.append(f'<text x="{cx:.1f}" y="{cy + fs * 0.35:.1f}" text-anchor="middle" '
                    f'font-size="{fit_size("Merchant", 1.6 * r, fs, 5.0, True):.1f}" '
                    f'font-weight="700" fill="#5c4400" {FONT}>Merchant</text>')
    else:
        fill = HEX_FILLS.get(kind, OTHER_FILL)
        number = h.get("number", 0)
        res = d["resources"].get(kind, kind)
        label = f"{res} hex at {name}, number {number or 'none'}"
        name_y = cy - fs * 0.5  # the name's baseline
        body.append(f'<text x="{cx:.1f}" y="{name_y:.1f}" text-anchor="middle" '
                    f'font-size="{fit_size(res, 1.5 * r, fs, 5.0):.1f}" fill="#2c3e50" {FONT}>'
                    f'{escape(res)}</text>')
        if number:
            # The token stays about the name's size (a zoomed hex grows, its text does not)
            # and sits below the name's descenders, so it never covers the name.
            tr = max(7.0, min(size * 0.24, fs * 1.2))
            ty = name_y + fs * 0.3 + max(1.5, size * 0.04) + tr
            body.append(f'<circle cx="{cx:.1f}" cy="{ty:.1f}" r="{tr:.1f}" '
                        'fill="#fffdf5" stroke="#5d6d7e"/>'
                        f'<text class="number-token" x="{cx:.1f}" y="{ty + tr * 0.4:.1f}"'
                        f' text-anchor="middle" font-size="{tr * 1.1:.1f}" font-weight="700" '
                        f'{FONT}>{number}</text>')
    return (f'<g data-key="space:{name}" aria-label="{attr(label)}">'
            f'<polygon class="hit painted" points="{pts}" fill="{fill}" stroke="#4d5d6c" '
            f'stroke-width="1.2"/>{"".join(body)}</g>')


def _ship(ship: dict[str, Any], xy: tuple[float, float], size: float, view: dict[str, Any]
          ) -> str:
    d = view["derived"]
    seat, captain = ship["ship"].split(":")
    colour = SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
    card = d["ship_types"].get(ship["type"], {"name": ship["type"]})
    stats = d["ship_stats"].get(ship["ship"], {})
    acting = view["acting"] == ship["ship"]
    done = ship["ship"] in view["acted"] or ship["new"]
    r = max(8, size * 0.22)
    x, y = xy
    where = f"corner {ship['corner']} {_around(ship['corner'], view['hexes'], d)}"
    label = (f"seat {seat}'s ship {captain}, {card['name']}, at {where}: move "
             f"{stats.get('move')}, forage "
             f"{stats.get('forage')}, plunder {stats.get('plunder')}"
             + (", can build" if stats.get("builds") else "")
             + (", acting now" if acting else ", done this turn" if done else ""))
    ring = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 4:.1f}" fill="none" stroke="#111" '
            'stroke-width="2.5"/>' if acting else "")
    return (f'<g data-key="ship:{ship["ship"]}" aria-label="{attr(label)}">{ring}'
            f'<circle class="hit painted" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}" '
            f'stroke="#fff" stroke-width="1.5" fill-opacity="{0.55 if done else 1}"/>'
            f'<text x="{x:.1f}" y="{y + r * 0.42:.1f}" text-anchor="middle" '
            f'font-size="{r * 1.15:.1f}" font-weight="700" fill="#fff" {FONT}>{captain}</text>'
            "</g>")


def _panel(view: dict[str, Any], x: float) -> tuple[str, int]:
    """The panel's markup and its height."""
    d = view["derived"]
    out = [f'<g class="panel" {FONT}>']
    p = PanelText(out, x, PANEL_W, margin=12, line_gap=4, end_gap=6, number="")
    text, wrapped = p.text, p.wrapped

    res_names = d["resources"]
    text(x, "Commodores", 13, "700")
    p.y += 18
    current = d["current_player"]
    for seat, pool in enumerate(view["pools"]):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        done = view["completed"][seat]
        mark = " ◀" if current == seat else ""
        out.append(f'<rect x="{x}" y="{p.y - 10}" width="12" height="12" fill="{colour}" rx="2"/>')
        text(x + 18, f"Seat {seat}: {len(done)}/{d['goals_to_win']} goals{mark}", 12, "600")
        p.y += 15
        held = ", ".join(f"{n} {res_names.get(r, r)}" for r, n in pool.items() if n) or "nothing"
        wrapped(x + 18, f"{sum(pool.values())} held: {held}", fill="#34495e")
        p.y += 2
    p.y += 4
    text(x, "Goals in play" + (f" (Beacon number {view['goal_number']})"
                                  if view["goal_number"] else ""), 13, "700")
    p.y += 17
    for goal_id, goal_text in d["goals"].items():
        seats = [str(s) for s, done in enumerate(view["completed"]) if goal_id in done]
        suffix = f"  ✓ seat {', '.join(seats)}" if seats else ""
        wrapped(x, f"{goal_text}{suffix}")
    p.y += 4
    text(x, "Shipyard (cards left)", 13, "700")
    p.y += 17
    for type_id, left in view["shipyard"].items():
        card = d["ship_types"].get(type_id, {"name": type_id})
        cost = ", ".join(f"{n} {res_names.get(r, r)}" for r, n in card.get("cost", {}).items())
        stats = (f"M{card.get('move')} F{card.get('forage')} P{card.get('plunder')}"
                 + (" B" if card.get("builds") else ""))
        wrapped(x, f"{card['name']}: {stats}, cost {cost} · {left} left")
    basic = d["ship_types"].get("basic")
    if basic:
        cost = ", ".join(f"{n} {res_names.get(r, r)}" for r, n in basic["cost"].items())
        wrapped(x, f"{basic['name']} (basic, once per game): cost {cost}", fill="#34495e")
    p.y += 4
    stack = view["stack"]
    leviathans = stack.get("leviathans", sum(v for k, v in stack.items()
                                             if k not in HEX_FILLS and k not in res_names))
    wrapped(x, f"Face-down hexes: {d['stack_total']} (leviathans among them: {leviathans}); "
               f"number tokens: {sum(view['tokens'].values())}", fill="#34495e")
    if view["acting"]:
        ship = next(s for s in view["ships"] if s["ship"] == view["acting"])
        card = d["ship_types"].get(ship["type"], {"name": ship["type"], "upgrades": {}})
        stats = d["ship_stats"].get(ship["ship"], {})
        wrapped(x, f"Acting: ship {ship['ship'].split(':')[1]}, {card['name']}", 13, weight="700")
        wrapped(x, f"move {stats.get('move')} · forage {stats.get('forage')} · plunder "
                   f"{stats.get('plunder')}" + (" · builds" if stats.get("builds") else ""))
        ups = ", ".join(card["upgrades"][u]["name"] for u in ship["upgrades"]) or "none"
        wrapped(x, f"Upgrades: {ups}")
        wrapped(x, "Done this turn: " + (", ".join(view["done"]) or "nothing yet"))
    if view["step"] == "place_hex" and view.get("drawn"):
        wrapped(x, f"Drawn: {_drawn_text(view)}. Click an empty space next to the acting ship "
                   "to place it.", 12, weight="600")
    if view["step"] == "take":
        wrapped(x, f"Plundering seat {view['target']}: take {view['left']} more", 12,
                weight="600")
    if view["forage_number"]:
        text(x, f"Foraged on {view['forage_number']} this turn", 11, fill="#34495e", dy=16)
    out.append("</g>")
    return "".join(out), p.y + 30
