"""Draw an ALU view dict as SVG: the grid, camps, raiding pieces, control and both counters.

Pure string building from the view dict, so the same drawing serves the live board, `_repr_svg_`
in notebooks and static reports. Every tile carries `data-key="tile:<id>"` and an `aria-label`
that says everything on it, so the board can be played and read without seeing it. Control is
shown by stripes in two directions as well as by colour, so it does not depend on colour vision.

The drawing is two parts (`data-part="map"`: the grid and its actions; `"panel"`: the players'
counters; see aloftnb/widget/board.js): alone they sit side by side; the board scales the grid
to its frame and puts the panel beside or below it.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import AluRules

CELL = 60
LEFT = 34
TOP = 58
PANEL = 310
FONT = 'font-family="system-ui, sans-serif"'
COLOURS = {"circle": "#1f5fa8", "square": "#b4541a"}
NAMES = ("circle", "square")
ACTION_BUTTONS = (  # the costs come from the view (derived.action_costs), as the rules give them
    ("camp", "Set up a camp"),
    ("raid", "Raid"),
    ("restore", "Restore"),
    ("raided_camp", "Camp on raided tile"),
    ("attack", "Attack"),
    ("end_turn", "End the turn"),
)


def _attr(text: str) -> str:
    return escape(text, quote=True)


def tile_label(tile: str, content: str, controller: str | None) -> str:
    """What a screen reader says for one tile."""
    what = {"empty": "empty", "raided": "raided", "circle": "circle camp",
            "square": "square camp"}[content]
    owner = f"controlled by {controller}" if controller else "not controlled"
    return f"tile {tile}: {what}, {owner}"


def _defs() -> str:
    # Stripes one way for circle, the other way for square.
    out = ["<defs>"]
    for name, angle in (("circle", 45), ("square", -45)):
        out.append(f'<pattern id="alu-control-{name}" width="10" height="10" '
                   f'patternUnits="userSpaceOnUse" patternTransform="rotate({angle})">'
                   f'<rect width="10" height="10" fill="{COLOURS[name]}" fill-opacity="0.10"/>'
                   f'<rect width="4" height="10" fill="{COLOURS[name]}" fill-opacity="0.30"/>'
                   "</pattern>")
    out.append("</defs>")
    return "".join(out)


def _camp(name: str, cx: float, cy: float) -> str:
    colour = COLOURS[name]
    if name == "circle":
        return (f'<circle class="camp circle-camp" cx="{cx}" cy="{cy}" r="{CELL * 0.3}" '
                f'fill="{colour}" stroke="#0d2c4f" stroke-width="2"/>')
    side = CELL * 0.56
    return (f'<rect class="camp square-camp" x="{cx - side / 2}" y="{cy - side / 2}" '
            f'width="{side}" height="{side}" fill="{colour}" stroke="#5a2606" stroke-width="2"/>')


def _raid_piece(cx: float, cy: float) -> str:
    # The raiding sign is a bar across the tile.
    w, h = CELL * 0.62, CELL * 0.16
    return (f'<rect class="raid-piece" x="{cx - w / 2}" y="{cy - h / 2}" width="{w}" '
            f'height="{h}" rx="3" fill="#6d4c41" stroke="#3e2723" stroke-width="1.5" '
            f'transform="rotate(-30 {cx} {cy})"/>')


PART_FILLS = {"available": "#4f7a3a", "pending": "#d8b54a", "spent": "#d9dde2"}


def _counter(x: float, y: float, label: str, parts: list[tuple[int, str, str]]) -> str:
    """One resource track: a labelled bar split into available / not usable yet / spent."""
    total = sum(n for n, _, _ in parts)
    width = 180
    out = [f'<text x="{x}" y="{y + 11}" font-size="12" {FONT}>{escape(label)}</text>']
    bx = x + 92
    if total:
        cursor = bx
        for count, css, _ in parts:
            w = width * count / total
            if w:
                out.append(f'<rect class="counter-part {css}" x="{cursor:.1f}" y="{y + 1}" '
                           f'width="{w:.1f}" height="12" fill="{PART_FILLS[css]}"/>')
            cursor += w
    out.append(f'<rect x="{bx}" y="{y + 1}" width="{width}" height="12" fill="none" '
               'stroke="#607080"/>')
    text = " · ".join(f"{count} {word}" for count, _, word in parts)
    out.append(f'<text x="{x + 8}" y="{y + 27}" font-size="11" fill="#33404d" {FONT}>'
               f'{escape(text)}</text>')
    return "".join(out)


def draw_board(rules: AluRules, view: dict[str, Any], **_: Any) -> str:
    columns, rows = view["columns"], view["rows"]
    board, derived = view["board"], view["derived"]
    control = {tile: name for name in NAMES for tile in derived["control"][name]}
    grid_w, grid_h = columns * CELL, rows * CELL
    px = LEFT + grid_w + 24
    width = px + PANEL
    height = max(TOP + grid_h + 150, 470)
    over = view["result"] is not None
    current = view["current_player"]
    if over:
        head = derived["result_text"].capitalize()
    else:
        name = NAMES[current]
        head = (f"Turn {view['turn']}: {name} to act, {view['actions_left']} action"
                f"{'s' if view['actions_left'] != 1 else ''} left")
    map_w = px - 10
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" class="alu-board" data-parts="" role="group" '
            f'aria-label="{_attr("ALU board. " + head)}">'),
           f'<svg x="0" y="0" width="{map_w}" height="{height}" viewBox="0 0 {map_w} {height}" '
           'class="alu-board" data-part="map" role="group" '
           f'aria-label="{_attr("The island. " + head)}">', _defs()]
    out.append(f'<text x="{LEFT}" y="22" font-size="15" font-weight="700" {FONT} '
               f'class="alu-headline">{escape(head)}</text>')

    # Column letters and row numbers, as on the board the tile ids come from.
    for c in range(columns):
        out.append(f'<text x="{LEFT + c * CELL + CELL / 2}" y="{TOP - 8}" text-anchor="middle" '
                   f'font-size="12" fill="#44546a" aria-hidden="true" {FONT}>'
                   f'{chr(97 + c)}</text>')
    for r in range(rows):
        out.append(f'<text x="{LEFT - 8}" y="{TOP + r * CELL + CELL / 2 + 4}" text-anchor="end" '
                   f'font-size="12" fill="#44546a" aria-hidden="true" {FONT}>{r + 1}</text>')

    out.append('<g class="alu-grid" role="group" aria-label="tiles, row by row from the top">')
    for r in range(rows):
        for c in range(columns):
            tile = f"{chr(97 + c)}{r + 1}"
            content = board[tile]
            owner = control.get(tile)
            x, y = LEFT + c * CELL, TOP + r * CELL
            cx, cy = x + CELL / 2, y + CELL / 2
            classes = f"tile tile-{content}" + (f" control-{owner}" if owner else "")
            out.append(f'<g data-key="tile:{tile}" class="{classes}" '
                       f'aria-label="{_attr(tile_label(tile, content, owner))}">')
            out.append(f'<rect class="ground" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                       f'fill="#f4efe1" stroke="#9c9078" stroke-width="1"/>')
            if owner:
                out.append(f'<rect class="shade" x="{x}" y="{y}" width="{CELL}" '
                           f'height="{CELL}" fill="url(#alu-control-{owner})"/>')
            if content in NAMES:
                out.append(_camp(content, cx, cy))
            elif content == "raided":
                out.append(_raid_piece(cx, cy))
            out.append(f'<text x="{x + 4}" y="{y + 12}" font-size="11" fill="#7a6f5a" '
                       f'aria-hidden="true" {FONT}>{tile}</text>')
            out.append(f'<rect class="hit" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                       f'height="{CELL - 4}" rx="4" fill="#ffffff" fill-opacity="0"/>')
            out.append("</g>")
    out.append("</g>")
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{grid_w}" height="{grid_h}" fill="none" '
               'stroke="#4e4536" stroke-width="2.5" aria-hidden="true"/>')

    # The action bar, like the cheat card: one button per action, with its cost. It follows the
    # tiles in the document, so once a tile is chosen a single Tab reaches its actions.
    by = TOP + grid_h + 14
    bw, bh = grid_w / 3, 40
    out.append('<g class="alu-actions" role="group" aria-label="actions">')
    for i, (kind, name) in enumerate(ACTION_BUTTONS):
        cost = derived["action_costs"][kind]
        bx, y0 = LEFT + (i % 3) * bw, by + (i // 3) * (bh + 6)
        out.append(f'<g data-key="do:{kind}" class="action-button action-{kind}" '
                   f'aria-label="{_attr(f"{name} ({cost})")}">'
                   f'<rect class="face" x="{bx + 2}" y="{y0}" width="{bw - 4}" height="{bh}" '
                   f'rx="6" fill="#eef1f4" stroke="#7d8a97"/>'
                   f'<text x="{bx + bw / 2}" y="{y0 + 16}" text-anchor="middle" font-size="13" '
                   f'font-weight="600" aria-hidden="true" {FONT}>{escape(name)}</text>'
                   f'<text x="{bx + bw / 2}" y="{y0 + 32}" text-anchor="middle" font-size="11" '
                   f'fill="#44546a" aria-hidden="true" {FONT}>{escape(cost)}</text>'
                   f'<rect class="hit" x="{bx + 2}" y="{y0}" width="{bw - 4}" height="{bh}" '
                   'rx="6" fill="#ffffff" fill-opacity="0"/></g>')
    out.append("</g>")

    # Legend: what the marks mean.
    legend = [
        "Stripes / : circle controls · stripes \\ : square controls · bar: raided",
        f"{derived['win_tiles']} controlled tiles win at once · pick a tile, then an action",
    ]
    for i, line in enumerate(legend):
        out.append(f'<text x="{LEFT}" y="{by + 2 * bh + 26 + 16 * i}" font-size="11" '
                   f'fill="#33404d" class="alu-legend" {FONT}>{escape(line)}</text>')

    # The panel: one resource counter per player, then the shared pieces and the turn.
    out.append(f'</svg><svg x="{map_w}" y="0" width="{width - map_w}" height="{height}" '
               f'viewBox="{map_w} 0 {width - map_w} {height}" class="alu-board" '
               'data-part="panel" role="group" aria-label="the players\' counters">')
    y = TOP - 16
    for seat, name in enumerate(NAMES):
        player = view["players"][name]
        acting = current == seat
        marker = " — to act" if acting else ""
        out.append(f'<g class="alu-player alu-player-{name}{" acting" if acting else ""}" '
                   f'role="group" aria-label="{_attr(f"{name} (seat {seat}){marker}")}">')
        out.append(f'<rect x="{px - 8}" y="{y - 4}" width="{PANEL - 6}" height="186" rx="6" '
                   f'class="player-box" fill="{"#eef4fb" if acting else "#fafafa"}" '
                   f'stroke="{COLOURS[name] if acting else "#c9d3de"}" '
                   f'stroke-width="{2.5 if acting else 1}"/>')
        icon = (f'<circle cx="{px + 8}" cy="{y + 10}" r="8" fill="{COLOURS[name]}"/>'
                if name == "circle" else
                f'<rect x="{px}" y="{y + 2}" width="16" height="16" fill="{COLOURS[name]}"/>')
        out.append(icon)
        out.append(f'<text x="{px + 24}" y="{y + 15}" font-size="14" font-weight="700" {FONT}>'
                   f'{name.capitalize()} (seat {seat}){escape(marker)}</text>')
        cons, iron, food = player["construction"], player["iron"], player["food"]
        out.append(_counter(px, y + 26, "Construction",
                            [(cons["available"], "available", "available"),
                             (cons["spent"], "spent", "spent")]))
        out.append(_counter(px, y + 60, "Iron",
                            [(iron["available"], "available", "available"),
                             (iron["spent"], "spent", "spent")]))
        out.append(_counter(px, y + 94, "Food",
                            [(food["available"], "available", "available"),
                             (food["not_usable_yet"], "pending", "not usable yet"),
                             (food["spent"], "spent", "spent")]))
        in_hand = derived["camps_in_hand"][name]
        on_board = sum(1 for content in board.values() if content == name)
        count = derived["controlled_count"][name]
        out.append(f'<text x="{px}" y="{y + 144}" font-size="12" {FONT}>Camps: {in_hand} in hand'
                   f', {on_board} on the board</text>')
        out.append(f'<text x="{px}" y="{y + 162}" font-size="12" font-weight="600" {FONT} '
                   f'class="controlled-count">Controls {count} tile{"s" if count != 1 else ""}'
                   f'</text>')
        out.append("</g>")
        y += 196
    out.append(f'<text x="{px}" y="{y + 8}" font-size="12" {FONT} class="raiding-left">'
               f'Raiding pieces left (shared): {derived["raiding_pieces_left"]}</text>')
    if not over:
        pips = "".join(
            f'<circle cx="{px + 100 + i * 16}" cy="{y + 23}" r="6" '
            + ('class="pip left" fill="#2e7d32"/>' if i < view["actions_left"] else
               'class="pip used" fill="none" stroke="#9aa5b1" stroke-width="1.5"/>')
            for i in range(derived["actions_this_turn"]))
        left_text = f"{NAMES[current]} has {view['actions_left']} action(s) left this turn"
        out.append(f'<g class="actions-left" role="note" aria-label="{_attr(left_text)}">'
                   f'<text x="{px}" y="{y + 27}" font-size="12" {FONT}>Actions left: '
                   f'{view["actions_left"]}</text>{pips}</g>')
    out.append("</svg></svg>")
    return "".join(out)
