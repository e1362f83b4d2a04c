"""The start of a wave: the event phase (the wave's turn order, then an event card from wave 2),
the income phase (Source and command points) and the market phase (each faction buys one chip
or the face-up earthscape, or passes, and the market is refilled from its decks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.action import Action
from ....core.chance import CHANCE
from ....core.flow import ONCE_EACH
from ..actions import BUY_EARTHSCAPE, PASS, CloudspireAction, buy
from ..state import EMPTY, SPENT_MARKET, without
from ..work import Work

if TYPE_CHECKING:
    from ..rules import CloudspireRules


# -- event ---------------------------------------------------------------------------------------
def begin_wave(rules: CloudspireRules, w: Work) -> None:
    """The event phase: the wave's turn order, then an event card drawn (from wave 2, in the
    standard variant, while the deck lasts)."""
    standing = [f for f in range(rules.factions) if w.sides[f].gate > 0]
    # RULING (turn order): the first player moves one seat on each wave; from wave 2 the
    # factions with the lowest gate health go first (a catch-up that evens out the first
    # mover's edge: greedy-vs-greedy games were 62-38 for seat 0 without it).
    first = (w.wave - 1) % len(standing)
    rotation = standing[first:] + standing[:first]
    if w.wave > 1:
        place = {f: i for i, f in enumerate(rotation)}
        rotation.sort(key=lambda f: (w.sides[f].gate, place[f]))
    w.order = tuple(rotation)
    for f in range(rules.factions):
        w.side(f, mark=-1, command=0, heroes=0, stack=(), done=False,
               earthscape_bought=False, limited_builds=0)
    w.event, w.round, w.stage, w.turn = "", 0, "", 0
    if w.wave > 1 and not rules.simplified and w.event_deck:
        w.phase, w.draw, w.actor = "event", "event", CHANCE
        return
    rules.flow.end_phase(rules, w, "event")


def on_event(rules: CloudspireRules, w: Work, action: Action) -> None:
    """The event card drawn: a repair now, its Source and command at income."""
    card = action.card
    w.event = card
    w.event_deck = without(w.event_deck, card)
    event = rules.catalogue.events[card]
    if event.repair:  # RULING (events): repairs never raise a gate above its start
        for f in w.order:
            gate = w.sides[f].gate
            top = (rules.numbers.gate_health + rules.bonus(w.sides[f], "gate_health")
                   + rules.helped(f, "gate_health"))
            w.side(f, gate=min(top, gate + event.repair))
    w.draw = ""
    rules.flow.end_phase(rules, w)


# -- income --------------------------------------------------------------------------------------
def begin_income(rules: CloudspireRules, w: Work) -> None:
    """Every faction gains the wave's Source (up to its cap) and command points."""
    event = rules.catalogue.events.get(w.event)
    for f in w.order:
        side = w.sides[f]
        gain = (rules.income(w.wave) + rules.bonus(side, "income") + rules.helped(f, "income")
                + (event.source if event else 0))
        source = max(0, min(rules.source_cap(side), side.source + gain))
        command = (rules.command(w.wave) + rules.bonus(side, "command")
                   + rules.helped(f, "command") + (event.command if event else 0))
        w.side(f, source=source, command=max(0, command))
    rules.flow.end_phase(rules, w)


def after_income(rules: CloudspireRules, w: Work) -> str:
    """The simplified variant has no market: the build phase follows the income."""
    return "build" if rules.simplified else "market"


# -- market --------------------------------------------------------------------------------------
def begin_market(rules: CloudspireRules, w: Work) -> None:
    w.turn = 0
    if w.wave > 1:  # refresh: the old offer is discarded
        w.market, w.earthscape_offer = (EMPTY,) * rules.market_slots, EMPTY
    w.refills = tuple(i for i, chip in enumerate(w.market) if not chip) + (
        (-1,) if not w.earthscape_offer else ())
    for f in w.order:
        w.side(f, done=False)
    continue_market(rules, w)


def continue_market(rules: CloudspireRules, w: Work) -> None:
    """Refill the emptied slots (chance steps), then the next faction's market turn."""
    while w.refills:
        slot = w.refills[0]
        if (w.market_deck if slot >= 0 else w.earthscape_deck):
            w.draw, w.actor = ("market" if slot >= 0 else "earthscape"), CHANCE
            return
        w.refills = w.refills[1:]  # an empty deck leaves the slot empty
    w.draw = ""
    # RULING (market turns): each faction has one market turn a wave: buy one or pass.
    turn = ONCE_EACH.next_turn(w.order, w.turn)
    if turn is not None:
        w.actor = w.order[turn]
        return
    rules.flow.end_phase(rules, w)


