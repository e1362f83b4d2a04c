"""ALU: Loki's island: rules in `rules.py`, drawing in `drawing.py`, a simple bot in `bots.py`."""

from .rules import AluAction, AluRules, AluState

__all__ = ["AluAction", "AluRules", "AluState"]
