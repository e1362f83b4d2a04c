"""One scenario per rule of Aloft, balloon festival (and per ruling, see docs/rules/balloons.md).

Positions are set up with `place` (an edit, from conftest) and checked through the legal actions
and the results of playing them, so each test fails if its rule is broken.
"""

from __future__ import annotations

import itertools

import pytest

import aloftnb
from aloftnb import IllegalAction, InvalidState
from aloftnb.games.balloons.rules import BALLOON_COLOURS, COLOURS

REGULAR = ["GP", "GR", "GW", "GY", "PR", "PW", "PY", "RW", "RY", "WY"]


def new(players=3, seed=1, **options):
    return aloftnb.new_match("balloons", players=players, seed=seed, **options)


def legal(match) -> list[dict]:
    return [action.to_dict() for action in match.legal_actions()]


def balloon(match, bid) -> dict:
    return match.state.to_dict()["balloons"][bid]


def refused(match, action, fragment):
    before = match.state
    with pytest.raises(IllegalAction) as caught:
        match.play(action)
    assert fragment in str(caught.value)
    assert match.state == before


def launch(bid):
    return {"type": "launch", "balloon": bid}


def ascend(bid):
    return {"type": "ascend", "balloon": bid}


OVER = {"trucks": [9, 10, 11, 13], "safety": 9, "step": "over", "current_player": None}


# -- components -----------------------------------------------------------------------------------
def test_board_is_12_columns_by_4_altitudes(place):
    match = new()
    assert (match.state.to_dict()["columns"], match.state.to_dict()["altitudes"]) == (12, 4)
    place(match, flying={"PR": (3, 1)}, riding={"GP": (3, "inflated")},
          trucks=[9, 10, 11, 12], safety=9)
    match.play(launch("GP"))
    assert balloon(match, "GP") == {"status": "flying", "column": 12, "altitude": 1}
    with pytest.raises(InvalidState, match="GP's column must be 1..12, not 13"):
        match.edit(balloons={"GP": {"status": "flying", "column": 13, "altitude": 1}})
    match = place(new(), flying={"PR": (5, 3)})
    match.play(ascend("PR"))
    assert balloon(match, "PR")["altitude"] == 4
    refused(match, ascend("PR"), "PR is already at the highest altitude (4)")


def test_five_colours_ten_regular_balloons_and_three_specials():
    assert COLOURS == ("green", "purple", "red", "white", "yellow")
    initials = {colour[0].upper(): colour for colour in COLOURS}
    pairs = ["".join(pair) for pair in itertools.combinations("GPRWY", 2)]
    assert pairs == REGULAR  # every pair of two colours exactly once
    for bid in REGULAR:
        assert BALLOON_COLOURS[bid] == tuple(initials[letter] for letter in bid)
    for colour in COLOURS:
        assert sum(colour in BALLOON_COLOURS[bid] for bid in REGULAR) == 4
    for special in ("lion", "wolf", "monkey"):
        assert BALLOON_COLOURS[special] == ()


@pytest.mark.parametrize("players, options, trucks, specials", [
    (1, {"mode": "solo"}, 4, ["lion", "wolf"]),
    (2, {}, 4, ["lion", "wolf"]),
    (3, {}, 4, ["lion", "wolf"]),
    (4, {}, 4, ["lion", "wolf"]),
    (2, {"mode": "cooperative"}, 4, ["lion", "wolf"]),
    (5, {}, 5, ["lion", "wolf", "monkey"]),
    (5, {"mode": "cooperative"}, 5, ["lion", "wolf", "monkey"]),
    # RULING: the choice edition lists its own components: 13 balloons and 4 launch-zone trucks
    # for any number of players; solo leaves out one special (the monkey).
    (2, {"edition": "choice"}, 4, ["lion", "wolf", "monkey"]),
    (4, {"edition": "choice"}, 4, ["lion", "wolf", "monkey"]),
    (5, {"edition": "choice"}, 4, ["lion", "wolf", "monkey"]),
    (1, {"edition": "choice", "mode": "solo"}, 4, ["lion", "wolf"]),
    (3, {"edition": "choice", "mode": "cooperative"}, 4, ["lion", "wolf", "monkey"]),
], ids=["solo-1", "competitive-2", "competitive-3", "competitive-4", "cooperative-2",
        "competitive-5", "cooperative-5", "choice-2", "choice-4", "choice-5", "choice-solo-1",
        "choice-cooperative-3"])
