"""Board kits: geometry a designer's game can build on instead of writing it again.

- `hexgrid`: hex grids in axial coordinates: names "q,r", the six directions, neighbours,
  distance, spaces within a radius, corners and edges, breadth-first search with a passable test,
  and a numbered grid of a given radius (`hex_grid`).
- `hexdraw`: their drawing: a hex's centre in pixels (pointy- or flat-topped), a hexagon's corner
  points and its SVG `points` text, and fitting a map of hexes into a frame.

Both hex games (sky commodores, Cloudspire) and their drawings use them; so may your own game.
Pure Python, no Jupyter imports.
"""

from __future__ import annotations

from . import hexdraw, hexgrid

__all__ = ["hexdraw", "hexgrid"]
