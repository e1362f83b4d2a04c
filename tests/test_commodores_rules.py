"""Aloft, sky commodores: one scenario per rule of the text and per RULING in the engine.

Positions are reached by forcing every chance outcome (auto_chance=False) and by editing the state
dict. The centre merchant is at "0,0"; the set-up ring, clockwise from the north-east, is canvas 1
at "1,-1", wood 2 at "1,0", dragon's breath 3 at "0,1", glass 4 at "-1,1", wood 5 at "-1,0" and
breath 6 at "0,-1". A corner "q,r,N" is the top of hex q,r and "q,r,S" its bottom.
"""

from __future__ import annotations

import json
import random

import pytest

import aloftnb
from aloftnb import IllegalAction, InvalidOptions, InvalidState

GOALS = ("beacon", "armada", "cartographer", "slayer", "hoard")
TYPES = ("barge", "cutter", "tender", "scout", "whaler")
ASIDE = ("silkmoth", "cindermaw")
# Seat 0 touches breath 6 and canvas 1, seat 1 breath 6 and wood 5, seat 2 breath 3 and glass 4.
STARTS = ("0,0,N", "0,-1,S", "0,0,S", "1,-1,S", "0,1,N")
MERCHANT_CORNERS = {"0,0,N", "1,-1,S", "0,1,N", "0,0,S", "-1,1,N", "0,-1,S"}
RESOURCES = ("canvas", "breath", "glass", "wood", "metal")


def new(players=3, **options):
    return aloftnb.new_match("commodores", players=players, seed=5, auto_chance=False, **options)


def started(players=3, *, goals=GOALS, types=TYPES, aside=ASIDE, number=4, corners=STARTS,
            free=("canvas", "wood", "glass", "breath", "canvas"), **options):
    """A match at seat 0's first forage, every set-up draw forced as given."""
    match = new(players, **options)
    for lv in aside:
        match.force({"type": "set_aside", "leviathan": lv})
    for goal in goals:
        match.force({"type": "goal", "goal": goal})
    if match.state.step == "goal_number":
        match.force({"type": "goal_number", "number": number})
    for ship_type in types:
        match.force({"type": "ship_type", "ship": ship_type})
    for corner in corners[:players]:
        match.play({"type": "place", "corner": corner})
    for resource in free[:players]:
        match.play({"type": "free", "resource": resource})
    return match


def pool(**amounts):
    return {r: amounts.get(r, 0) for r in RESOURCES}


def ship(name, kind, corner, upgrades=(), new=False):
    return {"ship": name, "type": kind, "corner": corner, "upgrades": list(upgrades), "new": new}


def data(match):
    return match.state.to_dict()


def acting(match, *, forage=2, captain=1):
    """Call the forage number (2: nothing in the starting positions touches wood 2), then let
    the seat's ship `captain` act."""
    match.play({"type": "forage", "number": forage})
    match.play({"type": "ship", "captain": captain})
    return match


def of(match, kind):
    return [a for a in match.legal_actions() if a.type == kind]


def refusal(match, action):
    before = data(match)
    with pytest.raises(IllegalAction) as caught:
        match.play(action)
    assert data(match) == before  # a refusal changes nothing
    return str(caught.value)


def end_ship(match):
    match.play({"type": "end_ship"})


# -- set-up --------------------------------------------------------------------------------------
def test_setup_centre_merchant_and_the_ring_clockwise_from_the_north_east_with_tokens_1_to_6():
    hexes = data(new())["hexes"]
    assert hexes == {
        "0,0": {"kind": "merchant"},
        "1,-1": {"kind": "canvas", "number": 1}, "1,0": {"kind": "wood", "number": 2},
        "0,1": {"kind": "breath", "number": 3}, "-1,1": {"kind": "glass", "number": 4},
        "-1,0": {"kind": "wood", "number": 5}, "0,-1": {"kind": "breath", "number": 6},
    }


def test_setup_stack_and_tokens_hold_everything_not_on_the_table():
    start = data(new())
    assert start["step"] == "set_aside"
    # 30 hexes less the centre and the ring; 30 tokens less the ring's six.
    assert start["stack"] == {"merchant": 1, "canvas": 4, "breath": 3, "glass": 4, "wood": 3,
                              "metal": 3, "silkmoth": 1, "cindermaw": 1, "prismray": 1,
                              "barkwyrm": 1, "ironhide": 1}
    assert start["tokens"] == {str(n): 4 for n in range(1, 7)}
    after = data(started())
    assert sum(after["stack"].values()) == 21  # 1 merchant, 3 leviathans, 17 resource hexes
    assert sum(after["tokens"].values()) == 23  # the Beacon's token is on its card


def test_setup_two_leviathans_are_set_aside_and_leave_the_stack():
    match = new()
    assert {a.leviathan for a, _ in match.chance_outcomes()} == {
        "silkmoth", "cindermaw", "prismray", "barkwyrm", "ironhide"}
    match.force({"type": "set_aside", "leviathan": "ironhide"})
    assert "ironhide" not in {a.leviathan for a, _ in match.chance_outcomes()}
    match.force({"type": "set_aside", "leviathan": "prismray"})
    state = data(match)
    assert state["set_aside"] == ["ironhide", "prismray"]
    assert state["stack"]["ironhide"] == state["stack"]["prismray"] == 0
    assert state["step"] == "goal"


def test_setup_five_goals_are_drawn_without_repeats():
    match = started(goals=("armada", "hoard", "corsair", "refit", "prospector"))
    assert data(match)["goals"] == ["armada", "hoard", "corsair", "refit", "prospector"]
    match = new()
    for lv in ASIDE:
        match.force({"type": "set_aside", "leviathan": lv})
    match.force({"type": "goal", "goal": "hoard"})
    assert "hoard" not in {a.goal for a, _ in match.chance_outcomes()}
    assert len(match.chance_outcomes()) == 9


def test_beacon_number_is_drawn_only_when_the_beacon_goal_is_in_play_and_leaves_the_stack():
    without = started(goals=("armada", "cartographer", "slayer", "hoard", "corsair"))
    assert data(without)["goal_number"] == 0
    assert not [h for h in without.history if "Beacon" in h.text]
    assert sum(data(without)["tokens"].values()) == 24
    with_beacon = started(number=4)
    state = data(with_beacon)
    assert state["goal_number"] == 4
    assert state["tokens"]["4"] == 3 and state["tokens"]["1"] == 4  # RULING: it left the stack


def test_beacon_number_draw_is_weighted_by_the_tokens_left():
    match = new()
    for lv in ASIDE:
        match.force({"type": "set_aside", "leviathan": lv})
    for goal in GOALS:
        match.force({"type": "goal", "goal": goal})
    outcomes = match.chance_outcomes()
    assert sorted(a.number for a, _ in outcomes) == [1, 2, 3, 4, 5, 6]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)


def test_setup_five_ship_types_with_six_cards_each():
    state = data(started(types=("galleon", "hauler", "frigate", "dragoon", "shipwright")))
    assert state["shipyard"] == {t: 6 for t in ("galleon", "hauler", "frigate", "dragoon",
                                                "shipwright")}
    match = new(catalogue=None)
    assert len(match.rules.catalogue.shipyard) == 10


def test_starters_go_on_distinct_merchant_corners_in_turn_order():
    match = new()
    for lv in ASIDE:
        match.force({"type": "set_aside", "leviathan": lv})
    for goal in GOALS:
        match.force({"type": "goal", "goal": goal})
    match.force({"type": "goal_number", "number": 1})
    for t in TYPES:
        match.force({"type": "ship_type", "ship": t})
    assert match.current_player == 0
    assert {a.corner for a in of(match, "place")} == MERCHANT_CORNERS
    match.play({"type": "place", "corner": "0,0,N"})
    assert match.current_player == 1
    assert {a.corner for a in of(match, "place")} == MERCHANT_CORNERS - {"0,0,N"}
    refusal(match, {"type": "place", "corner": "0,0,N"})
    refusal(match, {"type": "place", "corner": "1,-1,N"})  # not a corner of the merchant
    match.play({"type": "place", "corner": "0,1,N"})
    match.play({"type": "place", "corner": "-1,1,N"})
    ships = data(match)["ships"]
    assert [(s["ship"], s["type"], s["corner"]) for s in ships] == [
        ("0:1", "starter", "0,0,N"), ("1:1", "starter", "0,1,N"), ("2:1", "starter", "-1,1,N")]


def test_each_seat_chooses_one_free_non_metal_resource():
    match = started(free=())
    assert data(match)["step"] == "free" and match.current_player == 0
    assert {a.resource for a in of(match, "free")} == {"canvas", "breath", "glass", "wood"}
    assert "not metal" in refusal(match, {"type": "free", "resource": "metal"})
    for seat, resource in enumerate(("glass", "glass", "wood")):
        assert match.current_player == seat
        match.play({"type": "free", "resource": resource})
    assert data(match)["pools"] == [pool(glass=1), pool(glass=1), pool(wood=1)]
    assert data(match)["step"] == "forage" and match.current_player == 0


def test_setup_refuses_other_moves_until_it_is_finished():
    match = started(free=())
    assert "this is the setup phase" in refusal(match, {"type": "forage", "number": 3})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players(players):
    match = started(players=players)
    assert len(data(match)["ships"]) == players


