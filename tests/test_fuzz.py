"""Fuzz tests (issue 8): junk and valid input mixed, thrown at boards, saves, states and actions.

Each test asserts that only the documented error escapes, that a refused input changes nothing, and
that every state accepted passes the rules' own validation and round-trips through its dict.

A few hundred examples each in the normal run. A longer run:
    ALOFTNB_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/test_fuzz.py
"""

from __future__ import annotations

import copy
import json
import os
import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import aloftnb
from aloftnb import Action, IllegalAction, InvalidOptions, InvalidSave, InvalidState, Match

EXAMPLES = int(os.environ.get("ALOFTNB_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GAMES = [
    ("balloons", 3, {}),
    ("balloons", 3, {"edition": "choice"}),
    ("balloons", 1, {"mode": "solo"}),
    ("alu", 2, {}),
    ("commodores", 3, {}),
    ("cloudspire", 2, {}),
    ("cloudspire", 2, {"mode": "cooperative", "waves": 2}),
]
GAME_IDS = ["balloons-fixed", "balloons-choice", "balloons-solo", "alu", "commodores",
            "cloudspire", "cloudspire-coop"]

# Values that have broken readers before: near-ints of the wrong type, huge and odd numbers.
ODD = st.sampled_from([1.0, -0.0, True, False, np.int64(1), np.float64(2.0), 10**20, -1,
                       float("nan"), float("inf"), "", "a1", "RW", "circle", "over", [],
                       {}, [0], [True], ["circle", "raided"]])
SCALARS = (st.none() | st.booleans() | st.integers(-5, 30) | st.integers()
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12) | ODD)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=10) | st.integers(0, 3), inner,
                                        max_size=4),
                      max_leaves=10)


