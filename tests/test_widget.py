"""The board widget's Python side: the intents it accepts, junk it refuses, views kept in step."""

from __future__ import annotations

import json
import random

import pytest

import aloftnb
from aloftnb.core.bots import Bot


def new_board(**kwargs):
    match = aloftnb.new_match("balloons", players=3, seed=7)
    return match, match.board(**kwargs)


def test_board_class_and_repr_are_the_games():
    match, board = new_board()
    from aloftnb.games.balloons.board import GameBoard

    # traitlets gives each widget instance its own subclass, so compare with isinstance
    assert isinstance(board, GameBoard)
    assert isinstance(aloftnb.Board(match), GameBoard)
    assert repr(board) == "GameBoard(balloons, 3 players)"


def test_board_refuses_a_non_match():
    with pytest.raises(ValueError, match="a board shows a Match"):
        aloftnb.Board("balloons")


def test_every_legal_action_is_offered_as_a_click_path():
    match, board = new_board()
    offered = [choice["action"] for choice in board.choices]
    assert offered == [a.to_dict() for a in match.legal_actions()]
    unpack = next(c for c in board.choices if c["action"]["type"] == "unpack")
    assert unpack["path"] == [f"balloon:{unpack['action']['balloon']}",
                              f"truck:{unpack['action']['truck']}"]
    # every drawn key of a path exists in the SVG
    for choice in board.choices:
        for key in choice["path"]:
            assert f'data-key="{key}"' in board.svg


def test_play_intent_plays_and_acks(front_end):
    match, board = new_board()
    revision = board.revision
    sent = front_end(board, {"intent": "play", "id": 5,
                             "action": {"type": "unpack", "balloon": "RW", "truck": 1}})
    assert sent == [{"ack": 5}]
    assert match.position == 1
    assert match.state.to_dict()["balloons"]["RW"] == {"status": "unpacked", "truck": 1}
    assert board.revision > revision
    assert "seat 0: unpacked RW onto truck 1" in board.log[0]["text"]


@pytest.mark.parametrize("junk", [
    None, 7, "play", [], {"intent": 3}, {"intent": "fly"}, {"no": "intent"},
    {"intent": "play"}, {"intent": "play", "action": "RW"},
    {"intent": "play", "action": {"type": "teleport"}},
    {"intent": "play", "action": {"type": "unpack", "balloon": "RW", "truck": 99}},
    {"intent": "play", "action": {"type": "unpack", "balloon": "RW", "truck": [1]}},
    {"intent": "play", "action": {"type": "inflate", "balloon": "RW"}},
    {"intent": "view", "viewer": "everyone"}, {"intent": "seat", "seat": 7, "controller": "random"},
    {"intent": "seat", "seat": 0, "controller": "oracle"}, {"intent": "explain", "path": "x"},
    {"intent": "undo"}, {"intent": "redo"}, {"intent": "step"},
])
def test_junk_is_refused_with_a_message_and_nothing_changes(junk, front_end):
    match, board = new_board()
    before = (match.to_json(), board.svg, board.choices)
    sent = front_end(board, junk)
    assert board.message["kind"] == "error"
    assert board.message["text"].startswith("refused")
    assert (match.to_json(), board.svg, board.choices) == before
    assert len(sent) == 1 and "ack" in sent[0]


def test_refusal_says_why_a_move_is_illegal(front_end):
    match, board = new_board()
    match.play({"type": "unpack", "balloon": "RW", "truck": 1})
    front_end(board, {"intent": "play", "action": {"type": "unpack", "balloon": "GP", "truck": 1}})
    assert board.message["text"] == "refused: truck 1 already carries RW"


def test_clicking_an_unplayable_balloon_explains_why(front_end):
    match, board = new_board()
    match.edit(balloons={"RW": {"status": "flying", "column": 3, "altitude": 2},
                         "GP": {"status": "flying", "column": 4, "altitude": 1}},
               row=[b for b in match.state.to_dict()["row"] if b not in ("RW", "GP")])
    front_end(board, {"intent": "explain", "path": ["balloon:GP"]})
    assert board.message == {"kind": "error", "n": board.message["n"],
                             "text": "GP would fly orthogonally next to RW at column 3, altitude 2"}


