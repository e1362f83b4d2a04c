"""The onslaught phase: round after round, each faction with units in play takes a turn of four
stages: move (limited builds first, then heroes and the minions' march: march.py), fire (the
opposing spires fire at its units, from the player to its left on), explore (face-down
landmarks next to its units) and attack (minions must attack when they can). The wave ends when
no minion is left or after the round limit; the next wave begins with its event phase."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.action import Action
from ....core.chance import CHANCE
from ....core.words import possessive
from .. import fights
from ..actions import (
    END_EXPLORE,
    END_MOVE,
    END_TURN,
    LEAVE,
    MARCH,
    REVEAL,
    CloudspireAction,
    attack,
    explore,
    fire_at,
)
from ..state import OVER, SPENT_ONSLAUGHT, without
from ..units import is_hero, opposed, stats
from ..work import Work
from . import build
from .march import forced_hero, hero_moves, march, move_hero

if TYPE_CHECKING:
    from ..rules import CloudspireRules


def current_faction(rules: CloudspireRules, s: Any) -> int:
    return s.order[s.turn]


def campfire(rules: CloudspireRules, s: Any, f: int) -> bool:
    """Whether faction f's heroes rest (campfire mode) for the rest of this wave."""
    return bool(s.sides[f].campfire)


# -- turns ---------------------------------------------------------------------------------------
def begin_onslaught(rules: CloudspireRules, w: Work) -> None:
    w.round, w.turn = 1, 0
    begin_turn(rules, w)


def minions_left(rules: CloudspireRules, w: Work) -> bool:
    return any(not is_hero(rules, u) for u in w.units) or any(
        not is_hero(rules, b) for side in w.sides for b in side.stack)


def begin_turn(rules: CloudspireRules, w: Work) -> None:
    while True:
        if not minions_left(rules, w) or w.round > rules.round_limit:
            end_wave(rules, w)
            return
        if w.turn >= len(w.order):
            w.round += 1
            w.turn = 0
            continue
        f = w.order[w.turn]
        # RULING (empty turns): a faction with no units in play (or whose gate fell)
        # takes no onslaught turn.
        if w.sides[f].gate > 0 and (w.sides[f].stack or any(u.owner == f for u in w.units)):
            break
        w.turn += 1
    campfire_check(rules, w)
    for i, u in enumerate(w.units):  # a new turn (a band already so is left as it is)
        if u.owner == f and (u.moved or u.attacked or u.struck):
            w.units[i] = u._replace(moved=False, attacked=False, struck=False)
        elif u.struck:
            w.units[i] = u._replace(struck=False)
    for i, lm in enumerate(w.landmarks):
        if lm.explored or lm.struck:
            w.landmarks[i] = lm._replace(explored=False, struck=False)
    w.stage, w.marched, w.actor, w.exploring = "move", False, f, -1
    continue_move(rules, w)


def campfire_check(rules: CloudspireRules, w: Work) -> None:
    """The campfire check at the start of every onslaught turn: a faction that is the only
    one with units in play (map or stack) rests its heroes until the wave ends.
    RULING (campfire): its heroes then neither move nor attack; units in play only
    dwindle during an onslaught, so the mode lasts to the end of the wave as the text says."""
    in_play = {u.owner for u in w.units} | {f for f, side in enumerate(w.sides)
                                            if side.stack}
    if len(in_play) == 1:
        (alone,) = in_play
        if not w.sides[alone].campfire:
            w.side(alone, campfire=True)


def end_turn(rules: CloudspireRules, w: Work) -> None:
    w.turn += 1
    begin_turn(rules, w)


