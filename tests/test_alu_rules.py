"""ALU: Loki's island — one scenario per rule and per ruling (docs/rules/alu.md)."""

from __future__ import annotations

import pytest

import aloftnb
from aloftnb import IllegalAction

EMPTY = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""


def new(**options):
    return aloftnb.new_match("alu", players=2, seed=1, **options)


def at(diagram, to_act="circle", match=None, **kwargs):
    """A match set to the position drawn in `diagram` (see AluRules.position)."""
    match = match or new()
    match.set_state(match.rules.position(diagram, to_act=to_act, **kwargs))
    return match


def targets(match, kind):
    return sorted(a.tile for a in match.legal_actions() if a.type == kind)


def player(match, name):
    return match.state.to_dict()["players"][name]


def derived(match):
    return match.state.to_dict()["derived"]


def refusal(match, action):
    with pytest.raises(IllegalAction) as caught:
        match.play(action)
    return str(caught.value)


# -- set-up and the first turns ----------------------------------------------------------------
def test_starting_position_matches_the_text():
    match = new()
    data = match.state.to_dict()
    for name in ("circle", "square"):
        assert data["players"][name] == {
            "construction": {"available": 25, "spent": 0},
            "iron": {"available": 10, "spent": 0},
            "food": {"available": 0, "not_usable_yet": 0, "spent": 0},
        }
        assert data["derived"]["camps_in_hand"][name] == 14
    assert data["derived"]["raiding_pieces_left"] == 14
    assert set(data["board"].values()) == {"empty"} and len(data["board"]) == 40
    assert data["derived"]["win_tiles"] == 21
    assert (data["turn"], data["actions_left"]) == (1, 2)


def test_ruling_circle_is_seat_0_and_moves_first():
    match = new()
    assert match.current_player == 0
    match.play({"type": "camp", "tile": "a1"})
    assert match.state.to_dict()["board"]["a1"] == "circle"


def test_first_action_is_a_camp_on_any_vacant_edge_tile():
    match = new()
    edge = sorted(a.tile for a in match.legal_actions())
    assert {a.type for a in match.legal_actions()} == {"camp"}
    assert len(edge) == 22  # 8x5 board: 2 * 8 + 2 * 3 edge tiles
    assert "c3" not in edge and "a3" in edge and "h5" in edge
    assert "not on the board's edge" in refusal(match, {"type": "camp", "tile": "c3"})
    assert "first action must be setting up a camp" in refusal(
        match, {"type": "raid", "tile": "a1"})


def test_ruling_square_first_camp_may_touch_circle():
    match = new()
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "raid", "tile": "b1"})
    assert match.current_player == 1
    first = targets(match, "camp")
    assert "a2" in first  # next to circle's camp: allowed
    assert "b1" not in first  # raided, not vacant
    assert "b2" not in first  # not an edge tile
    assert [a.type for a in match.legal_actions()] == ["camp"] * len(first)