@pytest.mark.parametrize("players", [1, 2, 6])
def test_other_player_counts_are_refused(players):
    with pytest.raises(InvalidOptions, match="3-5 players"):
        aloftnb.new_match("commodores", players=players)


def test_two_players_only_with_the_designer_option():
    match = started(players=2, two_players=True)
    assert len(data(match)["ships"]) == 2
    with pytest.raises(InvalidOptions, match="two_players=True"):
        aloftnb.new_match("commodores", players=2)


# -- forage --------------------------------------------------------------------------------------
def test_every_seat_forages_from_each_hex_with_the_number_by_forage_value():
    match = started()
    # Seat 1's starter becomes a barge (forage 2) touching breath 6 and wood 5.
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "1,-1,S"),
                      ship("1:2", "barge", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               shipyard={"barge": 5})
    match.play({"type": "forage", "number": 6})
    state = data(match)
    assert state["forage_number"] == 6
    assert state["pools"] == [pool(canvas=1, breath=1), pool(wood=1, breath=2), pool(glass=1)]
    assert [t["foraged"] for t in state["tallies"]] == [1, 2, 0]
    assert state["step"] == "ships"


def test_a_ship_touching_two_hexes_with_the_number_takes_from_each():
    match = started()
    # canvas 1 at 1,-1 shows a 6 as well: seat 0 at 0,0,N touches two 6s.
    match.edit(hexes={"1,-1": {"kind": "canvas", "number": 6}}, tokens={"1": 5, "6": 3})
    match.play({"type": "forage", "number": 6})
    assert data(match)["pools"][0] == pool(canvas=2, breath=1)


def test_forage_zero_ships_collect_nothing():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,S"), ship("1:1", "starter", "1,-1,S"),
                      ship("1:2", "cutter", "0,-1,S"), ship("2:1", "starter", "-1,1,N")],
               shipyard={"cutter": 5})
    match.play({"type": "forage", "number": 6})  # only the cutter touches a 6
    assert data(match)["pools"][1] == pool(wood=1)
    assert data(match)["tallies"][1]["foraged"] == 0


def test_ruling_a_full_tracker_takes_no_more():
    match = started()
    match.edit(pools=[pool(breath=9), pool(breath=10), pool()])
    match.play({"type": "forage", "number": 6})
    state = data(match)
    assert state["pools"][0]["breath"] == 10 and state["pools"][1]["breath"] == 10
    assert [t["foraged"] for t in state["tallies"]] == [1, 0, 0]


def test_forage_numbers_are_1_to_6_and_only_at_the_start_of_the_turn():
    match = started()
    assert sorted(a.number for a in of(match, "forage")) == [1, 2, 3, 4, 5, 6]
    refusal(match, {"type": "forage", "number": 7})
    match.play({"type": "forage", "number": 1})
    assert "forage" in refusal(match, {"type": "forage", "number": 2})


# -- the ship actions phase ----------------------------------------------------------------------
def test_ships_act_one_at_a_time():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True)
    match.play({"type": "forage", "number": 2})
    assert sorted(a.captain for a in of(match, "ship")) == [1, 2]
    assert "pick one of your ships" in refusal(match, {"type": "move", "to": "1,-2,S"})
    match.play({"type": "ship", "captain": 1})
    assert not of(match, "ship")
    assert "still acting" in refusal(match, {"type": "ship", "captain": 2})
    end_ship(match)
    assert [a.captain for a in of(match, "ship")] == [2]  # a ship acts once a turn
    assert data(match)["acted"] == ["0:1"]


def test_each_action_once_per_ship_per_turn():
    match = acting(started())
    match.edit(pools=[pool(wood=4, canvas=2), pool(), pool()])
    match.play({"type": "move", "to": "1,-1,S"})  # next to the merchant
    assert not of(match, "move")
    assert "already done its move" in refusal(match, {"type": "move", "to": "1,-1,N"})
    match.play({"type": "trade", "give": "wood", "get": "metal"})
    assert not of(match, "trade")
    assert "already done its trade" in refusal(
        match, {"type": "trade", "give": "wood", "get": "glass"})


def test_ruling_explorations_repeat_only_in_one_run():
    match = acting(started(rulings=1), forage=1)  # seat 0 forages a canvas on 1,-1
    match.edit(pools=[pool(canvas=3), pool(), pool()])
    match.play({"type": "move", "to": "1,-2,S"})  # touches the empty spaces 1,-2 ... and 0,-1
    match.play({"type": "explore", "space": "1,-2", "pay": "canvas"})
    match.force({"type": "hex", "kind": "merchant"})
    assert of(match, "explore") or of(match, "terraform")  # the run goes on
    match.play({"type": "terraform", "space": "0,-1", "pay": "canvas"})
    match.force({"type": "hex", "kind": "metal"})
    match.force({"type": "number", "number": 5})
    assert data(match)["done"] == ["move", "explore"]
    match.edit(pools=[pool(canvas=3, wood=2), pool(), pool()])
    match.play({"type": "trade", "give": "wood", "get": "glass"})
    assert not of(match, "explore") and not of(match, "terraform")
    assert "one run" in refusal(match, {"type": "terraform", "space": "1,-1", "pay": "canvas"})


def test_end_ship_and_end_turn():
    match = acting(started())
    end_ship(match)  # seat 0's only ship has acted: the turn ends by itself (RULING)
    assert (match.current_player, data(match)["step"], data(match)["turn"]) == (1, "forage", 1)
    match.play({"type": "forage", "number": 2})
    assert {a.type for a in match.legal_actions()} == {"ship", "end_turn"}
    match.play({"type": "end_turn"})  # a seat may leave its ships idle
    assert (match.current_player, data(match)["turn"]) == (2, 2)


def test_ruling_the_turn_ends_once_every_ship_has_acted_but_not_before():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True)
    acting(match)
    end_ship(match)
    assert match.current_player == 0 and data(match)["step"] == "ships"
    match.play({"type": "ship", "captain": 2})
    end_ship(match)
    assert match.current_player == 1 and data(match)["step"] == "forage"


# -- move ----------------------------------------------------------------------------------------
def test_move_up_to_the_move_value_through_ships_never_onto_one():
    match = acting(started())  # seat 0's skiff (move 2) at 0,0,N; seat 1 at 0,-1,S
    reach = {a.to for a in of(match, "move")}
    one = {"1,-1,S", "1,-2,S"}  # 0,-1,S is one step away too, but taken
    two = {"-1,0,N", "-1,1,N", "1,0,N", "0,1,N", "1,-1,N", "0,-1,N"}
    assert reach == one | two
    # -1,0,N and -1,1,N are two steps away only through seat 1's ship at 0,-1,S.
    assert "0,-1,S" not in reach and "0,0,S" not in reach  # taken / three steps away
    assert "cannot reach" in refusal(match, {"type": "move", "to": "0,0,S"})
    match.play({"type": "move", "to": "-1,0,N"})
    assert data(match)["ships"][0]["corner"] == "-1,0,N"


def test_moving_is_optional():
    match = acting(started())
    end_ship(match)
    assert data(match)["ships"][0]["corner"] == "0,0,N"


def test_ruling_ships_fly_only_along_sides_of_placed_hexes():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "scout", "1,-2,S"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               shipyard={"scout": 5})
    acting(match, captain=2)  # the scout flies 4
    # 2,-3,S is two steps from 1,-2,S, but the edge 1,-1,N - 2,-3,S lies between two empty spaces.
    assert "2,-3,S" not in {a.to for a in of(match, "move")}
    assert "2,-2,S" in {a.to for a in of(match, "move")}  # a side of canvas 1,-1
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "scout", "1,-2,S"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               shipyard={"scout": 5}, hexes={"1,-2": {"kind": "merchant"}},
               stack={"merchant": 0})
    acting(match, captain=2)
    assert "2,-3,S" in {a.to for a in of(match, "move")}  # now a side of the merchant 1,-2


def crowded(match):
    """Seats 1 and 2 fill all nine corners within two steps of seat 0's skiff at 0,0,N."""
    near = ["0,-1,S", "1,-1,S", "1,-2,S", "-1,0,N", "-1,1,N", "1,0,N", "0,1,N", "1,-1,N",
            "0,-1,N"]
    kinds = ["starter", "basic", "barge", "barge", "barge"]
    ships = [ship("0:1", "starter", "0,0,N")]
    for i, corner in enumerate(near):
        seat, captain = 1 + i // 5, 1 + i % 5
        ships.append(ship(f"{seat}:{captain}", kinds[captain - 1], corner))
    ships.append(ship("2:5", "barge", "0,0,S"))
    match.edit(ships=ships, shipyard={"barge": 0}, basic_built=[False, True, True])
    return match


def test_ruling_a_boxed_in_ship_may_fly_to_the_nearest_open_corner():
    match = acting(crowded(started()))
    reach = {a.to for a in of(match, "move")}
    assert reach and "0,-2,S" in reach  # three steps: 0,0,N - 1,-2,S - 0,-1,N - 0,-2,S
    occupied = {s["corner"] for s in data(match)["ships"]}
    assert not reach & occupied
    assert "-1,2,N" not in reach  # four steps away: farther than the nearest
    match.play({"type": "move", "to": "0,-2,S"})
    assert data(match)["ships"][0]["corner"] == "0,-2,S"


