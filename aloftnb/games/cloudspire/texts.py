"""Cloudspire in words: the log sentences of decisions and chance outcomes (with what the rules
then did by themselves), actions named by the catalogue's names, the click paths a board offers,
what other seats may read of a hidden step, and the board's texts (where the game stands, who
acts, the result)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.words import possessive, with_article
from ...errors import IllegalAction, InvalidGame
from .actions import UPGRADE_WORDS
from .state import CHANCE, OVER, CloudspireState

if TYPE_CHECKING:
    from .rules import CloudspireRules

THEN = "; then "  # joins what the rules do by themselves to the log line of the step before


# -- log sentences ---------------------------------------------------------------------------------
def describe_action(rules: CloudspireRules, s: CloudspireState, action: Action) -> str:
    who = rules.faction_of[s.actor].name if 0 <= s.actor < rules.factions else "?"
    return (f"{who}: {action_text(rules, s, action)}"
            + then(rules, s, action))


def action_text(rules: CloudspireRules, s: CloudspireState, action: Action) -> str:
    """An action in words, naming chips, spires, units, structures, earthscapes and
    equipment by the catalogue's names (str(action) knows only their ids)."""
    p, kind, cat = action.params, action.type, rules.catalogue

    def named(table: dict[str, Any], key: Any) -> str:
        entry = table.get(key)
        return entry.name if entry is not None else str(key)

    def on(hex_: Any) -> str:
        unit = next((u for u in s.units if u.hex == hex_), None)
        return cat.units[unit.members[0]].name if unit is not None else "unit"

    if kind == "buy" and isinstance(p["slot"], int) and 0 <= p["slot"] < len(s.market) \
            and s.market[p["slot"]]:
        return f"buy {named(cat.chips, s.market[p['slot']])} from market slot {p['slot']}"
    if kind == "buy_earthscape" and s.earthscape_offer:
        return f"buy the earthscape {named(cat.earthscapes, s.earthscape_offer)}"
    if kind == "construct":
        order = ", ".join(UPGRADE_WORDS.get(u, u) for u in p["order"])
        return (f"construct {with_article(named(cat.spires, p['spire']))} at {p['at']} with "
                f"its upgrades {order} (bottom first)")
    if kind == "upgrade":
        spire = next((sp for sp in s.spires if sp.hex == p["at"]), None)
        where = f"the {named(cat.spires, spire.kind)}" if spire else "the spire"
        upgrade = with_article(UPGRADE_WORDS.get(p["kind"], "?"))
        return f"add {upgrade} upgrade to {where} at {p['at']}"
    if kind == "advance":
        structures = {st.id: st for fac in cat.factions for st in fac.structures}
        return f"advance the {named(structures, p['structure'])}"
    if kind == "place":
        return f"place the earthscape {named(cat.earthscapes, p['earthscape'])} at {p['at']}"
    if kind == "mark" and isinstance(p["gate"], int) and 0 <= p["gate"] < rules.factions:
        return f"declare {possessive(rules.faction_of[p['gate']].name)} gate the mark"
    if kind == "deploy":
        return (f"add {with_article(named(cat.units, p['unit']))} to the stack"
                + (" (grouped with the minion above)" if p["group"] else ""))
    if kind == "equip":
        return f"put the {named(cat.equipment, p['item'])} under the hero"
    if kind == "target":
        return f"fire at the {on(p['at'])} at {p['at']}"
    if kind == "attack":
        return f"the {on(p['at'])} at {p['at']} attacks {p['target']}"
    return str(action)


def hidden_text(rules: CloudspireRules, s: CloudspireState, action: Action,
                seat: int | None) -> str | None:
    """Other seats read that a chip went into a stack, not which, where or grouped how (a
    unit grouped and equipment under a hero look alike to them); only the explorer reads
    the landmark face it drew."""
    if action.type in ("deploy", "equip") and seat != s.actor:
        who = rules.faction_of[s.actor].name if 0 <= s.actor < rules.factions else "?"
        return f"{who}: add a chip to the stack, face down"
    if action.type == "draw" and s.draw == "face":
        explorer = rules.current_faction(s)
        if seat != explorer:
            where = s.landmarks[s.exploring].hex if s.exploring >= 0 else "?"
            return (f"drew the face of the landmark at {where} (only "
                    f"{rules.faction_of[explorer].name} sees it)")
    return None


def describe_chance(rules: CloudspireRules, s: CloudspireState,
                    outcome: Action) -> str:
    if outcome.type == "roll":
        return f"the spire die rolled {outcome.pips}" + then(rules, s, outcome)
    return f"drew {card_name(rules, outcome.card)} ({s.draw})" + then(rules, s, outcome)


