"""Draw a Cloudspire view dict as SVG: the hex map (islands, sky, Source wells, earthscape slots,
gates, landmarks, spires with their upgrades, units with health chips) and a side panel (wave and
phase, each faction's Source, command points, fortress, barracks and deployment stack, the market,
the event, the spire firing now and a short onslaught log).

Pure string building from the view dict: the rules put every name and number into
`view["board"]`, and the view itself hides what a seat may not see (stacks below the top,
unseen landmark faces), so the drawing shows exactly what it is given. The map fits its frame
whatever its size; `zoom` (the board's zoom menu) enlarges the frame, which the board scrolls to
pan. Every hex is one clickable part, `data-key="hex:q,r"`, holding whatever stands on it.

Map and panel are the two parts of core/drawing.py's `map_and_panel`; the map's focus is the
spire firing, else the pieces of the faction to play.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ...core.drawing import FONT, PanelText, attr, map_and_panel, zoom_scale
from ...core.flow import OVER
from ...core.words import fit_size, possessive
from ...kit import hexdraw
from .actions import UPGRADE_WORDS

if TYPE_CHECKING:
    from .rules import CloudspireRules

MAP_W, MAP_H = 620, 600
PANEL_GAP, PANEL_W = 16, 400
COLOURS = ("#c0392b", "#2c6fbb", "#7d3c98", "#b9770e")  # per faction
GROUND = ("#cfe3b4", "#d9e8bf", "#c6dcac", "#e0ebc8", "#bfd6a0", "#d3e4b8", "#c9deb0")
EARTHSCAPE_FILL = "#e8d9b0"
SKY_FILL = "#dbeefa"
UPGRADE_FILLS = {"A": "#e74c3c", "R": "#3498db", "F": "#7f8c8d"}
NAME_ROOM = 2.4  # widest a landmark's name may run, in hex sizes (about one and a half hexes)
TYPE_WORDS = {"minion": "merc minion", "hero": "merc hero", "spire": "merc spire",
              "equipment": "equipment"}


def _colour(faction: int) -> str:
    return COLOURS[faction % len(COLOURS)]


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split()[:2]).upper()


def draw_board(rules: CloudspireRules | None, view: dict[str, Any], *, zoom: float = 1.0,
               log: tuple[str, ...] | list[str] = (), **_: Any) -> str:
    board = view["board"]
    scale = zoom_scale(zoom)
    map_w, map_h = MAP_W * scale, MAP_H * scale
    frame = hexdraw.fit([hexdraw.centre_of(h["hex"]) for h in board["hexes"]], map_w,
                        map_h - 44, top=24)
    size, at = frame.size, frame.hex

    panel_x = map_w + PANEL_GAP
    panel, panel_h = _panel(view, panel_x, list(log))
    head = _headline(view)
    islands = sorted({h["group"] for h in board["hexes"] if h["group"]
                      and not h["group"].startswith("earthscape")})
    pieces = _pieces(view)
    # Landmark hexes last: the name under a landmark runs past its hex, over the neighbours.
    hexes = [_hex(h, at(h["hex"]), size, islands, pieces.get(h["hex"], []), view)
             for h in sorted(board["hexes"], key=lambda h: h["landmark"])]
    return map_and_panel("cloudspire", "Cloudspire", head,
                         fit_size(head, map_w - 24, 14.0, bold=True), area="map",
                         map_size=(map_w, map_h), scale=scale, focus=_focus(view, at),
                         background="#f4f8fb", body=hexes, panel_x=panel_x,
                         panel_size=(PANEL_W, panel_h),
                         panel_label="factions, market and onslaught log", panel=panel)


def _focus(view: dict[str, Any], at: Any) -> tuple[float, float]:
    """Where the play is, in map pixels: the spire firing (and its target), else the units and
    spires of the faction to play, else its gate, else the middle. A zoomed map opens there."""
    board = view["board"]
    fire = board["fire"]
    if board["firing"]:
        names = [board["firing"]] + ([fire["target"]] if fire and fire["target"] else [])
    else:
        f = board["turn_of"]
        names = [u["hex"] for u in board["units"] if u["owner"] == f]
        names += [sp["hex"] for sp in board["spires"] if sp["owner"] == f]
        names = names or [info["gate_hex"] for info in board["factions"]
                          if info["faction"] == f]
    points = [at(n) for n in names] or [at(h["hex"]) for h in board["hexes"]]
    return hexdraw.middle(points)


def _headline(view: dict[str, Any]) -> str:
    board = view["board"]
    if board["result_text"]:
        return "Game over: " + board["result_text"]
    return f"{board['where']}. {board['doing']}."


# -- the map ---------------------------------------------------------------------------------
def _pieces(view: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """What stands on each hex: ("gate", …), ("landmark", …), ("spire", …), ("unit", …)."""
    board = view["board"]
    found: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for info in board["factions"]:
        found.setdefault(info["gate_hex"], []).append(("gate", info))
    for lm, state_lm in zip(board["landmark_info"], view["landmarks"]):
        found.setdefault(lm["hex"], []).append(("landmark", {**lm, "face": state_lm["face"]}))
    spire_info = {sp["hex"]: sp for sp in board["spire_info"]}
    for sp in board["spires"]:
        found.setdefault(sp["hex"], []).append(("spire", {**sp, **spire_info[sp["hex"]]}))
    for u in board["units"]:
        found.setdefault(u["hex"], []).append(("unit", u))
    return found


def _hex(h: dict[str, Any], centre: tuple[float, float], size: float, islands: list[str],
         pieces: list[tuple[str, dict[str, Any]]], view: dict[str, Any]) -> str:
    board = view["board"]
    name = h["hex"]
    cx, cy = centre
    r = size * 0.97
    pts = hexdraw.hexagon_points(cx, cy, r)
    slot = next((s for s in board["slots"] if s["hex"] == name), None) if h["slot"] else None
    if slot and slot["earthscape"]:
        fill, where = EARTHSCAPE_FILL, f"earthscape {slot['earthscape']}"
    elif h["sky"]:
        fill, where = SKY_FILL, "open sky" + (", an empty earthscape slot" if slot else "")
    else:
        group = h["group"]
        fill = GROUND[islands.index(group) % len(GROUND)] if group in islands else GROUND[0]
        where = f"island {group}" if group else "ground"
    words = [f"hex {name}", where]
    body = []
    fs = max(8.0, min(12.0, size * 0.2))
    if slot and not slot["earthscape"]:
        body.append(f'<polygon points="{pts}" fill="none" stroke="#b08d57" stroke-width="1.5" '
                    'stroke-dasharray="5 3" transform="'
                    f'translate({cx:.1f} {cy:.1f}) scale(0.8) translate({-cx:.1f} {-cy:.1f})"/>')
    if h["well"]:
        words.append("a Source well")
        body.append(f'<circle cx="{cx - size * 0.45:.1f}" cy="{cy - size * 0.42:.1f}" '
                    f'r="{size * 0.12:.1f}" '
                    'fill="#3fb6d6" stroke="#1b6f85"/>')
    for kind, piece in pieces:
        if kind == "gate":
            words.append(_gate(piece, cx, cy, size, fs, view, body))
        elif kind == "landmark":
            words.append(_landmark(piece, cx, cy, size, fs, board, body))
        elif kind == "spire":
            words.append(_spire(piece, cx, cy, size, fs, board, body))
        else:
            words.append(_unit(piece, cx, cy, size, fs, board, body))
    if board["firing"] == name:
        words.append("firing now")
        body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.8:.1f}" fill="none" '
                    'stroke="#f39c12" stroke-width="3" stroke-dasharray="6 3"/>')
    fire = board["fire"]
    if fire and fire["target"] == name:
        words.append("the spire's target")
    return (f'<g data-key="hex:{name}" aria-label="{attr(", ".join(words))}">'
            f'<polygon class="hit painted" points="{pts}" fill="{fill}" stroke="#8fa3b0" '
            f'stroke-width="1"/>{"".join(body)}</g>')


def _gate(info: dict[str, Any], cx: float, cy: float, size: float, fs: float,
          view: dict[str, Any], body: list[str]) -> str:
    f = info["faction"]
    health = view["sides"][f]["gate"]
    s = size * 0.42
    body.append(f'<rect x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}"'
                f' rx="4" fill="{_colour(f)}" fill-opacity="{1 if health else 0.35}" '
                'stroke="#2c3e50"/>'
                f'<text x="{cx:.1f}" y="{cy + fs * 0.4:.1f}" text-anchor="middle" '
                f'font-size="{fs * 1.2:.1f}" font-weight="700" fill="#fff" {FONT}>'
                f'♥{health}</text>')
    state = f"health {health}" if health else "defeated"
    return f"{possessive(info['name'])} fortress gate, {state}"


def _landmark(lm: dict[str, Any], cx: float, cy: float, size: float, fs: float,
              board: dict[str, Any], body: list[str]) -> str:
    s = size * 0.36
    # A face-down landmark whose face this view holds: its explorer's (or the designer's) look
    # at it, drawn apart from a revealed one (dashed gold edge, the face in italics, still "?").
    seen = board.get("face_stats", {}).get(lm["face"]) if not lm["revealed"] else None
    edge = 'stroke="#2c3e50"'
    if lm["revealed"]:
        fill, mark = "#a67c52", (f"♥{lm['health']}" if lm["health"] else "✕")
        text = (f"landmark {lm['name']}, revealed, "
                + (f"health {lm['health']}, attack {lm['attack']}" if lm["health"]
                   else "defeated or without health"))
    elif seen:
        fill, mark = "#5d4037", "?"
        edge = 'stroke="#f5b041" stroke-width="2.5" stroke-dasharray="4 2"'
        text = f"landmark, face down; face seen: {seen['name']} ({_face_words(seen)})"
    else:
        fill, mark = "#5d4037", "?"
        text = "landmark, face down"
    body.append(f'<rect x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s:.1f}" '
                f'height="{2 * s:.1f}" fill="{fill}" {edge} '
                f'transform="rotate(45 {cx:.1f} {cy:.1f})"/>'
                f'<text x="{cx:.1f}" y="{cy + fs * 0.4:.1f}" text-anchor="middle" '
                f'font-size="{fs:.1f}" font-weight="700" fill="#fff" {FONT}>{escape(mark)}</text>')
    # Names are whole (never cut: "Abandoned Cach"); landmark hexes are drawn last, so a name
    # may run over the neighbours, and only a very long one shrinks.
    if lm["revealed"] and lm["name"]:
        name_fs = fit_size(lm["name"], NAME_ROOM * size, fs * 0.8, smallest=5.0)
        body.append(f'<text x="{cx:.1f}" y="{cy + size * 0.72:.1f}" text-anchor="middle" '
                    f'font-size="{name_fs:.1f}" fill="#3e2723" {FONT}>'
                    f'{escape(lm["name"])}</text>')
    elif seen:
        stats = (f"♥{seen['health']} ⚔{seen['attack']}" if seen["health"]
                 else f"+{seen['reveal_source']} Source" if seen["reveal_source"] else "")
        seen_fs = fit_size(f"seen: {seen['name']}", NAME_ROOM * size, fs * 0.8, smallest=5.0)
        body.append(f'<g class="landmark-seen" font-style="italic" {FONT}>'
                    f'<text x="{cx:.1f}" y="{cy + size * 0.72:.1f}" text-anchor="middle" '
                    f'font-size="{seen_fs:.1f}" fill="#7e5109">'
                    f'seen: {escape(seen["name"])}</text>'
                    + (f'<text x="{cx:.1f}" y="{cy - size * 0.5:.1f}" text-anchor="middle" '
                       f'font-size="{fs * 0.75:.1f}" fill="#7e5109">{escape(stats)}</text>'
                       if stats else "")
                    + '</g>')
    return text


def _face_words(face: dict[str, Any]) -> str:
    """A landmark face's numbers in words, for its aria label."""
    words = []
    if face["health"]:
        words.append(f"health {face['health']}, attack {face['attack']}")
    if face["reveal_source"]:
        words.append(f"{face['reveal_source']} Source when revealed")
    if face["reward"]:
        words.append(f"reward {face['reward']}")
    return ", ".join(words) or "no health"