# -- explore and terraform -----------------------------------------------------------------------
def to_explorer(match, corner="1,-2,S"):
    """Seat 0's skiff moved to a corner touching empty spaces (1,-2,S touches 1,-2 and 0,-1)."""
    acting(match)
    match.play({"type": "move", "to": corner})
    return match


def test_explore_pays_one_resource_and_draws_the_hex_then_its_number():
    match = to_explorer(started(rulings=1))
    match.edit(pools=[pool(canvas=2, glass=1), pool(), pool()])
    assert {(a.space, a.pay) for a in of(match, "explore")} == {
        ("1,-2", "canvas"), ("1,-2", "glass")}
    match.play({"type": "explore", "space": "1,-2", "pay": "glass"})
    state = data(match)
    assert state["pools"][0] == pool(canvas=2)  # paid back to the supply
    assert (state["step"], state["target"], match.current_player) == ("draw_hex", "1,-2",
                                                                       aloftnb.CHANCE)
    stack = state["stack"]
    assert {a.kind: p for a, p in match.chance_outcomes()}["canvas"] == pytest.approx(
        stack["canvas"] / sum(stack.values()))
    match.force({"type": "hex", "kind": "metal"})
    assert data(match)["step"] == "draw_number"
    match.force({"type": "number", "number": 3})
    state = data(match)
    assert state["hexes"]["1,-2"] == {"kind": "metal", "number": 3}
    assert state["stack"]["metal"] == 2 and state["tokens"]["3"] == 3
    assert state["tallies"][0]["explored"] == 1 and state["fresh"] == ["1,-2"]
    assert state["step"] == "ships"


def test_explore_needs_an_empty_space_next_to_the_ship_and_a_resource_to_pay():
    match = acting(started(rulings=1))
    assert not of(match, "explore")  # at 0,0,N every space it touches holds a hex
    match = to_explorer(started(rulings=1))
    match.edit(pools=[pool(), pool(), pool()])
    assert not of(match, "explore")
    assert "no canvas" in refusal(match, {"type": "explore", "space": "1,-2", "pay": "canvas"})


def test_explore_a_merchant_draws_no_number():
    match = to_explorer(started(rulings=1))
    match.play({"type": "explore", "space": "1,-2", "pay": "canvas"})
    match.force({"type": "hex", "kind": "merchant"})
    state = data(match)
    assert state["hexes"]["1,-2"] == {"kind": "merchant"} and state["step"] == "ships"


def test_explore_a_leviathan_gives_one_reward_and_it_starts_with_four_health():
    match = to_explorer(started(rulings=1))
    match.play({"type": "explore", "space": "1,-2", "pay": "canvas"})
    assert "silkmoth" not in {a.kind for a, _ in match.chance_outcomes()}  # set aside
    match.force({"type": "hex", "kind": "barkwyrm"})
    state = data(match)
    assert state["hexes"]["1,-2"] == {"kind": "barkwyrm", "health": 4}
    assert state["pools"][0] == pool(wood=1)  # paid the canvas, got one wood
    assert state["seen"] == ["barkwyrm"] and state["stack"]["barkwyrm"] == 0
    assert state["tallies"][0]["from_leviathans"] == 1
    assert match.history[-1].text == "drew a leviathan, Barkwyrm, at 1,-2"


def test_ruling_an_empty_stack_ends_exploring():
    match = to_explorer(started(rulings=1))
    match.edit(pools=[pool(canvas=2), pool(), pool()],
               stack={k: 0 for k in data(match)["stack"]},
               hexes={"2,-1": {"kind": "prismray", "health": 4},
                      "-2,1": {"kind": "barkwyrm", "health": 4},
                      "1,1": {"kind": "ironhide", "health": 4}},
               seen=["prismray", "barkwyrm", "ironhide"])
    assert not of(match, "explore") and not of(match, "terraform")
    assert "stack is empty" in refusal(match, {"type": "explore", "space": "1,-2", "pay": "canvas"})


def test_ruling_with_no_number_tokens_left_a_resource_hex_has_no_number():
    match = to_explorer(started(rulings=1))
    match.edit(tokens={str(n): 0 for n in range(1, 7)})
    match.play({"type": "explore", "space": "1,-2", "pay": "canvas"})
    match.force({"type": "hex", "kind": "glass"})
    state = data(match)
    assert state["hexes"]["1,-2"] == {"kind": "glass", "number": 0} and state["step"] == "ships"


def test_terraform_removes_the_hex_and_its_token_and_draws_a_new_hex_there():
    match = to_explorer(started(rulings=1))  # 1,-2,S touches canvas 1 at 1,-1
    match.edit(pools=[pool(glass=1), pool(), pool()])
    before = data(match)
    match.play({"type": "terraform", "space": "1,-1", "pay": "glass"})
    state = data(match)
    assert "1,-1" not in state["hexes"] and state["step"] == "draw_hex"
    assert state["target"] == "1,-1" and state["pools"][0] == pool()
    match.force({"type": "hex", "kind": "wood"})
    match.force({"type": "number", "number": 2})
    state = data(match)
    assert state["hexes"]["1,-1"] == {"kind": "wood", "number": 2}
    # The canvas hex and its 1 token are out of the game, not back in the stack.
    assert state["stack"]["canvas"] == before["stack"]["canvas"]
    assert state["tokens"]["1"] == before["tokens"]["1"]
    assert state["tokens"]["2"] == before["tokens"]["2"] - 1
    assert state["tallies"][0]["explored"] == 1