def test_ruling_a_player_with_no_camp_in_a_set_up_position_starts_again_on_an_edge():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . .
    """, to_act="square")
    assert not match.is_over
    assert {a.type for a in match.legal_actions()} == {"camp"}
    assert len(targets(match, "camp")) == 22


def test_circle_has_two_actions_on_the_first_turn_then_everyone_three():
    match = new()
    match.play({"type": "camp", "tile": "a1"})
    assert match.state.actions_left == 1 and match.current_player == 0
    match.play({"type": "camp", "tile": "b1"})
    assert (match.current_player, match.state.actions_left, match.state.turn) == (1, 3, 2)
    for tile in ("h5", "g5", "f5"):
        match.play({"type": "camp", "tile": tile})
    assert (match.current_player, match.state.actions_left, match.state.turn) == (0, 3, 3)


def test_first_turn_and_turn_lengths_are_options():
    match = new(first_turn_actions=3, actions_per_turn=2)
    assert match.state.actions_left == 3
    for tile in ("a1", "b1", "c1"):
        match.play({"type": "camp", "tile": tile})
    assert (match.current_player, match.state.actions_left) == (1, 2)


# -- the five actions --------------------------------------------------------------------------
def test_camp_costs_one_construction_and_only_reaches_orthogonal_neighbours():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert targets(match, "camp") == ["c3", "d2", "d4", "e3"]
    message = refusal(match, {"type": "camp", "tile": "e4"})
    assert "not orthogonally next to" in message and "never diagonally" in message
    match.play({"type": "camp", "tile": "d2"})
    assert player(match, "circle")["construction"] == {"available": 24, "spent": 1}
    assert derived(match)["camps_in_hand"]["circle"] == 12


def test_raid_costs_construction_and_its_food_is_usable_only_next_turn():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 0})
    match.play({"type": "raid", "tile": "d2"})
    circle = player(match, "circle")
    assert circle["construction"] == {"available": 24, "spent": 1}
    assert circle["food"] == {"available": 0, "not_usable_yet": 1, "spent": 0}
    assert match.state.to_dict()["board"]["d2"] == "raided"
    assert derived(match)["raiding_pieces_left"] == 13
    assert targets(match, "attack") == []  # adjacent square camp, iron, but no usable food
    message = refusal(match, {"type": "attack", "tile": "e3"})
    assert "no usable food" in message and "usable next turn" in message
    match.play({"type": "camp", "tile": "c3"})
    match.play({"type": "camp", "tile": "b3"})  # circle's turn ends
    assert player(match, "circle")["food"] == {"available": 1, "not_usable_yet": 0, "spent": 0}
    for tile in ("f3", "g3", "h3"):
        match.play({"type": "camp", "tile": tile})
    assert targets(match, "attack") == ["e3"]


def test_restore_returns_the_raiding_piece_and_either_player_may_restore():
    match = at("""
        . . . . . . . .
        . . . R . . . .
        . . . S . . . .
        . . . . . . . .
        . . . . . . . .
    """, to_act="square")
    assert targets(match, "restore") == ["d2"]  # RULING: raided by anyone, restored by anyone
    assert "restore it first" in refusal(match, {"type": "camp", "tile": "d2"})
    match.play({"type": "restore", "tile": "d2"})
    assert match.state.to_dict()["board"]["d2"] == "empty"
    assert derived(match)["raiding_pieces_left"] == 14
    assert player(match, "square")["construction"] == {"available": 24, "spent": 1}
    assert targets(match, "camp") == ["c3", "d2", "d4", "e3"]


def test_ruling_food_has_no_upper_limit():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . S
    """, circle={"food": 40, "not_usable_yet": 3})
    match.play({"type": "raid", "tile": "d2"})
    assert player(match, "circle")["food"] == {"available": 40, "not_usable_yet": 4, "spent": 0}


def test_camp_on_a_raided_tile_costs_two_construction_and_one_iron():
    match = at("""
        . . . . . . . .
        . . . R . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert targets(match, "raided_camp") == ["d2"]
    assert "holds a raiding piece" in refusal(match, {"type": "camp", "tile": "d2"})
    match.play({"type": "raided_camp", "tile": "d2"})
    circle = player(match, "circle")
    assert circle["construction"] == {"available": 23, "spent": 2}
    assert circle["iron"] == {"available": 9, "spent": 1}
    assert match.state.to_dict()["board"]["d2"] == "circle"
    assert derived(match)["raiding_pieces_left"] == 14


def test_camp_on_raided_tile_needs_two_construction():
    match = at("""
        . . . . . . . .
        . . . R . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"construction": 1})
    assert targets(match, "raided_camp") == []
    assert "costs 2 construction" in refusal(match, {"type": "raided_camp", "tile": "d2"})
    assert targets(match, "restore") == ["d2"]


def test_attack_costs_iron_and_food_returns_the_camp_and_raids_the_tile():
    match = at("""
        . . . . . . . .
        . . . S . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 2})
    assert targets(match, "attack") == ["d2", "e3"]
    match.play({"type": "attack", "tile": "e3"})
    data = match.state.to_dict()
    assert data["board"]["e3"] == "raided"
    assert data["derived"]["camps_in_hand"]["square"] == 13  # back in square's hand
    assert data["players"]["circle"]["iron"] == {"available": 9, "spent": 1}
    assert data["players"]["circle"]["food"] == {"available": 1, "not_usable_yet": 0, "spent": 1}
    assert "needs a tile holding square's camp" in refusal(
        match, {"type": "attack", "tile": "e3"})


def test_attack_only_side_by_side():
    match = at("""
        . . . . . . . .
        . . . . S . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 1})
    assert targets(match, "attack") == []
    assert "never diagonally" in refusal(match, {"type": "attack", "tile": "e2"})


