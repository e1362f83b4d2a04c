"""Cloudspire's actions: their types and fields, and their plain words (str(action)).

The catalogue's names come in texts.py (`action_text`); here an action knows only its ids.
"""

from __future__ import annotations

from ...core.action import Action
from ...core.words import with_article

# The three spire upgrades by their letters (Spire.upgrades), in words: the one table of them.
UPGRADE_WORDS = {"A": "attack", "R": "range", "F": "fortification"}

CHANCE_TYPES = ("draw", "roll")
DECISION_TYPES = ("buy", "buy_earthscape", "pass", "construct", "upgrade", "advance", "place",
                  "decline",
                  "mark", "deploy", "equip", "ready", "move", "march", "end_move", "target",
                  "explore", "reveal", "leave", "end_explore", "attack", "end_turn")
# Each action type's fields and their types (parse_action checks a dict against them).
ACTION_FIELDS: dict[str, dict[str, type]] = {
    "draw": {"card": str}, "roll": {"pips": int}, "buy": {"slot": int}, "buy_earthscape": {},
    "pass": {}, "construct": {"spire": str, "at": str, "order": str},
    "upgrade": {"at": str, "kind": str},
    "advance": {"structure": str}, "place": {"earthscape": str, "at": str}, "decline": {},
    "mark": {"gate": int},
    "deploy": {"unit": str, "group": bool}, "equip": {"item": str}, "ready": {},
    "move": {"at": str, "to": str}, "march": {}, "end_move": {}, "target": {"at": str},
    "explore": {"at": str}, "reveal": {}, "leave": {}, "end_explore": {},
    "attack": {"at": str, "target": str}, "end_turn": {},
}


class CloudspireAction(Action):
    __slots__ = ()

    def __str__(self) -> str:
        p = self._params
        texts = {
            "draw": lambda: f"drew {p.get('card')}",
            "roll": lambda: f"rolled {p.get('pips')}",
            "buy": lambda: f"buy the chip in market slot {p.get('slot')}",
            "buy_earthscape": lambda: "buy the face-up earthscape",
            "pass": lambda: "pass",
            "construct": lambda: f"construct a {p.get('spire')} at {p.get('at')} with its "
                                 f"upgrades {p.get('order')} (bottom first)",
            "upgrade": lambda: f"add {with_article(UPGRADE_WORDS.get(p.get('kind'), '?'))} "
                               f"upgrade to the spire at {p.get('at')}",
            "advance": lambda: f"advance the fortress structure {p.get('structure')}",
            "place": lambda: f"place the earthscape {p.get('earthscape')} at {p.get('at')}",
            "decline": lambda: "build no spire on the new earthscape now",
            "mark": lambda: f"declare faction {p.get('gate')}'s gate the mark",
            "deploy": lambda: f"add a {p.get('unit')} to the stack"
                              + (" (grouped with the minion above)" if p.get("group") else ""),
            "equip": lambda: f"put the {p.get('item')} under the hero",
            "ready": lambda: "finish the deployment stack",
            "move": lambda: f"move the hero at {p.get('at')} to {p.get('to')}",
            "march": lambda: "march the minions",
            "end_move": lambda: "end the movement stage",
            "target": lambda: f"fire at the unit at {p.get('at')}",
            "explore": lambda: f"explore the landmark at {p.get('at')}",
            "reveal": lambda: "reveal the landmark",
            "leave": lambda: "leave the landmark face down",
            "end_explore": lambda: "stop exploring",
            "attack": lambda: f"the unit at {p.get('at')} attacks {p.get('target')}",
            "end_turn": lambda: "end the turn",
        }
        text = texts.get(self.type)
        return text() if text else super().__str__()


A = CloudspireAction

__all__ = ["ACTION_FIELDS", "CHANCE_TYPES", "DECISION_TYPES", "UPGRADE_WORDS", "A",
           "CloudspireAction"]
