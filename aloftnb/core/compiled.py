"""The compiled build: whether mypyc's modules may run, the switch to pure Python, `python_class`.

`make compiled` (compiled/build.py) compiles the rules engines and the core's hot paths with mypyc
from this same source, beside the .py files, and records in aloftnb/_compiled.json the sha256 of
every source mypyc read. `aloftnb/__init__` calls `choose()` before it imports anything else:
while every one of those sources is unchanged the compiled modules run; when one was edited after
the build (a designer changing a rule), the pure Python runs instead, with a warning naming the
file, so a compiled module never runs in place of newer source. ALOFTNB_PURE=1 in the environment
asks for the pure Python anyway (the bench and the same-games test compare the two this way).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import FunctionType, MethodType, ModuleType
from typing import Any, TypeVar

PACKAGE = Path(__file__).resolve().parent.parent
MANIFEST = PACKAGE / "_compiled.json"
ROOT = PACKAGE.parent

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class StaleCompiledBuild(UserWarning):
    """A source was edited after the compiled build: the pure Python runs."""


def python_class(cls: T) -> T:
    """Keep `cls` a plain Python class in the compiled build (its methods are still compiled).
    mypyc makes a class with no decorator it knows a native class, whose instances refuse new
    attributes and whose subclasses must be compiled too; a class a notebook subclasses, or whose
    instances get a method replaced (the playtest runner's cached legal_actions), stays Python."""
    return cls


def is_compiled(function: Callable[..., Any]) -> bool:
    """Whether `function` runs compiled (a native function, not a Python one): for the few
    places that pick, per build, the faster of two ways to do the same thing."""
    return not isinstance(function, FunctionType)


def method(function: F) -> F:
    """A module's function as a method: `groups = method(map_rules.groups)` in a class body
    makes `rules.groups(slots)` call `map_rules.groups(rules, slots)`. A plain assignment does
    that for a Python function only (returned as it is): a compiled function does not bind
    `self`, so it is wrapped in a descriptor that does."""
    if not is_compiled(function):
        return function
    return _Method(function)  # type: ignore[return-value]


class _Method:
    __slots__ = ("function",)

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        return self.function if instance is None else MethodType(self.function, instance)


_status = "pure: no compiled build (make compiled builds one)"


def status() -> str:
    """"compiled" when the compiled modules run, else "pure: <why>"."""
    return _status


def compiled_modules() -> list[str]:
    """The modules of the compiled build, by name (empty when there is none)."""
    try:
        manifest = json.loads(MANIFEST.read_text("utf-8"))
    except (OSError, ValueError):
        return []
    return _module_names(manifest)


def _module_names(manifest: dict[str, Any]) -> list[str]:
    """The manifest's compiled sources (aloftnb/x/y.py) as module names (aloftnb.x.y)."""
    return [path[:-3].replace("/", ".") for path in manifest.get("modules", [])]


def _edited(sources: dict[str, str]) -> str | None:
    """The first source whose content is not what the build read, or None."""
    for path, digest in sources.items():
        try:
            now = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
        except OSError:
            return path
        if now != digest:
            return path
    return None


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the .py source of every aloftnb module but those in `compiled`, ahead of any
    compiled module beside it."""

    def __init__(self, compiled: frozenset[str] = frozenset()) -> None:
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("aloftnb.") or fullname in self.compiled:
            return None
        source = ROOT / (fullname.replace(".", "/") + ".py")
        if not source.is_file():  # a package, or not ours: the usual finders
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> None:
    """Use the compiled modules if they may run, else make every import load the source (also
    with no manifest: a build under way or one that failed may have left compiled modules)."""
    global _status
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _PureFinder)]  # a re-choice
    try:
        manifest = json.loads(MANIFEST.read_text("utf-8"))
    except FileNotFoundError:
        manifest, why = None, "no compiled build (make compiled builds one)"
    except (OSError, ValueError) as exc:
        manifest, why = None, f"unreadable {MANIFEST.name} ({exc})"
    if manifest is None:
        pass
    elif os.environ.get("ALOFTNB_PURE", "") not in ("", "0"):
        why = "ALOFTNB_PURE is set"
    elif manifest.get("python") != sys.implementation.cache_tag:
        why = f"built for {manifest.get('python')}, not {sys.implementation.cache_tag}"
    elif (edited := _edited(manifest.get("sources", {}))) is not None:
        why = f"{edited} changed after the compiled build"
        warnings.warn(f"aloftnb: {why}, so the pure Python runs (make compiled rebuilds it)",
                      StaleCompiledBuild, stacklevel=3)
    else:
        _status = "compiled"
        # Only the modules this build compiled: a compiled file left beside a source by an
        # earlier build (a module since taken out of the build) would not import with this one.
        sys.meta_path.insert(0, _PureFinder(frozenset(_module_names(manifest))))
        return
    _status = f"pure: {why}"
    sys.meta_path.insert(0, _PureFinder())
