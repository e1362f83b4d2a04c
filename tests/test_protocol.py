"""Protocol v2 in the core: chance steps in a match, outcomes, phases and rounds, traits and the
registry's explicit parts. The conformance suite checks every game; these check the machinery."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest
from harbour_game import HarbourHooks, HarbourRules

import aloftnb
from aloftnb import CHANCE, Action, Match, Outcome, Rules, Traits
from aloftnb.core.bots import GreedyBot, MCTSBot, evaluate, rank_rewards
from aloftnb.core.chance import chance_rng, weighted_choice
from aloftnb.core.registry import board_class, hooks_of, register
from aloftnb.errors import AloftnbError, IllegalAction, InvalidSave, InvalidState

register(HarbourRules, hooks=HarbourHooks())


def harbour(players: int = 2, seed: int = 4, **kwargs: Any) -> Match:
    return aloftnb.new_match("harbour", players=players, seed=seed, **kwargs)


def commit(match: Match, *bags: int) -> None:
    for n in bags:
        match.play({"type": "commit", "bags": n})


# -- chance steps in a match ----------------------------------------------------------------------
def test_chance_steps_are_drawn_at_once_by_default_and_named_in_the_log():
    match = harbour()
    commit(match, 1, 2)
    assert not match.is_chance and match.current_player == 0 and match.round == 2
    entry = match.history[-1]
    assert entry.kind == "chance" and not entry.forced and entry.seat is None
    assert str(entry) == f"chance (storm): the storm rolled {entry.action.roll}"
    assert str(match.history[0]) == "seat 0 (sandbags): commit bags=1"


def test_drawn_outcomes_depend_only_on_the_seed_and_the_position():
    rolls = []
    for _ in range(2):
        match = harbour(seed=9)
        commit(match, 0, 0)
        rolls.append(match.history[-1].action)
    expected = HarbourRules(2).sample_chance(match.state_at(2), chance_rng(9, 2))
    assert rolls[0] == rolls[1] == expected
    other = [harbour(seed=s) for s in range(12)]
    for m in other:
        commit(m, 0, 0)
    assert len({m.history[-1].action.roll for m in other}) > 1  # the seed matters


def test_with_auto_chance_off_a_designer_forces_the_outcome():
    match = harbour(auto_chance=False)
    commit(match, 1, 1)
    assert match.is_chance and match.current_player == CHANCE and match.phase == "storm"
    assert [p for _, p in match.chance_outcomes()] == [pytest.approx(1 / 6)] * 6
    with pytest.raises(IllegalAction, match="chance step"):
        match.play({"type": "commit", "bags": 0})
    match.force({"type": "storm", "roll": 6})
    assert match.history[-1].forced and str(match.history[-1]).endswith("(forced)")
    assert match.state.breaches == 1 and match.state.last_roll == 6
    match.undo()  # a forced outcome is a decision: undo takes back just that
    assert match.is_chance and match.position == 2
    drawn = match.resolve_chance()
    assert drawn == HarbourRules(2).sample_chance(match.state_at(2), chance_rng(4, 2))


def test_forcing_is_refused_when_nothing_is_drawn_and_for_impossible_outcomes():
    match = harbour(auto_chance=False)
    with pytest.raises(IllegalAction, match="not a chance step"):
        match.force({"type": "storm", "roll": 3})
    with pytest.raises(IllegalAction, match="not a chance step"):
        match.resolve_chance()
    with pytest.raises(IllegalAction, match="not a chance step"):
        match.chance_outcomes()
    commit(match, 0, 0)
    before = match.state
    for junk in ({"type": "storm", "roll": 7}, {"type": "commit", "bags": 1}, "six"):
        with pytest.raises(IllegalAction):
            match.force(junk)
        assert match.state == before


def test_turning_auto_chance_back_on_draws_the_pending_step():
    match = harbour(auto_chance=False)
    commit(match, 0, 0)
    seen = []
    match.subscribe(lambda m, change: seen.append(change))
    match.auto_chance = True
    assert not match.is_chance and match.history[-1].kind == "chance" and seen == ["chance"]
    with pytest.raises(AloftnbError):
        match.auto_chance = 1  # type: ignore[assignment]


def test_undo_and_redo_step_over_drawn_outcomes_to_a_persons_decision():
    match = harbour()
    commit(match, 1, 2)  # positions: 1 commit, 2 commit, 3 storm drawn
    commit(match, 0)  # 4
    assert match.position == 4
    match.undo()
    assert match.position == 3 and match.current_player == 0
    match.undo()  # the commit and the storm drawn after it
    assert match.position == 1 and match.current_player == 1
    match.redo()
    assert match.position == 3 and not match.is_chance
    match.undo(2)
    assert match.position == 0
    with pytest.raises(AloftnbError, match="cannot undo 1"):
        match.undo()


def test_a_game_that_starts_with_chance_cannot_undo_the_opening_draw():
    match = aloftnb.new_match("harbour", players=1, seed=2)  # one seat: commit, storm, commit...
    commit(match, 1)
    assert match.position == 2 and match.history[-1].kind == "chance"
    match.undo()
    assert match.position == 0
    with pytest.raises(AloftnbError):
        match.undo()


def test_saves_record_drawn_and_forced_outcomes_and_replay_them_exactly():
    match = harbour(auto_chance=False)
    commit(match, 1, 1)
    match.force({"type": "storm", "roll": 2})
    commit(match, 2, 0)
    match.resolve_chance()
    data = json.loads(match.to_json())
    assert data["version"] == 3 and data["auto_chance"] is False
    assert data["timeline"][2] == {"kind": "chance", "outcome": {"type": "storm", "roll": 2},
                                   "forced": True}
    assert data["timeline"][5]["forced"] is False
    loaded = Match.from_json(match.to_json())
    assert loaded.state == match.state and not loaded.auto_chance
    assert [str(e) for e in loaded.history] == [str(e) for e in match.history]


def test_replay_under_other_options_keeps_decisions_forced_and_drawn_outcomes():
    match = harbour(seed=6, auto_chance=False)
    commit(match, 1, 1)
    match.force({"type": "storm", "roll": 2})
    commit(match, 2, 0)
    match.resolve_chance()
    commit(match, 0, 1)  # round 3, at the storm
    again = match.replay(rounds=5)
    assert again.options["rounds"] == 5 and match.options["rounds"] == 4
    assert again.replay_report == "replayed 7 of 7 decisions under rounds=5"
    # Decisions, the forced roll and the drawn roll (same seed, same position) are the same.
    assert [e.to_dict() for e in again.history] == [e.to_dict() for e in match.history]
    assert again.is_chance and not again.auto_chance and again.position == match.position
    assert again.state.supply == match.state.supply and again.rules.rounds == 5


def test_replay_stops_before_the_first_decision_the_new_options_refuse():
    match = harbour(seed=6, rounds=3, auto_chance=False)
    for _ in range(2):
        commit(match, 1, 0)
        match.force({"type": "storm", "roll": 1})
    assert match.round == 3 and match.position == 6
    # With one round the game is over after the first storm: the next commitment is refused.
    short = match.replay(rounds=1)
    assert short.position == 3 and short.is_over
    assert short.replay_report == (
        "replayed 3 of 6 decisions under rounds=1; stopped: step 4 (seat 0 (sandbags): "
        "commit bags=1) is refused now: seat 0 played it, but the game is over now")
    assert match.position == 6 and match.options["rounds"] == 3  # the original is unchanged
    partial = match.replay(upto=2)
    assert partial.position == 2 and partial.state == match.state_at(2)
    assert partial.replay_report == "replayed 2 of 2 decisions under the same options"
    with pytest.raises(AloftnbError, match="upto must be 0..6"):
        match.replay(upto=7)
    with pytest.raises(aloftnb.InvalidOptions):
        match.replay(rounds=0)


def test_a_game_that_never_leaves_chance_is_refused_not_looped_forever(monkeypatch):
    import aloftnb.core.match as match_module

    class Drizzle(aloftnb.Rules):  # a die rolled for ever: a rules bug the match must survive
        name, title = "drizzle", "Drizzle"
        traits = Traits(player_counts=(1,), chance="explicit")

        def max_length(self):
            return 10

        def initial_state(self, seed):
            return 0

        def current_player(self, s):
            return CHANCE

        def legal_actions(self, s):
            return [Action("roll", pips=1)]

        def chance_outcomes(self, s):
            return [(Action("roll", pips=1), 1.0)]

        def apply(self, s, action):
            return s + 1

        def is_over(self, s):
            return False

        def scores(self, s):
            return {0: 0.0}

    monkeypatch.setattr(match_module, "CHANCE_STEP_LIMIT", 40)
    with pytest.raises(InvalidState, match="40 chance steps in a row"):
        Match(Drizzle(1), seed=1)
    paused = Match(Drizzle(1), seed=1, auto_chance=False)
    with pytest.raises(InvalidState, match="40 chance steps in a row"):
        paused.auto_chance = True
    assert paused.position == 40  # the draws made are kept; nothing else changed


def tampered(match: Match, step: int, value: Any) -> str:
    data = json.loads(match.to_json())
    data["timeline"][step] = value
    return json.dumps(data)


@pytest.mark.parametrize("step, value, fragment", [
    (2, {"kind": "chance", "outcome": {"type": "storm", "roll": 9}, "forced": True},
     "step 3 cannot be replayed"),
    (0, {"kind": "chance", "outcome": {"type": "storm", "roll": 2}}, "was not at a chance step"),
    (2, {"kind": "chance", "outcome": {"type": "storm", "roll": 2}, "forced": "yes"},
     "'forced' must be true or false"),
])
def test_tampered_chance_steps_are_refused(step, value, fragment):
    match = harbour(auto_chance=False)
    commit(match, 1, 1)
    match.force({"type": "storm", "roll": 2})
    with pytest.raises(InvalidSave, match=fragment):
        Match.from_json(tampered(match, step, value))


def test_version_1_saves_still_load():
    match = aloftnb.new_match("balloons", players=2, seed=3)
    rng = random.Random(0)
    for _ in range(6):
        match.play(rng.choice(match.legal_actions()))
    data = json.loads(match.to_json())
    data["version"] = 1
    del data["auto_chance"]
    loaded = Match.from_json(json.dumps(data))
    assert loaded.state == match.state and loaded.auto_chance


# -- phases, rounds and refusals ----------------------------------------------------------------
def test_a_refusal_names_the_phase_an_action_belongs_to():
    match = harbour(auto_chance=False)
    with pytest.raises(IllegalAction,
                       match="storm can only be played in the storm phase; this is the sandbags"):
        match.play({"type": "storm", "roll": 3})


def test_the_choice_editions_wind_refusal_names_the_phase():
    match = aloftnb.new_match("balloons", players=3, seed=1, edition="choice")
    for action in ({"type": "unpack", "balloon": "GP", "truck": 0},
                   {"type": "inflate", "balloon": "GP"}, {"type": "launch", "balloon": "GP"}):
        match.play(action)
    assert match.phase == "wind"
    with pytest.raises(IllegalAction, match="this is the wind phase"):
        match.play({"type": "inflate", "balloon": "RW"})


def test_the_fixed_edition_has_one_phase_and_its_log_names_none():
    match = aloftnb.new_match("balloons", players=3, seed=1)
    assert match.rules.phases == ("advance",)
    match.play(match.legal_actions()[0])
    assert str(match.history[0]).startswith("seat 0: ")


# -- outcomes ----------------------------------------------------------------------------------
def lose_together(match: Match) -> None:
    """Commit nothing and force sixes until the storm breaks through twice."""
    match.auto_chance = False
    while not match.is_over:
        if match.is_chance:
            match.force({"type": "storm", "roll": 6})
        else:
            match.play({"type": "commit", "bags": 0})


def test_a_cooperative_loss_has_no_winners_and_says_why():
    match = harbour()
    lose_together(match)
    result = match.outcome()
    assert result == Outcome((), {0: -2.0, 1: -2.0}, "the storm broke through 2 times")
    assert match.winners() == [] and "winners []" in repr(match)


def test_simulate_rows_and_rewards_follow_the_outcome():
    results = aloftnb.simulate("harbour", players=2, games=30, seed=1, workers=1,
                               progress=False)
    lost = results[results["winners"] == ""]
    won = results[results["winners"] == "0 1"]
    assert len(lost) and len(won) and len(lost) + len(won) == len(results)
    assert (lost["win_0"] == 0).all() and (won["win_1"] == 1).all()
    assert lost["reason"].str.startswith("the storm broke through").all()
    match = harbour()
    lose_together(match)
    assert rank_rewards(match.rules, match.state) == {0: 0.0, 1: 0.0}


def test_default_outcome_ranks_scores_and_says_so():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    rng = random.Random(7)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    result = match.outcome()
    assert result is not None and result.winners == tuple(match.winners())
    assert result.reason.endswith("in tokens") or result.reason.endswith("(a tie)")
    assert aloftnb.Rules.outcome(match.rules, match.state).reason.startswith("highest score")


# -- bots and chance --------------------------------------------------------------------------
def test_greedy_takes_the_expectation_over_listed_outcomes():
    rules = HarbourRules(1)
    before_storm = rules.apply(rules.initial_state(0), Action("commit", bags=2))
    assert rules.is_chance(before_storm)
    expected = sum(evaluate(rules, rules.apply(before_storm, o), 0) / 6
                   for o, _ in rules.chance_outcomes(before_storm))
    value = GreedyBot().expected(rules, before_storm, 0, random.Random(0))
    assert value == pytest.approx(expected)
    # Committing more sandbags is worth it in expectation: greedy commits the most it can.
    assert GreedyBot().choose(rules, rules.initial_state(0), 0, random.Random(0)) == Action(
        "commit", bags=2)


def test_searching_bots_play_games_with_chance_and_never_move_at_a_chance_step():
    calls = []

    class Watching(MCTSBot):
        def choose(self, rules, state, seat, rng):
            calls.append(rules.current_player(state))
            return super().choose(rules, state, seat, rng)

    results = aloftnb.simulate("harbour", players=2, bots=[Watching(40), "greedy"], games=4,
                               seed=2, workers=1, progress=False)
    assert (results["error"] == "").all() and calls and CHANCE not in calls


def test_mcts_draws_chance_inside_its_search_without_reading_the_future():
    rules = HarbourRules(2)
    state = rules.initial_state(0)
    root = MCTSBot(iterations=200).search(rules, state, 0, random.Random(1))
    assert set(root.children) == set(rules.legal_actions(state))
    assert sum(child.visits for child in root.children.values()) == 200


def test_weighted_choice_follows_the_probabilities():
    rng = random.Random(3)
    draws = [weighted_choice([("a", 0.9), ("b", 0.1)], rng) for _ in range(2000)]
    assert 0.85 < draws.count("a") / 2000 < 0.95
    with pytest.raises(ValueError):
        weighted_choice([], rng)


# -- simulate reads the declared structure ------------------------------------------------------
def test_simulate_counts_chance_steps_apart_and_reports_each_phase():
    results = aloftnb.simulate("harbour", players=2, games=6, seed=4, workers=1, progress=False)
    rounds_played = results["chance_steps"]  # one storm a round
    assert (results["length"] == 2 * rounds_played).all()  # decisions only: two commits a round
    assert (results["length_sandbags"] == results["length"]).all()
    assert (results["length_storm"] == 0).all()  # the storm is chance: no decisions
    assert "duration_storm" not in aloftnb.design_metrics(results).index
    metrics = aloftnb.design_metrics(results)
    assert "chance_steps" in metrics.index and "duration_sandbags" in metrics.index
    assert metrics.loc["chance_steps", "value"] == pytest.approx(rounds_played.mean())
    alu = aloftnb.simulate("alu", players=2, games=2, seed=4, workers=1, progress=False)
    assert "chance_steps" not in aloftnb.design_metrics(alu).index


def test_simulated_games_with_chance_are_the_same_on_any_number_of_workers():
    one = aloftnb.simulate("harbour", players=3, games=12, seed=8, workers=1, progress=False)
    two = aloftnb.simulate("harbour", players=3, games=12, seed=8, workers=2, progress=False)
    assert one.equals(two)


class RaceState(NamedTuple):
    rules: Any
    step: int  # moves made; 6 ends the game


class ReverseOrderRace(aloftnb.Rules[RaceState, Action]):
    """Two seats, three rounds; seat 1 moves first in every round. The leader after each round
    alternates: seat 1, seat 0, seat 1 — two lead changes, counted per declared round."""

    name = "reverse-race"
    title = "Reverse order race"
    traits = Traits(player_counts=(2,))
    POINTS = ((0, 3), (5, 0), (0, 4))  # per round: (seat 0, seat 1)

    def max_length(self) -> int:
        return 6

    def initial_state(self, seed: int) -> RaceState:
        return RaceState(self, 0)

    def current_player(self, s: RaceState) -> int | None:
        return None if s.step == 6 else 1 - s.step % 2

    def is_over(self, s: RaceState) -> bool:
        return s.step == 6

    def round(self, s: RaceState) -> int:
        return min(s.step // 2 + 1, 3)

    def legal_actions(self, s: RaceState) -> list[Action]:
        return [] if s.step == 6 else [Action("move")]

    def apply(self, s: RaceState, action: Action) -> RaceState:
        return RaceState(self, s.step + 1)

    def scores(self, s: RaceState) -> dict[int, float]:
        done = s.step // 2
        return {seat: float(sum(p[seat] for p in self.POINTS[:done])) for seat in (0, 1)}

    def state_to_dict(self, s: RaceState) -> dict[str, Any]:
        return {"step": s.step}

    def state_from_dict(self, data: Any) -> RaceState:
        return RaceState(self, data["step"])


def test_lead_changes_are_counted_per_declared_round_not_per_seat_order():
    register(ReverseOrderRace)
    try:
        results = aloftnb.simulate("reverse-race", players=2, games=1, workers=1,
                                   progress=False)
    finally:
        aloftnb.core.registry._GAMES.pop("reverse-race")
    assert results["lead_changes"][0] == 2


# -- traits and the registry -------------------------------------------------------------------
def test_traits_are_checked_and_listed():
    with pytest.raises(ValueError):
        Traits(player_counts=())
    with pytest.raises(ValueError):
        Traits(player_counts=(2,), chance="sometimes")  # type: ignore[arg-type]
    listed = {g["name"]: g for g in aloftnb.games()}
    assert listed["alu"]["traits"]["utility"] == "win_loss"
    assert listed["harbour"]["traits"]["chance"] == "explicit"
    assert listed["harbour"]["phases"] == ["sandbags", "storm"]
    assert listed["balloons"]["max_length"] > 0
    assert aloftnb.make_rules("balloons", 1, mode="solo").traits.cooperative


def test_a_game_registered_from_outside_gets_its_board_and_hooks():
    class HarbourBoard(aloftnb.Board):
        pass

    register(HarbourRules, board=HarbourBoard, hooks=HarbourHooks())
    try:
        match = harbour()
        assert isinstance(match.board(), HarbourBoard)  # anywidget subclasses per instance
        assert isinstance(hooks_of(match.rules).source, HarbourHooks)  # adopted when registered
        results = aloftnb.simulate("harbour", players=2, games=2, workers=1, progress=False)
        assert "breaches" in results  # the hooks' measures
    finally:
        register(HarbourRules, hooks=HarbourHooks())
    assert board_class("harbour") is None
    assert not isinstance(harbour().board(), HarbourBoard)


def test_register_keeps_its_older_text_form_and_refuses_junk():
    register("harbour-by-name", "harbour_game:HarbourRules")
    try:
        assert isinstance(aloftnb.make_rules("harbour-by-name", 2), HarbourRules)
    finally:
        aloftnb.core.registry._GAMES.pop("harbour-by-name")
    for junk in (42, int, None):
        with pytest.raises(TypeError):
            register(junk)


class _NoSuchTraits(HarbourRules):
    name = "harbour-bad-traits"
    traits = "x"  # type: ignore[assignment]


class _NoPhases(HarbourRules):
    name = "harbour-no-phases"
    phases = ()


class _Unfinished(Rules):
    name = "unfinished"
    title = "Unfinished"


class _DescribeFails(HarbourRules):
    name = "harbour-broken-describe"

    def max_length(self) -> int:
        raise RuntimeError("boom")


@pytest.mark.parametrize("call", [
    lambda: register("aloftnb.core.rules:NoSuchClass", name="x"),
    lambda: register("no_such_module_anywhere:Rules", name="x"),
    lambda: register("aloftnb.core.rules:Traits", name="x"),  # not a Rules subclass
    lambda: register(_NoSuchTraits),
    lambda: register(_NoPhases),
    lambda: register(_Unfinished),
    lambda: register(_DescribeFails),
    lambda: register(HarbourRules, name="x", board=42),
    lambda: register(HarbourRules, name="x", hooks="no_such_module_anywhere"),
], ids=["missing-class", "missing-module", "not-rules", "traits", "phases", "abstract",
        "describe", "board", "hooks"])
def test_a_broken_game_is_refused_and_never_kept(call):
    """One bad register call once broke aloftnb.games() (and the bots) for every game."""
    before = dict(aloftnb.core.registry._GAMES)
    listed = aloftnb.games()
    with pytest.raises(aloftnb.InvalidGame, match=r"register\("):
        call()
    assert aloftnb.core.registry._GAMES == before
    assert aloftnb.games() == listed


def test_registering_again_with_a_broken_part_keeps_the_working_game():
    with pytest.raises(aloftnb.InvalidGame):
        register(HarbourRules, hooks="no_such_module_anywhere")
    assert isinstance(hooks_of(harbour().rules).source, HarbourHooks)


def test_outcome_of_a_game_in_progress_is_none():
    match = harbour()
    assert match.outcome() is None and match.winners() == []
    assert Outcome((1,), {0: 1.0, 1: 2.0}, "x").to_dict() == {
        "winners": [1], "scores": {"0": 1.0, "1": 2.0}, "reason": "x"}


# -- state records ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RecordState:
    heights: tuple[int, ...]
    seat: int
    rolling: bool
    note: str
    bonus: float
    winner: int | None


class RecordRules(ReverseOrderRace):
    name = "record-game"
    state_class = RecordState
    # The protocol's own readers, not the race's hand-written ones.
    state_to_dict = aloftnb.Rules.state_to_dict  # type: ignore[assignment]
    state_from_dict = aloftnb.Rules.state_from_dict  # type: ignore[assignment]

    def check_state(self, s: Any) -> None:
        if s.seat not in (0, 1):
            raise InvalidState("seat must be 0 or 1")


RECORD = {"heights": [3, 4], "seat": 1, "rolling": False, "note": "x", "bonus": 0.5,
          "winner": None}


def test_a_record_state_gets_its_dict_form_and_a_strict_reader():
    rules = RecordRules(2)
    state = rules.state_from_dict(RECORD)
    assert state == RecordState((3, 4), 1, False, "x", 0.5, None)
    assert rules.state_to_dict(state) == RECORD
    assert rules.state_from_dict({**RECORD, "winner": 1}).winner == 1


@pytest.mark.parametrize("change, fragment", [
    ({"seat": 1.0}, "seat must be a whole number"),
    ({"seat": True}, "seat must be a whole number"),
    ({"seat": 5}, "seat must be 0 or 1"),  # the game's own check
    ({"heights": [3, "4"]}, "heights[1] must be a whole number"),
    ({"heights": 3}, "heights must be a list"),
    ({"rolling": 0}, "rolling must be true or false"),
    ({"note": 3}, "note must be text"),
    ({"bonus": float("nan")}, "bonus must be a finite number"),
    ({"winner": "0"}, "winner must be a whole number"),
    ({"extra": 1}, "unknown key 'extra'"),
])
def test_a_record_reader_names_the_wrong_field(change, fragment):
    with pytest.raises(InvalidState) as caught:
        RecordRules(2).state_from_dict({**RECORD, **change})
    assert fragment in str(caught.value)


def test_a_record_reader_names_a_missing_field_and_refuses_non_dicts():
    with pytest.raises(InvalidState, match="the state has no 'note'"):
        RecordRules(2).state_from_dict({k: v for k, v in RECORD.items() if k != "note"})
    with pytest.raises(InvalidState, match="must be a dict"):
        RecordRules(2).state_from_dict([RECORD])


@dataclass(frozen=True)
class Piece:
    owner: int
    where: str


@dataclass(frozen=True)
class NestedState:
    pieces: tuple[Piece, ...]
    leader: Piece | None


@pytest.mark.parametrize("data, message", [
    ([1], "a kite state must be a dict, not list"),
    ({"turn": 1, "hue": 2}, r"unknown key 'hue' in the state \(keys: game, turn\)$"),
    ({}, "the state has no 'turn'"),
    ({"turn": 1, "game": "kites"}, "this match has game 'kite'; the state says 'kites' "),
    ({"turn": True}, "'turn' must be a whole number, not True"),
])
def test_a_hand_written_state_reader_starts_from_the_shared_checks(data, message):
    from aloftnb.core.records import StateReader

    reader = StateReader(None, data)
    with pytest.raises(InvalidState, match=message):
        reader.check_keys("a kite state", ("game", "turn"), ("turn",), list_keys=True)
        reader.check_same((("game", "kite"),))
        reader.whole(data["turn"], "'turn'", 1)
    assert StateReader(None, {"turn": 2}).whole(2, "'turn'", 1) == 2


def test_records_nest_and_name_the_wrong_field_inside():
    from aloftnb.core.records import record_from_dict, record_to_dict

    state = NestedState((Piece(0, "a"), Piece(1, "b")), Piece(0, "a"))
    data = record_to_dict(state)
    assert data == {"pieces": [{"owner": 0, "where": "a"}, {"owner": 1, "where": "b"}],
                    "leader": {"owner": 0, "where": "a"}}
    assert record_from_dict(NestedState, data) == state
    assert record_from_dict(NestedState, {**data, "leader": None}).leader is None
    with pytest.raises(InvalidState, match=r"pieces\[1\].owner must be a whole number"):
        record_from_dict(NestedState, {**data, "pieces": [data["pieces"][0],
                                                          {"owner": "1", "where": "b"}]})
    with pytest.raises(InvalidState, match=r"pieces\[0\] has no 'where'"):
        record_from_dict(NestedState, {**data, "pieces": [{"owner": 0}]})
    with pytest.raises(InvalidState, match=r"leader must be a dict"):
        record_from_dict(NestedState, {**data, "leader": [0, "a"]})


# -- chance steps and phases on a board -----------------------------------------------------------
def test_the_designer_view_offers_each_outcome_and_a_draw_and_plays_them(front_end):
    match = harbour(auto_chance=False)
    commit(match, 1, 1)
    board = match.board(viewer="designer")
    try:
        labels = [c["label"] for c in board.choices]
        assert labels[0] == "Draw at random"
        assert labels[1:] == [f"the storm rolled {n} (16.7%)" for n in range(1, 7)]
        assert board.status == "Round 1, storm phase. A chance step: choose the outcome below, " \
                               "or draw one."
        six = next(c for c in board.choices if c["label"].startswith("the storm rolled 6"))
        front_end(board, {"intent": six["intent"], "action": six["action"]})
        assert match.history[-1].forced and match.state.last_roll == 6
        assert board.status.startswith("Round 2, sandbags phase. Seat 0 to play")
        commit(match, 0, 0)
        front_end(board, {"intent": "draw"})
        assert match.history[-1].kind == "chance" and not match.history[-1].forced
    finally:
        board.close()


def test_only_the_designer_view_chooses_chance_outcomes(front_end):
    match = harbour(auto_chance=False)
    commit(match, 1, 1)
    board = match.board()  # hot seat
    try:
        assert board.choices == []
        assert "the designer view chooses it" in board.status
        before = match.to_json()
        front_end(board, {"intent": "force", "action": {"type": "storm", "roll": 6}})
        assert "chance outcomes are chosen in the designer view" in board.message["text"]
        assert match.to_json() == before
        board._set_viewer("designer")
        commit_refused = front_end(board, {"intent": "force", "action": {"type": "storm",
                                                                       "roll": 9}})
        assert commit_refused and match.to_json() == before
        assert "refused" in board.message["text"]
        match.auto_chance = True  # drawn at once: nothing to choose any more
        front_end(board, {"intent": "draw"})
        assert "not a chance step" in board.message["text"]
    finally:
        board.close()


def test_the_default_action_index_table_comes_from_the_games_enumeration():
    for rules in (aloftnb.make_rules("balloons", 3), aloftnb.make_rules("alu", 2)):
        for index in (0, rules.num_distinct_actions() // 2, rules.num_distinct_actions() - 1):
            assert rules.action_to_index(rules.action_from_index(index)) == index
        with pytest.raises(IllegalAction, match="is not an action of this"):
            rules.action_to_index(Action("fly", to="the moon"))
        with pytest.raises(IllegalAction):
            rules.action_to_index(["not", "an", "action"])  # type: ignore[arg-type]