def test_player_count_table(players, options, trucks, specials):
    state = new(players, **options).state.to_dict()
    assert state["trucks"] == list(range(1, trucks + 1))
    assert state["safety"] == 1  # under the last truck
    assert list(state["balloons"]) == REGULAR + specials
    assert all(entry == {"status": "packed"} for entry in state["balloons"].values())


def test_options_change_the_board_and_the_components(place):
    narrow = new(columns=8, altitudes=2, trucks=3, balloons=["GP", "RW", "lion"])
    state = narrow.state.to_dict()
    assert (state["columns"], state["altitudes"], state["trucks"]) == (8, 2, [1, 2, 3])
    assert list(state["balloons"]) == ["GP", "RW", "lion"] and state["row"] == ["GP", "RW", "lion"]
    assert {(a["balloon"], a["truck"]) for a in legal(narrow)} == {
        (b, k) for b in ("GP", "RW", "lion") for k in range(3)}
    refused(narrow, {"type": "unpack", "balloon": "GP", "truck": 3}, "launch-zone truck 0..2")
    place(narrow, flying={"GP": (2, 2)}, riding={"RW": (2, "inflated")}, trucks=[5, 6, 8],
          safety=5)
    assert ascend("GP") not in legal(narrow)  # altitude 2 is the top here
    narrow.play(launch("RW"))
    assert balloon(narrow, "RW") == {"status": "flying", "column": 8, "altitude": 1}
    # The wind moved truck 1 to column 7 (two groups); the next wind passes column 8.
    assert narrow.state.to_dict()["trucks"] == [5, 7, 8]
    place(narrow, flying={"GP": (2, 2)}, trucks=[6, 7, 8], safety=6)
    narrow.play({"type": "unpack", "balloon": "RW", "truck": 0})
    assert narrow.is_over and narrow.state.to_dict()["trucks"] == [6, 7, 9]


# -- advancing a balloon ---------------------------------------------------------------------------
def test_balloon_goes_packed_unpacked_inflated_flying_then_up_to_altitude_4():
    match = new()
    assert "GP" in match.state.to_dict()["row"]
    match.play({"type": "unpack", "balloon": "GP", "truck": 1})
    assert balloon(match, "GP") == {"status": "unpacked", "truck": 1}
    assert "GP" not in match.state.to_dict()["row"]
    assert [a for a in legal(match) if a.get("balloon") == "GP"] == [
        {"type": "inflate", "balloon": "GP"}]
    match.play({"type": "inflate", "balloon": "GP"})
    assert balloon(match, "GP") == {"status": "inflated", "truck": 1}
    assert [a for a in legal(match) if a.get("balloon") == "GP"] == [launch("GP")]
    match.play(launch("GP"))
    assert balloon(match, "GP") == {"status": "flying", "column": 2, "altitude": 1}
    for altitude in (2, 3, 4):
        assert [a for a in legal(match) if a.get("balloon") == "GP"] == [ascend("GP")]
        match.play(ascend("GP"))
        assert balloon(match, "GP") == {"status": "flying", "column": 2, "altitude": altitude}
    assert [a for a in legal(match) if a.get("balloon") == "GP"] == []


@pytest.mark.parametrize("edition", ["fixed", "choice"])
def test_unpack_only_onto_an_empty_launch_zone_truck(edition):
    # RULING: one balloon per truck in both editions (the fixed text is silent).
    match = new(edition=edition)
    balloons = len(match.rules.ids)  # 12 in the fixed edition, 13 in the choice edition
    assert len(legal(match)) == balloons * 4 and all(a["truck"] in range(4) for a in legal(match))
    match.play({"type": "unpack", "balloon": "GP", "truck": 0})
    unpacks = [a for a in legal(match) if a["type"] == "unpack"]
    assert {a["truck"] for a in unpacks} == {1, 2, 3}
    refused(match, {"type": "unpack", "balloon": "RW", "truck": 0}, "truck 0 already carries GP")
    refused(match, {"type": "unpack", "balloon": "RW", "truck": "safety"},
            "may not be placed on the safety truck")
    with pytest.raises(InvalidState, match="truck 0 carries both GP and RW"):
        match.edit(balloons={"RW": {"status": "inflated", "truck": 0}},
                   row=[b for b in match.state.to_dict()["row"] if b != "RW"])


