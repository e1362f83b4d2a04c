"""`aloftnb.openspiel`: the OpenSpiel adapter, kept at this name for every existing import.

The adapter lives in `aloftnb/adapters/openspiel.py`, outside the game-agnostic core;
importing either name gives the same module.
"""

import sys

from .adapters import openspiel as _adapter

sys.modules[__name__] = _adapter
