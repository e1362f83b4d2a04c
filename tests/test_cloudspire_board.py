"""Cloudspire's drawing and board, Python side: what is drawn, click paths, hidden stacks, zoom,
explanations and refused intents.

The browser test (tests/browser/test_cloudspire_browser.py) plays a build and an onslaught step
by clicking; these check the same paths without a browser, along whole random games.
"""

from __future__ import annotations

import random
import re

import pytest

import aloftnb
from aloftnb.games.cloudspire.board import GameBoard
from aloftnb.games.cloudspire.rules import CloudspireAction as A
from aloftnb.games.cloudspire.state import Spire

MAP_PREFIXES = ("hex:",)
MODES = [{"players": 2}, {"players": 3}, {"players": 1, "mode": "solo"}]


def drawn_keys(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-key="([^"]+)" aria-label="([^"]*)"', svg))


def to_phase(match: aloftnb.Match, phase: str, rng: random.Random | None = None,
             limit: int = 3000) -> None:
    """Play (first choices, or random ones) until the match reaches `phase`."""
    for _ in range(limit):
        if match.phase == phase and match.current_player is not None and \
                match.current_player >= 0:
            return
        actions = match.legal_actions()
        match.play(rng.choice(actions) if rng else actions[-1])
    raise AssertionError(f"never reached the {phase} phase")


def test_a_board_of_this_game_is_the_cloudspire_board():
    board = aloftnb.new_match("cloudspire", players=2, seed=1).board()
    assert isinstance(board, GameBoard)
    assert "cloudspire-board" in board.svg
    assert 'data-key="hex:0,0"' in board.svg


@pytest.mark.parametrize("options", MODES, ids=["2 players", "3 players", "solo"])
def test_every_map_step_of_every_choice_is_drawn_with_a_spoken_label_along_random_games(options):
    """A person can play every legal action by clicking drawn hexes, then buttons."""
    checked, phases = 0, set()
    for seed in range(3):
        match = aloftnb.new_match("cloudspire", seed=seed, **options)
        board = match.board(viewer="designer")
        board.choices_limit = 10_000  # every choice whole, not grouped by first step
        rng = random.Random(seed)
        for _ in range(600):
            if match.is_over:
                break
            keys = drawn_keys(board.svg)
            if not match.is_chance:
                assert board.choices, match.phase
                phases.add(match.phase)
            paths = [tuple(c["path"]) for c in board.choices]
            assert len(set(paths)) == len(paths), "two choices share one click path"
            for choice in board.choices:
                for key in choice["path"]:
                    if key.startswith(MAP_PREFIXES):
                        assert key in keys, (key, choice["label"])
                        assert keys[key].startswith(f"hex {key[4:]}"), keys[key]
                        checked += 1
                    else:  # a button: its key reads as what it does
                        assert ":" not in key, key
            match.play(rng.choice(match.legal_actions()))
    assert checked > 200
    assert {"market", "build", "prep", "onslaught"} <= phases


def test_the_paths_are_hexes_then_buttons():
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    to_phase(match, "build")
    rules, state = match.rules, match.state
    paths = {str(a): rules.action_path(state, a) for a in match.legal_actions()}
    construct = next(a for a in match.legal_actions() if a.type == "construct")
    assert rules.action_path(state, construct) == [
        f"hex:{construct.at}", f"construct {construct.spire}",
        f"upgrades {construct.order} (bottom first)"]  # every shipped spire has two orders+
    assert paths["pass"] == ["pass"]
    match.play(construct)
    while match.current_player != construct_owner(match, construct.at):
        match.play({"type": "pass"})
    sides = match.state.to_dict()["sides"]
    sides[match.current_player]["source"] = 10
    match.edit(sides=sides)
    ups = {a.kind: rules.action_path(match.state, a) for a in match.legal_actions()
           if a.type == "upgrade" and a.at == construct.at}
    assert ups["A"] == [f"hex:{construct.at}", "attack upgrade"]
    assert ups["F"] == [f"hex:{construct.at}", "fortification upgrade"]


def construct_owner(match: aloftnb.Match, at: str) -> int:
    return next(sp.owner for sp in match.state.spires if sp.hex == at)


def test_prep_and_market_are_buttons_with_costs():
    match = aloftnb.new_match("cloudspire", players=2, seed=2)
    board = match.board()
    labels = [c["label"] for c in board.choices]
    assert match.phase == "market"
    assert any(re.fullmatch(r"buy .+ \(\w+\) for \d+ Source", label) for label in labels)
    assert all(not k.startswith("hex:") for c in board.choices for k in c["path"])
    to_phase(match, "prep")
    state = match.state
    if any(a.type == "mark" for a in match.legal_actions()):
        match.play(next(a for a in match.legal_actions() if a.type == "mark"))
    deploy = next(a for a in match.legal_actions() if a.type == "deploy")
    assert match.rules.action_path(match.state, deploy)[0].startswith("deploy ")
    label = board.choice_label(deploy)
    assert label.startswith("deploy a ") and ("command" in label or "free" in label)
    assert state.phase == "prep"


def stack_parts(svg: str, faction: int) -> list[str]:
    """The aria-labels of a faction's stack in the panel, top first ("a unit face down" for a
    back)."""
    part = re.search(rf'<g class="stack stack-{faction}">(.*?)</g><text', svg + "<text")
    assert part, f"faction {faction}'s stack is drawn"
    return re.findall(r'class="stack-(?:unit|back)" aria-label="([^"]*)"', part.group(1))


def test_a_seats_drawing_never_shows_another_stack_below_its_top():
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    to_phase(match, "onslaught", random.Random(4))
    state, rules = match.state, match.rules
    stacked = [f for f, side in enumerate(state.sides) if len(side.stack) >= 2]
    assert stacked, "seed 4 reaches an onslaught with a stack of two or more"
    for f in stacked:
        stack = state.sides[f].stack
        names = [rules.catalogue.units[b.members[0]].name for b in stack]
        seen_by_other = stack_parts(rules.render_svg(match.view(1 - f)), f)
        assert seen_by_other[0].startswith(f"top: {names[0]}")
        chips = sum(len(b.members) for b in stack[1:])  # one back per chip: groups are hidden
        assert seen_by_other[1:] == ["a unit face down"] * chips
        for svg in (rules.render_svg(match.view(f)),
                    rules.render_svg(rules.state_to_dict(state))):  # its owner, the designer
            parts = stack_parts(svg, f)
            assert [p.removeprefix("top: ").split(",")[0] for p in parts] == names
        # the spectator view (seat None) hides it too
        assert stack_parts(rules.render_svg(match.view(None)), f)[1:] == [
            "a unit face down"] * chips


def test_an_unseen_landmark_face_is_not_drawn_for_a_seat():
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    rules = match.rules
    lm = match.state.landmarks[0]
    face = sorted(rules.catalogue.faces)[0]
    known = (True, False)
    match.edit(landmarks=[{**match.state.landmarks[0]._asdict(), "face": face,
                           "known": list(known)}] + [
        {**x._asdict(), "known": list(x.known)} for x in match.state.landmarks[1:]],
        face_pool=sorted(_without(list(match.state.face_pool), face)))
    name = rules.catalogue.faces[face].name
    label_0 = drawn_keys(rules.render_svg(match.view(0)))[f"hex:{lm.hex}"]
    label_1 = drawn_keys(rules.render_svg(match.view(1)))[f"hex:{lm.hex}"]
    assert f"face seen: {name}" in label_0
    assert name not in label_1 and "face down" in label_1


def seen_face_text(svg: str, hex_name: str) -> str:
    """The visible text drawn for a face-down landmark's seen face on `hex_name` ("" if none)."""
    group = re.search(rf'<g data-key="hex:{re.escape(hex_name)}".*?</g>(?=<g data-key|</g></svg>)',
                      svg)
    assert group, f"hex {hex_name} is drawn"
    part = re.search(r'<g class="landmark-seen"[^>]*>(.*?)</g>', group.group(0))
    return re.sub(r"<[^>]+>", " ", part.group(1)) if part else ""


def test_a_seen_landmark_face_is_drawn_for_its_explorer_and_the_designer_only(front_end):
    """After exploring, the explorer's view (and hot seat with its secrets shown, and the
    designer) draws the face it saw, apart from a revealed one; nobody else's does."""
    match = aloftnb.new_match("cloudspire", players=2, seed=3)
    rng = random.Random(3)
    for _ in range(3000):  # random play to a landmark explored and left face down
        seen = [(i, f) for i, lm in enumerate(match.state.landmarks) for f in range(2)
                if lm.face and not lm.revealed and lm.known[f] and not lm.known[1 - f]]
        if seen and match.current_player == seen[0][1]:
            break
        match.play(rng.choice(match.legal_actions()))
    assert seen, "random play explores a landmark and leaves it face down"
    i, explorer = seen[0]
    lm, rules = match.state.landmarks[i], match.rules
    face = rules.catalogue.faces[lm.face]
    for viewer in (f"seat:{explorer}", "designer"):
        board = match.board(viewer=viewer)
        drawn = seen_face_text(board.svg, lm.hex)
        assert f"seen: {face.name}" in drawn, viewer
        if face.health:
            assert f"♥{face.health}" in drawn
        label = drawn_keys(board.svg)[f"hex:{lm.hex}"]
        assert f"face down; face seen: {face.name}" in label
        board.close()
    rival = match.board(viewer=f"seat:{1 - explorer}")
    assert seen_face_text(rival.svg, lm.hex) == "" and face.name not in rival.svg
    hot = match.board(viewer="turn")  # the explorer is to play
    assert face.name not in hot.svg
    front_end(hot, {"intent": "reveal", "on": True})
    assert f"seen: {face.name}" in seen_face_text(hot.svg, lm.hex)
    front_end(hot, {"intent": "reveal", "on": False})
    assert face.name not in hot.svg
    # Revealed, it is drawn as a revealed landmark for everybody, not as a look.
    landmarks = [{**x._asdict(), "known": list(x.known)} for x in match.state.landmarks]
    landmarks[i].update(revealed=True, health=face.health)
    match.edit(landmarks=landmarks)
    assert seen_face_text(rival.svg, lm.hex) == ""
    assert face.name[:14] in re.search(rf'<g data-key="hex:{re.escape(lm.hex)}".*?</g>',
                                       rival.svg).group(0)


def _without(items: list[str], item: str) -> list[str]:
    items.remove(item)
    return items


def test_the_panel_shows_wave_phase_source_command_and_market():
    match = aloftnb.new_match("cloudspire", players=2, seed=3)
    svg = match.board().svg
    assert "Wave 1 of 4, market phase" in svg
    view = match.view(0)
    for f, info in enumerate(view["board"]["factions"]):
        side = view["sides"][f]
        assert f"Source {side['source']}/{info['source_cap']}" in svg
        assert f"command {view['board']['sides'][f]['command']}" in svg
    for chip in view["board"]["market"]:
        assert chip["name"] in svg


def test_the_onslaught_log_names_fights_and_dice():
    match = aloftnb.new_match("cloudspire", players=2, seed=5)
    board = match.board(viewer="designer")
    rng = random.Random(5)
    for _ in range(4000):
        if match.is_over or any(e.action is not None and e.action.type == "roll"
                                for e in match.history[-3:]):
            break
        match.play(rng.choice(match.legal_actions()))
    assert any(e.action is not None and e.action.type == "roll" for e in match.history)
    log = board.fight_log()
    assert log and any("die rolled" in line for line in log)
    assert log[-1].replace("'", "&#x27;") in board.svg or log[-1] in board.svg


def test_zoom_enlarges_the_map_and_junk_zoom_is_refused():
    board = aloftnb.new_match("cloudspire", players=2, seed=1).board()
    before = board.svg
    width = float(re.search(r'width="([\d.]+)"', before).group(1))
    board.set_zoom(2.0)
    assert float(re.search(r'width="([\d.]+)"', board.svg).group(1)) > 1.5 * width
    with pytest.raises(ValueError, match="zoom must be one of"):
        board.set_zoom(7)
    with pytest.raises(ValueError, match="zoom must be one of"):
        board.set_zoom("2")
    assert board.zoom == 2.0
    assert board.view_control_specs()[0]["value"] == 2.0


def test_explain_says_why_a_well_outside_influence_plays_nothing(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    to_phase(match, "build")
    board = match.board()
    rules, state = match.rules, match.state
    me = state.actor
    group_of, _ = rules.groups(state.slots)
    far = next(h for h in rules.wells(state) if group_of[h] not in rules.influence(state, me))
    front_end(board, {"intent": "explain", "path": [f"hex:{far}"]})
    assert board.message["text"].startswith(f"{far} is outside your influence")
    plain = next(h for h in rules.hexes if h not in rules.wells(state)
                 and not any(sp.hex == h for sp in state.spires))
    front_end(board, {"intent": "explain", "path": [f"hex:{plain}"]})
    assert board.message["text"] == (f"a spire is constructed only on a Source well; "
                                     f"{plain} has none")


def test_explain_in_the_market_points_to_the_buttons(front_end):
    board = aloftnb.new_match("cloudspire", players=2, seed=1).board()
    front_end(board, {"intent": "explain", "path": ["hex:0,0"]})
    assert board.message["text"] == "the map is not clicked in the market phase: use the buttons"


@pytest.mark.parametrize("intent", [
    {"intent": "play", "action": {"type": "construct", "spire": "nope", "at": "0,0"}},
    {"intent": "play", "action": {"type": "buy", "slot": "0"}},
    {"intent": "play", "action": {"type": "upgrade", "at": "9,9", "kind": "Z"}},
    {"intent": "view_option", "name": "zoom", "value": 5},
    {"intent": "explain", "path": "hex:0,0"},
])
def test_junk_intents_are_refused_and_change_nothing(front_end, intent):
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    board = match.board()
    before = (match.state, board.zoom, len(match.history))
    front_end(board, {**intent, "id": 7})
    assert (match.state, board.zoom, len(match.history)) == before
    assert board.message["kind"] == "error"


def test_a_build_and_an_onslaught_step_played_from_the_front_end(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    to_phase(match, "build")
    board = match.board()

    def play(choice: dict) -> None:
        sent = front_end(board, {"intent": "play", "id": 1, "action": choice["action"]})
        assert sent == [{"ack": 1}], board.message

    construct = next(c for c in board.choices if c["action"]["type"] == "construct")
    at = construct["action"]["at"]
    play(construct)
    assert any(sp.hex == at for sp in match.state.spires)
    assert f'data-key="hex:{at}"' in board.svg and "upgrades bottom first" in board.svg
    to_phase(match, "onslaught", random.Random(1))
    assert match.state.stage in ("move", "fire", "explore", "attack")
    before = len(match.history)
    play(board.choices[0])
    assert len(match.history) > before
    assert "Onslaught log" in board.svg


def test_bot_step_plays_one_action():
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    board = match.board(bots={0: "random", 1: "random"})
    board.control.autoplay = False
    before = len(match.history)
    assert board.step()
    assert len([e for e in match.history[before:] if e.kind == "action"]) == 1


def test_explain_answers_every_hex_in_every_phase_with_a_sentence(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=6)
    board = match.board(viewer="designer")
    rng = random.Random(6)
    hexes = match.rules.hexes
    seen = set()
    for step in range(700):
        if match.is_over:
            break
        if step % 7 == 0:
            for h in hexes[::3]:
                board.explain([f"hex:{h}"])  # never raises
            key = (match.phase, match.state.stage)
            seen.add(key)
            text = board.explain([f"hex:{rng.choice(hexes)}"])
            assert text and text[0].islower() and len(text) < 300, text
        match.play(rng.choice(match.legal_actions()))
    assert {("build", ""), ("prep", "")} <= seen and any(p == "onslaught" for p, _ in seen)


@pytest.mark.parametrize("path", [["hex:x"], ["hex:99,99"], ["hex:0,0", "hex:" + "9" * 80],
                                  ["pass", "hex:1,1,1"]])
def test_explain_names_a_hex_that_is_not_on_the_map(path, front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    to_phase(match, "build")
    board = match.board()
    front_end(board, {"intent": "explain", "path": path})
    assert board.message["text"].startswith("there is no hex ")
    assert len(board.message["text"]) < 80


def test_explain_a_target_the_unit_cannot_attack(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    rng = random.Random(1)
    for _ in range(5000):
        if not match.is_chance and any(a.type == "attack" for a in match.legal_actions()):
            break
        match.play(rng.choice([a for a in match.legal_actions() if a.type != "attack"]
                              or match.legal_actions()))
    attack = next(a for a in match.legal_actions() if a.type == "attack")
    board = match.board()
    far = next(h for h in match.rules.hexes if h not in match.rules.neighbours[attack.at]
               and h != attack.at)
    front_end(board, {"intent": "explain", "path": [f"hex:{attack.at}", f"hex:{far}"]})
    assert board.message["text"].startswith(f"{far} cannot be chosen after {attack.at}")
    assert "adjacent opposing unit" in board.message["text"]


def test_hot_seat_shows_the_own_stack_only_when_revealed(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=4)
    to_phase(match, "prep")
    seat = match.current_player
    for _ in range(40):
        deploys = [a for a in match.legal_actions() if a.type in ("deploy", "mark")]
        if len(match.state.sides[seat].stack) >= 2 or not deploys:
            break
        match.play(deploys[0])
    assert match.current_player == seat and len(match.state.sides[seat].stack) >= 2
    board = match.board()
    backs = len(match.state.sides[seat].stack) - 1
    assert stack_parts(board.svg, seat)[1:] == ["a unit face down"] * backs
    assert board.reveal_label == f"Show seat {seat}'s stack and the landmarks it has seen"
    front_end(board, {"intent": "reveal", "on": True})
    assert "a unit face down" not in stack_parts(board.svg, seat)
    match.play({"type": "ready"})
    assert board.revealed is False
    assert stack_parts(board.svg, seat)[1:] == ["a unit face down"] * backs


def test_a_reveal_during_a_chance_step_shows_no_seats_secrets(front_end):
    match = aloftnb.new_match("cloudspire", players=2, seed=1, auto_chance=False)
    assert match.is_chance
    board = match.board()
    front_end(board, {"intent": "reveal", "on": True})
    assert board.view_dict() == match.view(None)


@pytest.mark.parametrize("radius", [1, 3, 6, 9])
@pytest.mark.parametrize("zoom", [1.0, 3.0])
def test_the_map_fits_its_frame_at_any_size(radius, zoom):
    """A designer's map of any radius: every hex is drawn inside the map's frame."""
    from aloftnb.games.cloudspire.drawing import MAP_H, MAP_W, draw_board

    view = aloftnb.new_match("cloudspire", players=2, seed=1).view(0)
    names = [f"{q},{r}" for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if abs(q + r) <= radius]
    known = {h["hex"]: h for h in view["board"]["hexes"]}
    blank = {"group": "", "ground": False, "sky": True, "well": False, "landmark": False,
             "slot": False, "gate": -1}
    view["board"]["hexes"] = [known.get(n, {**blank, "hex": n}) for n in names]
    keep = set(names)
    view["board"]["factions"] = [f for f in view["board"]["factions"] if f["gate_hex"] in keep]
    view["board"]["units"] = [u for u in view["board"]["units"] if u["hex"] in keep]
    view["board"]["landmark_info"] = [lm for lm in view["board"]["landmark_info"]
                                      if lm["hex"] in keep]
    view["landmarks"] = [lm for lm in view["landmarks"] if lm["hex"] in keep]
    svg = draw_board(None, view, zoom=zoom)
    polygons = re.findall(r'<g data-key="hex:[^"]+"[^>]*>'
                          r'<polygon class="hit painted" points="([^"]+)"', svg)
    assert len(polygons) == len(names)
    for points in polygons:
        for pair in points.split():
            x, y = (float(v) for v in pair.split(","))
            assert 0 <= x <= MAP_W * zoom and 0 <= y <= MAP_H * zoom, (radius, pair)


def test_a_well_and_a_spire_name_what_activating_them_does():
    """A well says it constructs (which spires), a spire which upgrades it takes, a hero where
    it moves: the start of the names the board gives the map's playable hexes."""
    seen: set[str] = set()
    for seed in range(3):
        match = aloftnb.new_match("cloudspire", players=2, seed=seed)
        board = match.board(viewer="designer")
        rng = random.Random(seed)
        for _ in range(600):
            if match.is_over or seen >= {"construct", "upgrade", "move"}:
                break
            phrases = {tuple(path): phrase for path, phrase in board.key_actions}
            cat = match.rules.catalogue
            for choice in board.choices:
                action, first = choice["action"], tuple(choice["path"][:1])
                if action["type"] == "construct":
                    phrase = phrases[first]
                    assert phrase.startswith("construct "), phrase
                    assert phrase.endswith(f" on the well at {action['at']}"), phrase
                    assert cat.spires[action["spire"]].name in phrase, phrase
                elif action["type"] == "upgrade":
                    phrase = phrases[first]
                    assert phrase.startswith("upgrade the ") or phrase == choice["label"], phrase
                    assert f" at {action['at']}" in phrase or phrase == choice["label"], phrase
                elif action["type"] == "move":
                    assert phrases[tuple(choice["path"])] == choice["label"]
                    assert phrases[first].startswith(f"move the hero at {action['at']} to ")
                else:
                    continue
                seen.add(action["type"])
            match.play(rng.choice(match.legal_actions()))
    assert seen >= {"construct", "upgrade", "move"}, seen


def test_the_board_asks_the_rules_for_upgrade_costs_and_where_a_spire_may_go(monkeypatch):
    """The board words the rules' answers (upgrade_cost, well_problem) rather than working
    the rules out again: changing the rules' answer changes what the board says."""
    match = aloftnb.new_match("cloudspire", players=2, seed=1)
    to_phase(match, "build")
    rules, state = match.rules, match.state
    me = state.actor
    free = [h for h in rules.wells(state) if h not in rules.occupied(state)]
    match.set_state(state._replace(spires=(Spire(me, rules.spire_ids[0], free[0], "A"),)))
    board = match.board()
    monkeypatch.setattr(type(rules), "upgrade_cost", lambda self, spire, kind: 42)
    assert board.choice_label(A("upgrade", at=free[0], kind="F")).endswith("(42 Source)")
    assert board.explain([f"hex:{free[0]}"]).startswith(
        f"an upgrade on the spire at {free[0]} costs 42 Source (fortification 42)")
    monkeypatch.setattr(type(rules), "well_problem", lambda self, s, f, at: "taken")
    assert board.explain([f"hex:{free[1]}"]) == f"the well at {free[1]} is taken"
