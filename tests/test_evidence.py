"""Stored evidence for shipped numbers (aloftnb.playtest.evidence): runs played and read back,
claims checked against known answers on a toy draw, stale runs detected, bad specs refused."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pandas as pd
import pytest

import aloftnb
from aloftnb.__main__ import main
from aloftnb.core import registry
from aloftnb.core.chance import CHANCE
from aloftnb.core.options import Option, whole_number_problem
from aloftnb.errors import AloftnbError, InvalidOptions
from aloftnb.playtest.evidence import (
    Group,
    Run,
    _claim_rows,
    _same,
    evidence_plot,
    evidence_status,
    evidence_table,
    load_groups,
    measure,
    read_run,
    replay_choice,
    replays,
)


class DrawState(NamedTuple):
    winner: int  # -1 before the draw


class DrawRules(aloftnb.Rules[DrawState, aloftnb.Action]):
    """One draw: seat 0 wins with probability edge/10, and a seat playing the "heavy" faction
    draws 0.2 better."""

    name = "evidence_draw"
    title = "Evidence draw"
    traits = aloftnb.Traits(player_counts=(2,), chance="explicit", utility="win_loss")
    phases = ("draw",)
    phase_actions = {"draw": ("draw",)}
    action_types = ("draw",)
    option_spec = {"edge": Option("edge", 5, "seat 0's chance in tenths",
                                  check=lambda v: whole_number_problem(v, 0, 10)),
                   "factions": Option("factions", None, "two faction names")}

    def configure(self) -> None:
        factions = self.options["factions"] or ["plain", "plain"]
        if not isinstance(factions, list) or len(factions) != 2:
            raise InvalidOptions("factions: two names")
        heavy = [0.2 if f == "heavy" else 0.0 for f in factions]
        self.p = min(1.0, max(0.0, self.options["edge"] / 10 + heavy[0] - heavy[1]))
        self._draws = [aloftnb.Action("draw", seat=0), aloftnb.Action("draw", seat=1)]

    def max_length(self) -> int:
        return 1

    def initial_state(self, seed: int) -> DrawState:
        return DrawState(-1)

    def current_player(self, s: DrawState) -> int | None:
        return CHANCE if s.winner < 0 else None

    def is_over(self, s: DrawState) -> bool:
        return s.winner >= 0

    def legal_actions(self, s: DrawState) -> list[aloftnb.Action]:
        return [] if s.winner >= 0 else list(self._draws)

    def chance_outcomes(self, s: DrawState) -> list[tuple[aloftnb.Action, float]]:
        return [(self._draws[0], self.p), (self._draws[1], 1 - self.p)]

    def apply(self, s: DrawState, action: aloftnb.Action) -> DrawState:
        return DrawState(action.seat)

    def scores(self, s: DrawState) -> dict[int, float]:
        return {seat: float(seat == s.winner) for seat in range(2)}

    def state_to_dict(self, s: DrawState) -> dict[str, Any]:
        return {"winner": s.winner}


@pytest.fixture(autouse=True, scope="module")
def draw_registered():
    registry.register(DrawRules)
    yield
    registry._GAMES.pop("evidence_draw")
    registry._HOOKS.pop("evidence_draw", None)


GAMES = 400


def group(name: str, claims: list[dict[str, Any]], runs: list[tuple[str, dict[str, Any]]]
          ) -> dict[str, Any]:
    return {"group": name, "game": "evidence_draw", "players": 2, "bots": "random", "seed": 4,
            "claims": claims,
            "runs": [{"name": n, "games": GAMES, "options": o} for n, o in runs]}


SPEC = {"groups": [
    group("even seats", [{"seats_within": 0.05}], [("even", {})]),
    group("seat 0 ahead", [{"seats_within": 0.05}, {"mean": "win_0", "between": [0.7, 0.9]}],
          [("ahead", {"edge": 8})]),
    group("plain pairing", [{"factions_between": [0.45, 0.55]}],
          [("ab", {"factions": ["a", "b"]}), ("ba", {"factions": ["b", "a"]})]),
    group("heavy pairing", [{"factions_between": [0.45, 0.55]}],
          [("hl", {"factions": ["heavy", "light"]}), ("lh", {"factions": ["light", "heavy"]})]),
]}


@pytest.fixture()
def evidence(tmp_path):
    (tmp_path / "measurements.json").write_text(json.dumps(SPEC))
    assert measure(tmp_path, workers=1) == ["even", "ahead", "ab", "ba", "hl", "lh"]
    return tmp_path


def claim(table, group_name: str, subject: str):
    rows = table[(table["group"] == group_name) & (table["subject"] == subject)]
    assert len(rows) == 1
    return rows.iloc[0]


def test_claims_meet_their_targets_where_the_toy_says_they_should(evidence):
    table = evidence_table(evidence)
    for seat in ("seat 0", "seat 1"):
        assert claim(table, "even seats", seat)["met"]
        assert not claim(table, "seat 0 ahead", seat)["met"]  # 0.8 and 0.2 against 0.5
    ahead = claim(table, "seat 0 ahead", "seat 0")
    assert ahead["low"] <= ahead["value"] <= ahead["high"] and 0.7 < ahead["value"] < 0.9
    assert ahead["target"] == "50.0% ± 5%"
    assert claim(table, "seat 0 ahead", "win_0")["met"]
    assert claim(table, "plain pairing", "a")["met"] and claim(table, "plain pairing", "b")["met"]
    heavy = claim(table, "heavy pairing", "heavy")
    assert heavy["games"] == 2 * GAMES and 0.62 < heavy["value"] < 0.78 and not heavy["met"]
    assert not claim(table, "heavy pairing", "light")["met"]


def test_a_stored_run_reads_back_without_its_move_lists_and_says_how_it_was_measured(evidence):
    meta, rows = read_run(evidence, "ahead")
    assert len(rows) == GAMES and "moves" not in rows and "win_0" in rows
    assert meta["options"] == {"edge": 8} and meta["seed"] == 4 and meta["bots"] == "random"
    again = aloftnb.simulate("evidence_draw", players=2, bots="random", games=GAMES, seed=4,
                             workers=1, progress=False, edge=8)
    assert list(rows["win_0"]) == list(again["win_0"])  # the same games, from their seeds


def test_stale_runs_show_when_the_data_or_the_rules_change(evidence, monkeypatch):
    status = evidence_status(evidence).set_index("run")
    assert status["stored"].all() and status["same_data"].all() and status["replays"].all()
    spec = json.loads((evidence / "measurements.json").read_text())
    spec["groups"][1]["runs"][0]["options"] = {"edge": 7}  # the shipped number moved
    spec["groups"][0]["runs"][0]["games"] = GAMES + 1
    spec["groups"][2]["runs"].append({"name": "new", "games": 10, "options": {}})
    (evidence / "measurements.json").write_text(json.dumps(spec))
    status = evidence_status(evidence).set_index("run")
    assert not status.loc["ahead", "same_data"] and not status.loc["even", "same_data"]
    assert not status.loc["ahead", "replays"]
    assert status.loc["ab", "same_data"] and status.loc["ab", "replays"]
    assert not status.loc["new", "stored"]
    # Same data, rules that play differently: the shortest game no longer replays as stored.
    monkeypatch.setattr(DrawRules, "apply", lambda self, s, a: DrawState(1 - a.seat))
    changed = evidence_status(evidence).set_index("run")
    assert changed.loc["ab", "same_data"] and not changed.loc["ab", "replays"]


def test_a_replay_plays_the_shortest_stored_game_by_its_own_index(evidence):
    """`replay_choice` picks the game with the fewest actions (the first of equals), and
    `replays` plays that game's own deal: the same row under another game's index, whose draw
    went the other way, does not replay."""
    lengths = pd.DataFrame({"game_index": [0, 1, 2, 3], "length": [5, 3, 3, 7]})
    assert replay_choice(lengths)["game_index"].tolist() == [1]
    (ab,) = [(g, r) for g in load_groups(evidence) for r in g.runs if r.name == "ab"]
    stored = read_run(evidence, "ab")[1]
    won_by_0, won_by_1 = (stored.index[stored["win_0"] == 1], stored.index[stored["win_1"] == 1])
    late = stored.loc[[won_by_0[-1]]]  # a game well after the first, seat 0 winning
    assert int(late.iloc[0]["game_index"]) > 0 and replays(*ab, late)
    other = late.copy()
    other["game_index"] = stored.loc[won_by_1[-1], "game_index"]
    assert not replays(*ab, other)


def test_replays_come_out_alike_on_one_process_or_several(evidence):
    alone = evidence_status(evidence, workers=1)
    shared = evidence_status(evidence, workers=2)
    pd.testing.assert_frame_equal(alone, shared)
    assert shared["replays"].all() and len(shared) >= 3
    with pytest.raises(AloftnbError, match="workers must be a whole number >= 1, not 0"):
        evidence_status(evidence, workers=0)


def test_a_replay_limit_leaves_the_runs_whose_games_took_longer_unplayed(evidence, monkeypatch):
    """A notebook replays only the quick runs; the slow ones say None (not replayed), whatever
    the rules now do, and the quick ones are still checked."""
    slow = evidence / "runs" / "ahead.json"
    meta = json.loads(slow.read_text())
    slow.write_text(json.dumps({**meta, "seconds": 5.0 * meta["games"]}))  # 5 s a game
    monkeypatch.setattr(DrawRules, "apply", lambda self, s, a: DrawState(1 - a.seat))
    limited = evidence_status(evidence, replay_limit=1).set_index("run")
    assert limited.loc["ahead", "replays"] is None and limited.loc["ahead", "stored"]
    assert limited.loc["ab", "replays"] == False  # noqa: E712 (replayed: the changed rules are caught)
    everything = evidence_status(evidence).set_index("run")
    assert everything.loc["ahead", "replays"] == False  # noqa: E712
    with pytest.raises(AloftnbError, match="replay_limit must be a number of seconds >= 0"):
        evidence_status(evidence, replay_limit=-1)


def test_the_command_replays_on_the_processes_it_is_given(evidence, monkeypatch, capsys):
    from aloftnb.playtest import evidence as module

    asked = []
    real = module.evidence_status

    def status(directory, *, workers=None):
        asked.append(workers)
        return real(directory, workers=workers)

    monkeypatch.setattr(module, "evidence_status", status)
    assert main(["evidence", str(evidence), "--stale", "--workers", "1"]) == 0
    assert asked == [1, 1] and "ahead" in capsys.readouterr().out


def test_the_stale_flag_plays_again_what_changed(evidence, capsys):
    spec = json.loads((evidence / "measurements.json").read_text())
    spec["groups"][1]["runs"][0]["options"] = {"edge": 7}
    (evidence / "measurements.json").write_text(json.dumps(spec))
    assert main(["evidence", str(evidence), "--stale", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "stored ahead" in out and "stored even" not in out
    assert evidence_status(evidence).set_index("run").loc["ahead", "same_data"]


@pytest.mark.parametrize("spec, message", [
    ({"groups": [{"group": "g"}]}, "KeyError"),
    ({"groups": [group("g", [{"fairest": 1}], [("x", {})])]}, "a claim is seats_within"),
    ({"groups": [group("g", [], [("x", {}), ("x", {})])]}, "x repeat"),
    ("not json {", "JSONDecodeError"),
    ({"groups": [dict(group("g", [], [("x", {})]), role="hope")]}, "role is one of target, check"),
])
def test_a_malformed_spec_is_refused_naming_the_problem(tmp_path, spec, message):
    text = spec if isinstance(spec, str) else json.dumps(spec)
    (tmp_path / "measurements.json").write_text(text)
    with pytest.raises(AloftnbError, match=message):
        load_groups(tmp_path)


def test_an_unknown_run_is_refused_before_anything_is_played(tmp_path):
    (tmp_path / "measurements.json").write_text(json.dumps(SPEC))
    with pytest.raises(AloftnbError, match="no run named nope"):
        measure(tmp_path, ["even", "nope"])
    assert not (tmp_path / "runs" / "even.json").exists()


def test_the_command_plays_what_is_missing_and_prints_the_claims(tmp_path, capsys):
    small = {"groups": [dict(SPEC["groups"][1], runs=[{"name": "ahead", "games": 50,
                                                      "options": {"edge": 8}}])]}
    (tmp_path / "measurements.json").write_text(json.dumps(small))
    assert main(["evidence", str(tmp_path), "--missing", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "stored ahead" in out and "seat share" in out and "win_0 between" in out
    assert main(["evidence", str(tmp_path), "--missing"]) == 0  # nothing left to play
    assert "stored ahead" not in capsys.readouterr().out


def test_the_plot_draws_every_claim_with_its_target_band(evidence):
    table = evidence_table(evidence)
    figures = evidence_plot(table).children[1:]  # after the title
    assert [f.title.text for f in figures] == list(dict.fromkeys(table["group"]))
    heavy = figures[-1]
    assert set(heavy.y_range.factors) == {"heavy", "light"}
    colours = {c for f in figures for c in f.renderers[0].data_source.data["colour"]}
    assert colours == {"#2ca02c", "#d62728"}  # some met, some not
    for f in figures:  # one shared axis holds every interval and band
        data = f.renderers[0].data_source.data
        assert f.x_range is figures[0].x_range
        assert max(data["high"]) <= f.x_range.end and min(data["target_low"]) >= f.x_range.start


def test_a_check_group_says_so_and_its_misses_are_disagreements_not_failures(tmp_path):
    """A check asks a group's claims of another player: its rows carry the role, and the plot
    titles it a check and draws its misses orange, not red."""
    checked = dict(SPEC["groups"][1], group="seat 0 ahead, checked", role="check",
                   runs=[{"name": "ahead-checked", "games": GAMES, "options": {"edge": 8}}])
    (tmp_path / "measurements.json").write_text(json.dumps(
        {"groups": [SPEC["groups"][1], checked]}))
    measure(tmp_path, workers=1)
    table = evidence_table(tmp_path)
    assert set(table[table["group"] == "seat 0 ahead"]["role"]) == {"target"}
    assert set(table[table["group"] == "seat 0 ahead, checked"]["role"]) == {"check"}
    target, check = evidence_plot(table).children[1:]
    assert target.title.text == "seat 0 ahead"
    assert check.title.text == "seat 0 ahead, checked (a check)"
    long = dict(checked, group="a group whose name runs on " * 4)
    (tmp_path / "measurements.json").write_text(json.dumps({"groups": [long]}))
    title = evidence_plot(evidence_table(tmp_path)).children[1].title.text
    assert "\n" in title and title.endswith("(a check)")  # wrapped, so the end still shows
    missed = {"seat 0", "seat 1"}  # an edge of 0.8 puts both seats far from a half
    for fig, colour in ((target, "#d62728"), (check, "#ff7f0e")):
        data = fig.renderers[0].data_source.data
        assert {c for s, c in zip(data["subject"], data["colour"]) if s in missed} == {colour}


def test_claims_of_runs_not_yet_played_are_listed_as_not_measured(tmp_path):
    (tmp_path / "measurements.json").write_text(json.dumps(SPEC))
    measure(tmp_path, ["even"], workers=1)
    table = evidence_table(tmp_path)
    assert claim(table, "even seats", "seat 0")["met"] is True
    waiting = table[table["group"] == "seat 0 ahead"]
    assert len(waiting) == 3 and waiting["met"].isna().all() and (waiting["games"] == 0).all()
    drawn = evidence_plot(table).children[1:]  # only what was measured is drawn
    assert [f.title.text for f in drawn] == ["even seats"]


def test_a_bot_claim_counts_the_seats_each_run_gives_that_bot(tmp_path):
    # The draw ignores the bots, so a bot's share is the share of its seats: with edge 8 the bot
    # in seat 0 of the first run and seat 1 of the second wins 0.8 and 0.2 of them, 0.5 in all.
    spec = {"groups": [dict(group("who sits where", [{"bot": "greedy", "between": [0.45, 0.55]},
                                                      {"bot": "random", "between": [0.6, 1.0]}],
                                  [("gr", {"edge": 8}), ("rg", {"edge": 8})]))]}
    spec["groups"][0]["runs"][0]["bots"] = "greedy,random"
    spec["groups"][0]["runs"][1]["bots"] = "random,greedy"
    (tmp_path / "measurements.json").write_text(json.dumps(spec))
    measure(tmp_path, workers=1)
    assert read_run(tmp_path, "rg")[0]["bots"] == "random,greedy"
    table = evidence_table(tmp_path)
    greedy = claim(table, "who sits where", "greedy")
    assert greedy["games"] == 2 * GAMES and greedy["met"] and 0.45 < greedy["value"] < 0.55
    assert not claim(table, "who sits where", "random")["met"]
    assert evidence_status(tmp_path)["replays"].all()


def test_a_shared_win_is_split_between_the_factions_that_share_it(tmp_path):
    rows = pd.DataFrame({"win_0": [1, 1, 0, 1], "win_1": [0, 1, 1, 1]})  # two shared wins
    runs = [(Run("x", 4, {"factions": ["a", "b"]}), rows)]
    g = Group("g", "evidence_draw", 2, "random", 0, ({"factions_between": [0.45, 0.55]},), ())
    shares = {r["subject"]: r["value"] for r in _claim_rows(g, g.claims[0], runs)}
    assert shares == {"a": 0.5, "b": 0.5}


def test_a_game_nobody_won_replays_although_csv_reads_its_empty_winners_back_as_nan():
    assert _same("", float("nan")) and _same(8, 8.0) and _same("0 1", "0 1")
    assert not _same("", "0") and not _same(3, 4.0) and not _same("a", "b")


def test_a_run_whose_name_holds_a_dot_reads_back(tmp_path):
    spec = {"groups": [group("dotted", [{"seats_within": 0.05}], [("draw-v1.5", {})])]}
    (tmp_path / "measurements.json").write_text(json.dumps(spec))
    measure(tmp_path, workers=1)
    assert read_run(tmp_path, "draw-v1.5")[0]["name"] == "draw-v1.5"
    assert claim(evidence_table(tmp_path), "dotted", "seat 0")["games"] == GAMES
