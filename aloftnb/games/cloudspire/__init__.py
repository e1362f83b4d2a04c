"""Cloudspire: rules in `rules.py`, the catalogue in `catalogue.py` and `data/catalogue.json`,
the state records in `state.py`, actions (declared once) in `actions.py`, observations in
`encoding.py`, playtest hooks in `metrics.py`, a plain drawing in `drawing.py`
(docs/rules/cloudspire.md)."""

from .rules import CloudspireAction, CloudspireRules
from .state import CloudspireState

__all__ = ["CloudspireAction", "CloudspireRules", "CloudspireState"]
