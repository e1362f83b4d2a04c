"""Aloft, sky commodores: the rules of the 3X hex game whose map grows as players explore.

Rulings where the text is silent or unclear are marked RULING and listed, each with its test, in
docs/rules/commodores.md. The cards (ship types, goals, leviathans) are data: catalogue.py reads
data/catalogue.json or a designer's own catalogue. The state and its dict form are in state.py,
the sky's hex grid is aloftnb/kit/hexgrid.py's.

Randomness is drawn when it happens, through protocol v2's chance steps: the leviathans set aside,
the goals and ship types in play and the goal's number at set-up; the hex and the number token
drawn by each exploration. The face-down stacks hold counts, not an order: a draw picks a kind
with probability in proportion to what is left, as drawing the top of a shuffled stack does. The
only hidden information is which leviathans were set aside; bots determinize it.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from typing import Any, ClassVar

from ...core.action import Action
from ...core.chance import CHANCE
from ...core.options import Option, _short_repr, int_between
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...core.words import with_article
from ...errors import IllegalAction, InvalidOptions, InvalidState
from ...kit.hexgrid import DIRECTIONS, hex_grid
from .catalogue import MERCHANT, Catalogue, ShipType, load_catalogue, shipped_catalogue_data
from .state import (
    CHANCE_STEPS,
    DRAW_HEX,
    DRAW_NUMBER,
    EXPLORED,
    FELLED,
    FORAGE,
    FORAGED,
    FREE,
    FROM_LEVIATHANS,
    GOAL,
    GOAL_NUMBER,
    OVER,
    PLACE,
    PLACE_HEX,
    PLUNDERED,
    SET_ASIDE,
    SETUP_STEPS,
    SHIP_TYPE,
    SHIPS,
    SHIPS_PLUNDERED,
    TAKE,
    TALLIES,
    TRADED,
    TRADES,
    TURN_STEPS,
    CommodoresState,
    Hex,
    Ship,
    StateReader,
    ship_name,
    state_to_dict,
)

CHANCE_TYPES = ("set_aside", "goal", "goal_number", "ship_type", "hex", "number")
DECISION_TYPES = ("place", "free", "forage", "ship", "move", "explore", "terraform", "upgrade",
                  "build", "plunder", "take", "trade", "end_ship", "end_turn", "place_hex")
SHIP_ACTION_TYPES = ("move", "explore", "terraform", "upgrade", "build", "plunder", "trade",
                     "end_ship")
# Which of the text's six actions each action type is (explore and terraform are one action).
ACTION_OF = {"move": "move", "explore": "explore", "terraform": "explore", "upgrade": "upgrade",
             "build": "build", "plunder": "plunder", "trade": "trade"}


class CommodoresAction(Action):
    __slots__ = ()

    def __str__(self) -> str:
        p = self._params
        texts = {
            "set_aside": lambda: f"set aside leviathan {p.get('leviathan')}",
            "goal": lambda: f"goal {p.get('goal')} in play",
            "goal_number": lambda: f"goal number {p.get('number')}",
            "ship_type": lambda: f"ship type {p.get('ship')} in the shipyard",
            "hex": lambda: f"drew a {p.get('kind')} hex",
            "number": lambda: f"drew number {p.get('number')}",
            "place": lambda: f"place the starter at {p.get('corner')}",
            "free": lambda: f"take a free {p.get('resource')}",
            "forage": lambda: f"forage on {p.get('number')}",
            "ship": lambda: f"ship {p.get('captain')} acts",
            "move": lambda: f"move to {p.get('to')}",
            "explore": lambda: (f"explore {p.get('space')} paying {p.get('pay')}" if "space" in p
                                else f"explore paying {p.get('pay')}"),
            "place_hex": lambda: f"place the drawn hex at {p.get('space')}",
            "terraform": lambda: f"terraform {p.get('space')} paying {p.get('pay')}",
            "upgrade": lambda: f"upgrade: {p.get('upgrade')}",
            "build": lambda: f"build a {p.get('ship')} at {p.get('at')}",
            "plunder": lambda: f"plunder {p.get('target')}",
            "take": lambda: f"take {p.get('resource')}",
            "trade": lambda: f"trade 2 {p.get('give')} for 1 {p.get('get')}",
            "end_ship": lambda: "end this ship's actions",
            "end_turn": lambda: "end the turn",
        }
        text = texts.get(self.type)
        return text() if text else super().__str__()


def A(action_type: str, **params: Any) -> CommodoresAction:
    return CommodoresAction(action_type, **params)


_CACHE: dict[tuple[Any, ...], CommodoresAction] = {}


def cached(action_type: str, **params: Any) -> CommodoresAction:
    """The same action object every time (actions are immutable): legal_actions builds many."""
    key = (action_type, *params.items())
    action = _CACHE.get(key)
    if action is None:
        if len(_CACHE) > 100_000:
            _CACHE.clear()
        action = _CACHE[key] = CommodoresAction(action_type, **params)
    return action


def _rebuild_rules(cls: type[CommodoresRules], players: int, options: dict[str, Any]
                   ) -> CommodoresRules:
    return cls(players, **options)


class CommodoresRules(Rules[CommodoresState, CommodoresAction]):
    name = "commodores"
    title = "Aloft, sky commodores"
    summary = ("Explore a growing sky of hexes, forage, fight leviathans and plunder rivals; "
               "the first commodore to complete three goals wins.")
    traits = Traits(player_counts=(2, 3, 4, 5), chance="explicit", information="imperfect",
                    utility="win_loss")
    phases = ("setup", "forage", "ships")
    phase_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "setup": ("set_aside", "goal", "goal_number", "ship_type", "place", "free"),
        "forage": ("forage",),
        "ships": ("ship", "move", "explore", "terraform", "upgrade", "build", "plunder", "take",
                  "trade", "end_ship", "end_turn", "hex", "number", "place_hex"),
    }
    encoding = "aloftnb.games.commodores.encoding"  # the adapters' numbering (encoding.py)
    action_class = CommodoresAction
    action_types = CHANCE_TYPES + DECISION_TYPES
    derived_keys = ("derived",)  # worked out from the rest; Match.edit drops it
    state_form = 2  # 2: "drawn" (the hex waiting to be placed, rulings 2) joined the dict
    option_spec: ClassVar[dict[str, Option]] = {
        "catalogue": Option("catalogue", None, "ship types, goals, leviathans, hexes and "
                            "supplies: a dict or a JSON file path",
                            default_note="data/catalogue.json, shipped with the game",
                            from_file=True),
        "turn_limit": Option("turn_limit", 40, "rounds after which the game stops (most goals "
                             "wins; nobody if nobody has a goal)", check=int_between(1, 500)),
        "radius": Option("radius", 4, "how far from the centre hexes may be placed (the table's "
                         "edge)", check=int_between(2, 8)),
        "two_players": Option("two_players", False, "allow a 2-player game (the text says 3-5)",
                              choices=(False, True)),
        # Rule changes after saves were written: 1 = the rulings as first published (saves
        # written before this option replay with them), 2 = the current rulings (the rules page
        # lists what changed).
        "rulings": Option("rulings", 2, "which rulings apply: 2 the current ones, 1 those "
                          "before issue 19 (saves written before the option load with 1)",
                          choices=(1, 2), older_saves=1),
    }

    @classmethod
    def player_counts(cls) -> str:
        """The text's 3-5; two players only with the designer's option."""
        return "3-5 (2 with two_players=True)"

    # -- configuration -------------------------------------------------------------------------
    def options_for_save(self) -> dict[str, Any]:
        """Saves hold the catalogue's data even when it is the shipped one, so that tuning the
        shipped numbers later changes no saved game."""
        return {**copy.deepcopy(self.options), "catalogue": copy.deepcopy(self.catalogue_data)}

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        opts = self.options
        source = opts["catalogue"]
        self.catalogue: Catalogue
        self.catalogue, data = load_catalogue(source)
        self.catalogue_data = data
        if source is not None:
            # RULING: a match keeps the file's contents, so saves load; for a dict or a Path as
            # well, a JSON copy (the save then records the catalogue the match was made with)
            # The shipped data given as a dict (every save holds it) is the shipped catalogue.
            opts["catalogue"] = None if data == shipped_catalogue_data() else data
        low = 2 if opts["two_players"] else 3
        if not low <= self.players <= 5:
            extra = "" if low == 2 else " (2 with the option two_players=True)"
            raise InvalidOptions(f"sky commodores is for 3-5 players{extra}, not {self.players}")
        cat = self.catalogue
        if self.players > 6:
            raise InvalidOptions("the merchant hex has 6 corners: at most 6 starters")
        self.turn_limit = opts["turn_limit"]
        self.rulings = opts["rulings"]
        # RULING: the sky has an edge: spaces lie within `radius` steps of the centre.
        self.geometry = geo = hex_grid(opts["radius"])
        self.kinds = cat.hex_kinds
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.resources = cat.resources
        self.res_index = {r: i for i, r in enumerate(self.resources)}
        self.leviathan_ids = tuple(lv.id for lv in cat.leviathans)
        self.types = {t.id: t for t in cat.ship_types}
        self.goal_cards = {g.id: g for g in cat.goals}
        self._goal_tests = {g.id: self._goal_test(g.kind, g.amount) for g in cat.goals}
        self._goal_order = {g.id: i for i, g in enumerate(cat.goals)}
        self._stats: dict[tuple[str, tuple[str, ...]], tuple[int, int, int, bool]] = {}
        # The stack before set-up: every hex but the centre and the ring.
        stack = dict.fromkeys(self.kinds, 0)
        for kind, count in cat.hexes:
            stack[kind] += count
        for lv in self.leviathan_ids:
            stack[lv] += 1
        for kind in [cat.centre] + [kind for kind, _ in cat.ring]:
            stack[kind] -= 1
            if stack[kind] < 0:
                raise InvalidOptions(f"catalogue: hexes has too few {kind} hexes for the centre "
                                     "and the ring")
        self.start_stack = tuple(stack[k] for k in self.kinds)
        tokens = list(cat.number_tokens)
        for _, number in cat.ring:
            tokens[number - 1] -= 1
            if tokens[number - 1] < 0:
                raise InvalidOptions(f"catalogue: number_tokens has too few {number}s for the "
                                     "ring")
        self.start_tokens = tuple(tokens)
        self.ring_spaces = tuple(geo.space_index[f"{dq},{dr}"] for dq, dr in DIRECTIONS)
        # Action tables, built once: the enumeration is stable.
        self._forage = [A("forage", number=n) for n in range(1, 7)]
        self._end_ship, self._end_turn = A("end_ship"), A("end_turn")
        self._build_tables()
        self._handlers = {kind: getattr(self, f"_apply_{kind}") for kind in self.action_types}
        self._max_length = self._compute_max_length()

    def _build_tables(self) -> None:
        """Lookups the hot paths (legal actions, apply, goal checks) index instead of building
        names, actions and costs step after step; they depend only on the map's geometry and the
        catalogue."""
        geo, cat, res = self.geometry, self.catalogue, self.resources
        space_names = [geo.space_name(sp) for sp in range(len(geo.spaces))]
        corner_names = [geo.corner_name(c) for c in range(len(geo.corners))]
        self._corner_names = corner_names
        # Each edge with the two spaces either side; a side outside the sky (-1) is replaced by
        # the other side, so "either side holds a hex" needs no bounds test.
        self._corner_links = tuple(
            tuple((other, a if a >= 0 else b, b if b >= 0 else a) for other, (a, b) in links)
            for links in geo.corner_edges)
        self._move_to = tuple(cached("move", to=name) for name in corner_names)
        self._explore_paying = tuple(tuple(cached("explore", space=name, pay=r) for r in res)
                                     for name in space_names)
        self._explore_pay = tuple(cached("explore", pay=r) for r in res)  # rulings 2
        self._place_hex = tuple(cached("place_hex", space=name) for name in space_names)
        self._terraform_paying = tuple(tuple(cached("terraform", space=name, pay=r) for r in res)
                                       for name in space_names)
        self._plunder_space = tuple(cached("plunder", target=name) for name in space_names)
        self._trades_giving = tuple(tuple(cached("trade", give=give, get=get) for get in res
                                          if get != give) for give in res)
        self._take = tuple(cached("take", resource=r) for r in res)
        self._hex_drawn = tuple(cached("hex", kind=k) for k in self.kinds)
        self._number_drawn = {kind: tuple(cached(kind, number=i + 1) for i in range(6))
                              for kind in ("goal_number", "number")}
        captains = range(1, cat.ships_per_player + 1)
        self._pick_ship = {k: cached("ship", captain=k) for k in captains}
        self._plunder_ship = {(seat, k): cached("plunder", target=f"{seat}:{k}")
                              for seat in range(self.players) for k in captains}
        self._build_at = {t.id: tuple(cached("build", ship=t.id, at=name) for name in corner_names)
                          for t in cat.ship_types}
        self._last_goal_check: tuple[tuple[Any, ...], tuple[str, ...]] = ((), ())
        self._upgrade_to = {u.id: cached("upgrade", upgrade=u.id)
                            for t in cat.ship_types for u in t.upgrades}
        self._leviathans = frozenset(self.leviathan_ids)
        self._resource_kinds = frozenset(res)
        self._costs = {t.id: tuple((self.res_index[r], n) for r, n in t.cost)
                       for t in cat.ship_types}
        self._upgrade_costs = {(t.id, u.id): tuple((self.res_index[r], n) for r, n in u.cost)
                               for t in cat.ship_types for u in t.upgrades}

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its players and options: its tables hold functions that do not pickle.
        return (_rebuild_rules, (type(self), self.players, dict(self.options)))

    def max_length(self) -> int:
        """Set-up steps plus, per turn, the most steps a turn can take (see the rules page)."""
        return self._max_length

    def _compute_max_length(self) -> int:
        cat = self.catalogue
        setup = (cat.leviathans_set_aside + cat.goals_in_play + 1 + cat.ship_types_in_play
                 + 2 * self.players)
        ships = cat.ships_per_player
        best_reward = max((max(lv.rewards) for lv in cat.leviathans), default=0)
        # Explorations: each pays a resource, so they are bounded by what a seat can hold plus
        # what it gains within the turn; drawing a leviathan repays its cost, at most once per
        # leviathan in the game plus once per ship that can fell one this turn.
        explores = (len(self.resources) * cat.pool_cap + ships * (best_reward + cat.max_plunder)
                    + len(self.leviathan_ids) + ships)
        per_ship = 8 + cat.max_plunder  # pick, move, upgrade, build, plunder+takes, trade, end
        # forage, end turn; per exploration the decision and two draws (and, under rulings 2,
        # placing the hex drawn)
        per_turn = 2 + ships * per_ship + (3 if self.rulings < 2 else 4) * explores
        return setup + self.turn_limit * self.players * per_turn

    # -- ship stats ----------------------------------------------------------------------------
    def stats(self, ship: Ship) -> tuple[int, int, int, bool]:
        """(move, forage, plunder, builds) of a ship with its upgrades."""
        key = (ship.kind, ship.upgrades)
        found = self._stats.get(key)
        if found is None:
            card = self.types[ship.kind]
            ups = [card.upgrade(u) for u in ship.upgrades]
            found = (card.move + sum(u.move for u in ups if u),
                     card.forage + sum(u.forage for u in ups if u),
                     card.plunder + sum(u.plunder for u in ups if u),
                     card.builds or any(u.builds for u in ups if u))
            self._stats[key] = found
        return found

    # -- the game ------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> CommodoresState:
        """The centre and the ring in place; set-up continues with chance steps (the seed is
        not used: every draw is a chance step the match resolves from its own seed)."""
        cat, geo = self.catalogue, self.geometry
        hexes: list[Hex | None] = [None] * len(geo.spaces)
        hexes[0] = self._new_hex(cat.centre, 0)
        for space, (kind, number) in zip(self.ring_spaces, cat.ring):
            hexes[space] = Hex(kind, number, 0)  # RULING: tokens 1-6 go clockwise from the NE
        n = self.players
        state = CommodoresState(
            self, SET_ASIDE, 0, 0, tuple(hexes), self.start_stack, self.start_tokens, (), (), (),
            0, (), (), (), ((0,) * len(self.resources),) * n, ((),) * n, ((0,) * len(TALLIES),) * n,
            (False,) * n, cat.upgrade_cubes, False, -1, (), (), (), -1, 0, 0, "")
        return self._next_setup_step(state)

    def _new_hex(self, kind: str, number: int) -> Hex:
        if kind in self.leviathan_ids:
            return Hex(kind, 0, self.catalogue.leviathan(kind).health)
        return Hex(kind, number, 0)

    def _next_setup_step(self, s: CommodoresState) -> CommodoresState:
        """Skip set-up steps that have nothing left to do."""
        cat = self.catalogue
        if s.step == SET_ASIDE and len(s.set_aside) >= cat.leviathans_set_aside:
            s = s._replace(step=GOAL)
        if s.step == GOAL and len(s.goals) >= cat.goals_in_play:
            s = s._replace(step=GOAL_NUMBER)
        if s.step == GOAL_NUMBER and (s.goal_number or not any(
                self.goal_cards[g].kind == "ships_by_number" for g in s.goals)
                or not any(s.tokens)):
            s = s._replace(step=SHIP_TYPE)
        if s.step == SHIP_TYPE and len(s.ship_types) >= cat.ship_types_in_play:
            s = s._replace(step=PLACE, player=0)
        return s

    def current_player(self, s: CommodoresState) -> int | None:
        if s.step == OVER:
            return None
        return CHANCE if s.step in CHANCE_STEPS else s.player

    def is_over(self, s: CommodoresState) -> bool:
        return s.step == OVER

    def phase(self, s: CommodoresState) -> str:
        if s.step in SETUP_STEPS:
            return "setup"
        return "forage" if s.step == FORAGE else "ships"

    def round(self, s: CommodoresState) -> int:
        return min(s.turn // self.players + 1, self.turn_limit)

    # -- what a ship touches -------------------------------------------------------------------
    def occupied(self, s: CommodoresState) -> set[int]:
        return {ship.corner for ship in s.ships}

    def edges(self, s: CommodoresState, corner: int) -> list[int]:
        """Corners one edge away, along edges of hexes on the map (RULING: ships fly along the
        sides of placed hexes only)."""
        hexes = s.hexes
        return [other for other, a, b in self._corner_links[corner]
                if hexes[a] is not None or hexes[b] is not None]

    def touching(self, s: CommodoresState, corner: int) -> list[int]:
        """Spaces with a hex that meet at this corner."""
        hexes = s.hexes
        return [sp for sp in self.geometry.corner_spaces[corner] if hexes[sp] is not None]

    def destinations(self, s: CommodoresState, ship: Ship) -> list[int]:
        """Where a ship may move: empty corners within its move value (moving through ships),
        or, when there are none, the nearest empty corners (RULING below)."""
        move = self.stats(ship)[0]
        if move <= 0:
            return []
        taken = self.occupied(s)
        hexes, links = s.hexes, self._corner_links
        distance = {ship.corner: 0}
        frontier = deque([ship.corner])
        reachable: list[int] = []
        while frontier:
            corner = frontier.popleft()
            d = distance[corner] + 1
            if d > move and reachable:
                break  # breadth first: everything within the move value is found
            for other, a, b in links[corner]:  # self.edges, inlined: the hottest loop
                if other not in distance and (hexes[a] is not None or hexes[b] is not None):
                    distance[other] = d
                    frontier.append(other)
                    if d <= move and other not in taken:
                        reachable.append(other)
        if reachable:
            return sorted(reachable)
        empty = [(d, c) for c, d in distance.items() if d > 0 and c not in taken]
        if not empty:
            return []
        # RULING: a ship with no empty corner within its move may fly to the nearest empty
        # corner (the text's "nearest open space"), counting steps along edges.
        nearest = min(d for d, _ in empty)
        return sorted(c for d, c in empty if d == nearest)

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, s: CommodoresState) -> list[CommodoresAction]:
        step = s.step
        if step == OVER:
            return []
        if step in CHANCE_STEPS:
            return [outcome for outcome, _ in self.chance_outcomes(s)]
        if step == PLACE:
            taken = self.occupied(s)
            return [A("place", corner=self.geometry.corner_name(c))
                    for c in self.geometry.space_corners[0] if c not in taken]
        if step == FREE:
            return [A("free", resource=r) for r in self.catalogue.free_resources]
        if step == FORAGE:
            return list(self._forage)
        if step == TAKE:
            return [take for take, n in zip(self._take, s.pools[s.target]) if n > 0]
        if step == PLACE_HEX:
            place = self._place_hex
            return [place[space] for space in self.placements(s)]
        if s.active < 0:
            player, acted = s.player, s.acted
            pick = self._pick_ship
            ships = [pick[ship.captain] for i, ship in enumerate(s.ships)
                     if ship.owner == player and not ship.new and i not in acted]
            ships.append(self._end_turn)
            return ships
        out = self._ship_actions(s)
        out.append(self._end_ship)
        return out

    def _ship_actions(self, s: CommodoresState) -> list[CommodoresAction]:
        ship = s.ships[s.active]
        move, _forage, plunder, builds = self.stats(ship)
        done = s.done
        pool = s.pools[s.player]
        hexes = s.hexes
        spaces = self.geometry.corner_spaces[ship.corner]
        paying = [i for i, n in enumerate(pool) if n > 0]
        out: list[CommodoresAction] = []
        if "move" not in done:
            move_to = self._move_to
            out += [move_to[c] for c in self.destinations(s, ship)]
        # RULING: repeated explorations follow each other; another action closes exploring.
        if paying and ("explore" not in done or done[-1] == "explore"):
            stack_left = sum(s.stack) > 0
            reveal_first = self.rulings >= 2
            if reveal_first and stack_left and any(hexes[sp] is None for sp in spaces):
                # RULING (rulings 2): the hex is drawn first, then placed (place_hex)
                explore_pay = self._explore_pay
                out += [explore_pay[i] for i in paying]
            for space in spaces:
                h = hexes[space]
                if h is None:
                    if stack_left and not reveal_first:  # RULING: an empty stack ends exploring
                        explore = self._explore_paying[space]
                        out += [explore[i] for i in paying]
                elif h.kind in self._resource_kinds:
                    if stack_left and space not in s.fresh:
                        terraform = self._terraform_paying[space]
                        out += [terraform[i] for i in paying]
                elif h.health == 0 and h.kind in self._leviathans and (
                        stack_left or not reveal_first):
                    # RULING (rulings 2): with the stack empty, the only hex a felled
                    # leviathan's terraform could draw is that leviathan: no new hex, no
                    # terraform (rulings 1 allowed it, and it could be farmed every turn).
                    terraform = self._terraform_paying[space]
                    out += [terraform[i] for i in paying]
        if "upgrade" not in done and s.built_any and s.cubes > 0:
            card = self.types[ship.kind]
            costs = self._upgrade_costs
            upgrade_to = self._upgrade_to
            out += [upgrade_to[u.id] for u in card.upgrades
                    if u.id not in ship.upgrades and self._affords_cost(
                        pool, costs[ship.kind, u.id])]
        if "build" not in done and builds:
            out += self._builds(s, ship, pool)
        if "plunder" not in done and plunder > 0:
            out += self._plunders(s, ship)
        if "trade" not in done:
            for space in spaces:
                h = hexes[space]
                if h is not None and h.kind == MERCHANT:
                    trades = self._trades_giving
                    for give, n in enumerate(pool):
                        if n >= 2:
                            out += trades[give]
                    break
        return out

    def _affords(self, pool: tuple[int, ...], cost: tuple[tuple[str, int], ...]) -> bool:
        return all(pool[self.res_index[r]] >= n for r, n in cost)

    @staticmethod
    def _affords_cost(pool: tuple[int, ...], cost: tuple[tuple[int, int], ...]) -> bool:
        """_affords with the cost's resources as indices (the tables in _costs)."""
        for i, n in cost:
            if pool[i] < n:
                return False
        return True

    def _fleet(self, s: CommodoresState, seat: int) -> list[Ship]:
        return [ship for ship in s.ships if ship.owner == seat]

    def _builds(self, s: CommodoresState, ship: Ship, pool: tuple[int, ...]
                ) -> list[CommodoresAction]:
        cat = self.catalogue
        options: list[ShipType] = []
        costs = self._costs
        if not s.basic_built[s.player] and self._affords_cost(pool, costs[cat.basic.id]):
            options.append(cat.basic)
        for type_id, left in zip(s.ship_types, s.yard):
            if left > 0 and self._affords_cost(pool, costs[type_id]):
                options.append(self.types[type_id])
        if not options or len(self._fleet(s, s.player)) >= cat.ships_per_player:
            return []
        taken = self.occupied(s)
        corners = [c for c in self.edges(s, ship.corner) if c not in taken]
        if not corners:
            return []
        build_at = self._build_at
        ordered = sorted(corners)
        return [build_at[card.id][c] for card in options for c in ordered]

    def _plunders(self, s: CommodoresState, ship: Ship) -> list[CommodoresAction]:
        out = []
        near = set(self.edges(s, ship.corner))
        # RULING: "adjacent" ships are one edge apart; a rival with an empty pool offers nothing.
        for other in s.ships:
            if other.owner != s.player and other.corner in near and sum(s.pools[other.owner]) > 0:
                out.append(self._plunder_ship[other.owner, other.captain])
        for space in self.geometry.corner_spaces[ship.corner]:
            h = s.hexes[space]
            if h is not None and h.health > 0 and h.kind in self._leviathans:
                out.append(self._plunder_space[space])
        return out

    def placements(self, s: CommodoresState) -> list[int]:
        """Rulings 2: the spaces where the hex just drawn may go. An exploration places it in
        any empty space the acting ship touches. RULING: a terraform's new hex goes, "as if
        exploring", in any empty space the ship touches, the freed one included, except a
        space that would leave a ship or a hex touching nothing (the freed space never does)."""
        if s.active < 0:
            return []
        hexes, geo = s.hexes, self.geometry
        empty = [sp for sp in geo.corner_spaces[s.ships[s.active].corner] if hexes[sp] is None]
        freed = s.target
        if freed < 0:
            return empty
        return [sp for sp in empty if sp == freed or not self._strands(s, freed, sp)]

    def _strands(self, s: CommodoresState, freed: int, space: int) -> str:
        """What placing the drawn hex at `space`, leaving `freed` empty, would leave touching
        nothing ("" if nothing)."""
        geo = self.geometry
        hexes = self._set_hex(s.hexes, space, Hex(s.drawn or MERCHANT, 0, 0))
        for ship in s.ships:
            if ship.corner in geo.space_corners[freed] and not any(
                    hexes[sp] is not None for sp in geo.corner_spaces[ship.corner]):
                return f"ship {ship_name(ship)} would touch no hex"
        for sp in (space, *geo.space_neighbours[freed]):
            if sp and hexes[sp] is not None and not any(
                    hexes[o] is not None for o in geo.space_neighbours[sp]):
                return f"the hex at {geo.space_name(sp)} would touch no other hex"
        return ""

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, s: CommodoresState) -> list[tuple[CommodoresAction, float]]:
        step = s.step
        if step == SET_ASIDE:
            left = [lv for lv in self.leviathan_ids if lv not in s.set_aside]
            return [(A("set_aside", leviathan=lv), 1 / len(left)) for lv in left]
        if step == GOAL:
            left = [g.id for g in self.catalogue.goals if g.id not in s.goals]
            return [(A("goal", goal=g), 1 / len(left)) for g in left]
        if step == SHIP_TYPE:
            left = [t.id for t in self.catalogue.shipyard if t.id not in s.ship_types]
            return [(A("ship_type", ship=t), 1 / len(left)) for t in left]
        if step == GOAL_NUMBER or step == DRAW_NUMBER:
            total = sum(s.tokens)
            drawn = self._number_drawn["goal_number" if step == GOAL_NUMBER else "number"]
            return [(drawn[i], n / total) for i, n in enumerate(s.tokens) if n]
        if step == DRAW_HEX:
            total = sum(s.stack)
            return [(hex_drawn, n / total) for hex_drawn, n in zip(self._hex_drawn, s.stack) if n]
        raise IllegalAction("this is not a chance step: nothing is drawn now")

    def describe_chance(self, s: CommodoresState, outcome: CommodoresAction) -> str:
        cat = self.catalogue
        kind = outcome.type
        if kind == "set_aside":
            return "a leviathan was set aside face down"  # the log never says which
        if kind == "goal":
            return f"goal in play: {cat.goal(outcome.goal).text()}"
        if kind == "goal_number":
            return f"the Beacon number is {outcome.number}"
        if kind == "ship_type":
            return f"in the shipyard: {self.types[outcome.ship].name}"
        return f"drew {self._drawn(s, outcome)}"  # a hex or a number token

    def chance_choice_label(self, s: CommodoresState, outcome: CommodoresAction) -> str:
        cat = self.catalogue
        kind = outcome.type
        if kind == "set_aside":
            return "set a leviathan aside face down"  # which one stays secret, as in the log
        if kind == "goal":
            return f"put a goal in play: {cat.goal(outcome.goal).text()}"
        if kind == "goal_number":
            return f"make {outcome.number} the Beacon number"
        if kind == "ship_type":
            return f"put {self.types[outcome.ship].name} in the shipyard"
        return f"draw {self._drawn(s, outcome)}"  # a hex or a number token

    def _drawn(self, s: CommodoresState, outcome: CommodoresAction) -> str:
        """What a hex or number-token draw puts on the map, for the log and the chance menu."""
        if outcome.type != "hex":
            return f"number {outcome.number} for {self.geometry.space_name(s.target)}"
        if self.rulings >= 2:  # revealed first; the explorer places it next (place_hex)
            ship = s.ships[s.active] if s.active >= 0 else None
            where = f"for seat {s.player} to place" + (
                f" next to ship {ship.captain}" if ship is not None else "")
        else:
            where = f"at {self.geometry.space_name(s.target)}"
        return f"{self.hex_text(outcome.kind)} {where}"

    def hex_text(self, kind: str) -> str:
        """A hex kind in words: "a wood hex", "a merchant hex", "a leviathan, Cindermaw,"."""
        if kind in self.leviathan_ids:
            return f"a leviathan, {self.catalogue.leviathan(kind).name},"
        if kind == MERCHANT:
            return "a merchant hex"
        return f"{with_article(self.catalogue.resource_name(kind))} hex"

    # -- applying ------------------------------------------------------------------------------
    def apply(self, s: CommodoresState, action: CommodoresAction) -> CommodoresState:
        handler = self._handlers.get(action.type) or getattr(self, f"_apply_{action.type}")
        s = handler(s, action)
        if s.step == FORAGE or s.step == SHIPS or s.step == TAKE:
            s = self._check_goals(s)
        return s

    def _apply_set_aside(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        stack = self._stack_change(s.stack, a.leviathan, -1)
        return self._next_setup_step(s._replace(stack=stack, set_aside=s.set_aside +
                                                (a.leviathan,)))

    def _apply_goal(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        return self._next_setup_step(s._replace(goals=s.goals + (a.goal,)))

    def _apply_goal_number(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        # RULING: the drawn token stays on the goal card, out of the stack.
        tokens = self._token_change(s.tokens, a.number)
        return self._next_setup_step(s._replace(goal_number=a.number, tokens=tokens))

    def _apply_ship_type(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        # The shipyard is kept in catalogue order (not draw order): its dict form is a table,
        # and saves sort a table's keys.
        yard = dict(zip(s.ship_types, s.yard))
        yard[a.ship] = self.catalogue.copies_per_type
        order = [t.id for t in self.catalogue.shipyard if t.id in yard]
        return self._next_setup_step(s._replace(
            ship_types=tuple(order), yard=tuple(yard[t] for t in order)))

    def _apply_place(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        corner = self.geometry.corner_index[a.corner]
        ships = s.ships + (Ship(s.player, 1, "starter", corner, (), False),)
        if s.player + 1 < self.players:
            return s._replace(ships=ships, player=s.player + 1)
        return s._replace(ships=ships, player=0, step=FREE)

    def _apply_free(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        pools = self._gain(s.pools, s.player, a.resource, 1)
        if s.player + 1 < self.players:
            return s._replace(pools=pools, player=s.player + 1)
        return s._replace(pools=pools, player=0, step=FORAGE)

    def _apply_forage(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        number, hexes, res_index = a.number, s.hexes, self.res_index
        cap = self.catalogue.pool_cap
        corner_spaces = self.geometry.corner_spaces
        gaining: dict[int, list[int]] = {}  # seat -> its pool being changed (others: unchanged)
        for ship in s.ships:
            forage = 0
            for space in corner_spaces[ship.corner]:
                h = hexes[space]
                if h is not None and h.number == number and h.kind in res_index:
                    if not forage:  # looked up only for ships next to the number called
                        forage = self.stats(ship)[1]
                        if forage <= 0:
                            break
                    i = res_index[h.kind]
                    pool = gaining.get(ship.owner)
                    if pool is None:
                        pool = gaining[ship.owner] = list(s.pools[ship.owner])
                    pool[i] = min(cap, pool[i] + forage)  # RULING: a full tracker takes no more
        pools, tallies = s.pools, s.tallies
        if gaining:
            pools = tuple(tuple(gaining[seat]) if seat in gaining else pool
                          for seat, pool in enumerate(s.pools))
            for seat in sorted(gaining):
                tallies = self._tally(tallies, seat, FORAGED,
                                      sum(gaining[seat]) - sum(s.pools[seat]))
        return s._replace(pools=pools, step=SHIPS, tallies=tallies, forage_number=number)

    def _apply_ship(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        index = next(i for i, ship in enumerate(s.ships)
                     if ship.owner == s.player and ship.captain == a.captain)
        return s._replace(active=index, done=())

    def _did(self, s: CommodoresState, kind: str) -> tuple[str, ...]:
        name = ACTION_OF[kind]
        return s.done if s.done and s.done[-1] == name else s.done + (name,)

    def _apply_move(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        ship = s.ships[s.active]
        moved = ship._replace(corner=self.geometry.corner_index[a.to])
        return s._replace(ships=self._set_ship(s.ships, s.active, moved),
                          done=self._did(s, "move"))

    def _apply_explore(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        space = self.geometry.space_index[a.space] if self.rulings < 2 else -1
        pools = self._gain(s.pools, s.player, a.pay, -1)
        return s._replace(pools=pools, done=self._did(s, "explore"), step=DRAW_HEX,
                          target=space)

    def _apply_terraform(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        space = self.geometry.space_index[a.space]
        h = s.hexes[space]
        assert h is not None
        stack = s.stack
        if h.kind in self.leviathan_ids:
            stack = self._stack_change(stack, h.kind, +1)  # shuffled back into the stack
        # A resource hex and its number token leave the game.
        hexes = self._set_hex(s.hexes, space, None)
        pools = self._gain(s.pools, s.player, a.pay, -1)
        return s._replace(pools=pools, hexes=hexes, stack=stack,
                          done=self._did(s, "terraform"), step=DRAW_HEX, target=space)

    def _apply_hex(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        kind = a.kind
        stack = self._stack_change(s.stack, kind, -1)
        tallies = self._tally(s.tallies, s.player, EXPLORED)
        if self.rulings >= 2:
            # RULING (rulings 2): the hex is revealed (and a leviathan pays its reward) when
            # drawn; the explorer then chooses where it goes (place_hex).
            s = s._replace(stack=stack, tallies=tallies, step=PLACE_HEX, drawn=kind)
            if kind in self.leviathan_ids:
                s = self._leviathan_found(s, kind)
            return s
        fresh = s.fresh if s.target in s.fresh else s.fresh + (s.target,)
        placed = self._new_hex(kind, 0)
        s = s._replace(stack=stack, tallies=tallies, fresh=fresh,
                       hexes=self._set_hex(s.hexes, s.target, placed))
        if kind in self.res_index:
            if any(s.tokens):
                return s._replace(step=DRAW_NUMBER)
            # RULING: with no number tokens left, a resource hex is placed without a number.
        elif kind in self.leviathan_ids:
            s = self._leviathan_found(s, kind)
        return s._replace(step=SHIPS, target=-1)

    def _leviathan_found(self, s: CommodoresState, kind: str) -> CommodoresState:
        reward = self.catalogue.leviathan(kind).reward  # one reward on discovery
        seen = s.seen if kind in s.seen else s.seen + (kind,)
        pools = self._gain(s.pools, s.player, reward, 1)
        return s._replace(pools=pools, seen=seen, tallies=self._credit(s, pools, FROM_LEVIATHANS))

    def _apply_place_hex(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        space = self.geometry.space_index[a.space]
        fresh = s.fresh if space in s.fresh else s.fresh + (space,)
        s = s._replace(hexes=self._set_hex(s.hexes, space, self._new_hex(s.drawn, 0)),
                       fresh=fresh, drawn="")
        if s.hexes[space].kind in self.res_index and any(s.tokens):  # type: ignore[union-attr]
            return s._replace(step=DRAW_NUMBER, target=space)
        # RULING: with no number tokens left, a resource hex is placed without a number.
        return s._replace(step=SHIPS, target=-1)

    def _apply_number(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        h = s.hexes[s.target]
        assert h is not None
        return s._replace(hexes=self._set_hex(s.hexes, s.target, h._replace(number=a.number)),
                          tokens=self._token_change(s.tokens, a.number), step=SHIPS, target=-1)

    def _apply_upgrade(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        ship = s.ships[s.active]
        card = self.types[ship.kind]
        upgrade = card.upgrade(a.upgrade)
        assert upgrade is not None
        pools = self._pay(s.pools, s.player, upgrade.cost)
        upgraded = ship._replace(upgrades=ship.upgrades + (a.upgrade,))
        return s._replace(ships=self._set_ship(s.ships, s.active, upgraded), pools=pools,
                          cubes=s.cubes - 1, done=self._did(s, "upgrade"))

    def _apply_build(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        card = self.types[a.ship]
        pools = self._pay(s.pools, s.player, card.cost)
        captains = {ship.captain for ship in self._fleet(s, s.player)}
        # RULING: the new ship takes the lowest captaining card still free.
        captain = min(c for c in range(1, self.catalogue.ships_per_player + 1)
                      if c not in captains)
        corner = self.geometry.corner_index[a.at]
        ships = s.ships + (Ship(s.player, captain, card.id, corner, (), True),)
        yard, basic_built = s.yard, s.basic_built
        if card.deck == "basic":
            basic_built = basic_built[:s.player] + (True,) + basic_built[s.player + 1:]
        else:
            i = s.ship_types.index(card.id)
            yard = yard[:i] + (yard[i] - 1,) + yard[i + 1:]
        return s._replace(ships=ships, pools=pools, yard=yard, basic_built=basic_built,
                          built_any=True, done=self._did(s, "build"))

    def _apply_plunder(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        ship = s.ships[s.active]
        plunder = self.stats(ship)[2]
        done = self._did(s, "plunder")
        if ":" in a.target:  # a rival's ship: take resources of your choice, one at a time
            seat = int(a.target.split(":")[0])
            # RULING: you take as many as your plunder value, or all the rival has if fewer.
            left = min(plunder, sum(s.pools[seat]))
            tallies = self._tally(s.tallies, s.player, SHIPS_PLUNDERED)
            return s._replace(done=done, step=TAKE, target=seat, left=left, tallies=tallies)
        space = self.geometry.space_index[a.target]
        h = s.hexes[space]
        assert h is not None
        lv = self.catalogue.leviathan(h.kind)
        # RULING: the reward is the hex's entry for the ship's plunder value, in full even when
        # the leviathan has less health left; the default catalogue lists 2 per unit of plunder.
        pools = self._gain(s.pools, s.player, lv.reward, lv.rewards[plunder - 1])
        health = max(0, h.health - plunder)
        tallies = self._credit(s, pools, FROM_LEVIATHANS)
        if health == 0:
            tallies = self._tally(tallies, s.player, FELLED)
        return s._replace(done=done, pools=pools, tallies=tallies,
                          hexes=self._set_hex(s.hexes, space, h._replace(health=health)))

    def _apply_take(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        pools = self._gain(s.pools, s.target, a.resource, -1)
        pools = self._gain(pools, s.player, a.resource, 1)
        s = s._replace(tallies=self._credit(s, pools, PLUNDERED))
        left = s.left - 1
        if left > 0 and sum(pools[s.target]) > 0:
            return s._replace(pools=pools, left=left)
        return s._replace(pools=pools, left=0, step=SHIPS, target=-1)

    def _apply_trade(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        pools = self._gain(s.pools, s.player, a.give, -2)
        paid = s._replace(pools=pools)
        pools = self._gain(pools, s.player, a.get, 1)
        tallies = self._tally(self._credit(paid, pools, TRADED), s.player, TRADES)
        return s._replace(pools=pools, tallies=tallies, done=self._did(s, "trade"))

    def _apply_end_ship(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        s = s._replace(acted=s.acted + (s.active,), active=-1, done=())
        if any(ship.owner == s.player and not ship.new and i not in s.acted
               for i, ship in enumerate(s.ships)):
            return s
        return self._next_turn(s)  # RULING: the turn ends once every ship has acted

    def _apply_end_turn(self, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
        return self._next_turn(s)

    def _next_turn(self, s: CommodoresState) -> CommodoresState:
        turn = s.turn + 1
        ships = s.ships
        if any(ship.new for ship in ships):  # else the same tuple: goal checks reuse their work
            ships = tuple(ship._replace(new=False) if ship.new else ship for ship in ships)
        s = s._replace(turn=turn, player=(s.player + 1) % self.players, step=FORAGE, ships=ships,
                       active=-1, done=(), acted=(), fresh=(), forage_number=0)
        if turn >= self.turn_limit * self.players:
            return s._replace(step=OVER, end="turn_limit")
        return s

    # -- goals ---------------------------------------------------------------------------------
    def goal_met(self, s: CommodoresState, seat: int, goal_id: str) -> bool:
        """Whether `seat` meets a goal in `s` (met or not, completed or not)."""
        return self._goal_tests[goal_id](s, seat, self._fleet(s, seat))

    def _goal_test(self, kind: str, amount: int) -> Any:
        """A goal kind's check as a function of (state, seat, that seat's fleet), built once per
        rules object (the fleet is passed in: one step checks several goals of one seat)."""
        resources = frozenset(self.resources)
        corner_spaces = self.geometry.corner_spaces

        def tally(which: int) -> Any:
            return lambda s, seat, fleet: s.tallies[seat][which] >= amount

        def by_number(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
            number, hexes = s.goal_number, s.hexes
            return len(fleet) >= amount and number > 0 and all(
                any(h is not None and h.number == number
                    for h in (hexes[sp] for sp in corner_spaces[ship.corner])) for ship in fleet)

        def touched(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
            hexes = s.hexes
            kinds = {h.kind for ship in fleet for h in (hexes[sp] for sp in
                                                        corner_spaces[ship.corner])
                     if h is not None}
            return len(kinds & resources) >= amount

        def remembered(test: Any) -> Any:
            """The test, answering again without looking when it is asked about the same ships,
            map and Beacon number as last time: most steps change neither, and states are
            immutable, so the same objects mean the same answer. (One entry, replaced whole, so
            threads sharing the rules object cannot mix two entries.)"""
            last: list[tuple[Any, ...]] = [((), (), -1, -1, False)]

            def check(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
                ships, hexes, asked, number, met = last[0]
                if s.ships is ships and s.hexes is hexes and seat == asked and \
                        s.goal_number == number:
                    return met
                met = test(s, seat, fleet)
                last[0] = (s.ships, s.hexes, seat, s.goal_number, met)
                return met

            return check

        tests = {
            "ships_by_number": remembered(by_number),
            "ships": lambda s, seat, fleet: len(fleet) >= amount,
            "explored": tally(EXPLORED),
            "leviathans_felled": tally(FELLED),
            "trades": tally(TRADES),
            "ships_plundered": tally(SHIPS_PLUNDERED),
            "pool_total": lambda s, seat, fleet: sum(s.pools[seat]) >= amount,
            "ship_types": lambda s, seat, fleet: len({x.kind for x in fleet}) >= amount,
            "upgrades": lambda s, seat, fleet: sum(len(x.upgrades) for x in fleet) >= amount,
            "resources_touched": remembered(touched),
        }
        return tests[kind]

    def _check_goals(self, s: CommodoresState) -> CommodoresState:
        """RULING: goals are checked after every step of a seat's turn, for that seat only."""
        seat = s.player
        done = s.completed[seat]
        # Every goal test reads only these parts of the state, and many steps (picking a ship,
        # ending one) change none of them: equal parts give last time's answer. (Compared in C,
        # the same objects at once; one entry, replaced whole: safe for threads.)
        inputs = (seat, done, s.goals, s.ships, s.hexes, s.pools, s.tallies, s.goal_number)
        last_inputs, new = self._last_goal_check
        if inputs != last_inputs:
            tests = self._goal_tests
            fleet = self._fleet(s, seat)
            new = tuple(g for g in s.goals if g not in done and tests[g](s, seat, fleet))
            self._last_goal_check = (inputs, new)
        if not new:
            return s
        if self.rulings >= 2:
            # RULING (rulings 2): a player has only goals_to_win goal tokens. When one step meets
            # more goals than tokens are left (it can happen only at the winning step), the tokens
            # go on the goals in catalogue order: the game ends at once, so which goal is taken
            # changes the record, never who wins, and a fixed order needs no question.
            order = self._goal_order
            new = tuple(sorted(new, key=order.__getitem__))[
                :max(0, self.catalogue.goals_to_win - len(done))]
        completed = s.completed[:seat] + (s.completed[seat] + new,) + s.completed[seat + 1:]
        s = s._replace(completed=completed)
        if len(completed[seat]) >= self.catalogue.goals_to_win:
            return s._replace(step=OVER, end="goals", active=-1, done=(), acted=(), fresh=(),
                              target=-1, left=0)
        return s

    # -- results -------------------------------------------------------------------------------
    def scores(self, s: CommodoresState) -> dict[int, float]:
        return {seat: float(len(c)) for seat, c in enumerate(s.completed)}

    def outcome(self, s: CommodoresState) -> Outcome | None:
        if s.step != OVER:
            return None
        scores = self.scores(s)
        if s.end == "goals":
            seat = s.player
            names = [self.goal_cards[g].name for g in s.completed[seat]]
            return Outcome((seat,), scores, f"seat {seat} completed {len(names)} goals: "
                                            f"{', '.join(names)}")
        best = max(scores.values())
        # RULING: at the turn limit the most goals win (shared); with none, nobody wins.
        winners = tuple(seat for seat, v in scores.items() if v == best) if best > 0 else ()
        text = (f"most goals ({best:g})" if winners else "nobody completed a goal")
        return Outcome(winners, scores, f"the turn limit of {self.turn_limit} rounds was "
                                        f"reached: {text}")

    # -- helpers for immutable updates ---------------------------------------------------------
    def _stack_change(self, stack: tuple[int, ...], kind: str, delta: int) -> tuple[int, ...]:
        i = self.kind_index[kind]
        return stack[:i] + (stack[i] + delta,) + stack[i + 1:]

    @staticmethod
    def _token_change(tokens: tuple[int, ...], number: int) -> tuple[int, ...]:
        return tokens[:number - 1] + (tokens[number - 1] - 1,) + tokens[number:]

    @staticmethod
    def _set_hex(hexes: tuple[Hex | None, ...], space: int, h: Hex | None
                 ) -> tuple[Hex | None, ...]:
        return hexes[:space] + (h,) + hexes[space + 1:]

    @staticmethod
    def _set_ship(ships: tuple[Ship, ...], i: int, ship: Ship) -> tuple[Ship, ...]:
        return ships[:i] + (ship,) + ships[i + 1:]

    @staticmethod
    def _tally(tallies: tuple[tuple[int, ...], ...], seat: int, which: int, amount: int = 1
               ) -> tuple[tuple[int, ...], ...]:
        if not amount:
            return tallies
        t = tallies[seat]
        return (tallies[:seat] + (t[:which] + (t[which] + amount,) + t[which + 1:],)
                + tallies[seat + 1:])

    def _credit(self, s: CommodoresState, pools: tuple[tuple[int, ...], ...], which: int
                ) -> tuple[tuple[int, ...], ...]:
        """The active seat's tallies with what it gained (pools after vs s.pools) credited."""
        seat = s.player
        return self._tally(s.tallies, seat, which, sum(pools[seat]) - sum(s.pools[seat]))

    def _gain(self, pools: tuple[tuple[int, ...], ...], seat: int, resource: str, amount: int
              ) -> tuple[tuple[int, ...], ...]:
        i = self.res_index[resource]
        pool = pools[seat]
        value = min(self.catalogue.pool_cap, pool[i] + amount)
        return pools[:seat] + (pool[:i] + (value,) + pool[i + 1:],) + pools[seat + 1:]

    def _pay(self, pools: tuple[tuple[int, ...], ...], seat: int,
             cost: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
        for resource, n in cost:
            pools = self._gain(pools, seat, resource, -n)
        return pools

    # -- parsing, refusals and descriptions ----------------------------------------------------
    def parse_action(self, data: Any) -> CommodoresAction:
        action = super().parse_action(data)
        fields = {
            "set_aside": {"leviathan"}, "goal": {"goal"}, "goal_number": {"number"},
            "ship_type": {"ship"}, "hex": {"kind"}, "number": {"number"}, "place": {"corner"},
            "free": {"resource"}, "forage": {"number"}, "ship": {"captain"}, "move": {"to"},
            "explore": {"space", "pay"}, "terraform": {"space", "pay"}, "upgrade": {"upgrade"},
            "build": {"ship", "at"}, "plunder": {"target"}, "take": {"resource"},
            "trade": {"give", "get"}, "end_ship": set(), "end_turn": set(),
            "place_hex": {"space"},
        }[action.type]
        if self.rulings >= 2 and action.type == "explore":
            fields = {"pay"}
            if "space" in action.params:
                raise IllegalAction("an explore takes only pay: the top hex is drawn first, then "
                                    "you place it with place_hex (the explore with a space is "
                                    "the game's rulings=1)")
        if self.rulings < 2 and action.type == "place_hex":
            raise IllegalAction("place_hex belongs to rulings 2; under rulings 1 an explore "
                                "names its space before the draw")
        if set(action.params) != fields:
            want = ", ".join(sorted(fields)) or "no fields"
            raise IllegalAction(f"a {action.type} action takes {want}, not "
                                f"{_short_repr(action.to_dict())}")
        for key, value in action.params.items():
            if key in ("number", "captain"):
                if type(value) is not int:
                    raise IllegalAction(f"{action.type}: {key} must be a whole number, not "
                                        f"{_short_repr(value)}")
            elif not isinstance(value, str) or len(value) > 40:
                raise IllegalAction(f"{action.type}: {key} must be a short text, not "
                                    f"{_short_repr(value)}")
        return action

    def why_illegal(self, s: CommodoresState, action: Action) -> str:
        problem = self.phase_problem(s, action)
        if problem:
            return problem
        kind = action.type
        if kind in CHANCE_TYPES:
            return f"{action} is drawn by chance, not chosen: force it at a chance step"
        if s.step in (PLACE, FREE) and kind not in ("place", "free"):
            return "set-up is not finished: place the starters and take the free resources"
        if kind in ("place", "free", "forage"):
            return self._setup_problem(s, action)
        if s.step == TAKE and kind != "take":
            return (f"finish plundering first: take {s.left} more resource"
                    f"{'s' if s.left != 1 else ''} from seat {s.target}")
        if s.step == PLACE_HEX or kind == "place_hex":
            return self._placing_problem(s, action)
        if kind == "take":
            if s.step != TAKE:
                return ("take is part of plundering a rival's ship: there is nothing to take "
                        "now")
            return self._take_problem(s, action)
        if kind == "end_turn" and s.active >= 0:
            return "a ship is acting: end its actions first (end_ship), then the turn"
        if kind == "ship" and s.active < 0:
            return self._pick_problem(s, action)
        if kind in SHIP_ACTION_TYPES and s.active < 0:
            return "pick one of your ships first; each ship acts in turn"
        if kind == "ship" and s.active >= 0:
            return "this ship is still acting: end its actions before picking another"
        if s.active >= 0 and kind in ACTION_OF:
            name = ACTION_OF[kind]
            if name in s.done and not (name == "explore" and s.done[-1] == "explore"):
                return (f"this ship has already done its {name} this turn" if name != "explore"
                        else "exploring must come in one run: this ship has done something "
                             "else since it explored")
            if kind == "upgrade" and not s.built_any:
                return "nobody may upgrade until someone has built a ship this game"
            if kind == "upgrade":
                return self._upgrade_problem(s, action)
            if kind == "move":
                return f"the ship cannot reach {action.params.get('to')} this turn (or it is "\
                       "taken)"
            problem = self._ship_action_problem(s, action)
            if problem:
                return problem
        return f"{self.action_text(s, action)} is not a legal action now"

    def _setup_problem(self, s: CommodoresState, action: Action) -> str:
        """Why a starter, a free resource or a forage number is refused."""
        kind, p, cat = action.type, action.params, self.catalogue
        if kind == "forage":
            if s.step != FORAGE:
                return "the forage number is called once, at the start of the turn"
            return f"the forage number is one of 1 to 6, not {p['number']}"
        if kind == "place":
            if s.step != PLACE:
                return "every starter ship is placed already: each seat now takes a free resource"
            corner = self.geometry.corner_index.get(p["corner"], -1)
            if corner not in self.geometry.space_corners[0]:
                return (f"{p['corner']} is not a corner of the centre merchant: starter ships "
                        "go on its corners")
            owner = next(ship.owner for ship in s.ships if ship.corner == corner)
            return (f"{p['corner']} is taken by seat {owner}'s starter: no two ships share a "
                    "corner")
        if s.step != FREE:  # a free resource
            return "the starter ships are placed first, then each seat takes a free resource"
        names = ", ".join(cat.resource_name(r) for r in cat.free_resources)
        return f"the free resource is one of {names}, not {self._resource_words(p['resource'])}"

    def _resource_words(self, resource: Any) -> str:
        if resource in self.res_index:
            return self.catalogue.resource_name(resource)
        return f"{resource!r} (not a resource of this game)"

    def _take_problem(self, s: CommodoresState, action: Action) -> str:
        resource = action.params["resource"]
        return (f"seat {s.target} holds no {self._resource_words(resource)}: take one of what "
                "they hold")

    def _pick_problem(self, s: CommodoresState, action: Action) -> str:
        captain = action.params["captain"]
        index = next((i for i, ship in enumerate(s.ships)
                      if ship.owner == s.player and ship.captain == captain), -1)
        if index < 0:
            return f"you have no ship {captain}"
        if index in s.acted:
            return f"ship {captain} has already acted this turn"
        if s.ships[index].new:
            return f"ship {captain} was built this turn: it acts from your next turn"
        return f"ship {captain} cannot act now"

    def _upgrade_problem(self, s: CommodoresState, action: Action) -> str:
        ship = s.ships[s.active]
        card = self.types[ship.kind]
        upgrade_id = action.params["upgrade"]
        upgrade = card.upgrade(upgrade_id)
        if upgrade is None:
            return f"{upgrade_id} is not an upgrade on the {card.name}'s card"
        if upgrade_id in ship.upgrades:
            return f"this ship has {upgrade.name} already: never the same upgrade twice"
        if s.cubes <= 0:
            return "every upgrade cube is in use: no upgrade is left in the supply"
        if not self._affords(s.pools[s.player], upgrade.cost):
            cost = ", ".join(f"{n} {self.catalogue.resource_name(r)}" for r, n in upgrade.cost)
            return f"{upgrade.name} costs {cost}, more than you have"
        return f"{upgrade.name} cannot be fitted now"

    def _placing_problem(self, s: CommodoresState, action: Action) -> str:
        """Why a place_hex (or anything else while a drawn hex waits) is refused."""
        if s.step != PLACE_HEX:
            return ("there is no drawn hex to place: exploring (or terraforming) draws the top "
                    "hex first, then you place it")
        captain = s.ships[s.active].captain
        drawn = self.hex_text(s.drawn).rstrip(",")
        if action.type != "place_hex":
            return (f"place the hex just drawn ({drawn}) first: choose an empty space next to "
                    f"ship {captain}")
        name = action.params["space"]
        space = self.geometry.space_index.get(name, -1)
        if space < 0 or space not in self.geometry.corner_spaces[s.ships[s.active].corner]:
            return f"{name} is not a space next to ship {captain}: the drawn hex goes next to it"
        if s.hexes[space] is not None:
            return f"{name} holds a hex already: the drawn hex goes into an empty space"
        stranded = self._strands(s, s.target, space) if s.target >= 0 else ""
        if stranded:
            return (f"placing the new hex at {name} leaves the terraformed space empty, and "
                    f"then {stranded}; the freed space {self.geometry.space_name(s.target)} "
                    "is always allowed")
        return f"{name} is not a space the drawn hex can go to"

    def _ship_action_problem(self, s: CommodoresState, action: Action) -> str:  # noqa: C901
        """What is wrong with the acting ship's explore, build, plunder or trade ("" if it is
        something rarer): the common mistakes get a specific refusal."""
        geo, cat, p = self.geometry, self.catalogue, action.params
        ship = s.ships[s.active]
        touching = geo.corner_spaces[ship.corner]
        pool = s.pools[s.player]
        kind = action.type
        if kind == "explore" and "space" not in p:  # rulings 2: the space is chosen later
            if p["pay"] not in self.res_index or not pool[self.res_index[p["pay"]]]:
                pay = cat.resource_name(p["pay"]) if p["pay"] in self.res_index else p["pay"]
                return f"exploring costs 1 resource and you have no {pay}"
            if all(s.hexes[sp] is not None for sp in touching):
                return ("this ship touches no empty space: there is nowhere to place a new hex "
                        "(terraform replaces one)")
            if not sum(s.stack):
                return "the hex stack is empty: nothing is left to explore"
        if kind in ("explore", "terraform") and "space" in p:
            space = geo.space_index.get(p["space"], -1)
            h = s.hexes[space] if space >= 0 else None
            if space not in touching:
                return f"{p['space']} is not a space next to this ship"
            if p["pay"] not in self.res_index or not pool[self.res_index[p["pay"]]]:
                pay = cat.resource_name(p["pay"]) if p["pay"] in self.res_index else p["pay"]
                return f"{kind[:-1]}ing costs 1 resource and you have no {pay}"
            if kind == "explore" and h is not None:
                return f"{p['space']} holds a hex already (terraform replaces one)"
            if kind == "terraform" and h is None:
                return f"{p['space']} is empty: explore it instead"
            if kind == "terraform" and h.kind == MERCHANT:  # type: ignore[union-attr]
                return "a merchant hex cannot be terraformed"
            if kind == "terraform" and h.health > 0:  # type: ignore[union-attr]
                return "a leviathan can be terraformed only once it is at 0 health"
            if kind == "terraform" and space in s.fresh:
                return f"{p['space']} was explored or terraformed this turn already"
            if not sum(s.stack) and kind == "terraform" and self.rulings >= 2 and \
                    h.kind in self._leviathans:  # type: ignore[union-attr]
                return ("the hex stack is empty: terraforming a felled leviathan would only draw "
                        "it back, and it must be replaced by a new hex")
            if not sum(s.stack):
                return "the hex stack is empty: nothing is left to explore"
        if kind == "build":
            card = self.types.get(p["ship"])
            if not self.stats(ship)[3]:
                return "this ship cannot build"
            if len(self._fleet(s, s.player)) >= cat.ships_per_player:
                return f"a fleet holds at most {cat.ships_per_player} ships"
            if card is not None and card.deck == "basic" and s.basic_built[s.player]:
                return "you have built your basic ship already (one per game)"
            if card is None or (card.deck != "basic" and card.id not in s.ship_types):
                return f"{card.name if card else p['ship']} is not a ship type in the shipyard"
            if card.deck != "basic" and not s.yard[s.ship_types.index(card.id)]:
                return f"no {card.name} cards are left in the shipyard"
            if not self._affords(pool, card.cost):
                return f"{with_article(card.name)} costs more than you have"
            free = [c for c in self.edges(s, ship.corner) if c not in self.occupied(s)]
            if not free:
                return "every corner next to this ship is taken: it cannot build"
            return f"{p['at']} is not a free corner next to this ship"
        if kind == "plunder":
            if self.stats(ship)[2] <= 0:
                return "this ship has no plunder value"
            target = p["target"]
            if ":" in target:
                rival = next((o for o in s.ships if ship_name(o) == target), None)
                if rival is None or rival.owner == s.player:
                    return f"{target} is not a rival's ship"
                if rival.corner not in self.edges(s, ship.corner):
                    return f"{target} is not next to this ship (one edge away)"
                if not sum(s.pools[rival.owner]):
                    return f"seat {rival.owner} has nothing to plunder"
            else:
                space = geo.space_index.get(target, -1)
                h = s.hexes[space] if space >= 0 else None
                if h is None or h.kind not in self.leviathan_ids or space not in touching:
                    return f"there is no leviathan next to this ship at {target}"
                if h.health == 0:
                    return "a leviathan at 0 health cannot be plundered"
        if kind == "trade":
            if not any(s.hexes[sp] is not None and s.hexes[sp].kind == MERCHANT  # type: ignore
                       for sp in touching):
                return "this ship is not next to a merchant hex"
            if p["give"] not in self.res_index or pool[self.res_index[p["give"]]] < 2:
                return f"a trade takes 2 {self._resource_words(p['give'])} and you have fewer"
            if p["get"] not in self.res_index:
                return f"a trade gets 1 resource: {self._resource_words(p['get'])} is none"
            if p["get"] == p["give"]:
                return "a trade gets a different resource from the one it gives"
        return ""

    def describe_action(self, s: CommodoresState, action: Action) -> str:
        if action.type in CHANCE_TYPES:
            return self.describe_chance(s, action)  # type: ignore[arg-type]
        if s.active >= 0 and (action.type in SHIP_ACTION_TYPES or action.type == "place_hex"):
            ship = s.ships[s.active]
            return (f"ship {ship.captain} ({self.types[ship.kind].name}): "
                    f"{self.action_text(s, action)}")
        return self.action_text(s, action)

    def action_text(self, s: CommodoresState, action: Action) -> str:
        """An action in words, naming ship types, upgrades, resources and leviathans by the
        catalogue's names (str(action) knows only their ids)."""
        p, kind, cat = action.params, action.type, self.catalogue

        def res(resource: Any) -> str:
            return cat.resource_name(resource) if resource in self.res_index else str(resource)

        if kind == "place":
            return f"place the starter {cat.starter.name} at {p['corner']}"
        if kind in ("free", "take"):
            return f"take {'a free' if kind == 'free' else '1'} {res(p['resource'])}"
        if kind in ("explore", "terraform") and "space" in p:
            return f"{kind} {p['space']} paying 1 {res(p['pay'])}"
        if kind == "explore":
            return f"explore paying 1 {res(p['pay'])}: draw the top hex, then place it"
        if kind == "place_hex":
            drawn = self.hex_text(s.drawn).rstrip(",") if s.drawn else "the drawn hex"
            return f"place {drawn} at {p['space']}"
        if kind == "upgrade":
            card = self.types[s.ships[s.active].kind] if s.active >= 0 else None
            upgrade = card.upgrade(p["upgrade"]) if card is not None else None
            return f"upgrade: {upgrade.name if upgrade else p['upgrade']}"
        if kind == "build" and p["ship"] in self.types:
            return f"build {with_article(self.types[p['ship']].name)} at {p['at']}"
        if kind == "plunder" and ":" not in p["target"]:
            space = self.geometry.space_index.get(p["target"], -1)
            h = s.hexes[space] if space >= 0 else None
            if h is not None and h.kind in self._leviathans:
                return f"plunder {cat.leviathan(h.kind).name} at {p['target']}"
        if kind == "plunder" and ":" in p["target"]:
            seat, captain = p["target"].split(":", 1)
            return f"plunder seat {seat}'s ship {captain}"
        if kind == "trade":
            return f"trade 2 {res(p['give'])} for 1 {res(p['get'])}"
        return str(action)

    # -- dict form, views and hidden information -----------------------------------------------
    def state_to_dict(self, s: CommodoresState) -> dict[str, Any]:
        return state_to_dict(self, s)

    def state_from_dict(self, data: Any) -> CommodoresState:
        return StateReader(self, data).read()

    def check_state(self, s: CommodoresState) -> None:  # noqa: C901 (one list of invariants)
        """The invariants a state read from a dict must keep (InvalidState names the first
        broken one)."""
        cat, geo, n = self.catalogue, self.geometry, self.players
        # Every hex is in one place: on the map, in the stack, set aside or out of the game.
        on_map: dict[str, int] = {}
        for h in s.hexes:
            if h is not None:
                on_map[h.kind] = on_map.get(h.kind, 0) + 1
        if s.drawn:  # drawn and not yet placed: it counts as on the map
            on_map[s.drawn] = on_map.get(s.drawn, 0) + 1
        totals = dict.fromkeys(self.kinds, 0)
        for kind, count in cat.hexes:
            totals[kind] += count
        for lv in self.leviathan_ids:
            totals[lv] += 1
        for kind, in_stack in zip(self.kinds, s.stack):
            where = on_map.get(kind, 0) + in_stack + s.set_aside.count(kind)
            if kind in self.leviathan_ids and where != 1:
                raise InvalidState(f"leviathan {kind} must be in exactly one place (map, stack "
                                   f"or set aside), not {where}")
            if where > totals[kind]:
                raise InvalidState(f"there are only {totals[kind]} {kind} hexes, not {where}")
        # While a hex is drawn for a space (after a terraform too) that space counts as filled.
        filling = s.target if s.step == DRAW_HEX or s.step == PLACE_HEX else -1

        def filled(space: int) -> bool:
            return s.hexes[space] is not None or space == filling

        for space, h in enumerate(s.hexes):
            if h is None or space == 0:
                continue
            if not any(filled(o) for o in geo.space_neighbours[space]):
                raise InvalidState(f"the hex at {geo.space_name(space)} touches no other hex")
            if h.kind in self.res_index and h.number == 0 and any(s.tokens) and \
                    not (s.step == DRAW_NUMBER and s.target == space):
                raise InvalidState(f"the resource hex at {geo.space_name(space)} has no number")
        for i, count in enumerate(s.tokens):
            placed = sum(1 for h in s.hexes if h is not None and h.number == i + 1)
            if count + placed + (s.goal_number == i + 1) > cat.number_tokens[i]:
                raise InvalidState(f"there are only {cat.number_tokens[i]} number tokens "
                                   f"{i + 1}")
        if not set(s.set_aside) <= set(self.leviathan_ids) or set(s.set_aside) & set(s.seen):
            raise InvalidState("a leviathan set aside cannot have been seen")
        if bool(s.drawn) != (s.step == PLACE_HEX):
            raise InvalidState("drawn names the hex waiting to be placed, at the place_hex step "
                               "only")
        if self.rulings < 2 and s.step == PLACE_HEX:
            raise InvalidState("the place_hex step belongs to rulings 2 (under rulings 1 the "
                               "explorer names the space before the draw)")
        for lv in self.leviathan_ids:
            if on_map.get(lv) and lv not in s.seen:
                raise InvalidState(f"leviathan {lv} is on the map, so it must be in seen")
        setup = s.step in SETUP_STEPS
        if not setup:
            if len(s.set_aside) != cat.leviathans_set_aside or len(s.goals) != \
                    cat.goals_in_play or len(s.ship_types) != cat.ship_types_in_play:
                raise InvalidState("after set-up the leviathans set aside, the goals and the "
                                   "ship types in play are all chosen")
        if any(self.goal_cards[g].kind == "ships_by_number" for g in s.goals) != bool(
                s.goal_number) and s.step not in (SET_ASIDE, GOAL, GOAL_NUMBER) and any(
                cat.number_tokens):
            raise InvalidState("goal_number is drawn exactly when the ships-by-number goal is in"
                               " play")
        # Ships: one per corner, on the map, numbered per owner, within the supply.
        corners = [ship.corner for ship in s.ships]
        if len(set(corners)) != len(corners):
            raise InvalidState("two ships are on one corner")
        for ship in s.ships:
            name = ship_name(ship)
            if not any(filled(sp) for sp in geo.corner_spaces[ship.corner]):
                raise InvalidState(f"ship {name} is at {geo.corner_name(ship.corner)}, which "
                                   "touches no hex")
            if ship.kind not in ("starter", "basic") and ship.kind not in s.ship_types:
                raise InvalidState(f"ship {name} is a {ship.kind}, which is not in play")
            if ship.new and (setup or ship.owner != s.player):
                raise InvalidState(f"ship {name} is marked new, but only the seat whose turn it"
                                   " is builds")
        for seat in range(n):
            fleet = self._fleet(s, seat)
            captains = [ship.captain for ship in fleet]
            if len(set(captains)) != len(captains):
                raise InvalidState(f"seat {seat} has two ships with one captain number")
            starters = sum(ship.kind == "starter" for ship in fleet)
            placing = s.step in (SET_ASIDE, GOAL, GOAL_NUMBER, SHIP_TYPE) or (
                s.step == PLACE and seat >= s.player)
            if starters > 1 or (not starters and not placing) or (starters and placing):
                raise InvalidState(f"seat {seat} must have exactly one starter ship")
            basics = sum(ship.kind == "basic" for ship in fleet)
            if basics > 1 or (basics == 1 and not s.basic_built[seat]):
                raise InvalidState(f"seat {seat}'s basic ship and basic_built disagree")
        for type_id, left in zip(s.ship_types, s.yard):
            out = sum(ship.kind == type_id for ship in s.ships)
            if out + left > cat.copies_per_type:
                raise InvalidState(f"there are only {cat.copies_per_type} {type_id} cards")
        upgrades = sum(len(ship.upgrades) for ship in s.ships)
        if upgrades + s.cubes > cat.upgrade_cubes:
            raise InvalidState(f"there are only {cat.upgrade_cubes} upgrade cubes")
        if upgrades and not s.built_any:
            raise InvalidState("ships carry upgrades, so someone must have built a ship")
        if any(len(c) >= cat.goals_to_win for c in s.completed) != (s.end == "goals"):
            raise InvalidState("a seat with the goals to win ends the game, and only then")
        if (s.step == OVER) != bool(s.end):
            raise InvalidState("end says why the game is over, exactly when it is")
        # The turn in progress.
        if s.step in TURN_STEPS:
            if s.active >= 0 and s.ships[s.active].owner != s.player:
                raise InvalidState("the acting ship must belong to the seat whose turn it is")
            if s.step != SHIPS and s.active < 0:
                raise InvalidState(f"the {s.step} step needs an acting ship")
            if s.active >= 0 and (s.active in s.acted or s.ships[s.active].new):
                raise InvalidState("the acting ship has already acted, or was built this turn")
            if s.step == TAKE and (s.target == s.player or s.left < 1 or not sum(
                    s.pools[s.target])):
                raise InvalidState("plundering takes from a rival who still has resources")
            if s.step in (DRAW_HEX, PLACE_HEX) and s.target >= 0 and \
                    s.hexes[s.target] is not None:
                raise InvalidState("the space being explored must be empty")
            if s.step == DRAW_HEX and s.target < 0 and self.rulings < 2:
                raise InvalidState("under rulings 1 the space being explored is chosen first")
            if s.step == PLACE_HEX and not self.placements(s):
                raise InvalidState("the acting ship touches no space where the drawn hex may go")
            if s.step == DRAW_HEX and not sum(s.stack):
                raise InvalidState("nothing is left in the stack to draw")
            if s.step == DRAW_NUMBER:
                h = s.hexes[s.target]
                if h is None or h.kind not in self.res_index or h.number or not any(s.tokens):
                    raise InvalidState("a number is drawn for a resource hex just placed")
        elif s.active >= 0 or s.done or s.acted or s.fresh:
            raise InvalidState(f"no ship acts at the {s.step} step")
        if s.step not in TURN_STEPS and s.left:
            raise InvalidState("left counts resources still to take while plundering only")
        if s.step in TURN_STEPS and not s.forage_number:
            raise InvalidState("the ships act after the forage number was called")
        if any(i >= len(s.ships) for i in s.acted) or any(
                s.ships[i].owner != s.player for i in s.acted):
            raise InvalidState("acted lists ships of the seat whose turn it is")

    def upgrade_state_dict(self, data: dict[str, Any], form: int) -> dict[str, Any]:
        """Form 1 had no "drawn" (no hex ever waited to be placed)."""
        if form < 2 and isinstance(data, dict):
            data.setdefault("drawn", None)
        return data

    def view(self, s: CommodoresState, seat: int | None) -> dict[str, Any]:
        """Nobody sees which leviathans were set aside, nor which are still in the stack."""
        data = state_to_dict(self, s)
        data["set_aside"] = ["hidden"] * len(s.set_aside)
        stack = data["stack"]
        unseen = 0
        for lv in self.leviathan_ids:
            unseen += stack.pop(lv)
        stack["leviathans"] = unseen
        return data

    def determinize(self, s: CommodoresState, seat: int, rng: random.Random) -> CommodoresState:
        """Resample which unseen leviathans were set aside and which are still in the stack."""
        unseen = list(s.set_aside)
        for lv, count in zip(self.kinds, s.stack):
            if lv in self.leviathan_ids and count and lv not in s.seen:
                unseen.append(lv)
        if len(unseen) <= len(s.set_aside) or not s.set_aside:
            return s
        rng.shuffle(unseen)
        set_aside = tuple(unseen[:len(s.set_aside)])
        stack = list(s.stack)
        for lv in unseen:
            stack[self.kind_index[lv]] = 0 if lv in set_aside else 1
        for lv in self.leviathan_ids:  # seen ones in the stack stay where they are
            if lv in s.seen:
                stack[self.kind_index[lv]] = s.stack[self.kind_index[lv]]
        return s._replace(set_aside=set_aside, stack=tuple(stack))

    # -- drawing and clicking ------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    def action_path(self, s: CommodoresState, action: Action) -> list[str]:
        """What a person clicks: ships, corners and spaces on the map; the rest are buttons
        whose keys read as what they do."""
        p = action.params
        kind = action.type
        if kind == "place":
            return [f"corner:{p['corner']}"]
        if kind == "ship":
            return [f"ship:{s.player}:{p['captain']}"]
        if kind == "move":
            return [f"corner:{p['to']}"]
        if kind in ("explore", "terraform") and "space" in p:
            return [f"space:{p['space']}", f"pay {p['pay']}"]
        if kind == "explore":  # rulings 2: a button, then the hex drawn is placed by a click
            return ["explore", f"pay {p['pay']}"]
        if kind == "place_hex":
            return [f"space:{p['space']}"]
        if kind == "plunder":
            where = "ship" if ":" in p["target"] else "space"
            return [f"{where}:{p['target']}"]
        if kind == "build":
            return [f"build {with_article(self.types[p['ship']].name)}", f"corner:{p['at']}"]
        if kind == "trade":
            return [f"trade 2 {p['give']}", f"for 1 {p['get']}"]
        if kind == "upgrade":
            return [f"upgrade {p['upgrade']}"]
        if kind in ("free", "take"):
            return [f"{kind} {p['resource']}"]
        if kind == "forage":
            return [f"forage on {p['number']}"]
        return [kind.replace("_", " ")]