def test_no_terraforming_a_hex_explored_or_terraformed_this_turn_by_any_of_your_ships():
    match = started(rulings=1)
    match.edit(ships=[ship("0:1", "starter", "1,-2,S"), ship("0:2", "basic", "1,-1,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True,
               pools=[pool(canvas=5), pool(), pool()])
    acting(match)
    match.play({"type": "terraform", "space": "1,-1", "pay": "canvas"})
    match.force({"type": "hex", "kind": "glass"})
    match.force({"type": "number", "number": 5})
    spaces = {a.space for a in of(match, "terraform")}
    assert "1,-1" not in spaces and "0,-1" in spaces
    assert "terraformed this turn" in refusal(
        match, {"type": "terraform", "space": "1,-1", "pay": "canvas"})
    match.play({"type": "explore", "space": "1,-2", "pay": "canvas"})
    match.force({"type": "hex", "kind": "metal"})
    match.force({"type": "number", "number": 6})
    end_ship(match)
    match.play({"type": "ship", "captain": 2})  # the other ship touches 1,-1 and 1,-2 too
    spaces = {a.space for a in of(match, "terraform")}
    assert "1,-1" not in spaces and "1,-2" not in spaces
    match.play({"type": "end_ship"})
    # Next turn for seat 0 the restriction is gone.
    for _ in range(2):
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    acting(match)
    assert {"1,-1", "1,-2"} <= {a.space for a in of(match, "terraform")}


def felled_leviathan(health=0, **options):
    """Seat 0's skiff at 1,-2,S next to prismray at 1,-2 (the one in the stack moved out)."""
    match = started(**options)
    match.edit(hexes={"1,-2": {"kind": "prismray", "health": health}},
               stack={"prismray": 0}, seen=["prismray"],
               ships=[ship("0:1", "starter", "1,-2,S"), ship("1:1", "starter", "0,-1,S"),
                      ship("2:1", "starter", "0,0,S")],
               pools=[pool(canvas=2), pool(), pool()])
    return acting(match)


def test_terraform_a_felled_leviathan_shuffles_it_back_into_the_stack():
    match = felled_leviathan(0, rulings=1)
    assert ("1,-2", "canvas") in {(a.space, a.pay) for a in of(match, "terraform")}
    match.play({"type": "terraform", "space": "1,-2", "pay": "canvas"})
    assert data(match)["stack"]["prismray"] == 1
    assert "prismray" in {a.kind for a, _ in match.chance_outcomes()}
    match.force({"type": "hex", "kind": "prismray"})  # drawn again: full health, a reward
    state = data(match)
    assert state["hexes"]["1,-2"] == {"kind": "prismray", "health": 4}
    assert state["pools"][0] == pool(canvas=1, glass=1)


def test_a_live_leviathan_cannot_be_terraformed():
    match = felled_leviathan(1)
    assert "1,-2" not in {a.space for a in of(match, "terraform")}
    assert "0 health" in refusal(match, {"type": "terraform", "space": "1,-2", "pay": "canvas"})


def test_a_merchant_cannot_be_terraformed():
    match = acting(started())
    match.edit(pools=[pool(canvas=2), pool(), pool()])
    assert "0,0" not in {a.space for a in of(match, "terraform")}


# -- upgrades ------------------------------------------------------------------------------------
def test_no_upgrades_until_someone_has_built_a_ship():
    match = acting(started())
    match.edit(pools=[pool(canvas=4, wood=2), pool(), pool()])
    assert not of(match, "upgrade")
    assert "until someone has built" in refusal(
        match, {"type": "upgrade", "upgrade": "trim_sails"})
    match.edit(built_any=True)
    assert {a.upgrade for a in of(match, "upgrade")} == {"trim_sails", "gathering_nets"}


def test_upgrade_pays_its_cost_takes_a_cube_and_changes_the_stats():
    match = acting(started())
    match.edit(pools=[pool(canvas=4, wood=2), pool(), pool()], built_any=True)
    match.play({"type": "upgrade", "upgrade": "trim_sails"})
    state = data(match)
    assert state["pools"][0] == pool(canvas=2, wood=2)
    assert state["ships"][0]["upgrades"] == ["trim_sails"] and state["upgrade_cubes"] == 29
    assert "0,-2,S" in {a.to for a in of(match, "move")}  # move 3 now reaches three steps
    assert not of(match, "upgrade")  # once per ship per turn
    assert "already done its upgrade" in refusal(
        match, {"type": "upgrade", "upgrade": "gathering_nets"})


def test_an_upgrade_the_ship_has_is_not_offered_again_and_costs_must_be_met():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N", ["trim_sails"]),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               built_any=True, upgrade_cubes=29, pools=[pool(canvas=4), pool(), pool()])
    acting(match)
    assert not of(match, "upgrade")  # it has trim_sails; gathering nets needs a wood
    match.edit(pools=[pool(canvas=4, wood=1), pool(), pool()])
    assert [a.upgrade for a in of(match, "upgrade")] == ["gathering_nets"]


def test_upgrades_stop_when_the_cube_supply_is_empty():
    match = acting(started())
    match.edit(pools=[pool(canvas=4, wood=2), pool(), pool()], built_any=True, upgrade_cubes=0)
    assert not of(match, "upgrade")


def test_upgraded_forage_and_plunder_count():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N", ["gathering_nets"]),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               built_any=True, upgrade_cubes=29)
    match.play({"type": "forage", "number": 1})
    assert data(match)["pools"][0] == pool(canvas=3)  # 1 free + forage 2 on canvas 1


# -- build ---------------------------------------------------------------------------------------
def test_build_pays_places_on_a_free_adjacent_corner_and_opens_upgrades():
    match = acting(started())
    match.edit(pools=[pool(canvas=2, breath=1), pool(), pool()])  # a cutter: 2 canvas, 1 breath
    # The scout costs 1 canvas and 1 breath; the basic sloop needs a wood. 0,-1,S is taken.
    assert {(a.ship, a.at) for a in of(match, "build")} == {
        (t, at) for t in ("cutter", "scout") for at in ("1,-1,S", "1,-2,S")}
    match.play({"type": "build", "ship": "cutter", "at": "1,-2,S"})
    state = data(match)
    assert state["ships"][-1] == ship("0:2", "cutter", "1,-2,S", new=True)
    assert state["pools"][0] == pool() and state["shipyard"]["cutter"] == 5
    assert state["built_any"] is True
    assert not of(match, "build")  # one build per builder per turn
    assert "already done its build" in refusal(
        match, {"type": "build", "ship": "cutter", "at": "1,-1,S"})


def test_a_ship_without_the_build_ability_cannot_build():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "1,-1,N"), ship("0:2", "cutter", "0,0,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               shipyard={"cutter": 5}, pools=[pool(canvas=4, breath=2, wood=2), pool(), pool()])
    acting(match, captain=2)
    assert not of(match, "build")


def test_no_build_when_every_adjacent_corner_is_taken():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "0,-1,S"),
                      ship("1:2", "cutter", "1,-1,S"), ship("2:1", "starter", "1,-2,S")],
               shipyard={"cutter": 5}, pools=[pool(canvas=4, breath=2), pool(), pool()])
    acting(match)
    assert not of(match, "build")
    assert "corner next to this ship is taken" in refusal(
        match, {"type": "build", "ship": "cutter", "at": "1,-2,S"})


def test_the_basic_ship_once_per_game():
    match = acting(started())
    match.edit(pools=[pool(canvas=1, wood=1), pool(), pool()])
    assert {a.ship for a in of(match, "build")} == {"basic"}
    match.play({"type": "build", "ship": "basic", "at": "1,-1,S"})
    assert data(match)["basic_built"] == [True, False, False]
    end_ship(match)  # the new sloop cannot act: the turn ends
    for _ in range(2):
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    acting(match)
    match.edit(pools=[pool(canvas=1, wood=1), pool(), pool()])  # the sloop's cost
    assert not of(match, "build")
    assert "basic ship already" in refusal(
        match, {"type": "build", "ship": "basic", "at": "1,-2,S"})


def test_a_new_ship_cannot_act_on_the_turn_it_was_built():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True,
               pools=[pool(canvas=2, breath=1), pool(), pool()])
    acting(match)
    match.play({"type": "build", "ship": "cutter", "at": "1,-2,S"})
    end_ship(match)
    assert [a.captain for a in of(match, "ship")] == [2]  # not the new cutter, 0:3
    refusal(match, {"type": "ship", "captain": 3})
    match.play({"type": "ship", "captain": 2})
    end_ship(match)  # the turn ends: the cutter is no longer new
    assert match.current_player == 1
    assert data(match)["ships"][2]["new"] is False


def test_at_most_five_ships_and_the_lowest_free_captain():
    ships = [ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
             ship("0:3", "barge", "1,0,N"), ship("0:4", "barge", "-1,0,N"),
             ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")]
    match = started()
    match.edit(ships=ships, shipyard={"barge": 4}, basic_built=[True, False, False],
               built_any=True, pools=[pool(canvas=4, breath=2), pool(), pool()])
    acting(match)
    match.play({"type": "build", "ship": "cutter", "at": "1,-2,S"})
    assert data(match)["ships"][-1]["ship"] == "0:5"
    match = started()
    match.edit(ships=[*ships, ship("0:5", "barge", "1,0,S")], shipyard={"barge": 3},
               basic_built=[True, False, False], built_any=True,
               pools=[pool(canvas=4, breath=2), pool(), pool()])
    acting(match)
    assert not of(match, "build")
    assert "at most 5 ships" in refusal(match, {"type": "build", "ship": "cutter", "at": "1,-2,S"})


def test_a_shipyard_type_with_no_cards_left_cannot_be_built():
    match = acting(started())
    match.edit(pools=[pool(canvas=4, breath=2), pool(), pool()], shipyard={"cutter": 0})
    assert "cutter" not in {a.ship for a in of(match, "build")}
    assert "no Corsair Cutter cards are left" in refusal(
        match, {"type": "build", "ship": "cutter", "at": "1,-2,S"})


def test_a_type_not_in_play_cannot_be_built():
    match = acting(started())
    match.edit(pools=[pool(glass=3, wood=3, metal=2), pool(), pool()])
    refusal(match, {"type": "build", "ship": "galleon", "at": "1,-2,S"})


# -- plunder -------------------------------------------------------------------------------------
def test_plunder_an_adjacent_rival_takes_up_to_the_plunder_value_of_your_choice():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "cutter", "1,-1,S"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,1,N")],
               shipyard={"cutter": 5}, pools=[pool(), pool(wood=3, glass=1), pool(glass=1)])
    acting(match, captain=2, forage=5)  # the cutter (plunder 2) at 1,-1,S: 0,1,N is one edge
    assert {a.target for a in of(match, "plunder")} == {"2:1"}  # 0,-1,S is two edges away
    assert "not next to this ship" in refusal(match, {"type": "plunder", "target": "1:1"})
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "cutter", "1,-1,S"),
                      ship("1:1", "starter", "1,0,N"), ship("2:1", "starter", "0,1,N")],
               shipyard={"cutter": 5}, pools=[pool(), pool(wood=3, glass=1), pool(glass=1)])
    acting(match, captain=2, forage=5)
    assert {a.target for a in of(match, "plunder")} == {"1:1", "2:1"}
    match.play({"type": "plunder", "target": "1:1"})
    state = data(match)
    assert (state["step"], state["target"], state["left"]) == ("take", 1, 2)
    assert {a.resource for a in match.legal_actions()} == {"wood", "glass"}
    assert "finish plundering" in refusal(match, {"type": "end_ship"})
    match.play({"type": "take", "resource": "glass"})
    assert {a.resource for a in match.legal_actions()} == {"wood"}
    match.play({"type": "take", "resource": "wood"})
    state = data(match)
    assert state["pools"][:2] == [pool(glass=1, wood=1), pool(wood=2)]
    assert state["step"] == "ships" and state["left"] == 0
    assert state["tallies"][0]["ships_plundered"] == 1 and state["tallies"][0]["plundered"] == 2
    assert not of(match, "plunder")  # once per ship per turn
    assert "already done its plunder" in refusal(match, {"type": "plunder", "target": "2:1"})


def test_ruling_plunder_takes_all_a_rival_has_when_it_holds_less_than_the_plunder_value():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "cutter", "1,-1,S"),
                      ship("1:1", "starter", "1,0,N"), ship("2:1", "starter", "0,0,S")],
               shipyard={"cutter": 5}, pools=[pool(), pool(metal=1), pool()])
    acting(match, captain=2, forage=5)
    match.play({"type": "plunder", "target": "1:1"})
    assert data(match)["left"] == 1
    match.play({"type": "take", "resource": "metal"})
    state = data(match)
    assert state["step"] == "ships" and state["pools"][:2] == [pool(metal=1), pool()]