def end_wave(rules: CloudspireRules, w: Work) -> None:
    """Surviving units go back to their barracks (RULING: mercs too; heroes keep their
    level, equipment goes back to its owner)."""
    for band in list(w.units) + [b for side in w.sides for b in side.stack]:
        side = w.sides[band.owner]
        barracks = list(side.barracks)
        for uid in band.members:
            barracks[rules.unit_index[uid]] += 1
        gear = side.equipment + ((band.equipment,) if band.equipment else ())
        w.side(band.owner, barracks=tuple(barracks), equipment=tuple(sorted(gear)))
    w.units = []
    for f in range(rules.factions):
        side = w.sides[f]
        w.side(f, stack=(), gate_history=side.gate_history + (side.gate,), campfire=False)
    w.stage, w.firing, w.target = "", (), ""
    w.round = min(w.round, rules.round_limit)
    if w.wave >= rules.waves:
        fights.finish(rules, w)
        return
    w.rounds_played += max(1, w.round)
    w.wave += 1
    rules.flow.end_phase(rules, w)


# -- the move stage ------------------------------------------------------------------------------
def continue_move(rules: CloudspireRules, w: Work) -> None:
    f = current_faction(rules, w)
    if not w.marched and not any(not is_hero(rules, b) for b in w.sides[f].stack) and not any(
            u.owner == f and not is_hero(rules, u) for u in w.units):
        w.marched = True  # no minions: nothing to march
    acts = move_decisions(rules, w, f)
    if len(acts) == 1 and acts[0].type in ("march", "end_move"):
        if acts[0].type == "march":
            # RULING (automatic marches): marching as the only choice needs no click; the
            # log line of the step that led here says so (automatic_steps).
            if w.notes is not None:
                who = possessive(rules.faction_of[f].name)
                w.notes.append(f"{who} minions march (their only move)")
            march(rules, w, f)
            continue_move(rules, w)
            return
        rules.flow.next_stage(rules, w)  # fire
        return
    w.actor, w.legal = f, acts


def move_decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    cur = current_faction(rules, s)
    acts: list[CloudspireAction] = []
    nothing_moved = not s.marched and not any(u.moved for u in s.units if u.owner == cur)
    if nothing_moved and s.sides[cur].limited_builds < rules.numbers.limited_builds:
        acts += build.constructions(rules, s, cur) + build.upgrades(rules, s, cur)
    resting = campfire(rules, s, cur)
    forced = None if resting else forced_hero(rules, s, cur)
    if forced is not None:
        moves = hero_moves(rules, s, forced, rules.gate_hexes[cur])
        if moves:
            return acts + moves
    if not resting:
        for u in s.units:
            if u.owner == cur and not u.moved and is_hero(rules, u):
                acts += hero_moves(rules, s, u, u.hex)
    acts.append(END_MOVE if s.marched else MARCH)
    return acts


def on_limited_build(rules: CloudspireRules, w: Work, action: Action) -> None:
    f = current_faction(rules, w)
    build.build(rules, w, action, SPENT_ONSLAUGHT)
    w.side(f, limited_builds=w.sides[f].limited_builds + 1)
    continue_move(rules, w)


def on_move(rules: CloudspireRules, w: Work, action: Action) -> None:
    move_hero(rules, w, current_faction(rules, w), action.at, action.to)
    continue_move(rules, w)


def on_march(rules: CloudspireRules, w: Work, action: Action) -> None:
    march(rules, w, current_faction(rules, w))
    continue_move(rules, w)


def on_end_move(rules: CloudspireRules, w: Work, action: Action) -> None:
    rules.flow.next_stage(rules, w)  # fire


# -- the fire stage ------------------------------------------------------------------------------
def begin_fire(rules: CloudspireRules, w: Work) -> None:
    cur = current_faction(rules, w)
    k = w.order.index(cur)
    queue = []
    for step in range(1, len(w.order)):  # the player to the left first, then on in order
        g = w.order[(k + step) % len(w.order)]
        if opposed(rules, g, cur):
            queue += sorted((sp.hex for sp in w.spires if sp.owner == g),
                            key=rules.hex_index.__getitem__)
    w.firing = tuple(queue)
    continue_fire(rules, w)