def played_match(game, players, options, seed, moves, edit=True):
    """A match after `moves` random moves (and an edit that changes nothing, for the timeline)."""
    match = aloftnb.new_match(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.play(rng.choice(match.legal_actions()))
    if edit:
        match.set_state(match.state.to_dict())
    return match


def paths(doc, prefix=()):
    """Every path (tuple of keys/indices) into a JSON-like document, the root included."""
    found, pending = [], [(doc, prefix)]
    while pending:
        value, path = pending.pop()
        found.append(path)
        if isinstance(value, dict):
            pending.extend((v, path + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            pending.extend((v, path + (i,)) for i, v in enumerate(value))
    return found


def get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def fresh(data, label="value"):
    """A random value that nothing else shares: sampled lists and dicts are one object each, and
    changing them in place would change later examples (inconsistent data, growing without end)."""
    return copy.deepcopy(data.draw(VALUES, label=label))


def mutate(doc, data, times=3):
    """`doc` (a deep copy is changed) with 1..times random changes drawn from `data`."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, times), label="changes")):
        path = data.draw(st.sampled_from(sorted(paths(doc), key=repr)), label="path")
        value = get(doc, path)
        kind = data.draw(st.sampled_from(["replace", "delete", "add", "nudge", "retype"]),
                         label="kind")
        if kind == "replace" or not path and kind == "delete":
            new = fresh(data)
        elif kind == "nudge" and type(value) is int:
            new = value + data.draw(st.sampled_from([-1, 1, -value - 1, 10**9]), label="by")
        elif kind == "retype":
            new = {int: float, float: int, str: list, bool: int}.get(type(value), str)
            try:
                new = new(value) if not isinstance(value, str) else [value]
            except (TypeError, ValueError, OverflowError):
                new = None
        elif kind == "add" and isinstance(value, dict):
            value[data.draw(st.text(max_size=10) | st.sampled_from(list(value) or ["x"]),
                            label="key")] = fresh(data)
            continue
        elif kind == "add" and isinstance(value, list):
            value.append(fresh(data) if value else 0)
            continue
        elif kind == "delete":
            parent = get(doc, path[:-1])
            del parent[path[-1]]
            continue
        else:
            new = fresh(data)
        if not path:
            doc = new
        else:
            get(doc, path[:-1])[path[-1]] = new
    return doc


def _plain(value):
    """numpy numbers as their Python value, so a mutated save can still be written as JSON."""
    return value.item() if hasattr(value, "item") else str(value)


def assert_sound(match):
    """The match's state passes the rules' own validation and round-trips through its dict."""
    rules, state = match.rules, match.state
    data = rules.state_to_dict(state)
    assert rules.state_from_dict(data) == state
    assert rules.validate(state) == state
    assert json.loads(json.dumps(data)) == data


# -- boards ------------------------------------------------------------------------------------
INTENTS = ["hello", "play", "explain", "undo", "redo", "view", "reveal", "seat", "autoplay",
           "step"]
KEYS = re.compile(r'data-key="([^"]+)"')


def valid_intent(board, data):
    match = board.match
    kind = data.draw(st.sampled_from(INTENTS), label="intent")
    if kind == "play" and board.choices:
        return {"intent": "play", "action": data.draw(st.sampled_from(board.choices))["action"]}
    if kind == "explain":
        keys = sorted(set(KEYS.findall(board.svg))) or ["x"]
        path = data.draw(st.lists(st.sampled_from(keys) | st.text(max_size=12), min_size=0,
                                  max_size=4), label="path")
        return {"intent": "explain", "path": path}
    if kind == "view":
        viewers = [v for v, _ in board.viewers] + ["everyone"]
        return {"intent": "view", "viewer": data.draw(st.sampled_from(viewers))}
    if kind == "seat":
        return {"intent": "seat", "seat": data.draw(st.integers(-1, match.players)),
                "controller": data.draw(st.sampled_from(["human", "random", "greedy",
                                                         "mcts:nans", "oracle"]))}
    if kind in ("reveal", "autoplay"):
        return {"intent": kind, "on": data.draw(st.booleans() | SCALARS)}
    return {"intent": kind}


def junk_intent(data):
    shape = data.draw(st.sampled_from(["any", "fields", "deep"]), label="junk")
    if shape == "any":
        return data.draw(VALUES)
    if shape == "deep":
        value = data.draw(VALUES)
        for _ in range(data.draw(st.integers(1, 60))):
            value = [value] if data.draw(st.booleans()) else {"a": value}
        return {"intent": data.draw(st.sampled_from(INTENTS)), "action": value}
    message = data.draw(st.dictionaries(st.sampled_from(["action", "path", "viewer", "seat",
                                                         "controller", "on", "id", "type"]),
                                        VALUES, max_size=4))
    message["intent"] = data.draw(st.sampled_from(INTENTS) | SCALARS)
    return message


def deliver(board, message):
    sent = []
    original = board.send
    board.send = sent.append
    try:
        board._on_front_end_message(board, message, [])
    finally:
        board.send = original
    return sent


@pytest.mark.parametrize("game, players, options", GAMES, ids=GAME_IDS)
@FUZZ
@given(data=st.data())
def test_boards_survive_random_intents(game, players, options, data):
    match = played_match(game, players, options, data.draw(st.integers(0, 50)),
                         data.draw(st.integers(0, 12)), edit=False)
    board = match.board(viewer=data.draw(st.sampled_from(["turn", "designer"])))
    try:
        for _ in range(data.draw(st.integers(1, 8), label="messages")):
            if data.draw(st.booleans(), label="valid"):
                message = valid_intent(board, data)
            else:
                message = junk_intent(data)
            before, said = match.to_json(), board.message.get("n")
            sent = deliver(board, message)
            assert len(sent) == 1 and set(sent[0]) == {"ack"}
            text = board.message.get("text", "")
            assert "malformed" not in text, (message, text)  # no internal error reached the user
            assert len(text) <= 300
            if board.message.get("n") != said and text.startswith("refused"):
                assert match.to_json() == before, (message, text)  # a refusal changes nothing
            assert_sound(match)
            if board.revealed:
                assert match.current_player is not None
    finally:
        board.close()


# -- saves ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, players, options", GAMES, ids=GAME_IDS)
@FUZZ
@given(data=st.data())
def test_mutated_saves_load_or_raise_invalid_save(game, players, options, data):
    match = played_match(game, players, options, data.draw(st.integers(0, 20)),
                         data.draw(st.integers(0, 6)))
    if data.draw(st.booleans(), label="undo some"):
        # one step at a time: undo passes over drawn chance outcomes, so there may be fewer
        # steps to undo than the position says
        for _ in range(data.draw(st.integers(0, match.position))):
            if match.can_undo:
                match.undo()
    doc = mutate(json.loads(match.to_json()), data)
    as_text = data.draw(st.booleans(), label="as text")
    try:
        loaded = (Match.from_json(json.dumps(doc, default=_plain)) if as_text
                  else Match.from_dict(doc))
    except InvalidSave:
        return
    assert_sound(loaded)
    again = Match.from_json(loaded.to_json())
    assert again.to_json() == loaded.to_json()


# -- set_state, edit and play ----------------------------------------------------------------------
@pytest.mark.parametrize("game, players, options", GAMES, ids=GAME_IDS)
@FUZZ
@given(data=st.data())
def test_random_state_dicts_are_installed_sound_or_refused_cleanly(game, players, options, data):
    match = played_match(game, players, options, data.draw(st.integers(0, 20)),
                         data.draw(st.integers(0, 40)), edit=False)
    before = match.to_json()
    how = data.draw(st.sampled_from(["set_state", "edit", "object"]), label="how")
    try:
        if how == "set_state":
            match.set_state(mutate(match.state.to_dict(), data))
        elif how == "edit":
            base = match.state.to_dict()
            changes = mutate({k: base[k] for k in data.draw(
                st.lists(st.sampled_from(sorted(base)), min_size=1, max_size=3, unique=True))},
                data)
            if isinstance(changes, dict) and all(isinstance(k, str) for k in changes):
                match.edit(**changes)
            else:
                match.set_state(changes)
        else:
            state = match.state
            field = data.draw(st.sampled_from(state._fields[1:]), label="field")
            value = getattr(state, field)
            new = data.draw(SCALARS | st.just(value) | st.tuples(SCALARS, SCALARS)
                            | st.builds(tuple, st.lists(st.integers(-2, 70), max_size=14)))
            match.set_state(state._replace(**{field: new}))
    except InvalidState:
        assert match.to_json() == before
        return
    assert_sound(match)
    assert Match.from_json(match.to_json()).state == match.state


@pytest.mark.parametrize("game, players, options", GAMES, ids=GAME_IDS)
@FUZZ
@given(data=st.data())
def test_random_actions_are_played_legally_or_refused_cleanly(game, players, options, data):
    match = played_match(game, players, options, data.draw(st.integers(0, 20)),
                         data.draw(st.integers(0, 40)), edit=False)
    legal = match.legal_actions()
    before = match.to_json()
    if legal and data.draw(st.booleans(), label="near a legal one"):
        action = mutate(data.draw(st.sampled_from(legal)).to_dict(), data, times=2)
    else:
        action = data.draw(VALUES | st.dictionaries(st.sampled_from(
            ["type", "balloon", "truck", "tile"]), VALUES | st.sampled_from(
            ["unpack", "inflate", "camp", "raid", "pass", "wind", "end_turn"])))
    if data.draw(st.booleans(), label="as an Action") and isinstance(action, dict) and isinstance(
            action.get("type"), str):
        action = Action(action["type"], **{str(k): v for k, v in action.items() if k != "type"})
    try:
        played = match.play(action)
    except IllegalAction:
        assert match.to_json() == before
        return
    assert played in legal
    assert_sound(match)


# -- catalogues ------------------------------------------------------------------------------------
CATALOGUE_GAMES = [("commodores", 3), ("cloudspire", 2)]


@pytest.mark.parametrize("game, players", CATALOGUE_GAMES, ids=[g for g, _ in CATALOGUE_GAMES])
@FUZZ
@given(data=st.data())
def test_mutated_catalogues_play_or_are_refused_naming_the_field(game, players, data):
    from aloftnb.core.options import packaged_json

    catalogue = mutate(packaged_json(f"aloftnb.games.{game}", "data/catalogue.json"), data)
    try:
        match = aloftnb.new_match(game, players=players, seed=data.draw(st.integers(0, 9)),
                                  catalogue=catalogue)
    except InvalidOptions as refusal:
        assert str(refusal).startswith(("catalogue", "option catalogue")), str(refusal)
        event("refused")
        return
    event("played")
    rng = random.Random(0)
    for _ in range(data.draw(st.integers(0, 30), label="moves")):
        if match.is_over:
            break
        match.play(rng.choice(match.legal_actions()))
    assert_sound(match)
    assert Match.from_json(match.to_json()).state == match.state


# -- seeds -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, players, options", GAMES, ids=GAME_IDS)
@FUZZ
@given(seed=SCALARS | st.integers(min_value=2**60) | st.integers(max_value=-1))
def test_any_seed_gives_a_match_that_saves_or_a_clear_refusal(game, players, options, seed):
    try:
        match = aloftnb.new_match(game, players=players, seed=seed, **options)
    except aloftnb.errors.AloftnbError as refusal:
        assert "seed must be" in str(refusal)
        return
    assert Match.from_json(match.to_json()).seed == match.seed
    assert seed is None or match.seed == seed  # None: a fresh random seed


# -- adapters --------------------------------------------------------------------------------------
ADAPTER_GAMES = [("balloons", 3), ("alu", 2), ("commodores", 3), ("cloudspire", 2)]
INDICES = st.integers(-3, 2500) | st.integers(-2**63, 2**63 - 1) | SCALARS


@pytest.mark.parametrize("game, players", ADAPTER_GAMES, ids=[g for g, _ in ADAPTER_GAMES])
@FUZZ
@given(data=st.data())
def test_openspiel_states_apply_legal_indices_and_refuse_any_other(game, players, data):
    adapter = pytest.importorskip("aloftnb.openspiel")
    pyspiel = pytest.importorskip("pyspiel")
    state = adapter.load_game(game, players=players,
                              seed=data.draw(st.integers(0, 2**31 - 1))).new_initial_state()
    rng = random.Random(data.draw(st.integers(0, 99)))
    for _ in range(data.draw(st.integers(0, 60), label="moves")):
        if state.is_terminal():
            break
        legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())
        state.apply_action(rng.choice(legal))
    for _ in range(data.draw(st.integers(1, 6), label="tries")):
        action = data.draw(INDICES, label="index")
        legal = ([] if state.is_terminal() else [a for a, _ in state.chance_outcomes()]
                 if state.is_chance_node() else state.legal_actions())
        before = (str(state), state.history())
        try:
            state.apply_action(action)
        except pyspiel.SpielError:  # ours (also an IllegalAction) or pyspiel's own check of -1
            assert (str(state), state.history()) == before
            event("refused")
            continue
        except TypeError:  # pyspiel's own binding refuses what is not a 64-bit int
            assert type(action) is not int or not -2**63 <= action < 2**63
            assert (str(state), state.history()) == before
            event("refused by pyspiel's binding")
            continue
        # pyspiel's binding hands a bool or a numpy integer on as an int: nothing else but a
        # legal index gets through
        assert isinstance(action, (int, np.integer)) and int(action) in legal, action
        event("applied")


@pytest.mark.parametrize("game, players", ADAPTER_GAMES, ids=[g for g, _ in ADAPTER_GAMES])
@FUZZ
@given(data=st.data())
def test_pettingzoo_steps_legal_actions_and_refuses_any_other(game, players, data):
    from aloftnb.pettingzoo import env as make_env

    environment = make_env(game, players=players)
    environment.reset(seed=data.draw(st.integers(0, 2**31 - 1)))
    rng = random.Random(data.draw(st.integers(0, 99)))
    for _ in range(data.draw(st.integers(0, 40), label="moves")):
        if not environment.agents:
            break
        agent = environment.agent_selection
        if environment.terminations[agent] or environment.truncations[agent]:
            environment.step(None)
            continue
        mask = environment.observe(agent)["action_mask"]
        environment.step(rng.choice(np.flatnonzero(mask).tolist()))
    if not environment.agents:
        return
    for _ in range(data.draw(st.integers(1, 6), label="tries")):
        agent = environment.agent_selection
        if environment.terminations[agent] or environment.truncations[agent]:
            return
        action = data.draw(INDICES | st.sampled_from([np.int64(0), np.int64(-1), np.bool_(True),
                                                      np.float64(1.0)]), label="action")
        mask = environment.observe(agent)["action_mask"]
        before = environment.game_state
        try:
            environment.step(action)
        except aloftnb.errors.IllegalAction:
            assert environment.game_state is before
            event("refused")
            continue
        event("applied")
        assert mask[int(action)] == 1 and not isinstance(action, (bool, float, np.bool_)), action
        if not environment.agents:
            return


# -- register and outside games --------------------------------------------------------------------
from tests.harbour_game import HarbourRules  # noqa: E402  (an outside game, as a notebook has)

GOOD_PARTS = {"title": "Fuzzed harbour", "traits": HarbourRules.traits,
              "phases": HarbourRules.phases, "option_spec": HarbourRules.option_spec}


@FUZZ
@given(data=st.data())
def test_register_keeps_sound_games_only_and_games_always_lists(data):
    from aloftnb.core.registry import _GAMES, game_names, register

    # a few parts broken at a time (none, often), so sound games get registered too
    broken = data.draw(st.just(set()) | st.sets(st.sampled_from([*GOOD_PARTS, "name", "board"]),
                                                min_size=1, max_size=2), label="broken")
    parts = {key: data.draw(VALUES, label=key) if key in broken else value
             for key, value in GOOD_PARTS.items()}
    parts["name"] = (data.draw(SCALARS, label="name") if "name" in broken else
                     "fuzzed-" + data.draw(st.from_regex("[a-z0-9]{1,8}", fullmatch=True)))
    if "title" not in broken:  # sound games differ too (Hypothesis runs each example once)
        parts["title"] = data.draw(st.text(min_size=1, max_size=30), label="title")
    cls = type("FuzzedHarbour", (HarbourRules,), parts)
    board = (data.draw(SCALARS | st.sampled_from(["nowhere:Board", "aloftnb:Nope", "aloftnb"]),
                       label="board") if "board" in broken
             else data.draw(st.sampled_from([None, "aloftnb.widget.board:Board"])))
    before = dict(_GAMES)
    try:
        register(cls, board=board)
    except (aloftnb.errors.InvalidGame, TypeError):
        assert _GAMES == before  # a broken entry is never kept
        event("refused")
    else:
        event("registered")
        try:
            assert parts["name"] in game_names()
            assert len(aloftnb.games()) == len(set(before) | {parts["name"]})
            match = aloftnb.new_match(parts["name"], players=2, seed=1)
            match.play(match.legal_actions()[0])
        finally:
            _GAMES.clear()  # as it was, even if a built-in's name was drawn
            _GAMES.update(before)
    assert len(aloftnb.games()) == len(before)


HONEST = "honest"


class _WrongAnswers(HarbourRules):
    """Harbour whose answers go wrong now and then: what a slip in a notebook game looks like."""

    name = "wrong-answers"
    junk: list = []  # the next answers, last first: HONEST or a wrong one

    def _slip(self, honest):
        answer = self.junk.pop() if self.junk else HONEST
        return honest if answer is HONEST else answer

    def current_player(self, state):
        return self._slip(super().current_player(state))

    def legal_actions(self, state):
        return self._slip(super().legal_actions(state))

    def view(self, state, seat):
        return self._slip(super().view(state, seat))


@FUZZ
@given(data=st.data())
def test_an_outside_games_wrong_answers_are_named_for_every_bot(data):
    from aloftnb.core.registry import _GAMES, register

    register(_WrongAnswers)
    try:
        _WrongAnswers.junk = data.draw(st.lists(st.sampled_from(
            [HONEST, HONEST, HONEST, [], (), 7, -3, "seat", [1, 2], {}, None]), max_size=30),
            label="answers")
        match = aloftnb.new_match("wrong-answers", players=2, seed=1)
        bots = {0: data.draw(st.sampled_from(["random", "greedy", "mcts:5"])), 1: "random"}
        for _ in range(30):
            if match.is_over:
                break
            if match.is_chance:
                match.resolve_chance()
                continue
            seat = match.current_player
            move = aloftnb.make_bot(bots[seat]).choose(match.rules, match.state, seat,
                                                       random.Random(0))
            match.play(move)
            match.view(seat)
    except (aloftnb.errors.InvalidGame, IllegalAction) as error:
        assert "WrongAnswers" in str(error) or isinstance(error, IllegalAction), str(error)
        event(f"named: {type(error).__name__}")
    else:
        event("played through")
    finally:
        _GAMES.pop("wrong-answers", None)
        _WrongAnswers.junk = []