def test_ruling_a_rival_with_an_empty_pool_is_not_offered_and_own_ships_never_are():
    match = acting(started())
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,S"),
                      ship("1:1", "starter", "1,-2,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True,
               pools=[pool(wood=2), pool(), pool()])
    assert not of(match, "plunder")
    assert "nothing to plunder" in refusal(match, {"type": "plunder", "target": "1:1"})
    assert "not a rival's ship" in refusal(match, {"type": "plunder", "target": "0:2"})


def test_a_ship_with_no_plunder_value_cannot_plunder():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "scout", "1,-1,S"),
                      ship("1:1", "starter", "1,0,N"), ship("2:1", "starter", "0,0,S")],
               shipyard={"scout": 5}, pools=[pool(), pool(wood=3), pool()])
    acting(match, captain=2)
    assert not of(match, "plunder")
    assert "no plunder value" in refusal(match, {"type": "plunder", "target": "1:1"})


def test_plunder_a_leviathan_takes_the_table_reward_and_deals_damage():
    match = started()
    match.edit(hexes={"1,-2": {"kind": "prismray", "health": 4}}, stack={"prismray": 0},
               seen=["prismray"],
               ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "cutter", "1,-2,S"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               shipyard={"cutter": 5})
    acting(match, captain=2)
    assert "1,-2" in {a.target for a in of(match, "plunder")}
    match.play({"type": "plunder", "target": "1,-2"})
    state = data(match)
    assert state["pools"][0] == pool(canvas=1, glass=4)  # plunder 2: the table's 4 glass
    assert state["hexes"]["1,-2"] == {"kind": "prismray", "health": 2}
    assert state["tallies"][0]["from_leviathans"] == 4
    assert state["tallies"][0]["leviathans_felled"] == 0


def test_ruling_the_full_reward_even_when_it_fells_the_leviathan_and_the_felled_tally():
    match = felled_leviathan(1)  # the skiff (plunder 1) next to prismray at 1 health
    match.play({"type": "plunder", "target": "1,-2"})
    state = data(match)
    assert state["pools"][0] == pool(canvas=2, glass=2)  # rewards[1] = 2
    assert state["hexes"]["1,-2"]["health"] == 0
    assert state["tallies"][0]["leviathans_felled"] == 1


def test_a_leviathan_at_zero_health_cannot_be_plundered():
    match = felled_leviathan(0)
    assert not of(match, "plunder")
    assert "0 health" in refusal(match, {"type": "plunder", "target": "1,-2"})


def test_leviathan_rewards_are_two_per_unit_of_plunder_in_the_shipped_catalogue():
    # The text states both "2 per unit of plunder" and "the hex lists the rewards": the table
    # must agree with the first for every plunder value a ship can reach.
    cat = aloftnb.make_rules("commodores", 3).catalogue
    assert cat.max_plunder == 3  # a cutter or whaler with its plunder upgrade
    for lv in cat.leviathans:
        assert lv.health == 4
        assert len(lv.rewards) >= cat.max_plunder
        assert list(lv.rewards) == [2 * p for p in range(1, len(lv.rewards) + 1)]


# -- trade ---------------------------------------------------------------------------------------
def test_trade_two_of_a_kind_for_one_other_next_to_a_merchant():
    match = acting(started())
    match.edit(pools=[pool(wood=3, glass=1), pool(), pool()])
    trades = {(a.give, a.get) for a in of(match, "trade")}
    assert trades == {("wood", r) for r in RESOURCES if r != "wood"}  # glass: only one
    match.play({"type": "trade", "give": "wood", "get": "metal"})
    state = data(match)
    assert state["pools"][0] == pool(wood=1, glass=1, metal=1)
    assert state["tallies"][0]["trades"] == 1 and state["tallies"][0]["traded"] == 1


def test_no_trade_away_from_a_merchant():
    match = to_explorer(started())  # 1,-2,S touches canvas 1 and breath 6 only
    match.edit(pools=[pool(wood=3), pool(), pool()])
    assert not of(match, "trade")
    assert "not next to a merchant" in refusal(
        match, {"type": "trade", "give": "wood", "get": "metal"})


# -- goals ---------------------------------------------------------------------------------------
# The shipped catalogue's amounts (a designer tunes them; the scenarios follow).
AMOUNT = {g.id: g.amount for g in aloftnb.make_rules("commodores", 3).catalogue.goals}

def goal_match(goal, **edits):
    """Seat 0 to forage with `goal` in play, after `edits`; returns the match and whether seat 0
    completed the goal once the forage number (2: no ship gains anything) was called."""
    goals = (goal, *[g for g in ("armada", "cartographer", "slayer", "hoard", "corsair",
                                 "merchant_prince") if g != goal][:4])
    match = started(goals=goals)
    if edits:
        match.edit(**edits)
    return match


def completes(match):
    match.play({"type": "forage", "number": 2})
    return data(match)["completed"][0]


BUILT = {"built_any": True}


