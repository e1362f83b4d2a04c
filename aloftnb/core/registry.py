"""Which games exist. Games are imported lazily so importing aloftnb stays cheap."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import UnknownGame
from .rules import Rules

_GAMES: dict[str, str] = {
    "balloons": "aloftnb.games.balloons.rules:BalloonsRules",
    "alu": "aloftnb.games.alu.rules:AluRules",
}
BUILT_IN_GAMES = dict(_GAMES)  # what a fresh process knows without any register() call


def register(name: str, target: str) -> None:
    """Register a game as "module:RulesClass" (for games that live outside this package)."""
    _GAMES[name] = target


def rules_class(game: str) -> type[Rules]:
    if not isinstance(game, str) or game not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game called {game!r} (known games: {known})")
    module, _, attr = _GAMES[game].partition(":")
    return getattr(import_module(module), attr)


def make_rules(game: str, players: int, **options: Any) -> Rules:
    return rules_class(game)(players, **options)


def games() -> list[dict[str, Any]]:
    """The playable games: name, title, player counts, and each option with its default."""
    return [rules_class(name).describe() for name in sorted(_GAMES)]
