"""The conformance suite: what protocol v2 promises, checked on every registered game.

Parametrised over every registered game with a few option sets each, plus Storm harbour
(tests/harbour_game.py), a tiny game registered here from outside the package the way a designer
registers one from a notebook: it has chance during play, a phase change every round, hidden
simultaneous choices and a cooperative loss; and Kite fair (tests/flow_game.py), written on a
declared flow with stages. Each game's own test files hold only what is specific to it (rule
scenarios, oracles).

Every check runs on random play that includes chance: a match with auto_chance off, whose chance
steps are resolved by forcing outcomes drawn from the test's generator.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import re
from typing import Any

import pytest
from flow_game import KiteHooks, KiteRules
from harbour_game import HarbourHooks, HarbourRules

import aloftnb
from aloftnb import CHANCE, Match
from aloftnb.core.hooks import NO_HOOKS
from aloftnb.core.registry import BUILT_IN_GAMES, board_class, hooks_of, register
from aloftnb.errors import AloftnbError, IllegalAction, InvalidState

register(HarbourRules, hooks=HarbourHooks())
register(KiteRules, hooks=KiteHooks())  # a game written on a declared flow (aloftnb/core/flow.py)

# (game, players, options): every built-in game must appear (checked below).
CONFIGS = [
    ("balloons", 3, {}),
    ("balloons", 2, {"columns": 6, "altitudes": 2}),
    ("balloons", 5, {}),
    ("balloons", 4, {"edition": "choice"}),
    ("balloons", 1, {"mode": "solo"}),
    ("balloons", 3, {"mode": "cooperative", "edition": "choice"}),
    ("alu", 2, {}),
    ("alu", 2, {"columns": 4, "rows": 3, "construction": 8, "iron": 3}),
    ("commodores", 3, {}),
    ("commodores", 2, {"two_players": True, "radius": 3, "turn_limit": 6}),
    ("commodores", 5, {}),
    ("commodores", 4, {"catch_up": 2}),
    ("cloudspire", 2, {}),
    ("cloudspire", 3, {}),
    ("cloudspire", 4, {"waves": 2}),
    ("cloudspire", 4, {"waves": 2, "factions": ["mistveil", "mistveil", "emberwrights",
                                                 "mistveil"]}),
    ("cloudspire", 2, {"variant": "simplified", "waves": 3}),
    ("cloudspire", 1, {"mode": "solo"}),
    ("cloudspire", 3, {"mode": "cooperative", "waves": 2}),
    ("cloudspire", 2, {"mode": "cooperative", "waves": 2, "difficulty": "hard"}),
    ("harbour", 1, {}),
    ("harbour", 3, {"rounds": 6}),
    ("kites", 2, {}),
    ("kites", 3, {}),
]
SEEDS = (1, 2)
IDS = [f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
       for g, p, o in CONFIGS]


def test_every_registered_game_is_covered():
    assert set(BUILT_IN_GAMES) | {"harbour"} <= {game for game, _, _ in CONFIGS}


def random_game(game: str, players: int, options: dict, seed: int):
    """A match played to its end at random, chance forced from the same generator, and the
    list of states it went through."""
    match = aloftnb.new_match(game, players=players, seed=seed, auto_chance=False, **options)
    rng = random.Random(seed)
    while not match.is_over:
        if match.is_chance:
            rules = match.rules
            if rules.traits.chance == "explicit":
                match.force(rng.choice(match.chance_outcomes())[0])
            else:
                match.resolve_chance()
        else:
            match.play(rng.choice(match.legal_actions()))
        assert match.position <= match.rules.max_length() + 1, "ran past the declared maximum"
    return match


@pytest.fixture(params=CONFIGS, ids=IDS, scope="module")
def played(request):
    game, players, options = request.param
    return [random_game(game, players, options, seed) for seed in SEEDS]


def states_of(match: Match) -> list[Any]:
    return [match.state_at(i) for i in range(match.position + 1)]


# -- traits, phases and the registry --------------------------------------------------------------
def test_traits_and_description_are_declared(played):
    rules = played[0].rules
    traits = rules.traits
    assert rules.players in traits.player_counts
    described = type(rules).describe()
    assert described["traits"]["chance"] == type(rules).traits.chance
    assert described["phases"] == list(type(rules).phases)
    assert isinstance(described["max_length"], int) and described["max_length"] > 0
    assert rules.name in {g["name"] for g in aloftnb.games()}
    assert isinstance(rules.max_length(), int) and rules.max_length() > 0


def test_the_registry_names_each_games_parts(played):
    rules = played[0].rules
    assert isinstance(rules, aloftnb.core.registry.rules_class(rules.name))
    board = board_class(rules.name)
    assert board is None or issubclass(board, aloftnb.Board)
    hooks = hooks_of(rules)
    assert hooks is not NO_HOOKS and hooks.MEASURES  # every game here declares its measures


def test_games_end_within_their_maximum_length_and_declare_an_outcome(played):
    for match in played:
        rules, state = match.rules, match.state
        assert match.position <= rules.max_length()
        assert match.is_over and rules.legal_actions(state) == []
        assert rules.current_player(state) is None
        result = rules.outcome(state)
        assert result is not None and isinstance(result.reason, str) and result.reason
        assert set(result.winners) <= set(range(rules.players))
        assert list(result.winners) == match.winners()
        assert set(result.scores) == set(range(rules.players))
        if rules.traits.cooperative:
            assert result.winners in ((), tuple(range(rules.players)))


def test_phases_rounds_and_whose_turn_are_declared_at_every_step(played):
    for match in played:
        rules = match.rules
        last_round = 0
        for state in states_of(match):
            assert rules.phase(state) in rules.phases
            round_now = rules.round(state)
            assert isinstance(round_now, int) and round_now >= max(1, last_round)
            last_round = round_now
            seat = rules.current_player(state)
            if rules.is_over(state):
                assert seat is None and rules.outcome(state) is not None
            else:
                assert seat == CHANCE or seat in range(rules.players)
                assert rules.outcome(state) is None


def test_every_legal_action_belongs_to_the_phase_the_game_is_in(played):
    """The declared turn structure is the truth: each legal action's type (decisions and chance
    outcomes alike) is one its phase, and its stage when the game declares a flow, lists."""
    for match in played:
        rules = match.rules
        if len(rules.phases) > 1:
            assert rules.phase_actions, f"{rules.name} has phases but declares no phase_actions"
        for state in states_of(match):
            if not rules.phase_actions:
                break
            phase = rules.phase(state)
            allowed = (rules.flow.allowed(state) if rules.flow is not None
                       else rules.phase_actions.get(phase))
            assert allowed is not None, f"{rules.name}: phase {phase!r} lists no actions"
            stray = {a.type for a in rules.legal_actions(state)} - set(allowed)
            assert not stray, f"{rules.name}: {sorted(stray)} legal in the {phase} phase"


def test_the_log_names_the_phase_when_a_game_has_several(played):
    match = played[0]
    several = len(match.rules.phases) > 1
    for entry in match.history:
        assert (entry.phase in match.rules.phases) if several else entry.phase == ""


# -- round trips -----------------------------------------------------------------------------------
def test_every_state_survives_its_dict_json_and_pickle_round_trips(played):
    for match in played:
        rules = match.rules
        for state in states_of(match):
            data = rules.state_to_dict(state)
            assert json.loads(json.dumps(data)) == data
            assert rules.state_from_dict(data) == state
            assert rules.state_from_dict(json.loads(json.dumps(data))) == state
            assert pickle.loads(pickle.dumps(state)) == state
            assert rules.validate(state) == state


def test_saves_round_trip_at_every_step_with_chance_steps_replayed_exactly(played):
    match = played[0]
    for position in range(0, match.position + 1, 3):
        trial = match.fork()
        trial.goto(position)
        del trial._timeline[position:]  # as if the game had stopped here
        loaded = Match.from_json(trial.to_json())
        assert loaded.state == match.state_at(position) and loaded.position == position
    loaded = Match.from_json(match.to_json())
    assert loaded.state == match.state and loaded.to_json() == match.to_json()
    assert [str(e) for e in loaded.timeline] == [str(e) for e in match.timeline]


def test_every_legal_action_applies(played):
    for match in played[:1]:
        rules = match.rules
        for state in states_of(match)[::2]:
            chance = rules.is_chance(state)
            for action in rules.legal_actions(state):
                checked = (rules.check_chance(state, action.to_dict()) if chance
                           else rules.check_action(state, action.to_dict()))
                assert checked == action
                after = rules.apply(state, action)
                assert rules.validate(after) == after


# -- chance ----------------------------------------------------------------------------------------
def test_chance_probabilities_are_positive_and_sum_to_one(played):
    seen = 0
    for match in played:
        rules = match.rules
        for state in states_of(match):
            if not rules.is_chance(state):
                continue
            seen += 1
            assert rules.traits.chance != "none"
            if rules.traits.chance == "explicit":
                outcomes = rules.chance_outcomes(state)
                assert [o for o, _ in outcomes] == rules.legal_actions(state)
                assert all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
    if played[0].rules.traits.chance != "none":
        assert seen, "a game with chance reached no chance step"


def test_forcing_each_chance_outcome_works_and_is_undoable(played):
    match = played[0]
    rules = match.rules
    chance_positions = [i for i in range(match.position) if rules.is_chance(match.state_at(i))]
    for position in chance_positions[:3]:
        trial = match.fork()
        trial.goto(position)
        before = trial.state
        outcomes = (trial.chance_outcomes() if rules.traits.chance == "explicit"
                    else [(rules.sample_chance(before, random.Random(n)), None) for n in range(3)])
        for outcome, _ in outcomes:
            trial.force(outcome.to_dict())
            assert trial.state == rules.apply(before, outcome)
            assert trial.history[-1].kind == "chance" and trial.history[-1].forced
            trial.undo()
            assert trial.state == before


def test_junk_chance_outcomes_are_refused_and_change_nothing(played):
    match = played[0]
    rules = match.rules
    positions = [i for i in range(match.position) if rules.is_chance(match.state_at(i))]
    trial = match.fork()
    if positions:
        trial.goto(positions[0])
    before = trial.state
    for junk in (None, 7, "six", {}, {"type": "no such outcome"}):
        with pytest.raises(AloftnbError):
            trial.force(junk)
        assert trial.state == before


# -- hidden information ----------------------------------------------------------------------------
def test_a_seats_view_of_a_determinized_state_equals_its_view_of_the_real_one(played):
    rng = random.Random(5)
    for match in played:
        rules = match.rules
        for state in states_of(match)[::2]:
            for seat in range(rules.players):
                world = rules.determinize(state, seat, rng)
                assert rules.view(world, seat) == rules.view(state, seat)
                if not rules.is_chance(state):  # what may be drawn can depend on what is hidden
                    assert rules.legal_actions(world) == rules.legal_actions(state)
            if rules.traits.information == "perfect":
                assert rules.determinize(state, 0, rng) == state


# -- junk input ------------------------------------------------------------------------------------
JUNK_ACTIONS = [None, 3, "play", [], {}, {"type": 5}, {"type": "no such action"},
                {"type": "x", "nested": {"a": 1}}]


def test_junk_actions_raise_illegal_action_and_change_nothing(played):
    match = played[0].fork()
    match.goto(max(0, match.position // 2))
    while match.is_chance:
        match.goto(match.position - 1)
    before, position = match.state, match.position
    legal = match.legal_actions()
    extra_field = {**legal[0].to_dict(), "unexpected": 1}
    for junk in JUNK_ACTIONS + [extra_field]:
        with pytest.raises(IllegalAction):
            match.play(junk)
        assert match.state == before and match.position == position


def test_well_formed_illegal_actions_are_refused_with_the_rule_that_forbids_them(played):
    """Actions the game knows (legal somewhere along these games, or in its action encoding),
    tried where they are illegal, get a why_illegal naming the rule, never the bare sentence
    that the action "is not a legal action now"."""
    rules = played[0].rules
    known = {action for match in played for state in states_of(match)
             for action in rules.legal_actions(state)}  # chance outcomes listed too
    if rules.has_encoding:
        known.update(rules.action_from_index(i) for i in range(rules.num_distinct_actions()))
    universe = sorted(known, key=repr)
    rng = random.Random(11)
    bare, tried = [], 0
    for match in played:
        for state in states_of(match)[::3]:
            if rules.is_over(state) or rules.is_chance(state):
                continue
            legal = set(rules.legal_actions(state))
            for action in rng.sample(universe, min(12, len(universe))):
                if action in legal:
                    continue
                tried += 1
                why = rules.why_illegal(state, action)
                assert isinstance(why, str) and why, action
                if why.endswith("is not a legal action now"):
                    bare.append((rules.phase(state), str(action), why))
    assert tried > 0
    assert not bare, f"{len(bare)} of {tried} refusals name no rule, e.g. {bare[:5]}"


def test_junk_states_raise_invalid_state_and_change_nothing(played):
    match = played[0].fork()
    before, position = match.state, match.position
    data = match.rules.state_to_dict(before)
    for junk in [None, [], {}, {"no such key": 1}, {**data, "no such key": 1}]:
        with pytest.raises(InvalidState):
            match.set_state(junk)
        assert match.state == before and match.position == position
    # A missing key is refused, or the game declares it optional (or derived) and fills it in,
    # or it was informational and the state read is the same one.
    rules = match.rules
    for key in set(data) - set(rules.optional_keys) - set(rules.derived_keys):
        try:
            read = match.rules.state_from_dict({k: v for k, v in data.items() if k != key})
        except InvalidState:
            continue
        assert read == before, f"leaving out {key!r} silently changed the state"


# -- the playtesting tools use the protocol -------------------------------------------------------
def test_simulate_reports_the_outcome_and_chance_steps(played):
    rules = played[0].rules
    results = aloftnb.simulate(rules.name, players=rules.players, games=4, seed=3, workers=1,
                               progress=False, **dict(rules.options))
    assert (results["error"] == "").all()
    assert results["reason"].str.len().gt(0).all()
    if rules.traits.chance == "none":
        assert (results["chance_steps"] == 0).all()
    else:  # a game may happen to draw nothing (no spire fired in a short simplified game)
        assert (results["chance_steps"] > 0).any()
    for i in range(len(results)):  # the chance stream replays exactly
        replay = aloftnb.results_match(results, i)
        assert replay.is_over
        assert " ".join(map(str, replay.winners())) == results["winners"][i]


# -- action and observation encodings (the adapters' part of the contract) ------------------------
def encoded_rules(played):
    rules = played[0].rules
    if not rules.has_encoding:
        pytest.skip(f"{rules.name} declares no action or observation encoding")
    return rules


def test_the_action_enumeration_round_trips(played):
    rules = encoded_rules(played)
    count = rules.num_distinct_actions()
    assert isinstance(count, int) and count > 0
    for index in range(count):
        assert rules.action_to_index(rules.action_from_index(index)) == index
    for index in range(rules.max_chance_outcomes()):
        assert rules.chance_to_index(rules.chance_from_index(index)) == index
    if rules.traits.chance == "none":
        assert rules.max_chance_outcomes() == 0


def test_legal_actions_map_to_distinct_indices_in_range(played):
    rules = encoded_rules(played)
    rng = random.Random(4)
    for match in played:
        for state in states_of(match):
            if rules.is_chance(state):
                outcomes = (rules.legal_actions(state) if rules.traits.chance == "explicit"
                            else [rules.sample_chance(state, rng) for _ in range(3)])
                indices = [rules.chance_to_index(o) for o in outcomes]
                assert all(0 <= i < rules.max_chance_outcomes() for i in indices)
                assert [rules.chance_from_index(i) for i in indices] == outcomes
                continue
            legal = rules.legal_actions(state)
            indices = [rules.action_to_index(a) for a in legal]
            assert len(set(indices)) == len(indices)
            assert all(isinstance(i, int) and 0 <= i < rules.num_distinct_actions()
                       for i in indices)
            assert [rules.action_from_index(i) for i in indices] == legal
            seat = rules.current_player(state)
            if seat is not None:
                given = rules.legal_indices(state, seat)  # (optional: None if not given)
                assert given is None or given == indices


def test_observations_keep_one_shape_through_a_game(played):
    rules = encoded_rules(played)
    shape = rules.observation_shape()
    size = math.prod(shape)
    assert size > 0
    for match in played:
        for state in states_of(match):
            for seat in range(rules.players):
                numbers = rules.observation(state, seat)
                assert len(numbers) == size
                assert all(isinstance(x, float) and 0.0 <= x <= 1.0 for x in numbers)
                text = rules.observation_string(state, seat)
                assert isinstance(text, str) and text


def test_observations_show_nothing_the_seat_cannot_see(played):
    """Two states that differ only in what a seat cannot see give that seat the same observation.

    The second state is `determinize`'s resampling of what the seat cannot see; for games with
    hidden information the check must meet states that really differ."""
    rules = encoded_rules(played)
    rng = random.Random(6)
    differing = 0
    for match in played:
        for state in states_of(match):
            for seat in range(rules.players):
                world = rules.determinize(state, seat, rng)
                differing += world != state
                assert rules.observation(world, seat) == rules.observation(state, seat)
                assert rules.observation_string(world, seat) == rules.observation_string(state,
                                                                                         seat)
    if rules.traits.information == "imperfect" and rules.players > 1:
        assert differing, "no determinized state differed from the real one"


# -- drawings -------------------------------------------------------------------------------------
HIT_SHAPE = re.compile(
    r'<(?:rect|circle|polygon|path|ellipse)\b[^>]*\bclass="hit( painted)?"[^>]*>')


def _transparent(tag: str) -> bool:
    fill = re.search(r'\bfill="([^"]*)"', tag)
    opacity = re.search(r'\bfill-opacity="([^"]*)"', tag)
    return (fill is not None and fill.group(1) == "none") or (
        opacity is not None and float(opacity.group(1)) <= 0.01)


def test_hit_shapes_are_transparent_areas_or_marked_painted(played):
    """The board's shared CSS tints a plain `hit` shape when it highlights it, and only outlines
    a `hit painted` one: a painted hex or ship drawn as a plain `hit` would be washed out on the
    live board (the hex maps once showed no hexes at all that way)."""
    rules = played[0].rules
    seen = 0
    for match in played:
        for state in states_of(match)[::7]:
            for seat in [None, *range(rules.players)]:
                svg = rules.render_svg(rules.view(state, seat))
                for tag in HIT_SHAPE.finditer(svg):
                    seen += 1
                    painted = tag.group(1) is not None
                    assert painted != _transparent(tag.group(0)), (
                        f"{rules.name}: a hit shape must be a transparent area (fill-opacity 0"
                        f" or fill none) or carry class 'hit painted': {tag.group(0)[:160]}")
    if board_class(rules.name) is not None:
        assert seen, "a game with a board draws hit shapes to highlight"