def test_balloons_on_trucks_ride_along_when_their_truck_moves(place):
    match = place(new(), flying={"RW": (10, 1)},
                  riding={"GP": (3, "inflated"), "WY": (1, "unpacked")})
    match.play(ascend("RW"))  # then the wind moves the lead truck, truck 3, to column 5
    assert match.state.to_dict()["trucks"] == [1, 2, 3, 5]
    assert balloon(match, "GP") == {"status": "inflated", "truck": 3}
    match.play(launch("GP"))
    assert balloon(match, "GP") == {"status": "flying", "column": 5, "altitude": 1}


def test_choice_edition_trucks_carry_their_balloons_too(place):
    match = place(new(edition="choice"), flying={"RW": (10, 1)},
                  riding={"GP": (3, "inflated")}, step="wind")
    match.play({"type": "wind", "truck": "launch"})
    match.play(launch("GP"))
    assert balloon(match, "GP") == {"status": "flying", "column": 5, "altitude": 1}


def test_launch_never_next_to_a_flying_balloon(place):
    match = place(new(), flying={"PR": (3, 1)}, riding={
        "WY": (0, "inflated"), "GP": (1, "inflated"), "GW": (2, "inflated"),
        "RW": (3, "inflated")})
    launches = [a["balloon"] for a in legal(match) if a["type"] == "launch"]
    assert launches == ["WY"]  # columns 2 and 4 touch PR; column 3 is PR's
    refused(match, launch("GP"), "GP would fly orthogonally next to PR at column 3, altitude 1")
    refused(match, launch("GW"), "column 3, altitude 1 is taken by PR")
    refused(match, launch("RW"), "RW would fly orthogonally next to PR")
    place(match, flying={"PR": (1, 2)}, riding={"WY": (0, "inflated"), "GP": (1, "inflated")})
    launches = [a["balloon"] for a in legal(match) if a["type"] == "launch"]
    assert launches == ["GP"]  # WY would be right under PR; GP only touches it diagonally
    refused(match, launch("WY"), "WY would fly orthogonally next to PR at column 1, altitude 2")


def test_ascend_never_next_to_a_flying_balloon(place):
    match = place(new(), flying={"GP": (3, 1), "RW": (4, 2), "WY": (6, 1), "PY": (6, 3),
                                 "GW": (8, 2), "RY": (9, 1)})
    ascents = {a["balloon"] for a in legal(match) if a["type"] == "ascend"}
    assert ascents == {"RW", "PY", "GW"}
    refused(match, ascend("GP"), "GP would fly orthogonally next to RW at column 4, altitude 2")
    refused(match, ascend("WY"), "WY would fly orthogonally next to PY at column 6, altitude 3")
    refused(match, ascend("RY"), "RY would fly orthogonally next to GW at column 8, altitude 2")


def test_flying_balloons_never_descend_nor_move_sideways(place):
    match = place(new(), flying={"RW": (10, 2)})
    refused(match, {"type": "descend", "balloon": "RW"}, "has no action type 'descend'")
    for _ in range(4):  # the wind blows every turn; flying balloons stay where they are
        match.play(next(a for a in match.legal_actions() if a.type == "unpack"))
        assert balloon(match, "RW") == {"status": "flying", "column": 10, "altitude": 2}
    assert match.state.to_dict()["trucks"] != [1, 2, 3, 4]
    assert [a for a in legal(match) if a.get("balloon") == "RW"] == [ascend("RW")]


def test_pass_only_when_no_balloon_can_advance(place):
    # RULING: pass is an explicit action, legal only when nothing can advance.
    match = place(new(balloons=["GP", "RW"]), flying={"GP": (3, 4), "RW": (6, 4)})
    assert legal(match) == [{"type": "pass"}]
    match.play({"type": "pass"})
    assert match.current_player == 1 and match.state.to_dict()["turn"] == 1
    assert match.state.to_dict()["trucks"] == [1, 2, 3, 5]  # the wind still blows
    other = place(new(balloons=["GP", "RW"]), flying={"GP": (3, 3), "RW": (6, 4)})
    assert {"type": "pass"} not in legal(other)
    refused(other, {"type": "pass"}, "a balloon can still advance; you may pass only when none can")


