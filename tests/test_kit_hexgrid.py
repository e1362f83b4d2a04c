"""The board-geometry kit (aloftnb/kit): hex grids and their drawing, as both hex games and a
designer's own game use them."""

from __future__ import annotations

import ast
import inspect
import math
import pathlib

import pytest

import aloftnb
from aloftnb.kit import hexdraw, hexgrid


# -- hexgrid -----------------------------------------------------------------------------------
def test_names_parse_back():
    assert hexgrid.name(2, -1) == "2,-1"
    assert hexgrid.parse("2,-1") == (2, -1)
    assert hexgrid.corner_name(0, -1, "S") == "0,-1,S"
    assert hexgrid.parse_corner("0,-1,S") == (0, -1, "S")


def test_six_neighbours_clockwise_from_the_north_east_each_one_step_away():
    around = hexgrid.neighbours(1, 2)
    assert around == ((2, 1), (2, 2), (1, 3), (0, 3), (0, 2), (1, 1))
    assert all(hexgrid.distance((1, 2), h) == 1 for h in around)
    # each neighbour's own neighbours lead back
    assert all((1, 2) in hexgrid.neighbours(*h) for h in around)


@pytest.mark.parametrize(("a", "b", "steps"), [((0, 0), (0, 0), 0), ((0, 0), (3, 0), 3),
                                               ((0, 0), (2, -1), 2), ((-2, 1), (1, 1), 3),
                                               ((0, -3), (0, 3), 6), ((3, -3), (-3, 3), 6)])
def test_distance(a, b, steps):
    assert hexgrid.distance(a, b) == hexgrid.distance(b, a) == steps


def test_spaces_within_a_radius_centre_first_then_rings():
    cells = hexgrid.spaces(2)
    assert len(cells) == 1 + 6 + 12 == len(set(cells))
    assert cells[0] == (0, 0)
    assert cells[1:7] == ((-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1))
    assert [hexgrid.distance((0, 0), h) for h in cells] == [0] + [1] * 6 + [2] * 12
    assert all(hexgrid.within(h, 2) for h in cells) and not hexgrid.within((3, -1), 2)


def test_corners_and_edges():
    corners = hexgrid.hex_corners(0, 0)
    assert corners == ((0, 0, "N"), (1, -1, "S"), (0, 1, "N"), (0, 0, "S"), (-1, 1, "N"),
                       (0, -1, "S"))
    # every corner of a hex touches it, and each corner touches three hexes
    for c in corners:
        touches = hexgrid.corner_touches(*c)
        assert (0, 0) in touches and len(set(touches)) == 3
    # the three edges from the top corner of 0,0: each to a bottom corner, between two hexes
    links = hexgrid.corner_links(0, 0, "N")
    assert [other for other, _ in links] == [(0, -1, "S"), (1, -1, "S"), (1, -2, "S")]
    for other, (a, b) in links:
        # both hexes beside an edge touch both of its ends
        assert {a, b} <= set(hexgrid.corner_touches(0, 0, "N")) & set(
            hexgrid.corner_touches(*other))


def test_hex_grid_numbers_spaces_and_corners():
    grid = hexgrid.hex_grid(3)
    assert hexgrid.hex_grid(3) is grid  # built once per radius
    assert len(grid.spaces) == 37 and grid.space_name(0) == "0,0"
    assert grid.names == tuple(hexgrid.name(*h) for h in hexgrid.spaces(3))
    assert grid.space_index["1,-1"] == grid.names.index("1,-1")
    assert len(grid.corners) == len(set(grid.corners)) == len(grid.corner_index)
    assert len(grid.corners) == len({c for h in grid.spaces for c in hexgrid.hex_corners(*h)})
    assert len(grid.space_corners[0]) == 6
    assert [grid.corner_name(c) for c in grid.space_corners[0]] == [
        hexgrid.corner_name(*c) for c in hexgrid.hex_corners(0, 0)]
    # the centre's neighbours are all in the grid; a rim hex has fewer
    assert grid.neighbours["0,0"] == tuple(hexgrid.name(*h) for h in hexgrid.neighbours(0, 0))
    assert len(grid.neighbours["3,0"]) == 3
    assert all(grid.space_neighbours[i] == tuple(grid.space_index[n] for n in grid.neighbours[name])
               for i, name in enumerate(grid.names))
    # every edge joins two corners that share the hexes on either side of it
    for c, edges in enumerate(grid.corner_edges):
        for other, (a, b) in edges:
            sides = {x for x in (a, b) if x >= 0}
            assert sides <= set(grid.corner_spaces[c]) & set(grid.corner_spaces[other])


