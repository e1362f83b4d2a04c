"""Cloudspire's observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/cloudspire.md, "Encodings"). The numbering of decisions and chance outcomes follows
from the action declaration (actions.py, ACTIONS).

The observation is read from the seat's view only, so it never shows another faction's stack
below its top or a landmark face the seat has not seen.
"""

from __future__ import annotations

import functools
from typing import Any

from ...kit.observations import Entries, dense, per_rules
from .rules import CloudspireRules
from .state import OVER, PHASES, STAGES, CloudspireState


def observation_shape(rules: CloudspireRules) -> tuple[int, ...]:
    f = rules.factions
    per_hex = 4 + 2 + f + (f + 2) + (f + 2)
    per_side = 6 + f
    return (len(rules.hexes) * per_hex + f * per_side + rules.market_slots + 1
            + len(PHASES) + len(STAGES) + 1 + (f + 2) + f,)


def _unit(value: float, top: float) -> float:
    return max(0.0, min(1.0, value / top))


def _phase(rules: CloudspireRules, view: dict[str, Any]) -> str:
    """The view's phase as the encodings show it: a finished game (phase OVER) in the phase it
    ended in, as before the end had its own marker (the actor -2 says it is over)."""
    phase: str = view["phase"]
    return rules.flow.ended_phase if phase == OVER else phase


@functools.lru_cache(maxsize=32)
def _layout(rules: CloudspireRules) -> tuple[int, int, dict[str, int], list[int]]:
    """(size, numbers per hex, hex -> where its block starts, the places that are 1.0 in every
    observation: earthscape slots, gates and their owners), worked out once per rules object."""
    f = rules.factions
    per_hex = 4 + 2 + f + (f + 2) + (f + 2)
    at: dict[str, int] = {}
    fixed: list[int] = []
    for i, h in enumerate(rules.hexes):
        base = i * per_hex
        at.setdefault(h, base)
        if h in rules.slots:
            fixed.append(base + 4)
        if h in rules.gate_of_hex:
            fixed.append(base + 5)
        gate_owner = rules.gate_of_hex.get(h, -1)
        fixed += [base + 6 + g for g in range(f) if gate_owner == g]
    return observation_shape(rules)[0], per_hex, at, fixed


def observation(rules: CloudspireRules, view: dict[str, Any], seat: int) -> list[float]:
    return dense(_layout(rules)[0], observation_entries(rules, view, seat))


def observation_entries(rules: CloudspireRules, view: dict[str, Any], seat: int) -> Entries:
    """`observation` as its non-zero entries (aloftnb.kit.observations)."""
    f = rules.factions
    _, per_hex, at, fixed = _layout(rules)
    ones = list(fixed)
    positions: list[int] = []
    values: list[float] = []
    land = rules.land(tuple(view["slots"]))
    wells = set(rules.wells(_Slots(tuple(view["slots"]))))
    ones += [at[h] for h in set(land) if h in at]
    ones += [at[h] + 1 for h in wells if h in at]
    for h, lm in {lm["hex"]: lm for lm in view["landmarks"]}.items():
        base = at.get(h)
        if base is not None:
            ones.append(base + 2)
            if lm["revealed"]:
                positions.append(base + 3)
                values.append(_unit(lm["health"], 10))
    units = rules.catalogue.units
    for h, u in {u["hex"]: u for u in view["units"]}.items():
        base = at.get(h)
        if base is not None:
            ones += [base + 6 + f + g for g in range(f) if u["owner"] == g]
            positions += [base + 6 + 2 * f, base + 7 + 2 * f]
            values += [_unit(u["health"], 15), float(units[u["members"][0]].hero)]
    for h, sp in {sp["hex"]: sp for sp in view["spires"]}.items():
        base = at.get(h)
        if base is not None:
            ones += [base + 8 + 2 * f + g for g in range(f) if sp["owner"] == g]
            positions += [base + 8 + 3 * f, base + 9 + 3 * f]
            values += [_unit(len(sp["upgrades"]), 8), _unit(sp["upgrades"].count("A"), 8)]
    i = len(rules.hexes) * per_hex
    for side in view["sides"]:
        positions += range(i, i + 6)
        values += [_unit(side["source"], 40), _unit(side["gate"], 30),
                   _unit(len(side["stack"]), 20), _unit(side["command"], 30),
                   float(side["done"]), _unit(side["limited_builds"], 5)]
        ones += [i + 6 + g for g in range(f) if side["mark"] == g]
        i += 6 + f
    market = view["market"]
    ones += [i + k for k, chip in enumerate(market) if chip]
    i += len(market)
    if view["earthscape_offer"]:
        ones.append(i)
    i += 1
    phase = _phase(rules, view)
    ones += [i + k for k, p in enumerate(PHASES) if phase == p]
    i += len(PHASES)
    ones += [i + k for k, st in enumerate(STAGES) if view["stage"] == st]
    i += len(STAGES)
    positions.append(i)
    values.append(_unit(view["wave"], rules.waves))
    i += 1
    actor = view["actor"]
    ones += [i + g for g in range(f) if actor == g]
    if actor == -1:
        ones.append(i + f)
    if actor == -2:
        ones.append(i + f + 1)
    i += f + 2
    ones += [i + g for g in range(f) if seat == g]
    return ones, positions, values


