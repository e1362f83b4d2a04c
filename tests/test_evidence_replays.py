"""Every stored evidence run's first game still ends as it is stored, on today's rules and data.

The balancing notebook replays only the runs whose games are quick (a reader is waiting); this
replays them all, one test a run so that the runs spread over pytest's processes. A failure
means the rules or data changed what the stored figures measured: `python -m aloftnb evidence
--stale` measures those runs again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aloftnb.playtest.evidence import load_groups, read_run, replays

EVIDENCE = Path(__file__).resolve().parents[1] / "evidence"
RUNS = [(group, run) for group in load_groups(EVIDENCE) for run in group.runs
        if (EVIDENCE / "runs" / f"{run.name}.json").exists()]


def _seconds_a_game(run) -> float:
    meta, _ = read_run(EVIDENCE, run.name)
    return float(meta.get("seconds") or 0) / max(run.games, 1)


RUNS.sort(key=lambda pair: -_seconds_a_game(pair[1]))  # the slowest start first


def _recorded_as_asked(group, run, meta) -> bool:
    """The stored run was played with the games, seed, bots and options the spec asks for (as
    evidence_status checks before it replays)."""
    return (meta.get("games") == run.games and meta.get("seed") == group.seed
            and meta.get("bots") == run.bots_of(group) and meta.get("options") == run.options)


def test_the_evidence_has_runs_to_replay():
    assert len(RUNS) >= 50


@pytest.mark.parametrize(("group", "run"), RUNS, ids=[run.name for _, run in RUNS])
def test_the_first_game_of_a_stored_run_replays_as_stored(group, run):
    meta, stored = read_run(EVIDENCE, run.name)
    assert _recorded_as_asked(group, run, meta), f"{run.name} was stored under another spec"
    assert replays(group, run, stored.iloc[:1]), (
        f"{run.name}'s first game no longer ends as stored: the figures may have moved")