def card_name(rules: CloudspireRules, card: str) -> str:
    """A drawn card's display name (an event, chip, earthscape or landmark face)."""
    cat = rules.catalogue
    for deck in (cat.events, cat.chips, cat.earthscapes, cat.faces):
        if card in deck:
            return deck[card].name
    return card


def automatic_steps(rules: CloudspireRules, s: CloudspireState,
                    action: Action) -> list[str]:
    """What the rules do by themselves after `action`, in words: the marches that follow
    with no click because marching is the only choice (see RULING on automatic marches)."""
    if s.phase not in ("prep", "onslaught"):
        return []
    notes: list[str] = []
    try:
        rules._apply_one(s, action, notes)
    except (IllegalAction, InvalidGame, KeyError, ValueError, StopIteration, IndexError):
        return []  # an action that cannot be applied here is described, not played
    return notes


def then(rules: CloudspireRules, s: CloudspireState, action: Action) -> str:
    notes = automatic_steps(rules, s, action)
    return "".join(THEN + note for note in notes)


def chance_choice_label(rules: CloudspireRules, s: CloudspireState,
                        outcome: Action) -> str:
    if outcome.type == "roll":
        return f"roll {outcome.pips} on the spire die"
    return f"draw {card_name(rules, outcome.card)} ({s.draw})"


# -- the board's texts -----------------------------------------------------------------------------
def where_text(rules: CloudspireRules, s: CloudspireState) -> str:
    """The wave, phase, and in an onslaught its round and stage, in words."""
    phase = rules.phase(s)  # a finished game: the phase it ended in
    text = f"Wave {s.wave} of {rules.waves}, {phase} phase"
    if phase == "onslaught" and s.round:
        text += f", round {s.round}" + (f", {s.stage} stage" if s.stage else "")
    return text


def doing_text(rules: CloudspireRules, s: CloudspireState) -> str:
    """Who acts now and on what, in words."""
    if s.phase == OVER:
        return ""
    if s.actor == CHANCE:
        what = {"event": "an event card", "market": "a market chip",
                "earthscape": "an earthscape", "face": "a landmark face",
                "die": "a spire die"}.get(s.draw, "a chance outcome")
        return f"Drawing {what}"
    who = rules.faction_of[s.actor].name
    if s.phase == "onslaught" and s.stage == "fire":
        return f"{who} chooses the target of the spire at {s.firing[0]}"
    if s.phase == "onslaught" and s.exploring >= 0:
        return f"{who} looks at the landmark at {s.landmarks[s.exploring].hex}"
    return f"{who} to play"


def result_text(rules: CloudspireRules, s: CloudspireState) -> str:
    if s.phase != OVER:
        return ""
    won = " and ".join(rules.faction_of[f].name for f in s.winners) or "nobody"
    return f"{won} won ({s.reason})"


# -- click paths -----------------------------------------------------------------------------------
def action_path(rules: CloudspireRules, s: CloudspireState, action: Action) -> list[str]:
    """What a person clicks: hexes of the map ("hex:q,r": a well, a spire, a unit, a
    landmark, a target, the gate for a hero still on the stack), then buttons whose keys
    read as what they do."""
    p = action.params
    kind = action.type
    if kind == "construct":
        path = [f"hex:{p['at']}", f"construct {p['spire']}"]
        if len(rules.start_orders.get(p["spire"], ())) > 1:  # then the upgrades' order
            path.append(f"upgrades {p['order']} (bottom first)")
        return path
    if kind == "upgrade":
        return [f"hex:{p['at']}", f"{UPGRADE_WORDS.get(p['kind'], p['kind'])} upgrade"]
    if kind == "place":
        return [f"hex:{p['at']}", f"place {p['earthscape']}"]
    if kind in ("move", "attack"):
        return [f"hex:{p['at']}", f"hex:{p['to' if kind == 'move' else 'target']}"]
    if kind in ("target", "explore"):
        return [f"hex:{p['at']}"]
    if kind == "buy":
        return [f"buy market slot {p['slot']}"]
    if kind == "advance":
        return [f"advance {p['structure']}"]
    if kind == "mark":
        return [f"mark gate {p['gate']}"]
    if kind == "deploy":
        return [f"deploy {p['unit']}" + (" grouped" if p["group"] else "")]
    if kind == "equip":
        return [f"equip {p['item']}"]
    return [kind.replace("_", " ")]

