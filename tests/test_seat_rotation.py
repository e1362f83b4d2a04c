"""Seat rotation in simulate, and seat figures kept apart from bot figures (issue 8)."""

from __future__ import annotations

import warnings

import pytest

import aloftnb
from aloftnb.core.bots import make_bot
from aloftnb.playtest.metrics import (
    SeatsNotComparableWarning,
    bot_win_rates,
    seat_bot_counts,
    seats_comparable,
)
from aloftnb.playtest.runner import seat_orders

QUIET = {"progress": False, "workers": 1}
LINE_UP = ["greedy", "random", "random"]


def rotated(games=6, bots=LINE_UP, **kwargs):
    return aloftnb.simulate("balloons", players=len(bots), bots=bots, games=games, seed=4,
                            **{**QUIET, "rotate_seats": True, **kwargs})


def test_seat_orders_are_every_distinct_seating():
    assert seat_orders(tuple(make_bot(b) for b in ("mcts:5", "greedy", "random"))) == (
        (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    # equal bots are interchangeable: three seatings, not six
    assert len(seat_orders(tuple(make_bot(b) for b in LINE_UP))) == 3
    assert seat_orders(tuple(make_bot("random") for _ in range(4))) == ((0, 1, 2, 3),)


def test_each_deal_is_played_in_every_seat_order_on_the_same_seed():
    results = rotated()
    assert len(results) == 6 * 3 and results.attrs["rotate_seats"] is True
    assert list(results["game_index"]) == list(range(18))
    for _, rows in results.groupby("deal"):
        assert rows["seed"].nunique() == 1
        assert sorted(rows["seat_order"]) == ["0 1 2", "1 0 2", "1 2 0"]
        assert sorted(rows["bots"]) == ["greedy,random,random", "random,greedy,random",
                                        "random,random,greedy"]
    counts = seat_bot_counts(results)
    assert counts.loc["greedy"].tolist() == [6, 6, 6]
    assert counts.loc["random"].tolist() == [12, 12, 12]


def test_the_first_order_of_each_deal_is_the_unrotated_game():
    plain = aloftnb.simulate("balloons", players=3, bots=LINE_UP, games=4, seed=4, **QUIET)
    first = rotated(games=4).query("seat_order == '0 1 2'").reset_index(drop=True)
    columns = ["seed", "score_0", "score_1", "score_2", "winners", "moves"]
    assert first[columns].equals(plain[columns])


def test_rotated_results_do_not_depend_on_the_workers():
    one = rotated(games=3)
    two = rotated(games=3, workers=2)
    assert one.equals(two)


def test_a_rotated_row_replays_as_a_match():
    results = rotated(games=2)
    match = aloftnb.results_match(results, 4)
    assert match.is_over
    assert [float(match.scores()[s]) for s in range(3)] == [
        results.loc[4, f"score_{s}"] for s in range(3)]


def test_rotated_seats_are_comparable_and_per_bot_rates_are_apart():
    results = rotated()
    assert seats_comparable(results)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeatsNotComparableWarning)
        table = aloftnb.design_metrics(results)
    rates = bot_win_rates(results)
    assert rates.loc["greedy", "seats"] == 18 and rates.loc["random", "seats"] == 36
    assert table.loc["win_rate_bot[greedy]", "value"] == rates.loc["greedy", "win_rate"]
    assert "seats not comparable" not in table.loc["first_player_advantage", "description"]
    assert aloftnb.win_rates(results)["bot"].tolist() == ["rotated: greedy, random"] * 3


def test_seat_figures_of_an_unrotated_mixed_line_up_warn():
    results = aloftnb.simulate("balloons", players=3, bots=LINE_UP, games=6, seed=4, **QUIET)
    assert not seats_comparable(results)
    with pytest.warns(SeatsNotComparableWarning, match="rotate_seats=True"):
        table = aloftnb.design_metrics(results)
    assert "seats not comparable" in table.loc["first_player_advantage", "description"]
    assert "seats not comparable" in table.loc["balance", "description"]


def test_one_bot_at_every_seat_needs_no_rotation_and_no_warning():
    results = aloftnb.simulate("balloons", players=3, bots="random", games=6, seed=4, **QUIET)
    assert seats_comparable(results)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeatsNotComparableWarning)
        table = aloftnb.design_metrics(results)
    assert not any(name.startswith("win_rate_bot[") for name in table.index)


def test_rotate_seats_must_be_a_bool():
    with pytest.raises(ValueError, match="rotate_seats must be True or False"):
        rotated(rotate_seats="yes")
