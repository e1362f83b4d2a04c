"""Sky commodores, ruling 32 (rulings 3): a terraform never leaves the centre merchant touching no
other hex, and the state check refuses a centre that touches none; rulings 2 still allows both,
so saves played by it replay as they were played.

The position: only canvas 1 at "1,-1" still touches the centre "0,0"; beyond it, glass at "2,-2"
and metal at "2,-1" (the other ring hexes left the game by terraforming). Seat 0's skiff at
"1,-1,N" touches "1,-1" and the empty "1,-2"; terraforming "1,-1" and placing the new hex at "1,-2"
would leave the centre alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import aloftnb
from aloftnb import IllegalAction, InvalidState

GOALS = ("beacon", "armada", "cartographer", "slayer", "hoard")
TYPES = ("barge", "cutter", "tender", "scout", "whaler")
# Written by the engine before rulings 3 existed: the position below, the terraform, the new hex
# placed at 1,-2 and its number drawn (rulings 2, the default then).
OLD_SAVE = Path(__file__).parent / "saves" / "v3" / "commodores-rulings2-centre-cut-off-mid.json"


def centre_held_by_one_hex(**options) -> aloftnb.Match:
    """Seat 0's skiff at 1,-1,N in the position above, two glass in its pool, acting."""
    match = aloftnb.new_match("commodores", players=3, seed=5, auto_chance=False, **options)
    for leviathan in ("silkmoth", "cindermaw"):
        match.force({"type": "set_aside", "leviathan": leviathan})
    for goal in GOALS:
        match.force({"type": "goal", "goal": goal})
    match.force({"type": "goal_number", "number": 4})
    for ship_type in TYPES:
        match.force({"type": "ship_type", "ship": ship_type})
    for corner in ("0,0,N", "0,-1,S", "0,0,S"):
        match.play({"type": "place", "corner": corner})
    for resource in ("canvas", "wood", "glass"):
        match.play({"type": "free", "resource": resource})
    match.play({"type": "forage", "number": 2})
    state = match.state.to_dict()
    state.pop("derived")
    state["hexes"] = {"0,0": state["hexes"]["0,0"], "1,-1": state["hexes"]["1,-1"],
                      "2,-2": {"kind": "glass", "number": 5},
                      "2,-1": {"kind": "metal", "number": 6}}
    state["stack"]["glass"] -= 1
    state["stack"]["metal"] -= 1
    state["tokens"]["5"] -= 1
    state["tokens"]["6"] -= 1
    state["pools"][0]["glass"] = 2
    match.set_state(state)
    match.play({"type": "ship", "captain": 1})
    match.play({"type": "move", "to": "1,-1,N"})
    return match


def terraformed(match: aloftnb.Match) -> aloftnb.Match:
    """Terraform canvas 1,-1 and draw a wood hex to place."""
    match.play({"type": "terraform", "space": "1,-1", "pay": "glass"})
    match.force({"type": "hex", "kind": "wood"})
    return match


def centre_neighbours(match: aloftnb.Match) -> list[str]:
    hexes = match.state.to_dict()["hexes"]
    return [name for name in ("1,-1", "1,0", "0,1", "-1,1", "-1,0", "0,-1") if name in hexes]


def test_new_matches_take_rulings_3_and_each_older_value_stays_playable():
    assert centre_held_by_one_hex().rules.options["rulings"] == 3
    listed = next(g for g in aloftnb.games() if g["name"] == "commodores")
    assert listed["options"]["rulings"]["default"] == 3
    assert listed["options"]["rulings"]["choices"] == [1, 2, 3]
    for rulings in (1, 2):
        assert centre_held_by_one_hex(rulings=rulings).rules.options["rulings"] == rulings


def test_ruling_a_terraform_never_leaves_the_centre_touching_no_other_hex():
    match = terraformed(centre_held_by_one_hex())
    # 1,-2 touches glass 2,-2, but placing there leaves the centre alone: only the freed space.
    assert [a.space for a in match.legal_actions()] == ["1,-1"]
    before = match.state.to_dict()
    with pytest.raises(IllegalAction) as refused:
        match.play({"type": "place_hex", "space": "1,-2"})
    assert "the centre hex at 0,0 would touch no other hex" in str(refused.value)
    assert "the freed space 1,-1 is always allowed" in str(refused.value)
    assert match.state.to_dict() == before  # a refusal changes nothing
    match.play({"type": "place_hex", "space": "1,-1"})
    match.force({"type": "number", "number": 2})
    assert centre_neighbours(match) == ["1,-1"]
    assert match.state.to_dict()["hexes"]["1,-1"] == {"kind": "wood", "number": 2}


def test_the_state_check_refuses_a_centre_touching_no_other_hex():
    match = centre_held_by_one_hex()
    state = match.state.to_dict()
    state.pop("derived")
    # Canvas 1,-1 gone from the map (out of the game, as after a terraform); the rest joined.
    alone = {**state, "hexes": {k: v for k, v in state["hexes"].items() if k != "1,-1"}
             | {"1,-2": {"kind": "wood", "number": 2}},
             "ships": [s | {"corner": "1,-2,S"} if s["ship"] == "0:1" else s
                       for s in state["ships"]],
             "stack": state["stack"] | {"wood": state["stack"]["wood"] - 1},
             "tokens": state["tokens"] | {"2": state["tokens"]["2"] - 1}}
    with pytest.raises(InvalidState, match="the centre hex at 0,0 touches no other hex"):
        match.set_state(alone)
    assert match.state.to_dict()["hexes"].keys() == state["hexes"].keys()  # nothing installed
    # Under rulings 2 the same position is a legal one (rulings 2 let a terraform reach it).
    old = centre_held_by_one_hex(rulings=2)
    old.set_state(alone)
    assert centre_neighbours(old) == []


def test_rulings_2_still_lets_a_terraform_cut_the_centre_off():
    match = terraformed(centre_held_by_one_hex(rulings=2))
    assert sorted(a.space for a in match.legal_actions()) == ["1,-1", "1,-2"]
    match.play({"type": "place_hex", "space": "1,-2"})
    match.force({"type": "number", "number": 2})
    assert centre_neighbours(match) == []
    # Rulings 1 never met the question: the new hex went back into the freed space.
    first = centre_held_by_one_hex(rulings=1)
    first.play({"type": "terraform", "space": "1,-1", "pay": "glass"})
    first.force({"type": "hex", "kind": "wood"})
    assert centre_neighbours(first) == ["1,-1"]


def test_a_save_played_under_rulings_2_that_cut_the_centre_off_replays_as_played():
    text = OLD_SAVE.read_text("utf-8")
    saved = json.loads(text)
    assert "rulings" in saved["options"] and saved["options"]["rulings"] == 2
    match = aloftnb.Match.from_json(text)
    assert match.rules.options["rulings"] == 2
    assert [step["action"]["type"] for step in saved["timeline"][-4:-1]
            if step["kind"] == "action"] == ["terraform", "place_hex"]
    assert centre_neighbours(match) == []  # the position the save recorded
    assert match.state.to_dict()["hexes"]["1,-2"] == {"kind": "wood", "number": 2}
    again = aloftnb.Match.from_json(match.to_json())
    assert again.state == match.state and again.position == match.position
    # and the same steps played under the current rulings are refused at the placement
    current = terraformed(centre_held_by_one_hex())
    with pytest.raises(IllegalAction, match="centre hex at 0,0"):
        current.play({"type": "place_hex", "space": "1,-2"})
