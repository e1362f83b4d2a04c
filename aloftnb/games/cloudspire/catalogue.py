"""The Cloudspire catalogue: map, factions, market, events and landmarks, as data.

The rules text gives the waves and phases but no map, factions or numbers: everything a designer
may change lives in data/catalogue.json. `load_catalogue` reads that file, a dict or another file
and checks every entry, so a malformed catalogue is refused with a message naming the entry and
field ("catalogue: factions[0].minions[1].movement must be a whole number 0..6, not 'fast'").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.catalogues import GameCatalogue
from ...core.options import DataReader, _short_repr
from ...kit.hexgrid import hex_grid

TERRAINS = ("land", "sky")  # "land": island hexes only; "sky": flies over sky hexes too
UPGRADES = "ARF"  # attack, range, fortification


@dataclass(frozen=True)
class Level:
    attack: int
    health: int
    movement: int


@dataclass(frozen=True)
class UnitKind:
    """A minion or a hero, of a faction or of the market (merc)."""

    id: str
    name: str
    hero: bool
    merc: bool
    faction: str  # "" for mercs
    cost: int  # command points (faction units); Source at the market (mercs)
    copies: int  # how many a barracks holds (heroes: 1)
    reward: int  # Source for whoever defeats it
    terrain: str
    levels: tuple[Level, ...]  # minions: one level
    from_wave: int = 1  # heroes: the first wave they may be selected


@dataclass(frozen=True)
class SpireKind:
    id: str
    name: str
    merc: bool
    faction: str
    cost: int
    copies: int
    start: str  # starting upgrades, bottom to top
    capacity: int
    reward: int


@dataclass(frozen=True)
class Advancement:
    cost: int
    income: int = 0
    source_cap: int = 0
    command: int = 0
    gate_health: int = 0


@dataclass(frozen=True)
class Structure:
    id: str
    name: str
    advancements: tuple[Advancement, ...]


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    heroes: tuple[str, ...]
    minions: tuple[str, ...]
    spires: tuple[str, ...]
    structures: tuple[Structure, ...]


@dataclass(frozen=True)
class Equipment:
    id: str
    name: str
    attack: int
    health: int
    movement: int


@dataclass(frozen=True)
class Chip:
    """A market chip: a merc minion, hero or spire, or a piece of equipment."""

    id: str
    name: str
    type: str  # "minion", "hero", "spire" or "equipment"
    cost: int
    copies: int


@dataclass(frozen=True)
class Earthscape:
    id: str
    name: str
    well: bool
    copies: int


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    copies: int
    source: int
    command: int
    repair: int


@dataclass(frozen=True)
class LandmarkFace:
    id: str
    name: str
    copies: int
    reveal_source: int
    health: int
    attack: int
    reward: int


@dataclass(frozen=True)
class MapData:
    name: str
    radius: int
    island_of: dict[str, str]  # hex name -> island name
    islands: tuple[str, ...]
    sky: tuple[str, ...]
    wells: tuple[str, ...]
    landmarks: tuple[str, ...]
    earthscape_slots: tuple[str, ...]
    gates: dict[int, tuple[str, ...]]  # factions in play -> gate hexes, seat order
    # Competitive games' own gates, placed so that no seat is favoured, for the counts
    # listed; the rest use `gates`.
    competitive_gates: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameNumbers:
    gate_health: int
    gate_retaliation: int
    source_cap: int
    starting_source: int
    later_seat_source: int  # extra starting Source per place after the first in turn order
    income: tuple[int, ...]
    command: tuple[int, ...]
    step_after_last: int
    limited_builds: int
    earthscape_cost: int
    heroes_in_wave_1: int
    heroes_later: int
    fortification_cost: int
    spire_die: tuple[int, ...]


@dataclass(frozen=True)
class Catalogue:
    numbers: GameNumbers
    map: MapData
    factions: tuple[Faction, ...]
    units: dict[str, UnitKind]
    spires: dict[str, SpireKind]
    equipment: dict[str, Equipment]
    chips: dict[str, Chip]
    earthscapes: dict[str, Earthscape]
    events: dict[str, Event]
    faces: dict[str, LandmarkFace]
    # Difficulty level -> field -> its value for 1, 2 and 3 seats: what the faction the rules
    # play gains at that level in solo and cooperative games (empty: no level changes anything).
    difficulty: dict[str, dict[str, tuple[int, ...]]] = field(default_factory=dict)
    # Mode -> seats -> the faction ids a game fields when the `factions` option is not given
    # (the seats', then the rules' own in solo and cooperative games). Empty: a catalogue
    # written before the field, whose games take its factions in turn and number every one.
    lineups: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)

    def deck(self, entries: dict[str, Any]) -> tuple[str, ...]:
        """A full deck of `entries` (each as many times as its copies), sorted."""
        return tuple(sorted(e.id for e in entries.values() for _ in range(e.copies)))


def read_catalogue(data: Any) -> Catalogue:
    """The checked catalogue of plain data; InvalidOptions names the entry and field of the
    first problem."""
    return _Reader().read(data)


CATALOGUE = GameCatalogue(__package__, read_catalogue)  # the option (aloftnb/core/catalogues.py)
# The names notebooks and tests import: the shipped data (a fresh copy every call), and loading.
default_catalogue_data = shipped_catalogue_data = CATALOGUE.shipped_data
load_catalogue = CATALOGUE.load


# The levels a catalogue may tune, and what a level may give the rules' faction (each a list
# of three numbers, for 1, 2 and 3 seats): docs/rules/cloudspire.md, "Difficulty".
DIFFICULTY_LEVELS = ("easy", "normal", "hard")
LEVEL_FIELDS = ("starting_source", "income", "command", "gate_health")
# The seat counts of each mode, and how many factions play beyond the seats (the rules' own).
MODE_SEATS = {"competitive": ((2, 3, 4), 0), "solo": ((1,), 1), "cooperative": ((2, 3), 1)}


class _Reader(DataReader):
    """Reads a catalogue dict, naming the entry and field of the first problem."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}  # every id -> where it was defined (ids are global)

    def table(self, value: Any, where: str, keys: tuple[str, ...],
              optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a table, not {_short_repr(value)}")
        for key in keys:
            if key not in value:
                raise self.fail(f"{where}.{key}", "is missing")
        extra = sorted(str(k) for k in value if k not in keys + optional)
        if extra:
            raise self.fail(f"{where}.{extra[0]}", f"is not a field here (fields: "
                            f"{', '.join(keys + optional)})")
        return value

    def listing(self, value: Any, where: str, low: int = 0, high: int = 100) -> list[Any]:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise self.fail(where, f"must be a list of {low}..{high} entries, not "
                            f"{_short_repr(value)}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not 1 <= len(value) <= 60:
            raise self.fail(where, f"must be a short text, not {_short_repr(value)}")
        return value

    def ident(self, value: Any, where: str) -> str:
        if (not isinstance(value, str) or not 1 <= len(value) <= 40
                or not value.replace("_", "").isalnum() or not value.isascii()):
            raise self.fail(where, f"must be an id of letters, digits and _, not "
                            f"{_short_repr(value)}")
        if value in self.ids:
            raise self.fail(where, f"repeats the id {value!r} (already used by "
                            f"{self.ids[value]}); ids must be unique")
        self.ids[value] = where
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"must be true or false, not {_short_repr(value)}")
        return value

    def choice(self, value: Any, where: str, choices: tuple[str, ...]) -> str:
        if value not in choices or not isinstance(value, str):
            raise self.fail(where, f"must be one of {', '.join(choices)}, not "
                            f"{_short_repr(value)}")
        return value

    def upgrades(self, value: Any, where: str, low: int) -> str:
        if (not isinstance(value, str) or len(value) < low or len(value) > 8
                or any(c not in UPGRADES for c in value)):
            raise self.fail(where, f"must be {low}..8 upgrade letters (A attack, R range, "
                            f"F fortification), bottom first, not {_short_repr(value)}")
        return value

    # -- sections ------------------------------------------------------------------------------
    def read(self, data: Any) -> Catalogue:
        top = self.table(data, "the catalogue", ("rules", "map", "factions", "market", "events",
                                                 "landmark_faces"), ("difficulty",
                                                                     "lineups"))
        numbers = self.numbers(top["rules"])
        units: dict[str, UnitKind] = {}
        spires: dict[str, SpireKind] = {}
        factions = tuple(self.faction(f, f"factions[{i}]", units, spires) for i, f in
                         enumerate(self.listing(top["factions"], "factions", 1, 8)))
        market = self.table(top["market"], "market", ("chips", "earthscapes"))
        chips: dict[str, Chip] = {}
        equipment: dict[str, Equipment] = {}
        for i, entry in enumerate(self.listing(market["chips"], "market.chips", 0, 40)):
            chip = self.chip(entry, f"market.chips[{i}]", units, spires, equipment)
            chips[chip.id] = chip
        earthscapes = {}
        for i, entry in enumerate(self.listing(market["earthscapes"], "market.earthscapes", 0,
                                               20)):
            where = f"market.earthscapes[{i}]"
            e = self.table(entry, where, ("id", "name", "well", "copies"))
            scape = Earthscape(self.ident(e["id"], f"{where}.id"), self.text(e["name"],
                               f"{where}.name"), self.flag(e["well"], f"{where}.well"),
                               self.whole(e["copies"], f"{where}.copies", 1, 6))
            earthscapes[scape.id] = scape
        events = {}
        for i, entry in enumerate(self.listing(top["events"], "events", 1, 40)):
            where = f"events[{i}]"
            e = self.table(entry, where, ("id", "name", "copies", "source", "command", "repair"))
            event = Event(self.ident(e["id"], f"{where}.id"), self.text(e["name"],
                          f"{where}.name"), self.whole(e["copies"], f"{where}.copies", 1, 6),
                          self.whole(e["source"], f"{where}.source", -10, 10),
                          self.whole(e["command"], f"{where}.command", -5, 5),
                          self.whole(e["repair"], f"{where}.repair", 0, 5))
            events[event.id] = event
        faces = {}
        for i, entry in enumerate(self.listing(top["landmark_faces"], "landmark_faces", 1, 20)):
            where = f"landmark_faces[{i}]"
            e = self.table(entry, where, ("id", "name", "copies", "reveal_source", "health",
                                          "attack", "reward"))
            face = LandmarkFace(self.ident(e["id"], f"{where}.id"),
                                self.text(e["name"], f"{where}.name"),
                                self.whole(e["copies"], f"{where}.copies", 1, 6),
                                self.whole(e["reveal_source"], f"{where}.reveal_source", 0, 10),
                                self.whole(e["health"], f"{where}.health", 0, 20),
                                self.whole(e["attack"], f"{where}.attack", 0, 10),
                                self.whole(e["reward"], f"{where}.reward", 0, 10))
            faces[face.id] = face
        map_data = self.map(top["map"])
        if sum(f.copies for f in faces.values()) < len(map_data.landmarks):
            raise self.fail("landmark_faces", f"needs at least {len(map_data.landmarks)} faces "
                            "(one per landmark on the map)")
        lineups = self.lineups(top.get("lineups", {}), {f.id for f in factions})
        return Catalogue(numbers, map_data, factions, units, spires, equipment, chips,
                         earthscapes, events, faces, self.difficulty(top.get("difficulty", {})),
                         lineups)

    def lineups(self, value: Any, known: set[str]) -> dict[str, dict[int, tuple[str, ...]]]:
        """The default lineups: mode -> seats -> one faction id per faction in play."""
        modes = self.table(value, "lineups", (), tuple(MODE_SEATS))
        read: dict[str, dict[int, tuple[str, ...]]] = {}
        for mode, entry in modes.items():
            counts, extra = MODE_SEATS[mode]
            by_seats = self.table(entry, f"lineups.{mode}", (), tuple(str(c) for c in counts))
            read[mode] = {}
            for seats, ids in by_seats.items():
                where, size = f"lineups.{mode}.{seats}", int(seats) + extra
                if not isinstance(ids, list) or len(ids) != size:
                    whose = " (the seats', then the rules' own)" if extra else ""
                    raise self.fail(where, f"must list {size} faction ids{whose}, not "
                                    f"{_short_repr(ids)}")
                listed = ids
                for i, fid in enumerate(listed):
                    if not isinstance(fid, str) or fid not in known:
                        raise self.fail(f"{where}[{i}]", f"must be a faction id of the catalogue "
                                        f"({', '.join(sorted(known))}), not {_short_repr(fid)}")
                read[mode][int(seats)] = tuple(listed)
        return read

    def difficulty(self, value: Any) -> dict[str, dict[str, tuple[int, ...]]]:
        """The difficulty levels: each names what the rules' faction gains, per seat count."""
        levels = self.table(value, "difficulty", (), DIFFICULTY_LEVELS)
        read = {}
        for level, entry in levels.items():
            where = f"difficulty.{level}"
            fields = self.table(entry, where, (), LEVEL_FIELDS)
            read[level] = {
                key: tuple(self.whole(v, f"{where}.{key}[{i}]", -20, 50) for i, v in
                           enumerate(self.listing(fields[key], f"{where}.{key}", 3, 3)))
                for key in fields}
        return read

    def numbers(self, value: Any) -> GameNumbers:
        keys = ("gate_health", "gate_retaliation", "source_cap", "starting_source",
                "later_seat_source", "income",
                "command", "step_after_last", "limited_builds", "earthscape_cost",
                "heroes_in_wave_1", "heroes_later", "fortification_cost", "spire_die")
        r = self.table(value, "rules", keys)

        def numbers(key: str, low: int, high: int, count: tuple[int, int]) -> tuple[int, ...]:
            items = self.listing(r[key], f"rules.{key}", *count)
            return tuple(self.whole(v, f"rules.{key}[{i}]", low, high)
                         for i, v in enumerate(items))

        return GameNumbers(
            self.whole(r["gate_health"], "rules.gate_health", 1, 50),
            self.whole(r["gate_retaliation"], "rules.gate_retaliation", 0, 5),
            self.whole(r["source_cap"], "rules.source_cap", 1, 99),
            self.whole(r["starting_source"], "rules.starting_source", 0, 99),
            self.whole(r["later_seat_source"], "rules.later_seat_source", 0, 10),
            numbers("income", 0, 50, (1, 12)), numbers("command", 0, 50, (1, 12)),
            self.whole(r["step_after_last"], "rules.step_after_last", 0, 10),
            self.whole(r["limited_builds"], "rules.limited_builds", 0, 5),
            self.whole(r["earthscape_cost"], "rules.earthscape_cost", 1, 20),
            self.whole(r["heroes_in_wave_1"], "rules.heroes_in_wave_1", 0, 4),
            self.whole(r["heroes_later"], "rules.heroes_later", 0, 4),
            self.whole(r["fortification_cost"], "rules.fortification_cost", 1, 20),
            numbers("spire_die", 0, 6, (2, 12)))

    def unit(self, value: Any, where: str, hero: bool, faction: str, merc: bool,
             units: dict[str, UnitKind]) -> UnitKind:
        keys: tuple[str, ...]
        if hero:
            keys = ("id", "name", "cost", "reward", "terrain", "levels")
            e = self.table(value, where, keys + (() if merc else ("from_wave",)),
                           ("type", "copies") if merc else ())
            levels = tuple(
                Level(self.whole(lv.get("attack") if isinstance(lv, dict) else None,
                                 f"{where}.levels[{i}].attack", 0, 20),
                      self.whole(lv.get("health") if isinstance(lv, dict) else None,
                                 f"{where}.levels[{i}].health", 1, 30),
                      self.whole(lv.get("movement") if isinstance(lv, dict) else None,
                                 f"{where}.levels[{i}].movement", 0, 6))
                for i, lv in enumerate(self.listing(e["levels"], f"{where}.levels", 1, 5)))
            copies = 1
        else:
            keys = ("id", "name", "cost", "movement", "health", "attack", "reward", "terrain")
            e = self.table(value, where, keys + (() if merc else ("copies",)),
                           ("type", "copies") if merc else ())
            levels = (Level(self.whole(e["attack"], f"{where}.attack", 0, 20),
                            self.whole(e["health"], f"{where}.health", 1, 30),
                            self.whole(e["movement"], f"{where}.movement", 1, 6)),)
            copies = 1 if merc else self.whole(e["copies"], f"{where}.copies", 1, 8)
        kind = UnitKind(self.ident(e["id"], f"{where}.id"), self.text(e["name"], f"{where}.name"),
                        hero, merc, faction,
                        self.whole(e["cost"], f"{where}.cost", 0 if hero else 1, 20), copies,
                        self.whole(e["reward"], f"{where}.reward", 0, 10),
                        self.choice(e["terrain"], f"{where}.terrain", TERRAINS), levels,
                        self.whole(e["from_wave"], f"{where}.from_wave", 1, 12)
                        if hero and not merc else 1)
        units[kind.id] = kind
        return kind

    def spire(self, value: Any, where: str, faction: str, merc: bool,
              spires: dict[str, SpireKind]) -> SpireKind:
        keys = ("id", "name", "cost", "start", "capacity", "reward")
        e = self.table(value, where, keys + (() if merc else ("copies",)),
                       ("type", "copies") if merc else ())
        capacity = self.whole(e["capacity"], f"{where}.capacity", 1, 8)
        start = self.upgrades(e["start"], f"{where}.start", 1)
        if len(start) > capacity:
            raise self.fail(f"{where}.start", f"has {len(start)} upgrades, more than the "
                            f"capacity {capacity}")
        kind = SpireKind(self.ident(e["id"], f"{where}.id"), self.text(e["name"], f"{where}.name"),
                         merc, faction, self.whole(e["cost"], f"{where}.cost", 1, 20),
                         1 if merc else self.whole(e["copies"], f"{where}.copies", 1, 6),
                         start, capacity, self.whole(e["reward"], f"{where}.reward", 0, 10))
        spires[kind.id] = kind
        return kind

    def faction(self, value: Any, where: str, units: dict[str, UnitKind],
                spires: dict[str, SpireKind]) -> Faction:
        e = self.table(value, where, ("id", "name", "heroes", "minions", "spires", "structures"))
        fid = self.ident(e["id"], f"{where}.id")
        heroes = tuple(self.unit(h, f"{where}.heroes[{i}]", True, fid, False, units).id
                       for i, h in enumerate(self.listing(e["heroes"], f"{where}.heroes", 1, 4)))
        if units[heroes[0]].cost != 0 or units[heroes[0]].from_wave != 1:
            raise self.fail(f"{where}.heroes[0]", "is the starting hero: its cost must be 0 and "
                            "its from_wave 1")
        minions = tuple(self.unit(m, f"{where}.minions[{i}]", False, fid, False, units).id
                        for i, m in enumerate(self.listing(e["minions"], f"{where}.minions",
                                                           1, 8)))
        spire_ids = tuple(self.spire(s, f"{where}.spires[{i}]", fid, False, spires).id
                          for i, s in enumerate(self.listing(e["spires"], f"{where}.spires",
                                                             1, 6)))
        structures = []
        for i, s in enumerate(self.listing(e["structures"], f"{where}.structures", 0, 6)):
            sw = f"{where}.structures[{i}]"
            st = self.table(s, sw, ("id", "name", "advancements"))
            advancements = []
            for j, a in enumerate(self.listing(st["advancements"], f"{sw}.advancements", 1, 5)):
                aw = f"{sw}.advancements[{j}]"
                adv = self.table(a, aw, ("cost",), ("income", "source_cap", "command",
                                                    "gate_health"))
                advancements.append(Advancement(
                    self.whole(adv["cost"], f"{aw}.cost", 1, 20),
                    self.whole(adv.get("income", 0), f"{aw}.income", 0, 10),
                    self.whole(adv.get("source_cap", 0), f"{aw}.source_cap", 0, 20),
                    self.whole(adv.get("command", 0), f"{aw}.command", 0, 10),
                    self.whole(adv.get("gate_health", 0), f"{aw}.gate_health", 0, 10)))
            structures.append(Structure(self.ident(st["id"], f"{sw}.id"),
                                        self.text(st["name"], f"{sw}.name"),
                                        tuple(advancements)))
        return Faction(fid, self.text(e["name"], f"{where}.name"), heroes, minions, spire_ids,
                       tuple(structures))

    def chip(self, value: Any, where: str, units: dict[str, UnitKind],
             spires: dict[str, SpireKind], equipment: dict[str, Equipment]) -> Chip:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a table, not {_short_repr(value)}")
        kind = self.choice(value.get("type"), f"{where}.type",
                           ("minion", "hero", "spire", "equipment"))
        copies = self.whole(value.get("copies"), f"{where}.copies", 1, 6)
        entry: UnitKind | SpireKind | Equipment
        if kind in ("minion", "hero"):
            entry = self.unit(value, where, kind == "hero", "", True, units)
        elif kind == "spire":
            entry = self.spire(value, where, "", True, spires)
        else:
            e = self.table(value, where, ("id", "name", "type", "cost", "copies", "attack",
                                          "health", "movement"))
            gear = Equipment(self.ident(e["id"], f"{where}.id"),
                             self.text(e["name"], f"{where}.name"),
                             self.whole(e["attack"], f"{where}.attack", 0, 5),
                             self.whole(e["health"], f"{where}.health", 0, 10),
                             self.whole(e["movement"], f"{where}.movement", 0, 3))
            equipment[gear.id] = entry = gear
        cost = self.whole(value.get("cost"), f"{where}.cost", 1, 20)
        return Chip(entry.id, entry.name, kind, cost, copies)

    def map(self, value: Any) -> MapData:
        e = self.table(value, "map", ("name", "radius", "islands", "sky", "wells", "landmarks",
                                      "earthscape_slots", "gates"), ("competitive_gates",))
        radius = self.whole(e["radius"], "map.radius", 2, 5)
        names = set(hex_grid(radius).space_index)
        seen: dict[str, str] = {}

        def hexes(items: Any, where: str, low: int = 0, high: int = 100) -> tuple[str, ...]:
            out = []
            for i, h in enumerate(self.listing(items, where, low, high)):
                if not isinstance(h, str) or h not in names:
                    raise self.fail(f"{where}[{i}]", f"must be a hex \"q,r\" within radius "
                                    f"{radius}, not {_short_repr(h)}")
                out.append(h)
            if len(set(out)) != len(out):
                raise self.fail(where, "lists a hex twice")
            return tuple(out)

        islands_table = e["islands"]
        if not isinstance(islands_table, dict) or not islands_table:
            raise self.fail("map.islands", "must be a table of island name -> hexes")
        island_of: dict[str, str] = {}
        for island, members in islands_table.items():
            self.text(island, "map.islands (a name)")
            for h in hexes(members, f"map.islands.{island}", 1):
                if h in island_of:
                    raise self.fail(f"map.islands.{island}", f"claims {h}, already in "
                                    f"{island_of[h]}")
                island_of[h] = island
        sky = hexes(e["sky"], "map.sky")
        for h in sky:
            if h in island_of:
                raise self.fail("map.sky", f"lists {h}, which is on island {island_of[h]}")
            seen[h] = "sky"
        missing = sorted(names - set(island_of) - set(sky))
        if missing:
            raise self.fail("map", f"leaves hex {missing[0]} neither island nor sky (every hex "
                            "within the radius is one or the other)")
        wells = hexes(e["wells"], "map.wells", 1)
        landmarks = hexes(e["landmarks"], "map.landmarks", 0, 8)
        for where, group in (("map.wells", wells), ("map.landmarks", landmarks)):
            for h in group:
                if h not in island_of:
                    raise self.fail(where, f"lists {h}, which is not on an island")
        if set(wells) & set(landmarks):
            raise self.fail("map.landmarks", "puts a landmark on a Source well")
        slots = hexes(e["earthscape_slots"], "map.earthscape_slots")
        for h in slots:
            if h not in sky:
                raise self.fail("map.earthscape_slots", f"lists {h}, which is not a sky hex")
        def gate_lists(where: str, counts: tuple[str, ...]) -> dict[int, tuple[str, ...]]:
            out: dict[int, tuple[str, ...]] = {}
            for count, listed in self.table(e[where], f"map.{where}", (), counts).items():
                gate_hexes = hexes(listed, f"map.{where}.{count}", int(count), int(count))
                for h in gate_hexes:
                    if h not in island_of or h in wells or h in landmarks:
                        raise self.fail(f"map.{where}.{count}", f"puts a gate on {h}, which must "
                                        "be island ground without a well or landmark")
                out[int(count)] = gate_hexes
            return out

        gates = gate_lists("gates", ("1", "2", "3", "4"))
        # Competitive games have 2 to 4 factions in play.
        competitive = (gate_lists("competitive_gates", ("2", "3", "4"))
                       if "competitive_gates" in e else {})
        return MapData(self.text(e["name"], "map.name"), radius, island_of,
                       tuple(islands_table), sky, wells, landmarks, slots, gates, competitive)
