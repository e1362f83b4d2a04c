"""Chance on the board: the designer view's choices at a chance step (worded as what will
happen, outcomes worded alike merged) and its switch for drawing chance steps automatically."""

from __future__ import annotations

import random

import pytest
from harbour_game import HarbourRules

import aloftnb
from aloftnb import Match
from aloftnb.core.chance import chance_rng, sample, shuffle, weighted_choice
from aloftnb.widget.board import Board


def forced_choices(board: Board) -> list[dict]:
    return [c for c in board.choices if c.get("intent") == "force"]


class CalmHarbour(HarbourRules):
    """Storm harbour whose designer menu words the two lowest rolls alike."""

    def chance_choice_label(self, s, outcome):
        return "the sea stays calm" if outcome.roll <= 2 else f"the storm rolls {outcome.roll}"


class CalmHarbourBoard(Board):
    """The generic board, for a game that is not registered."""


def at_the_storm(rules: HarbourRules, seed: int = 5) -> Match:
    match = Match(rules, seed, auto_chance=False)
    while not match.is_chance:
        match.play(match.legal_actions()[0])
    return match


def test_outcomes_worded_alike_are_one_choice_with_their_summed_probability(front_end):
    match = at_the_storm(CalmHarbour(2))
    board = CalmHarbourBoard(match, viewer="designer")
    labels = [c["label"] for c in forced_choices(board)]
    assert labels == ["the sea stays calm (33.3%)"] + [f"the storm rolls {n} (16.7%)"
                                                        for n in range(3, 7)]
    assert [c["path"] for c in board.choices] == [["chance:draw"]] + [
        [f"chance:{n}"] for n in range(5)]
    # The merged choice stands for one of its outcomes, drawn as "Draw at random" would draw
    # among them (the match's chance stream for this step), not always the first.
    calm = forced_choices(board)[0]
    expected = weighted_choice([(o, p) for o, p in match.chance_outcomes() if o.roll <= 2],
                               chance_rng(match.seed, match.position))
    assert calm["action"] == expected.to_dict()
    front_end(board, {"intent": "force", "action": calm["action"]})
    assert match.history[-1].forced and match.history[-1].action.roll in (1, 2)


def test_the_leviathans_set_aside_at_set_up_are_one_choice(front_end):
    match = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False)
    board = match.board(viewer="designer")
    (aside,) = forced_choices(board)  # five leviathans, one wording: one choice
    assert aside["label"] == "set a leviathan aside face down (100%)"
    drawn = match.fork()
    drawn.resolve_chance()
    assert aside["action"] == drawn.history[-1].action.to_dict()
    front_end(board, {"intent": "force", "action": aside["action"]})
    # The log keeps its own wording, in the past tense, and names no leviathan.
    assert board.log[-1]["text"] == "chance (setup): a leviathan was set aside face down (forced)"


def test_set_up_choices_say_what_will_happen_and_the_log_what_happened():
    match = aloftnb.new_match("commodores", players=3, seed=2, auto_chance=False)
    board = match.board(viewer="designer")
    seen = set()
    while match.phase == "setup" and match.is_chance:
        labels = [c["label"] for c in forced_choices(board)]
        kind = forced_choices(board)[0]["action"]["type"]
        seen.add(kind)
        prefix = {"set_aside": "set a leviathan aside", "goal": "put a goal in play: ",
                  "ship_type": "put ", "goal_number": "make ", "hex": "draw a",
                  "number": "draw number "}[kind]
        assert all(label.startswith(prefix) for label in labels), labels
        match.resolve_chance()
    assert {"set_aside", "goal", "ship_type"} <= seen
    past = [entry.text for entry in match.history if entry.kind == "chance"]
    assert any(text.startswith("goal in play: ") for text in past)
    assert any(text.startswith("in the shipyard: ") for text in past)


def test_cloudspire_choices_say_draw_and_roll_and_its_log_drew():
    match = aloftnb.new_match("cloudspire", players=2, seed=1, auto_chance=False)
    board = match.board(viewer="designer")
    labels = [c["label"] for c in forced_choices(board)]
    assert labels and all(label.startswith(("draw ", "roll ")) for label in labels), labels
    assert not any(label.startswith(("drew ", "the spire die rolled")) for label in labels)
    board.handle_intent({"intent": "force", "action": forced_choices(board)[0]["action"]})
    assert match.history[-1].text.startswith(("drew ", "the spire die rolled"))


def test_the_designer_switches_automatic_chance_and_every_board_follows(front_end):
    match = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False)
    designer = match.board(viewer="designer")
    hot_seat = match.board()
    assert designer.chance_switch and not hot_seat.chance_switch
    assert designer.auto_chance is False and hot_seat.auto_chance is False
    front_end(designer, {"intent": "auto_chance", "on": True})
    # On at a chance step: the set-up draws happen at once.
    assert match.auto_chance and not match.is_chance and match.current_player == 0
    assert designer.auto_chance and hot_seat.auto_chance
    front_end(designer, {"intent": "auto_chance", "on": False})
    assert match.auto_chance is False and not designer.auto_chance and not hot_seat.auto_chance
    # From a cell, too.
    match.auto_chance = True
    assert designer.auto_chance and hot_seat.auto_chance


@pytest.mark.parametrize(("game", "viewer", "on", "reason"), [
    ("commodores", "turn", False, "in the designer view"),
    ("commodores", "seat:1", False, "in the designer view"),
    ("commodores", "designer", "no", "on: true or false"),
    ("commodores", "designer", None, "on: true or false"),
    ("balloons", "designer", False, "balloons has no chance steps"),
])
def test_the_chance_switch_refuses_other_views_games_without_chance_and_junk(
        game, viewer, on, reason, front_end):
    match = aloftnb.new_match(game, players=3, seed=1)
    board = match.board(viewer=viewer)
    assert board.chance_switch is (game == "commodores" and viewer == "designer")
    front_end(board, {"intent": "auto_chance", "on": on})
    assert board.message["kind"] == "error" and reason in board.message["text"]
    assert match.auto_chance is True


def test_the_compiled_shuffle_draws_as_random_shuffle():
    """core.chance.shuffle (compiled for the bots' determinizations) is rng.shuffle: the same
    order and the generator left in the same state, for every length, on this Python."""
    for seed in range(25):
        for length in range(40):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, stdlib = list(range(length)), list(range(length))
            shuffle(mine, ours)
            theirs.shuffle(stdlib)
            assert mine == stdlib
            assert ours.random() == theirs.random()

    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # another class of generator shuffles the list itself
            Counting.calls += 1
            super().shuffle(x)

    shuffle([1, 2, 3], Counting(1))
    assert Counting.calls == 1


def test_the_compiled_sample_draws_as_random_sample():
    """core.chance.sample (compiled for the games' set-ups) is rng.sample: the same items in the
    same order and the generator left in the same state; past 21 items it is rng.sample."""
    for seed in range(25):
        for length in (1, 2, 5, 6, 13, 21, 22, 40):
            for k in {0, 1, length // 2, length}:
                ours, theirs = random.Random(seed), random.Random(seed)
                population = [f"item{i}" for i in range(length)]
                assert sample(population, k, ours) == theirs.sample(population, k)
                assert ours.random() == theirs.random()
    with pytest.raises(ValueError):
        sample([1, 2], 3, random.Random(0))  # as rng.sample refuses it
