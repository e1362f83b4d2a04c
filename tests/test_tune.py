"""The balance lab: aloftnb.tune, its knobs, objectives and results.

Most tests tune "coin draw", a toy game written here: one chance draw, seat 0 wins with
probability bias/10 (its catalogue's draw.bias), so seat fairness is best at bias 5 exactly.
"""

from __future__ import annotations

import math
import sys
from typing import Any, NamedTuple

import pandas as pd
import pytest

import aloftnb
from aloftnb.core import registry
from aloftnb.core.chance import CHANCE
from aloftnb.core.options import Option, whole_number_problem
from aloftnb.errors import AloftnbError, InvalidOptions
from aloftnb.playtest import tuning
from aloftnb.playtest.knobs import Change, Knob, knob_set
from aloftnb.playtest.objectives import (
    Estimate,
    TrialData,
    coop_win_band,
    faction_fairness,
    fewest_changes,
    seat_fairness,
)
from aloftnb.playtest.stats import wilson_interval

SHIPPED = {"draw": {"bias": 8, "sides": 10}, "name": "coin draw"}


class CoinState(NamedTuple):
    winner: int  # -1 before the draw

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner}


class CoinRules(aloftnb.Rules[CoinState, aloftnb.Action]):
    name = "coin_draw"
    title = "Coin draw"
    summary = "One draw decides: seat 0 wins with probability bias/sides."
    traits = aloftnb.Traits(player_counts=(2,), chance="explicit", utility="win_loss")
    phases = ("draw",)
    phase_actions = {"draw": ("draw",)}
    action_types = ("draw",)
    option_spec = {"catalogue": Option("catalogue", None, "draw.bias and draw.sides: a dict")}

    def configure(self) -> None:
        data = self.options["catalogue"] or SHIPPED
        bias = data.get("draw", {}).get("bias") if isinstance(data, dict) else None
        problem = whole_number_problem(bias, 0, 10)
        if problem:
            raise InvalidOptions(f"catalogue: draw.bias {problem}")
        self.catalogue_data = data
        self.p = bias / data["draw"]["sides"]
        self._draws = [aloftnb.Action("draw", seat=0), aloftnb.Action("draw", seat=1)]

    def max_length(self) -> int:
        return 1

    def initial_state(self, seed: int) -> CoinState:
        return CoinState(-1)

    def current_player(self, s: CoinState) -> int | None:
        return CHANCE if s.winner < 0 else None

    def is_over(self, s: CoinState) -> bool:
        return s.winner >= 0

    def legal_actions(self, s: CoinState) -> list[aloftnb.Action]:
        return [] if s.winner >= 0 else [draw for draw, _ in self.chance_outcomes(s)]

    def chance_outcomes(self, s: CoinState) -> list[tuple[aloftnb.Action, float]]:
        # at bias 0 or 10 one draw cannot happen: it is not listed (probabilities are positive)
        pairs = [(self._draws[0], self.p), (self._draws[1], 1 - self.p)]
        return [(draw, p) for draw, p in pairs if p > 0]

    def apply(self, s: CoinState, action: aloftnb.Action) -> CoinState:
        return CoinState(action.seat)

    def scores(self, s: CoinState) -> dict[int, float]:
        return {seat: float(seat == s.winner) for seat in range(2)}

    def state_to_dict(self, s: CoinState) -> dict[str, Any]:
        return s.to_dict()


@pytest.fixture(autouse=True, scope="module")
def coin_draw_registered():
    registry.register(CoinRules)
    yield
    registry._GAMES.pop("coin_draw")  # other tests list every registered game
    registry._HOOKS.pop("coin_draw", None)


def coin(**kwargs: Any) -> aloftnb.playtest.TuneResults:
    settings: dict[str, Any] = {"players": 2, "trials": 8, "games_per_trial": 200,
                                "workers": 1, "progress": False, **kwargs}
    knobs = settings.pop("knobs", {"bias": (0, 10)})
    objectives = settings.pop("objectives", "seat_fairness")
    return aloftnb.tune("coin_draw", knobs, objectives, **settings)


# -- the search -----------------------------------------------------------------------------------
def test_tune_finds_the_fair_bias_of_the_toy_draw():
    results = coin(trials=20, games_per_trial=1000)
    assert results.values() == {"bias": 5}
    best = results.best.iloc[0]
    assert best["seat_fairness"] < 0.05  # |seat 0's rate - 1/2| at bias 5
    # A setting tried before is not played again: same deals, same results.
    repeats = [t for t in results.study.trials if "repeat_of" in t.user_attrs]
    assert repeats and all(t.values == results.study.trials[t.user_attrs["repeat_of"]].values
                           for t in repeats)
    assert best["seat_fairness_low"] <= best["seat_fairness"] <= best["seat_fairness_high"]
    table = results.trials
    assert table.loc[0, "bias"] == 8  # the shipped setting comes first
    assert table.loc[0, "seat_fairness"] == pytest.approx(0.3, abs=0.06)


