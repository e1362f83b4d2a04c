"""What the hex boards say: catalogue names (never ids) with the right article, in every menu,
button, hint, log line, drawing text and aria label, along random games; mixed groups drawn as
what they are; names in drawings shrunk or wrapped, never cut.
"""

from __future__ import annotations

import math
import random
import re
from html import unescape
from xml.etree import ElementTree

import pytest
from PIL import ImageFont

import aloftnb
from aloftnb.core.words import possessive, with_article
from aloftnb.games.cloudspire.drawing import draw_board as draw_cloudspire
from aloftnb.games.cloudspire.state import Band

SVG = "{http://www.w3.org/2000/svg}"
# Words the rules use as plain English as well as ids of the commodores catalogue's decks.
DECK_WORDS = {"starter", "basic"}


@pytest.mark.parametrize(("name", "expected"), [
    ("Ember Kite", "an Ember Kite"), ("Anvil Brute", "an Anvil Brute"),
    ("attack", "an attack"), ("Slagling", "a Slagling"), ("Sloop", "a Sloop"),
    ("Unicorn Lancer", "a Unicorn Lancer"), ("Ironhide", "an Ironhide"),
    ("hour glass", "an hour glass"), ("range", "a range"), ("8-gun sloop", "an 8-gun sloop"),
])
def test_the_article_follows_the_sound_of_the_name(name, expected):
    assert with_article(name) == expected


def test_a_name_ending_in_s_takes_the_apostrophe_alone():
    assert possessive("Emberwrights") == "Emberwrights'"
    assert possessive("Mistveil") == "Mistveil's"


# -- the catalogues' ids and names ---------------------------------------------------------------
def commodores_words(rules) -> tuple[set[str], set[str]]:
    cat = rules.catalogue
    names = {*cat.resource_names, *(t.name for t in cat.ship_types),
             *(u.name for t in cat.ship_types for u in t.upgrades),
             *(lv.name for lv in cat.leviathans), *(g.name for g in cat.goals)}
    ids = {*cat.resources, *(t.id for t in cat.ship_types),
           *(u.id for t in cat.ship_types for u in t.upgrades),
           *(lv.id for lv in cat.leviathans), *(g.id for g in cat.goals)} - DECK_WORDS
    return ids, names


def cloudspire_words(rules) -> tuple[set[str], set[str]]:
    cat = rules.catalogue
    tables = [cat.units, cat.spires, cat.equipment, cat.chips, cat.earthscapes, cat.events,
              cat.faces]
    entries = [e for table in tables for e in table.values()] + list(cat.factions) + [
        st for fac in cat.factions for st in fac.structures]
    return {e.id for e in entries}, {e.name for e in entries}


