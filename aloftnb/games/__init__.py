"""The games, one subpackage each. `aloftnb.games()` calls this package to list them.

Python binds a subpackage on its parent when it is first imported, so a function named `games` in
`aloftnb` would be replaced by this package as soon as any game loads. The package answers the call
instead, which keeps both `aloftnb.games()` and `import aloftnb.games.balloons.rules` working.
"""

import sys
from types import ModuleType


class _CallablePackage(ModuleType):
    def __call__(self):
        from ..core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallablePackage
