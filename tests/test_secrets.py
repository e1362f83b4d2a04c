"""No secret in any text: a board in a seat's view shows nothing that depends on what that seat
cannot see.

Checked as indistinguishability, on every registered game with hidden information: two matches
whose histories differ only in what a seat cannot see (a stack's order or grouping, a face-down
landmark, a set-aside leviathan, a colour card, a hidden commitment) give that seat the same
`view(seat)` at every step, and then the boards in that seat's view ("seat:N", and hot seat while
it is that seat's turn, with its secrets shown or not) must publish exactly the same things: the
drawing, the log, the status line, hints, choices, seat labels, the reveal label, the recent-move
marks and the messages. The pairs are random: the second history follows the first, replacing at
random the steps of other seats and of chance by other ones that look the same to the seat.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from harbour_game import HarbourHooks, HarbourRules

import aloftnb
from aloftnb import Match
from aloftnb.core.registry import BUILT_IN_GAMES, make_rules, register, rules_class

register(HarbourRules, hooks=HarbourHooks())

# (game, players, options) with hidden information; every such built-in game appears (checked).
CONFIGS = [
    ("balloons", 3, {}),
    ("balloons", 4, {"edition": "choice"}),
    ("commodores", 3, {}),
    ("commodores", 2, {"two_players": True, "radius": 3, "turn_limit": 6}),
    ("cloudspire", 2, {}),
    ("cloudspire", 3, {"waves": 2}),
    ("cloudspire", 2, {"variant": "simplified", "waves": 3}),
    ("cloudspire", 3, {"mode": "cooperative", "waves": 2}),
    ("harbour", 3, {}),
]
IDS = [f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
       for g, p, o in CONFIGS]
# Random pairs per configuration and seat, by how often the second history takes another step:
# often (they part early, in set-up or the first stack) or seldom (they part later, if at all).
SWAPS = (0.6, 0.3, 0.1, 0.6)
PAIRS = len(SWAPS)
# What a board publishes that is not a picture of the game: counters of its own redraws.
NOT_COMPARED = {"svg_patch", "svg_revision", "log_delta", "revision", "layout", "comm",
                "_model_id", "_view_count", "tabbable", "tooltip", "keys", "_dom_classes"}


def test_every_game_with_hidden_information_is_covered():
    hidden = {game for game in BUILT_IN_GAMES
              if rules_class(game).traits.information == "imperfect"}
    assert hidden <= {game for game, _, _ in CONFIGS}
    assert {"balloons", "commodores", "cloudspire"} <= hidden


def _options(rules: Any, state: Any) -> list[Any]:
    """What may happen next: the chance outcomes, or the legal actions."""
    if rules.is_chance(state):
        return [outcome for outcome, _ in rules.chance_outcomes(state)]
    return list(rules.legal_actions(state))


def _looks(rules: Any, state: Any, seat: int) -> tuple:
    return (rules.view(state, seat), rules.current_player(state), rules.phase(state))


def _start_seeds(rules: Any, seat: int, seed: int) -> tuple[int, int]:
    """Two seeds whose starting positions look the same to `seat`, different ones if possible
    (balloons deals the colour cards at set-up)."""
    first = rules.initial_state(seed)
    for other in range(seed + 1, seed + 200):
        start = rules.initial_state(other)
        if _looks(rules, start, seat) == _looks(rules, first, seat) and \
                rules.state_to_dict(start) != rules.state_to_dict(first):
            return seed, other
    return seed, seed


def hidden_twins(rules: Any, seat: int, rng: random.Random, steps: int = 400,
                 swap: float = 0.6) -> tuple[int, int, list[Any], list[Any]]:
    """Two histories (start seeds and steps) that `seat` cannot tell apart: at every step the
    second plays, with probability `swap`, another step than the first when one gives the same
    view to `seat` and a different state than the first's step would there (never for the
    seat's own decisions). Ends at the
    game's end, after `steps`, or where no step of the second history can look like the
    first's."""
    seed_a, seed_b = _start_seeds(rules, seat, rng.randrange(10_000))
    a, b = rules.initial_state(seed_a), rules.initial_state(seed_b)
    steps_a: list[Any] = []
    steps_b: list[Any] = []
    for _ in range(steps):
        if rules.is_over(a):
            break
        mover = rules.current_player(a)
        found = None
        choices_a = _options(rules, a)
        rng.shuffle(choices_a)
        for step_a in choices_a[:8]:
            after_a = rules.apply(a, step_a)
            looks = _looks(rules, after_a, seat)
            choices_b = _options(rules, b)
            rng.shuffle(choices_b)
            if mover == seat or rng.random() > swap:
                choices_b = [step_a] + choices_b
            if mover == seat:
                choices_b = [step_a]
            options_b = _options(rules, b)
            for step_b in choices_b[:12]:
                if step_b not in options_b:
                    continue
                after_b = rules.apply(b, step_b)
                if _looks(rules, after_b, seat) != looks:
                    continue
                # Another step is a hidden difference only if it leaves one in the state: two
                # die rolls that both defeat a unit are public events with the same effect.
                if step_b != step_a and step_a in options_b and rules.state_to_dict(
                        rules.apply(b, step_a)) == rules.state_to_dict(after_b):
                    continue
                found = (step_a, after_a, step_b, after_b)
                break
            if found:
                break
        if found is None:
            break
        step_a, a, step_b, b = found
        steps_a.append(step_a)
        steps_b.append(step_b)
    return seed_a, seed_b, steps_a, steps_b


