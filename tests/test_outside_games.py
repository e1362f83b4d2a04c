"""An outside game's rules are checked as they answer: a mistake in a game written in a notebook
is named (the game and the method), never an IndexError deep in a bot or a board (issue 18)."""

from __future__ import annotations

import random

import pytest

import aloftnb
from aloftnb.core.bots import make_bot
from aloftnb.core.registry import _GAMES, register, rules_class
from aloftnb.errors import InvalidGame
from tests.harbour_game import HarbourRules


class NoMoves(HarbourRules):
    """Forgets every action after the first round."""

    name = "no-moves"

    def legal_actions(self, state):
        return [] if state.round > 1 else super().legal_actions(state)


class StraySeat(HarbourRules):
    name = "stray-seat"

    def current_player(self, state):
        seat = super().current_player(state)
        return 7 if seat == 0 and state.round > 1 else seat


class ListView(HarbourRules):
    name = "list-view"

    def view(self, state, seat):
        return list(super().view(state, seat))


class TupleActions(HarbourRules):
    name = "tuple-actions"

    def legal_actions(self, state):
        return tuple(super().legal_actions(state))


class NumberActions(HarbourRules):
    name = "number-actions"

    def legal_actions(self, state):
        return [1, 2] if self.current_player(state) == 0 else super().legal_actions(state)


@pytest.fixture
def registered():
    names = []

    def add(cls):
        register(cls)
        names.append(cls.name)
        return cls.name

    yield add
    for name in names:
        _GAMES.pop(name, None)


def play_first_round(match):
    while match.round == 1 and not match.is_over:
        if match.is_chance:
            match.resolve_chance()
        else:
            match.play(match.legal_actions()[0])


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:20"])
def test_no_legal_action_mid_game_is_named_for_every_bot(registered, bot):
    match = aloftnb.new_match(registered(NoMoves), players=2, seed=3)
    play_first_round(match)
    with pytest.raises(InvalidGame, match=r"no-moves: NoMoves\.legal_actions returned no action"):
        make_bot(bot).choose(match.rules, match.state, match.current_player,
                               random.Random(0))
    with pytest.raises(InvalidGame, match="legal_actions"):
        match.legal_actions()


def test_a_seat_that_does_not_exist_is_named(registered):
    match = aloftnb.new_match(registered(StraySeat), players=2, seed=3)
    with pytest.raises(InvalidGame, match=r"StraySeat\.current_player returned 7, which is no "
                                          "seat of 2"):
        play_first_round(match)


def test_a_view_that_is_not_a_dict_is_named_for_the_match_and_its_board(registered):
    match = aloftnb.new_match(registered(ListView), players=2, seed=3)
    with pytest.raises(InvalidGame, match=r"ListView\.view returned \['round'"):
        match.view(0)
    with pytest.raises(InvalidGame, match=r"ListView\.view returned"):
        match.board()


def test_legal_actions_must_be_a_list(registered):
    match = aloftnb.new_match(registered(TupleActions), players=2, seed=3)
    with pytest.raises(InvalidGame, match=r"TupleActions\.legal_actions returned .*not a list"):
        match.legal_actions()


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:5"])
def test_legal_actions_must_list_actions_for_every_bot(registered, bot):
    # found by the fuzz test: the greedy bot failed with an AttributeError on [1, 2]
    match = aloftnb.new_match(registered(NumberActions), players=2, seed=3)
    while match.is_chance:
        match.resolve_chance()
    with pytest.raises(InvalidGame, match=r"NumberActions\.legal_actions listed 1, which is "
                                          "not an Action"):
        make_bot(bot).choose(match.rules, match.state, 0, random.Random(0))


def test_simulate_stops_on_the_named_mistake(registered):
    with pytest.raises(InvalidGame, match=r"NoMoves\.legal_actions returned no action"):
        aloftnb.simulate(registered(NoMoves), players=2, games=2, bots="random", seed=1)


def test_a_registered_game_keeps_its_class_name_and_hooks(registered):
    name = registered(NoMoves)
    cls = rules_class(name)
    assert issubclass(cls, NoMoves) and cls.__name__ == "NoMoves"
    assert cls.__module__ == NoMoves.__module__
    assert rules_class(name) is cls  # made once


def test_built_in_games_run_unchecked():
    from aloftnb.games.alu.rules import AluRules
    assert rules_class("alu") is AluRules