def test_hopeless_trials_are_pruned_after_their_first_batches():
    results = coin(trials=10, batches=4)
    table = results.trials
    pruned = table[table["state"] == "pruned"]
    assert len(pruned) >= 1
    assert (pruned["games"] < 200).all()
    best = results.best.iloc[0]["seat_fairness"]
    assert (pruned["seat_fairness_low"] > best).all()  # the interval check that stopped them
    unpruned = coin(trials=10, batches=4, prune=False).trials
    assert set(unpruned["state"]) == {"complete"}


def test_the_same_seed_gives_the_same_trials_and_another_seed_others():
    first, again = coin(trials=6).trials, coin(trials=6).trials
    pd.testing.assert_frame_equal(first, again)
    other = coin(trials=6, seed=1).trials
    assert other["bias"].tolist() != first["bias"].tolist()


def test_a_stored_study_resumes_and_adds_trials(tmp_path):
    path = tmp_path / "study.db"
    first = coin(trials=3, storage=path).trials
    resumed = coin(trials=2, storage=path).trials
    assert len(resumed) == 5
    pd.testing.assert_frame_equal(resumed.iloc[:3], first)
    with pytest.raises(AloftnbError, match="other settings.*games_per_trial"):
        coin(trials=1, storage=path, games_per_trial=50)


def test_ctrl_c_returns_the_trials_finished_so_far(monkeypatch):
    real, calls = tuning.simulate, []

    def simulate(*args: Any, **kwargs: Any) -> pd.DataFrame:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tuning, "simulate", simulate)
    with pytest.warns(UserWarning, match="interrupted"):
        results = coin(trials=5, batches=1)
    assert results.interrupted
    assert results.trials["state"].tolist() == ["complete", "complete", "failed"]


def test_several_objectives_give_a_pareto_set():
    results = coin(trials=10, objectives=["seat_fairness", fewest_changes()])
    table, best = results.trials, results.best
    assert len(best) >= 2
    assert 0 in best.index  # the shipped setting changes nothing: nothing beats it there
    names = ["seat_fairness", "fewest_changes"]
    done = table[table["state"] == "complete"][names]

    def dominated(row: pd.Series) -> bool:
        return bool(((done <= row).all(axis=1) & (done < row).any(axis=1)).any())

    assert not any(dominated(done.loc[i]) for i in best.index)
    shown = set(best["bias"])  # a setting tried twice is shown once
    assert all(dominated(done.loc[i]) or table.loc[i, "bias"] in shown
               for i in done.index if i not in best.index)
    assert len(set(best["bias"])) == len(best)
    from aloftnb.playtest.tune_plots import pareto_plot

    assert pareto_plot(results).title.text == "Pareto front: seat_fairness and fewest_changes"
    assert {"seat_fairness_low", "fewest_changes_high"} <= set(table.columns)


def test_results_give_the_catalogue_and_its_diff():
    results = coin(trials=20, games_per_trial=1000)
    catalogue = results.best_catalogue()
    assert catalogue == {"draw": {"bias": 5, "sides": 10}, "name": "coin draw"}
    assert SHIPPED["draw"]["bias"] == 8  # the shipped data is copied, never changed
    assert results.diff() == [Change("catalogue.draw.bias", 8, 5)]
    assert str(results.diff()[0]) == "catalogue.draw.bias: 8 -> 5"
    assert results.best_options() == {"catalogue": catalogue}
    assert results.diff(trial=0) == []
    assert "coin_draw" in repr(results) and "<table" in results._repr_html_()


# -- knob paths ---------------------------------------------------------------------------------
def test_knob_paths_enter_lists_by_id_and_take_short_forms():
    knobs = knob_set("cloudspire", 2, {
        "catalogue.factions.mistveil.minions.fogling.health": (1, 4),
        "catalogue.factions.emberwrights.units.forgemother.reward": (2, 4),
        "catalogue.factions.mistveil.units.gale_wisp.attack": [1, 2],
        "earthscape_cost": (1, 3),
        "waves": (2, 4)}, {}).knobs
    assert [k.where for k in knobs] == [
        "catalogue.factions.mistveil.minions.fogling.health",
        "catalogue.factions.emberwrights.heroes.forgemother.reward",
        "catalogue.factions.mistveil.minions.gale_wisp.attack",
        "catalogue.rules.earthscape_cost", "waves"]
    assert [k.shipped for k in knobs] == [2, 3, 1, 2, 4]
    options = knob_set("cloudspire", 2, {"earthscape_cost": (1, 3)}, {}).options(
        {"earthscape_cost": 3})
    assert options["catalogue"]["rules"]["earthscape_cost"] == 3
    aloftnb.make_rules("cloudspire", 2, **options)  # a catalogue the game accepts