def test_no_camp_when_none_is_left_in_hand():
    match = at("""
        C C C C C C C .
        C C C C C C C R
        . . . . . . . .
        . . . . . . . .
        . . . . . . . S
    """)
    assert derived(match)["camps_in_hand"]["circle"] == 0
    assert targets(match, "camp") == [] and targets(match, "raided_camp") == []
    assert targets(match, "raid") == ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h1"]
    assert "no camp pieces left" in refusal(match, {"type": "camp", "tile": "a3"})
    assert "no camp pieces left" in refusal(match, {"type": "raided_camp", "tile": "h2"})


def test_no_raid_and_ruling_no_attack_without_a_raiding_piece():
    match = at("""
        R R R R R R R .
        R R R R R R R .
        . . . . . . . .
        . . . . . . C S
        . . . . . . . .
    """, circle={"food": 1})
    assert derived(match)["raiding_pieces_left"] == 0
    assert targets(match, "raid") == []
    assert targets(match, "attack") == []  # RULING: the attacked tile must be marked raided
    assert "raiding pieces are on the board" in refusal(match, {"type": "raid", "tile": "g5"})
    assert "must mark the tile as raided" in refusal(match, {"type": "attack", "tile": "h4"})
    assert targets(match, "camp") == ["f4", "g3", "g5"]