def test_a_cell_change_redraws_every_board_of_the_match():
    match, first = new_board()
    second = match.board(viewer="designer")
    match.play({"type": "unpack", "balloon": "GY", "truck": 2})
    for board in (first, second):
        assert 'aria-label="GY (green and yellow), unpacked on truck 2"' in board.svg
    match.set_state(match.state_at(0))
    assert "unpacked on truck 2" not in first.svg and "unpacked on truck 2" not in second.svg
    match.undo()
    assert "unpacked on truck 2" in first.svg


def test_a_click_on_one_board_updates_the_other(front_end):
    match, first = new_board()
    second = match.board()
    front_end(first, {"intent": "play", "action": {"type": "unpack", "balloon": "PW", "truck": 0}})
    assert second.svg == first.svg
    assert second.log == first.log and second.can_undo


def test_undo_and_redo_intents(front_end):
    match, board = new_board()
    match.play({"type": "unpack", "balloon": "PW", "truck": 0})
    front_end(board, {"intent": "undo"})
    assert match.position == 0 and board.can_redo and not board.can_undo
    # the log keeps the undone step; the front end strikes out steps after `position`
    assert board.position == 0 and board.timeline_length == 1 and len(board.log) == 1
    front_end(board, {"intent": "redo"})
    assert match.position == 1 and board.position == 1


def secrets_shown(board, colours):
    """The seat-colour pairs a board publishes (legend in the SVG, seat labels, status)."""
    published = json.dumps([board.svg, board.seats, board.status, board.choices, board.log])
    return {seat for seat, colour in colours.items()
            if f"seat {seat} {colour}" in published or f"Seat {seat} ({colour})" in published}


def test_hot_seat_hides_colours_until_revealed_and_hides_again_next_turn(front_end):
    match, board = new_board()
    colours = match.state.to_dict()["colours"]
    assert secrets_shown(board, colours) == set()
    front_end(board, {"intent": "reveal", "on": True})
    assert secrets_shown(board, colours) == {"0"}
    match.play(match.legal_actions()[0])
    assert board.revealed is False
    assert secrets_shown(board, colours) == set()


def test_designer_and_seat_views(front_end):
    match, board = new_board()
    colours = match.state.to_dict()["colours"]
    front_end(board, {"intent": "view", "viewer": "designer"})
    assert secrets_shown(board, colours) == {"0", "1", "2"}
    front_end(board, {"intent": "view", "viewer": "seat:1"})
    assert secrets_shown(board, colours) == {"1"}
    # seat 1's view cannot play seat 0's turn
    assert board.choices == []
    front_end(board, {"intent": "play", "action": match.legal_actions()[0].to_dict()})
    assert match.position == 0 and "seat 0's turn" in board.message["text"]


def test_colours_are_revealed_when_the_game_is_over():
    match, board = new_board()
    rng = random.Random(3)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    assert secrets_shown(board, match.state.to_dict()["colours"]) == {"0", "1", "2"}
    assert board.over and board.choices == []
    assert "Game over" in board.status and "Winner" in board.status


def test_a_bot_seat_plays_when_stepped_and_people_cannot_play_it(front_end):
    match, board = new_board(bots={1: "random"})
    assert board.seats[1]["controller"] == "random"
    match.play({"type": "unpack", "balloon": "PW", "truck": 0})
    assert board.bot_to_move and board.choices == []
    front_end(board, {"intent": "play", "action": match.legal_actions()[0].to_dict()})
    assert "played by the random bot" in board.message["text"] and match.position == 1
    assert board.step() is True
    assert match.position == 2 and match.current_player == 2
    assert board.step() is False  # seat 2 is a person


def test_bot_play_is_reproducible():
    def play_with_bots():
        match = aloftnb.new_match("balloons", players=3, seed=9)
        board = match.board(bots={0: "random", 1: "random", 2: "random"})
        while board.step():
            pass
        return match.to_json()

    assert play_with_bots() == play_with_bots()


def test_bots_play_to_the_rounds_end_and_stop_there_or_at_a_person(front_end):
    match = aloftnb.new_match("balloons", players=3, seed=9)
    board = match.board(bots={0: "random", 1: "random", 2: "random"})
    assert board.run_round() == 3  # a balloons round is one turn per seat
    assert match.round == 2 and match.position == 3 and match.current_player == 0
    front_end(board, {"intent": "run_round"})
    assert match.round == 3 and match.position == 6
    # With a person at seat 2 the bots stop when it is that person's turn.
    board.set_seat(2, "human")
    assert board.run_round() == 2 and match.current_player == 2 and match.round == 3
    with pytest.raises(aloftnb.AloftnbError, match="no bot is to move"):
        board.run_round()
    front_end(board, {"intent": "run_round"})
    assert "no bot is to move" in board.message["text"] and match.position == 8