def test_passing_turns_still_end_the_game(place):
    match = place(new(balloons=["GP", "RW"]), flying={"GP": (3, 4), "RW": (6, 4)})
    turns = 0
    while not match.is_over:
        match.play({"type": "pass"})
        turns += 1
    assert match.state.to_dict()["trucks"][-1] == 13
    # Eight full cycles of five winds bring the trucks to 9-12; the next wind ends the game.
    assert turns == 8 * 5 + 1


# -- the fixed-wind edition ------------------------------------------------------------------------
@pytest.mark.parametrize("trucks, safety, after, safety_after, text", [
    ([1, 2, 3, 4], 1, [1, 2, 3, 5], 1, "truck 3 moved to column 5"),  # one group: lead moves
    ([1, 2, 3, 5], 1, [1, 2, 4, 5], 1, "truck 2 moved to column 4"),  # two groups
    ([1, 2, 4, 5], 1, [1, 3, 4, 5], 1, "truck 1 moved to column 3"),
    ([1, 3, 4, 5], 1, [2, 3, 4, 5], 1, "truck 0 moved to column 2"),
    ([5, 6, 8, 9], 5, [5, 7, 8, 9], 5, "truck 1 moved to column 7"),
    ([2, 3, 4, 5], 1, [2, 3, 4, 5], 2, "the safety truck moved to column 2"),  # safety behind
])
def test_fixed_wind_three_cases(place, trucks, safety, after, safety_after, text):
    match = place(new(), flying={"RW": (11, 1)}, trucks=trucks, safety=safety)
    match.play(ascend("RW"))
    state = match.state.to_dict()
    assert (state["trucks"], state["safety"], state["wind"]) == (after, safety_after, text)


def test_fixed_wind_cycle_moves_the_whole_launch_zone_in_five_turns(place):
    match = place(new(), flying={"RW": (11, 1)})
    seen = []
    for _ in range(5):
        match.play(match.legal_actions()[0])
        seen.append((match.state.to_dict()["trucks"], match.state.to_dict()["safety"]))
    assert seen == [([1, 2, 3, 5], 1), ([1, 2, 4, 5], 1), ([1, 3, 4, 5], 1), ([2, 3, 4, 5], 1),
                    ([2, 3, 4, 5], 2)]


def test_fixed_no_wind_while_nothing_flies_then_wind_right_after_the_first_launch():
    # RULING: the wind of a turn is applied right after the previous advance, so the state the
    # next player sees already shows it.
    match = new()
    for action in ({"type": "unpack", "balloon": "GP", "truck": 0},
                   {"type": "inflate", "balloon": "GP"}):
        match.play(action)
        assert match.state.to_dict()["trucks"] == [1, 2, 3, 4]
        assert match.state.to_dict()["wind"] == ""
    match.play(launch("GP"))
    state = match.state.to_dict()
    assert state["trucks"] == [1, 2, 3, 5] and state["wind"] == "truck 3 moved to column 5"
    assert state["current_player"] == 0 and state["step"] == "advance"


def test_fixed_game_ends_at_once_when_the_lead_truck_passes_the_last_column(place):
    match = place(new(), flying={"PR": (3, 1)}, riding={"GP": (3, "inflated")},
                  trucks=[9, 10, 11, 12], safety=9)
    match.play(ascend("PR"))  # seat 0's advance; the wind of seat 1's turn ends the game
    state = match.state.to_dict()
    assert match.is_over and match.current_player is None and match.legal_actions() == []
    assert state["trucks"] == [9, 10, 11, 13] and state["lead_passed"] is True
    assert state["turn"] == 1  # seat 1 never advanced
    assert [entry.kind for entry in match.history] == ["edit", "action"]
    assert balloon(match, "GP") == {"status": "inflated", "truck": 3}  # not launched
    assert balloon(match, "PR")["altitude"] == 2
    refused(match, launch("GP"), "the game is over")


def test_fixed_edited_safety_must_sit_under_the_last_truck_or_one_behind_a_single_group(place):
    # RULING: the only other position the fixed wind reaches is one column behind one group.
    match = new()
    place(match, trucks=[2, 3, 4, 5], safety=1)
    place(match, trucks=[1, 2, 4, 5], safety=1)
    for trucks, safety in (([1, 2, 4, 5], 2), ([2, 3, 5, 6], 1), ([2, 3, 4, 5], 3),
                           ([3, 4, 5, 6], 1)):
        with pytest.raises(InvalidState, match="in the fixed-wind edition the safety truck"):
            place(match, trucks=trucks, safety=safety)