def continue_fire(rules: CloudspireRules, w: Work) -> None:
    while w.firing:
        targets = fights.fire_targets(rules, w, w.firing[0])
        spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
        if not targets or spire.upgrades.count("A") == 0:
            w.firing = w.firing[1:]
            continue
        if len(targets) == 1:
            w.target = targets[0]
            roll_fire(rules, w)
            return
        w.target, w.actor, w.legal = "", spire.owner, [fire_at(h) for h in targets]
        return
    rules.flow.next_stage(rules, w)  # explore


def fire_decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    """The spire's owner chooses among the units in range (as continue_fire finds them)."""
    return [fire_at(h) for h in fights.fire_targets(rules, s, s.firing[0])]


def on_target(rules: CloudspireRules, w: Work, action: Action) -> None:
    w.target = action.at
    roll_fire(rules, w)


def roll_fire(rules: CloudspireRules, w: Work) -> None:
    """One spire die per attack upgrade, each a chance step."""
    spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
    w.dice, w.damage = spire.upgrades.count("A"), 0
    w.draw, w.actor = "die", CHANCE


def on_roll(rules: CloudspireRules, w: Work, action: Action) -> None:
    w.damage += action.pips
    w.dice -= 1
    if w.dice:
        w.actor = CHANCE
        return
    fights.fire_damage(rules, w)
    w.firing, w.target, w.damage, w.draw = w.firing[1:], "", 0, ""
    w.actor = current_faction(rules, w)
    continue_fire(rules, w)


# -- the explore stage ---------------------------------------------------------------------------
def continue_explore(rules: CloudspireRules, w: Work) -> None:
    f = current_faction(rules, w)
    found = explorable(rules, w, f)
    if not found:
        rules.flow.next_stage(rules, w)  # attack
        return
    w.actor = f
    if w.exploring < 0:
        w.legal = _explorations(w, found)


def explorable(rules: CloudspireRules, s: Any, f: int) -> list[int]:
    near = {nb for u in s.units if u.owner == f for nb in rules.neighbours[u.hex]}
    return [i for i, lm in enumerate(s.landmarks)
            if lm.hex in near and not lm.revealed and not lm.explored]


def explore_decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    if s.exploring >= 0:
        return [REVEAL, LEAVE]
    return _explorations(s, explorable(rules, s, current_faction(rules, s)))


def _explorations(s: Any, landmarks: list[int]) -> list[CloudspireAction]:
    return [explore(s.landmarks[i].hex) for i in landmarks] + [END_EXPLORE]


def on_explore(rules: CloudspireRules, w: Work, action: Action) -> None:
    f = current_faction(rules, w)
    i = next(i for i, lm in enumerate(w.landmarks) if lm.hex == action.at)
    lm = w.landmarks[i]
    w.exploring = i
    if not lm.face:
        w.landmarks[i] = lm._replace(explored=True)
        w.draw, w.actor = "face", CHANCE
        return
    known = list(lm.known)
    known[f] = True
    w.landmarks[i] = lm._replace(explored=True, known=tuple(known))
    w.legal = [REVEAL, LEAVE]  # explore_decisions


def on_face(rules: CloudspireRules, w: Work, action: Action) -> None:
    """A landmark face drawn, seen by the explorer only."""
    card = action.card
    lm = w.landmarks[w.exploring]
    known = list(lm.known)
    f = current_faction(rules, w)
    known[f] = True
    w.landmarks[w.exploring] = lm._replace(face=card, known=tuple(known))
    w.face_pool = without(w.face_pool, card)
    w.draw, w.actor, w.legal = "", f, [REVEAL, LEAVE]  # explore_decisions


def on_look(rules: CloudspireRules, w: Work, action: Action) -> None:
    """Reveal the landmark looked at, or leave it face down."""
    f = current_faction(rules, w)
    lm = w.landmarks[w.exploring]
    if action.type == "reveal":
        face = rules.catalogue.faces[lm.face]
        w.landmarks[w.exploring] = lm._replace(revealed=True, health=face.health)
        if face.reveal_source:
            fights.gain(rules, w, f, face.reveal_source)
    w.exploring = -1
    continue_explore(rules, w)


