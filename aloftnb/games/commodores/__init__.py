"""Aloft, sky commodores: the options, protocol and turn structure (FLOW) in `rules.py`, one
module per phase (`setup.py`, `forage.py`, `ships.py`, exploring in `explore.py`), the goals,
refusals, texts and state checks in `goals.py`, `refusals.py`, `texts.py` and `checks.py`; the
catalogue in `catalogue.py` and `data/catalogue.json`, the state's dict form in `state.py`; the
sky's hex grid is `aloftnb.kit.hexgrid`'s."""

from .rules import CommodoresAction, CommodoresRules
from .state import CommodoresState

__all__ = ["CommodoresAction", "CommodoresRules", "CommodoresState"]