@pytest.mark.parametrize("game, players, path, nearest", [
    ("cloudspire", 2, "catalogue.factions.mistveil.minions.foglin.health",
     "catalogue.factions.mistveil.minions.fogling.health"),
    ("commodores", 3, "turn_limt", "turn_limit"),
    ("commodores", 3, "catalogue.leviathans.silkmoth.helth",
     "catalogue.leviathans.silkmoth.health"),
])
def test_an_unknown_path_names_the_nearest_valid_one(game, players, path, nearest):
    with pytest.raises(InvalidOptions, match=f"nearest valid path is '{nearest}'"):
        aloftnb.tune(game, {path: (1, 3)}, "seat_fairness", players=players, trials=1)


def test_a_short_form_found_in_several_places_is_refused():
    with pytest.raises(InvalidOptions, match=r"\d+ keys so named.*catalogue.rules.gate_health"):
        knob_set("cloudspire", 2, {"gate_health": (6, 14)}, {})


@pytest.mark.parametrize("knobs, refused", [
    ({"turn_limit": (0, 40)}, "'turn_limit' at 0"),
    ({"catalogue.leviathans.silkmoth.health": [4, "lots"]}, "at 'lots'"),
    ({"catalogue.supply.pool_cap": (5.5, 10.5)}, "at 5.5"),
])
def test_a_range_the_game_refuses_is_refused_before_any_game(monkeypatch, knobs, refused):
    played = []
    monkeypatch.setattr(tuning, "simulate", lambda *a, **k: played.append(1))
    with pytest.raises(InvalidOptions, match=refused):
        aloftnb.tune("commodores", knobs, "seat_fairness", players=3, trials=2,
                     games_per_trial=5, workers=1, progress=False)
    assert played == []


@pytest.mark.parametrize("spec, message", [
    ((3, 3), "below its high end"), ([], "empty"), ((1, 9, 3), "whole number of steps"),
    ({"low": 1}, "give a range as a tuple")])
def test_malformed_ranges_are_refused(spec, message):
    with pytest.raises(InvalidOptions, match=message):
        knob_set("coin_draw", 2, {"bias": spec}, {})


# -- objectives -------------------------------------------------------------------------------
def _results(wins: list[tuple[int, int]], lengths: list[int] | None = None) -> pd.DataFrame:
    rows = [{"game": "coin_draw", "players": 2, "error": "", "bot_0": "random",
             "bot_1": "random", "win_0": a, "win_1": b, "length": (lengths or [1] * len(wins))[i],
             "winners": " ".join(str(s) for s, w in ((0, a), (1, b)) if w)}
            for i, (a, b) in enumerate(wins)]
    return pd.DataFrame(rows)


def _trial(df: pd.DataFrame, game: str = "coin_draw", players: int = 2,
           **options: Any) -> TrialData:
    rules = aloftnb.make_rules(game, players, **options)
    return TrialData(rules, ("random",) * players, {("random",) * players: df})


def test_seat_fairness_measures_from_the_seats_mean_share_when_wins_are_shared():
    # Every game shared: both seats win 100%, which is fair though not 1/players.
    shared = seat_fairness().evaluate(_trial(_results([(1, 1)] * 20)))
    assert shared.value == 0 and shared.low == 0
    lopsided = seat_fairness().evaluate(_trial(_results([(1, 0)] * 15 + [(0, 1)] * 5)))
    assert lopsided.value == pytest.approx(0.25)
    assert 0 < lopsided.low < 0.25 < lopsided.high


def test_length_band_is_the_distance_outside_with_its_interval():
    df = _results([(1, 0)] * 10, lengths=[10, 12] * 5)
    inside = aloftnb.objectives.length_band(5, 20).evaluate(_trial(df))
    assert inside == Estimate(0.0, 0.0, 0.0)
    above = aloftnb.objectives.length_band(2, 8).evaluate(_trial(df))
    assert above.value == pytest.approx(3.0) and above.low < 3.0 < above.high


def test_objectives_refuse_games_they_cannot_measure():
    with pytest.raises(AloftnbError, match="coop_win_band"):
        seat_fairness().check(aloftnb.make_rules("balloons", 3, mode="cooperative"))
    with pytest.raises(AloftnbError, match="cooperative or solo"):
        coop_win_band(0.3, 0.5).check(aloftnb.make_rules("balloons", 3))
    with pytest.raises(AloftnbError, match="factions"):
        faction_fairness().check(aloftnb.make_rules("commodores", 3))
    with pytest.raises(AloftnbError, match="needs its band"):
        coin(objectives="length_band")
    with pytest.raises(AloftnbError, match="unknown objective"):
        coin(objectives="fun")


