"""The Cloudspire board: the generic board plus zoom, menu labels with costs, seat labels, hints,
the onslaught log in the drawing, and explanations of clicks that play nothing.

Clicking: map actions go by hexes (`hex:q,r`): a well to construct (then the spire's button), a
spire to upgrade (then attack, range or fortification), a hero then a hex to move it, a unit then
its target to attack, a landmark to explore, a unit to fire at. Market, prep, pass and end
actions are buttons. "Bot: step" and "Bots: round" come with the generic board.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any, cast

from ...core.words import possessive, with_article
from ...widget.board import ZoomableBoard
from .actions import UPGRADE_WORDS
from .rules import THEN, CloudspireRules

LOG_TYPES = ("march", "move", "target", "roll", "explore", "reveal", "attack", "construct",
             "upgrade")
LOG_LINES = 8


class GameBoard(ZoomableBoard):
    game_css = resources.files(__package__).joinpath("board.css").read_text("utf-8")

    @property
    def game_rules(self) -> CloudspireRules:
        return cast(CloudspireRules, self.match.rules)

    def drawing_options(self) -> dict[str, Any]:
        return {**super().drawing_options(), "log": self.fight_log()}

    def fight_log(self) -> list[str]:
        """The latest onslaught steps (moves, fire and its dice, explorations, attacks), oldest
        first, worded for the viewer. Landmark faces drawn are left out: only their explorer
        sees them."""
        lines: list[str] = []
        for entry in reversed(self.match.history):
            if entry.action is None:
                continue
            # A step's text, then what the rules did by themselves after it (a march).
            step, *automatic = self.step_text(entry).split(THEN)
            logged = entry.phase == "onslaught" and entry.action.type in LOG_TYPES
            lines.extend(reversed(([step] if logged else []) + automatic))
            if len(lines) >= LOG_LINES:
                break
        return lines[:LOG_LINES][::-1]

    # -- the header ----------------------------------------------------------------------------
    def where_text(self) -> str:
        """The stage of the game as the map's headline names it, for the header and the news:
        the wave, its phase and, in an onslaught, the round and stage ("Wave 2 of 4, build
        phase"). The generic text counts onslaught rounds through the whole game ("Round 9")."""
        return self.game_rules.where_text(self.match.state)

    # -- hot seat ------------------------------------------------------------------------------
    def reveal_text(self) -> str:
        """In hot seat the board shows what every seat may see; the seat to play may show its
        own stack and the landmark faces it has seen, hidden again when the turn passes."""
        seat = self.match.current_player
        if self.viewer != "turn" or seat is None or seat < 0:
            return ""
        return (f"Hide seat {seat}'s stack" if self.revealed
                else f"Show seat {seat}'s stack and the landmarks it has seen")

    # -- words ---------------------------------------------------------------------------------
    def choice_label(self, action: Any) -> str:
        """Menu texts with names and costs from the catalogue."""
        rules, state = self.game_rules, self.match.state
        cat, n = rules.catalogue, rules.numbers
        p = action.params
        kind = action.type
        if kind == "buy":
            chip = cat.chips[state.market[p["slot"]]]
            return f"buy {chip.name} ({chip.type}) for {chip.cost} Source"
        if kind == "buy_earthscape":
            scape = cat.earthscapes[state.earthscape_offer]
            return f"buy the earthscape {scape.name} for {n.earthscape_cost} Source"
        if kind == "construct":
            spire = cat.spires[p["spire"]]
            price = "merc, paid at the market" if spire.merc else f"{spire.cost} Source"
            order = " ".join(UPGRADE_WORDS.get(u, u) for u in p["order"])
            return (f"construct {with_article(spire.name)} at {p['at']} ({price}), starting "
                    f"upgrades bottom first: {order}")
        if kind == "upgrade":
            spire = next(sp for sp in state.spires if sp.hex == p["at"])
            cost = rules.upgrade_cost(spire, p["kind"])
            word = UPGRADE_WORDS[p["kind"]]
            return f"{word} upgrade on the {cat.spires[spire.kind].name} ({cost} Source)"
        if kind == "advance":
            side = state.sides[state.actor]
            fac = next(fa for fa in cat.factions if fa.id == side.faction)
            j = next(j for j, st in enumerate(fac.structures) if st.id == p["structure"])
            adv = fac.structures[j].advancements[side.advancements[j]]
            gains = ", ".join(f"+{v} {name.replace('_', ' ')}" for name, v in (
                ("income", adv.income), ("Source cap", adv.source_cap),
                ("command", adv.command), ("gate health", adv.gate_health)) if v)
            return f"advance the {fac.structures[j].name} ({adv.cost} Source: {gains or 'no gain'})"
        if kind == "place":
            return f"place the earthscape {cat.earthscapes[p['earthscape']].name} at {p['at']}"
        if kind == "mark":
            return f"declare {possessive(rules.faction_of[p['gate']].name)} gate the mark"
        if kind == "deploy":
            unit = cat.units[p["unit"]]
            price = "free (merc)" if unit.merc else f"{unit.cost} command"
            role = "hero" if unit.hero else "minion"
            return (f"deploy {with_article(unit.name)}, {role} ({price})"
                    + (", grouped with the minion above" if p["group"] else ""))
        if kind == "equip":
            return f"equip the hero with the {cat.equipment[p['item']].name}"
        if kind == "target":
            unit = next(u for u in state.units if u.hex == p["at"])
            return f"fire at the {cat.units[unit.members[0]].name} at {p['at']}"
        if kind == "attack":
            unit = next(u for u in state.units if u.hex == p["at"])
            return f"the {cat.units[unit.members[0]].name} at {p['at']} attacks {p['target']}"
        return rules.action_text(state, action)

    def step_label(self, key: str) -> str:
        """The buttons before a whole choice (a spire, then its upgrades' order; a unit to
        deploy...) name the catalogue's entries, not their ids."""
        rules, state = self.game_rules, self.match.state
        cat = rules.catalogue
        word, _, rest = key.partition(" ")
        if word == "construct" and rest in cat.spires:
            return f"construct {with_article(cat.spires[rest].name)}"
        if word == "upgrades" and rest.endswith(" (bottom first)"):
            order = rest[:-len(" (bottom first)")]
            return f"upgrades {', '.join(UPGRADE_WORDS.get(u, u) for u in order)} (bottom first)"
        if word == "place" and rest in cat.earthscapes:
            return f"place the earthscape {cat.earthscapes[rest].name}"
        if word == "advance":
            structures = {st.id: st.name for fac in cat.factions for st in fac.structures}
            if rest in structures:
                return f"advance the {structures[rest]}"
        if word == "deploy":
            unit, _, grouped = rest.partition(" ")
            if unit in cat.units:
                return (f"deploy {with_article(cat.units[unit].name)}"
                        + (", grouped with the minion above" if grouped else ""))
        if word == "equip" and rest in cat.equipment:
            return f"equip the {cat.equipment[rest].name}"
        if key.startswith("buy market slot "):
            slot = key[len("buy market slot "):]
            if (re.fullmatch("[0-9]{1,4}", slot) and int(slot) < len(state.market)
                    and state.market[int(slot)]):
                return f"buy {cat.chips[state.market[int(slot)]].name} (market slot {slot})"
        if key.startswith("mark gate "):
            gate = key[len("mark gate "):]
            if re.fullmatch("[0-9]{1,4}", gate) and int(gate) < len(rules.faction_of):
                return f"mark {possessive(rules.faction_of[int(gate)].name)} gate"
        return key

    def key_action(self, path: list[str], choices: list[dict[str, Any]]) -> str:
        """A well says which spires it can take, a spire which upgrades, rather than every
        order of starting upgrades."""
        actions = [c.get("action") or {} for c in choices]
        kinds = {a.get("type") for a in actions}
        if len(path) == 1 and len(choices) > 1 and kinds in ({"construct"}, {"upgrade"}):
            rules, state = self.game_rules, self.match.state
            cat, at = rules.catalogue, path[0][4:]
            if kinds == {"construct"}:
                names = list(dict.fromkeys(with_article(cat.spires[a["spire"]].name)
                                           for a in actions))
                said = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
                return f"construct {said} on the well at {at}"
            spire = next((sp for sp in state.spires if sp.hex == at), None)
            words = list(dict.fromkeys(UPGRADE_WORDS.get(a["kind"], a["kind"])
                                       for a in actions))
            said = f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else words[0]
            name = cat.spires[spire.kind].name if spire is not None else "spire"
            return f"upgrade the {name} at {at}: {said}"
        return super().key_action(path, choices)

    def seat_label(self, seat: int, view: dict) -> str:
        name = view["board"]["factions"][seat]["name"]
        return f"Seat {seat}: {name} (gate {view['sides'][seat]['gate']})"

    def hints(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for action in self.match.legal_actions() if not self.match.is_over else []:
            p = action.params
            if action.type == "construct":
                out[f"hex:{p['at']}"] = f"Construct on the well at {p['at']}: choose the spire."
                out[f"construct {p['spire']}"] = ("Now choose the order of its starting upgrades "
                                                  "(bottom first: the bottom one is lost first).")
            elif action.type == "upgrade":
                out[f"hex:{p['at']}"] = (f"Upgrade the spire at {p['at']}: choose attack, range "
                                         "or fortification.")
            elif action.type == "place":
                out[f"hex:{p['at']}"] = f"Place an earthscape at {p['at']}: choose which."
            elif action.type == "move":
                out[f"hex:{p['at']}"] = "Now click the hex to move the hero to."
            elif action.type == "attack":
                out[f"hex:{p['at']}"] = "Now click what this unit attacks."
        return out

    chance_draws = "a card or die"  # what explain says chance draws (explain_generally)

    def explain(self, path: list[str]) -> str:
        """Why a click plays nothing, in the rules' words where there is a rule to name."""
        return self.explain_generally(path) or self._explain_map(path)

    def _explain_map(self, path: list[str]) -> str:
        """Why hexes clicked (`hex:q,r` keys) play nothing in this phase and stage."""
        match = self.match
        rules, state = self.game_rules, match.state
        keys = [k for k in path if k.startswith("hex:")]
        if not keys:
            return "that button plays nothing now"
        here = keys[-1][4:]
        if any(k[4:] not in rules.hex_index for k in keys):
            bad = next(k[4:] for k in keys if k[4:] not in rules.hex_index)
            return f"there is no hex {bad!r:.30} on the map"
        legal = match.legal_actions()
        firsts = {rules.action_path(state, a)[0] for a in legal}
        if len(keys) > 1 and keys[0] in firsts:
            return (f"{here} cannot be chosen after {keys[0][4:]}: a hero moves within its "
                    "movement to a free hex its terrain allows; a unit attacks an adjacent "
                    "opposing unit, spire, gate or revealed landmark")
        phase, stage = state.phase, state.stage
        if phase in ("market", "prep"):
            return f"the map is not clicked in the {phase} phase: use the buttons"
        if phase == "build" or (phase == "onslaught" and stage == "move" and any(
                a.type in ("construct", "upgrade") for a in legal)):
            return self._explain_build(here)
        if phase == "onslaught" and stage == "move":
            return ("in the move stage click one of your heroes that has not moved, then a "
                    "hex within its movement; minions march with the march button")
        if stage == "fire":
            return (f"the spire at {state.firing[0]} fires only at a unit of the acting "
                    "faction within its range, counted over ground, never across sky"
                    + (" (a unit on a sky hex next to ground in range is in range)"
                       if self.game_rules.new_rulings else ""))
        if stage == "explore":
            return ("only a face-down landmark next to one of your units can be explored, "
                    "once per turn")
        if stage == "attack":
            return ("click one of your units that has not attacked this turn, then an adjacent "
                    "opposing unit, spire, gate or revealed landmark")
        return "nothing can be played there now"

    def _explain_build(self, here: str) -> str:
        rules, state = self.game_rules, self.match.state
        me = state.actor
        spire = next((sp for sp in state.spires if sp.hex == here), None)
        if spire is not None:
            if spire.owner != me:
                return f"the spire at {here} is {possessive(rules.faction_of[spire.owner].name)}"
            cap = rules.catalogue.spires[spire.kind].capacity
            if len(spire.upgrades) >= cap:
                return f"the spire at {here} is full: its capacity is {cap} upgrades"
            return (f"an upgrade on the spire at {here} costs "
                    f"{rules.upgrade_cost(spire, 'A')} Source (fortification "
                    f"{rules.upgrade_cost(spire, 'F')}); you have {state.sides[me].source}")
        # Where a spire may go is the rules' to say (well_problem); the board words it.
        problem = rules.well_problem(state, me, here)
        if problem == "no well":
            return f"a spire is constructed only on a Source well; {here} has none"
        if problem == "taken":
            return f"the well at {here} is taken"
        if problem == "influence":
            return (f"{here} is outside your influence: next to your gate, or on or next to a "
                    "hex group holding one of your spires")
        return "you have no spire you can pay for, or no limited build left this onslaught"