_LAYOUTS: dict[int, tuple[Any, Any]] = {}  # _layout by the rules object's identity


def observation_entries_from_state(rules: CloudspireRules, s: CloudspireState, seat: int
                                   ) -> list[Entries]:
    """`observation_entries` of `rules.view(s, seat)`, read from the state without building the
    view (the adapters call it at every step; tests/test_observation_state.py compares them).
    It reads what that view shows: another faction's stack as its size (its top, plus one per
    chip below), and while a faction builds its stack unseen, its command as it was before the
    hidden chips went in (views.before_hidden_deploys). No landmark face is read."""
    f = rules.factions
    _, per_hex, at, fixed = per_rules(_LAYOUTS, rules, _layout)
    ones = list(fixed)
    positions: list[int] = []
    values: list[float] = []
    ones += [at[h] for h in rules.land(s.slots) if h in at]
    ones += [at[h] + 1 for h in set(rules.wells(s)) if h in at]
    for h, lm in {lm.hex: lm for lm in s.landmarks}.items():
        base = at.get(h)
        if base is not None:
            ones.append(base + 2)
            if lm.revealed:
                positions.append(base + 3)
                values.append(_unit(lm.health, 10))
    units = rules.catalogue.units
    for h, u in {u.hex: u for u in s.units}.items():
        base = at.get(h)
        if base is not None:
            if 0 <= u.owner < f:
                ones.append(base + 6 + f + u.owner)
            positions += (base + 6 + 2 * f, base + 7 + 2 * f)
            values += (_unit(u.health, 15), float(units[u.members[0]].hero))
    for h, sp in {sp.hex: sp for sp in s.spires}.items():
        base = at.get(h)
        if base is not None:
            if 0 <= sp.owner < f:
                ones.append(base + 8 + 2 * f + sp.owner)
            positions += (base + 8 + 3 * f, base + 9 + 3 * f)
            values += (_unit(len(sp.upgrades), 8), _unit(sp.upgrades.count("A"), 8))
    i = len(rules.hexes) * per_hex
    building = s.actor if s.phase == "prep" and s.actor >= 0 and s.actor != seat else None
    for g, side in enumerate(s.sides):
        stack, command = side.stack, side.command
        if g != seat and stack:
            if g == building:  # the command spent on chips this seat cannot see yet
                for k, band in enumerate(stack):
                    for uid in band.members[1:] if k == 0 else band.members:
                        kind = units[uid]
                        command += 0 if kind.merc else kind.cost
            size = 1 + sum(len(band.members) for band in stack[1:])
        else:
            size = len(stack)
        positions += range(i, i + 6)
        values += [_unit(side.source, 40), _unit(side.gate, 30), _unit(size, 20),
                   _unit(command, 30), float(side.done), _unit(side.limited_builds, 5)]
        if 0 <= side.mark < f:
            ones.append(i + 6 + side.mark)
        i += 6 + f
    market = s.market
    ones += [i + k for k, chip in enumerate(market) if chip]
    i += len(market)
    if s.earthscape_offer:
        ones.append(i)
    i += 1
    phase = rules.flow.ended_phase if s.phase == OVER else s.phase
    ones += [i + k for k, p in enumerate(PHASES) if phase == p]
    i += len(PHASES)
    ones += [i + k for k, st in enumerate(STAGES) if s.stage == st]
    i += len(STAGES)
    positions.append(i)
    values.append(_unit(s.wave, rules.waves))
    i += 1
    actor = s.actor
    if 0 <= actor < f:
        ones.append(i + actor)
    if actor == -1:
        ones.append(i + f)
    if actor == -2:
        ones.append(i + f + 1)
    i += f + 2
    if 0 <= seat < f:
        ones.append(i + seat)
    return [(ones, positions, values)]


class _Slots:
    """What `rules.wells` reads (the slots) from a view."""

    def __init__(self, slots: tuple[str, ...]) -> None:
        self.slots = slots


def observation_string(rules: CloudspireRules, view: dict[str, Any], seat: int) -> str:
    lines = [f"observer {seat}; wave {view['wave']}, {_phase(rules, view)}"
             + (f" ({view['stage']})" if view["stage"] else "")
             + f", round {view['round']}, actor {view['actor']}"]
    for g, side in enumerate(view["sides"]):
        top = side["stack"][0]["members"][0] if side["stack"] else "-"
        lines.append(f"  faction {g} {side['faction']}: gate {side['gate']}, Source "
                     f"{side['source']}, command {side['command']}, mark {side['mark']}, "
                     f"stack {len(side['stack'])} (top {top})")
    for u in view["units"]:
        lines.append(f"  unit of {u['owner']} at {u['hex']}: {'+'.join(u['members'])} "
                     f"health {u['health']}")
    for sp in view["spires"]:
        lines.append(f"  spire of {sp['owner']} at {sp['hex']}: {sp['kind']} {sp['upgrades']}")
    for lm in view["landmarks"]:
        lines.append(f"  landmark at {lm['hex']}: {lm['face'] or 'unexplored'}"
                     + (f" health {lm['health']}" if lm["revealed"] else ""))
    lines.append(f"  market {', '.join(c or '-' for c in view['market'])}; earthscape "
                 f"{view['earthscape_offer'] or '-'}")
    return "\n".join(lines)
