"""Adapters to other frameworks (OpenSpiel, PettingZoo): optional extras, outside the core.

The core imports none of them. `aloftnb.openspiel` and `aloftnb.pettingzoo` are the same modules
under their public names.
"""
