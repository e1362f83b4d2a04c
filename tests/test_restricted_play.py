"""Restricted play (aloftnb.restricted_play): a seat barred from a strategy, against the
unrestricted baseline on the same deals. A toy duel plants a dominant action and a useless one."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any, NamedTuple

import pandas as pd
import pytest

import aloftnb
from aloftnb.core.chance import CHANCE
from aloftnb.core.hooks import GameHooks
from aloftnb.core.registry import hooks_of, make_rules, register
from aloftnb.errors import AloftnbError, InvalidRestriction
from aloftnb.playtest.restricted import NARROW, verdict
from aloftnb.playtest.restrictions import (
    RestrictedBot,
    Restriction,
    probe_restrictions,
    resolve_restrictions,
)

ROUNDS = 4  # each seat's decisions in a duel


class DuelState(NamedTuple):
    turn: int  # decisions made so far
    rolling: bool  # a chance step adds 0-3 to the seat that just moved
    scores: tuple[int, int]


class DuelRules(aloftnb.Rules[DuelState, aloftnb.Action]):
    """Two seats take turns: strike (+2, the planted dominant action), jab (+1) or wave (+0,
    changes nothing); a die of 0-3 follows each. A seat's first decision offers only a strike."""

    name = "duel"
    title = "Duel"
    traits = aloftnb.Traits(player_counts=(2,), chance="explicit")
    GAIN = {"strike": 2, "jab": 1, "wave": 0}

    def max_length(self) -> int:
        return 4 * ROUNDS

    def initial_state(self, seed: int) -> DuelState:
        return DuelState(0, False, (0, 0))

    def current_player(self, s: DuelState) -> int | None:
        if s.rolling:
            return CHANCE
        return None if s.turn >= 2 * ROUNDS else s.turn % 2

    def is_over(self, s: DuelState) -> bool:
        return not s.rolling and s.turn >= 2 * ROUNDS

    def round(self, s: DuelState) -> int:
        return min(s.turn // 2 + 1, ROUNDS)

    def legal_actions(self, s: DuelState) -> list[aloftnb.Action]:
        if self.is_over(s):
            return []
        if s.rolling:
            return [outcome for outcome, _ in self.chance_outcomes(s)]
        if s.turn < 2:
            return [aloftnb.Action("strike")]  # the forced opening
        return [aloftnb.Action(kind) for kind in self.GAIN]

    def chance_outcomes(self, s: DuelState) -> list[tuple[aloftnb.Action, float]]:
        return [(aloftnb.Action("roll", pips=n), 0.25) for n in range(4)]

    def apply(self, s: DuelState, action: aloftnb.Action) -> DuelState:
        mover = (s.turn - 1) % 2 if s.rolling else s.turn % 2
        gain = action.pips if action.type == "roll" else self.GAIN[action.type]
        scores = list(s.scores)
        scores[mover] += gain
        return DuelState(s.turn if s.rolling else s.turn + 1, not s.rolling,
                         (scores[0], scores[1]))

    def scores(self, s: DuelState) -> dict[int, float]:
        return {0: float(s.scores[0]), 1: float(s.scores[1])}

    def state_to_dict(self, s: DuelState) -> dict[str, Any]:
        return {"turn": s.turn, "rolling": s.rolling, "scores": list(s.scores)}


class DuelHooks(GameHooks[DuelRules, DuelState]):
    def restrictions(self, rules: DuelRules) -> dict[str, Any]:
        return {"never strikes": lambda action: action.type == "strike",
                "never waves": lambda action: action.type == "wave"}


register(DuelRules, hooks=DuelHooks())

DEALS = 60


@pytest.fixture(scope="module")
def duel():
    """The duel's suggested restrictions, plus one that bars everything."""
    return aloftnb.restricted_play(
        "duel", ["never strikes", "never waves", ("bars everything", lambda action: True)],
        games=DEALS, seed=3, workers=1, progress=False)


def test_barring_the_dominant_action_costs_much_with_an_interval_excluding_zero(duel):
    row = duel.table.loc["never strikes"]
    assert row["cost"] > 0.2 and row["cost_low"] > 0
    assert row["cost"] == pytest.approx(row["baseline"] - row["win_rate"])
    assert row["verdict"].startswith(f"costs {100 * row['cost']:.1f} points")
    assert row["win_high"] < row["baseline"]
    assert row["games"] == 2 * DEALS and row["fair_share"] == 0.5


def test_barring_the_useless_action_costs_nothing(duel):
    row = duel.table.loc["never waves"]
    # Greedy never waves, so the games are the baseline's, move for move.
    assert row["cost"] == 0 and row["cost_low"] == 0 and row["cost_high"] == 0
    assert row["verdict"] == "costs nothing: the feature may be useless"
    assert row["applied"] == 0.75 and row["forced"] == 0  # not offered on the opening


def test_a_restriction_barring_every_legal_action_is_played_through_and_counted_as_forced(duel):
    # RULING: every legal action barred -> the seat chooses among all of them, as unrestricted,
    # and the decision counts as forced. The duel's opening offers only a strike.
    never = duel.table.loc["never strikes"]
    assert never["applied"] == 1 and never["forced"] == pytest.approx(1 / ROUNDS)
    assert "forced at 25% of the decisions it applied to" in never["verdict"]
    always = duel.table.loc["bars everything"]
    assert always["forced"] == 1 and always["cost"] == 0
    assert always["verdict"].startswith("always forced")
    run = duel.runs["bars everything"]
    assert (run["error"] == "").all()
    for _, row in run.iterrows():  # every game is the baseline's deal, move for move
        assert row["moves"] == duel.baseline.loc[row["deal"], "moves"]


def test_the_baseline_is_exactly_simulate(duel):
    plain = aloftnb.simulate("duel", players=2, bots="greedy", games=DEALS, seed=3, workers=1,
                             progress=False)
    pd.testing.assert_frame_equal(duel.baseline, plain)


def test_each_seat_carries_the_restriction_on_every_deal(duel):
    run = duel.runs["never strikes"]
    assert len(run) == 2 * DEALS
    assert sorted(run.groupby("deal")["seat_order"].apply(sorted).iloc[0]) == ["0 1", "1 0"]
    assert set(run["bot_0"]) == {"greedy", "greedy [never strikes]"}
    assert (run["seed"].to_numpy() == duel.baseline.loc[run["deal"], "seed"].to_numpy()).all()


def test_the_restricted_bot_chooses_only_among_the_actions_left():
    rules = make_rules("duel", 2)
    state = DuelState(2, False, (2, 2))
    actions = rules.legal_actions(state)
    never = Restriction("never strikes", lambda action: action.type == "strike")
    for bot in ("random", "greedy", "mcts:30"):
        restricted = RestrictedBot(bot, never)
        for seed in range(6):
            choice = restricted.choose_index(rules, state, 0, random.Random(seed), actions)
            assert actions[choice].type != "strike"
            assert restricted.choose(rules, state, 0, random.Random(seed)).type != "strike"
        assert "legal_actions" not in vars(rules)  # the rules themselves are never narrowed


class _Lookahead(aloftnb.Bot):
    """Looks at the seat's next decision two steps on (through the rules it is given), as a
    searching bot does, and records the choices it sees there."""

    name = "lookahead"

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def choose(self, rules, state, seat, rng, stop=None):
        actions = rules.legal_actions(state)
        later = state
        for action in (actions[0], aloftnb.Action("roll", pips=0), aloftnb.Action("jab"),
                       aloftnb.Action("roll", pips=0)):  # its move, the die, the rival's, the die
            later = rules.apply(later, action)
        assert rules.current_player(later) == seat
        self.seen.append([a.type for a in rules.legal_actions(later)])
        return actions[0]

    def choose_index(self, rules, state, seat, rng, actions):
        return actions.index(self.choose(rules, state, seat, rng))


def test_a_searching_bot_keeps_to_the_restriction_in_the_moves_it_imagines():
    # Before, only the move played was narrowed: a search could plan on barred actions later.
    rules = make_rules("duel", 2)
    state = DuelState(2, False, (2, 2))
    spy = _Lookahead()
    restricted = RestrictedBot(spy, Restriction("never strikes", lambda a: a.type == "strike"))
    assert restricted.choose(rules, state, 0, random.Random(0)).type != "strike"
    restricted.choose_index(rules, state, 0, random.Random(0), rules.legal_actions(state))
    assert spy.seen == [["jab", "wave"], ["jab", "wave"]]
    # The rules it was handed are untouched: a board sharing them sees every legal action.
    assert "legal_actions" not in vars(rules)
    assert [a.type for a in rules.legal_actions(state)] == ["strike", "jab", "wave"]


def test_restricted_mcts_imagines_no_barred_move_for_its_own_seat():
    rules = make_rules("duel", 2)
    state = DuelState(2, False, (2, 2))
    never = Restriction("never strikes", lambda a: a.type == "strike")
    restricted = RestrictedBot("mcts:200", never)
    narrowed = restricted._rules_for(rules, 0)
    root = restricted.bot.search(narrowed, state, 0, random.Random(1))
    seat_moves, rival_moves = set(), set()

    def walk(node, depth):  # the tree holds decisions only: seats alternate 0, 1, 0, ...
        for action, child in node.children.items():
            (seat_moves if depth % 2 == 0 else rival_moves).add(action.type)
            walk(child, depth + 1)

    walk(root, 0)
    assert seat_moves == {"jab", "wave"}
    assert "strike" in rival_moves  # the rival is not restricted
    # A restricted bot pickles without its narrowed copy, and makes a new one after.
    again = pickle.loads(pickle.dumps(restricted))
    assert again._narrowed is None
    assert again.choose(rules, state, 0, random.Random(0)).type != "strike"


def test_verdict_thresholds():
    assert verdict(0.12, 0.05, 0.19, 0.5, 0.0) == "costs 12.0 points"
    assert verdict(-0.12, -0.19, -0.05, 0.5, 0.0) == (
        "wins 12.0 points: a dominant strategy to avoid this")
    assert verdict(0.01, -NARROW, NARROW, 0.5, 0.0).startswith("costs nothing")
    assert verdict(0.01, -0.06, 0.08, 0.5, 0.0).startswith("unclear")
    assert verdict(0.0, 0.0, 0.0, 0.0, 0.0).startswith("never applied")
    assert verdict(0.12, 0.05, 0.19, 0.5, 0.5).endswith("(forced at 50% of the decisions it "
                                                          "applied to, so it measures less)")
    assert verdict(math.nan, math.nan, math.nan, 0.0, 0.0).startswith("no finished games")


# -- bad input -----------------------------------------------------------------------------------
def _play(restrictions: Any, **settings: Any) -> Any:
    settings = {"games": 2, "seed": 1, "workers": 1, "progress": False, **settings}
    return aloftnb.restricted_play("duel", restrictions, **settings)


@pytest.mark.parametrize("restrictions, message", [
    ({"never strikes": "strike"}, r"restriction 'never strikes': its predicate must be a "
                                  r"function"),
    ({3: lambda action: True}, r"name must be a non-empty text, not 3"),
    ({"": lambda action: True}, r"name must be a non-empty text"),
    ({"no arguments": lambda: True}, r"restriction 'no arguments': its predicate\(\) cannot be "
                                     r"called as bars\(action\) or bars\(state, action\)"),
    (["never jabs"], r"duel suggests no restriction 'never jabs' \(it suggests: 'never "
                     r"strikes', 'never waves'\)"),
    ([("a", lambda action: True), ("a", lambda action: False)], r"'a' is given twice"),
    ([42], r"not 42"),
], ids=["not-callable", "name-not-text", "name-empty", "arguments", "unknown-name", "twice",
        "not-a-restriction"])
def test_malformed_restrictions_are_refused_naming_them(restrictions, message):
    with pytest.raises(InvalidRestriction, match=message):
        _play(restrictions)


def test_a_predicate_that_raises_is_named_before_any_game():
    def explodes(action):
        return action.pips > 1  # a strike has no pips

    with pytest.raises(InvalidRestriction, match=r"restriction 'explodes' raised "
                                                 r"AttributeError asked about the action strike"):
        _play({"explodes": explodes})


def test_a_predicate_that_raises_during_the_games_is_named():
    calls = []

    def late(action):  # fine while the restrictions are probed, then fails
        calls.append(action)
        if len(calls) > 100:
            raise KeyError("late")
        return False

    with pytest.raises(InvalidRestriction, match=r"restriction 'late' raised KeyError"):
        aloftnb.restricted_play("duel", {"late": late}, games=10, seed=1, workers=1,
                                progress=False)


def test_other_bad_settings_are_refused():
    with pytest.raises(AloftnbError, match="one kind of bot"):
        _play(None, bots="greedy,random")
    with pytest.raises(AloftnbError, match="games must be a whole number"):
        _play(None, games=0)


def test_a_game_without_suggestions_needs_restrictions():
    register(DuelRules, hooks=None)
    try:
        with pytest.raises(InvalidRestriction, match=r"duel suggests no restrictions"):
            _play(None)
    finally:
        register(DuelRules, hooks=DuelHooks())


# -- workers -------------------------------------------------------------------------------------
def test_lambdas_reach_forked_workers_and_give_the_same_figures(duel):
    if "fork" not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip("no fork on this platform")
    parallel = aloftnb.restricted_play(
        "duel", ["never strikes", "never waves", ("bars everything", lambda action: True)],
        games=DEALS, seed=3, workers=2, progress=False)
    pd.testing.assert_frame_equal(parallel.table, duel.table)


def test_a_games_suggestions_reach_any_worker_by_reference():
    # A built-in game's workers need not be forked: they rebuild its restrictions from its hooks.
    settings = {"games": 2, "seed": 2, "progress": False}
    parallel = aloftnb.restricted_play("alu", ["never raids"], workers=2, **settings)
    here = aloftnb.restricted_play("alu", ["never raids"], workers=1, **settings)
    pd.testing.assert_frame_equal(parallel.table, here.table)


def test_suggested_restrictions_pickle_by_reference_and_lambdas_by_key():
    rules = make_rules("commodores", 3)
    suggested = resolve_restrictions(rules, None)
    again = pickle.loads(pickle.dumps(suggested[0]))
    assert again.name == "never plunders" and again.source == suggested[0].source
    assert again.barred(None, aloftnb.Action("plunder", target="1:1"))
    local = Restriction("anything", lambda action: True)
    assert not local.portable
    assert pickle.loads(pickle.dumps(local)) is local  # this process's table, as a fork has


# -- the built-in games --------------------------------------------------------------------------
@pytest.mark.parametrize("game, players", [("alu", 2), ("balloons", 3), ("cloudspire", 2),
                                           ("commodores", 3)])
def test_the_suggested_restrictions_of_every_built_in_game_are_valid(game, players):
    rules = make_rules(game, players)
    suggested = hooks_of(rules).restrictions(rules)
    assert 2 <= len(suggested) <= 4
    restrictions = resolve_restrictions(rules, None)
    # Each runs over the legal actions of short random games without error, and bars an action
    # that occurs in them.
    barred = {r.name: 0 for r in restrictions}
    for seed in range(3):
        for name, count in probe_restrictions(rules, restrictions, seed, 150).items():
            barred[name] += count
    assert all(barred.values()), barred
    page = (pytest.importorskip("pathlib").Path(__file__).parents[1] / "docs" / "rules"
            / f"{game}.md").read_text()
    assert all(f"**{name}**" in page for name in suggested)  # each listed on the rules page


def test_a_real_game_smoke_run():
    result = aloftnb.restricted_play("alu", games=2, seed=1, workers=1, progress=False)
    assert list(result.table.index) == ["never raids", "never attacks",
                                        "never camps on raided tiles"]
    assert (result.table["games"] == 4).all()
    assert result.table["verdict"].map(lambda v: isinstance(v, str) and v != "").all()
    assert "never raids" in result._repr_html_() and "never raids" in repr(result)
    from bokeh.embed import file_html
    from bokeh.resources import INLINE

    page = file_html(result.plot(), resources=INLINE, title="costs")
    assert "never attacks" in page and "cdn.bokeh.org" not in page