def _spire(sp: dict[str, Any], cx: float, cy: float, size: float, fs: float,
           board: dict[str, Any], body: list[str]) -> str:
    colour = _colour(sp["owner"])
    owner = board["factions"][sp["owner"]]["name"]
    top, base, half = cy - size * 0.55, cy + size * 0.25, size * 0.32
    body.append(f'<polygon points="{cx:.1f},{top:.1f} {cx - half:.1f},{base:.1f} '
                f'{cx + half:.1f},{base:.1f}" fill="{colour}" stroke="#1c2833"/>')
    # The upgrades as a column of chips beside it, bottom first (damage removes the bottom).
    chip = max(5.0, size * 0.17)
    x0 = cx + half + 2
    for i, up in enumerate(sp["upgrades"]):
        y = base - (i + 1) * (chip + 1)
        body.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{chip:.1f}" height="{chip:.1f}" '
                    f'fill="{UPGRADE_FILLS.get(up, "#999")}" stroke="#fff" stroke-width="0.5"/>'
                    f'<text x="{x0 + chip / 2:.1f}" y="{y + chip * 0.8:.1f}" text-anchor="middle"'
                    f' font-size="{chip * 0.85:.1f}" fill="#fff" {FONT}>{up}</text>')
    body.append(f'<text x="{cx:.1f}" y="{base + fs:.1f}" text-anchor="middle" '
                f'font-size="{fs * 0.85:.1f}" fill="#1c2833" {FONT}>'
                f'{sp["dice"]}d · r{sp["range"]}</text>')
    ups = ", ".join(UPGRADE_WORDS.get(u, u) for u in sp["upgrades"]) or "none"
    return (f"{possessive(owner)} {sp['name']}: {sp['dice']} attack dice, range {sp['range']}, "
            f"fortification {sp['fortification']}, upgrades bottom first {ups}, "
            f"{sp['free']} of capacity {sp['capacity']} free")