def replayed(rules: Any, seed: int, steps: list[Any]) -> Match:
    match = Match(make_rules(rules.name, rules.players, **rules.options), seed,
                  auto_chance=False)
    for step in steps:
        if match.is_chance:
            match.force(step)
        else:
            match.play(step)
    return match


def published(board: Any) -> dict[str, Any]:
    """Everything the board sends to its views, but its own redraw counters."""
    traits = {name: getattr(board, name) for name in board.trait_names(sync=lambda v: v)
              if name not in NOT_COMPARED}
    traits["log"] = board._trait_values["log"]  # the whole log, as a new view receives it
    return traits


def differences(one: dict[str, Any], two: dict[str, Any]) -> list[str]:
    """What differs, item by item for lists (the log), so a failure names the leaking line."""
    found = []
    for name in one:
        a, b = one[name], two[name]
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            found += [f"{name}[{i}]: {str(x)[:300]!r} != {str(y)[:300]!r}"
                      for i, (x, y) in enumerate(zip(a, b)) if x != y][:3]
        else:
            found.append(f"{name}: {str(a)[:300]!r} != {str(b)[:300]!r}")
    return found


def compare_boards(match_a: Match, match_b: Match, seat: int, positions: list[int]) -> int:
    """Boards in `seat`'s view of both matches publish the same at each of `positions`; returns
    how many views were compared."""
    compared = 0
    boards = [(match_a.board(viewer=f"seat:{seat}"), match_b.board(viewer=f"seat:{seat}"))]
    hot = (match_a.board(viewer="turn"), match_b.board(viewer="turn"))
    try:
        for position in positions:
            match_a.goto(position)
            match_b.goto(position)
            for board_a, board_b in boards:
                found = differences(published(board_a), published(board_b))
                assert not found, f"seat {seat}'s view differs at step {position}: {found}"
                compared += 1
            if match_a.current_player == seat:  # hot seat shows the seat to move
                for on in (False, True):
                    for board in hot:
                        board.handle_intent({"intent": "reveal", "on": on})
                    found = differences(published(hot[0]), published(hot[1]))
                    assert not found, (f"hot seat ({'revealed' if on else 'hidden'}) differs "
                                       f"at step {position}: {found}")
                    compared += 1
                for key in _clickable_keys(hot[0].svg)[:6]:  # what a click is told
                    for board in (*hot, *boards[0]):
                        board.handle_intent({"intent": "explain", "path": [key]})
                    assert hot[0].message == hot[1].message
                    assert boards[0][0].message == boards[0][1].message
    finally:
        for board in (*boards[0], *hot):
            board.close()
    return compared


