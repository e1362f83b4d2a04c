"""The command line: `aloftnb simulate ...`, `aloftnb bench`, `aloftnb games`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from aloftnb.__main__ import main
from aloftnb.playtest import results_match


def test_simulate_writes_csv_and_report(tmp_path, capsys):
    out, html = tmp_path / "results.csv", tmp_path / "report.html"
    code = main(["simulate", "balloons", "--players", "3", "--bots", "greedy,random,random",
                 "--games", "12", "--seed", "4", "--workers", "1", "--out", str(out),
                 "--report", str(html)])
    assert code == 0
    printed, progress = capsys.readouterr()
    assert "12 games of balloons (3 players, bots greedy,random,random), 0 with errors" in printed
    assert "win_rate_seat_0" in printed and f"results: {out}" in printed
    assert "12/12 games done" in progress  # the progress bar's closing line
    results = pd.read_csv(out, keep_default_na=False, na_values=[""])
    assert len(results) == 12 and set(results["bot_0"]) == {"greedy"}
    assert results_match(results, 11).is_over
    assert "<script" in html.read_text() and "Final positions" in html.read_text()


def test_simulate_options_are_read_as_json_or_text(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["simulate", "balloons", "--players", "2", "--games", "3", "--no-progress",
                 "-o", "edition=choice", "-o", "columns=10", "--workers", "1",
                 "--out", str(out)]) == 0
    options = json.loads(pd.read_csv(out)["options"][0])
    assert options["edition"] == "choice" and options["columns"] == 10
    assert capsys.readouterr().err == ""  # --no-progress: nothing on stderr


def test_bad_input_exits_2_with_a_message(capsys):
    assert main(["simulate", "balloons", "--players", "3", "--bots", "nope", "--games", "2",
                 "--no-progress"]) == 2
    assert "aloftnb: error: no bot called 'nope'" in capsys.readouterr().err
    assert main(["simulate", "balloons", "--players", "9", "--games", "2", "--no-progress"]) == 2
    assert "not 9" in capsys.readouterr().err


def test_games_lists_the_registered_games(capsys):
    assert main(["games"]) == 0
    names = [g["name"] for g in json.loads(capsys.readouterr().out)]
    assert "balloons" in names


def test_timed_rounds_take_turns_and_add_up():
    """A comparison's loops take turns in rounds, each going on with its own next game, and
    each one's games, summed results and seconds add up over the rounds."""
    from aloftnb import benchmark as cli

    calls = []

    def play(name):
        def one(i):
            calls.append((name, i))
            return 2
        return one

    timed = cli._timed_rounds({"a": play("a"), "b": play("b")}, 0.009, rounds=3)
    names = [name for name, _ in calls]
    switches = sum(1 for x, y in zip(names, names[1:]) if x != y)
    assert names[0] == "a" and switches == 5  # a, b, a, b, a, b
    for name in ("a", "b"):
        games, steps, seconds = timed[name]
        assert [i for n, i in calls if n == name] == list(range(games))
        assert steps == 2 * games and 0 < seconds


def test_timed_rounds_start_each_loop_at_the_first_game_given():
    from aloftnb import benchmark as cli

    seen = []
    cli._timed_rounds({"a": lambda i: seen.append(i) or 1}, 0.003, rounds=3, first=500)
    assert seen[0] == 500 and seen == list(range(500, 500 + len(seen)))


def test_a_builds_process_times_yardstick_fast_path_and_mcts_in_turns(monkeypatch):
    """build_counts times the yardstick and each game's fast path and MCTS in rounds that take
    turns, so a drift in the machine's speed meets a game's figures and the yardstick alike."""
    pytest.importorskip("pyspiel")
    from aloftnb import benchmark as cli

    order = []

    def timed_loop(play, seconds, first=0):
        order.append(getattr(play, "name", None))
        return 1, 10, seconds

    real_playout, real_searches = cli._random_playout, cli._mcts_searches

    def named(kind, real):
        def make(rules, *rest):
            play = real(rules, *rest)

            def wrapped(i):
                return play(i)
            wrapped.name = f"{rules.name} {kind}"
            return wrapped
        return make

    monkeypatch.setattr(cli, "_timed_loop", timed_loop)
    monkeypatch.setattr(cli, "_random_playout", named("fast", real_playout))
    monkeypatch.setattr(cli, "_mcts_searches", named("mcts", real_searches))
    counts = cli.build_counts(0.6, yardstick=True, rounds=2)
    games = [game for game, _ in cli.ADAPTER_GAMES]
    one_round = [None] + [f"{game} {kind}" for game in games for kind in ("fast", "mcts")]
    assert order == one_round * 2
    for game in games:
        assert counts[game]["actions"] == 20 and counts[game]["iterations"] == 20
        assert counts[game]["actions_s"] == pytest.approx(0.6)
        assert counts[game]["iterations_s"] == pytest.approx(0.6)
    assert counts["yardstick"] == {"actions": 20, "actions_s": pytest.approx(0.6)}