def test_no_action_without_construction_except_attack():
    match = at("""
        . . . . . . . .
        . . . R . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"construction": 0, "food": 1})
    assert [str(a) for a in match.legal_actions()] == ["attack the camp on e3"]
    assert "costs 1 construction; circle has 0" in refusal(match, {"type": "camp", "tile": "c3"})


# -- control ---------------------------------------------------------------------------------
FIGURE_B_TOP_RIGHT = """
    . . S C R S . .
    . . S R R S . .
    . . . S S . S S
    . . . . . . . .
    . . . . . . . .
"""


def test_figure_b_in_the_top_right_corner_borders_four_tiles_for_square():
    match = at(FIGURE_B_TOP_RIGHT, to_act="square")
    control = derived(match)["control"]
    camps = ["c1", "f1", "c2", "f2", "d3", "e3", "g3", "h3"]
    assert sorted(control["square"]) == sorted(camps + ["g1", "h1", "g2", "h2"])
    assert control["circle"] == ["d1"]
    report = {tuple(r["tiles"]): r for r in match.rules.region_report(match.state, 1)}
    assert report[("g1", "h1", "g2", "h2")]["edges"] == ["top", "right"]
    assert report[("g1", "h1", "g2", "h2")]["controlled"] is True
    # The walled pocket around circle's camp is not square's: it holds an opposing camp.
    pocket = report[("e1", "d2", "e2")]
    assert pocket["opposing_camps"] == ["d1"] and pocket["controlled"] is False


def test_figure_b_needs_the_board_edges_it_was_placed_against():
    moved = """
        S C R S . . . .
        S R R S . . . .
        . S S . S S . .
        . . . . . . . .
        . . . . . . . .
    """
    match = at(moved, to_act="square")
    assert "e1" not in derived(match)["control"]["square"]  # no right edge to close it now


def test_raided_tiles_inside_a_bordered_area_count():
    without_circle = FIGURE_B_TOP_RIGHT.replace("S C R", "S . R", 1)
    match = at(without_circle, to_act="square")
    square = derived(match)["control"]["square"]
    assert {"d1", "e1", "d2", "e2"} <= set(square)  # e1, d2, e2 are raided
    assert derived(match)["controlled_count"]["square"] == 16


def test_diagonal_joins_close_a_wall_but_a_gap_does_not():
    closed = at("""
        . . C . . . . .
        . C . . . . . .
        C . . . . . . .
        . . . . . . . .
        . . . . . . . S
    """)
    assert sorted(derived(closed)["control"]["circle"]) == ["a1", "a2", "a3", "b1", "b2", "c1"]
    gap = at("""
        . . C . . . . .
        . . . . . . . .
        C . . . . . . .
        . . . . . . . .
        . . . . . . . S
    """)
    assert sorted(derived(gap)["control"]["circle"]) == ["a3", "c1"]


def test_a_region_touching_three_edges_is_open():
    match = at("""
        . . . C . . . .
        . . . C . . . .
        . . . C . . . .
        . . . C . . . .
        . . . C . . . S
    """)
    assert derived(match)["controlled_count"]["circle"] == 5
    why = {r["why"] for r in match.rules.region_report(match.state, 0)}
    assert "open: touches 3 board edges (at most 2 may close it)" in why


def test_ruling_two_opposite_edges_may_close_a_strip():
    match = at("""
        . . C . C . . .
        . . C . C . . .
        . . C . C . . .
        . . C . C . . .
        . . C . C . . S
    """)
    assert sorted(derived(match)["control"]["circle"]) == sorted(
        [f"{c}{r}" for c in "cde" for r in range(1, 6)])


def test_an_enclosed_area_needs_no_edge_and_an_opposing_camp_spoils_it():
    ring = """
        . . . . . . . .
        . . . C . . . .
        . . C . C . . .
        . . . C . . . .
        . . . . . . . S
    """
    assert "d3" in derived(at(ring))["control"]["circle"]
    spoiled = at(ring.replace("C . C", "C S C"))
    assert "d3" not in derived(spoiled)["control"]["circle"]


def test_attacking_a_wall_camp_loses_the_area():
    match = at(FIGURE_B_TOP_RIGHT.replace(". . . . . . . .", ". . . . . . C .", 1),
               circle={"food": 1})
    assert "g1" in derived(match)["control"]["square"]
    match.play({"type": "attack", "tile": "g3"})
    square = derived(match)["control"]["square"]
    assert not {"g1", "h1", "g2", "h2", "g3"} & set(square)


FIGURE_A = [
    "S S . S . .",
    ". S R C C .",
    ". R S C C C",
]


@pytest.mark.parametrize("left", [0, 1, 2])
@pytest.mark.parametrize("top", [0, 1, 2])
def test_figure_a_attack_opportunities_anywhere_on_the_board(left, top):
    rows = [". " * 8 for _ in range(5)]
    for r, line in enumerate(FIGURE_A):
        cells = rows[top + r].split()
        cells[left:left + 6] = line.split()
        rows[top + r] = " ".join(cells)
    diagram = "\n".join(rows)

    def tile(column, row):  # 1-based inside the figure
        return f"{chr(97 + left + column - 1)}{top + row}"

    circle = at(diagram, to_act="circle", circle={"food": 1})
    square = at(diagram, to_act="square", square={"food": 1})
    assert targets(circle, "attack") == sorted([tile(4, 1), tile(3, 3)])
    assert targets(square, "attack") == sorted([tile(4, 2), tile(4, 3)])


# -- the end -----------------------------------------------------------------------------------
def test_a_player_without_camps_before_the_first_camp_has_not_lost():
    match = new()
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "camp", "tile": "b1"})
    assert not match.is_over and match.current_player == 1


def test_losing_the_last_camp_loses_at_once():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 1})
    match.play({"type": "attack", "tile": "e3"})
    assert match.is_over and match.winners() == [0]
    assert match.state.to_dict()["result"] == {"winners": [0], "reason": "eliminated"}
    assert derived(match)["result_text"] == "circle wins: square has no camps left on the board"
    assert match.legal_actions() == []


TWENTY = """
    . . C C . . . .
    . . . C . . . .
    . . . C . . . .
    . . . . C C C C
    S . . . . . . .
"""


def test_twenty_one_controlled_tiles_win_at_once():
    match = at(TWENTY)
    assert derived(match)["controlled_count"]["circle"] == 20
    match.play({"type": "camp", "tile": "b1"})
    assert match.is_over and match.winners() == [0]
    assert match.state.to_dict()["result"] == {"winners": [0], "reason": "control"}
    assert match.scores() == {0: 21, 1: 1}


def test_ruling_win_tiles_default_is_a_majority_of_the_board():
    assert new(columns=6, rows=4).rules.win_tiles == 13
    assert new(columns=6, rows=4, win_tiles=10).rules.win_tiles == 10
    with pytest.raises(aloftnb.InvalidOptions, match="more than the 24 tiles"):
        new(columns=6, rows=4, win_tiles=25)


def test_when_neither_player_can_afford_an_action_more_tiles_wins():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C . . . .
        . . . . . . . .
        . . . . . . . S
    """, actions_left=1, circle={"construction": 1, "iron": 0},
        square={"construction": 0, "iron": 0})
    match.play({"type": "camp", "tile": "d4"})
    assert match.is_over
    assert match.state.to_dict()["result"] == {"winners": [0], "reason": "no_actions"}
    assert "neither player can act" in derived(match)["result_text"]


