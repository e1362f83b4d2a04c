"""Every stored evidence run's shortest game still ends as it is stored, on today's rules and data.

The balancing notebook replays only the runs whose games are quick (a reader is waiting); this
replays them all, one test a run so that the runs spread over pytest's processes. A failure
means the rules or data changed what the stored figures measured: `python -m aloftnb evidence
--stale` measures those runs again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aloftnb.playtest.evidence import (
    load_groups,
    measured_as_asked,
    read_meta,
    read_run,
    replay_choice,
    replays,
    seconds_a_game,
)

EVIDENCE = Path(__file__).resolve().parents[1] / "evidence"
RUNS = [(group, run) for group in load_groups(EVIDENCE) for run in group.runs
        if (EVIDENCE / "runs" / f"{run.name}.json").exists()]
# The slowest start first, so that no long one is left to run alone at the end.
RUNS.sort(key=lambda pair: -seconds_a_game(pair[1], read_meta(EVIDENCE, pair[1].name)))


def test_the_evidence_has_runs_to_replay():
    assert len(RUNS) >= 50


@pytest.mark.parametrize(("group", "run"), RUNS, ids=[run.name for _, run in RUNS])
def test_the_shortest_game_of_a_stored_run_replays_as_stored(group, run):
    meta, stored = read_run(EVIDENCE, run.name)
    assert measured_as_asked(group, run, meta), f"{run.name} was stored under another spec"
    chosen = replay_choice(stored)
    assert len(chosen) == 1 and chosen.iloc[0]["length"] == stored["length"].min()
    assert replays(group, run, chosen), (
        f"{run.name}'s game {chosen.iloc[0]['game_index']} no longer ends as stored: the "
        "figures may have moved")
