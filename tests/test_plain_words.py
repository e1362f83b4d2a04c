"""Texts a person reads say what they mean: none points at the project's tracker ("issue 19",
"task 4", "#21"), which a reader of the game list, an error, a board, the docs or a notebook
cannot open. Say what changed and when instead ("the rulings as they were before the rules audit
of November 2026, when ...").

Walked: every game's entry in `aloftnb.games()` (titles, summaries, option descriptions and
notes), its turn structure (`flow.describe()`), its playtest measures and suggested restrictions;
every string in the package's source (error messages, board and log texts, docstrings `help()`
shows), the games' shipped data; the boards of short seeded games (header, log, choices, hints,
drawing); README.md, CONTRIBUTING.md and docs/**/*.md; and every markdown cell and output of the
notebooks (read as JSON, never run). Comments in code are for developers and are not walked.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import aloftnb
from aloftnb import InvalidOptions
from aloftnb.core.registry import BUILT_IN_GAMES, hooks_of, make_rules, rules_class

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "aloftnb"

# A tracker reference: "issue 19", "Issues #19 and 21", "task 4", "ticket #7", "stop #3". A bare
# "stop 3" is ordinary English ("the wind may stop 3 balloons") and is not flagged.
TRACKER = re.compile(r"\b(?:issues?|tasks?|tickets?)\s*#?\s*\d+|\bstops?\s*#\s*\d+", re.I)
# In prose (markdown) a bare "#19" is a tracker number too; drawings hold colours (#333), so
# this one is looked for only there.
BARE_NUMBER = re.compile(r"(?<![\w&#])#\d{1,5}\b(?![\w-])")


def tracker_references(text: str, prose: bool = False) -> list[str]:
    found = [m.group(0) for m in TRACKER.finditer(text)]
    if prose:
        found += [m.group(0) for m in BARE_NUMBER.finditer(text)]
    return found


def test_the_pattern_finds_tracker_references_and_leaves_ordinary_words_alone():
    for flagged in ("the rulings before issue 19", "(Issues #19 and 21)", "see task 4",
                    "ticket #7", "stop #3", "after issue\n19", "issue 19's rulings"):
        assert tracker_references(flagged), flagged
    assert tracker_references("fixed in #21", prose=True)
    for plain in ("the wind may stop 3 balloons", "the game stops after 40 rounds",
                  "the rules audit of November 2026", "colour #333 and #1c2833",
                  "tasks a designer repeats", "no issue with 3 players", "## 3 players",
                  "ruling 29", "item 3 of the list"):
        assert not tracker_references(plain, prose=not plain.startswith("colour")), plain


# -- where the texts are -------------------------------------------------------------------------
def game_list_texts() -> Iterator[tuple[str, str]]:
    for entry in aloftnb.games():
        yield f"aloftnb.games() {entry['name']}", json.dumps(entry, ensure_ascii=False)
    for game in BUILT_IN_GAMES:
        cls = rules_class(game)
        if getattr(cls, "flow", None) is not None:
            yield f"{game} flow.describe()", json.dumps(cls.flow.describe(), ensure_ascii=False)
        rules = make_rules(game, default_players(game))
        hooks = hooks_of(rules)
        yield f"{game} hooks", json.dumps({"measures": dict(hooks.MEASURES),
                                           "restrictions": list(hooks.restrictions(rules))},
                                          ensure_ascii=False)


def default_players(game: str) -> int:
    """A player count the game plays with its default options (3 when it can)."""
    counts = rules_class(game).traits.player_counts
    for players in (3, *counts):
        if players in counts:
            try:
                make_rules(game, players)
            except InvalidOptions:
                continue
            return players
    raise AssertionError(f"{game} plays no player count with its default options")


def source_strings() -> Iterator[tuple[str, str]]:
    """Every string constant in the package (f-strings' literal parts included)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield f"{path.relative_to(REPO)}:{node.lineno}", node.value
    for path in sorted(PACKAGE.rglob("*.json")) + sorted(PACKAGE.rglob("*.js")):
        yield str(path.relative_to(REPO)), path.read_text("utf-8")


def board_texts() -> Iterator[tuple[str, str]]:
    """What the boards of short seeded games show: header, log, choices, hints and drawing."""
    for game in BUILT_IN_GAMES:
        match = aloftnb.new_match(game, players=default_players(game), seed=2)
        board = match.board(viewer="designer")
        rng = random.Random(2)
        for step in range(40):
            if match.is_over:
                break
            texts = [board.status, board.svg, json.dumps(board.choices), json.dumps(board.log),
                     json.dumps(board.hints())]
            yield f"{game} board at step {step}", "\n".join(texts)
            match.play(rng.choice(match.legal_actions()))


def markdown_files() -> list[Path]:
    return [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]


def notebooks() -> list[Path]:
    return sorted((REPO / "notebooks").glob("*.ipynb")) + sorted(
        (REPO / "lite" / "content").glob("*.ipynb"))


def notebook_texts(path: Path) -> Iterator[tuple[str, str, bool]]:
    """(where, text, is prose) for each markdown cell and each output of a notebook."""
    cells = json.loads(path.read_text("utf-8"))["cells"]
    for index, cell in enumerate(cells):
        where = f"{path.relative_to(REPO)} cell {index}"
        if cell["cell_type"] == "markdown":
            yield f"{where} (markdown)", "".join(cell["source"]), True
        for output in cell.get("outputs", []):
            if "text" in output:
                yield f"{where} (output)", "".join(output["text"]), False
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/") or mime.endswith("json"):
                    text = "".join(value) if isinstance(value, list) else (
                        value if isinstance(value, str) else json.dumps(value))
                    yield f"{where} (output {mime})", text, False


def found_in(texts) -> list[str]:
    return [f"{where}: {', '.join(refs)}" for where, text, *prose in texts
            if (refs := tracker_references(text, prose=bool(prose and prose[0])))]


# -- the checks ----------------------------------------------------------------------------------
def test_the_game_list_names_no_tracker_number():
    assert found_in(game_list_texts()) == []


def test_no_string_in_the_package_names_a_tracker_number():
    """Error messages, option descriptions, board and log texts, docstrings, shipped data."""
    assert found_in(source_strings()) == []


def test_the_boards_name_no_tracker_number():
    assert found_in(board_texts()) == []


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_the_docs_name_no_tracker_number(path):
    assert found_in([(str(path.relative_to(REPO)), path.read_text("utf-8"), True)]) == []


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: str(p.relative_to(REPO)))
def test_the_notebooks_name_no_tracker_number_in_their_words_or_outputs(path):
    assert found_in(notebook_texts(path)) == []
