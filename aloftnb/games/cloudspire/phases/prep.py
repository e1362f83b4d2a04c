"""The prep phase: every faction declares its mark (an opposing gate) in turn order, openly;
then each builds its hidden deployment stack in turn (minions, grouped or not, heroes before or
after them, equipment under a hero) with its command points, and says it is ready."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.action import Action
from ....core.words import possessive, with_article
from ..actions import READY, A, CloudspireAction, deploy
from ..state import Band, without
from ..units import is_hero, opposed
from ..work import Work

if TYPE_CHECKING:
    from ..rules import CloudspireRules


def begin_prep(rules: CloudspireRules, w: Work) -> None:
    w.turn = 0
    for f in w.order:
        w.side(f, done=False)
    continue_prep(rules, w)


def continue_prep(rules: CloudspireRules, w: Work) -> None:
    # Step 1: every faction declares its mark in turn order, openly, before anybody chooses
    # units (so later stacks may answer earlier marks, as at the table).
    for f in w.order:
        if w.sides[f].mark < 0:
            marks = mark_options(rules, w, f)
            if len(marks) == 1:  # no choice to make
                w.side(f, mark=marks[0])
                continue
            w.actor = f
            return
    # Steps 2-3: each faction builds its hidden deployment stack, in turn order.
    if w.turn < len(w.order):
        w.actor = w.order[w.turn]
        return
    rules.flow.end_phase(rules, w)


def mark_options(rules: CloudspireRules, s: Any, f: int) -> list[int]:
    return [g for g in range(rules.factions)
            if opposed(rules, f, g) and s.sides[g].gate > 0]


def hero_limit(rules: CloudspireRules, wave: int) -> int:
    return rules.numbers.heroes_in_wave_1 if wave == 1 else rules.numbers.heroes_later


def decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    side = s.sides[f]
    if side.mark < 0:
        return [A("mark", gate=g) for g in mark_options(rules, s, f)]
    acts = []
    stack = side.stack
    last = stack[-1] if stack else None
    minions_closed = any(not is_hero(rules, b) for b in stack) and last is not None and \
        is_hero(rules, last)
    for i, uid in enumerate(rules.unit_ids):
        if side.barracks[i] <= 0:
            continue
        kind = rules.catalogue.units[uid]
        cost = 0 if kind.merc else kind.cost
        if cost > side.command:
            continue
        if kind.hero:
            if side.heroes < hero_limit(rules, s.wave) and kind.from_wave <= s.wave:
                acts.append(deploy(uid, False))
            continue
        if minions_closed:  # heroes go before or after all minions, never between
            continue
        acts.append(deploy(uid, False))
        if last is not None and not is_hero(rules, last):
            below = rules.catalogue.units[last.members[-1]]
            if kind.levels[0].movement >= below.levels[0].movement:
                acts.append(deploy(uid, True))
    if last is not None and is_hero(rules, last) and not last.equipment:
        acts += [A("equip", item=e) for e in sorted(set(side.equipment))]
    return acts + [READY]


def on_prep(rules: CloudspireRules, w: Work, action: Action) -> None:
    f = w.actor
    side = w.sides[f]
    if action.type == "mark":
        w.side(f, mark=action.gate)
        continue_prep(rules, w)
    elif action.type == "ready":
        w.side(f, done=True)
        w.turn += 1
        continue_prep(rules, w)
    elif action.type == "equip":
        stack = list(side.stack)
        gear = rules.catalogue.equipment[action.item]
        stack[-1] = stack[-1]._replace(equipment=action.item,
                                       health=stack[-1].health + gear.health)
        w.side(f, stack=tuple(stack), equipment=without(side.equipment, action.item))
    else:  # deploy: one unit to the bottom of the stack
        i = rules.unit_index[action.unit]
        kind = rules.catalogue.units[action.unit]
        barracks = list(side.barracks)
        barracks[i] -= 1
        cost = 0 if kind.merc else kind.cost
        stack = list(side.stack)
        if action.group:  # joins the group above; the group keeps its top minion's health
            stack[-1] = stack[-1]._replace(members=stack[-1].members + (action.unit,))
        else:
            level = side.hero_levels[i] if kind.hero else 0
            health = kind.levels[min(level, len(kind.levels) - 1)].health
            stack.append(Band(f, (action.unit,), health, "", level, "", False, False,
                              False))
        w.side(f, barracks=tuple(barracks), stack=tuple(stack),
               command=side.command - cost, heroes=side.heroes + kind.hero)


def refusal(rules: CloudspireRules, s: Any, f: int, action: Action) -> str | None:
    side, name, p, kind = s.sides[f], rules.faction_of[f].name, action.params, action.type
    if kind == "mark":
        if side.mark >= 0:
            return (f"{name} declared its mark already: "
                    f"{possessive(rules.faction_of[side.mark].name)} gate")
        g = p["gate"]
        if not 0 <= g < rules.factions:
            return f"there is no faction {g} (factions 0 to {rules.factions - 1})"
        if g == f:
            return "the mark is an opposing gate, not the faction's own"
        if not opposed(rules, f, g):
            return f"the mark is an opposing gate, and {rules.faction_of[g].name} is an ally"
        return f"{possessive(rules.faction_of[g].name)} gate has fallen"
    if side.mark < 0:
        return "every faction declares its mark before any stack is built: declare it first"
    if kind == "deploy":
        uid = p["unit"]
        unit = rules.catalogue.units.get(uid)
        if unit is None:
            return f"the catalogue has no unit {uid!r}"
        i = rules.unit_index[uid]
        if side.barracks[i] <= 0:
            return f"{name} has no {unit.name} left in its barracks"
        cost = 0 if unit.merc else unit.cost
        if cost > side.command:
            return (f"{with_article(unit.name)} costs {cost} command point"
                    f"{'' if cost == 1 else 's'} and {name} has {side.command} left")
        stack = side.stack
        last = stack[-1] if stack else None
        if unit.hero:
            if p["group"]:
                return "heroes are never grouped"
            if unit.from_wave > s.wave:
                return f"the {unit.name} may be selected from wave {unit.from_wave}"
            limit = hero_limit(rules, s.wave)
            return (f"{limit} hero{'es' if limit > 1 else ''} at most in wave {s.wave}, and "
                    f"{name} has selected {side.heroes}")
        if last is not None and is_hero(rules, last) and any(
                not is_hero(rules, b) for b in stack):
            return "heroes go before or after all minions, never between: the stack " \
                   "ends with a hero under its minions"
        if p["group"]:
            if last is None or is_hero(rules, last):
                return "a minion is grouped only with a minion directly above it"
            above = rules.catalogue.units[last.members[-1]]
            return (f"a group is ordered by movement, lowest on top: {with_article(unit.name)}"
                    f" (movement {unit.levels[0].movement}) cannot go under "
                    f"{with_article(above.name)} (movement {above.levels[0].movement})")
    if kind == "equip":
        last = side.stack[-1] if side.stack else None
        if last is None or not is_hero(rules, last):
            return "equipment goes under the hero just added to the stack"
        if last.equipment:
            return "the hero just added holds equipment already"
        gear = rules.catalogue.equipment.get(p["item"])
        return f"{name} holds no {gear.name if gear else repr(p['item'])} to put under it"
    return None