def test_undo_steps_back_past_bot_moves_to_a_person(front_end):
    match, board = new_board(bots={1: "random", 2: "random"})
    match.play({"type": "unpack", "balloon": "PW", "truck": 0})
    board.step()
    board.step()
    assert match.position == 3 and match.current_player == 0
    front_end(board, {"intent": "undo"})
    assert match.position == 0


def test_seat_intent_changes_the_controller_for_every_board(front_end):
    match, first = new_board()
    second = match.board()
    front_end(first, {"intent": "seat", "seat": 2, "controller": "random"})
    assert second.seats[2]["controller"] == "random"
    front_end(second, {"intent": "seat", "seat": 2, "controller": "human"})
    assert first.seats[2]["controller"] == "human"


def test_a_failing_bot_pauses_bots_and_says_so():
    class BrokenBot(Bot):
        name = "broken"

        def choose(self, rules, state, seat, rng):
            raise RuntimeError("out of ideas")

    match, board = new_board(bots={0: BrokenBot()})
    assert board.step() is False
    assert match.position == 0
    assert "broken bot at seat 0 failed" in board.message["text"]
    assert board.autoplay is False


def test_a_bot_returning_an_illegal_action_changes_nothing():
    class CheatingBot(Bot):
        name = "cheater"

        def choose(self, rules, state, seat, rng):
            return {"type": "ascend", "balloon": "RW"}

    match, board = new_board(bots={0: CheatingBot()})
    assert board.step() is False and match.position == 0
    assert "cheater bot at seat 0 failed" in board.message["text"]


def test_autoplay_intent_toggles_for_all_boards(front_end):
    match, first = new_board()
    second = match.board()
    front_end(first, {"intent": "autoplay", "on": False})
    assert first.autoplay is False and second.autoplay is False


def test_closed_board_stops_listening():
    match, board = new_board()
    board.close()
    svg = board.svg
    match.play(match.legal_actions()[0])
    assert board.svg == svg


def test_every_legal_action_of_a_full_game_is_clickable_on_the_svg_or_menu():
    """Each path's drawn keys are in the SVG; menu-only keys are the wind and pass choices."""
    for edition in ("fixed", "choice"):
        match = aloftnb.new_match("balloons", players=3, seed=2, edition=edition)
        board = match.board(viewer="designer")
        rng = random.Random(2)
        while not match.is_over:
            for choice in board.choices:
                for key in choice["path"]:
                    assert f'data-key="{key}"' in board.svg or key == "pass", key
            match.play(rng.choice(match.legal_actions()))


def test_bots_play_by_themselves_on_the_event_loop_and_can_be_paused(front_end):
    """In a kernel, boards run on asyncio: bot turns are scheduled, shown as thinking, then played.
    """
    import asyncio

    async def scenario():
        match = aloftnb.new_match("balloons", players=3, seed=7)
        board = match.board(bots={1: "random", 2: "random"}, bot_delay=0.01)
        match.play({"type": "unpack", "balloon": "PW", "truck": 0})
        assert board.thinking is True and match.position == 1  # scheduled, not yet played
        for _ in range(200):
            await asyncio.sleep(0.005)
            if match.current_player == 0:
                break
        assert match.position == 3 and board.thinking is False
        # Paused: a bot turn waits for a person to step it.
        front_end(board, {"intent": "autoplay", "on": False})
        match.play(match.legal_actions()[0])
        await asyncio.sleep(0.05)
        assert match.position == 4 and board.bot_to_move and not board.thinking
        front_end(board, {"intent": "step"})  # the bot thinks off the loop, then plays
        for _ in range(200):
            await asyncio.sleep(0.005)
            if match.position == 5:
                break
        assert match.position == 5

    # A thread of its own: other tests (Playwright, nbclient) may leave a loop running here.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=60)


