"""Aloft, sky commodores: rules in `rules.py`, the catalogue in `catalogue.py` and
`data/catalogue.json`, the state's dict form in `state.py`; the sky's hex grid is
`aloftnb.kit.hexgrid`'s."""

from .rules import CommodoresAction, CommodoresRules
from .state import CommodoresState

__all__ = ["CommodoresAction", "CommodoresRules", "CommodoresState"]
