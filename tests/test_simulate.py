"""simulate(): rows, determinism whatever the workers, executors (Dask too), Ctrl-C, error rows,
and replaying any row as a Match."""

from __future__ import annotations

import concurrent.futures as cf
import io
import json
import math
import random

import pandas as pd
import pytest

import aloftnb
from aloftnb.core.bots import Bot, RandomBot
from aloftnb.core.registry import games as list_games
from aloftnb.playtest import results_match, simulate
from aloftnb.playtest.progress import ProgressBar
from aloftnb.playtest.runner import game_seed

QUIET = dict(progress=False)


@pytest.fixture(scope="module")
def results():
    return simulate("balloons", players=3, games=40, seed=7, workers=1, **QUIET)


def test_one_row_per_game_with_the_documented_columns(results):
    assert list(results["game_index"]) == list(range(40))
    for column in ("seed", "game", "players", "options", "bots", "bot_0", "bot_2", "score_0",
                   "score_2", "win_0", "win_2", "winners", "length", "branching",
                   "lead_changes", "score_spread", "unlaunched", "formation_width",
                   "positions", "error", "moves"):
        assert column in results, column
    assert (results["error"] == "").all()
    assert set(results["bots"]) == {"random,random,random"}
    assert results.attrs["game"] == "balloons" and results.attrs["seed"] == 7
    row = results.iloc[0]
    assert row["seed"] == game_seed(7, 0)
    scores = [row[f"score_{s}"] for s in range(3)]
    winners = [int(w) for w in row["winners"].split()]
    assert winners == [s for s in range(3) if scores[s] == max(scores)]
    assert [row[f"win_{s}"] for s in range(3)] == [int(s in winners) for s in range(3)]
    assert row["length"] == len(row["moves"].split())
    assert row["score_spread"] == max(scores) - min(scores)


def test_same_seed_same_results_and_another_seed_differs(results):
    again = simulate("balloons", players=3, games=40, seed=7, workers=1, **QUIET)
    pd.testing.assert_frame_equal(results, again)
    other = simulate("balloons", players=3, games=40, seed=8, workers=1, **QUIET)
    assert not other["moves"].equals(results["moves"])


def test_results_do_not_depend_on_workers_or_chunks(results):
    two = simulate("balloons", players=3, games=40, seed=7, workers=2, chunk_size=3, **QUIET)
    pd.testing.assert_frame_equal(results, two)
    with cf.ThreadPoolExecutor(3) as pool:
        threaded = simulate("balloons", players=3, games=40, seed=7, executor=pool, **QUIET)
    pd.testing.assert_frame_equal(results, threaded)


def test_a_prefix_of_games_is_the_same_games(results):
    first = simulate("balloons", players=3, games=10, seed=7, workers=1, **QUIET)
    pd.testing.assert_frame_equal(first, results.iloc[:10])


def test_dask_distributed_executor_gives_the_same_results(results):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dasked = simulate("balloons", players=3, games=40, seed=7, executor=client.get_executor(),
                          **QUIET)
    pd.testing.assert_frame_equal(results, dasked)


def test_keyboard_interrupt_returns_the_finished_games(results):
    def stop_after_twelve(done, total):
        assert total == 40
        if done >= 12:
            raise KeyboardInterrupt

    with pytest.warns(UserWarning, match="interrupted"):
        partial = simulate("balloons", players=3, games=40, seed=7, workers=1,
                           progress=stop_after_twelve)
    assert partial.attrs["interrupted"] is True
    pd.testing.assert_frame_equal(partial, results.iloc[:12])


