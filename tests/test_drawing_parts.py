"""The hex maps and ALU's grid are drawn in two parts, a map and a panel (see
aloftnb/widget/board.js): shown alone, the drawing is the whole picture with the parts side by
side; on a board, the map scales to its frame and the panel goes beside or below it. A zoomed
map opens on its `data-focus`."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import aloftnb

SVG = "{http://www.w3.org/2000/svg}"


def mid_game(game: str, seed: int, moves: int) -> aloftnb.Match:
    players = {"commodores": 3}.get(game, 2)
    match = aloftnb.new_match(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.play(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize(("game", "zoom"), [
    ("commodores", 1.0), ("commodores", 2.0), ("cloudspire", 1.0), ("cloudspire", 2.0),
    ("alu", 1.0)])
def test_the_drawing_is_a_map_and_a_panel_side_by_side(game, zoom):
    zoomable = game != "alu"
    for seed, moves in ((1, 0), (2, 40), (3, 150)):
        match = mid_game(game, seed, moves)
        for seat in (None, 0, 1):
            root = ET.fromstring(match.rules.render_svg(match.view(seat), zoom=zoom))
            assert root.get("data-parts") is not None
            parts = list(root)
            assert [p.tag for p in parts] == [f"{SVG}svg", f"{SVG}svg"]
            assert [p.get("data-part") for p in parts] == ["map", "panel"]
            width, height = float(root.get("width")), float(root.get("height"))
            assert root.get("viewBox") == f"0 0 {width:g} {height:g}"
            map_part, panel = parts
            map_w = float(map_part.get("width"))
            assert float(map_part.get("x")) == 0
            assert map_part.get("data-zoom") == (f"{zoom:g}" if zoomable else None)
            assert map_part.get("viewBox") == f"0 0 {map_w:g} {float(map_part.get('height')):g}"
            # The panel right of the map, inside the whole picture, nothing clickable in it.
            assert map_w <= float(panel.get("x"))
            assert float(panel.get("x")) + float(panel.get("width")) == width
            assert max(float(map_part.get("height")), float(panel.get("height"))) == height
            assert not any(el.get("data-key") for el in panel.iter())
            # Its text stays inside the panel's box (its viewBox starts at the panel's x).
            x0, _, w, h = (float(v) for v in panel.get("viewBox").split())
            for text in panel.iter(f"{SVG}text"):
                assert x0 <= float(text.get("x")) < x0 + w and 0 < float(text.get("y")) <= h, (
                    text.text)
            if not zoomable:
                continue
            # A zoomed map opens centred on a point inside it.
            fx, fy = (float(v) for v in map_part.get("data-focus").split())
            assert 0 <= fx <= map_w and 0 <= fy <= float(map_part.get("height"))


def test_a_commodores_map_is_focused_on_the_acting_ship():
    match = mid_game("commodores", 11, 0)
    while match.phase == "setup":
        match.play(match.legal_actions()[0])
    match.play(match.legal_actions()[0])  # forage
    match.play({"type": "ship", "captain": 1})
    for zoom in (1.0, 2.0, 3.0):
        svg = match.rules.render_svg(match.view(None), zoom=zoom)
        focus = [float(v) for v in re.search(r'data-focus="([^"]+)"', svg)[1].split()]
        ship = re.search(r'data-key="ship:0:1".*?class="hit painted" cx="([\d.]+)" '
                         r'cy="([\d.]+)"', svg)
        assert ship and focus == pytest.approx([float(ship[1]), float(ship[2])], abs=0.2)


def test_a_cloudspire_map_is_focused_on_the_spire_firing():
    for seed in range(6):
        match = mid_game("cloudspire", seed, 0)
        rng = random.Random(seed)
        for _ in range(3000):
            if match.is_over or match.state.firing:
                break
            match.play(rng.choice(match.legal_actions()))
        if not match.state.firing:
            continue
        view = match.view(None)
        firing = view["board"]["firing"]
        svg = match.rules.render_svg(view, zoom=2.0)
        focus = [float(v) for v in re.search(r'data-focus="([^"]+)"', svg)[1].split()]
        hexes = dict(re.findall(r'data-key="hex:([^"]+)"[^>]*><polygon class="hit painted" '
                                r'points="([^"]+)"', svg))
        target = (view["board"]["fire"] or {}).get("target") or firing
        corners = [[float(v) for v in p.split(",")] for name in {firing, target}
                   for p in hexes[name].split()]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        assert min(xs) <= focus[0] <= max(xs) and min(ys) <= focus[1] <= max(ys)
        return
    pytest.fail("no random game reached a spire firing")
