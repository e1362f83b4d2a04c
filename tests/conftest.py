"""Shared fixtures: build balloons positions from a short description, and play games out."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

import aloftnb

BROWSER_TESTS = Path(__file__).parent / "browser"


def _is_browser_test(item) -> bool:
    return BROWSER_TESTS in Path(str(item.fspath)).parents


# The longest tests start first, one on each of pytest-xdist's processes (it hands out the first
# tests in turn), so that no long one is left to run alone at the end.
FIRST = ("test_newcomer_environments.py", "test_evidence_replays.py")


def pytest_collection_modifyitems(config, items):
    """The longest tests first; browser tests after every other test of a process (see
    _no_leftover_event_loop)."""
    def order(item) -> int:
        name = Path(str(item.fspath)).name
        return FIRST.index(name) if name in FIRST else len(FIRST) + _is_browser_test(item)

    items.sort(key=order)


@pytest.fixture(autouse=True)
def _no_leftover_event_loop(request):
    """Playwright's sync API leaves its event loop set as the main thread's running loop for the
    rest of the session, and a board that finds a running loop thinks off it as it would in a
    kernel: a test of the no-kernel path that ran after a browser test would see the kernel path
    instead. Under pytest-xdist a process may get a browser test before others, so every other
    test runs with no running loop, and Playwright's is put back after it."""
    if _is_browser_test(request.node):
        yield
        return
    leftover = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(leftover)


def _place(match, *, flying=None, riding=None, **changes):
    """Install a balloons position on `match` (an edit, so it is undoable) and return the match.

    flying: {balloon: (column, altitude)}; riding: {balloon: (truck index, "unpacked"|"inflated")}.
    Every other balloon is packed, kept in the row in the order the match dealt it. Other keyword
    arguments replace top-level keys of the state dict (trucks, safety, step, current_player...).
    """
    rules = match.rules
    dealt_row = rules.state_to_dict(rules.initial_state(match.seed))["row"]
    data = match.state.to_dict()
    for derived in rules.derived_keys:
        data.pop(derived, None)
    balloons = {bid: {"status": "packed"} for bid in rules.ids}
    for bid, (column, altitude) in (flying or {}).items():
        balloons[bid] = {"status": "flying", "column": column, "altitude": altitude}
    for bid, (truck, status) in (riding or {}).items():
        balloons[bid] = {"status": status, "truck": truck}
    data["balloons"] = balloons
    data["row"] = [bid for bid in dealt_row if balloons[bid]["status"] == "packed"]
    data.update(changes)
    match.set_state(data)
    return match


@pytest.fixture
def place():
    return _place


def _play_out(match, rng, limit=10_000):
    """Play random legal actions until the game ends; returns the number of actions played."""
    played = 0
    while not match.is_over:
        actions = match.legal_actions()
        assert actions, f"no legal action in a running game: {match.state.to_dict()}"
        match.play(rng.choice(actions))
        played += 1
        assert played < limit, "the game did not end"
    return played


@pytest.fixture
def play_out():
    return _play_out


@pytest.fixture
def finished_match():
    """A 3-player competitive game played to its end with random moves, seed 7."""
    match = aloftnb.new_match("balloons", players=3, seed=7)
    _play_out(match, random.Random(7))
    return match


def _is_plain_json(value) -> bool:
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(_is_plain_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain_json(v) for k, v in value.items())
    return False


@pytest.fixture
def assert_plain_json():
    def check(data):
        assert _is_plain_json(data), f"not plain JSON data: {data!r}"
        assert json.loads(json.dumps(data)) == data

    return check


def _deliver_as_front_end(board, content):
    """Deliver a message to a board as its front end would; returns what the board sent back."""
    sent = []
    original = board.send
    board.send = sent.append
    try:
        board._on_front_end_message(board, content, [])
    finally:
        board.send = original
    return sent


@pytest.fixture
def front_end():
    """`front_end(board, message)`: a board's Python side receiving a front-end message."""
    return _deliver_as_front_end
