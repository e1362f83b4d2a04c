"""ALU's drawing and board, Python side: labels for every tile, click paths, intents and junk."""

from __future__ import annotations

import re

import pytest

import aloftnb
from aloftnb.games.alu.drawing import tile_label

FIGURE_B = """
    . . S C R S . .
    . . S R R S . .
    . . . S S . S S
    . . . . . . . .
    . . . . . . . .
"""


def new_board(**kwargs):
    match = aloftnb.new_match("alu", players=2, seed=2)
    return match, match.board(**kwargs)


def labels(svg):
    return dict(re.findall(r'data-key="(tile:[a-z]\d+)" class="[^"]*" aria-label="([^"]*)"', svg))


def test_every_tile_is_drawn_with_a_key_and_a_spoken_label():
    match = aloftnb.new_match("alu", players=2)
    match.set_state(match.rules.position(FIGURE_B, to_act="square"))
    svg = match._repr_svg_()
    found = labels(svg)
    assert len(found) == 40
    assert found["tile:g1"] == "tile g1: empty, controlled by square"
    assert found["tile:d1"] == "tile d1: circle camp, controlled by circle"
    assert found["tile:e1"] == "tile e1: raided, not controlled"
    assert found["tile:c1"] == "tile c1: square camp, controlled by square"
    assert found["tile:a5"] == "tile a5: empty, not controlled"
    assert 'class="tile tile-empty control-square"' in svg  # the shading of a bordered tile
    assert svg.count("url(#alu-control-square)") == 12


def test_tile_label_wording():
    assert tile_label("c3", "circle", "circle") == "tile c3: circle camp, controlled by circle"
    assert tile_label("h5", "raided", None) == "tile h5: raided, not controlled"


def test_the_drawing_shows_counters_pieces_and_actions_left():
    match = aloftnb.new_match("alu", players=2)
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "raid", "tile": "b1"})
    match.play({"type": "camp", "tile": "h5"})
    match.play({"type": "raid", "tile": "h4"})
    svg = match._repr_svg_()
    assert "Turn 2: square to act, 1 action left" in svg
    assert "23 available · 2 spent" in svg  # circle's construction
    assert "1 available · 0 not usable yet · 0 spent" in svg  # circle's food, usable now
    assert "0 available · 1 not usable yet · 0 spent" in svg  # square's raid this turn
    assert "Camps: 13 in hand, 1 on the board" in svg
    assert "Raiding pieces left (shared): 12" in svg
    assert svg.count('class="pip left"') == 1 and svg.count('class="pip used"') == 2
    assert 'aria-label="square has 1 action(s) left this turn"' in svg