@pytest.mark.parametrize("edition", ["fixed", "choice"])
def test_launch_zone_is_one_group_or_two_split_by_one_column(place, edition):
    # RULING: edits too must keep the shape the wind produces.
    match = new(edition=edition)
    place(match, trucks=[1, 2, 3, 5], safety=1)
    for trucks in ([1, 2, 5, 6], [1, 3, 5, 6], [1, 3, 4, 6]):
        with pytest.raises(InvalidState, match="must form one group, or two groups"):
            place(match, trucks=trucks, safety=1)


# -- the choice-wind edition -----------------------------------------------------------------------
def test_choice_wind_is_its_own_step_before_the_advance():
    match = new(edition="choice")
    for action in ({"type": "unpack", "balloon": "GP", "truck": 0},
                   {"type": "inflate", "balloon": "GP"}, launch("GP")):
        match.play(action)
    state = match.state.to_dict()
    assert state["step"] == "wind" and state["current_player"] == 0 and state["turn"] == 3
    assert legal(match) == [{"type": "wind", "truck": "launch"},
                            {"type": "wind", "truck": "safety"}]
    refused(match, {"type": "unpack", "balloon": "RW", "truck": 1},
            "seat 0 must move a truck first")
    match.play({"type": "wind", "truck": "launch"})
    state = match.state.to_dict()
    assert state["step"] == "advance" and state["current_player"] == 0 and state["turn"] == 3
    assert state["trucks"] == [1, 2, 3, 5]
    refused(match, {"type": "wind", "truck": "safety"}, "no truck moves in the advance phase")
    match.play(ascend("GP"))
    assert match.state.to_dict()["step"] == "wind" and match.current_player == 1


def test_one_flow_declares_both_editions_turns(finished_match):
    """The advance phase and the choice edition's wind phase, declared once (rules.FLOW); the
    fixed edition's wind blows by itself, so its games list one phase. A finished game (step
    "over") is in the advance phase."""
    choice, fixed = new(edition="choice").rules, new().rules
    assert choice.flow is fixed.flow
    assert (choice.phases, fixed.phases) == (("advance", "wind"), ("advance",))
    assert choice.phase_actions == {"advance": ("unpack", "inflate", "launch", "ascend", "pass"),
                                    "wind": ("wind",)}
    assert [(p["phase"], p["next"]) for p in choice.flow.describe()] == [
        ("advance", None), ("wind", "advance")]
    over = finished_match.state
    assert over.step == "over" and finished_match.rules.phase(over) == "advance"


def test_choice_wind_either_truck(place):
    launch_zone = place(new(edition="choice"), flying={"RW": (11, 1)}, step="wind")
    safety = launch_zone.fork()
    launch_zone.play({"type": "wind", "truck": "launch"})
    safety.play({"type": "wind", "truck": "safety"})
    assert (launch_zone.state.to_dict()["trucks"], launch_zone.state.to_dict()["safety"]) == (
        [1, 2, 3, 5], 1)
    assert (safety.state.to_dict()["trucks"], safety.state.to_dict()["safety"]) == (
        [1, 2, 3, 4], 2)
    assert safety.state.to_dict()["wind"] == "the safety truck moved to column 2"


@pytest.mark.parametrize("trucks, safety, choices, refusal", [
    ([1, 3, 4, 5], 1, ["safety"], "would put the last truck past the safety truck"),
    ([2, 3, 4, 5], 5, ["launch"], "would put it past the lead truck"),
    ([1, 2, 4, 5], 1, ["launch", "safety"], None),
    ([4, 6, 7, 8], 4, ["safety"], "would put the last truck past the safety truck"),
])
def test_choice_safety_truck_stays_between_last_and_lead(place, trucks, safety, choices,
                                                         refusal):
    match = place(new(edition="choice"), flying={"RW": (11, 1)}, trucks=trucks, safety=safety,
                  step="wind")
    assert [a["truck"] for a in legal(match)] == choices
    if refusal:
        forbidden = ({"launch", "safety"} - set(choices)).pop()
        refused(match, {"type": "wind", "truck": forbidden}, refusal)