def test_equal_tiles_at_the_end_are_a_draw():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . C C . . . .
        . . . . . . . .
        . . . . . . S S
    """, actions_left=1, circle={"construction": 1, "iron": 0},
        square={"construction": 0, "iron": 0})
    match.play({"type": "raid", "tile": "d4"})
    assert match.is_over and match.winners() == [0, 1]
    assert derived(match)["result_text"] == (
        "a draw: neither player can act, and both control 2 tiles")


def test_ruling_a_turn_ends_early_only_when_no_action_is_possible():
    match = at(EMPTY.replace(". . . . . . . .", ". . C . . . . S", 1))
    assert "end_turn" not in {a.type for a in match.legal_actions()}
    message = refusal(match, {"type": "end_turn"})
    assert "ends early only when no action is possible" in message
    stuck = at(EMPTY.replace(". . . . . . . .", ". . C . . . . S", 1),
               circle={"construction": 1, "iron": 0})
    stuck.play({"type": "camp", "tile": "d1"})
    assert stuck.legal_actions() == [stuck.rules.parse_action({"type": "end_turn"})]
    assert stuck.current_player == 0 and stuck.state.actions_left == 2
    stuck.play({"type": "end_turn"})
    assert (stuck.current_player, stuck.state.actions_left) == (1, 3)


def test_ruling_a_player_who_cannot_act_passes_while_the_other_plays_on():
    match = at(EMPTY.replace(". . . . . . . .", ". . C . . . . S", 1), to_act="square",
               square={"construction": 0, "iron": 0})
    assert [a.type for a in match.legal_actions()] == ["end_turn"]
    match.play({"type": "end_turn"})
    assert match.current_player == 0 and not match.is_over
    assert match.history[-1].text == "square ended the turn: no action was possible"


def test_ruling_food_not_usable_yet_counts_as_a_resource_for_the_end():
    match = at("""
        . . . . . . . .
        . . . . . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, actions_left=1, circle={"construction": 1, "iron": 1},
        square={"construction": 0, "iron": 0})
    match.play({"type": "raid", "tile": "d2"})  # circle's last construction and last action
    assert not match.is_over  # the raided food will pay for an attack next turn
    match.play({"type": "end_turn"})  # square has nothing
    assert targets(match, "attack") == ["e3"]
    match.play({"type": "attack", "tile": "e3"})
    assert match.state.to_dict()["result"] == {"winners": [0], "reason": "eliminated"}


def test_ruling_no_legal_action_ends_the_game_even_with_resources_left():
    match = new(columns=2, rows=2, camps=1, raiding_pieces=0, first_turn_actions=1)
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "camp", "tile": "b2"})
    assert match.is_over and match.winners() == [0, 1]
    assert player(match, "circle")["construction"]["available"] == 24


def test_random_games_end_and_every_ending_is_reachable():
    import random

    rules = new().rules
    reasons = set()
    for seed in range(3000):  # the first seeds that show all three endings; stops early
        rng, state, steps = random.Random(seed), rules.initial_state(seed), 0
        while not rules.is_over(state):
            actions = rules.legal_actions(state)
            state = rules.apply(state, actions[int(rng.random() * len(actions))])
            steps += 1
            assert steps < 500, "a game did not end"
        reasons.add(state.reason)
        if len(reasons) == 3:
            break
    assert reasons == {"eliminated", "control", "no_actions"}


def test_a_first_camp_inside_a_bordered_area_ends_that_control():
    """A player with no camp may camp on any vacant edge tile, also one the rival borders: the
    area then holds an opposing camp and is no longer controlled (apply() updates control
    around the tile played, so this case needs its own update)."""
    match = at("""
    . C . . . . . .
    C . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    """, to_act="square")
    assert sorted(derived(match)["control"]["circle"]) == ["a1", "a2", "b1"]
    match.play({"type": "camp", "tile": "a1"})
    assert sorted(derived(match)["control"]["circle"]) == ["a2", "b1"]
    assert derived(match)["control"]["square"] == ["a1"]