def test_keyboard_interrupt_with_an_executor_keeps_finished_chunks(results):
    calls = []

    def stop_at_once(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with cf.ThreadPoolExecutor(2) as pool, pytest.warns(UserWarning, match="interrupted"):
        partial = simulate("balloons", players=3, games=40, seed=7, executor=pool,
                           chunk_size=5, progress=stop_at_once)
    assert partial.attrs["interrupted"] is True
    assert 5 <= len(partial) < 40 and calls == [5]
    for _, row in partial.iterrows():  # every kept game is whole and the one of its index
        expected = results.iloc[row["game_index"]]
        assert row["moves"] == expected["moves"] and row["score_0"] == expected["score_0"]


class ExplodingBot(Bot):
    name = "exploding"

    def __init__(self, after: int = 3) -> None:
        self.after = after

    def choose(self, rules, state, seat, rng):
        if state.turn >= self.after:
            raise RuntimeError("boom")
        return RandomBot().choose(rules, state, seat, rng)


class CheatingBot(Bot):
    name = "cheating"

    def choose(self, rules, state, seat, rng):
        return rules.parse_action({"type": "pass"})  # never legal while a balloon can advance


def test_a_bot_that_raises_gives_an_error_row_and_the_run_goes_on():
    df = simulate("balloons", players=3, bots=["random", ExplodingBot(), "random"], games=5,
                  seed=1, workers=1, **QUIET)
    assert len(df) == 5
    assert df["error"].str.contains("seat 1 \\(exploding\\) raised RuntimeError: boom").all()
    assert (df["error_seat"] == 1).all()
    assert df["score_0"].isna().all()
    match = results_match(df, 0)  # replays up to the failing decision
    assert match.current_player == 1 and match.state.turn >= 3 and not match.is_over


def test_a_bot_that_plays_an_illegal_action_gives_an_error_row():
    df = simulate("balloons", players=2, bots=["random", CheatingBot()], games=3, seed=1,
                  workers=1, **QUIET)
    assert df["error"].str.contains("seat 1 \\(cheating\\) chose .*not a legal action").all()
    assert (df["length"] == 1).all()


def test_error_rows_are_left_out_of_metrics_but_counted():
    df = simulate("balloons", players=3, bots=["random", ExplodingBot(after=10**9), "random"],
                  games=4, seed=2, workers=1, **QUIET)
    assert (df["error"] == "").all()  # the bot only explodes late: no error here
    metrics = aloftnb.design_metrics(df)
    assert metrics.loc["error_rate", "value"] == 0.0


def test_replay_any_row_as_a_match(results):
    for index in (0, 17, 39):
        row = results.iloc[index]
        match = results_match(results, index)
        assert match.is_over and match.seed == row["seed"]
        assert match.position == row["length"]
        assert match.scores() == {s: row[f"score_{s}"] for s in range(3)}
        match.goto(0)  # step through it from the start
        assert match.state.turn == 0
        match.goto(5)
        assert match.position == 5


def test_replay_works_on_results_read_back_from_csv(results, tmp_path):
    path = tmp_path / "results.csv"
    results.to_csv(path, index=False)
    loaded = pd.read_csv(path, keep_default_na=False, na_values=[""])
    match = results_match(loaded, 3)
    assert match.scores() == results_match(results, 3).scores()


def test_replay_refuses_rows_from_other_rules(results):
    tampered = results.copy()
    tampered.loc[2, "score_0"] = 999.0
    with pytest.raises(ValueError, match="other rules"):
        results_match(tampered, 2)
    tampered.loc[4, "moves"] = "0 0 99 0"
    with pytest.raises(ValueError, match="move 3: '99' is not one of"):
        results_match(tampered, 4)
    with pytest.raises(ValueError, match="row must be"):
        results_match(results, 40)
    with pytest.raises(ValueError, match="no 'moves' column"):
        results_match(results.drop(columns=["moves"]), 0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="chess", players=2), "no game called 'chess'"),
    (dict(game="balloons", players=3, colour="red"), "no option 'colour'"),
    (dict(game="balloons", players=3, bots=["random", "random"]), "3 players need 3 bots"),
    (dict(game="balloons", players=3, games=-1), "games must be"),
    (dict(game="balloons", players=3, seed=-5), "seed must be"),
    (dict(game="balloons", players=3, workers=0), "workers must be"),
    (dict(game="balloons"), "needs players"),
])
def test_bad_input_is_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate(**kwargs, **QUIET)


def test_players_can_come_from_the_bot_list_and_options_apply():
    df = simulate("balloons", bots=["greedy", "random"], games=3, seed=1, workers=1,
                  edition="choice", **QUIET)
    assert set(df["players"]) == {2}
    assert json.loads(df["options"][0])["edition"] == "choice"
    assert set(df["bot_0"]) == {"greedy"}


@pytest.mark.parametrize("game", [g["name"] for g in list_games()])
def test_every_registered_game_simulates_and_replays(game):
    players = {"balloons": 3, "commodores": 3}.get(game, 2)
    df = simulate(game, players=players, games=6, seed=3, workers=1, **QUIET)
    assert (df["error"] == "").all(), df["error"].tolist()
    assert df["length"].min() > 0
    match = results_match(df, 5)
    assert match.is_over
    assert [int(w) for w in df["winners"][5].split()] == match.winners()


def test_progress_bar_in_a_log_prints_one_closing_line():
    stream = io.StringIO()
    bar = ProgressBar(20, stream=stream, notebook=False)
    for done in range(1, 21):
        bar.update(done)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("[" + "#" * 30 + "] 20/20 games done in")


def test_progress_bar_on_a_terminal_redraws_one_line():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    bar = ProgressBar(4, stream=stream, notebook=False, min_interval=0)
    bar.update(2)
    bar.close(interrupted=True)
    text = stream.getvalue()
    assert text.startswith("\r[" + "#" * 15 + "." * 15 + "] 2/4 games")
    assert "(interrupted)" in text and text.endswith("\n")


