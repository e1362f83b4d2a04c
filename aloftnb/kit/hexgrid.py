"""Hex grids: axial coordinates, neighbours, distance, corners and edges, breadth-first search.

Hexes are pointy-topped, in axial coordinates (q, r): q grows to the east, r to the south-east
(flat-topped drawings use the same coordinates; see hexdraw). A hex is named "q,r".

Every corner is the top ("N") or bottom ("S") corner of exactly one hex, so a corner is named by
that hex and the letter: "0,-1,S" is the bottom corner of the hex at q=0, r=-1. A corner touches
up to three hexes, and three edges lead from it to its neighbouring corners; each edge is a side
of the two hexes on either side of it.

`hex_grid(radius)` numbers the hexes within `radius` steps of the centre (the centre first, then
ring after ring, each walked clockwise from its west end) and their corners, and builds the
tables a rules engine reads on its fast path; it is built once per radius and shared.

    >>> from aloftnb.kit import hexgrid
    >>> hexgrid.distance((0, 0), (2, -1))
    2
    >>> hexgrid.neighbours(0, 0)[:2]
    ((1, -1), (1, 0))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

Hex = tuple[int, int]
Corner = tuple[int, int, str]  # (q, r, "N"|"S")
Node = TypeVar("Node", bound=Hashable)

# Neighbouring hexes clockwise from the north-east.
DIRECTIONS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


# -- hexes -------------------------------------------------------------------------------------
def name(q: int, r: int) -> str:
    """A hex's name: "q,r"."""
    return f"{q},{r}"


def parse(text: str) -> Hex:
    """The (q, r) of a hex name "q,r"."""
    q, r = text.split(",")
    return int(q), int(r)


def neighbours(q: int, r: int) -> tuple[Hex, ...]:
    """The six neighbouring hexes, clockwise from the north-east (unbounded grid)."""
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Steps from hex a to hex b."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def within(h: Hex, radius: int) -> bool:
    """Whether hex h lies within `radius` steps of the centre 0,0."""
    q, r = h
    return max(abs(q), abs(r), abs(q + r)) <= radius


def spaces(radius: int) -> tuple[Hex, ...]:
    """The hexes within `radius` of the centre: the centre, then ring after ring outwards, each
    ring walked clockwise from its west end (-d, 0)."""
    out = [(0, 0)]
    for dist in range(1, radius + 1):
        q, r = -dist, 0
        for side in range(6):
            for _ in range(dist):
                out.append((q, r))
                dq, dr = DIRECTIONS[side]
                q, r = q + dq, r + dr
    return tuple(out)


# -- corners and edges -------------------------------------------------------------------------
def corner_name(q: int, r: int, d: str) -> str:
    """A corner's name: "q,r,N" or "q,r,S"."""
    return f"{q},{r},{d}"


def parse_corner(text: str) -> Corner:
    """The (q, r, "N"|"S") of a corner name."""
    q, r, d = text.split(",")
    return int(q), int(r), d


def hex_corners(q: int, r: int) -> tuple[Corner, ...]:
    """A hex's six corners, clockwise from the top."""
    return ((q, r, "N"), (q + 1, r - 1, "S"), (q, r + 1, "N"), (q, r, "S"), (q - 1, r + 1, "N"),
            (q, r - 1, "S"))


def corner_touches(q: int, r: int, d: str) -> tuple[Hex, ...]:
    """The three hexes a corner touches: its own hex, then the two across from it."""
    if d == "N":
        return (q, r), (q, r - 1), (q + 1, r - 1)
    return (q, r), (q, r + 1), (q - 1, r + 1)


def corner_links(q: int, r: int, d: str) -> tuple[tuple[Corner, tuple[Hex, Hex]], ...]:
    """The three edges from a corner: each neighbouring corner, with the two hexes on either
    side of the edge."""
    if d == "N":
        return (((q, r - 1, "S"), ((q, r), (q, r - 1))),
                ((q + 1, r - 1, "S"), ((q, r), (q + 1, r - 1))),
                ((q + 1, r - 2, "S"), ((q, r - 1), (q + 1, r - 1))))
    return (((q, r + 1, "N"), ((q, r), (q, r + 1))),
            ((q - 1, r + 1, "N"), ((q, r), (q - 1, r + 1))),
            ((q - 1, r + 2, "N"), ((q, r + 1), (q - 1, r + 1))))


