"""Drawing hex grids: a hex's centre in pixels, a hexagon's corners and its SVG points, and a
map of hexes fitted into a frame (centred on the `middle` of its hexes).

Positions come in hex radii (the distance from a hex's centre to a corner) times `size`: with
the default size 1.0 they are the grid's own units, which `fit` then scales into a frame.
Pointy-topped hexes (the default, as both hex games draw) stand on a corner; flat-topped ones on
a side. The axial coordinates are hexgrid's.

    >>> from aloftnb.kit import hexdraw
    >>> x, y = hexdraw.centre(1, 0, size=40)
    >>> hexdraw.hexagon_points(x, y, 38.8)
    '69.3,-38.8 102.9,-19.4 102.9,19.4 69.3,38.8 35.7,19.4 35.7,-19.4'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .hexgrid import parse

Orientation = Literal["pointy", "flat"]
SQRT3 = math.sqrt(3)
# The first corner's angle in degrees (clockwise from east, y down): the top for pointy hexes,
# the east for flat ones; each next corner is 60 degrees on.
_FIRST_CORNER = {"pointy": -90, "flat": 0}


def centre(q: int, r: int, size: float = 1.0, orientation: Orientation = "pointy"
           ) -> tuple[float, float]:
    """The centre of hex (q, r) in pixels, for hexes of radius `size` around the origin."""
    if orientation == "pointy":
        x, y = SQRT3 * (q + r / 2), 1.5 * r
    else:
        x, y = 1.5 * q, SQRT3 * (r + q / 2)
    return x * size, y * size


def centre_of(name: str, size: float = 1.0, orientation: Orientation = "pointy"
              ) -> tuple[float, float]:
    """The centre of the hex named "q,r"."""
    return centre(*parse(name), size=size, orientation=orientation)


def corner_point(q: int, r: int, d: str, size: float = 1.0) -> tuple[float, float]:
    """The position of the named corner (q, r, "N"|"S") of a pointy-topped grid (hexgrid's
    corner names): the top or bottom corner of hex (q, r)."""
    x, y = centre(q, r)
    return x * size, (y + (-1 if d == "N" else 1)) * size


def corner_point_of(name: str, size: float = 1.0) -> tuple[float, float]:
    """The position of the corner named "q,r,N" or "q,r,S"."""
    q, r, d = name.split(",")
    return corner_point(int(q), int(r), d, size)


def hexagon_corners(cx: float, cy: float, radius: float, orientation: Orientation = "pointy"
                    ) -> list[tuple[float, float]]:
    """The six corners of a hexagon centred on (cx, cy), clockwise from the top (pointy) or the
    east (flat)."""
    first = _FIRST_CORNER[orientation]
    return [(cx + radius * math.cos(math.radians(60 * i + first)),
             cy + radius * math.sin(math.radians(60 * i + first))) for i in range(6)]


def hexagon_points(cx: float, cy: float, radius: float, orientation: Orientation = "pointy"
                   ) -> str:
    """A hexagon's corners as an SVG polygon's `points` text, to a tenth of a pixel."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in hexagon_corners(cx, cy, radius, orientation))


@dataclass(frozen=True)
class Fit:
    """Grid positions scaled into a frame: `size` pixels a hex radius, centred on the middle of
    the points it was fitted to."""

    size: float
    mid_x: float
    mid_y: float
    left: float
    top: float
    width: float
    height: float

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Pixels in the frame of a grid position (as `centre` gives with size 1.0)."""
        return (self.left + self.width / 2 + (x - self.mid_x) * self.size,
                self.top + self.height / 2 + (y - self.mid_y) * self.size)

    def hex(self, name: str) -> tuple[float, float]:
        """Pixels in the frame of the centre of the hex named "q,r" (pointy-topped)."""
        return self.at(*centre_of(name))


def fit(points: Sequence[tuple[float, float]] | Iterable[tuple[float, float]], width: float,
        height: float, *, left: float = 0, top: float = 0, max_size: float = math.inf,
        margin: tuple[float, float] = (0.9, 1.05)) -> Fit:
    """Fit hex centres (in grid units, as `centre` gives with size 1.0) into the frame `width` x
    `height` whose top-left is (left, top): the largest hex size, at most `max_size`, at which
    every point and `margin` grid units around it (a pointy hex's half width and half height,
    a little over) fit. There must be at least one point."""
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    span_x, span_y = max(xs) - min(xs) + 2 * margin[0], max(ys) - min(ys) + 2 * margin[1]
    size = min(width / span_x, height / span_y, max_size)
    return Fit(size, *middle(pts), left, top, width, height)


def middle(points: Sequence[tuple[float, float]] | Iterable[tuple[float, float]]
           ) -> tuple[float, float]:
    """The middle of the box around `points` (at least one): where a drawing centres them, as
    a zoomed map opens centred on where the play is."""
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2


__all__ = ["SQRT3", "Fit", "Orientation", "centre", "centre_of", "corner_point",
           "corner_point_of", "fit", "hexagon_corners", "hexagon_points", "middle"]