def test_faction_fairness_pools_the_seats_of_each_faction():
    # Cloudspire, 4 seats: emberwrights at 0 and 2, mistveil at 1 and 3.
    rows = []
    for i in range(40):
        winner = [0, 2, 0, 1][i % 4]  # emberwrights win 3 games in 4
        rows.append({**{f"win_{s}": int(s == winner) for s in range(4)},
                     "game": "cloudspire", "players": 4, "error": "", "winners": str(winner)})
    two = ["emberwrights", "mistveil"] * 2  # (the 4-player default fields four factions)
    estimate = faction_fairness().evaluate(_trial(pd.DataFrame(rows), "cloudspire", 4,
                                                  factions=two))
    # each faction's rate over its 80 seat-games: 30/80 and 10/80; a fair share is 1/4
    assert estimate.value == pytest.approx(0.125)
    assert not math.isnan(estimate.low)


# -- a real game ------------------------------------------------------------------------------
def test_tuning_a_real_game_with_tiny_numbers():
    results = aloftnb.tune(
        "commodores", {"turn_limit": (20, 60), "catalogue.leviathans.silkmoth.health": (3, 6)},
        [aloftnb.objectives.seat_fairness(), aloftnb.objectives.length_band(100, 300)],
        players=3, trials=2, games_per_trial=10, workers=1, progress=False)
    table = results.trials
    assert len(table) == 2 and set(table["state"]) == {"complete"}
    assert (table["games"] == 10).all()
    for name in ("seat_fairness", "length_band"):
        assert (table[f"{name}_low"] <= table[name]).all()
        assert (table[name] <= table[f"{name}_high"]).all()
    options = results.best_options(trial=1)
    aloftnb.simulate("commodores", players=3, games=1, workers=1, progress=False, **options)
    assert results.plot() is not None


def test_tune_without_optuna_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install aloftnb\[tune\]"):
        coin(trials=1)


def test_skill_shows_plays_its_own_line_up_in_every_seat_order():
    results = aloftnb.tune("balloons", {"columns": (8, 12)},
                           [aloftnb.objectives.skill_shows("greedy", "random", threshold=0.99),
                            "seat_fairness"],
                           players=2, trials=1, games_per_trial=6, workers=1, progress=False)
    row = results.trials.iloc[0]
    assert row["games"] == 6  # the tune's own bots (random, random): one seat order
    # greedy at one seat of two, in both orders: 12 games, all won; the interval's low end
    # (Wilson, 12 of 12) is what could still fall short of 0.99
    assert row["skill_shows"] == 0
    assert row["skill_shows_high"] == pytest.approx(0.99 - wilson_interval(12, 12)[0])
    study = results.study.trials[0]
    assert study.user_attrs["games"] == 6


def test_ranges_of_whole_numbers_give_whole_numbers_and_floats_give_floats():
    optuna = tuning._optuna()
    knobs = knob_set("coin_draw", 2, {"bias": (2, 8, 2)}, {}).knobs
    assert tuning._distribution(optuna, knobs[0]) == optuna.distributions.IntDistribution(
        2, 8, step=2)
    floats = Knob("x", "x", (), 1.0, 0.5, 2.5, None)
    assert isinstance(tuning._distribution(optuna, floats),
                      optuna.distributions.FloatDistribution)
    results = coin(trials=3)
    assert [type(results.values(trial=n)["bias"]) for n in range(3)] == [int] * 3


def test_seat_fairness_with_unrotated_mixed_bots_warns():
    from aloftnb.playtest.metrics import SeatsNotComparableWarning

    with pytest.warns(SeatsNotComparableWarning, match="rotate_seats"):
        aloftnb.tune("balloons", {"columns": (8, 12)}, "seat_fairness", players=2,
                     bots="greedy,random", rotate_seats=False, trials=1, games_per_trial=2,
                     workers=1, progress=False)


def test_trials_do_not_depend_on_the_workers_that_play_them():
    alone = coin(trials=3, games_per_trial=40).trials
    pooled = coin(trials=3, games_per_trial=40, workers=2).trials
    pd.testing.assert_frame_equal(alone, pooled)


def test_a_dask_cluster_plays_the_same_trials():
    distributed = pytest.importorskip("distributed")
    alone = coin(trials=3, games_per_trial=40).trials
    # Threads in this process, so the coin draw registered here is found by the workers.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dasked = coin(trials=3, games_per_trial=40, executor=client.get_executor()).trials
    pd.testing.assert_frame_equal(alone, dasked)
