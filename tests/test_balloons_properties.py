"""Property tests: random legal play from random seeds, in every mode, edition and player count.

Besides the engine's own validator (state_from_dict), each state is checked here against the rules
directly, and each step against the one before it.
"""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import aloftnb
from aloftnb import Match
from aloftnb.games.balloons.rules import BALLOON_COLOURS, CATALOGUE

FAST = settings(max_examples=40, deadline=None)
STAGES = {"packed": 0, "unpacked": 1, "inflated": 2, "flying": 3}
ALL_BALLOONS = [b["id"] for b in CATALOGUE["balloons"]]


@st.composite
def games(draw):
    """(players, options): a mode, an edition, a player count and sometimes a custom board."""
    mode = draw(st.sampled_from(["competitive", "solo", "cooperative"]))
    players = 1 if mode == "solo" else draw(st.integers(2, 5))
    options = {"mode": mode, "edition": draw(st.sampled_from(["fixed", "choice"]))}
    if draw(st.booleans()):  # a designer's variant
        columns = draw(st.integers(4, 14))
        options["columns"] = columns
        options["altitudes"] = draw(st.integers(1, 5))
        options["trucks"] = draw(st.integers(2, min(6, columns - 1)))
        options["balloons"] = draw(st.lists(st.sampled_from(ALL_BALLOONS), min_size=1,
                                            max_size=13, unique=True))
    return players, options


def play_random_game(players, options, seed, move_seed) -> tuple[Match, list]:
    match = aloftnb.new_match("balloons", players=players, seed=seed, **options)
    rng = random.Random(move_seed)
    states = [match.state]
    bound = action_bound(match)
    while not match.is_over:
        actions = match.legal_actions()
        assert actions, "a running game must offer a legal action"
        match.play(rng.choice(actions).to_dict())
        states.append(match.state)
        assert len(states) <= bound + 1, "the game did not end within its bound"
    return match, states


def action_bound(match) -> int:
    """Advances are finite (each balloon has 2 + altitudes of them); every wind moves a truck right
    and no truck can pass column+1, and a pass only happens in a turn with wind (or the very last).
    """
    rules = match.rules
    advances = len(rules.ids) * (2 + rules.altitudes)
    winds = (rules.truck_count + 1) * (rules.columns + 1)
    return advances + 2 * winds + 1


def check_state(rules, state) -> None:
    """The rules, checked on the plain dict without the engine's helpers."""
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert rules.state_from_dict(data) == state
    columns, altitudes, t = data["columns"], data["altitudes"], rules.truck_count
    trucks, safety = data["trucks"], data["safety"]
    assert len(trucks) == t and trucks == sorted(set(trucks)) and trucks[0] >= 1
    assert trucks[-1] <= columns + 1 and all(c <= columns for c in trucks[:-1])
    gaps = [b - a for a, b in itertools.pairwise(trucks) if b - a != 1]
    assert gaps in ([], [2]), f"launch zone {trucks} is not one group or two split by one column"
    if data["edition"] == "fixed":
        assert safety == trucks[0] or (not gaps and safety == trucks[0] - 1)
    else:
        assert trucks[0] <= safety <= trucks[-1]
    flying, riders = {}, {}
    for bid, entry in data["balloons"].items():
        if entry["status"] == "flying":
            cell = (entry["column"], entry["altitude"])
            assert 1 <= cell[0] <= columns and 1 <= cell[1] <= altitudes
            assert cell not in flying
            flying[cell] = bid
        elif entry["status"] in ("unpacked", "inflated"):
            assert entry["truck"] in range(t)
            assert entry["truck"] not in riders, "two balloons on one truck"
            riders[entry["truck"]] = bid
    for (c, a), bid in flying.items():
        for neighbour in ((c + 1, a), (c - 1, a), (c, a + 1), (c, a - 1)):
            assert neighbour not in flying, f"{bid} and {flying[neighbour]} touch"
        if rules.mode != "competitive":
            for corner in ((c + 1, a + 1), (c - 1, a + 1), (c + 1, a - 1), (c - 1, a - 1)):
                other = flying.get(corner)
                assert other is None or not set(BALLOON_COLOURS[bid]) & set(
                    BALLOON_COLOURS[other]), f"{bid} and {other} share a colour diagonally"
    packed = [bid for bid, e in data["balloons"].items() if e["status"] == "packed"]
    assert sorted(data["row"]) == sorted(packed)
    over = data["step"] == "over"
    assert data["lead_passed"] == (trucks[-1] > columns)
    assert (data["current_player"] is None) == over
    if not over:
        assert data["current_player"] == data["turn"] % rules.players
    if over:
        assert data["lead_passed"]
        tokens = data["tokens"]
        assert sorted(tokens.values()) == list(range(1, len(flying) + 1))
        assert set(tokens) == set(flying.values())
    if data["step"] == "wind":
        assert flying and data["edition"] == "choice" and not data["lead_passed"]