def on_end_explore(rules: CloudspireRules, w: Work, action: Action) -> None:
    rules.flow.next_stage(rules, w)  # attack


# -- the attack stage ----------------------------------------------------------------------------
def continue_attack(rules: CloudspireRules, w: Work) -> None:
    f = current_faction(rules, w)
    found, must = attacks(rules, w, f)
    if not found:
        end_turn(rules, w)
        return
    w.actor, w.legal = f, _attack_choices(found, must)


def targets_of(rules: CloudspireRules, s: Any, f: int, at: str) -> list[str]:
    """Hexes a unit of faction f at `at` may attack: opposing units, spires and gates, and
    revealed landmarks with health, all adjacent."""
    return _targets(rules, s, f, at, _by_hex(s))


def _by_hex(s: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The units, spires and landmarks by hex: found once for all of a faction's units."""
    return ({u.hex: u for u in s.units}, {sp.hex: sp for sp in s.spires},
            {lm.hex: lm for lm in s.landmarks})


def _targets(rules: CloudspireRules, s: Any, f: int, at: str,
             by_hex: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]) -> list[str]:
    found = []
    units, spires, landmarks = by_hex
    for nb in rules.neighbours[at]:
        if nb in units:
            if opposed(rules, f, units[nb].owner):
                found.append(nb)
        elif nb in spires:
            if opposed(rules, f, spires[nb].owner):
                found.append(nb)
        elif nb in rules.gate_of_hex:
            g = rules.gate_of_hex[nb]
            if opposed(rules, f, g) and s.sides[g].gate > 0:
                found.append(nb)
        elif nb in landmarks and landmarks[nb].revealed and landmarks[nb].health > 0:
            found.append(nb)
    return found


def attacks(rules: CloudspireRules, s: Any, f: int) -> tuple[list[CloudspireAction], bool]:
    """(attack actions, whether a minion that must attack still has a target)."""
    acts, must = [], False
    resting = campfire(rules, s, f)
    by_hex = _by_hex(s)
    for u in s.units:
        if u.owner != f or u.attacked:
            continue
        hero = is_hero(rules, u)
        if hero and resting:
            continue
        targets = _targets(rules, s, f, u.hex, by_hex)
        if targets and not hero:
            must = True
        acts += [attack(u.hex, t) for t in targets]
    return acts, must


def attack_decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    return _attack_choices(*attacks(rules, s, current_faction(rules, s)))


def _attack_choices(found: list[CloudspireAction], must: bool) -> list[CloudspireAction]:
    """The attacks, and ending the turn unless a minion must attack."""
    return found + ([] if must else [END_TURN])


def on_attack(rules: CloudspireRules, w: Work, action: Action) -> None:
    fights.attack(rules, w, current_faction(rules, w), action.at, action.target)
    if w.phase != OVER:
        continue_attack(rules, w)


def on_end_turn(rules: CloudspireRules, w: Work, action: Action) -> None:
    end_turn(rules, w)


