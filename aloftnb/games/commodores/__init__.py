"""Aloft, sky commodores: rules in `rules.py`, the catalogue in `catalogue.py` and
`data/catalogue.json`, the sky's geometry in `geometry.py`, the state's dict form in `state.py`."""

from .rules import CommodoresAction, CommodoresRules
from .state import CommodoresState

__all__ = ["CommodoresAction", "CommodoresRules", "CommodoresState"]
