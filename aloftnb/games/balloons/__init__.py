"""Aloft, balloon festival: rules in `rules.py` (which names the module of each part), card data
in `data/`, drawing in `drawing.py`."""

from .rules import BalloonAction, BalloonsRules, BalloonsState

__all__ = ["BalloonAction", "BalloonsRules", "BalloonsState"]