def earthscape_bought(rules: CloudspireRules, s: Any, f: int) -> bool:
    """Whether the wave's earthscape purchase is used up for faction f. RULING (one
    earthscape a wave, rulings 2): "only one earthscape may be purchased per wave" is one
    for the whole table; with rulings 1 it was one per faction."""
    if rules.new_rulings:
        return any(side.earthscape_bought for side in s.sides)
    return bool(s.sides[f].earthscape_bought)


def decisions(rules: CloudspireRules, s: Any, f: int) -> list[CloudspireAction]:
    side = s.sides[f]
    acts = [buy(i) for i, chip in enumerate(s.market)
            if chip and rules.catalogue.chips[chip].cost <= side.source]
    if (s.earthscape_offer and not earthscape_bought(rules, s, f)
            and side.source >= rules.numbers.earthscape_cost):
        acts.append(BUY_EARTHSCAPE)
    return acts + [PASS]


def on_market(rules: CloudspireRules, w: Work, action: Action) -> None:
    f = w.actor
    side = w.sides[f]
    if action.type == "buy":
        chip = rules.catalogue.chips[w.market[action.slot]]
        w.spend(f, chip.cost, SPENT_MARKET)
        side = w.sides[f]
        if chip.type == "spire":
            stock = list(side.spire_stock)
            stock[rules.spire_index[chip.id]] += 1
            w.side(f, spire_stock=tuple(stock))
        elif chip.type == "equipment":
            w.side(f, equipment=tuple(sorted(side.equipment + (chip.id,))))
        else:
            barracks = list(side.barracks)
            barracks[rules.unit_index[chip.id]] += 1
            w.side(f, barracks=tuple(barracks))
        market = list(w.market)
        market[action.slot] = EMPTY
        w.market = tuple(market)
        w.refills = (action.slot,)
    elif action.type == "buy_earthscape":
        w.spend(f, rules.numbers.earthscape_cost, SPENT_MARKET)
        side = w.sides[f]
        w.side(f, earthscapes=tuple(sorted(side.earthscapes + (w.earthscape_offer,))),
               earthscape_bought=True)
        w.earthscape_offer = EMPTY
        w.refills = (-1,)
    w.turn += 1
    continue_market(rules, w)


def on_refill(rules: CloudspireRules, w: Work, action: Action) -> None:
    """A market chip or an earthscape drawn into the emptied slot."""
    card = action.card
    if w.draw == "market":
        market = list(w.market)
        market[w.refills[0]] = card
        w.market, w.market_deck = tuple(market), without(w.market_deck, card)
    else:
        w.earthscape_offer = card
        w.earthscape_deck = without(w.earthscape_deck, card)
    w.refills = w.refills[1:]
    continue_market(rules, w)


def refusal(rules: CloudspireRules, s: Any, f: int, action: Action) -> str | None:
    side, p = s.sides[f], action.params
    if action.type == "buy":
        slot = p["slot"]
        if not 0 <= slot < len(s.market):
            return f"the market has slots 0 to {len(s.market) - 1}, not {slot}"
        if not s.market[slot]:
            return f"market slot {slot} is empty (its deck ran out)"
        chip = rules.catalogue.chips[s.market[slot]]
        if chip.cost > side.source:
            return (f"the {chip.name} costs {chip.cost} Source and "
                    f"{rules.faction_of[f].name} has {side.source}")
    if action.type == "buy_earthscape":
        if not s.earthscape_offer:
            return "no earthscape lies face up (the earthscape deck ran out)"
        if earthscape_bought(rules, s, f):
            if not rules.new_rulings:
                return (f"{rules.faction_of[f].name} bought an earthscape this wave "
                        "(one per faction a wave, with rulings 1)")
            buyer = next(g for g, sd in enumerate(s.sides) if sd.earthscape_bought)
            return ("only one earthscape may be bought per wave, and "
                    f"{rules.faction_of[buyer].name} bought this wave's")
        cost = rules.numbers.earthscape_cost
        if cost > side.source:
            return (f"the earthscape costs {cost} Source and {rules.faction_of[f].name} "
                    f"has {side.source}")
    return None
