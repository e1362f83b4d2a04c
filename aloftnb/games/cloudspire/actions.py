"""Cloudspire's actions, each type declared once (ACTIONS): its fields, its plain words
(str(action)) and the values each field takes, from which parsing and the adapters' numbering
follow (docs/rules/cloudspire.md, "Encodings").

The numbering: decisions block after block (H hexes of the map in the geometry's numbering, M
market slots, F factions, U unit kinds, S spire kinds, E earthscapes, Q equipment, L landmarks,
in catalogue order): buy M, buy the earthscape, pass, decline a spire on a new earthscape,
construct S*O*H (O: the orders of the spire's starting upgrades), upgrade H*3, advance each
structure, place E*slots, mark F, deploy U*2 (alone, grouped), equip Q, ready, move H*H, march,
end the movement, target H, explore L, reveal, leave, stop exploring, attack H*6, end the turn.
Chance outcomes: every card id (events, market chips, earthscapes, landmark faces), then each
face value of the spire die.

The catalogue's names come in texts.py (`action_text`); here an action knows only its ids.
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action, ActionTypes, action_type, interned
from ...core.compiled import python_class
from ...core.words import with_article

# The three spire upgrades by their letters (Spire.upgrades), in words: the one table of them.
UPGRADE_WORDS = {"A": "attack", "R": "range", "F": "fortification"}


@python_class
class CloudspireAction(Action):
    __slots__ = ()


def _hexes(rules: Any, **_: Any) -> Any:
    return rules.hexes


def _cards(rules: Any) -> list[str]:
    cat = rules.catalogue
    return [c for group in (cat.events, cat.chips, cat.earthscapes, cat.faces) for c in group]


def _upgrade(p: dict[str, Any]) -> str:
    return (f"add {with_article(UPGRADE_WORDS.get(p['kind'], '?'))} upgrade to the spire at "
            f"{p['at']}")


def _deploy(p: dict[str, Any]) -> str:
    return f"add a {p['unit']} to the stack" + (" (grouped with the minion above)"
                                                if p["group"] else "")


# Chance types first, then the decisions in the order the numbering takes them.
ACTIONS = ActionTypes(
    CloudspireAction,
    action_type("draw", "drew {card}", chance=True, card=(str, _cards)),
    action_type("roll", "rolled {pips}", chance=True,
                pips=(int, lambda rules: sorted(set(rules.numbers.spire_die)))),
    action_type("buy", "buy the chip in market slot {slot}",
                slot=(int, lambda rules: range(rules.market_slots))),
    action_type("buy_earthscape", "buy the face-up earthscape"),
    action_type("pass", "pass"),
    action_type("decline", "build no spire on the new earthscape now"),
    action_type("construct", "construct a {spire} at {at} with its upgrades {order} (bottom "
                "first)", numbering=("spire", "order", "at"),
                spire=(str, lambda rules: rules.spire_ids), at=(str, _hexes),
                order=(str, lambda rules, spire: rules.start_orders[spire])),
    action_type("upgrade", _upgrade, at=(str, _hexes), kind=(str, lambda rules, at: "ARF")),
    action_type("advance", "advance the fortress structure {structure}",
                structure=(str, lambda rules: [st.id for fac in rules.numbered
                                               for st in fac.structures])),
    action_type("place", "place the earthscape {earthscape} at {at}",
                earthscape=(str, lambda rules: rules.catalogue.earthscapes),
                at=(str, lambda rules, earthscape: rules.slots)),
    action_type("mark", "declare faction {gate}'s gate the mark",
                gate=(int, lambda rules: range(rules.factions))),
    action_type("deploy", _deploy, unit=(str, lambda rules: rules.unit_ids),
                group=(bool, lambda rules, unit: (False, True))),
    action_type("equip", "put the {item} under the hero",
                item=(str, lambda rules: rules.catalogue.equipment)),
    action_type("ready", "finish the deployment stack"),
    action_type("move", "move the hero at {at} to {to}", at=(str, _hexes), to=(str, _hexes)),
    action_type("march", "march the minions"),
    action_type("end_move", "end the movement stage"),
    action_type("target", "fire at the unit at {at}", at=(str, _hexes)),
    action_type("explore", "explore the landmark at {at}",
                at=(str, lambda rules: rules.catalogue.map.landmarks)),
    action_type("reveal", "reveal the landmark"),
    action_type("leave", "leave the landmark face down"),
    action_type("end_explore", "stop exploring"),
    action_type("attack", "the unit at {at} attacks {target}", at=(str, _hexes),
                target=(str, lambda rules, at: rules.neighbours[at])),
    action_type("end_turn", "end the turn"),
)
CHANCE_TYPES = ACTIONS.chance_names

_CACHE: dict[tuple[Any, ...], CloudspireAction] = {}


def A(type: str, **params: Any) -> CloudspireAction:
    """The same action object every time for the same fields: the legal actions and chance
    outcomes build several an action played, and building one costs more than finding it."""
    return interned(_CACHE, CloudspireAction, type, params)


# The commonest actions by their fields in order, without keyword arguments (which cost more
# than the lookup): the same objects A() gives, under the same keys.
def move(at: str, to: str) -> CloudspireAction:
    found = _CACHE.get(("move", ("at", at), ("to", to)))
    return found if found is not None else A("move", at=at, to=to)


def deploy(unit: str, group: bool) -> CloudspireAction:
    found = _CACHE.get(("deploy", ("unit", unit), ("group", group)))
    return found if found is not None else A("deploy", unit=unit, group=group)


def upgrade(at: str, kind: str) -> CloudspireAction:
    found = _CACHE.get(("upgrade", ("at", at), ("kind", kind)))
    return found if found is not None else A("upgrade", at=at, kind=kind)


def construct(spire: str, at: str, order: str) -> CloudspireAction:
    found = _CACHE.get(("construct", ("spire", spire), ("at", at), ("order", order)))
    return found if found is not None else A("construct", spire=spire, at=at, order=order)


def draw(card: str) -> CloudspireAction:
    found = _CACHE.get(("draw", ("card", card)))
    return found if found is not None else A("draw", card=card)


def advance(structure: str) -> CloudspireAction:
    found = _CACHE.get(("advance", ("structure", structure)))
    return found if found is not None else A("advance", structure=structure)


def buy(slot: int) -> CloudspireAction:
    found = _CACHE.get(("buy", ("slot", slot)))
    return found if found is not None else A("buy", slot=slot)


def place(earthscape: str, at: str) -> CloudspireAction:
    found = _CACHE.get(("place", ("earthscape", earthscape), ("at", at)))
    return found if found is not None else A("place", earthscape=earthscape, at=at)


def attack(at: str, target: str) -> CloudspireAction:
    found = _CACHE.get(("attack", ("at", at), ("target", target)))
    return found if found is not None else A("attack", at=at, target=target)


def fire_at(at: str) -> CloudspireAction:
    """The action `target` (the firing spire's owner chooses the unit at `at`)."""
    found = _CACHE.get(("target", ("at", at)))
    return found if found is not None else A("target", at=at)


def explore(at: str) -> CloudspireAction:
    found = _CACHE.get(("explore", ("at", at)))
    return found if found is not None else A("explore", at=at)


# The actions without fields, made once (A() gives equal ones).
PASS, DECLINE, READY, BUY_EARTHSCAPE = A("pass"), A("decline"), A("ready"), A("buy_earthscape")
MARCH, END_MOVE, END_EXPLORE, END_TURN = A("march"), A("end_move"), A("end_explore"), A("end_turn")
REVEAL, LEAVE = A("reveal"), A("leave")


__all__ = ["ACTIONS", "BUY_EARTHSCAPE", "CHANCE_TYPES", "DECLINE", "END_EXPLORE", "END_MOVE",
           "END_TURN", "LEAVE", "MARCH", "PASS", "READY", "REVEAL", "UPGRADE_WORDS", "A",
           "CloudspireAction", "advance", "attack", "buy", "construct", "deploy", "draw",
           "explore", "fire_at", "move", "place", "upgrade"]
