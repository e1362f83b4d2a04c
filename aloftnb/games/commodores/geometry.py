"""The sky's geometry: hex spaces, their corners, and the edges ships fly along.

Hexes are pointy-topped, in axial coordinates (q, r): q grows to the east, r to the south-east.
Every corner is the top ("N") or bottom ("S") corner of exactly one hex, so a corner is named by
that hex and the letter: "0,-1,S" is the bottom corner of the hex at q=0, r=-1. A corner touches
up to three hexes, and three edges lead from it to its neighbouring corners; each edge is a side
of the two hexes on either side of it.

The sky is bounded (RULING: the table has an edge): spaces lie within `radius` steps of the
centre. All the tables are built once per radius and shared; spaces and corners are numbered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

# Neighbouring spaces clockwise from the north-east (where the set-up ring starts).
DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def space_name(q: int, r: int) -> str:
    return f"{q},{r}"


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


@dataclass(frozen=True)
class Geometry:
    radius: int
    spaces: tuple[tuple[int, int], ...]  # space index -> (q, r); index 0 is the centre
    space_index: dict[str, int]  # "q,r" -> index
    corners: tuple[tuple[int, int, str], ...]  # corner index -> (q, r, "N"|"S")
    corner_index: dict[str, int]  # "q,r,N" -> index
    corner_spaces: tuple[tuple[int, ...], ...]  # corner -> the spaces (in the sky) it touches
    # corner -> ((neighbour corner, (space, space) on either side of that edge, -1 outside), ...)
    corner_edges: tuple[tuple[tuple[int, tuple[int, int]], ...], ...]
    space_corners: tuple[tuple[int, ...], ...]  # space -> its 6 corners, clockwise from the top
    space_neighbours: tuple[tuple[int, ...], ...]  # space -> neighbouring spaces in the sky

    def space_name(self, space: int) -> str:
        return space_name(*self.spaces[space])

    def corner_name(self, corner: int) -> str:
        q, r, d = self.corners[corner]
        return f"{q},{r},{d}"

    def centre_xy(self, space: int) -> tuple[float, float]:
        """The centre of a space, in hex radii (the drawing scales it)."""
        q, r = self.spaces[space]
        return math.sqrt(3) * (q + r / 2), 1.5 * r

    def corner_xy(self, corner: int) -> tuple[float, float]:
        q, r, d = self.corners[corner]
        return math.sqrt(3) * (q + r / 2), 1.5 * r + (-1 if d == "N" else 1)


def _corner_touches(q: int, r: int, d: str) -> tuple[tuple[int, int], ...]:
    if d == "N":
        return (q, r), (q, r - 1), (q + 1, r - 1)
    return (q, r), (q, r + 1), (q - 1, r + 1)


def _corner_links(q: int, r: int, d: str) -> tuple[tuple[tuple[int, int, str],
                                                         tuple[tuple[int, int], tuple[int, int]]],
                                                   ...]:
    """The three neighbouring corners, each with the two hexes on either side of the edge."""
    if d == "N":
        return (((q, r - 1, "S"), ((q, r), (q, r - 1))),
                ((q + 1, r - 1, "S"), ((q, r), (q + 1, r - 1))),
                ((q + 1, r - 2, "S"), ((q, r - 1), (q + 1, r - 1))))
    return (((q, r + 1, "N"), ((q, r), (q, r + 1))),
            ((q - 1, r + 1, "N"), ((q, r), (q - 1, r + 1))),
            ((q - 1, r + 2, "N"), ((q, r + 1), (q - 1, r + 1))))


def _hex_corners(q: int, r: int) -> tuple[tuple[int, int, str], ...]:
    return ((q, r, "N"), (q + 1, r - 1, "S"), (q, r + 1, "N"), (q, r, "S"), (q - 1, r + 1, "N"),
            (q, r - 1, "S"))


@cache
def geometry(radius: int) -> Geometry:
    spaces = [(0, 0)]
    for dist in range(1, radius + 1):  # rings outwards, so the numbering reads naturally
        q, r = -dist, 0  # from the ring's west end, walk it clockwise
        for side in range(6):
            for _ in range(dist):
                spaces.append((q, r))
                dq, dr = DIRECTIONS[side]
                q, r = q + dq, r + dr
    space_index = {space_name(q, r): i for i, (q, r) in enumerate(spaces)}
    by_coords = {s: i for i, s in enumerate(spaces)}
    corners: list[tuple[int, int, str]] = []
    corner_at: dict[tuple[int, int, str], int] = {}
    for q, r in spaces:
        for c in _hex_corners(q, r):
            if c not in corner_at:
                corner_at[c] = len(corners)
                corners.append(c)
    corner_spaces = tuple(tuple(by_coords[s] for s in _corner_touches(*c) if s in by_coords)
                          for c in corners)
    corner_edges = []
    for c in corners:
        links = []
        for other, (a, b) in _corner_links(*c):
            if other in corner_at:
                pair = (by_coords.get(a, -1), by_coords.get(b, -1))
                if pair != (-1, -1):
                    links.append((corner_at[other], pair))
        corner_edges.append(tuple(links))
    space_corners = tuple(tuple(corner_at[c] for c in _hex_corners(q, r)) for q, r in spaces)
    space_neighbours = tuple(
        tuple(by_coords[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in by_coords)
        for q, r in spaces)
    return Geometry(radius, tuple(spaces), space_index, tuple(corners),
                    {f"{q},{r},{d}": i for i, (q, r, d) in enumerate(corners)}, corner_spaces,
                    tuple(corner_edges), space_corners, space_neighbours)
