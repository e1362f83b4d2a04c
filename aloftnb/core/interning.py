"""One action object for each set of fields (`interned`): games whose legal actions build many
keep a cache and ask here. Apart from core/action.py (which the compiled build leaves out) so
it is compiled: the games' engines ask at nearly every step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

T = TypeVar("T")
INTERNED_LIMIT: Final = 100_000  # cached actions kept before the cache starts again


def interned(cache: dict[tuple[Any, ...], T], make: Callable[..., T], action_type: str,
             params: dict[str, Any]) -> T:
    """The same action object every time for the same fields (actions are immutable): a game
    whose legal actions build many keeps one `cache` and asks here. The key is the type and the
    fields in the caller's order (`to_dict()` keeps that order), so a game may look up its
    commonest actions in `cache` directly under the same keys."""
    key = (action_type, *params.items())
    action = cache.get(key)
    if action is None:
        if len(cache) > INTERNED_LIMIT:
            cache.clear()
        action = cache[key] = make(action_type, **params)
    return action
