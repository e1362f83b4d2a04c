"""aloftnb: tabletop games inside JupyterLab.

    >>> import aloftnb
    >>> match = aloftnb.new_match("balloons", players=3, seed=1)
    >>> match.play(match.legal_actions()[0])
"""

from .core import compiled

compiled.choose()  # before anything else: the compiled engines, or their source if it changed

from . import games  # a callable package: aloftnb.games() lists the games (see games/__init__)
from .core.action import Action
from .core.bots import Bot, default_bot, make_bot, register_bot_family
from .core.chance import CHANCE
from .core.hooks import GameHooks
from .core.match import HistoryEntry, Match, new_match
from .core.registry import make_rules, register
from .core.rules import Rules
from .core.traits import Outcome, Traits
from .errors import (
    AloftnbError,
    IllegalAction,
    InvalidGame,
    InvalidOptions,
    InvalidRestriction,
    InvalidSave,
    InvalidState,
    UnknownGame,
)

__version__ = "0.1.0"

# The OpenSpiel adapter's bots ("openspiel-mcts:1000"), loaded only when such a spec is asked for.
register_bot_family("openspiel-", "aloftnb.adapters.openspiel:bot_from_spec")

__all__ = [
    "Action", "AloftnbError", "Board", "CHANCE", "GameHooks", "HistoryEntry", "IllegalAction",
    "InvalidGame", "InvalidOptions", "InvalidRestriction", "InvalidSave", "InvalidState", "Match",
    "Outcome", "Rules", "Traits", "UnknownGame", "games", "make_rules", "new_match", "register",
    # playtesting (aloftnb.playtest, imported on first use: it loads pandas and bokeh)
    "Bot", "compare", "default_bot", "design_metrics", "make_bot", "playtest",
    "register_bot_family",
    "restricted_play", "results_match", "simulate",
    "win_rates",
    # the balance lab (aloftnb.playtest.tuning; needs optuna)
    "objectives", "tune",
]

_PLAYTEST = {"compare", "design_metrics", "objectives", "restricted_play", "results_match",
              "simulate", "tune",
             "win_rates"}


def __getattr__(name):
    # The board pulls in anywidget; import it only when asked for.
    if name == "Board":
        from .widget import Board

        return Board
    if name == "playtest" or name in _PLAYTEST:
        from importlib import import_module  # `from . import` would re-enter this hook

        playtest = import_module(".playtest", __name__)
        return playtest if name == "playtest" else getattr(playtest, name)
    raise AttributeError(f"module 'aloftnb' has no attribute {name!r}")