@pytest.mark.parametrize("goal, met, not_met", [
    ("armada",  # 4 ships
     dict(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                 ship("0:3", "barge", "1,0,N"), ship("0:4", "barge", "-1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
          shipyard={"barge": 4}, basic_built=[True, False, False], **BUILT),
     dict(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                 ship("0:3", "barge", "1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
          shipyard={"barge": 5}, basic_built=[True, False, False], **BUILT)),
    ("cartographer", dict(tallies=[{"explored": AMOUNT["cartographer"]}, {}, {}]),
     dict(tallies=[{"explored": AMOUNT["cartographer"] - 1}, {"explored": 9}, {}])),
    ("slayer", dict(tallies=[{"leviathans_felled": 1}, {}, {}]),
     dict(tallies=[{}, {"leviathans_felled": 1}, {}])),
    ("merchant_prince", dict(tallies=[{"trades": 4}, {}, {}]),
     dict(tallies=[{"trades": 3}, {}, {}])),
    ("corsair", dict(tallies=[{"ships_plundered": 4}, {}, {}]),
     dict(tallies=[{"ships_plundered": 3}, {}, {}])),
    ("hoard", dict(pools=[pool(canvas=10, wood=8), pool(), pool()]),
     dict(pools=[pool(canvas=10, wood=7), pool(wood=10, glass=10), pool()])),
    ("mixed_fleet",  # 4 types
     dict(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                 ship("0:3", "barge", "1,0,N"), ship("0:4", "cutter", "-1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
          shipyard={"barge": 5, "cutter": 5}, basic_built=[True, False, False], **BUILT),
     dict(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                 ship("0:3", "barge", "1,0,N"), ship("0:4", "barge", "-1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
          shipyard={"barge": 4}, basic_built=[True, False, False], **BUILT)),
    ("refit",  # 2 upgrades, on any of the seat's ships
     dict(ships=[ship("0:1", "starter", "0,0,N", ["trim_sails"]),
                 ship("0:2", "basic", "1,-1,N", ["crows_nest"]),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
          basic_built=[True, False, False], upgrade_cubes=28, **BUILT),
     dict(ships=[ship("0:1", "starter", "0,0,N", ["trim_sails"]),
                 ship("0:2", "basic", "1,-1,N"),
                 ship("1:1", "starter", "0,-1,S", ["trim_sails", "gathering_nets"]),
                 ship("2:1", "starter", "0,0,S")],
          basic_built=[True, False, False], upgrade_cubes=27, **BUILT)),
    ("prospector",  # 5 resource kinds touched: the metal at 1,-2 makes the fifth
     dict(ships=[ship("0:1", "starter", "1,-2,S"), ship("0:2", "basic", "0,0,S"),
                 ship("0:3", "barge", "-1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,1,N")],
          shipyard={"barge": 5}, basic_built=[True, False, False],
          hexes={"1,-2": {"kind": "metal", "number": 3}}, stack={"metal": 2},
          tokens={"3": 3}, **BUILT),
     dict(ships=[ship("0:1", "starter", "1,-2,S"), ship("0:2", "basic", "0,0,S"),
                 ship("0:3", "barge", "-1,0,N"),
                 ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,1,N")],
          shipyard={"barge": 5}, basic_built=[True, False, False], **BUILT)),
])
def test_each_goal_kind_met_and_not_met(goal, met, not_met):
    assert goal in completes(goal_match(goal, **full_tallies(met)))
    assert goal not in completes(goal_match(goal, **full_tallies(not_met)))


def full_tallies(edits):
    """`edits` with each seat's partial tallies filled out with zeros."""
    if "tallies" not in edits:
        return edits
    zero = dict.fromkeys(data(new())["tallies"][0], 0)
    return {**edits, "tallies": [{**zero, **t} for t in edits["tallies"]]}


def beacon_fleet(corner_of_third):
    return [ship("0:1", "starter", "0,0,S"), ship("0:2", "basic", "-1,1,N"),
            ship("0:3", "barge", corner_of_third),
            ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "1,-1,S")]


def test_beacon_goal_three_ships_all_next_to_the_drawn_number():
    edits = dict(shipyard={"barge": 5}, basic_built=[True, False, False], built_any=True)
    # Glass 4 at -1,1: its corners 0,0,S, -1,1,N and -1,2,N all touch it.
    match = started(number=4)
    match.edit(ships=beacon_fleet("-1,2,N"), **edits)
    assert "beacon" in completes(match)
    match = started(number=4)
    match.edit(ships=beacon_fleet("1,0,N"), **edits)  # touches wood 2 and canvas 1 only
    assert "beacon" not in completes(match)
    match = started(number=3)  # drawn 3: breath 3 at 0,1 is not touched by -1,1,N
    match.edit(ships=beacon_fleet("-1,2,N"), **edits)
    assert "beacon" not in completes(match)


def test_goals_are_completed_once_per_seat_and_only_on_that_seats_turn():
    hoard = AMOUNT["hoard"] - 10
    match = goal_match("hoard", pools=[pool(canvas=10, wood=hoard), pool(canvas=10, wood=hoard),
                                       pool()])
    assert data(match)["completed"][1] == []  # seat 1 qualifies, but it is seat 0's turn
    match.play({"type": "forage", "number": 2})
    assert data(match)["completed"] == [["hoard"], [], []]
    match.play({"type": "end_turn"})
    assert data(match)["completed"] == [["hoard"], ["hoard"], []]  # seat 1's turn began
    for seat in (1, 2):
        assert match.current_player == seat
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    assert match.current_player == 0
    match.play({"type": "forage", "number": 2})
    assert data(match)["completed"] == [["hoard"], ["hoard"], []]  # never twice


def test_a_goal_completed_mid_turn_is_recorded_at_once():
    match = goal_match("merchant_prince", **full_tallies({"tallies": [
        {"trades": AMOUNT["merchant_prince"] - 1}, {}, {}]}))
    acting(match)
    match.edit(pools=[pool(wood=2), pool(), pool()])
    assert data(match)["completed"][0] == []
    match.play({"type": "trade", "give": "wood", "get": "metal"})
    assert data(match)["completed"][0] == ["merchant_prince"]


def test_three_goals_win_at_once():
    match = goal_match("hoard", **full_tallies({"tallies": [
        {"explored": AMOUNT["cartographer"], "leviathans_felled": 1}, {}, {}]}))
    match.edit(pools=[pool(canvas=10, wood=AMOUNT["hoard"] - 11), pool(wood=2), pool()],
               ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "1,-2,S"),
                      ship("2:1", "starter", "0,0,S")])
    acting(match)
    assert data(match)["completed"][0] == ["cartographer", "slayer"]
    assert not match.is_over
    match.play({"type": "plunder", "target": "1:1"})
    match.play({"type": "take", "resource": "wood"})  # enough for the Hoard, a third goal
    state = data(match)
    assert state["step"] == "over" and state["end"] == "goals"
    assert match.is_over and not match.legal_actions()
    outcome = match.outcome()
    assert outcome.winners == (0,) and outcome.scores[0] == 3.0
    assert "seat 0 completed 3 goals" in outcome.reason


def test_ruling_turn_limit_most_goals_share_the_win():
    match = started(turn_limit=1)
    tallies = data(match)["tallies"]
    for seat in (0, 2):
        tallies[seat]["explored"] = AMOUNT["cartographer"]
    match.edit(tallies=tallies)
    for seat in range(3):
        assert match.current_player == seat
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    assert data(match)["end"] == "turn_limit" and match.is_over
    outcome = match.outcome()
    assert outcome.winners == (0, 2)
    assert outcome.scores == {0: 1.0, 1: 0.0, 2: 1.0}
    assert "turn limit" in outcome.reason


def test_ruling_turn_limit_with_no_goal_nobody_wins():
    match = started(turn_limit=1)
    for _ in range(3):
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    outcome = match.outcome()
    assert outcome.winners == () and "nobody" in outcome.reason


def test_rounds_count_turns_per_seat():
    match = started(turn_limit=3)
    assert match.round == 1
    for _ in range(3):
        match.play({"type": "forage", "number": 2})
        match.play({"type": "end_turn"})
    assert match.round == 2 and data(match)["turn"] == 3


# -- hidden information: logs, views, determinize ------------------------------------------------
def test_log_sentences_never_name_a_set_aside_leviathan():
    match = started(aside=("ironhide", "prismray"))
    texts = [h.text for h in match.history]
    assert texts[:2] == ["a leviathan was set aside face down"] * 2
    names = {"ironhide", "prismray", "Ironhide", "Prism Ray"}
    assert not [t for t in texts if any(n in t for n in names)]
    rules = match.rules
    for lv in ("ironhide", "prismray"):
        outcome = rules.parse_action({"type": "set_aside", "leviathan": lv})
        for describe in (rules.describe_chance, rules.describe_action):
            assert lv not in describe(match.state_at(0), outcome).lower()


def test_views_hide_which_leviathans_were_set_aside_and_which_wait_in_the_stack():
    a = started(aside=("ironhide", "prismray"))
    b = started(aside=("silkmoth", "barkwyrm"))
    for seat in (0, 1, 2, None):
        view_a, view_b = a.view(seat), b.view(seat)
        assert view_a == view_b
        assert view_a["set_aside"] == ["hidden", "hidden"]
        assert view_a["stack"]["leviathans"] == 3
        assert not set(view_a["stack"]) & {"ironhide", "prismray", "silkmoth", "barkwyrm"}


def test_determinize_resamples_only_unseen_leviathans():
    match = started(aside=("ironhide", "prismray"))
    match.edit(hexes={"1,-2": {"kind": "barkwyrm", "health": 4}}, stack={"barkwyrm": 0},
               seen=["barkwyrm", "silkmoth"], pools=[pool(canvas=1), pool(), pool()])
    rules, state = match.rules, match.state
    seen_in_stack = state.stack[rules.kind_index["silkmoth"]]
    asides = set()
    rng = random.Random(3)
    for _ in range(60):
        guess = rules.determinize(state, 1, rng)
        rules.check_state(guess)
        assert "barkwyrm" not in guess.set_aside and "silkmoth" not in guess.set_aside
        assert guess.stack[rules.kind_index["silkmoth"]] == seen_in_stack
        assert guess.hexes == state.hexes and guess.pools == state.pools
        assert sum(guess.stack) == sum(state.stack)
        asides.add(frozenset(guess.set_aside))
    # The unseen three (ironhide, prismray, cindermaw) are shuffled among set aside and stack.
    assert asides == {frozenset(p) for p in (("ironhide", "prismray"), ("ironhide", "cindermaw"),
                                             ("prismray", "cindermaw"))}


# -- refusals and the dict form ------------------------------------------------------------------
def test_chance_outcomes_cannot_be_played_and_decisions_cannot_be_forced():
    match = to_explorer(started())
    assert "force" in refusal(match, {"type": "hex", "kind": "metal"})
    with pytest.raises(IllegalAction):
        match.force({"type": "move", "to": "0,0,N"})
    match.play({"type": "explore", "pay": "canvas"})
    assert "chance step" in refusal(match, {"type": "end_ship"})
    with pytest.raises(IllegalAction, match="cannot happen"):
        match.force({"type": "hex", "kind": "silkmoth"})  # set aside, not in the stack


def test_malformed_actions_are_refused_with_the_fields_named():
    match = acting(started())
    assert "takes to" in refusal(match, {"type": "move", "corner": "1,-2,S"})
    assert "short text" in refusal(match, {"type": "move", "to": 3})


def test_actions_read_well_and_round_trip_through_their_dict_form():
    match = acting(started())
    rules = match.rules
    for action in match.legal_actions():
        assert rules.parse_action(json.loads(json.dumps(action.to_dict()))) == action
        assert str(action) and "CommodoresAction" not in str(action)
    text = rules.describe_action(match.state, rules.parse_action({"type": "move",
                                                                  "to": "1,-2,S"}))
    assert text == "ship 1 (Skiff): move to 1,-2,S"


def test_edits_that_break_the_rules_are_refused():
    match = started()
    with pytest.raises(InvalidState, match="two ships are on one corner"):
        match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "0,0,N"),
                          ship("2:1", "starter", "0,0,S")])
    with pytest.raises(InvalidState, match="touches no hex"):
        match.edit(ships=[ship("0:1", "starter", "3,-3,N"), ship("1:1", "starter", "0,-1,S"),
                          ship("2:1", "starter", "0,0,S")])
    with pytest.raises(InvalidState, match="exactly one place"):
        match.edit(stack={"ironhide": 0})
    with pytest.raises(InvalidState, match="only 5 number tokens"):
        match.edit(tokens={"1": 5})
    with pytest.raises(InvalidState):
        match.edit(pools=[pool(canvas=11), pool(), pool()])
    assert data(match)["step"] == "forage"


def test_ruling_the_sky_has_an_edge():
    match = started(radius=2)
    match.edit(hexes={"1,-2": {"kind": "merchant"}}, stack={"merchant": 0},
               ships=[ship("0:1", "starter", "1,-2,N"), ship("1:1", "starter", "0,-1,S"),
                      ship("2:1", "starter", "0,0,S")], pools=[pool(canvas=1), pool(), pool()])
    acting(match)
    # 1,-2,N touches 1,-2 (placed), 1,-3 and 2,-3, which lie beyond radius 2.
    assert not of(match, "explore")
    with pytest.raises(InvalidState):
        match.edit(hexes={"1,-3": {"kind": "merchant"}})