def test_choice_edited_safety_must_be_between_last_and_lead(place):
    match = new(edition="choice")
    place(match, trucks=[3, 4, 5, 6], safety=6)
    for trucks, safety in (([1, 2, 3, 4], 5), ([3, 4, 5, 6], 2)):
        with pytest.raises(InvalidState, match="must be between the last truck"):
            place(match, trucks=trucks, safety=safety)


def test_choice_final_advance_after_the_lead_passes_then_scoring(place):
    match = place(new(edition="choice"), flying={"PR": (3, 1)},
                  riding={"GP": (3, "inflated"), "RW": (2, "unpacked")},
                  trucks=[9, 10, 11, 12], safety=9, step="wind", current_player=1)
    match.play({"type": "wind", "truck": "launch"})
    state = match.state.to_dict()
    assert state["trucks"] == [9, 10, 11, 13] and state["lead_passed"] is True
    assert not match.is_over and match.current_player == 1 and state["step"] == "advance"
    # RULING: a balloon on the truck beyond the last column cannot launch; the rest may advance.
    actions = legal(match)
    assert {"type": "inflate", "balloon": "RW"} in actions and ascend("PR") in actions
    assert {"type": "unpack", "balloon": "WY", "truck": 0} in actions
    assert launch("GP") not in actions
    refused(match, launch("GP"), "GP's truck has left the field (column 13)")
    match.play({"type": "inflate", "balloon": "RW"})
    assert match.is_over and match.current_player is None  # no wind, no further turn
    assert balloon(match, "RW") == {"status": "inflated", "truck": 2}
    assert match.state.to_dict()["tokens"] == {"PR": 1}


def test_choice_no_wind_while_nothing_flies_nor_after_the_lead_passed(place):
    match = new(edition="choice")
    match.play({"type": "unpack", "balloon": "GP", "truck": 0})
    match.play({"type": "inflate", "balloon": "GP"})
    assert match.state.to_dict()["step"] == "advance" and legal(match)[0]["type"] != "wind"
    with pytest.raises(InvalidState, match="the wind step needs a flying balloon"):
        match.edit(step="wind")
    with pytest.raises(InvalidState, match="no more wind this game"):
        place(match, flying={"PR": (3, 1)}, trucks=[9, 10, 11, 13], safety=9, step="wind")


def test_choice_edition_needs_two_trucks():
    # Regression: with one truck the first wind step had no legal action (a stuck game).
    with pytest.raises(aloftnb.InvalidOptions, match="needs at least 2 launch-zone trucks"):
        new(edition="choice", trucks=1)
    new(edition="fixed", trucks=1)  # the fixed wind alternates lead and safety: fine


def test_game_over_only_once_the_lead_truck_passed(place):
    # Regression: the choice edition accepted an edit to "over" with the trucks still on the board.
    for edition in ("fixed", "choice"):
        with pytest.raises(InvalidState, match="over"):
            place(new(edition=edition), step="over", current_player=None)


# -- competitive scoring ---------------------------------------------------------------------------
def test_colour_cards_are_dealt_at_random_one_per_seat_and_kept_secret():
    for seed in range(30):
        colours = new(5, seed).state.to_dict()["colours"]
        assert sorted(colours.values()) == sorted(COLOURS)  # five seats, five different cards
    first_seat = {new(3, seed).state.to_dict()["colours"]["0"] for seed in range(30)}
    assert first_seat == set(COLOURS)
    match = new(3, 2)
    assert set(match.view(1)["colours"]) == {"1"}


def test_competitive_row_keeps_catalogue_order_and_any_packed_balloon_may_unpack():
    # RULING: the multi-player set-up does not shuffle the row, and the row order does not matter.
    match = new(4, seed=123)
    assert match.state.to_dict()["row"] == REGULAR + ["lion", "wolf"]
    assert {a["balloon"] for a in legal(match)} == set(REGULAR + ["lion", "wolf"])
    match.play({"type": "unpack", "balloon": "wolf", "truck": 2})
    assert balloon(match, "wolf") == {"status": "unpacked", "truck": 2}


FORMATION = {"RW": (2, 1), "GP": (5, 1), "lion": (8, 2), "WY": (1, 3), "PY": (3, 3)}