def _unit(u: dict[str, Any], cx: float, cy: float, size: float, fs: float,
          board: dict[str, Any], body: list[str]) -> str:
    colour = _colour(u["owner"])
    owner = board["factions"][u["owner"]]["name"]
    rad = size * 0.36
    if u["hero"]:
        body.append(f'<rect x="{cx - rad:.1f}" y="{cy - rad:.1f}" width="{2 * rad:.1f}" '
                    f'height="{2 * rad:.1f}" rx="{rad * 0.35:.1f}" fill="#fff" '
                    f'stroke="{colour}" stroke-width="3"/>')
    else:
        body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rad:.1f}" fill="#fff" '
                    f'stroke="{colour}" stroke-width="3"/>')
    initials = _initials(u["name"])
    body.append(f'<text x="{cx:.1f}" y="{cy + fs * 0.35:.1f}" text-anchor="middle" '
                f'font-size="{fs:.1f}" font-weight="700" fill="{colour}" {FONT}>'
                f'{escape(initials)}</text>')
    # Health chips: one dot per point left, hollow for points lost.
    n = max(u["full_health"], u["health"])
    dot = max(2.0, min(size * 0.07, 1.6 * rad / max(1, n)))
    x0 = cx - (n - 1) * dot * 1.25
    for i in range(n):
        fill = colour if i < u["health"] else "#fff"
        body.append(f'<circle cx="{x0 + i * dot * 2.5:.1f}" cy="{cy + rad + dot + 2:.1f}" '
                    f'r="{dot:.1f}" fill="{fill}" stroke="{colour}" stroke-width="0.8"/>')
    names = u.get("names") or [u["name"]] * u["group"]
    if u["group"] > 1:
        # "×2" only for a group of one kind; a mixed group shows who is under the top.
        badge = (f"×{u['group']}" if len(set(names)) == 1
                 else "+" + "+".join(_initials(n) for n in names[1:]))
        badge_fs = fit_size(badge, size * 0.75, fs * 0.9, smallest=5.0, bold=True)
        body.append(f'<text x="{cx + rad:.1f}" y="{cy - rad + fs * 0.3:.1f}" font-size="'
                    f'{badge_fs:.1f}" font-weight="700" fill="#1c2833" {FONT}>{escape(badge)}'
                    '</text>')
    kind = "hero" if u["hero"] else "minion"
    group = ""
    if u["group"] > 1:
        group = (f", a group of {u['group']}" if len(set(names)) == 1
                 else f", a group of {u['group']} ({', '.join(names)})")
    return (f"{possessive(owner)} {kind} {u['name']}{group}: attack {u['attack']}, health "
            f"{u['health']} of {u['full_health']}, movement {u['movement']} ({u['terrain']})")


