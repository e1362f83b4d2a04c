"""Aloft, balloon festival: rules in `rules.py`, card data in `data/`, drawing in `drawing.py`."""

from .rules import BalloonAction, BalloonsRules, BalloonsState

__all__ = ["BalloonAction", "BalloonsRules", "BalloonsState"]
