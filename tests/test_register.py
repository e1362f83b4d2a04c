"""`register` refuses what would break later, and a game registered under another name plays
under that name everywhere.

A notebook's game whose chance probabilities are not a distribution is named when they are
given (not an IndexError in the greedy bot, nor a match that always draws the last outcome); a
board that is not a board class is refused when the game is registered, not when its first board
fails; a class registered as `name="..."` plays as that game in matches, saves, boards, simulate
and the OpenSpiel and PettingZoo adapters.
"""

from __future__ import annotations

import math
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from harbour_game import HarbourHooks, HarbourRules

import aloftnb
from aloftnb.core.bots import make_bot
from aloftnb.core.hooks import NO_HOOKS
from aloftnb.core.registry import _GAMES, board_class, hooks_of, register, rules_class
from aloftnb.errors import InvalidGame


@pytest.fixture
def registered():
    """register(...) for one test: the games it adds are gone afterwards."""
    names = []

    def add(rules, **parts):
        register(rules, **parts)
        name = parts.get("name") or rules.name
        names.append(name)
        return name

    yield add
    for name in names:
        _GAMES.pop(name, None)


# -- chance probabilities ------------------------------------------------------------------------
def storms_with(probabilities):
    """Storm harbour whose six storms get these probabilities."""

    class OddStorms(HarbourRules):
        name = "odd-storms"

        def chance_outcomes(self, state):
            return list(zip(self._storms, probabilities))

    return OddStorms


WRONG_PROBABILITIES = [
    ([math.nan] + [1 / 5] * 5, r"gave outcome 1 \(storm roll=1\) the probability nan: each "
                               "probability must be a positive, finite number"),
    ([1 / 5] * 5 + [math.inf], r"gave outcome 6 \(storm roll=6\) the probability inf: each "
                               "probability must be a positive, finite number"),
    ([1 / 5] * 2 + [0.0] + [1 / 5] * 3, r"gave outcome 3 \(storm roll=3\) the probability 0\.0: "),
    ([0.5, -0.5, 0.25, 0.25, 0.25, 0.25], r"gave outcome 2 \(storm roll=2\) the probability "
                                         r"-0\.5: "),
    ([1 / 7] * 6, r"gave probabilities that sum to 0\.857143, not 1"),
    ([0.2] * 6, r"gave probabilities that sum to 1\.2, not 1"),
    (["1/6"] * 6, r"gave outcome 1 \(storm roll=1\) the probability '1/6': each probability "
                  "must be a positive, finite number"),
]
WRONG_IDS = ["nan", "infinite", "zero", "negative", "sums-short", "sums-over", "text"]


def reach_the_storm(match):
    """Commit no sandbags until the storm (auto_chance draws it when it is on)."""
    while not match.is_chance and match.round == 1:
        match.play(match.legal_actions()[0])


@pytest.mark.parametrize(("probabilities", "problem"), WRONG_PROBABILITIES, ids=WRONG_IDS)
def test_wrong_chance_probabilities_are_named_when_the_match_draws(registered, probabilities,
                                                                   problem):
    name = registered(storms_with(probabilities))
    match = aloftnb.new_match(name, players=2, seed=3)
    with pytest.raises(InvalidGame, match=r"^odd-storms: OddStorms\.chance_outcomes " + problem):
        reach_the_storm(match)


@pytest.mark.parametrize(("probabilities", "problem"), WRONG_PROBABILITIES, ids=WRONG_IDS)
def test_wrong_chance_probabilities_are_named_for_the_greedy_bot(registered, probabilities,
                                                                 problem):
    # found by a user: NaN probabilities made the greedy bot raise an IndexError
    match = aloftnb.new_match(registered(storms_with(probabilities)), players=2, seed=3,
                              auto_chance=False)
    match.play(match.legal_actions()[0])  # seat 1 commits last: its choices lead to the storm
    with pytest.raises(InvalidGame, match=r"OddStorms\.chance_outcomes " + problem):
        make_bot("greedy").choose(match.rules, match.state, 1, random.Random(0))