# -- the panel -------------------------------------------------------------------------------
def _panel(view: dict[str, Any], x: float, log: list[str]) -> tuple[str, int]:
    board = view["board"]
    out = [f'<g class="panel" {FONT}>']
    p = PanelText(out, x, PANEL_W)
    text, wrapped = p.text, p.wrapped

    text(x, "Cloudspire", 14, "700")
    p.y += 18
    wrapped(x, board["where"], 12, weight="600")
    if board["event_name"]:
        wrapped(x, f"Event: {board['event_name']}", fill="#6c3483")
    if board["result_text"]:
        wrapped(x, "Game over: " + board["result_text"], 12, "#922b21", "700")
    elif board["doing"]:
        wrapped(x, board["doing"], fill="#34495e")
    p.y += 4
    for f, info in enumerate(board["factions"]):
        side, more = view["sides"][f], board["sides"][f]
        turn = " ◀" if board["turn_of"] == f else ""
        out.append(f'<rect x="{x:g}" y="{p.y - 10}" width="12" height="12" fill="{_colour(f)}" '
                   'rx="2"/>')
        who = f"{info['name']} (played by the rules)" if info["bot"] else \
            f"Seat {f}: {info['name']}"
        text(x + 18, f"{who}{turn}", 12, "700", _colour(f))
        p.y += 15
        wrapped(x + 18, f"Gate ♥{side['gate']} · Source {side['source']}/{info['source_cap']}"
                        f" · command {more['command']}"
                        + (f" · mark: {more['mark_name']}" if more["mark_name"] else "")
                        + (" · done" if more["done"] and view["phase"] not in ("onslaught", OVER)
                           else ""))
        fortress = ", ".join(f"{n} {b}/{t}" for n, b, t in more["structures"])
        wrapped(x + 18, f"Fortress: {fortress}", fill="#34495e")
        barracks = ", ".join(f"{n} ×{c}" for n, c in more["barracks"]) or "empty"
        wrapped(x + 18, f"Barracks: {barracks}", fill="#34495e")
        stock = ", ".join(f"{n} ×{c}" for n, c in more["spire_stock"]) or "none"
        held = ", ".join(more["equipment"] + more["earthscapes"])
        wrapped(x + 18, f"Spires to build: {stock}" + (f" · holds {held}" if held else ""),
                fill="#34495e")
        p.y = _stack(out, view, f, x + 18, p.y)
        p.y += 4
    text(x, "Market", 13, "700")
    p.y += 16
    if not board["market"] and not board["earthscape_offer"]:
        wrapped(x, "nothing on offer", fill="#34495e")
    for chip in board["market"]:
        wrapped(x, f"slot {chip['slot']}: {chip['name']} ({TYPE_WORDS.get(chip['type'], '')}),"
                   f" {chip['cost']} Source")
    offer = board["earthscape_offer"]
    if offer:
        wrapped(x, f"earthscape face up: {offer['name']}" + (" (a Source well)" if offer["well"]
                                                              else "")
                   + f", {offer['cost']} Source"
                   + (" (this wave's one is bought)" if offer.get("sold") else ""))
    p.y += 4
    fire = board["fire"]
    if fire:
        if fire["target"]:
            wrapped(x, f"Spire at {fire['spire']} fires at {fire['target']}: "
                       f"{fire['dice_left']} dice left, {fire['damage']} damage rolled", 12,
                    "#a04000", "600")
        else:
            wrapped(x, f"Spire at {fire['spire']} fires: its owner chooses a target", 12,
                    "#a04000", "600")
    text(x, "Onslaught log", 13, "700")
    p.y += 16
    for line in log[-8:] or ["no fights yet"]:
        wrapped(x, line, 10, "#34495e")
    out.append("</g>")
    return "".join(out), p.y + 10


