"""The package's layout, as CONTRIBUTING.md draws it: small modules, the core apart from the
games, the adapters, the widgets and the playtesting tools, and each game apart from the others."""

from __future__ import annotations

import ast
from pathlib import Path

import aloftnb

PACKAGE = Path(aloftnb.__file__).parent
MAX_LINES = 600


def _imports(path: Path) -> dict[str, str]:
    """{absolute name of an aloftnb module `path` imports: where} (relative imports resolved);
    where is "" at module level, "TYPE_CHECKING", or the function that imports it lazily."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    found: dict[str, str] = {}

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = "TYPE_CHECKING"
            if isinstance(child, ast.ImportFrom):
                base = parts[:len(parts) - child.level] if child.level else []
                module = ".".join(base + ([child.module] if child.module else []))
                for name in (module, *(f"{module}.{alias.name}" for alias in child.names)):
                    found.setdefault(name, where)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    found.setdefault(alias.name, where)
            visit(child, inner)

    visit(ast.parse(path.read_text("utf-8")), "")
    return {name: where for name, where in found.items() if name.startswith("aloftnb")}


def test_no_module_of_the_package_is_longer_than_a_newcomer_can_read():
    long = {str(path.relative_to(PACKAGE)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text("utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_core_and_the_kit_import_no_game_widget_adapter_or_playtesting_tool():
    """Not even lazily, with one exception: `Match.board()` opens the widget layer when a person
    asks for a board (type hints may name the widget's classes)."""
    outside = ("aloftnb.games", "aloftnb.widget", "aloftnb.adapters", "aloftnb.playtest",
               "aloftnb.jupyter", "aloftnb.openspiel", "aloftnb.pettingzoo")
    allowed = {("core/match.py", "board"), ("core/match.py", "TYPE_CHECKING")}
    found = {}
    for folder in ("core", "kit"):
        for path in (PACKAGE / folder).glob("*.py"):
            where_from = f"{folder}/{path.name}"
            bad = sorted(f"{name} ({where or 'module level'})"
                         for name, where in _imports(path).items()
                         if name.startswith(outside) and (where_from, where) not in allowed)
            if bad:
                found[where_from] = bad
    assert found == {}


def test_each_game_imports_no_other_game():
    games = [p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists()]
    assert len(games) == 4
    found = {}
    for game in games:
        for path in (PACKAGE / "games" / game).rglob("*.py"):
            others = sorted(name for name in _imports(path) for other in games
                            if other != game and name.startswith(f"aloftnb.games.{other}"))
            if others:
                found[str(path.relative_to(PACKAGE))] = others
    assert found == {}


def test_no_function_wears_the_same_decorator_twice():
    """Python 3.13 stopped chaining classmethod over classmethod: a doubled decorator that 3.11
    forgives breaks the JupyterLite site, whose Python is newer."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [ast.unparse(d) for d in node.decorator_list]
                if len(names) != len(set(names)):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert found == []
