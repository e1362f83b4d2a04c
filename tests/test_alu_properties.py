"""ALU property tests: random legal play and random positions against a plain re-implementation.

The oracle below works on the documented state dict with sets and coordinates, independently of
the engine's bitboards, so a bug in either shows up as a disagreement.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import aloftnb
from aloftnb import InvalidState

NAMES = ("circle", "square")
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def coordinates(tile):
    return ord(tile[0]) - 97, int(tile[1:]) - 1


def beside(tile, columns, rows):
    c, r = coordinates(tile)
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= c + dc < columns and 0 <= r + dr < rows:
            yield f"{chr(97 + c + dc)}{r + dr + 1}"


def oracle_control(data, name):
    board, columns, rows = data["board"], data["columns"], data["rows"]
    other = NAMES[1 - NAMES.index(name)]
    own = {t for t, content in board.items() if content == name}
    if not own:
        return set()
    controlled, seen = set(own), set()
    for start in board:
        if start in own or start in seen:
            continue
        region, todo = {start}, [start]
        while todo:
            for n in beside(todo.pop(), columns, rows):
                if n not in own and n not in region:
                    region.add(n)
                    todo.append(n)
        seen |= region
        edges = set()
        for tile in region:
            c, r = coordinates(tile)
            edges |= {e for e, hit in (("top", r == 0), ("bottom", r == rows - 1),
                                       ("left", c == 0), ("right", c == columns - 1)) if hit}
        if len(edges) <= 2 and not any(board[t] == other for t in region):
            controlled |= region
    return controlled


def oracle_legal(rules, data):
    if data["result"] is not None:
        return set()
    me = NAMES[data["current_player"]]
    board, columns, rows = data["board"], data["columns"], data["rows"]
    res = data["players"][me]
    construction, iron = res["construction"]["available"], res["iron"]["available"]
    food = res["food"]["available"]
    in_hand = rules.camp_pieces - sum(1 for c in board.values() if c == me)
    pieces = rules.raiding_pieces - sum(1 for c in board.values() if c == "raided")
    mine = [t for t, c in board.items() if c == me]
    found = set()
    if not mine:
        for tile, content in board.items():
            c, r = coordinates(tile)
            edge = c in (0, columns - 1) or r in (0, rows - 1)
            if edge and content == "empty" and construction >= 1 and in_hand >= 1:
                found.add(("camp", tile))
    else:
        reach = {n for t in mine for n in beside(t, columns, rows)} - set(mine)
        for tile in reach:
            content = board[tile]
            if content == "empty" and construction >= 1:
                if in_hand >= 1:
                    found.add(("camp", tile))
                if pieces >= 1:
                    found.add(("raid", tile))
            elif content == "raided" and construction >= 1:
                found.add(("restore", tile))
                if construction >= 2 and iron >= 1 and in_hand >= 1:
                    found.add(("raided_camp", tile))
            elif content not in ("empty", "raided") and iron >= 1 and food >= 1 and pieces >= 1:
                found.add(("attack", tile))
    return found or {("end_turn", None)}


def as_pairs(actions):
    return {(a.type, a.params.get("tile")) for a in actions}


def check_invariants(rules, state):
    data = state.to_dict()
    board = data["board"]
    for name in NAMES:
        res = data["players"][name]
        assert res["construction"]["available"] + res["construction"]["spent"] == 25
        assert res["iron"]["available"] + res["iron"]["spent"] == 10
        assert min(min(counter.values()) for counter in res.values()) >= 0
        assert sum(1 for c in board.values() if c == name) <= 14
        assert set(data["derived"]["control"][name]) == oracle_control(data, name)
    assert sum(1 for c in board.values() if c == "raided") <= 14
    assert not set(data["derived"]["control"]["circle"]) & set(data["derived"]["control"]["square"])
    assert rules.state_from_dict(data) == state
    assert as_pairs(rules.legal_actions(state)) == oracle_legal(rules, data)
    if data["result"] is None:
        assert data["current_player"] == (data["turn"] - 1) % 2
        assert 1 <= data["actions_left"] <= (2 if data["turn"] == 1 else 3)
    else:
        assert rules.legal_actions(state) == [] and data["actions_left"] == 0


def check_reasons_agree(rules, state):
    """`problem()` (the refusal text) is None exactly for the legal actions."""
    legal = set(rules.legal_actions(state))
    candidates = [rules.parse_action({"type": kind, "tile": tile})
                  for kind in ("camp", "raid", "restore", "raided_camp", "attack")
                  for tile in rules.tiles] + [rules.parse_action({"type": "end_turn"})]
    for action in candidates:
        problem = rules.problem(state, action)
        assert (problem is None) == (action in legal), (action, problem)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(seed):
    rules = aloftnb.make_rules("alu", 2)
    rng = random.Random(seed)
    state = rules.initial_state(seed)
    check_invariants(rules, state)
    steps = 0
    while not rules.is_over(state):
        actions = rules.legal_actions(state)
        action = actions[int(rng.random() * len(actions))]
        before = state
        state = rules.apply(state, action)
        if action.type != "end_turn":
            # The acting player's move never adds to the other side's control.
            other = 1 - before.player
            assert rules.scores(state)[other] <= rules.scores(before)[other]
        check_invariants(rules, state)
        if steps % 7 == 0:
            check_reasons_agree(rules, state)
        steps += 1
        assert steps < 400
    counts = rules.scores(state)
    if state.reason == "no_actions":
        assert not rules.can_act(state, 0) and not rules.can_act(state, 1)
        best = max(counts.values())
        assert rules.winners(state) == [p for p in (0, 1) if counts[p] == best]
    elif state.reason == "control":
        assert counts[rules.winners(state)[0]] >= 21
    else:
        assert state.camps[1 - rules.winners(state)[0]] == 0


@st.composite
def positions(draw):
    mix = draw(st.sampled_from(["....CCSSR", "..CCSSRRR"]))  # the second nears the piece limits
    tiles = draw(st.lists(st.sampled_from(mix), min_size=40, max_size=40))
    diagram = "\n".join("".join(tiles[r * 8:(r + 1) * 8]) for r in range(5))
    amounts = {name: {"construction": draw(st.integers(0, 25)), "iron": draw(st.integers(0, 10)),
                      "food": draw(st.integers(0, 3)), "not_usable_yet": draw(st.integers(0, 2))}
               for name in NAMES}
    return diagram, draw(st.sampled_from(NAMES)), draw(st.integers(1, 3)), amounts


@SETTINGS
@given(position=positions())
def test_random_positions_agree_with_the_oracle(position):
    diagram, to_act, actions_left, amounts = position
    rules = aloftnb.make_rules("alu", 2)
    try:
        state = rules.state_from_dict(rules.position(diagram, to_act=to_act,
                                                     actions_left=actions_left, **amounts))
    except InvalidState:
        assume(False)  # over the piece limits, already won, or nobody can act
    check_invariants(rules, state)
    check_reasons_agree(rules, state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 40))
def test_json_round_trip_undo_redo_and_determinism(seed, steps):
    def play(match):
        rng = random.Random(seed)
        for _ in range(steps):
            if match.is_over:
                break
            actions = match.legal_actions()
            match.play(actions[int(rng.random() * len(actions))])
        return match

    match = play(aloftnb.new_match("alu", players=2, seed=seed))
    again = play(aloftnb.new_match("alu", players=2, seed=seed))
    assert again.to_json() == match.to_json()  # same seed, same choices: the same game

    loaded = aloftnb.Match.from_json(match.to_json())
    assert loaded.state == match.state and loaded.history == match.history

    states = [match.state_at(p) for p in range(match.position + 1)]
    match.undo(match.position)
    assert match.state == match.rules.initial_state(seed)
    for position in range(1, len(states)):
        match.redo()
        assert match.state == states[position]


def test_control_kept_from_action_to_action_matches_the_oracle_on_other_boards():
    """apply() updates control only around the tile played (camps and attacks): on boards of
    other shapes, where regions split and merge at different edges, it still equals the oracle."""
    for columns, rows, seeds in ((3, 3, 40), (2, 5, 40), (6, 7, 10)):
        rules = aloftnb.make_rules("alu", 2, columns=columns, rows=rows, iron=30)
        checked = 0
        for seed in range(seeds):
            rng, state = random.Random(seed), rules.initial_state(seed)
            while not rules.is_over(state):
                actions = rules.legal_actions(state)
                state = rules.apply(state, actions[int(rng.random() * len(actions))])
                data = state.to_dict()
                for name in NAMES:
                    assert set(data["derived"]["control"][name]) == oracle_control(data, name)
                checked += 1
        assert checked > 10 * seeds
