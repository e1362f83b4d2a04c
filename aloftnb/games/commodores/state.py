"""The sky commodores state: an immutable named tuple, its dict form and the checked reader.

Spaces and corners are numbered by the rules' hex grid (aloftnb/kit/hexgrid.py); the dict form
names them ("1,-1" for a space, "1,-1,S" for a corner) so a designer can read and edit it. A ship
is named by its owner's seat and captain number: "0:2" is seat 0's ship with captaining card 2.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import records
from ...core.flow import OVER
from ...core.options import _short_repr, is_whole_number
from ...core.records import record
from .catalogue import MERCHANT

if TYPE_CHECKING:
    from .rules import CommodoresRules

# Where the game is (the state's `step`). Chance steps: nobody decides; an outcome is drawn.
SET_ASIDE, GOAL, GOAL_NUMBER, SHIP_TYPE = "set_aside", "goal", "goal_number", "ship_type"
PLACE, FREE = "place", "free"  # set-up decisions: starter ships, then the free resource
FORAGE, SHIPS, TAKE = "forage", "ships", "take"  # a turn's decisions
DRAW_HEX, DRAW_NUMBER = "draw_hex", "draw_number"  # chance steps inside an exploration
PLACE_HEX = "place_hex"  # rulings 2: the explorer places the hex just drawn (a decision)
CHANCE_STEPS = (SET_ASIDE, GOAL, GOAL_NUMBER, SHIP_TYPE, DRAW_HEX, DRAW_NUMBER)
SETUP_STEPS = (SET_ASIDE, GOAL, GOAL_NUMBER, SHIP_TYPE, PLACE, FREE)
STEPS = (*SETUP_STEPS, FORAGE, SHIPS, TAKE, DRAW_HEX, DRAW_NUMBER, OVER, PLACE_HEX)
TURN_STEPS = (SHIPS, TAKE, DRAW_HEX, DRAW_NUMBER, PLACE_HEX)  # steps while ships act

# Per seat: counts the goals read, then resources gained by source (after the tracker's cap).
TALLIES = ("explored", "trades", "ships_plundered", "leviathans_felled", "foraged", "plundered",
           "from_leviathans", "traded")
EXPLORED, TRADES, SHIPS_PLUNDERED, FELLED, FORAGED, PLUNDERED, FROM_LEVIATHANS, TRADED = range(8)
END_REASONS = ("", "goals", "turn_limit")


@record
class Hex(NamedTuple):
    kind: str  # "merchant", a resource, or a leviathan id
    number: int  # 1..6 on a resource hex; 0 for none
    health: int  # a leviathan's health; 0 otherwise


@record
class Ship(NamedTuple):
    owner: int
    captain: int  # 1..ships_per_player: its captaining card
    kind: str  # ship type id
    corner: int
    upgrades: tuple[str, ...]
    new: bool  # built this turn: it cannot move or act


@record
class CommodoresState(NamedTuple):
    rules: CommodoresRules
    step: str
    player: int  # whose turn it is (in set-up: who places or chooses)
    turn: int  # turns begun since set-up ended (0 during set-up)
    hexes: tuple[Hex | None, ...]  # per space of the sky
    stack: tuple[int, ...]  # face-down hexes per kind (catalogue.hex_kinds order)
    tokens: tuple[int, ...]  # face-down number tokens per number 1..6
    set_aside: tuple[str, ...]  # leviathans removed face down at set-up
    seen: tuple[str, ...]  # leviathans that have been face up (so known not to be set aside)
    goals: tuple[str, ...]  # goals in play
    goal_number: int  # the number the "ships by number" goal drew (0: none)
    ship_types: tuple[str, ...]  # shipyard types in play
    yard: tuple[int, ...]  # cards left of each type in play
    ships: tuple[Ship, ...]
    pools: tuple[tuple[int, ...], ...]  # per seat, per resource
    completed: tuple[tuple[str, ...], ...]  # goals each seat completed, in order
    tallies: tuple[tuple[int, ...], ...]  # per seat: TALLIES
    basic_built: tuple[bool, ...]
    cubes: int  # upgrade cubes left in the supply
    built_any: bool  # someone has built a ship: upgrades are open
    active: int  # index of the ship acting now, -1 for none
    done: tuple[str, ...]  # the acting ship's actions this turn, in order
    acted: tuple[int, ...]  # ships that have finished acting this turn
    fresh: tuple[int, ...]  # spaces explored or terraformed this turn
    target: int  # the space being explored (rulings 2: the space a terraform freed), or the
    # seat being plundered (-1: none)
    left: int  # resources still to take from the plundered seat
    forage_number: int  # the number called this turn (0 before)
    end: str  # END_REASONS
    drawn: str = ""  # rulings 2: the hex kind drawn and waiting to be placed ("" for none)

    def __repr__(self) -> str:
        return f"CommodoresState(step={self.step!r}, player={self.player}, turn={self.turn})"


def ship_name(ship: Ship) -> str:
    return f"{ship.owner}:{ship.captain}"


def state_to_dict(rules: CommodoresRules, s: CommodoresState) -> dict[str, Any]:
    geo, cat = rules.geometry, rules.catalogue
    kinds = cat.hex_kinds
    hexes: dict[str, Any] = {}
    for space, h in enumerate(s.hexes):
        if h is not None:
            entry: dict[str, Any] = {"kind": h.kind}
            if h.kind in cat.resources:
                entry["number"] = h.number
            elif h.kind != MERCHANT:
                entry["health"] = h.health
            hexes[geo.space_name(space)] = entry
    acting = s.ships[s.active] if s.active >= 0 else None
    target: Any = None
    if s.step == DRAW_HEX or s.step == DRAW_NUMBER or s.step == PLACE_HEX:
        target = geo.space_name(s.target) if s.target >= 0 else None
    elif s.step == TAKE:
        target = s.target
    return {
        "step": s.step,
        "player": s.player,
        "turn": s.turn,
        "hexes": hexes,
        "stack": {kind: n for kind, n in zip(kinds, s.stack)},
        "tokens": {str(n + 1): count for n, count in enumerate(s.tokens)},
        "set_aside": list(s.set_aside),
        "seen": list(s.seen),
        "goals": list(s.goals),
        "goal_number": s.goal_number,
        "shipyard": dict(zip(s.ship_types, s.yard)),
        "ships": [{"ship": ship_name(ship), "type": ship.kind,
                   "corner": geo.corner_name(ship.corner), "upgrades": list(ship.upgrades),
                   "new": ship.new} for ship in s.ships],
        "pools": [dict(zip(cat.resources, pool)) for pool in s.pools],
        "completed": [list(c) for c in s.completed],
        "tallies": [dict(zip(TALLIES, t)) for t in s.tallies],
        "basic_built": list(s.basic_built),
        "upgrade_cubes": s.cubes,
        "built_any": s.built_any,
        "acting": ship_name(acting) if acting else None,
        "done": list(s.done),
        "acted": [ship_name(s.ships[i]) for i in s.acted],
        "fresh": [geo.space_name(i) for i in s.fresh],
        "target": target,
        "left": s.left,
        "forage_number": s.forage_number,
        "end": s.end,
        "drawn": s.drawn or None,
        "derived": derived(rules, s),
    }


def derived(rules: CommodoresRules, s: CommodoresState) -> dict[str, Any]:
    """What the rules work out from the state, for drawings and readers (ignored when a dict is
    read back): whose decision it is, the result, the cards' texts and each ship's stats."""
    cat = rules.catalogue
    outcome = rules.outcome(s)
    in_play = [cat.starter, cat.basic] + [rules.types[t] for t in s.ship_types]
    return {
        "radius": rules.geometry.radius,
        "current_player": rules.current_player(s),
        "phase": rules.phase(s),
        "round": rules.round(s),
        "turn_limit": rules.turn_limit,
        "goals_to_win": cat.goals_to_win,
        "result_text": outcome.reason if outcome else None,
        "winners": list(outcome.winners) if outcome else [],
        "resources": dict(zip(cat.resources, cat.resource_names)),
        "ship_types": {t.id: {
            "name": t.name, "deck": t.deck, "move": t.move, "forage": t.forage,
            "plunder": t.plunder, "builds": t.builds, "cost": dict(t.cost),
            "upgrades": {u.id: {"name": u.name, "cost": dict(u.cost), "effect": u.effect_text()}
                         for u in t.upgrades}} for t in in_play},
        "ship_stats": {ship_name(ship): dict(zip(("move", "forage", "plunder", "builds"),
                                                 rules.stats(ship))) for ship in s.ships},
        "goals": {g: cat.goal(g).text() for g in s.goals},
        "leviathans": {lv.id: {"name": lv.name, "reward": lv.reward,
                               "rewards": list(lv.rewards)}
                       for lv in cat.leviathans if lv.id in s.seen},
        "stack_total": sum(s.stack),
    }


KEYS = ("step", "player", "turn", "hexes", "stack", "tokens", "set_aside", "seen", "goals",
        "goal_number", "shipyard", "ships", "pools", "completed", "tallies", "basic_built",
        "upgrade_cubes", "built_any", "acting", "done", "acted", "fresh", "target", "left",
        "forage_number", "end", "drawn")
ACTION_NAMES = ("move", "explore", "upgrade", "build", "plunder", "trade")


class StateReader(records.StateReader):
    """Reads a state dict strictly: every field's type and range, then the game's invariants."""

    rules: CommodoresRules

    def __init__(self, rules: CommodoresRules, data: Any) -> None:
        super().__init__(rules, data)
        self.geo, self.cat = rules.geometry, rules.catalogue

    def whole(self, value: Any, name: str, low: int = 0, high: int = 10**9) -> int:
        # Worded as this game's readers always were ("0..4"), and named fields need both ends.
        if not is_whole_number(value) or not low <= value <= high:
            self.fail(f"{name} must be a whole number {low}..{high}, not {_short_repr(value)}")
        return int(value)

    def flag(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{name} must be true or false, not {_short_repr(value)}")
        return value

    def names(self, value: Any, name: str, allowed: tuple[str, ...] | list[str],
              unique: bool = True) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.fail(f"{name} must be a list, not {_short_repr(value)}")
        for item in value:
            if not isinstance(item, str) or item not in allowed:
                self.fail(f"{name}: {_short_repr(item)} is not one of "
                                f"{', '.join(allowed)}")
        if unique and len(set(value)) != len(value):
            self.fail(f"{name} names something twice")
        return tuple(value)

    def counts(self, value: Any, name: str, keys: tuple[str, ...], high: int) -> tuple[int, ...]:
        if not isinstance(value, dict) or set(value) != set(keys):
            self.fail(f"{name} must be a table with exactly the keys {', '.join(keys)}")
        return tuple(self.whole(value[k], f"{name}.{k}", 0, high) for k in keys)

    def space(self, value: Any, name: str) -> int:
        if not isinstance(value, str) or value not in self.geo.space_index:
            self.fail(f"{name}: {_short_repr(value)} is not a space of the sky (\"q,r\" "
                            f"within {self.geo.radius} of the centre)")
        return self.geo.space_index[value]

    def corner(self, value: Any, name: str) -> int:
        if not isinstance(value, str) or value not in self.geo.corner_index:
            self.fail(f"{name}: {_short_repr(value)} is not a corner of the sky "
                            "(\"q,r,N\" or \"q,r,S\")")
        return self.geo.corner_index[value]

    def read(self) -> CommodoresState:
        rules, cat, geo, data = self.rules, self.cat, self.geo, self.data
        n = rules.players
        if not isinstance(data, dict):
            self.fail(f"a state must be a dict, not {type(data).__name__}")
        data = {k: v for k, v in data.items() if k != "derived"}  # worked out, not read
        self.data = data
        self.check_keys("a state", KEYS, KEYS, list_keys=True, in_order=True)
        step = data["step"]
        if step not in STEPS:
            self.fail(f"step must be one of {', '.join(STEPS)}, not {_short_repr(step)}")
        player = self.whole(data["player"], "player", 0, n - 1)
        turn = self.whole(data["turn"], "turn", 0, rules.turn_limit * n)

        hexes: list[Hex | None] = [None] * len(geo.spaces)
        if not isinstance(data["hexes"], dict):
            self.fail("hexes must be a table of space: hex")
        kinds = cat.hex_kinds
        for name, entry in data["hexes"].items():
            space = self.space(name, "hexes")
            where = f"hexes[{name!r}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str) or \
                    entry["kind"] not in kinds:
                self.fail(f"{where} must be {{'kind': one of {', '.join(kinds)}, ...}}")
            kind = entry["kind"]
            extra = ("number",) if kind in cat.resources else (
                () if kind == MERCHANT else ("health",))
            if set(entry) != {"kind", *extra}:
                self.fail(f"{where}: a {kind} hex has the keys "
                                f"{', '.join(('kind', *extra))}")
            number = self.whole(entry["number"], f"{where}.number", 0, 6) if extra == (
                "number",) else 0
            health = self.whole(entry["health"], f"{where}.health", 0,
                                cat.leviathan(kind).health) if extra == ("health",) else 0
            hexes[space] = Hex(kind, number, health)
        if hexes[0] is None:
            self.fail("the centre space 0,0 must hold a hex (the map grows from it)")
        stack = self.counts(data["stack"], "stack", kinds, 99)
        tokens = self.counts(data["tokens"], "tokens", tuple(str(i) for i in range(1, 7)), 99)
        lev_ids = tuple(lv.id for lv in cat.leviathans)
        set_aside = self.names(data["set_aside"], "set_aside", lev_ids)
        seen = self.names(data["seen"], "seen", lev_ids)
        goals = self.names(data["goals"], "goals", [g.id for g in cat.goals])
        goal_number = self.whole(data["goal_number"], "goal_number", 0, 6)
        shipyard = data["shipyard"]
        yard_ids = [t.id for t in cat.shipyard]
        if not isinstance(shipyard, dict):
            self.fail("shipyard must be a table of ship type: cards left")
        named = self.names(list(shipyard), "shipyard", yard_ids)
        ship_types = tuple(t for t in yard_ids if t in named)  # catalogue order, as apply keeps
        yard = tuple(self.whole(shipyard[t], f"shipyard.{t}", 0, cat.copies_per_type)
                     for t in ship_types)

        ships = self.read_ships(data["ships"])
        if not isinstance(data["pools"], list) or len(data["pools"]) != n:
            self.fail(f"pools must list {n} pools, one per seat")
        pools = tuple(self.counts(p, f"pools[{i}]", cat.resources, cat.pool_cap)
                      for i, p in enumerate(data["pools"]))
        if not isinstance(data["completed"], list) or len(data["completed"]) != n:
            self.fail(f"completed must list {n} lists of goals, one per seat")
        completed = tuple(self.names(c, f"completed[{i}]", goals)
                          for i, c in enumerate(data["completed"]))
        if not isinstance(data["tallies"], list) or len(data["tallies"]) != n:
            self.fail(f"tallies must list {n} tables, one per seat")
        tallies = tuple(self.counts(t, f"tallies[{i}]", TALLIES, 10**6)
                        for i, t in enumerate(data["tallies"]))
        if not isinstance(data["basic_built"], list) or len(data["basic_built"]) != n:
            self.fail(f"basic_built must list {n} flags")
        basic_built = tuple(self.flag(b, f"basic_built[{i}]")
                            for i, b in enumerate(data["basic_built"]))
        cubes = self.whole(data["upgrade_cubes"], "upgrade_cubes", 0, cat.upgrade_cubes)
        built_any = self.flag(data["built_any"], "built_any")

        by_name = {ship_name(ship): i for i, ship in enumerate(ships)}
        acting = data["acting"]
        if acting is not None and (not isinstance(acting, str) or acting not in by_name):
            self.fail(f"acting must name a ship (\"seat:captain\") or be null, not "
                            f"{_short_repr(acting)}")
        active = -1 if acting is None else by_name[acting]
        done = self.names(data["done"], "done", ACTION_NAMES)
        acted = tuple(by_name[name] for name in self.names(data["acted"], "acted",
                                                           list(by_name)))
        fresh = tuple(self.space(v, "fresh") for v in self.names(
            data["fresh"], "fresh", list(geo.space_index)))
        target, left = -1, self.whole(data["left"], "left", 0, cat.max_plunder)
        if step == DRAW_NUMBER or (step == DRAW_HEX and rules.rulings < 2):
            target = self.space(data["target"], "target")
        elif step in (DRAW_HEX, PLACE_HEX):  # rulings 2: the space a terraform freed, if any
            target = -1 if data["target"] is None else self.space(data["target"], "target")
        elif step == TAKE:
            target = self.whole(data["target"], "target", 0, n - 1)
        elif data["target"] is not None:
            self.fail(f"target must be null at the {step} step")
        forage_number = self.whole(data["forage_number"], "forage_number", 0, 6)
        end = data["end"]
        if end not in END_REASONS:
            self.fail(f"end must be one of {END_REASONS}, not {_short_repr(end)}")
        drawn = data["drawn"]
        if drawn is not None and drawn not in kinds:
            self.fail(f"drawn must be null or one of {', '.join(kinds)}, not "
                            f"{_short_repr(drawn)}")
        state = CommodoresState(
            rules, step, player, turn, tuple(hexes), stack, tokens, set_aside, seen, goals,
            goal_number, ship_types, yard, ships, pools, completed, tallies, basic_built, cubes,
            built_any, active, done, acted, fresh, target, left, forage_number, end, drawn or "")
        rules.check_state(state)
        return state

    def read_ships(self, value: Any) -> tuple[Ship, ...]:
        cat, n = self.cat, self.rules.players
        if not isinstance(value, list):
            self.fail("ships must be a list")
        type_ids = [t.id for t in cat.ship_types]
        ships = []
        for i, entry in enumerate(value):
            where = f"ships[{i}]"
            keys = {"ship", "type", "corner", "upgrades", "new"}
            if not isinstance(entry, dict) or set(entry) != keys:
                self.fail(f"{where} must be a table with the keys {', '.join(sorted(keys))}")
            name = entry["ship"]
            parts = name.split(":") if isinstance(name, str) else []
            # ASCII digits only: int() also reads '٣' and would fail on '¹' or 5,000 digits
            if len(parts) != 2 or not all(re.fullmatch("[0-9]{1,4}", p) for p in parts):
                self.fail(f"{where}.ship must be \"seat:captain\", not {_short_repr(name)}")
            owner = self.whole(int(parts[0]), f"{where} seat", 0, n - 1)
            captain = self.whole(int(parts[1]), f"{where} captain", 1, cat.ships_per_player)
            kind = entry["type"]
            if kind not in type_ids:
                self.fail(f"{where}.type must be one of {', '.join(type_ids)}, not "
                                f"{_short_repr(kind)}")
            card = cat.ship_type(kind)
            upgrades = self.names(entry["upgrades"], f"{where}.upgrades",
                                  [u.id for u in card.upgrades])
            ships.append(Ship(owner, captain, kind, self.corner(entry["corner"],
                                                                f"{where}.corner"),
                              upgrades, self.flag(entry["new"], f"{where}.new")))
        return tuple(ships)