def test_wrong_chance_probabilities_give_simulate_error_rows_that_name_them(registered):
    name = registered(storms_with([math.nan] + [1 / 5] * 5))
    results = aloftnb.simulate(name, players=2, games=2, bots="random", seed=1, workers=1,
                               progress=False)
    for error in results["error"]:  # a rules bug spoils its game, as any other does
        assert error.startswith("the rules raised InvalidGame at a chance step: odd-storms: "
                                "OddStorms.chance_outcomes gave outcome 1 (storm roll=1) the "
                                "probability nan")


@pytest.mark.parametrize(("outcomes", "problem"), [
    ([], "listed no outcome at a chance step"),
    ([(1, 1.0)], "listed 1, which is not an Action"),
    ([(aloftnb.Action("storm", roll=1),)], r"listed \(Action\('storm', roll=1\),\), not an "
                                           r"\(outcome, probability\) pair"),
    ({"storm": 1.0}, r"returned \{'storm': 1\.0\}, not a list of \(outcome, probability\) pairs"),
], ids=["empty", "not-an-action", "not-a-pair", "not-a-list"])
def test_chance_outcomes_must_be_action_probability_pairs(registered, outcomes, problem):
    class OddStorms(HarbourRules):
        name = "odd-storms"

        def chance_outcomes(self, state):
            return outcomes

    match = aloftnb.new_match(registered(OddStorms), players=2, seed=3, auto_chance=False)
    reach_the_storm(match)
    with pytest.raises(InvalidGame, match=r"OddStorms\.chance_outcomes " + problem):
        match.chance_outcomes()


def test_probabilities_rounded_to_sum_nearly_to_one_are_accepted(registered):
    match = aloftnb.new_match(registered(storms_with([0.1666667] * 6)), players=2, seed=3)
    reach_the_storm(match)
    assert match.round == 2 and match.history[-1].kind == "chance"


def test_built_in_chance_runs_unchecked():
    from aloftnb.games.balloons.rules import BalloonsRules

    assert rules_class("balloons").chance_outcomes is BalloonsRules.chance_outcomes


# -- the board -----------------------------------------------------------------------------------
class Scoreboard:
    """A class that is no board."""


@pytest.mark.parametrize(("board", "given"), [
    (dict, "not dict"),
    (Scoreboard, "not Scoreboard"),
    ("collections:OrderedDict", "not OrderedDict"),  # a lazy text is loaded and checked now
    (Scoreboard(), r"not <test_register\.Scoreboard object"),
], ids=["dict", "unrelated-class", "text", "instance"])
def test_a_board_that_is_not_a_board_class_is_refused_at_register(board, given):
    before = dict(_GAMES)
    with pytest.raises(InvalidGame, match=r"register\('harbour-board'\): board must be a "
                                          r"subclass of aloftnb\.Board \(or None for the generic "
                                          r"board\), " + given):
        register(HarbourRules, name="harbour-board", board=board)
    assert _GAMES == before


def test_board_classes_and_their_texts_are_accepted(registered):
    class HarbourBoard(aloftnb.Board):
        pass

    name = registered(HarbourRules, name="harbour-board", board=HarbourBoard)
    assert isinstance(aloftnb.new_match(name, players=2, seed=1).board(), HarbourBoard)
    registered(HarbourRules, name="harbour-board", board="aloftnb.widget.board:Board")
    assert board_class(name) is aloftnb.Board