def test_goal_checks_that_reuse_their_last_answer_look_again_when_the_map_or_seat_changes():
    # The map-reading goals remember their last answer for the same ships and map objects; a
    # different map, seat or Beacon number must be looked at afresh.
    from aloftnb.core.chance import CHANCE
    from aloftnb.games.commodores.rules import CommodoresRules

    rules = CommodoresRules(3)
    rng = random.Random(5)
    amount = rules.goal_cards["prospector"].amount

    def touches_enough(s, seat):  # the goal worked out by hand
        return len({s.hexes[sp].kind for ship in s.ships if ship.owner == seat
                    for sp in rules.touching(s, ship.corner)} & set(rules.resources)) >= amount

    met_state = None
    for seed in range(40):
        s = rules.initial_state(seed)
        while not rules.is_over(s) and met_state is None:
            if rules.current_player(s) == CHANCE:
                s = rules.apply(s, rules.sample_chance(s, rng))
            else:
                s = rules.apply(s, rng.choice(rules.legal_actions(s)))
            for seat in range(3):
                if touches_enough(s, seat):
                    met_state = (s, seat)
        if met_state:
            break
    assert met_state is not None
    s, seat = met_state
    bare = s._replace(hexes=(s.hexes[0],) + (None,) * (len(s.hexes) - 1))
    others = [o for o in range(3) if not touches_enough(s, o)]
    assert others
    assert rules.goal_met(s, seat, "prospector")
    assert not rules.goal_met(bare, seat, "prospector")  # same ships, another map
    assert rules.goal_met(s, seat, "prospector")
    for other in others:  # same ships and map, another seat
        assert not rules.goal_met(s, other, "prospector")


# -- issue 19: the rulings option -----------------------------------------------------------------
def test_rulings_option_new_matches_take_the_current_rulings_and_older_saves_the_first():
    from pathlib import Path

    assert new().rules.options["rulings"] == 3
    assert new(rulings=1).rules.options["rulings"] == 1
    with pytest.raises(InvalidOptions, match="rulings"):
        new(rulings=4)
    saved = Path(__file__).parent / "saves" / "v2" / "commodores-3p-mid-forced.json"
    old = aloftnb.Match.from_json(saved.read_text("utf-8"))
    assert old.rules.options["rulings"] == 1  # written before the option: the old rulings
    assert aloftnb.Match.from_json(old.to_json()).rules.options["rulings"] == 1


def fourth_ship_of_a_fourth_type(**options):
    """Seat 0 holds two goals (Cartographer, Slayer) and three ships of three types; its starter
    builds a Corsair Cutter, a fourth ship of a fourth type: Armada and Mixed fleet at once."""
    match = started(goals=("mixed_fleet", "armada", "cartographer", "slayer", "hoard"),
                    **options)
    match.edit(**full_tallies({
        "tallies": [{"explored": AMOUNT["cartographer"], "leviathans_felled": 1}, {}, {}],
        "ships": [ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                  ship("0:3", "barge", "1,0,N"), ship("1:1", "starter", "0,-1,S"),
                  ship("2:1", "starter", "0,0,S")],
        "shipyard": {"barge": 5, "cutter": 6, "tender": 6, "scout": 6, "whaler": 6},
        "basic_built": [True, False, False], "built_any": True,
        "pools": [pool(canvas=2, breath=1), pool(), pool()]}))
    acting(match)
    assert data(match)["completed"][0] == ["cartographer", "slayer"]
    build = next(a for a in of(match, "build") if a.ship == "cutter")
    match.play(build)
    assert match.is_over
    return match


def test_ruling_a_player_never_holds_more_than_three_goals_catalogue_order_breaks_a_tie():
    match = fourth_ship_of_a_fourth_type()
    # Armada comes before Mixed fleet in the catalogue: it takes the last token.
    assert data(match)["completed"][0] == ["cartographer", "slayer", "armada"]
    outcome = match.outcome()
    assert outcome.winners == (0,) and outcome.scores[0] == 3.0
    assert outcome.reason == "seat 0 completed 3 goals: Cartographer, Leviathan slayer, Armada"
    old = fourth_ship_of_a_fourth_type(rulings=1)  # as before: four goals recorded
    assert old.outcome().scores[0] == 4.0 and "completed 4 goals" in old.outcome().reason


def test_the_game_list_says_three_to_five_players_and_two_only_with_the_option():
    listed = next(g for g in aloftnb.games() if g["name"] == "commodores")
    assert listed["players"] == "3-5 (2 with two_players=True)"
    # and the face-down stack after set-up holds the 21 hexes the rules page counts
    assert sum(data(started())["stack"].values()) == 21
    assert "remaining 21 hexes" in (
        __import__("pathlib").Path(__file__).parents[1] / "docs/rules/commodores.md").read_text()


# -- issue 19, item 1: exploring reveals the hex first (rulings 2) --------------------------------
def issue_recipe(**options):
    """The issue's recipe: seat 0's skiff at 1,-1,N touches the empty spaces 1,-2 and 2,-2."""
    m = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False, **options)
    while m.is_chance:
        m.resolve_chance()
    for c in ("0,0,N", "0,1,N", "-1,1,N"):
        m.play({"type": "place", "corner": c})
    for _ in range(3):
        m.play({"type": "free", "resource": "wood"})
    m.play({"type": "forage", "number": 6})
    m.play({"type": "ship", "captain": 1})
    m.play({"type": "move", "to": "1,-1,N"})
    return m


def test_ruling_explore_reveals_the_top_hex_first_then_the_explorer_chooses_the_space():
    m = issue_recipe()
    # The space is no longer named up front: the old form is refused, naming the new one.
    assert "place_hex" in refusal(m, {"type": "explore", "space": "1,-2", "pay": "wood"})
    assert {str(a) for a in of(m, "explore")} == {"explore paying wood", "explore paying breath"}
    m.play({"type": "explore", "pay": "wood"})
    state = data(m)
    assert (state["step"], state["target"], m.current_player) == ("draw_hex", None,
                                                                  aloftnb.CHANCE)
    label = m.rules.chance_choice_label(m.state, aloftnb.core.action.Action("hex", kind="metal"))
    assert label == "draw a metal hex for seat 0 to place next to ship 1"
    m.force({"type": "hex", "kind": "barkwyrm"})  # a leviathan: its reward comes with the draw
    state = data(m)
    assert state["step"] == "place_hex" and state["drawn"] == "barkwyrm"
    assert m.current_player == 0 and state["seen"] == ["barkwyrm"]
    assert state["pools"][0]["wood"] == 1  # 1 wood paid, 1 wood of reward
    assert state["tallies"][0]["explored"] == 1
    assert m.history[-1].text == "drew a leviathan, Barkwyrm, for seat 0 to place next to ship 1"
    # The player keeps the leviathan away from (or next to) where they like.
    assert sorted(a.space for a in m.legal_actions()) == ["1,-2", "2,-2"]
    assert [a.type for a in m.legal_actions()] == ["place_hex", "place_hex"]
    assert "place the hex just drawn" in refusal(m, {"type": "end_ship"})
    assert "not a space next to ship 1" in refusal(m, {"type": "place_hex", "space": "3,-3"})
    assert "holds a hex already" in refusal(m, {"type": "place_hex", "space": "1,-1"})
    m.play({"type": "place_hex", "space": "2,-2"})
    state = data(m)
    assert state["hexes"]["2,-2"] == {"kind": "barkwyrm", "health": 4}
    assert "1,-2" not in state["hexes"] and state["fresh"] == ["2,-2"]
    assert state["step"] == "ships" and state["drawn"] is None
    # A resource hex is placed, then its number is drawn for the space chosen.
    m.play({"type": "explore", "pay": "breath"})
    m.force({"type": "hex", "kind": "metal"})
    m.play({"type": "place_hex", "space": "1,-2"})
    assert (data(m)["step"], data(m)["target"]) == ("draw_number", "1,-2")
    m.force({"type": "number", "number": 3})
    assert data(m)["hexes"]["1,-2"] == {"kind": "metal", "number": 3}


def test_rulings_1_keeps_the_space_named_before_the_draw():
    m = issue_recipe(rulings=1)
    assert "place_hex" in refusal(m, {"type": "place_hex", "space": "1,-2"})
    m.play({"type": "explore", "space": "1,-2", "pay": "wood"})  # the hex is drawn only now
    assert data(m)["target"] == "1,-2"
    m.force({"type": "hex", "kind": "barkwyrm"})
    assert data(m)["hexes"]["1,-2"] == {"kind": "barkwyrm", "health": 4}


def test_ruling_a_terraformed_hex_is_replaced_in_any_empty_space_next_to_the_ship_freed_included():
    match = acting(started())
    match.edit(pools=[pool(glass=2), pool(), pool()],
               ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "0,-1,S"),
                      ship("2:1", "starter", "0,0,S")])
    match.play({"type": "move", "to": "1,-1,N"})  # touches canvas 1,-1 and empty 1,-2, 2,-2
    match.play({"type": "terraform", "space": "1,-1", "pay": "glass"})
    state = data(match)
    assert state["target"] == "1,-1" and "1,-1" not in state["hexes"]
    match.force({"type": "hex", "kind": "wood"})
    # 2,-2 would touch no other hex once 1,-1 is empty: not offered. The freed space always is.
    assert sorted(a.space for a in match.legal_actions()) == ["1,-1", "1,-2"]
    assert "touch no other hex" in refusal(match, {"type": "place_hex", "space": "2,-2"})
    match.play({"type": "place_hex", "space": "1,-2"})
    match.force({"type": "number", "number": 2})
    state = data(match)
    assert "1,-1" not in state["hexes"] and state["hexes"]["1,-2"] == {"kind": "wood",
                                                                       "number": 2}
    assert state["fresh"] == ["1,-2"]  # the new hex cannot be terraformed again this turn
    assert "1,-2" not in {a.space for a in of(match, "terraform")}