def _clickable_keys(svg: str) -> list[str]:
    return sorted(set(re.findall(r'data-key="([^"]+)"', svg)))


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_histories_a_seat_cannot_tell_apart_give_it_the_same_board(game, players, options):
    rules = make_rules(game, players, **options)
    rng = random.Random(f"{game}{players}{sorted(options.items())}")
    differing = compared = 0
    for seat in range(players):
        for swap in SWAPS:
            seed_a, seed_b, steps_a, steps_b = hidden_twins(rules, seat, rng, swap=swap)
            match_a = replayed(rules, seed_a, steps_a)
            match_b = replayed(rules, seed_b, steps_b)
            if steps_a != steps_b or seed_a != seed_b:
                differing += 1
            end = len(steps_a)
            positions = sorted({end, end // 2, *rng.sample(range(end + 1), min(6, end + 1))})
            compared += compare_boards(match_a, match_b, seat, positions)
    assert compared >= players * PAIRS
    # The pairs must really differ in hidden things, or the test would check nothing.
    assert differing >= PAIRS, f"only {differing} pairs differ"


def test_the_pairs_differ_in_what_cloudspire_hides():
    """The random pairs reach the secrets the issue names: stacks and landmark faces."""
    rules = make_rules("cloudspire", 2)
    rng = random.Random(3)
    stacks = groups = faces = 0
    for k in range(16):
        _, _, steps_a, steps_b = hidden_twins(rules, 1, rng, swap=0.6 if k % 2 else 0.1)
        for a, b in zip(steps_a, steps_b):
            if a != b and a.type == "deploy":
                stacks += 1
                groups += b.type == "deploy" and a.group != b.group
            if a != b and a.type == "draw" and rules.catalogue.faces.get(a.card):
                faces += 1
    assert stacks and groups and faces, (stacks, groups, faces)


def _cloudspire_after_seat_0_stack() -> Match:
    """A 2-player Cloudspire match where seat 0 has just put three chips in its stack."""
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    rng = random.Random(4)
    while not (match.phase == "prep" and match.current_player == 0):
        match.play(rng.choice([a for a in match.legal_actions() if a.type != "ready"]))
    for _ in range(40):
        if sum(e.action.type == "deploy" for e in match.history if e.action) >= 3:
            break
        match.play(next(a for a in match.legal_actions() if a.type in ("mark", "deploy")))
    return match


def test_the_log_words_a_stack_per_viewer_and_the_reveal_button_shows_the_owner_its_own():
    match = _cloudspire_after_seat_0_stack()
    deploys = [e for e in match.history if e.action is not None and e.action.type == "deploy"]
    full = [str(e) for e in deploys]
    assert all("add a " in line and "chip" not in line for line in full)

    def lines(board):
        return [entry["text"] for entry in board._trait_values["log"]
                if entry["text"] in full or "chip to the stack" in entry["text"]]

    hidden = ["seat 0 (prep): Emberwrights: add a chip to the stack, face down"] * len(deploys)
    assert lines(match.board(viewer="seat:1")) == hidden
    assert lines(match.board(viewer="seat:0")) == full
    assert lines(match.board(viewer="designer")) == full
    hot = match.board(viewer="turn")  # seat 0 to play: hidden until it shows its secrets
    assert lines(hot) == hidden
    hot.handle_intent({"intent": "reveal", "on": True})
    assert lines(hot) == full and "a unit face down" not in hot.svg
    match.play({"type": "ready"})  # the turn passes: hidden again
    assert hot.revealed is False and lines(hot) == hidden


def test_hints_go_only_to_a_view_that_may_choose():
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    rng = random.Random(1)
    while not any(a.type == "construct" for a in match.legal_actions()):
        match.play(rng.choice(match.legal_actions()))
    mover = match.current_player
    assert match.board(viewer=f"seat:{mover}").selection_hint
    assert match.board(viewer="turn").selection_hint
    assert match.board(viewer=f"seat:{1 - mover}").selection_hint == {}


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_news_told_as_steps_are_played_never_names_a_hidden_step(game, players, options):
    """The live announcements (`news`) are told while steps are played, not on a jump through
    the timeline: boards in a seat's view, there from the start of two histories that seat
    cannot tell apart, announce exactly the same after every step."""
    rules = make_rules(game, players, **options)
    rng = random.Random(f"news{game}{players}{sorted(options.items())}")
    told = differing = 0
    for seat in range(players):
        for swap in SWAPS[:2]:
            seed_a, seed_b, steps_a, steps_b = hidden_twins(rules, seat, rng, steps=150,
                                                            swap=swap)
            differing += steps_a != steps_b or seed_a != seed_b
            matches = [Match(make_rules(rules.name, rules.players, **rules.options), seed,
                             auto_chance=False) for seed in (seed_a, seed_b)]
            boards = [m.board(viewer=f"seat:{seat}") for m in matches]
            try:
                for step_a, step_b in zip(steps_a, steps_b):
                    for match, step in zip(matches, (step_a, step_b)):
                        match.force(step) if match.is_chance else match.play(step)
                    assert boards[0].news == boards[1].news, (seat, boards[0].news,
                                                              boards[1].news)
                    told += bool(boards[0].news)
            finally:
                for board in boards:
                    board.close()
    assert told and differing, (told, differing)
