"""Sky commodores' drawing and board, Python side: what is drawn, click paths, zoom, intents.

The browser test (tests/browser/test_commodores_browser.py) plays a turn by clicking; these
check the same paths without a browser, along whole random games.
"""

from __future__ import annotations

import html
import random
import re

import pytest

import aloftnb
from aloftnb.games.commodores.board import GameBoard

MAP_PREFIXES = ("space:", "corner:", "ship:")


def drawn_keys(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-key="([^"]+)" aria-label="([^"]*)"', svg))


def through_setup(seed: int = 3, players: int = 3) -> aloftnb.Match:
    match = aloftnb.new_match("commodores", players=players, seed=seed)
    while match.phase == "setup":
        match.play(match.legal_actions()[0])
    return match


def test_a_board_of_this_game_is_the_commodores_board():
    board = through_setup().board()
    assert isinstance(board, GameBoard)
    assert "commodores-board" in board.svg


def test_every_map_step_of_every_choice_is_drawn_with_a_spoken_label_along_random_games():
    """A person can play every legal action by clicking drawn parts, then buttons."""
    checked = 0
    for seed in range(3):
        match = aloftnb.new_match("commodores", players=3, seed=seed)
        board = match.board(viewer="designer")
        rng = random.Random(seed)
        for _ in range(400):
            if match.is_over:
                break
            keys = drawn_keys(board.svg)
            for choice in board.choices:
                for key in choice["path"]:
                    if key.startswith(MAP_PREFIXES):
                        assert key in keys, (key, choice["label"])
                        assert keys[key], key
                        checked += 1
                    else:  # a button: its key reads as what it does
                        assert not key.startswith(("corner", "space", "ship")), key
            match.play(rng.choice(match.legal_actions()))
    assert checked > 500


def test_the_paths_are_ship_then_map_then_buttons():
    match = through_setup()
    rules = match.rules
    state = match.state
    forage = match.legal_actions()[0]
    assert rules.action_path(state, forage) == ["forage on 1"]
    match.play(forage)
    pick = match.legal_actions()[0]
    assert rules.action_path(match.state, pick) == [f"ship:0:{pick.captain}"]
    match.play(pick)
    paths = {a.type: rules.action_path(match.state, a) for a in match.legal_actions()}
    assert paths["move"][0].startswith("corner:") and len(paths["move"]) == 1
    assert paths["end_ship"] == ["end ship"]
    if "explore" in paths:
        assert paths["explore"][0].startswith("space:") and paths["explore"][1].startswith("pay ")


def test_clicking_through_a_turn_from_the_front_end(front_end):
    match = through_setup()
    board = match.board()
    turn_player = match.current_player

    def click(label_start: str) -> None:
        choice = next(c for c in board.choices if c["label"].startswith(label_start))
        sent = front_end(board, {"intent": "play", "id": 1, "action": choice["action"]})
        assert sent == [{"ack": 1}], board.message

    click("forage on")
    assert match.state.step == "ships"
    click("ship ")
    assert match.state.active >= 0
    moves = [c for c in board.choices if c["action"]["type"] == "move"]
    assert moves, "a starter ship next to the merchant can always move"
    click("move to")
    click("end this ship")
    assert match.current_player != turn_player or match.state.step == "forage"
    assert "ship 1 (Skiff): move to" in " ".join(e["text"] for e in board.log)


def test_zoom_enlarges_the_map_and_junk_zoom_is_refused():
    board = through_setup().board()
    before = board.svg
    sizes = [float(v) for v in re.findall(r'r="([\d.]+)"', before)][:5]
    board.set_zoom(2.0)
    assert board.svg != before
    bigger = [float(v) for v in re.findall(r'r="([\d.]+)"', board.svg)][:5]
    assert sum(bigger) > sum(sizes)
    with pytest.raises(ValueError, match="zoom must be one of"):
        board.set_zoom(7)
    assert board.zoom == 2.0


def test_a_seats_drawing_never_names_a_leviathan_set_aside():
    match = aloftnb.new_match("commodores", players=3, seed=5)
    while match.phase == "setup":
        match.play(match.legal_actions()[0])
    rules = match.rules
    names = {lv.id: lv.name for lv in rules.catalogue.leviathans}
    hidden = [names[lv] for lv in match.state.set_aside]
    assert len(hidden) == 2
    for seat in (None, 0, 1, 2):
        svg = rules.render_svg(match.view(seat))
        assert not any(name in svg for name in hidden)
    assert "leviathans among them: 3" in rules.render_svg(match.view(0))


def test_explain_names_whose_ship_it_is(front_end):
    match = through_setup()
    board = match.board()
    match.play(match.legal_actions()[0])  # forage
    rival = next(s for s in match.state.ships if s.owner != match.current_player)
    front_end(board, {"intent": "explain", "path": [f"ship:{rival.owner}:{rival.captain}"]})
    assert board.message["text"] == (f"that is seat {rival.owner}'s ship; it is seat "
                                     f"{match.current_player}'s turn")


def test_the_designer_view_offers_each_hex_the_stack_can_give():
    match = through_setup()
    match.auto_chance = False
    board = match.board(viewer="designer")
    match.play(match.legal_actions()[0])  # forage
    match.play(next(a for a in match.legal_actions() if a.type == "ship"))
    for move in [a for a in match.legal_actions() if a.type == "move"]:
        match.play(move)  # to the edge of the map, where there is sky to explore
        if any(a.type == "explore" for a in match.legal_actions()):
            break
        match.undo()
    match.play(next(a for a in match.legal_actions() if a.type == "explore"))
    assert match.is_chance
    offered = {c["action"]["kind"] for c in board.choices if c.get("intent") == "force"}
    left = {kind for kind, n in match.state.to_dict()["stack"].items() if n}
    assert offered == left
    # Worded as what will happen ("draw a metal hex at -1,-1 (4.8%)"); the log says "drew".
    assert all(c["label"].startswith("draw a") for c in board.choices if c.get("intent") == "force")
    leviathan = next(kind for kind in offered if kind in match.rules.leviathan_ids)
    front_end_force = {"intent": "force", "id": 2, "action": {"type": "hex", "kind": leviathan}}
    board.handle_intent(front_end_force)
    assert "drew a leviathan" in board.log[-1]["text"]
    # Revealed first (rulings 2): the explorer then places it by clicking an empty space.
    assert match.state.to_dict()["drawn"] == leviathan and not match.is_chance
    place = next(c for c in board.choices if c["action"]["type"] == "place_hex")
    assert place["path"] == [f"space:{place['action']['space']}"]
    match.play(place["action"])
    space = match.state.to_dict()["hexes"]
    assert space[place["action"]["space"]]["kind"] == leviathan


def test_the_zoom_control_is_offered_and_set_by_the_view_option_intent(front_end):
    board = through_setup().board()
    (control,) = board.view_controls
    assert control["name"] == "zoom" and control["value"] == 1.0
    assert [label for _, label in control["options"]] == ["fit", "150%", "200%", "300%"]
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', board.svg).group(1))
    # JSON has no 2.0: the front end sends 2, which means the same option
    front_end(board, {"intent": "view_option", "id": 4, "name": "zoom", "value": 2})
    assert board.zoom == 2.0 and board.view_controls[0]["value"] == 2.0
    assert float(re.search(r'<svg[^>]* width="([\d.]+)"', board.svg).group(1)) > width * 1.5


@pytest.mark.parametrize(("content", "reason"), [
    ({"name": "zoom", "value": 9.0}, "Map zoom must be one of fit, 150%, 200%, 300%"),
    ({"name": "zoom", "value": "2"}, "Map zoom must be one of"),
    ({"name": "zoom", "value": True}, "Map zoom must be one of"),
    ({"name": "tilt", "value": 1.0}, "no display setting 'tilt'"),
])
def test_junk_view_options_are_refused_and_change_nothing(content, reason, front_end):
    board = through_setup().board()
    front_end(board, {"intent": "view_option", "id": 5, **content})
    assert board.message["kind"] == "error" and reason in board.message["text"]
    assert board.zoom == 1.0


def test_balance_tables_read_simulation_results():
    from aloftnb.games.commodores.metrics import goal_completion, win_rates_by_ship_type

    results = aloftnb.simulate("commodores", players=3, bots="greedy", games=12, seed=2,
                               workers=1, progress=False)
    goals = goal_completion(results)
    assert goals["in_play"].sum() == 12 * 5  # five goals in every game
    assert ((goals["completed_in"] >= 0) & (goals["completed_in"] <= 1)).all()
    # every finished game has a winner who completed three goals
    assert (goals["per_seat"] * goals["in_play"] * 3).sum() >= 12 * 3
    ships = win_rates_by_ship_type(results)
    assert "basic" in ships.index
    built = sum(len(f.split(",")) for seat in range(3) for f in results[f"fleet_{seat}"] if f)
    assert built >= ships["seats_built"].sum()


def test_nothing_to_undo_after_the_opening_draws_and_the_board_says_so():
    """Set-up begins with chance draws (leviathans, goals, ship types): they are not decisions,
    so a fresh match has nothing to undo, and its board's undo button is off."""
    match = aloftnb.new_match("commodores", players=3, seed=1)
    assert match.position > 0 and not match.can_undo
    assert not match.board().can_undo
    match.play(match.legal_actions()[0])
    assert match.can_undo
    match.undo()
    assert not match.can_undo


def test_a_save_reloads_the_very_same_state_object():
    """Tables in the dict form (the shipyard) come back from a save with sorted keys: the state
    keeps them in catalogue order, so the reloaded state is equal, not just its dict."""
    for seed in range(4):
        match = through_setup(seed=seed)
        assert list(match.state.ship_types) == sorted(match.state.ship_types)
        assert aloftnb.Match.from_json(match.to_json()).state == match.state


@pytest.mark.parametrize("zoom", [1.0, 1.5, 2.0, 3.0])
def test_number_tokens_never_cover_the_resource_names(zoom):
    """A zoomed hex grows but its text does not: the token must stay clear of the name.
    The name's box is measured generously: 0.6 of the font size per character, from 0.8 of it
    above the baseline to 0.3 below (descenders)."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    checked = 0
    for seed in range(4):
        match = through_setup(seed=seed)
        rng = random.Random(seed)
        for _ in range(60):  # a grown sky
            if match.is_over:
                break
            match.play(rng.choice(match.legal_actions()))
        svg = match.rules.render_svg(match.view(None), zoom=zoom)
        for group in ET.fromstring(svg).iter(f"{ns}g"):
            token = group.find(f"{ns}circle")
            texts = group.findall(f"{ns}text")
            if token is None or not any(t.get("class") == "number-token" for t in texts):
                continue
            name = texts[0]
            size = float(name.get("font-size"))
            x, y = float(name.get("x")), float(name.get("y"))
            half = 0.6 * size * len(name.text or "") / 2
            left, right, top, bottom = x - half, x + half, y - 0.8 * size, y + 0.3 * size
            cx, cy, r = (float(token.get(k)) for k in ("cx", "cy", "r"))
            near_x, near_y = min(max(cx, left), right), min(max(cy, top), bottom)
            gap = ((cx - near_x) ** 2 + (cy - near_y) ** 2) ** 0.5 - r
            assert gap >= 0.5, (zoom, seed, name.text, group.get("data-key"), gap)
            checked += 1
    assert checked > 20


def test_ships_and_corners_say_where_they_are_along_random_games():
    """A screen reader finds every fleet: a ship's name gives its corner and the spaces around
    it (its corner is not drawn apart), and an empty corner names the spaces around it too."""
    checked = 0
    for seed in range(2):
        match = aloftnb.new_match("commodores", players=3, seed=seed)
        board = match.board(viewer="designer")
        rng = random.Random(seed)
        for _ in range(150):
            if match.is_over:
                break
            labels = {k: html.unescape(v) for k, v in drawn_keys(board.svg).items()}
            hexes = board.view_dict()["hexes"]
            for ship in board.view_dict()["ships"]:
                label = labels[f"ship:{ship['ship']}"]
                q, r, d = ship["corner"].split(",")
                own = f"{q},{r}"
                assert f", at corner {ship['corner']} between " in label, label
                assert f" at {own}" in label.split(": ")[0].split(" between ")[1], label
                kind = hexes[own]["kind"] if own in hexes else None
                if kind in ("wood", "canvas", "glass", "metal"):
                    assert f"hex at {own}" in label, label
                checked += 1
            for key, label in labels.items():
                if key.startswith("corner:"):
                    assert label.startswith(f"corner {key[7:]}, empty, "), label
                    assert " between " in label or " by " in label, label
            match.play(rng.choice(match.legal_actions()))
    assert checked > 300


def test_a_drawn_element_that_plays_something_names_the_action_along_random_games():
    """key_actions words what activating each playable drawn element does: a move target moves
    the acting ship there, an empty space explores with what can be paid, a build corner builds,
    a ship acts; every drawn step of every choice has a phrase, and only those do."""
    seen: set[str] = set()
    for seed in range(3):
        match = aloftnb.new_match("commodores", players=3, seed=seed)
        board = match.board(viewer="designer")
        rng = random.Random(seed)
        for _ in range(300):
            if match.is_over:
                break
            keys = drawn_keys(board.svg)
            phrases = {tuple(path): phrase for path, phrase in board.key_actions}
            expected = {tuple(c["path"][: i + 1]) for c in board.choices
                        for i, key in enumerate(c["path"]) if key in keys}
            assert set(phrases) == expected
            state = match.state
            for choice in board.choices:
                kind, path = choice["action"]["type"], tuple(choice["path"])
                if kind == "move":
                    captain = state.ships[state.active].captain
                    assert phrases[path] == f"move ship {captain} here"
                elif kind == "explore" and "space" not in choice["action"]:
                    assert path[0] == "explore"  # a button (rulings 2): nothing drawn to name
                    continue
                elif kind in ("explore", "terraform"):
                    pays = {c["action"]["pay"] for c in board.choices
                            if c["path"][0] == path[0] and c["action"]["type"] == kind}
                    phrase = phrases[path[:1]]
                    assert phrase.startswith(f"{kind} {path[0][6:]}, paying 1 "), phrase
                    assert all(match.rules.catalogue.resource_name(r) in phrase for r in pays)
                elif kind == "build":
                    assert phrases[path] == choice["label"]
                elif kind in ("place", "ship", "place_hex"):
                    assert phrases[path] == choice["label"]
                else:
                    continue
                seen.add(kind)
            match.play(rng.choice(match.legal_actions()))
    assert seen >= {"move", "terraform", "build", "place", "ship", "place_hex"}, seen


@pytest.mark.parametrize(("labels", "count", "said"), [
    (["explore 2,0, paying 1 canvas", "explore 2,0, paying 1 wood"], 2,
     "explore 2,0, paying 1 canvas or wood"),
    (["a x", "a y", "a z"], 3, "a x, y or z"),
    (["move the hero at 0,3 to " + str(i) for i in range(12)], 12,
     "move the hero at 0,3 to … (12 choices)"),
    (["attack upgrade", "range upgrade"], 2, "attack or range … (2 choices)"),
    (["same", "same"], 2, "same"),
])
def test_several_choices_said_in_one_phrase(labels, count, said):
    from aloftnb.widget.choices import shared_words
    assert shared_words(labels, count) == said


@pytest.mark.parametrize("game, players, drawn, short", [
    ("commodores", 3, "a hex or number", {"turn_limit": 1}),
    ("cloudspire", 2, "a card or die", {"waves": 1, "onslaught_rounds": 1})])
def test_explain_gives_the_reasons_every_game_shares_before_its_own(game, players, drawn,
                                                                    short):
    """Board.explain_generally: chance drawing, nothing chosen, the game over."""
    match = aloftnb.new_match(game, players=players, seed=3, auto_chance=False, **short)
    board = match.board()
    assert match.is_chance
    assert board.explain([]) == (f"{drawn} is being drawn: the designer view chooses it, or let "
                                 "chance")
    match.auto_chance = True
    assert board.explain([]) == "nothing was chosen"
    assert board.explain_generally(["anything"]) == ""
    rng = random.Random(1)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    assert board.explain(["anything"]) == "the game is over"