def test_ruling_a_terraform_never_strands_a_ship():
    match = acting(started())
    match.edit(pools=[pool(glass=2), pool(), pool()],
               ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "2,-2,S"),
                      ship("2:1", "starter", "0,0,S")])  # 2,-2,S touches only canvas 1,-1
    match.play({"type": "move", "to": "1,-1,N"})
    match.play({"type": "terraform", "space": "1,-1", "pay": "glass"})
    match.force({"type": "hex", "kind": "wood"})
    assert [a.space for a in match.legal_actions()] == ["1,-1"]
    assert "ship 1:1 would touch no hex" in refusal(match, {"type": "place_hex",
                                                            "space": "1,-2"})


def test_ruling_explore_needs_an_empty_space_to_place_into_and_a_hex_in_the_stack():
    match = acting(started())  # at 0,0,N every space it touches holds a hex
    match.edit(pools=[pool(canvas=2), pool(), pool()])
    assert not of(match, "explore")
    assert "touches no empty space" in refusal(match, {"type": "explore", "pay": "canvas"})
    match = to_explorer(started())
    match.edit(stack={k: 0 for k in data(match)["stack"]},
               hexes={"2,-1": {"kind": "prismray", "health": 4},
                      "-2,1": {"kind": "barkwyrm", "health": 4},
                      "1,1": {"kind": "ironhide", "health": 4}},
               seen=["prismray", "barkwyrm", "ironhide"])
    assert not of(match, "explore")
    assert "stack is empty" in refusal(match, {"type": "explore", "pay": "canvas"})


# -- issue 19, item 3: the leviathan farm (rulings 2) --------------------------------------------
def test_ruling_with_the_stack_empty_a_felled_leviathan_cannot_be_terraformed():
    match = felled_leviathan(0)
    state = data(match)
    on_table = state["hexes"]
    # Empty the stack: every hex left in it goes onto the map's rim (a legal position).
    rim = iter(["2,-2", "2,-1", "2,0", "1,1", "0,2", "-1,2", "-2,2", "-2,1", "-2,0", "-1,-1",
                "0,-2", "1,-3", "2,-3", "3,-3", "3,-2", "3,-1", "3,0", "2,1", "1,2", "0,3",
                "-1,3"])
    hexes, seen, tokens = {}, list(state["seen"]), dict(state["tokens"])
    for kind, n in state["stack"].items():
        for _ in range(n):
            space = next(rim)
            while space in on_table:
                space = next(rim)
            if kind in RESOURCES:
                number = next(int(t) for t, left in tokens.items() if left)
                tokens[str(number)] -= 1
                hexes[space] = {"kind": kind, "number": number}
            elif kind == "merchant":
                hexes[space] = {"kind": kind}
            else:
                hexes[space] = {"kind": kind, "health": 4}
                seen.append(kind)
    match.edit(hexes=hexes, seen=seen, tokens=tokens,
               stack={k: 0 for k in state["stack"]})
    assert sum(data(match)["stack"].values()) == 0
    assert "1,-2" not in {a.space for a in of(match, "terraform")}
    assert "would only draw it back" in refusal(
        match, {"type": "terraform", "space": "1,-2", "pay": "canvas"})
    # Under rulings 1 it could: the leviathan came straight back at full health with a reward.
    old = felled_leviathan(0, rulings=1)
    old.edit(hexes=hexes, seen=seen, tokens=tokens, stack={k: 0 for k in state["stack"]})
    old.play({"type": "terraform", "space": "1,-2", "pay": "canvas"})
    assert [a.kind for a, _ in old.chance_outcomes()] == ["prismray"]
    old.force({"type": "hex", "kind": "prismray"})
    assert data(old)["hexes"]["1,-2"] == {"kind": "prismray", "health": 4}
    assert data(old)["pools"][0]["glass"] == 1  # the explore reward, paid again


def test_a_felled_leviathan_is_still_terraformed_while_the_stack_holds_another_hex():
    match = felled_leviathan(0)
    match.play({"type": "terraform", "space": "1,-2", "pay": "canvas"})
    assert data(match)["stack"]["prismray"] == 1 and data(match)["step"] == "draw_hex"
    match.force({"type": "hex", "kind": "merchant"})
    assert "1,-2" in {a.space for a in match.legal_actions()}


# -- issue 19, item 11: every refusal names its rule ---------------------------------------------
GENERIC = "is not a legal action now"


def test_refusals_name_the_rule_at_set_up():
    match = started(corners=("0,0,N",), free=())  # seat 1 is placing its starter
    said = refusal(match, {"type": "place", "corner": "0,0,N"})  # seat 0's starter is there
    assert "taken by seat 0's starter" in said and "no two ships share a corner" in said
    assert "not a corner of the centre merchant" in refusal(
        match, {"type": "place", "corner": "2,-2,N"})
    assert "placed first" in refusal(match, {"type": "free", "resource": "wood"})
    for corner in STARTS[1:3]:
        match.play({"type": "place", "corner": corner})
    said = refusal(match, {"type": "free", "resource": "metal"})
    assert "free resource is one of canvas, dragon's breath, glass, wood, not metal" in said
    assert "starter ship is placed already" in refusal(match, {"type": "place",
                                                               "corner": "0,1,N"})


@pytest.mark.parametrize("number", [0, 7])
def test_refusals_name_the_rule_foraging_off_the_dice(number):
    said = refusal(started(), {"type": "forage", "number": number})
    assert said == f"the forage number is one of 1 to 6, not {number}"


def test_refusals_name_the_rule_for_an_upgrade_the_ship_has():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N", ["trim_sails"]),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               built_any=True, upgrade_cubes=29, pools=[pool(canvas=4), pool(), pool()])
    acting(match)
    said = refusal(match, {"type": "upgrade", "upgrade": "trim_sails"})
    assert said == "this ship has Trimmed sails already: never the same upgrade twice"
    assert "Gathering nets costs 1 canvas, 1 wood, more than you have" in refusal(
        match, {"type": "upgrade", "upgrade": "gathering_nets"})
    assert "not an upgrade on the Skiff's card" in refusal(
        match, {"type": "upgrade", "upgrade": "crows_nest"})


def test_refusals_name_the_rule_for_a_ship_that_acted_or_was_built_this_turn():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("0:2", "basic", "1,-1,N"),
                      ship("1:1", "starter", "0,-1,S"), ship("2:1", "starter", "0,0,S")],
               basic_built=[True, False, False], built_any=True,
               pools=[pool(canvas=2, breath=1), pool(), pool()])
    acting(match)
    assert refusal(match, {"type": "end_turn"}) == \
        "a ship is acting: end its actions first (end_ship), then the turn"
    match.play({"type": "build", "ship": "cutter", "at": "1,-2,S"})
    end_ship(match)
    assert refusal(match, {"type": "ship", "captain": 1}) == \
        "ship 1 has already acted this turn"
    assert refusal(match, {"type": "ship", "captain": 3}) == \
        "ship 3 was built this turn: it acts from your next turn"
    assert refusal(match, {"type": "ship", "captain": 5}) == "you have no ship 5"


def test_refusals_name_the_rule_taking_what_the_rival_does_not_hold():
    match = started()
    match.edit(ships=[ship("0:1", "starter", "0,0,N"), ship("1:1", "starter", "1,-2,S"),
                      ship("2:1", "starter", "0,0,S")],
               pools=[pool(), pool(wood=2), pool()])
    acting(match)
    assert "nothing to take" in refusal(match, {"type": "take", "resource": "wood"})
    match.play({"type": "plunder", "target": "1:1"})
    assert refusal(match, {"type": "take", "resource": "glass"}) == \
        "seat 1 holds no glass: take one of what they hold"
    assert "finish plundering first" in refusal(match, {"type": "end_turn"})


def test_refusals_name_the_rule_along_random_games():
    """Well-formed actions drawn at random along random games: none is refused with only the
    generic sentence."""
    for rulings in (2, 1):
        rules = aloftnb.make_rules("commodores", 3, rulings=rulings, turn_limit=8)
        everything = [rules.action_from_index(i) for i in range(rules.num_distinct_actions())]
        for seed in range(3):
            rng = random.Random(seed)
            state = rules.initial_state(seed)
            while not rules.is_over(state):
                if rules.is_chance(state):
                    state = rules.apply(state, rules.sample_chance(state, rng))
                    continue
                legal = rules.legal_actions(state)
                for action in rng.sample(everything, 8):
                    if action not in legal:
                        said = rules.why_illegal(state, action)
                        assert said and GENERIC not in said, (action, said)
                state = rules.apply(state, rng.choice(legal))