def test_scoring_tokens_bottom_row_first_left_to_right(place):
    match = place(new(), flying=FORMATION, **OVER,
                  colours={"0": "green", "1": "white", "2": "yellow"})
    assert match.state.to_dict()["tokens"] == {"RW": 1, "GP": 2, "lion": 3, "WY": 4, "PY": 5}
    # green: GP 2; white: RW 1 + WY 4; yellow: WY 4 + PY 5. The lion's 3 counts for no one.
    assert match.scores() == {0: 2, 1: 5, 2: 9}
    assert match.winners() == [2]  # the highest score wins


def test_competitive_tie_every_tied_seat_wins(place):
    # RULING: the texts name no tie-break.
    match = place(new(), flying={"RW": (2, 1)}, **OVER,
                  colours={"0": "red", "1": "white", "2": "green"})
    assert match.scores() == {0: 1, 1: 1, 2: 0}
    assert match.winners() == [0, 1]


def test_specials_score_for_no_one(place):
    # RULING: specials carry no colour.
    match = place(new(5), flying={"lion": (2, 4), "wolf": (5, 4), "monkey": (8, 4),
                                  "RW": (11, 1)},
                  trucks=[9, 10, 11, 12, 13], safety=9, step="over", current_player=None)
    assert match.state.to_dict()["tokens"]["monkey"] == 4
    assert sum(match.scores().values()) == 2  # only RW's token 1, for red and for white


def test_running_scores_before_the_end_and_no_winner_yet(place):
    # RULING: scores() mid-game reports the formation as it stands (designer information).
    match = place(new(), flying={"RW": (2, 1), "GP": (5, 2)},
                  colours={"0": "green", "1": "white", "2": "yellow"})
    assert match.scores() == {0: 2, 1: 1, 2: 0}
    assert match.winners() == []
    assert "tokens" not in match.state.to_dict()


def test_colours_are_revealed_to_every_view_once_over(place):
    # RULING: the colour cards are shown when the scores are announced.
    match = place(new(), flying=FORMATION, **OVER)
    colours = match.state.to_dict()["colours"]
    assert len(colours) == 3
    assert all(match.view(seat)["colours"] == colours for seat in (0, 1, 2, None))


# -- solo and cooperative ------------------------------------------------------------------------
def test_solo_row_is_shuffled_by_the_seed():
    rows = [new(1, seed, mode="solo").state.to_dict()["row"] for seed in range(10)]
    assert all(sorted(row) == sorted(REGULAR + ["lion", "wolf"]) for row in rows)
    assert len({tuple(row) for row in rows}) == 10
    assert new(1, 4, mode="solo").state.to_dict()["row"] == rows[4]
    assert new(1, 4, mode="solo").state.to_dict()["colours"] == {}


@pytest.mark.parametrize("players, mode", [(1, "solo"), (3, "cooperative")])
def test_solo_rules_only_the_first_balloon_of_the_row_unpacks(players, mode):
    match = new(players, 8, mode=mode)
    row = match.state.to_dict()["row"]
    assert legal(match) == [{"type": "unpack", "balloon": row[0], "truck": k} for k in range(4)]
    refused(match, {"type": "unpack", "balloon": row[1], "truck": 0},
            f"only the first balloon of the row ({row[0]}) may be unpacked")
    match.play({"type": "unpack", "balloon": row[0], "truck": 2})
    assert {a["balloon"] for a in legal(match) if a["type"] == "unpack"} == {row[1]}
    assert match.state.to_dict()["row"] == row[1:]


@pytest.mark.parametrize("mode, players", [("solo", 1), ("cooperative", 2)])
def test_solo_same_colour_balloons_never_touch_diagonally(place, mode, players):
    match = place(new(players, mode=mode), flying={"GP": (3, 2)},
                  riding={"GR": (3, "inflated"), "RW": (1, "inflated")})
    launches = {a["balloon"] for a in legal(match) if a["type"] == "launch"}
    assert launches == {"RW"}  # GR would touch GP (both green) at a corner; RW shares nothing
    refused(match, launch("GR"), "with the solo rules GR may not touch GP diagonally")
    place(match, flying={"GP": (3, 3), "GR": (4, 1), "RW": (6, 1)})
    ascents = {a["balloon"] for a in legal(match) if a["type"] == "ascend"}
    assert ascents == {"GP", "RW"}
    refused(match, ascend("GR"), "GR may not touch GP diagonally")
    with pytest.raises(InvalidState, match="share a colour and may not touch diagonally"):
        place(match, flying={"GP": (3, 2), "GR": (4, 1)})