def problems(text: str, ids: set[str], names: set[str]) -> list[str]:
    """Ids of the catalogue (other than a name's own spelling) and "a" before a vowel-sound
    name, found in `text`."""
    found = []
    for name in names:
        if with_article(name).startswith("an ") and re.search(
                rf"(?<![\w']){'[aA]'} {re.escape(name)}\b", text):
            found.append(f"'a {name}'")
    rest = text
    for name in sorted(names, key=len, reverse=True):  # a name's words are not ids
        rest = rest.replace(name, " ")
    for ident in ids:
        if ident.lower() in {n.lower() for n in names}:
            continue  # the id is spelled as its name ("Cindermaw", "canvas")
        if re.search(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", rest):
            found.append(f"id {ident!r}")
    return found


def drawing_texts(svg: str) -> list[str]:
    """Every text a person reads or hears in a drawing: text nodes, titles, aria labels."""
    root = ElementTree.fromstring(svg)
    texts = []
    for node in root.iter():
        if node.tag in (f"{SVG}text", f"{SVG}title") and node.text:
            texts.append(node.text)
        if node.get("aria-label"):
            texts.append(node.get("aria-label"))
    return texts


def board_texts(board) -> list[str]:
    """What a board shows and says now: menus (whole choices and the buttons of steps before
    them), hints, status, log, drawing; plus the log line each legal action would get."""
    match, rules = board.match, board.match.rules
    state = match.state
    texts = [c["label"] for c in board.choices] + list(board.selection_hint.values())
    texts += menu_step_buttons(board)
    texts += [board.status, *(entry["text"] for entry in board.log)]
    texts += drawing_texts(board.svg)
    if match.is_chance:
        texts += [rules.describe_chance(state, o) for o, _ in match.chance_outcomes()]
    elif not match.is_over:
        texts += [rules.describe_action(state, a) for a in match.legal_actions()]
    return texts


def menu_step_buttons(board) -> list[str]:
    """The words of the buttons board.js shows for steps (keys not drawn on the map): a key
    leading to one whole choice shows that choice's label, any other its step label."""
    drawn = set(re.findall(r'data-key="([^"]+)"', board.svg))
    leads_to: dict[tuple[str, ...], int] = {}
    for choice in board.choices:
        for depth in range(len(choice["path"])):
            prefix = tuple(choice["path"][:depth + 1])
            leads_to[prefix] = leads_to.get(prefix, 0) + 1
    labels = getattr(board, "step_labels", {})
    texts = set()
    for choice in board.choices:
        path = choice["path"]
        for depth, key in enumerate(path):
            whole = depth == len(path) - 1 and leads_to[tuple(path[:depth + 1])] == 1
            if (key not in drawn and not whole) or depth < len(path) - 1:
                texts.add(labels.get(key, key))  # a button, or read once selected
    return sorted(texts)


def play_and_check(game: str, words, seeds: range, steps: int, **options) -> set[str]:
    bad: set[str] = set()
    kinds: set[str] = set()
    for seed in seeds:
        match = aloftnb.new_match(game, seed=seed, **options)
        ids, names = words(match.rules)
        board = match.board(viewer="designer")
        board.choices_limit = 10_000  # every choice whole, as a short menu would be
        rng = random.Random(seed)
        for _ in range(steps):
            if match.is_over:
                break
            for text in board_texts(board):
                bad.update(f"{p} in {text!r}" for p in problems(unescape(text), ids, names))
            kinds.update(a.type for a in match.legal_actions())
            match.play(rng.choice(match.legal_actions()))
        board.close()
    assert not bad, sorted(bad)[:20]
    return kinds


def test_commodores_texts_name_the_catalogue_never_its_ids_along_random_games():
    kinds = play_and_check("commodores", commodores_words, range(2), 250, players=3)
    # The texts that used ids were seen: builds, upgrades, trades, explorations.
    assert {"build", "upgrade", "trade", "explore"} <= kinds, kinds


def test_cloudspire_texts_name_the_catalogue_never_its_ids_along_random_games():
    kinds = play_and_check("cloudspire", cloudspire_words, range(3), 500, players=2)
    assert {"buy", "construct", "upgrade", "advance", "deploy", "march"} <= kinds, kinds


def test_the_words_of_the_reported_texts():
    """The texts named in the issue: 'build a basic', 'a Ember Kite', 'a Anvil Brute', 'buy the
    chip in market slot 2', 'construct bellows_spire', 'advance the fortress structure fogwall'."""
    match = aloftnb.new_match("commodores", players=3, seed=0)
    rules = match.rules
    sloop = rules.parse_action({"type": "build", "ship": "basic", "at": "0,0,N"})
    assert rules.describe_action(match.state, sloop) == "build a Sloop at 0,0,N"
    rng = random.Random(0)
    while not (match.state.active >= 0 and match.state.ships[match.state.active].kind
               == "starter"):
        match.play(rng.choice(match.legal_actions()))
    nets = rules.parse_action({"type": "upgrade", "upgrade": "gathering_nets"})
    assert rules.describe_action(match.state, nets).endswith("(Skiff): upgrade: Gathering nets")
    cs = aloftnb.new_match("cloudspire", players=2, seed=0)
    cr = cs.rules
    kite = cr.parse_action({"type": "deploy", "unit": "ember_kite", "group": True})
    assert cr.describe_action(cs.state, kite) == (
        "Emberwrights: add an Ember Kite to the stack (grouped with the minion above)")
    brute = cr.parse_action({"type": "deploy", "unit": "anvil_brute", "group": False})
    assert cr.describe_action(cs.state, brute) == "Emberwrights: add an Anvil Brute to the stack"
    slot = next(i for i, chip in enumerate(cs.state.market) if chip)
    buy = cr.parse_action({"type": "buy", "slot": slot})
    assert cr.describe_action(cs.state, buy) == (
        f"Emberwrights: buy {cr.catalogue.chips[cs.state.market[slot]].name} from market slot "
        f"{slot}")
    fac = cr.catalogue.factions[0]
    advance = cr.parse_action({"type": "advance", "structure": fac.structures[0].id})
    assert cr.describe_action(cs.state, advance) == (
        f"Emberwrights: advance the {fac.structures[0].name}")
    board = cs.board()
    assert board.step_label("construct bellows_spire") == "construct a Bellows Spire"
    assert board.step_label("upgrades AR (bottom first)") == "upgrades attack, range (bottom first)"
    board.close()


# -- automatic marches ---------------------------------------------------------------------------
def test_a_march_with_no_click_is_told_in_the_log_and_the_onslaught_log():
    """RULING (automatic marches): when marching is a faction's only move the rules march for it;
    the log line of the step that led there says so, and so does the drawing's onslaught log."""
    seen = 0
    for seed in range(4):
        match = aloftnb.new_match("cloudspire", players=2, seed=seed)
        rules = match.rules
        board = match.board(viewer="designer")
        rng = random.Random(seed)
        for _ in range(900):
            if match.is_over:
                break
            before, start = match.state, len(match.history)
            action = rng.choice(match.legal_actions())
            match.play(action)  # and the chance steps drawn after it
            # Minions left a stack for the map in steps that were not a march: the rules marched
            # by themselves, and a log line of those steps must say whose minions marched.
            lines = " | ".join(e.text for e in match.history[start:])
            moved = [f for f in range(2)
                     if action.type != "march" and marched(rules, before, match.state, f)]
            for f in moved:
                who = possessive(rules.faction_of[f].name)
                assert f"then {who} minions march" in lines, lines
                assert any(f"{who} minions march" in line for line in board.fight_log())
                seen += 1
        board.close()
    assert seen >= 5  # automatic marches happen in ordinary games


def marched(rules, before, after, f: int) -> bool:
    """Whether a minion of faction f left its stack for the map between two states of one
    onslaught (heroes move by clicks; minions leave the stack only by marching)."""
    if after.phase != "onslaught" or before.wave != after.wave:
        return False

    def stacked(s):
        return sum(1 for b in s.sides[f].stack if not rules.is_hero(b))

    def on_map(s):
        return sum(1 for u in s.units if u.owner == f and not rules.is_hero(u))

    return stacked(after) < stacked(before) and on_map(after) > on_map(before)


# -- groups of minions ---------------------------------------------------------------------------
def mixed_group_match():
    """A new game with, in seat 0's stack, a Slagling grouped with an Ember Kite above two
    grouped Slaglings, and the mixed group on the map too."""
    match = aloftnb.new_match("cloudspire", players=2, seed=0)
    rules = match.rules
    s = match.state
    group = Band(0, ("slagling", "ember_kite"), 2, "", 0, "", False, False, False)
    twins = Band(0, ("slagling", "slagling"), 2, "", 0, "", False, False, False)
    side = s.sides[0]._replace(stack=(group, twins))
    on_map = group._replace(hex=next(h for h in rules.hexes if h not in rules.occupied(s)
                                     and h in rules.land(s.slots)))
    return match, s._replace(sides=(side, *s.sides[1:]), units=(*s.units, on_map)), on_map.hex


def test_a_group_of_two_kinds_is_never_labelled_as_two_of_its_top_kind():
    match, state, where = mixed_group_match()
    rules = match.rules
    texts = drawing_texts(draw_cloudspire(rules, rules.view(state, 0)))
    assert "S+EK" in texts
    chips = [t for t in texts if re.fullmatch(r"[A-Z+?×0-9]+", t)]
    assert chips.count("S×2") == 1, chips  # only the real pair, not the Slagling + Ember Kite
    assert any("a group of 2: Slagling, Ember Kite" in t for t in texts)
    hex_label = next(t for t in texts if t.startswith(f"hex {where},"))
    assert "a group of 2 (Slagling, Ember Kite)" in hex_label
    assert "+EK" in texts  # the map's badge names what is under the top
    # A rival sees the top and how many are under it, not what they are.
    rival_texts = drawing_texts(draw_cloudspire(rules, rules.view(state, 1)))
    assert "S+?" in rival_texts and "S×2" not in rival_texts
    assert not any("Ember Kite" in t for t in rival_texts if "group of 2:" in t)


# -- text that fits ------------------------------------------------------------------------------
FONTS = {False: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         True: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"}


def measure(text: str, size: float, bold: bool) -> float:
    return ImageFont.truetype(FONTS[bold], 100).getlength(text) * size / 100


def overflowing_texts(svg: str) -> list[str]:
    """Texts wider than the drawing or the part of it they are in (the map, the panel), or
    below it, or wider than the hex they label (measured in DejaVu Sans, the browsers'
    sans-serif here). Landmark hexes are drawn last, over their neighbours: their names may
    run past the hex, by half a hex at most on each side."""
    out: list[str] = []

    def walk(node, bounds, hexagon):
        if node.tag == f"{SVG}svg":  # the drawing, or one of its parts with its own viewBox
            x0, y0, w, h = (float(v) for v in node.get("viewBox").split())
            bounds = (x0, y0, x0 + w, y0 + h)
        if node.get("data-key", "").startswith(("hex:", "space:")):
            points = [tuple(float(v) for v in p.split(","))
                      for p in next(node.iter(f"{SVG}polygon")).get("points").split()]
            cy = sum(p[1] for p in points) / len(points)
            on_top = "landmark" in node.get("aria-label", "")
            hexagon = (cy, max(abs(p[1] - cy) for p in points), on_top)
        if node.tag == f"{SVG}text" and node.text:
            size = float(node.get("font-size"))
            bold = node.get("font-weight", "400") in ("600", "700", "bold")
            w = measure(node.text, size, bold)
            x, y = float(node.get("x")), float(node.get("y"))
            left = x - w / 2 if node.get("text-anchor") == "middle" else x
            x0, _, width, height = bounds
            if left < x0 - 0.5 or left + w > width + 0.5:
                out.append(f"{node.text!r} runs past the edge of its part of the drawing "
                           f"({left:.0f}..{left + w:.0f} not in {x0:.0f}..{width:.0f})")
            if y > height:
                out.append(f"{node.text!r} is below the drawing's bottom ({y:.0f} > "
                           f"{height:.0f})")
            if hexagon and node.get("text-anchor") == "middle":
                # A pointy-top hex is sqrt(3) r wide within r/2 of its centre, then narrows to
                # its top and bottom corners: the text's top and baseline must both fit.
                cy, r, on_top = hexagon
                room = (2 * math.sqrt(3) * r if on_top else
                        min(math.sqrt(3) * r * min(1.0, 2 * (1 - abs(edge - cy) / r))
                            for edge in (y, y - 0.72 * size)))
                if w > room + 0.5:
                    out.append(f"{node.text!r} is wider than its hex there ({w:.0f} > "
                               f"{room:.0f})")
        for child in node:
            walk(child, bounds, hexagon)

    walk(ElementTree.fromstring(svg), (0.0, 0.0, 0.0, 0.0), None)
    return out


def test_landmark_names_are_drawn_whole():
    match = aloftnb.new_match("cloudspire", players=2, seed=0)
    rules = match.rules
    s = match.state
    landmarks = tuple(lm._replace(face="abandoned_cache", revealed=True, health=0)
                      for lm in s.landmarks)
    state = s._replace(landmarks=landmarks)
    for zoom in (1.0, 2.0):
        svg = draw_cloudspire(rules, rules.view(state, 0), zoom=zoom)
        assert "Abandoned Cache" in drawing_texts(svg)
        assert not overflowing_texts(svg)


@pytest.mark.parametrize(("game", "players"), [("commodores", 3), ("commodores", 5),
                                               ("cloudspire", 2), ("cloudspire", 4)])
def test_no_drawn_text_runs_past_the_drawing_or_its_hex_along_random_games(game, players):
    problems_seen: set[str] = set()
    for seed in range(2):
        match = aloftnb.new_match(game, players=players, seed=seed)
        rng = random.Random(seed)
        for step in range(400):
            if match.is_over:
                break
            if step % 20 == 0:
                for seat in (None, 0):
                    view = match.rules.view(match.state, seat)
                    problems_seen.update(overflowing_texts(match.rules.render_svg(view)))
            match.play(rng.choice(match.legal_actions()))
    assert not problems_seen, sorted(problems_seen)[:10]


def test_a_designers_vowel_named_resource_takes_an():
    """A catalogue may name a resource "amber": the log and the designer's chance menu say
    "an amber hex", as every other text with a name from the catalogue."""
    from aloftnb.games.commodores.catalogue import default_catalogue_data
    from aloftnb.games.commodores.state import DRAW_HEX

    data = default_catalogue_data()
    data["resources"]["glass"] = "amber"
    match = aloftnb.new_match("commodores", players=3, seed=0, catalogue=data)
    match.auto_chance = False
    rng = random.Random(0)
    while not (match.is_chance and match.state.step == DRAW_HEX):
        if match.is_chance:
            match.resolve_chance()
        else:
            match.play(rng.choice(match.legal_actions()))
    rules = match.rules
    glass = next(o for o, _ in match.chance_outcomes() if o.params.get("kind") == "glass")
    # (rulings 2: revealed first, so the text says who places it rather than where)
    assert " an amber hex for seat " in rules.describe_chance(match.state, glass)
    assert rules.chance_choice_label(match.state, glass).startswith("draw an amber hex for ")