def _stack(out: list[str], view: dict[str, Any], f: int, x: float, y: int) -> int:
    """A faction's deployment stack: its top open, the rest as backs unless the view shows
    them (its owner's and the designer's)."""
    stack = view["sides"][f]["stack"]
    if not stack:
        return y
    kinds = view["board"]["unit_kinds"]
    colour = _colour(f)
    out.append(f'<g class="stack stack-{f}"><text x="{x:g}" y="{y}" font-size="11" '
               'fill="#1c2833">Stack (top first):</text>')
    y += 4
    cx = x
    for i, band in enumerate(stack[:12]):
        if band == "hidden":
            out.append(f'<g class="stack-back" aria-label="a unit face down">'
                       f'<rect x="{cx:g}" y="{y}" width="28" height="20" rx="3" '
                       f'fill="{colour}" fill-opacity="0.45" stroke="{colour}"/>'
                       f'<text x="{cx + 14:g}" y="{y + 14}" font-size="10" text-anchor="middle" '
                       f'fill="#fff">?</text></g>')
        else:
            # Members hidden from this view show as "?", never as copies of the top one.
            names = [kinds[m]["name"] if m in kinds else "" for m in band["members"]]
            count = len(names)
            if count > 1 and len(set(names)) == 1:
                chip, group = f"{_initials(names[0])}×{count}", f", a group of {count}"
            else:
                chip = "+".join(_initials(n) if n else "?" for n in names)
                group = (f", a group of {count}: "
                         + ", ".join(n or "a hidden minion" for n in names)) if count > 1 else ""
            label = (f"{'top: ' if i == 0 else ''}{names[0]}{group}, health {band['health']}")
            chip_fs = fit_size(chip, 26, 9, smallest=5.0, bold=True)
            out.append(f'<g class="stack-unit" aria-label="{attr(label)}">'
                       f'<rect x="{cx:g}" y="{y}" width="28" height="20" rx="3" fill="#fff" '
                       f'stroke="{colour}" stroke-width="{2.5 if i == 0 else 1.2}"/>'
                       f'<text x="{cx + 14:g}" y="{y + 14}" font-size="{chip_fs:.1f}" '
                       f'text-anchor="middle" fill="{colour}" font-weight="700">'
                       f'{escape(chip)}</text>'
                       f'<title>{escape(label)}</title></g>')
        cx += 31
    if len(stack) > 12:
        out.append(f'<text x="{cx:g}" y="{y + 14}" font-size="10">+{len(stack) - 12}</text>')
    out.append("</g>")
    top = view["board"]["sides"][f]["stack_top"]
    y += 34
    if top:
        top_text = (f"Top: {top['name']}, attack {top['attack']}, health {top['health']} of "
                    f"{top['full_health']}, movement {top['movement']}")
        top_fs = fit_size(top_text, PANEL_W - 26, 10, smallest=7.0)
        out.append(f'<text x="{x:g}" y="{y}" font-size="{top_fs:.1f}" fill="#34495e">'
                   f'{escape(top_text)}</text>')
        y += 14
    return y