def test_competitive_allows_same_colour_diagonals(place):
    match = place(new(), flying={"GP": (3, 2)}, riding={"GR": (3, "inflated")})
    assert launch("GR") in legal(match)
    match.play(launch("GR"))
    assert balloon(match, "GR") == {"status": "flying", "column": 4, "altitude": 1}


def test_specials_are_exempt_from_the_diagonal_rule(place):
    # RULING: a special shares no colour, so it may touch anything diagonally.
    match = place(new(1, mode="solo"), flying={"GP": (3, 2)}, riding={"lion": (3, "inflated")})
    assert launch("lion") in legal(match)
    place(match, flying={"GP": (3, 2), "lion": (4, 1), "wolf": (5, 2)})
    assert ascend("lion") not in legal(match)  # blocked only by the orthogonal rule
    assert ascend("wolf") in legal(match) and ascend("GP") in legal(match)


def test_diagonal_rule_is_for_flying_balloons_only(place):
    # Balloons on trucks are below the sky, so they never count as touching.
    match = place(new(1, mode="solo"), flying={"GP": (3, 1)}, riding={"GR": (1, "unpacked")})
    assert {"type": "inflate", "balloon": "GR"} in legal(match)


def test_solo_score_is_columns_spanned_plus_three_per_balloon_not_launched(place):
    match = place(new(1, mode="solo"), flying={"GP": (2, 1), "RW": (6, 3)},
                  riding={"WY": (1, "inflated")}, **OVER)
    assert match.scores() == {0: 5 + 3 * 10}
    assert match.winners() == [0]
    assert match.rules.higher_score_wins is False  # RULING: lower is better


def test_no_formation_is_zero_columns_wide(place):
    # RULING: with nothing flying the formation spans no column.
    match = place(new(1, mode="solo"), **OVER)
    assert match.scores() == {0: 3 * 12}


def test_cooperative_shares_the_solo_score_and_every_seat_wins(place):
    # RULING: one shared score, so winners() lists every seat.
    match = place(new(4, mode="cooperative"), flying={"GP": (2, 1), "RW": (6, 3)}, **OVER)
    assert match.scores() == {0: 35, 1: 35, 2: 35, 3: 35}
    assert match.winners() == [0, 1, 2, 3]
    assert match.state.to_dict()["colours"] == {}


def test_cooperative_five_players_use_the_five_player_components():
    # RULING: the player-count table, with the solo rules and score.
    state = new(5, mode="cooperative").state.to_dict()
    assert len(state["trucks"]) == 5 and len(state["balloons"]) == 13
    assert "monkey" in state["row"] and state["colours"] == {}
    match = new(5, 3, mode="cooperative")
    assert {a["balloon"] for a in legal(match)} == {match.state.to_dict()["row"][0]}


# -- the state dict -------------------------------------------------------------------------------
RUNNING_KEYS = {"game", "mode", "edition", "players", "columns", "altitudes", "trucks", "safety",
                "balloons", "row", "colours", "turn", "current_player", "step", "wind",
                "lead_passed"}


def test_state_dict_shape(place):
    match = place(new(), flying={"GP": (4, 2)}, riding={"RW": (0, "unpacked"),
                                                         "WY": (2, "inflated")})
    state = match.state.to_dict()
    assert set(state) == RUNNING_KEYS
    assert state["trucks"] == [1, 2, 3, 4] and state["safety"] == 1
    assert state["balloons"]["GP"] == {"status": "flying", "column": 4, "altitude": 2}
    assert state["balloons"]["RW"] == {"status": "unpacked", "truck": 0}
    assert state["balloons"]["WY"] == {"status": "inflated", "truck": 2}
    assert state["balloons"]["PR"] == {"status": "packed"}
    assert state["row"] == [b for b in REGULAR + ["lion", "wolf"] if b not in ("GP", "RW", "WY")]
    assert set(state["colours"]) == {"0", "1", "2"} and set(state["colours"].values()) <= set(
        COLOURS)
    assert (state["turn"], state["current_player"], state["step"]) == (0, 0, "advance")
    over = place(new(), flying={"GP": (4, 2)}, **OVER).state.to_dict()
    assert set(over) >= RUNNING_KEYS | {"tokens"} and over["current_player"] is None
    assert over["step"] == "over" and over["tokens"] == {"GP": 1}