def test_reachable_steps_only_onto_passable_hexes():
    grid = hexgrid.hex_grid(2)
    wall = {"1,-1", "1,0", "0,1"}  # three hexes east and south-east of the centre
    open_ground = frozenset(grid.names) - wall
    dist = hexgrid.reachable("0,0", open_ground, grid.neighbours)
    assert dist["0,0"] == 0 and not wall & set(dist)
    # 2,-1 is two steps away in the open; the wall sends the search round by the north:
    # 0,-1 then 1,-2 then 2,-2 then 2,-1
    assert hexgrid.distance((0, 0), (2, -1)) == 2 and dist["2,-1"] == 4
    assert list(dist.values()) == sorted(dist.values())  # breadth first
    # a test instead of a set, and (q, r) nodes with the unbounded neighbours function
    by_test = hexgrid.reachable((0, 0), lambda h: hexgrid.within(h, 2) and
                                hexgrid.name(*h) not in wall, lambda h: hexgrid.neighbours(*h))
    assert {hexgrid.name(*h): d for h, d in by_test.items()} == dist
    # at most `limit` steps; the start need not be passable
    near = hexgrid.reachable("1,0", open_ground, grid.neighbours, limit=1)
    assert list(near.items()) == [("1,0", 0), ("2,-1", 1), ("2,0", 1), ("1,1", 1), ("0,0", 1)]
    assert hexgrid.reachable("0,0", frozenset(), grid.neighbours) == {"0,0": 0}


# -- hexdraw -----------------------------------------------------------------------------------
def test_centres_in_pixels():
    assert hexdraw.centre(0, 0) == (0.0, 0.0)
    assert hexdraw.centre(1, 0) == (math.sqrt(3), 0.0)
    assert hexdraw.centre(0, 2, size=10) == pytest.approx((10 * math.sqrt(3), 30.0))
    assert hexdraw.centre(2, 0, orientation="flat") == pytest.approx((3.0, math.sqrt(3)))
    assert hexdraw.centre_of("-1,2") == hexdraw.centre(-1, 2)
    # neighbours' centres are sqrt(3) hex radii apart, in either orientation
    for orientation in ("pointy", "flat"):
        x0, y0 = hexdraw.centre(0, 0, orientation=orientation)
        for q, r in hexgrid.neighbours(0, 0):
            x, y = hexdraw.centre(q, r, orientation=orientation)
            assert math.hypot(x - x0, y - y0) == pytest.approx(math.sqrt(3))


def test_corner_points_lie_on_their_hexagons():
    assert hexdraw.corner_point_of("0,0,N") == (0.0, -1.0)
    assert hexdraw.corner_point(1, -1, "S", size=2) == pytest.approx((math.sqrt(3), -1.0))
    corners = hexdraw.hexagon_corners(0.0, 0.0, 1.0)
    for c, (x, y) in zip(hexgrid.hex_corners(0, 0), corners):
        assert hexdraw.corner_point(*c) == pytest.approx((x, y))


def test_hexagon_points_text():
    assert hexdraw.hexagon_points(0, 0, 10) == (
        "0.0,-10.0 8.7,-5.0 8.7,5.0 0.0,10.0 -8.7,5.0 -8.7,-5.0")
    assert hexdraw.hexagon_points(100, 50, 10, "flat") == (
        "110.0,50.0 105.0,58.7 95.0,58.7 90.0,50.0 95.0,41.3 105.0,41.3")


def test_fit_puts_the_map_in_the_middle_of_its_frame():
    points = [hexdraw.centre_of(n) for n in hexgrid.hex_grid(1).names]
    frame = hexdraw.fit(points, 300, 200, top=20)
    assert frame.at(*hexdraw.centre(0, 0)) == pytest.approx((150.0, 120.0))
    span_y = 3.0 + 2 * 1.05  # three rows of 1.5 radii, apart from the margins
    assert frame.size == pytest.approx(200 / span_y)
    assert hexdraw.fit(points, 300, 200, max_size=20).size == 20
    assert frame.hex("1,0") == frame.at(*hexdraw.centre(1, 0))


# -- the games use the kit ---------------------------------------------------------------------
def _imports(module: str) -> set[str]:
    package = pathlib.Path(inspect.getfile(aloftnb)).parent
    found = set()
    for path in (package / "games" / module).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add("." * node.level + node.module)
    return found


def test_both_hex_games_take_their_geometry_from_the_kit():
    cloudspire, commodores = _imports("cloudspire"), _imports("commodores")
    assert not {m for m in cloudspire if "commodores" in m}
    for imported in (cloudspire, commodores):
        assert "...kit.hexgrid" in imported  # the rules
        assert "...kit" in imported  # the drawing: from ...kit import hexdraw


def test_middle_is_the_centre_of_the_box_around_the_points():
    assert hexdraw.middle([(0.0, 0.0), (4.0, 2.0), (1.0, -2.0)]) == (2.0, 0.0)
    assert hexdraw.middle([(3.0, 5.0)]) == (3.0, 5.0)
    points = [hexdraw.centre_of(n) for n in hexgrid.hex_grid(2).names]
    frame = hexdraw.fit(points, 300, 200)
    assert (frame.mid_x, frame.mid_y) == hexdraw.middle(points)
