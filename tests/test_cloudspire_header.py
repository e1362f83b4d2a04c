"""A Cloudspire board's header and its map name the same stage of the game: the wave and its phase
(and, in an onslaught, the round of that wave and the stage), as the rules speak of them. The
generic header counted onslaught rounds through the whole game, so it read "Round 6, build phase"
above a map that said "Wave 2 of 4, build phase"."""

from __future__ import annotations

import html
import random
import re

import pytest

import aloftnb

HEADLINE = re.compile(r'class="cloudspire-headline">([^<]*)</text>')
WAVE = re.compile(r"^Wave (\d+) of (\d+), (\w+) phase(?:, round (\d+)(?:, (\w+) stage)?)?$")


def map_stage(svg: str) -> str:
    """The stage the map's headline names: its first sentence ("Wave 2 of 4, build phase")."""
    found = HEADLINE.search(svg)
    assert found, "the map draws no headline"
    return html.unescape(found.group(1)).split(". ")[0]


def header_stage(status: str) -> str:
    return status.split(". ")[0]


def stages_along_a_game(options: dict, seed: int, viewer: str, steps: int = 900):
    """(header, map) stage texts at every step of a seeded random game with chance steps left
    to the designer, until it ends or `steps` run out; the board is seen by `viewer`."""
    match = aloftnb.new_match("cloudspire", seed=seed, auto_chance=False, **options)
    board = match.board(viewer=viewer)
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        if match.is_over:
            break
        seen.append((header_stage(board.status), map_stage(board.svg)))
        if match.is_chance:
            match.resolve_chance()
        else:
            match.play(rng.choice(match.legal_actions()))
    return seen


@pytest.mark.parametrize(("options", "viewer"), [
    ({"players": 2}, "seat:1"),  # the rival seat's own board
    ({"players": 2}, "designer"),
    ({"players": 3}, "turn"),
    ({"players": 1, "mode": "solo"}, "seat:0"),
], ids=["2 players, rival seat", "2 players, designer", "3 players, hot seat", "solo"])
def test_the_header_and_the_map_name_the_same_wave_and_phase(options, viewer):
    seen = stages_along_a_game(options, seed=4, viewer=viewer)
    waves, phases = set(), set()
    for header, drawn in seen:
        assert header == drawn, (header, drawn)
        named = WAVE.match(header)
        assert named, header
        wave, waves_in_game, phase, round_, _ = named.groups()
        waves.add(int(wave))
        phases.add(phase)
        assert int(waves_in_game) == 4
        assert round_ is None or phase == "onslaught", header
    # The game got past its first wave (where the old header's rounds ran ahead of the waves)
    # and through every phase a seat plays in.
    assert max(waves) >= 2
    assert {"market", "build", "prep", "onslaught"} <= phases


def test_the_header_names_the_wave_of_the_state_and_the_round_of_that_wave():
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    board = match.board(viewer="seat:1")
    rng = random.Random(4)
    checked = 0
    while not match.is_over and checked < 400:
        state = match.state
        head = board.status
        assert head.startswith(f"Wave {state.wave} of 4, {match.phase} phase"), head
        if match.phase == "onslaught" and state.round:
            assert f", round {state.round}" in head, head  # the round of this wave
        assert "Round" not in head, head  # not the rounds counted through the game
        match.play(rng.choice(match.legal_actions()))
        checked += 1
    assert checked >= 100


def test_a_chance_step_and_the_end_keep_their_own_words():
    match = aloftnb.new_match("cloudspire", players=2, seed=4, auto_chance=False)
    board = match.board(viewer="designer")
    assert match.is_chance
    assert board.status.startswith(f"{map_stage(board.svg)}. A chance step: ")
    match.auto_chance = True
    rng = random.Random(4)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    assert board.status.startswith("Game over. ")


def test_the_news_of_a_new_round_names_the_wave_as_the_header_does():
    """The news a board speaks after a move names a new round's stage with the header's words:
    it said "Round 9, market phase." in wave 2."""
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    board = match.board(viewer="seat:1")
    rng = random.Random(4)
    told = []
    while not match.is_over and len(match.history) < 900:
        match.play(rng.choice(match.legal_actions()))
        text = board.news.get("text", "") if board.news else ""
        if not told or text != told[-1]:
            told.append(text)
    stages = [line for text in told for line in re.findall(r"Wave \d+ of \d+, \w+ phase", text)]
    assert stages, "no news named a stage"
    assert not any(re.search(r"\bRound \d+", text) for text in told), told
    named = [WAVE.match(stage) for stage in stages]
    assert "onslaught" in {found.group(3) for found in named}
    assert len({found.group(1) for found in named}) >= 2  # the news follows the game's waves