def test_bench_prints_one_json_line_per_measure():
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run([sys.executable, "-m", "aloftnb", "bench", "--quick"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    measures = [line["measure"] for line in lines]
    assert measures[0] == "machine"
    assert "balloons_random_games_per_s_fast_path" in measures
    assert "balloons_random_games_per_s_match" in measures
    for game in ("balloons", "alu"):  # each adapter next to the fast path
        for path in ("fast_path", "openspiel", "pettingzoo"):
            assert f"{game}_random_actions_per_s_{path}" in measures
        for ratio in ("openspiel_adapter_ratio", "pettingzoo_ratio"):  # their share of it
            line = lines[measures.index(f"{game}_{ratio}")]
            assert line["unit"] == "x fast path" and isinstance(line["meets_target"], bool)
        assert f"{game} " in done.stderr and "of it, target" in done.stderr
        for adapter in ("openspiel", "pettingzoo"):  # the floor under each adapter's loop
            line = lines[measures.index(f"{game}_{adapter}_floor_us")]
            assert line["value"] > 0 and line["legal"] >= 1
    assert "the floor's loop" in done.stderr and "the rest" in done.stderr
    assert any(m.startswith("balloons_300_random_games_wall_s") for m in measures)
    # an MCTS decision in every game, mode and player count
    from aloftnb.benchmark import MCTS_BUDGETS
    mcts = [m for m in measures if "_mcts_" in m and m.endswith("_s_per_move")]
    assert len(mcts) == len(MCTS_BUDGETS) == len(set(mcts))
    assert {"balloons_3p_mcts_100_iterations_s_per_move", "cloudspire_solo_1p_mcts_100_iterations"
            "_s_per_move", "commodores_two_players_2p_mcts_100_iterations_s_per_move",
            "cloudspire_cooperative_3p_mcts_100_iterations_s_per_move"} <= set(mcts)
    # both searches' iterations per second on the same decisions, in each of them
    for search in ("uct", "mcts"):
        rates = [line for line in lines if line["measure"].endswith(f"_{search}_iterations_per_s")]
        assert len(rates) == len(MCTS_BUDGETS)
        assert all(r["value"] > 0 and r["bot"].startswith(search) for r in rates)
    # the yardstick, then each game in the pure and the compiled build and its ratio to it
    yardstick = measures.index("openspiel_connect_four_random_actions_per_s")
    for game in ("balloons", "alu", "commodores", "cloudspire"):
        for measure in ("random_actions_per_s_pure", "random_actions_per_s_compiled",
                        "compiled_speedup", "mcts_iterations_per_s_pure",
                        "mcts_iterations_per_s_compiled", "mcts_compiled_speedup",
                        "openspiel_cpp_ratio"):
            assert measures.index(f"{game}_{measure}") > yardstick
        # divided by the yardstick timed in the same processes as the game
        ratio = lines[measures.index(f"{game}_openspiel_cpp_ratio")]
        compiled = lines[measures.index(f"{game}_random_actions_per_s_compiled")]
        assert ratio["yardstick"] > 0
        assert abs(ratio["value"] - compiled["value"] / ratio["yardstick"]) < 1e-3
        # MCTS's gain from compiling, against the fast path's as its target
        engine = lines[measures.index(f"{game}_compiled_speedup")].get("value")
        if engine is not None:  # (None: no compiled build here)
            mcts = lines[measures.index(f"{game}_mcts_compiled_speedup")]
            assert mcts["target"].startswith(f">= {game}_compiled_speedup")
            assert isinstance(mcts["meets_target"], bool)
            if abs(mcts["value"] - engine) > 1e-3:  # (apart by more than the rounding)
                assert mcts["meets_target"] is (mcts["value"] > engine)
    assert f"{game} (2 players): pure " in done.stderr  # the same figures in words
    # cloudspire: fast path, games on two workers
    assert "cloudspire_random_games_per_s_fast_path" in measures
    assert "cloudspire_100_random_games_wall_s_2_workers" in measures
    for game in ("balloons", "alu", "commodores", "cloudspire"):  # one tuning trial each
        assert f"{game}_tune_one_trial_5_games_wall_s" in measures
    for line in lines[1:]:  # a figure, or a reason why there is none
        assert (isinstance(line["value"], float) and line["value"] > 0) or line.get("skipped")