def test_the_drawing_of_a_finished_game_names_the_winner():
    match = aloftnb.new_match("alu", players=2)
    match.set_state(match.rules.position("""
        . . . . . . . .
        . . . . . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 1}))
    match.play({"type": "attack", "tile": "e3"})
    svg = match._repr_svg_()
    assert "Circle wins: square has no camps left on the board" in svg
    assert "Actions left" not in svg


def test_action_paths_are_a_tile_then_the_action():
    match, board = new_board()
    rules = match.rules
    assert rules.action_path(match.state, rules.parse_action(
        {"type": "camp", "tile": "a1"})) == ["tile:a1", "do:camp"]
    assert rules.action_path(match.state, rules.parse_action({"type": "end_turn"})) == [
        "do:end_turn"]
    offered = [choice["action"] for choice in board.choices]
    assert offered == [a.to_dict() for a in match.legal_actions()]
    for choice in board.choices:  # a tile, then an action button of the drawn action bar
        assert choice["path"][1].startswith("do:")
        for key in choice["path"]:
            assert f'data-key="{key}"' in board.svg


def test_the_action_bar_follows_the_tiles_and_says_each_cost():
    _match, board = new_board()
    svg = board.svg
    buttons = re.findall(r'data-key="(do:[a-z_]+)" class="[^"]*" aria-label="([^"]*)"', svg)
    assert dict(buttons) == {
        "do:camp": "Set up a camp (1 construction)",
        "do:raid": "Raid (1 construction, +1 food)",
        "do:restore": "Restore (1 construction)",
        "do:raided_camp": "Camp on raided tile (2 construction, 1 iron)",
        "do:attack": "Attack (1 iron, 1 food)",
        "do:end_turn": "End the turn (when no action is possible)",
    }
    # Tab order is document order: every tile comes before the first action button.
    assert svg.rindex('data-key="tile:') < svg.index('data-key="do:')


def test_a_tile_offers_only_its_legal_actions():
    match, board = new_board()
    match.set_state(match.rules.position("""
        . . . . . . . .
        . . . R . . . .
        . . . C S . . .
        . . . . . . . .
        . . . . . . . .
    """, circle={"food": 1}))
    by_tile = {}
    for choice in board.choices:
        by_tile.setdefault(choice["path"][0], []).append(choice["path"][1])
    assert by_tile["tile:d2"] == ["do:restore", "do:raided_camp"]
    assert by_tile["tile:c3"] == ["do:camp", "do:raid"]
    assert by_tile["tile:e3"] == ["do:attack"]
    assert "tile:e4" not in by_tile  # diagonal
    assert board.hints()["tile:d2"] == "d2 (raided): choose restore or raided camp."


def test_play_intent_plays_and_the_status_says_what_happened(front_end):
    match, board = new_board()
    sent = front_end(board, {"intent": "play", "id": 3, "action": {"type": "camp", "tile": "a1"}})
    assert sent == [{"ack": 3}]
    assert match.state.to_dict()["board"]["a1"] == "circle"
    assert board.status == ("circle set up a camp on a1 (first camp). Circle (seat 0) to act, "
                            "1 action left. Circle controls 1, square 0.")
    assert "circle set up a camp on a1" in board.log[0]["text"]
    assert board.seats[0]["label"] == "Seat 0 (circle)"


@pytest.mark.parametrize("junk, reason", [
    (None, "not an intent"),
    ({"intent": "conquer"}, "unknown intent"),
    ({"intent": "play"}, "an action must be an Action or a dict"),
    ({"intent": "play", "action": {"type": "camp", "tile": "c3"}}, "not on the board's edge"),
    ({"intent": "play", "action": {"type": "camp", "tile": "q9"}}, "there is no tile 'q9'"),
    ({"intent": "play", "action": {"type": "raid", "tile": "a1"}}, "first action must be"),
    ({"intent": "play", "action": {"type": "end_turn"}}, "a turn ends early only when"),
    ({"intent": "play", "action": {"type": "camp", "tile": {"x": 1}}}, "must be a plain value"),
    ({"intent": "explain", "path": "tile:c3"}, "an explain intent needs a path"),
])
def test_junk_intents_are_refused_and_change_nothing(junk, reason, front_end):
    match, board = new_board()
    sent = front_end(board, junk)
    assert sent == [{"ack": junk.get("id") if isinstance(junk, dict) else None}]
    assert match.position == 0
    assert board.message["kind"] == "error" and reason in board.message["text"]


def test_explain_says_why_a_tile_does_nothing(front_end):
    match, board = new_board()
    front_end(board, {"intent": "explain", "path": ["tile:c3"]})
    assert board.message["text"] == (
        "c3 is not on the board's edge; circle's first camp must be on one")
    match.set_state(match.rules.position(FIGURE_B, to_act="circle"))
    assert board.explain(["tile:d1"]) == (
        "d1 holds circle's own camp; actions go on the tiles next to your camps")
    assert board.explain(["tile:c1"]).startswith("c1: attacking costs 1 iron and 1 food")
    assert board.explain(["tile:h5"]).startswith("h5 is not orthogonally next to")
    assert board.explain(["tile:zz"]) == "there is no tile 'zz'"
    assert board.explain(["do:camp"]) == "choose a tile first, then an action for it"
    assert board.explain(["tile:g1", "do:raid"]).startswith("g1 is not orthogonally next")
    assert board.explain(["tile:c1", "do:attack"]).startswith("c1: attacking costs 1 iron")
    assert "ends early only when no action is possible" in board.explain(["do:end_turn"])
    assert board.explain(["do:fly"]) == "nothing can be played there now"
    assert board.explain(["tile:g1", "tile:h1"]) == (
        "g1 was chosen, so h1 was not: choose an action for g1, or press Escape and then "
        "choose h1")


def test_a_bot_can_take_a_seat_and_play_from_the_board():
    match, board = new_board(bots={1: "greedy"}, autoplay=False)
    match.play({"type": "camp", "tile": "a1"})
    match.play({"type": "camp", "tile": "b1"})
    assert board.bot_to_move and board.choices == []  # no clicks for the bot's seat
    assert "Square (seat 1, greedy bot) to act" in board.status
    assert board.step()
    assert match.position == 3 and match.history[-1].seat == 1


def test_undo_and_redo_intents(front_end):
    match, board = new_board()
    front_end(board, {"intent": "play", "action": {"type": "camp", "tile": "a1"}})
    front_end(board, {"intent": "undo"})
    assert match.position == 0 and board.can_redo
    front_end(board, {"intent": "redo"})
    assert match.state.to_dict()["board"]["a1"] == "circle"


def test_board_repr_is_stable():
    _match, board = new_board()
    assert repr(board) == "GameBoard(alu, 2 players)"
