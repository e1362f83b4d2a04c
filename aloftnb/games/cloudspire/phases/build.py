"""The build phase: in turn order, round and round until every faction has passed, each
constructs a spire on a Source well within its influence, upgrades one, advances its fortress or
places an earthscape (a spire on the new earthscape's well may follow in the same turn).

Spires and upgrades are also the onslaught's limited builds (onslaught.py plays them with
`build`); `upgrade_cost` and `well_problem` answer the board too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.action import Action
from ....core.flow import UNTIL_ALL_PASS
from ....core.words import possessive, with_article
from ..actions import (
    DECLINE,
    PASS,
    UPGRADE_WORDS,
    CloudspireAction,
    advance,
    construct,
    place,
    upgrade,
)
from ..map import groups, influence, occupied, wells
from ..state import SPENT_BUILD, Spire, without
from ..work import Work

if TYPE_CHECKING:
    from ..rules import CloudspireRules


def begin_build(rules: CloudspireRules, w: Work) -> None:
    w.turn, w.draw = 0, ""
    for f in w.order:
        w.side(f, done=False)
    continue_build(rules, w)


def continue_build(rules: CloudspireRules, w: Work) -> None:
    turn = UNTIL_ALL_PASS.next_turn(w.order, w.turn, lambda f: w.sides[f].done)
    if turn is not None:
        w.turn = turn
        w.actor = w.order[turn]
        return
    rules.flow.end_phase(rules, w)


def decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    if s.placed:  # the same turn goes on: a spire on the new earthscape's well, or not
        return constructions(rules, s, f, only=s.placed) + [DECLINE]
    return (constructions(rules, s, f) + upgrades(rules, s, f) + advances(rules, s, f)
            + placements(rules, s, f) + [PASS])


def on_build(rules: CloudspireRules, w: Work, action: Action) -> None:
    """A build turn: one thing built (or a pass); after placing an earthscape the turn goes on
    while a spire may go on its well."""
    kind = action.type
    if kind == "pass":
        w.side(w.actor, done=True)
    elif kind != "decline":
        build(rules, w, action, SPENT_BUILD)
    if kind != "place" or not constructions(rules, w, w.actor, only=action.at):
        w.placed = ""
        w.turn = (w.turn + 1) % len(w.order)
        continue_build(rules, w)
    else:
        # The text: a spire may be constructed on the earthscape's well at once (still
        # paying for it), if the faction has influence over its hex.
        w.placed = action.at


def build(rules: CloudspireRules, w: Work, action: Action, phase: int) -> None:
    """Construct, upgrade, advance or place, paying Source counted as spent in `phase`."""
    f = w.actor
    side = w.sides[f]
    if action.type == "construct":
        kind = rules.catalogue.spires[action.spire]
        stock = list(side.spire_stock)
        stock[rules.spire_index[kind.id]] -= 1
        w.side(f, spire_stock=tuple(stock))
        if not kind.merc:  # a merc spire was paid for at the market
            w.spend(f, kind.cost, phase)
        # The builder stacks the starting upgrades in the order it chose, bottom first.
        w.spires.append(Spire(f, kind.id, action.at, action.order))
    elif action.type == "upgrade":
        i = next(i for i, sp in enumerate(w.spires) if sp.hex == action.at)
        spire = w.spires[i]
        w.spend(f, upgrade_cost(rules, spire, action.kind), phase)
        w.spires[i] = spire._replace(upgrades=spire.upgrades + action.kind)  # on top
    elif action.type == "advance":
        fac = rules._faction(side)
        j = next(j for j, st in enumerate(fac.structures) if st.id == action.structure)
        adv = fac.structures[j].advancements[side.advancements[j]]
        w.spend(f, adv.cost, phase)
        bought = list(w.sides[f].advancements)
        bought[j] += 1
        w.side(f, advancements=tuple(bought), gate=w.sides[f].gate + adv.gate_health)
    elif action.type == "place":
        slots = list(w.slots)
        slots[rules.slots.index(action.at)] = action.earthscape
        w.slots = tuple(slots)
        w.side(f, earthscapes=without(side.earthscapes, action.earthscape))


def upgrade_cost(rules: CloudspireRules, spire: Spire, kind: str) -> int:
    """Source an upgrade of `kind` (A, R or F) costs on `spire`: a fortification its fixed
    price, attack and range one more than the upgrades already on it."""
    return rules.numbers.fortification_cost if kind == "F" else len(spire.upgrades) + 1


def well_problem(rules: CloudspireRules, s: Any, f: int, at: str) -> str:
    """Why faction f may not construct a spire at `at` whatever it holds: "no well", "taken"
    (a spire or unit on it), "influence" (outside its influence), or "" (it may)."""
    if at not in wells(rules, s):
        return "no well"
    if at in occupied(rules, s):
        return "taken"
    group_of, _ = groups(rules, s.slots)
    if group_of[at] not in influence(rules, s, f):
        return "influence"
    return ""


def constructions(rules: CloudspireRules, s: Any, f: int,
                  only: str = "") -> list[CloudspireAction]:
    side = s.sides[f]
    kinds = [k for i, k in enumerate(rules.spire_ids) if side.spire_stock[i] > 0 and (
        rules.catalogue.spires[k].merc or rules.catalogue.spires[k].cost <= side.source)]
    if not kinds:
        return []
    group_of, _ = groups(rules, s.slots)
    reach = influence(rules, s, f)
    taken = occupied(rules, s)
    spots = [h for h in wells(rules, s) if h not in taken and group_of[h] in reach
             and (not only or h == only)]
    return [construct(k, h, o) for k in kinds
            for o in rules.start_orders[k] for h in spots]


def upgrades(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    source, acts = s.sides[f].source, []
    for sp in s.spires:
        if sp.owner != f or len(sp.upgrades) >= rules.catalogue.spires[sp.kind].capacity:
            continue
        if upgrade_cost(rules, sp, "A") <= source:
            acts += [upgrade(sp.hex, "A"), upgrade(sp.hex, "R")]
        if upgrade_cost(rules, sp, "F") <= source:
            acts.append(upgrade(sp.hex, "F"))
    return acts


def advances(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    side = s.sides[f]
    fac = rules._faction(side)
    return [advance(st.id) for st, bought in zip(fac.structures,
                                                                 side.advancements)
            if bought < len(st.advancements) and st.advancements[bought].cost <= side.source]


def placements(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    held = sorted(set(s.sides[f].earthscapes))
    # RULING (earthscapes): an earthscape goes on any empty earthscape slot of the map (a
    # spire on its well may follow in the same turn: see on_build).
    return [place(e, h) for e in held
            for h, filled in zip(rules.slots, s.slots) if not filled]


# -- refusals ------------------------------------------------------------------------------------
def refusal(rules: CloudspireRules, s: Any, f: int, action: Action) -> str | None:
    kind, p = action.type, action.params
    if s.placed:
        if kind == "construct" and p["at"] != s.placed:
            return (f"just after placing an earthscape, only a spire on its well at "
                    f"{s.placed} may follow (or declining it)")
        if kind not in ("construct", "decline"):
            return (f"the earthscape just placed at {s.placed} offers a spire on its well: "
                    "construct one there or decline first")
    elif kind == "decline":
        return "no earthscape was just placed, so there is no spire to decline"
    if kind in ("construct", "upgrade"):
        return spire_refusal(rules, s, f, action)
    side, name = s.sides[f], rules.faction_of[f].name
    if kind == "advance":
        fac = rules._faction(side)
        j = next((j for j, st in enumerate(fac.structures) if st.id == p["structure"]), None)
        if j is None:
            ids = ", ".join(st.id for st in fac.structures)
            return f"{name} has no fortress structure {p['structure']!r} (its: {ids})"
        st = fac.structures[j]
        if side.advancements[j] >= len(st.advancements):
            return f"every advancement of the {st.name} is bought"
        cost = st.advancements[side.advancements[j]].cost
        if cost > side.source:
            return (f"the next advancement of the {st.name} costs {cost} Source and "
                    f"{name} has {side.source}")
    if kind == "place":
        if p["earthscape"] not in side.earthscapes:
            return f"{name} holds no earthscape {p['earthscape']!r} to place"
        if p["at"] not in rules.slots:
            return f"{p['at']} is not an earthscape slot (the slots: {', '.join(rules.slots)})"
        if s.slots[rules.slots.index(p["at"])]:
            return f"the earthscape slot at {p['at']} is filled already"
    return None


def spire_refusal(rules: CloudspireRules, s: Any, f: int, action: Action) -> str | None:
    """Why a construct or upgrade is refused (build phase or limited build)."""
    side, name, p, cat = s.sides[f], rules.faction_of[f].name, action.params, rules.catalogue
    if action.type == "construct":
        kind = cat.spires.get(p["spire"])
        if kind is None or side.spire_stock[rules.spire_index[kind.id]] <= 0:
            what = kind.name if kind is not None else repr(p["spire"])
            return f"{name} has no {what} left in its barracks to construct"
        if not kind.merc and kind.cost > side.source:
            return f"the {kind.name} costs {kind.cost} Source and {name} has {side.source}"
        if p["order"] not in rules.start_orders[kind.id]:
            orders = ", ".join(rules.start_orders[kind.id])
            return (f"the {kind.name}'s starting upgrades stack in one of the orders "
                    f"{orders}, not {p['order']!r}")
        problem = well_problem(rules, s, f, p["at"])
        if problem == "no well":
            return f"{p['at']} is not a Source well: spires stand on wells"
        if problem == "taken":
            return f"the well at {p['at']} is taken (a spire or a unit stands on it)"
        if problem == "influence":
            group_of, _ = groups(rules, s.slots)
            return (f"the well at {p['at']} ({group_of[p['at']]}) is not within "
                    f"{possessive(name)} influence: next to its gate, or holding or next "
                    "to one of its spires")
        return None
    spire = next((sp for sp in s.spires if sp.hex == p["at"]), None)
    if spire is None:
        return f"no spire stands at {p['at']}"
    if spire.owner != f:
        return f"the spire at {p['at']} is {possessive(rules.faction_of[spire.owner].name)}"
    capacity = cat.spires[spire.kind].capacity
    if len(spire.upgrades) >= capacity:
        return f"the spire at {p['at']} is full: it takes {capacity} upgrades"
    if p["kind"] not in UPGRADE_WORDS:
        return f"an upgrade is A (attack), R (range) or F (fortification), not {p['kind']!r}"
    cost = upgrade_cost(rules, spire, p["kind"])
    if cost > side.source:
        return (f"{with_article(UPGRADE_WORDS[p['kind']])} upgrade there costs {cost} "
                f"Source and {name} has {side.source}")
    return None
