"""The sky commodores board: the zoomable map board plus status and click explanations.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any, cast

from ...core.options import _short_repr
from ...core.words import with_article
from ...errors import AloftnbError
from ...widget.board import ZoomableBoard
from .rules import CommodoresRules


class GameBoard(ZoomableBoard):
    game_css = resources.files(__package__).joinpath("board.css").read_text("utf-8")

    @property
    def game_rules(self) -> CommodoresRules:
        return cast(CommodoresRules, self.match.rules)

    def choice_label(self, action: Any) -> str:
        """Menu texts with names and costs from the catalogue."""
        rules = self.game_rules
        cat = rules.catalogue
        p = action.params

        def cost(items: Any) -> str:
            return ", ".join(f"{n} {cat.resource_name(r)}" for r, n in items) or "free"

        if action.type == "build":
            card = rules.types[p["ship"]]
            return f"build {with_article(card.name)} at {p['at']} (costs {cost(card.cost)})"
        if action.type == "upgrade":
            ship = self.match.state.ships[self.match.state.active]
            upgrade = rules.types[ship.kind].upgrade(p["upgrade"])
            assert upgrade is not None
            return f"upgrade: {upgrade.name}, {upgrade.effect_text()} (costs {cost(upgrade.cost)})"
        if action.type in ("explore", "terraform") and "space" in p:
            return f"{action.type} {p['space']}, paying 1 {cat.resource_name(p['pay'])}"
        if action.type == "explore":  # rulings 2: drawn first, placed next
            return f"explore, paying 1 {cat.resource_name(p['pay'])} (draw the top hex)"
        if action.type == "trade":
            return (f"trade 2 {cat.resource_name(p['give'])} for 1 "
                    f"{cat.resource_name(p['get'])}")
        if action.type in ("take", "free"):
            return f"{action.type} 1 {cat.resource_name(p['resource'])}"
        return rules.action_text(self.match.state, action)

    def key_action(self, path: list[str], choices: list[dict[str, Any]]) -> str:
        """A move target names the ship it moves ("move ship 1 here"; the corner's own name
        follows, so it is not said twice)."""
        state = self.match.state
        actions = [c.get("action") or {} for c in choices]
        if (len(actions) == 1 and actions[0].get("type") == "move" and state.active >= 0
                and path == choices[0]["path"]):
            return f"move ship {state.ships[state.active].captain} here"
        return super().key_action(path, choices)

    def seat_label(self, seat: int, view: dict) -> str:
        goals = len(view["completed"][seat])
        return f"Seat {seat} ({goals} goal{'s' if goals != 1 else ''})"

    def hints(self) -> dict[str, str]:
        out = {}
        for action in self.match.legal_actions() if not self.match.is_over else []:
            if action.type in ("explore", "terraform") and "space" in action.params:
                out[f"space:{action.space}"] = (f"{action.type.capitalize()} {action.space}: "
                                                "choose the resource to pay.")
            elif action.type == "explore":
                out["explore"] = ("Explore: choose the resource to pay. The top hex is drawn, "
                                  "then you click an empty space next to the ship to place it.")
            elif action.type == "build":
                name = self.game_rules.types[action.ship].name
                out[f"build {with_article(name)}"] = ("Now click a free corner next to the ship "
                                                      f"for the {name}.")
            elif action.type == "trade":
                out[f"trade 2 {action.give}"] = "Now choose the resource you get."
        return out

    def step_label(self, key: str) -> str:
        """A trade's first step names the resource given, not its id."""
        cat = self.game_rules.catalogue
        if key.startswith("trade 2 ") and key[8:] in cat.resources:
            return f"trade 2 {cat.resource_name(key[8:])}"
        return key

    chance_draws = "a hex or number"  # what explain says chance draws (explain_generally)

    def explain(self, path: list[str]) -> str:
        """Why a click plays nothing, in the rules' words where there is a rule to name."""
        return self.explain_generally(path) or self._explain_key(path[0])

    def _explain_key(self, key: str) -> str:
        """Why the first thing clicked (a ship, corner or space) plays nothing now."""
        rules, state = self.game_rules, self.match.state
        if key.startswith("ship:"):
            named = re.fullmatch("([0-9]{1,2}):([0-9]{1,2})", key[5:])
            if not named:  # the map names ships "ship:seat:captain"
                raise AloftnbError(f"{_short_repr(key)} names no ship (ships are "
                                   "'ship:seat:captain')")
            seat, captain = named.groups()
            if state.step == "ships" and state.active < 0:
                if int(seat) != state.player:
                    return f"that is seat {seat}'s ship; it is seat {state.player}'s turn"
                return rules.why_illegal(state, rules.parse_action(
                    {"type": "ship", "captain": int(captain)}))
            if state.active >= 0:
                return (f"ship {captain} of seat {seat} cannot be plundered now: it must be one "
                        "edge away from the acting ship, its owner must hold something, and the "
                        "acting ship needs plunder and must not have plundered this turn")
            return f"ships act in the ship actions phase; this is the {rules.phase(state)} phase"
        if key.startswith("corner:"):
            if state.active >= 0:
                return rules.why_illegal(state, rules.parse_action(
                    {"type": "move", "to": key[7:]}))
            return "pick one of your ships first"
        if key.startswith("space:") and state.step == "place_hex":
            return rules.why_illegal(state, rules.parse_action(
                {"type": "place_hex", "space": key[6:]}))
        if key.startswith("space:"):
            if state.active < 0:
                return "pick one of your ships first; it explores next to where it is"
            return (f"{key[6:]} is not next to the acting ship, or cannot be explored, "
                    "terraformed or plundered now")
        return "nothing can be played there now"
