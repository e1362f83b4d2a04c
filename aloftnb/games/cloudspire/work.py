"""`Work`, the draft an action changes: a Cloudspire state's fields as attributes, its
collections (sides, units, spires, landmarks) as lists; `freeze()` settles it into a new state
(the flow's draft and settle).

A compiled class of its own (compiled/build.py), its fields declared one by one, so that the
compiled phases read and change a draft's fields directly; the fields are the state's, in its
order (tests/test_cloudspire_rules.py checks they stay so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import Band, CloudspireState, Landmark, Side, Spire

if TYPE_CHECKING:
    from .rules import CloudspireRules


_SIDE_FIELDS = {name: i for i, name in enumerate(Side._fields)}


class Work:
    """A state being changed by one action (core.records.Draft's form, with typed fields)."""

    rules: CloudspireRules
    wave: int
    phase: str
    actor: int
    order: tuple[int, ...]
    turn: int
    round: int
    rounds_played: int
    stage: str
    marched: bool
    sides: list[Side]
    units: list[Band]
    spires: list[Spire]
    landmarks: list[Landmark]
    slots: tuple[str, ...]
    event: str
    event_deck: tuple[str, ...]
    market_deck: tuple[str, ...]
    market: tuple[str, ...]
    earthscape_deck: tuple[str, ...]
    earthscape_offer: str
    face_pool: tuple[str, ...]
    draw: str
    refills: tuple[int, ...]
    firing: tuple[str, ...]
    target: str
    dice: int
    damage: int
    exploring: int
    placed: str
    winners: tuple[int, ...]
    reason: str
    # What the rules did by themselves (a march with no click), when asked for the log line.
    notes: list[str] | None
    # The decisions of the state this draft settles into, when the handler that ends the
    # action found them on its way (the onslaught's continue_* functions): the rules keep them
    # for that state, so its legal actions are not searched twice (CloudspireRules._apply_one).
    legal: list[Any] | None

    def __init__(self, state: CloudspireState) -> None:
        self.rules = state[0]
        self.wave = state[1]
        self.phase = state[2]
        self.actor = state[3]
        self.order = state[4]
        self.turn = state[5]
        self.round = state[6]
        self.rounds_played = state[7]
        self.stage = state[8]
        self.marched = state[9]
        self.sides = list(state[10])
        self.units = list(state[11])
        self.spires = list(state[12])
        self.landmarks = list(state[13])
        self.slots = state[14]
        self.event = state[15]
        self.event_deck = state[16]
        self.market_deck = state[17]
        self.market = state[18]
        self.earthscape_deck = state[19]
        self.earthscape_offer = state[20]
        self.face_pool = state[21]
        self.draw = state[22]
        self.refills = state[23]
        self.firing = state[24]
        self.target = state[25]
        self.dice = state[26]
        self.damage = state[27]
        self.exploring = state[28]
        self.placed = state[29]
        self.winners = state[30]
        self.reason = state[31]
        self.notes = None
        self.legal = None

    def freeze(self) -> CloudspireState:
        return tuple.__new__(CloudspireState, (
            self.rules, self.wave, self.phase, self.actor, self.order, self.turn,
            self.round, self.rounds_played, self.stage, self.marched, tuple(self.sides),
            tuple(self.units), tuple(self.spires), tuple(self.landmarks), self.slots,
            self.event, self.event_deck, self.market_deck, self.market,
            self.earthscape_deck, self.earthscape_offer, self.face_pool, self.draw,
            self.refills, self.firing, self.target, self.dice, self.damage,
            self.exploring, self.placed, self.winners, self.reason))

    def side(self, faction: int, **changes: Any) -> None:
        """Change fields of a faction's side (the commonest change of all: set here rather
        than through the records' _replace, which is not compiled)."""
        values = list(self.sides[faction])
        for name, value in changes.items():
            if name not in _SIDE_FIELDS:
                raise ValueError(f"Side has no field {name!r}")
            values[_SIDE_FIELDS[name]] = value
        self.sides[faction] = tuple.__new__(Side, values)

    def spend(self, faction: int, amount: int, phase: int) -> None:
        """Pay Source, counted as spent in `phase` (SPENT_MARKET, SPENT_BUILD or
        SPENT_ONSLAUGHT)."""
        side = self.sides[faction]
        spent = list(side.spent)
        spent[phase] += amount
        self.side(faction, source=side.source - amount, spent=tuple(spent))