def test_checking_a_board_imports_no_widget():
    probe = textwrap.dedent("""
        import sys
        import aloftnb
        from harbour_game import HarbourRules
        aloftnb.register(HarbourRules)
        try:
            aloftnb.register(HarbourRules, name="harbour-board", board=dict)
        except aloftnb.InvalidGame:
            pass
        print(sorted(m for m in ("aloftnb.widget", "anywidget") if m in sys.modules))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[-2] == "[]"


# -- another name --------------------------------------------------------------------------------
class AliasBoard(aloftnb.Board):
    pass


class AliasHooks(HarbourHooks):
    pass


def play_some(match, steps):
    for _ in range(steps):
        if match.is_over:
            break
        match.play(match.legal_actions()[-1])


def test_a_game_under_another_name_is_that_game_in_its_matches_boards_and_saves(registered):
    name = registered(HarbourRules, name="harbour-alias", board=AliasBoard, hooks=AliasHooks())
    match = aloftnb.new_match(name, players=2, seed=5)
    play_some(match, 5)
    assert match.game == "harbour-alias" and match.rules.name == "harbour-alias"
    assert isinstance(match.rules, HarbourRules)
    assert isinstance(hooks_of(match.rules).source, AliasHooks)
    board = match.board()
    assert isinstance(board, AliasBoard) and board.svg
    loaded = aloftnb.Match.from_json(match.to_json())
    assert loaded.game == "harbour-alias" and loaded.to_json() == match.to_json()
    assert loaded.state.to_dict() == match.state.to_dict()
    assert isinstance(loaded.board(), AliasBoard)
    assert pickle.loads(pickle.dumps(match.rules)).name == "harbour-alias"
    assert "harbour-alias" in [game["name"] for game in aloftnb.games()]


def test_the_older_text_form_names_its_game(registered):
    name = registered("harbour_game:HarbourRules", name="harbour-by-text")
    match = aloftnb.new_match(name, players=2, seed=5)
    play_some(match, 3)
    assert match.game == "harbour-by-text"
    assert aloftnb.Match.from_json(match.to_json()).game == "harbour-by-text"


def test_one_class_under_two_names_gives_two_games(registered):
    first = registered(HarbourRules, name="harbour-first", board=AliasBoard, hooks=AliasHooks())
    second = registered(HarbourRules, name="harbour-second")
    assert rules_class(first) is not rules_class(second)
    for name in (first, second):
        match = aloftnb.new_match(name, players=2, seed=1)
        play_some(match, 4)
        assert aloftnb.Match.from_json(match.to_json()).game == name
        assert isinstance(match.board(), AliasBoard) == (name == first)
    assert board_class(second) is None
    assert isinstance(hooks_of(aloftnb.make_rules(first, 2)).source, AliasHooks)
    assert hooks_of(aloftnb.make_rules(second, 2)) is NO_HOOKS


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_plays_a_game_under_another_name(registered, workers):
    name = registered(HarbourRules, name="harbour-alias", hooks=AliasHooks())
    results = aloftnb.simulate(name, players=2, games=4, bots="random", seed=1, workers=workers,
                               progress=False)
    assert list(results["game"]) == ["harbour-alias"] * 4
    assert list(results["error"]) == [""] * 4 and "breaches" in results  # the hooks' measures
    replayed = aloftnb.results_match(results, 3)
    assert replayed.game == "harbour-alias" and replayed.is_over


def test_openspiel_plays_a_game_under_another_name(registered):
    pyspiel = pytest.importorskip("pyspiel")
    import aloftnb.openspiel as aos

    name = registered(HarbourRules, name="harbour-alias")
    game = aos.load_game(name, players=2, seed=3)
    assert game.get_type().short_name == "aloftnb_harbour_alias"
    assert game.rules.name == "harbour-alias"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pettingzoo_plays_a_game_under_another_name(registered):
    pytest.importorskip("pettingzoo")
    np = pytest.importorskip("numpy")
    from aloftnb.pettingzoo import env

    zoo = env(registered(HarbourRules, name="harbour-alias"), 2)
    assert zoo.metadata["name"] == "aloftnb_harbour_alias_v0"
    assert zoo.rules.name == "harbour-alias"
    zoo.reset(seed=3)
    for _agent in zoo.agent_iter():
        observation, _, termination, truncation, _ = zoo.last()
        over = termination or truncation
        zoo.step(None if over else int(np.flatnonzero(observation["action_mask"])[0]))
    assert zoo.rules.is_over(zoo.game_state)
