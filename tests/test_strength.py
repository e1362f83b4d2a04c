"""The strength command's parts: budgets made equal, wins credited, intervals judged. Small
budgets only: the figures themselves come from `python -m aloftnb strength`."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pandas as pd
import pytest

from aloftnb.core.bots import make_bot
from aloftnb.errors import AloftnbError
from aloftnb.playtest.strength import (
    CASES,
    StrengthCase,
    credit,
    measure_case,
    move_seconds,
    pairs,
    timed,
    verdict,
)


def test_timed_gives_every_search_the_same_seconds_and_keeps_its_settings():
    assert timed("mcts:1000:mast:e0.1:cut8", 0.25) == "mcts:0.25s:mast:e0.1:cut8"
    assert timed("mcts:400:c1.2:w2", 0.5) == "mcts:0.5s:c1.2:w2"
    assert timed("uct:400", 0.25) == "uct:0.25s"
    assert timed("uct:400:c1.4", 0.25) == "uct:0.25s:c1.4"
    assert timed("greedy", 0.25) == "greedy"
    assert make_bot(timed("mcts", 0.1)).seconds == 0.1
    assert make_bot(timed("mcts", 0.1)).iterations is None


def test_the_time_per_move_is_the_candidates_own_budget_when_that_is_less():
    assert move_seconds("mcts") == 0.25
    assert move_seconds("mcts:0.1s") == 0.1
    assert move_seconds("mcts:2s") == 0.25
    assert move_seconds("mcts:2s", seconds=1.0) == 1.0


def test_a_shared_win_counts_a_share_and_unfinished_games_do_not_count():
    results = pd.DataFrame({
        "error": ["", "", "", "boom"],
        "bot_0": ["a", "b", "a", "a"], "bot_1": ["b", "a", "b", "b"],
        "win_0": [1, 0, 1, 1], "win_1": [0, 1, 1, 0]})
    assert credit(results, "a") == (2.5, 3)
    assert credit(results, "b") == (0.5, 3)


def test_the_verdict_reads_the_whole_interval():
    assert verdict(0.66, 0.80, 0.65) == "met"
    assert verdict(0.40, 0.60, 0.65) == "short"
    assert verdict(0.55, 0.75, 0.65) == "unclear"
    assert verdict(math.nan, math.nan, 0.65) == "unclear"


def test_every_competitive_case_meets_the_issues_game_counts_and_solo_plays_uct_only():
    for case in CASES:
        wanted = 100 if case.game in ("balloons", "alu") else 60
        assert case.games >= wanted, case
    assert {c.game for c in CASES} == {"balloons", "alu", "commodores", "cloudspire"}
    solo = next(c for c in CASES if not c.rivals)
    assert [o for _, o in pairs([solo], ["uct", "greedy", "openspiel-mcts"])] == ["uct"]


def test_a_case_rotates_the_candidate_through_every_seat():
    case = StrengthCase("balloons", 3, "tiny", 3, {"edition": "fixed"})
    row = measure_case(case, "greedy", candidate="mcts:0.01s", seconds=0.01, workers=1)
    assert row["candidate"] == "mcts:0.01s" and row["opponent"] == "greedy"
    assert row["games"] == 3 and row["fair"] == pytest.approx(1 / 3)
    assert row["low"] <= row["share"] <= row["high"]
    assert row["target"] == pytest.approx(1.6 / 3)
    assert row["verdict"] in ("met", "short", "unclear")


def test_solo_sets_the_two_bots_win_rates_side_by_side():
    case = StrengthCase("balloons", 1, "tiny solo", 2, {"mode": "solo"})
    row = measure_case(case, "uct", candidate="mcts:0.01s", seconds=0.01, workers=1)
    assert row["games"] == 2 and 0 <= row["opponent_share"] <= 1
    assert row["verdict"] in ("better", "worse", "unclear")


def test_the_same_bot_on_both_sides_is_refused():
    case = StrengthCase("alu", 2, "tiny", 2)
    with pytest.raises(AloftnbError, match="same bot"):
        measure_case(case, "uct:0.01s", candidate="uct:0.01s", seconds=0.01, workers=1)


def test_the_command_prints_a_row_per_case_and_opponent(tmp_path):
    out = tmp_path / "rows.csv"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run(
        [sys.executable, "-m", "aloftnb", "strength", "--game", "alu", "--opponent", "greedy",
         "--candidate", "mcts:0.01s", "--seconds", "0.01", "--games", "2", "--workers", "1",
         "--out", str(out)], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [(r["case"], r["opponent"]) for r in rows] == [("ALU", "greedy")]
    assert rows[0]["games"] == 2 and "verdict" in done.stdout.splitlines()[-2]
    assert len(pd.read_csv(out)) == 1