def test_in_a_kernel_bots_run_to_the_rounds_end_without_their_delay_and_undo_stops_them(
        front_end):
    import asyncio

    async def scenario():
        match = aloftnb.new_match("balloons", players=3, seed=7)
        board = match.board(bots={0: "random", 1: "random", 2: "random"}, autoplay=False,
                            bot_delay=10)  # 3 moves would take 30 s with it
        front_end(board, {"intent": "run_round"})
        for _ in range(400):
            await asyncio.sleep(0.005)
            if match.round == 2:
                break
        await asyncio.sleep(0.05)
        assert match.round == 2 and match.position == 3 and not board.thinking
        front_end(board, {"intent": "run_round"})
        await asyncio.sleep(0)  # the first bot is thinking (or has just played)
        match.undo()  # stops the run: nothing more is played
        stopped_at = match.position
        await asyncio.sleep(0.2)
        assert stopped_at <= 3 and match.position == stopped_at and not board.thinking

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=60)


def test_a_message_goes_stale_when_the_position_or_view_changes(front_end):
    match, board = new_board()
    front_end(board, {"intent": "explain", "path": ["truck:0"]})
    assert board.message["text"] == "pick a balloon first, then a free truck for it"
    board._publish()  # a redraw with nothing changed keeps it
    assert board.message["text"]
    match.play(match.legal_actions()[0])
    assert board.message["text"] == ""
    front_end(board, {"intent": "explain", "path": ["truck:0"]})
    match.undo()
    assert board.message["text"] == ""
    front_end(board, {"intent": "explain", "path": ["truck:0"]})
    front_end(board, {"intent": "view", "viewer": "designer"})
    assert board.message["text"] == ""


def test_a_one_seat_view_says_whose_turn_it_is(front_end):
    _, board = new_board(viewer="seat:1")
    front_end(board, {"intent": "explain", "path": ["balloon:RW"]})
    assert board.message["text"].startswith("it is seat 0's turn; this view shows seat 1 only")
    assert "legal" not in board.message["text"]


def test_goto_intent_moves_along_the_timeline_and_refuses_junk(front_end):
    match, board = new_board()
    for _ in range(4):
        match.play(match.legal_actions()[0])
    front_end(board, {"intent": "goto", "position": 1})
    assert match.position == 1 and board.position == 1 and board.timeline_length == 4
    for junk in ("2", 2.0, True, None, 99, -1):
        front_end(board, {"intent": "goto", "position": junk})
        assert match.position == 1 and board.message["text"].startswith("refused")
    match.goto(3)  # from a cell: the board follows
    assert board.position == 3


def test_goto_pauses_bots_so_a_replay_is_not_cut_off(front_end):
    match, board = new_board(bots={1: "random"})
    match.play(match.legal_actions()[0])
    board.step()
    match.play(match.legal_actions()[0])
    front_end(board, {"intent": "goto", "position": 1})  # seat 1 (a bot) to move there
    assert not board.control.autoplay and board.autoplay is False
    assert match.position == 1 and len(match.timeline) == 3


def test_stepping_back_pauses_the_bots_with_a_lasting_note_and_the_latest_step_resumes_them(
        front_end):
    match, board = new_board(bots={1: "random", 2: "random"})
    other = match.board()  # a second board of the match: the same note, the same box
    match.play(match.legal_actions()[0])
    board.step()
    board.step()
    assert match.position == 3 and board.autoplay and board.bots_note == ""
    front_end(board, {"intent": "goto", "position": 1})
    assert not board.autoplay and not other.autoplay
    assert "Bots paused while you look back" in board.bots_note
    assert other.bots_note == board.bots_note
    # It lasts through redraws that clear messages (a view change, another step back).
    front_end(board, {"intent": "view", "viewer": "designer"})
    front_end(other, {"intent": "goto", "position": 2})
    assert "Bots paused" in board.bots_note and not board.autoplay
    # Back at the latest step, the bots the timeline paused play on.
    front_end(board, {"intent": "goto", "position": 3})
    assert board.autoplay and other.autoplay and board.control.autoplay
    assert board.bots_note == "" and other.bots_note == ""
    # Undo goes back to a person's turn; a new move there replaces the later steps, and the
    # bots answer it.
    front_end(board, {"intent": "undo"})
    assert match.position == 0 and not board.autoplay and board.bots_note
    match.play(match.legal_actions()[-1])
    assert len(match.timeline) == 1 and board.autoplay and board.bots_note == ""