# -- refusals ------------------------------------------------------------------------------------
def refusal(rules: CloudspireRules, s: Any, f: int, action: Action) -> str | None:
    kind, p, stage = action.type, action.params, s.stage
    cur = current_faction(rules, s)
    name = rules.faction_of[cur].name
    if stage == "fire":
        spire = s.firing[0]
        if kind != "target":
            return (f"the spire at {spire} fires now: its owner chooses its target before "
                    "anything else")
        return (f"{p['at']} holds no unit of {name} within range of the spire at {spire} "
                f"(its targets: {', '.join(fights.fire_targets(rules, s, spire))})")
    stages = rules.flow.phase_named("onslaught").stages
    home = next((st.name for st in stages if kind in st.actions), None)
    order = [st.name for st in stages]
    if home and home != stage:
        when = "is over" if order.index(home) < order.index(stage) else "comes later"
        return f"this is the {stage} stage of {possessive(name)} turn: the {home} stage {when}"
    if stage == "move":
        return move_refusal(rules, s, cur, action)
    if stage == "explore":
        if s.exploring >= 0:
            where = s.landmarks[s.exploring].hex
            return f"{name} looks at the landmark at {where}: reveal it or leave it first"
        if kind in ("reveal", "leave"):
            return "no landmark is being looked at: explore one first"
        lm = next((lm for lm in s.landmarks if lm.hex == p["at"]), None)
        if lm is None:
            return f"there is no landmark at {p['at']}"
        if lm.revealed:
            return f"the landmark at {p['at']} is revealed already"
        if lm.explored:
            return f"the landmark at {p['at']} was explored this turn: once a turn"
        return f"no unit of {name} stands next to the landmark at {p['at']}"
    if stage == "attack":
        found, must = attacks(rules, s, cur)
        if kind == "end_turn":
            minion = next(a.at for a in found if not is_hero(
                rules, next(u for u in s.units if u.hex == a.at)))
            return f"minions must attack when they can: the minion at {minion} has a target"
        unit = next((u for u in s.units if u.hex == p["at"]), None)
        if unit is None or unit.owner != cur:
            return f"no unit of {name} stands at {p['at']}"
        if unit.attacked:
            return f"the unit at {p['at']} attacked already this turn: once a turn"
        if is_hero(rules, unit) and campfire(rules, s, cur):
            return f"{possessive(name)} heroes rest in campfire mode until the wave ends"
        if p["target"] not in rules.neighbours.get(p["at"], ()):
            return f"{p['target']} is not next to {p['at']}: attacks are on adjacent hexes"
        return (f"nothing at {p['target']} may be attacked by {name}: targets are opposing "
                "units, spires and standing gates, and revealed landmarks with health")
    return None


def move_refusal(rules: CloudspireRules, s: Any, cur: int, action: Action) -> str | None:
    kind, p = action.type, action.params
    name = rules.faction_of[cur].name
    if kind in ("construct", "upgrade"):
        if s.marched or any(u.moved for u in s.units if u.owner == cur):
            return "limited builds come at the start of the turn, before anything moves"
        if s.sides[cur].limited_builds >= rules.numbers.limited_builds:
            return (f"{name} has made its {rules.numbers.limited_builds} limited builds of "
                    "this onslaught")
        return build.spire_refusal(rules, s, cur, action)
    forced = None if campfire(rules, s, cur) else forced_hero(rules, s, cur)
    forced_moves = hero_moves(rules, s, forced, rules.gate_hexes[cur]) if forced else []
    if forced_moves and kind != "move":
        return "the hero on top of the stack must move first (minions are under it)"
    if kind == "march":
        return f"{possessive(name)} minions have marched already this turn"
    if kind == "end_move":
        return f"{possessive(name)} minions march before the movement stage ends"
    if kind != "move":
        return None
    if campfire(rules, s, cur):
        return f"{possessive(name)} heroes rest in campfire mode until the wave ends"
    gate = rules.gate_hexes[cur]
    if forced_moves and p["at"] != gate:
        return "the hero on top of the stack must move first (minions are under it)"
    if p["at"] == gate and not any(u.hex == gate for u in s.units):
        stack = s.sides[cur].stack
        if not stack or not is_hero(rules, stack[0]):
            return f"no hero of {name} waits on top of the stack at its gate {gate}"
        if not forced:
            return ("a hero on top of the stack with no minions under it leaves the stack "
                    "after the march")
        band, start = stack[0], gate
    else:
        found = next((u for u in s.units if u.hex == p["at"]), None)
        if found is None or found.owner != cur:
            return f"no unit of {name} stands at {p['at']}"
        band = found
        if not is_hero(rules, band):
            return "minions are not moved by hand: they march"
        if band.moved:
            return f"the hero at {p['at']} has moved already this turn"
        start = p["at"]
    _, _, movement, terrain = stats(rules, band)
    return (f"{p['to']} is not within the hero's movement ({movement}) from {start} over "
            f"{'any hex' if terrain == 'sky' else 'ground'} through free hexes")