def test_no_game_seed_collisions_in_a_large_run():
    seeds = {game_seed(0, i) for i in range(100_000)}
    assert len(seeds) == 100_000
    assert all(0 <= s < 2**63 for s in random.Random(0).sample(sorted(seeds), 100))
    assert not math.isnan(float(min(seeds)))


def test_a_bot_class_defined_in_a_notebook_cell_runs_in_worker_processes(monkeypatch, results):
    """In a notebook a bot class lives in __main__; forkserver workers could not load it."""
    import sys

    class CellBot(RandomBot):
        name = "cellbot"

    CellBot.__module__ = "__main__"
    CellBot.__qualname__ = "CellBot"
    monkeypatch.setattr(sys.modules["__main__"], "CellBot", CellBot, raising=False)
    bots = [CellBot(), "random", "random"]
    here = simulate("balloons", players=3, bots=bots, games=12, seed=7, workers=1, **QUIET)
    two = simulate("balloons", players=3, bots=bots, games=12, seed=7, workers=2, **QUIET)
    assert (two["error"] == "").all()
    assert two.equals(here)
    assert list(two["bot_0"].unique()) == ["cellbot"]


def test_a_measures_hook_sees_only_finished_games(monkeypatch):
    """A hook may assume the game is over: error rows skip it and keep their place in the run."""
    from aloftnb.games.balloons.metrics import BalloonsHooks

    original = BalloonsHooks.measures

    def finished_only(self, rules, state):
        assert rules.is_over(state), "measures called on an unfinished game"
        return original(self, rules, state)

    monkeypatch.setattr(BalloonsHooks, "measures", finished_only)
    df = simulate("balloons", players=3, bots=["random", ExplodingBot(after=2), "random"],
                  games=3, seed=4, workers=1, **QUIET)
    assert len(df) == 3 and df["error"].str.contains("boom").all()
    assert "unlaunched" not in df or df["unlaunched"].isna().all()


def test_lead_changes_are_counted_after_each_full_round():
    """ALU turns hold several actions: the leader is compared only when a round has ended."""
    df = simulate("alu", players=2, games=20, seed=1, workers=1, **QUIET)
    rules = aloftnb.make_rules("alu", 2)
    for i in range(len(df)):
        match = results_match(df, i)
        leader, changes = None, 0
        for position in range(1, match.position + 1):
            before, after = match.state_at(position - 1), match.state_at(position)
            seat = rules.current_player(before)
            if not (rules.is_over(after) or (seat == 1 and rules.current_player(after) != 1)):
                continue
            scores = rules.scores(after)
            top = [p for p, v in scores.items() if v == max(scores.values())]
            if len(top) == 1:
                changes += leader is not None and top[0] != leader
                leader = top[0]
        assert df.loc[i, "lead_changes"] == changes, i


def test_error_rows_keep_the_measure_columns_empty():
    df = simulate("balloons", players=3, bots=["random", ExplodingBot(after=2), "random"],
                  games=2, seed=4, workers=1, **QUIET)
    assert df["unlaunched"].isna().all() and df["formation_width"].isna().all()


def test_one_worker_builds_the_rules_once_not_once_per_game(monkeypatch):
    # Building a game's rules reads its data and tables (5 ms for sky commodores, half a game):
    # a sequential run plays every game with one rules object.
    from aloftnb.playtest import runner

    built = []
    original = runner.GameSpec.rules
    monkeypatch.setattr(runner.GameSpec, "rules",
                        lambda spec: built.append(spec.game) or original(spec))
    df = simulate("balloons", players=3, games=6, seed=3, workers=1, **QUIET)
    assert len(df) == 6 and (df["error"] == "").all()
    assert built == ["balloons"]


def test_a_search_in_a_simulation_asks_the_rules_not_the_runners_one_state_cache():
    """The runner remembers the last state's legal actions for itself and the bot's first look;
    a search asks for millions of states once each, so it calls the rules' own method (through
    the cache, each call costs a copy and a Python frame: a sixth of a Cloudspire search)."""
    from aloftnb.core.bots import MCTSBot
    from aloftnb.playtest.runner import GameSpec, worker_rules

    rules = worker_rules(GameSpec("balloons", 3, {}, (RandomBot(),) * 3))
    asked = {"own": 0}
    own = rules.legal_actions.uncached

    def counted(state):
        asked["own"] += 1
        return own(state)

    rules.legal_actions.uncached = counted
    state = rules.initial_state(3)
    while rules.is_chance(state):
        state = rules.apply(state, rules.sample_chance(state, random.Random(0)))
    plain = aloftnb.make_rules("balloons", 3)
    chosen = MCTSBot(iterations=30).choose(rules, state, rules.current_player(state),
                                           random.Random(1))
    assert asked["own"] > 30  # every step of every iteration's walk
    # and the cache changes nothing: the same move as on rules without it
    assert chosen == MCTSBot(iterations=30).choose(plain, state, plain.current_player(state),
                                                   random.Random(1))
