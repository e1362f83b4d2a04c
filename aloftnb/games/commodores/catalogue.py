"""The sky commodores catalogue: ship types, goals, leviathans, hexes and supplies, as data.

The rules text gives the game's structure but not its cards. Everything a designer may want to
change lives in data/catalogue.json; `load_catalogue` reads that file, a dict or another file and
checks every entry, so a malformed catalogue is refused with a message naming the entry and field
("catalogue: shipyard.cutter.move must be a whole number 0..12, not 'fast'").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.catalogues import GameCatalogue
from ...core.options import DataReader, _short_repr
from ...errors import InvalidOptions

STATS = ("move", "forage", "plunder")
GOAL_KINDS = {
    # kind: (the parameter it takes, what it counts): the engine checks each (rules.goal_met).
    "ships_by_number": ("ships", "ships or more, each next to a hex with the Beacon number "
                        "(drawn at set-up)"),
    "ships": ("count", "ships in the fleet"),
    "explored": ("count", "hexes explored or terraformed in the game"),
    "leviathans_felled": ("count", "leviathans brought to 0 health by your plunder"),
    "trades": ("count", "trades made with a merchant"),
    "ships_plundered": ("count", "times you plundered a rival's ship"),
    "pool_total": ("count", "resources held at once"),
    "ship_types": ("count", "different ship types in the fleet"),
    "upgrades": ("count", "upgrades on your ships"),
    "resources_touched": ("count", "resource kinds among the hexes your ships touch"),
}
MERCHANT = "merchant"


@dataclass(frozen=True)
class Upgrade:
    id: str
    name: str
    cost: tuple[tuple[str, int], ...]
    move: int = 0
    forage: int = 0
    plunder: int = 0
    builds: bool = False

    def effect_text(self) -> str:
        parts = [f"+{getattr(self, s)} {s}" for s in STATS if getattr(self, s)]
        return ", ".join(parts + (["can build"] if self.builds else []))


@dataclass(frozen=True)
class ShipType:
    id: str
    name: str
    deck: str  # "starter", "basic" or "shipyard"
    move: int
    forage: int
    plunder: int
    builds: bool
    cost: tuple[tuple[str, int], ...]
    upgrades: tuple[Upgrade, ...]

    def upgrade(self, upgrade_id: str) -> Upgrade | None:
        return next((u for u in self.upgrades if u.id == upgrade_id), None)


@dataclass(frozen=True)
class Leviathan:
    id: str
    name: str
    reward: str
    health: int
    rewards: tuple[int, ...]  # rewards[p - 1]: resources taken by a ship of plunder value p


@dataclass(frozen=True)
class Goal:
    id: str
    name: str
    kind: str
    amount: int

    def text(self) -> str:
        return f"{self.name}: {self.amount} {GOAL_KINDS[self.kind][1]}"


def _entry(entries: Any, entry_id: Any, what: str) -> Any:
    for entry in entries:
        if entry.id == entry_id:
            return entry
    raise KeyError(f"the catalogue has no {what} {entry_id!r:.40}")


@dataclass(frozen=True)
class Catalogue:
    resources: tuple[str, ...]
    resource_names: tuple[str, ...]
    hexes: tuple[tuple[str, int], ...]  # face-down stack before set-up (centre and ring apart)
    centre: str
    ring: tuple[tuple[str, int], ...]
    number_tokens: tuple[int, ...]  # how many tokens of each number 1..6
    leviathans: tuple[Leviathan, ...]
    leviathans_set_aside: int
    goals_in_play: int
    ship_types_in_play: int
    free_resources: tuple[str, ...]
    pool_cap: int
    ships_per_player: int
    copies_per_type: int
    upgrade_cubes: int
    goals_to_win: int
    starter: ShipType
    basic: ShipType
    shipyard: tuple[ShipType, ...]
    goals: tuple[Goal, ...]

    @property
    def ship_types(self) -> tuple[ShipType, ...]:
        return (self.starter, self.basic, *self.shipyard)

    # KeyError for an unknown id (never StopIteration, which a generator would turn into an
    # early end, and which state readers do not expect).
    def ship_type(self, type_id: str) -> ShipType:
        return _entry(self.ship_types, type_id, "ship type")

    def goal(self, goal_id: str) -> Goal:
        return _entry(self.goals, goal_id, "goal")

    def leviathan(self, leviathan_id: str) -> Leviathan:
        return _entry(self.leviathans, leviathan_id, "leviathan")

    def resource_name(self, resource: str) -> str:
        return self.resource_names[self.resources.index(resource)]

    @property
    def hex_kinds(self) -> tuple[str, ...]:
        """Every kind of hex the stack can hold: merchant, the resources, each leviathan."""
        return (MERCHANT, *self.resources, *(lv.id for lv in self.leviathans))

    @property
    def max_plunder(self) -> int:
        return max(t.plunder + sum(u.plunder for u in t.upgrades) for t in self.ship_types)


def read_catalogue(data: Any) -> Catalogue:
    """The checked catalogue of plain data; InvalidOptions names the entry and field of the
    first problem."""
    return _Reader(data).read()


CATALOGUE = GameCatalogue(__package__, read_catalogue)  # the option (aloftnb/core/catalogues.py)
# The names notebooks and tests import: the shipped data (a fresh copy every call), and loading.
default_catalogue_data = shipped_catalogue_data = CATALOGUE.shipped_data
load_catalogue = CATALOGUE.load


class _Reader(DataReader):
    """Reads a catalogue dict, naming the entry and field of the first problem."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def section(self, data: Any, key: str, where: str = "") -> Any:
        name = f"{where}.{key}" if where else key
        if not isinstance(data, dict) or key not in data:
            raise self.fail(name, "is missing")
        return data[key]

    def table(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict) or not value:
            raise self.fail(where, f"must be a table of entries, not {_short_repr(value)}")
        for key in value:
            if not isinstance(key, str) or not key.isidentifier():
                raise self.fail(where, f"has a bad entry name {_short_repr(key)} (use letters, "
                                "digits and _)")
        # RULING (ours): a table's entries are ordered by name, not as written, so a catalogue
        # saved with sorted keys (as match saves are) loads as the same game.
        return dict(sorted(value.items()))

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > 60:
            raise self.fail(where, f"must be a short text, not {_short_repr(value)}")
        return value

    def resource(self, value: Any, where: str) -> str:
        if value not in self.resources:
            raise self.fail(where, f"must be one of the resources ({', '.join(self.resources)}),"
                                   f" not {_short_repr(value)}")
        return value

    def cost(self, value: Any, where: str) -> tuple[tuple[str, int], ...]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a table of resource: amount, not "
                                   f"{_short_repr(value)}")
        return tuple((self.resource(r, f"{where} key"), self.whole(n, f"{where}.{r}", 1, 20))
                     for r, n in sorted(value.items(), key=lambda kv: str(kv[0])))

    def keys(self, entry: Any, where: str, required: set[str], optional: set[str]) -> None:
        if not isinstance(entry, dict):
            raise self.fail(where, f"must be a table, not {_short_repr(entry)}")
        missing = sorted(required - set(entry))
        if missing:
            raise self.fail(f"{where}.{missing[0]}", "is missing")
        unknown = sorted((set(entry) - required - optional), key=str)
        if unknown:
            raise self.fail(where, f"has an unknown field {_short_repr(unknown[0])} (fields: "
                                   f"{', '.join(sorted(required | optional))})")

    def read(self) -> Catalogue:
        data = self.data
        if not isinstance(data, dict):
            raise InvalidOptions(f"catalogue must be a table, not {_short_repr(data)}")
        self.keys(data, "(top level)", {"resources", "hexes", "centre", "ring", "number_tokens",
                                        "leviathans", "set_up", "supply", "starter", "basic",
                                        "shipyard", "goals"}, {"version"})
        res = self.table(data["resources"], "resources")
        if len(res) > 8:
            raise self.fail("resources", "may list at most 8 kinds")
        self.resources = tuple(res)
        if MERCHANT in self.resources:
            raise self.fail("resources", "may not name a resource 'merchant'")
        names = tuple(self.text(v, f"resources.{k}") for k, v in res.items())

        hexes = self.table(data["hexes"], "hexes")
        hex_counts = []
        for kind, count in hexes.items():
            if kind != MERCHANT:
                self.resource(kind, f"hexes.{kind}")
            hex_counts.append((kind, self.whole(count, f"hexes.{kind}", 0, 40)))
        centre = data["centre"]
        if centre != MERCHANT:
            self.resource(centre, "centre")
        ring_data = data["ring"]
        if not isinstance(ring_data, list) or len(ring_data) != 6:
            raise self.fail("ring", "must list the 6 hexes around the centre, clockwise")
        ring = []
        for i, item in enumerate(ring_data):
            if not isinstance(item, list) or len(item) != 2:
                raise self.fail(f"ring[{i}]", "must be [resource, number]")
            ring.append((self.resource(item[0], f"ring[{i}]"),
                         self.whole(item[1], f"ring[{i}] number", 1, 6)))
        tokens = data["number_tokens"]
        self.keys(tokens, "number_tokens", {str(n) for n in range(1, 7)}, set())
        token_counts = tuple(self.whole(tokens[str(n)], f"number_tokens.{n}", 0, 40)
                             for n in range(1, 7))

        set_up = data["set_up"]
        self.keys(set_up, "set_up", {"leviathans_set_aside", "goals_in_play",
                                     "ship_types_in_play", "free_resources"}, set())
        supply = data["supply"]
        self.keys(supply, "supply", {"pool_cap", "ships_per_player", "copies_per_type",
                                     "upgrade_cubes", "goals_to_win"}, set())
        pool_cap = self.whole(supply["pool_cap"], "supply.pool_cap", 1, 99)
        ships_per_player = self.whole(supply["ships_per_player"], "supply.ships_per_player", 1, 9)

        starter = self.ship(data["starter"], "starter", "starter")
        basic = self.ship(data["basic"], "basic", "basic")
        shipyard_data = self.table(data["shipyard"], "shipyard")
        shipyard = tuple(self.ship(v, f"shipyard.{k}", "shipyard", k)
                         for k, v in shipyard_data.items())
        ids = [starter.id, basic.id] + [t.id for t in shipyard]
        upgrade_ids = [u.id for t in (starter, basic, *shipyard) for u in t.upgrades]
        for u in upgrade_ids:
            if upgrade_ids.count(u) > 1:
                raise self.fail("upgrades", f"name {u!r} is used on two ship types: upgrade "
                                            "names must be unique")
        if len(set(ids)) != len(ids):
            raise self.fail("shipyard", "may not use the names 'starter' or 'basic'")

        lev_data = self.table(data["leviathans"], "leviathans")
        max_plunder = max(t.plunder + sum(u.plunder for u in t.upgrades)
                          for t in (starter, basic, *shipyard))
        leviathans = tuple(self.leviathan(k, v, max_plunder) for k, v in lev_data.items())
        clash = set(lv.id for lv in leviathans) & (set(self.resources) | {MERCHANT})
        if clash:
            raise self.fail(f"leviathans.{sorted(clash)[0]}", "shares its name with a hex kind")

        goal_data = self.table(data["goals"], "goals")
        goals = tuple(self.goal(k, v) for k, v in goal_data.items())

        free = set_up["free_resources"]
        if not isinstance(free, list) or not free:
            raise self.fail("set_up.free_resources", "must list at least one resource")
        free_resources = tuple(self.resource(r, "set_up.free_resources") for r in free)
        return Catalogue(
            resources=self.resources, resource_names=names, hexes=tuple(hex_counts),
            centre=centre, ring=tuple(ring), number_tokens=token_counts, leviathans=leviathans,
            leviathans_set_aside=self.whole(set_up["leviathans_set_aside"],
                                            "set_up.leviathans_set_aside", 0, len(leviathans)),
            goals_in_play=self.whole(set_up["goals_in_play"], "set_up.goals_in_play", 1,
                                     len(goals)),
            ship_types_in_play=self.whole(set_up["ship_types_in_play"],
                                          "set_up.ship_types_in_play", 0, len(shipyard)),
            free_resources=free_resources, pool_cap=pool_cap, ships_per_player=ships_per_player,
            copies_per_type=self.whole(supply["copies_per_type"], "supply.copies_per_type", 0, 20),
            upgrade_cubes=self.whole(supply["upgrade_cubes"], "supply.upgrade_cubes", 0, 200),
            goals_to_win=self.whole(supply["goals_to_win"], "supply.goals_to_win", 1,
                                    len(goals)),
            starter=starter, basic=basic, shipyard=shipyard, goals=goals)

    def ship(self, entry: Any, where: str, deck: str, type_id: str | None = None) -> ShipType:
        required = {"name", "move", "forage", "plunder", "builds", "upgrades"}
        self.keys(entry, where, required | ({"cost"} if deck != "starter" else set()), set())
        builds = entry["builds"]
        if not isinstance(builds, bool):
            raise self.fail(f"{where}.builds", f"must be true or false, not {_short_repr(builds)}")
        upgrades_data = entry["upgrades"]
        if not isinstance(upgrades_data, dict):
            raise self.fail(f"{where}.upgrades", "must be a table of upgrades")
        upgrades = []
        entries = self.table(upgrades_data, f"{where}.upgrades") if upgrades_data else {}
        for uid, u in entries.items():
            at = f"{where}.upgrades.{uid}"
            self.keys(u, at, {"name", "cost"}, {*STATS, "builds"})
            effects = {s: self.whole(u.get(s, 0), f"{at}.{s}", 0, 5) for s in STATS}
            gives_build = u.get("builds", False)
            if not isinstance(gives_build, bool):
                raise self.fail(f"{at}.builds", "must be true or false")
            if not any(effects.values()) and not gives_build:
                raise self.fail(at, "has no effect (give it move, forage, plunder or builds)")
            upgrades.append(Upgrade(uid, self.text(u["name"], f"{at}.name"),
                                    self.cost(u["cost"], f"{at}.cost"), builds=gives_build,
                                    **effects))
        return ShipType(
            id=type_id or deck, name=self.text(entry["name"], f"{where}.name"), deck=deck,
            move=self.whole(entry["move"], f"{where}.move", 0, 12),
            forage=self.whole(entry["forage"], f"{where}.forage", 0, 12),
            plunder=self.whole(entry["plunder"], f"{where}.plunder", 0, 12),
            builds=builds, cost=self.cost(entry.get("cost", {}), f"{where}.cost"),
            upgrades=tuple(upgrades))

    def leviathan(self, lid: str, entry: Any, max_plunder: int) -> Leviathan:
        where = f"leviathans.{lid}"
        self.keys(entry, where, {"name", "reward", "health", "rewards"}, set())
        table = entry["rewards"]
        need = {str(p) for p in range(1, max_plunder + 1)}
        if not isinstance(table, dict):
            raise self.fail(f"{where}.rewards", "must be a table of plunder value: resources")
        missing = sorted(need - set(table))
        if missing:
            raise self.fail(f"{where}.rewards", f"has no entry for plunder value {missing[0]} "
                                                f"(ships reach plunder {max_plunder})")
        allowed = {str(p) for p in range(1, 13)}  # upgrades may raise plunder up to 12
        extra = sorted(set(table) - allowed, key=str)
        if extra:
            raise self.fail(f"{where}.rewards", f"has an entry {_short_repr(extra[0])}; plunder "
                                                "values are 1..12")
        top = max(int(p) for p in table)
        gaps = [p for p in range(1, top + 1) if str(p) not in table]
        if gaps:
            raise self.fail(f"{where}.rewards", f"has no entry for plunder value {gaps[0]}")
        rewards = tuple(self.whole(table[str(p)], f"{where}.rewards.{p}", 0, 99)
                        for p in range(1, top + 1))
        return Leviathan(lid, self.text(entry["name"], f"{where}.name"),
                         self.resource(entry["reward"], f"{where}.reward"),
                         self.whole(entry["health"], f"{where}.health", 1, 20), rewards)

    def goal(self, gid: str, entry: Any) -> Goal:
        where = f"goals.{gid}"
        if not isinstance(entry, dict) or "kind" not in entry:
            raise self.fail(f"{where}.kind", "is missing")
        kind = entry["kind"]
        if not isinstance(kind, str) or kind not in GOAL_KINDS:
            raise self.fail(f"{where}.kind", f"must be one of {', '.join(GOAL_KINDS)}, not "
                                             f"{_short_repr(kind)}")
        param = GOAL_KINDS[kind][0]
        self.keys(entry, where, {"name", "kind", param}, set())
        return Goal(gid, self.text(entry["name"], f"{where}.name"), kind,
                    self.whole(entry[param], f"{where}.{param}", 1, 99))