# -- search ------------------------------------------------------------------------------------
def reachable(start: Node, passable: AbstractSet[Node] | Callable[[Node], bool],
              neighbours: Mapping[Node, Iterable[Node]] | Callable[[Node], Iterable[Node]],
              limit: int | None = None) -> dict[Node, int]:
    """Breadth-first search: steps from `start` to every node it reaches, stepping only onto
    passable nodes (the start itself need not be), at most `limit` steps if given.

    `passable` is the set of nodes that may be stepped on (the fast way) or a test of one node.
    Nodes are whatever `neighbours` (a mapping or a function) leads between: hex names on a
    `HexGrid` (its `neighbours` table), (q, r) pairs (the function `neighbours` above, with a
    bound such as `within` in the test), or space numbers. The dict lists the nodes in the order
    they were reached; ties go by the order `neighbours` lists them.
    """
    bound = -1 if limit is None else limit
    seen = {start: 0}
    queue = deque([start])
    if (isinstance(neighbours, dict) or isinstance(neighbours, Mapping)) and (
            isinstance(passable, frozenset | set) or isinstance(passable, AbstractSet)):
        # The fast path (a rules engine's): a neighbours table and a set, read inline.
        while queue:
            node = queue.popleft()
            steps = seen[node]
            if steps == bound:
                continue
            for nb in neighbours[node]:
                if nb not in seen and nb in passable:
                    seen[nb] = steps + 1
                    queue.append(nb)
        return seen
    step = neighbours.__getitem__ if isinstance(neighbours, Mapping) else neighbours
    test = passable.__contains__ if isinstance(passable, AbstractSet) else passable
    while queue:
        node = queue.popleft()
        steps = seen[node]
        if steps == bound:
            continue
        for nb in step(node):
            if nb not in seen and test(nb):
                seen[nb] = steps + 1
                queue.append(nb)
    return seen


# -- a numbered grid ---------------------------------------------------------------------------
@dataclass(frozen=True)
class HexGrid:
    """The hexes within `radius` of the centre and their corners, numbered, with the tables a
    rules engine reads: which corners touch which hexes, which edges join corners."""

    radius: int
    spaces: tuple[Hex, ...]  # space index -> (q, r); index 0 is the centre
    space_index: dict[str, int]  # "q,r" -> index
    corners: tuple[Corner, ...]  # corner index -> (q, r, "N"|"S")
    corner_index: dict[str, int]  # "q,r,N" -> index
    corner_spaces: tuple[tuple[int, ...], ...]  # corner -> the spaces (in the grid) it touches
    # corner -> ((neighbour corner, (space, space) on either side of that edge, -1 outside), ...)
    corner_edges: tuple[tuple[tuple[int, tuple[int, int]], ...], ...]
    space_corners: tuple[tuple[int, ...], ...]  # space -> its 6 corners, clockwise from the top
    space_neighbours: tuple[tuple[int, ...], ...]  # space -> neighbouring spaces in the grid
    names: tuple[str, ...]  # space index -> "q,r"
    neighbours: dict[str, tuple[str, ...]]  # "q,r" -> the names of its neighbours in the grid

    def space_name(self, space: int) -> str:
        return self.names[space]

    def corner_name(self, corner: int) -> str:
        return corner_name(*self.corners[corner])


@cache
def hex_grid(radius: int) -> HexGrid:
    """The numbered grid of the hexes within `radius` of the centre (built once per radius)."""
    cells = spaces(radius)
    names = tuple(name(q, r) for q, r in cells)
    space_index = {n: i for i, n in enumerate(names)}
    by_coords = {s: i for i, s in enumerate(cells)}
    corners: list[Corner] = []
    corner_at: dict[Corner, int] = {}
    for q, r in cells:
        for c in hex_corners(q, r):
            if c not in corner_at:
                corner_at[c] = len(corners)
                corners.append(c)
    corner_spaces = tuple(tuple(by_coords[s] for s in corner_touches(*c) if s in by_coords)
                          for c in corners)
    corner_edges = []
    for c in corners:
        links = []
        for other, (a, b) in corner_links(*c):
            if other in corner_at:
                pair = (by_coords.get(a, -1), by_coords.get(b, -1))
                if pair != (-1, -1):
                    links.append((corner_at[other], pair))
        corner_edges.append(tuple(links))
    space_corners = tuple(tuple(corner_at[c] for c in hex_corners(q, r)) for q, r in cells)
    space_neighbours = tuple(tuple(by_coords[n] for n in neighbours(q, r) if n in by_coords)
                             for q, r in cells)
    return HexGrid(radius, cells, space_index, tuple(corners),
                   {corner_name(*c): i for i, c in enumerate(corners)}, corner_spaces,
                   tuple(corner_edges), space_corners, space_neighbours, names,
                   {names[i]: tuple(names[j] for j in nbs)
                    for i, nbs in enumerate(space_neighbours)})


__all__ = ["DIRECTIONS", "Corner", "Hex", "HexGrid", "corner_links", "corner_name",
           "corner_touches", "distance", "hex_corners", "hex_grid", "name", "neighbours", "parse",
           "parse_corner", "reachable", "spaces", "within"]
