"""The board's `news`: what bots, chance and other boards just did, told to a polite live region
(board.js), and `key_actions`' generic wording. Secrets in news: tests/test_secrets.py."""

from __future__ import annotations

import asyncio

import aloftnb


def through_setup(seed: int = 3) -> aloftnb.Match:
    match = aloftnb.new_match("commodores", players=3, seed=seed)
    while match.phase == "setup":
        match.play(match.legal_actions()[0])
    return match


def end_turn(match: aloftnb.Match) -> None:
    while match.current_player == 0:
        actions = match.legal_actions()
        match.play(next((a for a in actions if a.type.startswith("end")), actions[0]))


def told_texts(board) -> list[str]:
    texts: list[str] = []
    board.observe(lambda change: texts.append(change["new"]["text"]), names="news")
    return texts


def test_in_a_kernel_every_bot_move_and_the_new_round_are_told():
    """Bots playing on the event loop (as in a kernel, where each move schedules the next bot
    before the boards hear of the move) have every move told, once, and the new round."""
    match = through_setup()

    async def play() -> tuple[list[str], int]:
        board = match.board(bots={1: "random", 2: "random"}, bot_delay=0)
        texts = told_texts(board)
        start = match.position
        end_turn(match)
        ours = match.position
        for _ in range(3000):
            await asyncio.sleep(0.002)
            if match.current_player == 0:
                break
        assert match.current_player == 0, "the bots never finished their turns"
        lines = [e.line_for(None).rstrip(".") for e in match.history[ours:]]
        assert len(lines) >= 4
        told = " ".join(texts)
        for line in lines:
            assert told.count(line) >= 1, (line, texts)
        # Seat 0's own moves, played here, are not told back.
        for entry in match.history[start:ours]:
            assert entry.line_for(None).rstrip(".") not in told
        board.close()
        return texts, match.round

    texts, round_now = asyncio.run(play())
    assert round_now == 2 and texts[-1].endswith("Round 2, forage phase."), texts


def test_undo_and_the_timeline_tell_nothing_and_a_new_view_starts_quiet():
    match = through_setup()
    board = match.board(bots={1: "random", 2: "random"})
    texts = told_texts(board)
    end_turn(match)
    assert board.step() and texts and "seat 1" in texts[-1]
    count = len(texts)
    match.goto(match.position - 3)
    match.redo()
    match.goto(len(match.timeline))
    assert len(texts) == count
    late = match.board()
    assert late.news == {}
    board.close()
    late.close()


def test_a_seat_view_hears_the_other_seats_and_chance_not_its_own_moves():
    match = through_setup()
    mine, theirs = match.board(viewer="seat:0"), match.board(viewer="seat:1")
    heard_mine, heard_theirs = told_texts(mine), told_texts(theirs)
    match.play(match.legal_actions()[0])  # seat 0 forages
    assert heard_mine == [] and "seat 0 (forage)" in heard_theirs[-1]
    assert mine.news == {}
    mine.close()
    theirs.close()