def test_bots_a_person_paused_stay_paused_at_the_latest_step(front_end):
    match, board = new_board(bots={1: "random"})
    match.play(match.legal_actions()[0])
    board.step()
    front_end(board, {"intent": "goto", "position": 0})
    front_end(board, {"intent": "autoplay", "on": False})  # the person's choice, not the timeline's
    assert board.bots_note == ""
    front_end(board, {"intent": "goto", "position": 2})
    assert not board.autoplay and board.bots_note == ""
    # Ticking the box while looking back lets them play from there: no note, no pause.
    front_end(board, {"intent": "goto", "position": 1})
    front_end(board, {"intent": "autoplay", "on": True})
    assert board.autoplay and board.bots_note == ""


def test_only_new_log_entries_travel_after_the_first_redraw():
    match, board = new_board()
    for _ in range(5):
        match.play(match.legal_actions()[0])
    assert board.log_delta["start"] == 4 and len(board.log_delta["entries"]) == 1
    assert len(board.log) == 5  # the whole log, for views that say hello
    match.undo(2)  # undoing changes no entry: nothing new to send
    assert board.log_delta["start"] == 4 and board.position == 3
    match.play(match.legal_actions()[-1])  # a new branch replaces the undone steps
    assert board.log_delta["start"] == 3 and board.log_delta["length"] == 4
    assert [e["text"] for e in board.log] == [str(e) for e in match.timeline]


def test_recent_moves_are_those_since_the_viewed_seat_last_played():
    match, board = new_board(bots={1: "random", 2: "random"})
    match.play(match.legal_actions()[0])
    board.step()
    board.step()
    assert board.recent["from"] == 1 and board.recent["to"] == 3
    expected = [k for i in (1, 2)
                for k in match.rules.action_path(match.state_at(i), match.history[i].action)]
    assert board.recent["keys"] and set(board.recent["keys"]) <= set(expected)
    board._set_viewer("seat:1")
    board._publish()
    assert (board.recent["from"], board.recent["to"]) == (2, 3)  # only seat 2 since seat 1


def test_boards_of_replayed_results_name_the_bots():
    results = aloftnb.simulate("balloons", players=2, games=1, bots=["random", "greedy"], seed=1,
                               workers=1, progress=False)
    match = aloftnb.results_match(results, 0)
    board = match.board()
    assert [seat["played_by"] for seat in board.seats] == ["random", "greedy"]
    assert board.position == board.timeline_length == len(match.timeline)


def test_many_choices_send_first_steps_then_what_follows_a_selection(front_end):
    match = aloftnb.new_match("alu", players=2, seed=1)
    board = match.board()
    everything = [c["action"] for c in board.choices]
    assert len(everything) == 22 and not any(c.get("partial") for c in board.choices)
    type(board).choices_limit = 5  # the board's class (traitlets gives each instance its own)
    try:
        board._publish()
        stubs = [c for c in board.choices if c.get("partial")]
        assert {c["path"][0] for c in stubs} == {f"tile:{a['tile']}" for a in everything}
        assert sum(c["count"] for c in stubs) == 22 and all(len(c["path"]) == 1 for c in stubs)
        front_end(board, {"intent": "select", "path": ["tile:a1"]})
        full = [c for c in board.choices if not c.get("partial")]
        assert [c["action"] for c in full] == [a for a in everything if a["tile"] == "a1"]
        assert all(c["path"][0] == "tile:a1" for c in full)
        front_end(board, {"intent": "select", "path": "tile:a1"})
        assert board.message["text"] == "refused: a select intent needs a path of keys"
    finally:
        del type(board).choices_limit


def test_a_viewer_set_from_a_cell_shows_that_view_at_once():
    """`board.viewer = "seat:0"` from a cell once changed the label only: the board went on
    showing the view before (the designer's, say), with the choices of the seat to play."""
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    rng = random.Random(2)
    while match.phase != "prep" or match.current_player != 1:
        match.play(rng.choice(match.legal_actions()))
    board = match.board(viewer="designer")
    for viewer in ("seat:0", "seat:1", "turn", "designer"):
        board.viewer = viewer
        fresh = match.board(viewer=viewer)
        assert (board.svg, board.choices, board.status, board.log) == (
            fresh.svg, fresh.choices, fresh.status, fresh.log), viewer
    board.viewer = "seat:0"
    assert board.choices == []  # seat 1 is to play: seat 0's view offers nothing
    with pytest.raises(aloftnb.AloftnbError, match="seat:7"):
        board.viewer = "seat:7"
    assert board.viewer == "seat:0"