def check_step(rules, before, after, action) -> None:
    """What one action may change."""
    b, a = before.to_dict(), after.to_dict()
    assert all(x <= y for x, y in zip(b["trucks"], a["trucks"])), "a truck moved left"
    assert a["safety"] >= b["safety"]
    changed = [bid for bid in b["balloons"] if b["balloons"][bid] != a["balloons"][bid]]
    kind = action["type"]
    if kind == "wind" or kind == "pass":
        assert changed == []
    else:
        assert changed == [action["balloon"]]
        old, new = b["balloons"][action["balloon"]], a["balloons"][action["balloon"]]
        assert STAGES[new["status"]] - STAGES[old["status"]] == (0 if kind == "ascend" else 1)
        if kind == "ascend":
            assert (new["column"], new["altitude"]) == (old["column"], old["altitude"] + 1)
        if kind == "launch":
            assert (new["column"], new["altitude"]) == (b["trucks"][old["truck"]], 1)
        if kind == "unpack":
            assert b["row"][0] == action["balloon"] or rules.mode == "competitive"
            assert a["row"] == [x for x in b["row"] if x != action["balloon"]]
    if kind == "wind":
        assert (a["turn"], a["current_player"]) == (b["turn"], b["current_player"])
        moved = sum(x != y for x, y in zip(b["trucks"], a["trucks"])) + (a["safety"] != b["safety"])
        assert moved == 1
    else:
        assert a["turn"] == b["turn"] + 1
        flying_now = any(e["status"] == "flying" for e in a["balloons"].values())
        if rules.edition == "fixed" and not b["lead_passed"]:
            moved = sum(a["trucks"]) + a["safety"] - sum(b["trucks"]) - b["safety"]
            assert moved == (1 if flying_now else 0), "fixed wind: one step iff a balloon flies"
    for bid, old in b["balloons"].items():  # flying balloons never descend or drift
        new = a["balloons"][bid]
        if old["status"] == "flying":
            assert new["column"] == old["column"] and new["altitude"] >= old["altitude"]


@FAST
@given(game=games(), seed=st.integers(0, 2**32), move_seed=st.integers(0, 2**32))
def test_random_play_keeps_every_invariant_and_ends(game, seed, move_seed):
    players, options = game
    match, states = play_random_game(players, options, seed, move_seed)
    rules = match.rules
    for state in states:
        check_state(rules, state)
    actions = [entry.action.to_dict() for entry in match.history]
    for before, after, action in zip(states, states[1:], actions):
        check_step(rules, before, after, action)
    assert match.legal_actions() == []
    scores = match.scores()
    assert set(scores) == set(range(players))
    final = match.state.to_dict()
    flying = [e for e in final["balloons"].values() if e["status"] == "flying"]
    if rules.mode == "competitive":
        tokens = final["tokens"]
        for seat, colour in final["colours"].items():
            assert scores[int(seat)] == sum(t for bid, t in tokens.items()
                                            if colour in BALLOON_COLOURS[bid])
        best = max(scores.values())
        assert match.winners() == [s for s in range(players) if scores[s] == best]
    else:
        columns = [e["column"] for e in flying]
        width = max(columns) - min(columns) + 1 if columns else 0
        unlaunched = len(final["balloons"]) - len(flying)
        assert set(scores.values()) == {width + 3 * unlaunched}
        assert match.winners() == list(range(players))


@FAST
@given(game=games(), seed=st.integers(0, 2**32), move_seed=st.integers(0, 2**32),
       cut=st.floats(0, 1))
def test_save_round_trip_and_undo_redo_restore_the_same_states(game, seed, move_seed, cut):
    players, options = game
    match, states = play_random_game(players, options, seed, move_seed)
    text = match.to_json()
    loaded = Match.from_json(text)
    assert loaded.to_json() == text and loaded.state == match.state
    position = int(cut * len(states[1:]))
    steps_back = len(states) - 1 - position
    match.undo(steps_back)
    assert match.state == states[position]
    assert json.loads(match.to_json())["position"] == position
    reloaded = Match.from_json(match.to_json())  # with a redo tail
    assert reloaded.state == states[position] and reloaded.to_json() == match.to_json()
    match.redo(steps_back)
    reloaded.redo(steps_back)
    assert match.state == reloaded.state == states[-1]
    match.goto(0)
    assert match.state == states[0]


@FAST
@given(game=games(), seed=st.integers(0, 2**32), move_seed=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_game(game, seed, move_seed):
    players, options = game
    match, states = play_random_game(players, options, seed, move_seed)
    replay = aloftnb.new_match("balloons", players=players, seed=seed, **options)
    assert replay.state == states[0]
    for entry, expected in zip(match.history, states[1:]):
        replay.play(entry.action.to_dict())
        assert replay.state == expected
    fast = match.rules
    state = fast.initial_state(seed)
    for entry in match.history:  # the fast path agrees with the match
        state = fast.apply(state, entry.action)
    assert state == match.state
