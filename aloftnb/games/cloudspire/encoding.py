"""Cloudspire's action and observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/cloudspire.md, "Encodings").

Decisions are numbered block after block (H hexes of the map in the geometry's numbering, M
market slots, F factions, U unit kinds, S spire kinds, E earthscapes, Q equipment, L landmarks,
in catalogue order): buy M, buy the earthscape, pass, decline a spire on a new earthscape,
construct S*O*H (O: the orders of the spire's starting upgrades), upgrade H*3, advance each
structure, place E*slots, mark F, deploy U*2 (alone, grouped), equip Q, ready, move H*H, march,
end the movement, target H, explore L, reveal, leave, stop exploring, attack H*6, end the turn.
Chance outcomes: every card id (events, market chips, earthscapes, landmark faces), then each
face value of the spire die.

The observation is read from the seat's view only, so it never shows another faction's stack
below its top or a landmark face the seat has not seen.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...errors import IllegalAction
from .rules import CloudspireAction, CloudspireRules
from .state import PHASES, STAGES

A = CloudspireAction


@lru_cache(maxsize=32)  # equal rules (same players and options) share their tables
def tables(rules: CloudspireRules) -> tuple[list[CloudspireAction],
                                            dict[CloudspireAction, int], list[CloudspireAction]]:
    cat = rules.catalogue
    hexes = rules.hexes
    d: list[CloudspireAction] = [A("buy", slot=i) for i in range(rules.market_slots)]
    d += [A("buy_earthscape"), A("pass"), A("decline")]
    d += [A("construct", spire=k, at=h, order=o) for k in rules.spire_ids
          for o in rules.start_orders[k] for h in hexes]
    d += [A("upgrade", at=h, kind=u) for h in hexes for u in "ARF"]
    d += [A("advance", structure=st.id) for fac in cat.factions for st in fac.structures]
    d += [A("place", earthscape=e, at=h) for e in cat.earthscapes for h in rules.slots]
    d += [A("mark", gate=g) for g in range(rules.factions)]
    d += [A("deploy", unit=u, group=g) for u in rules.unit_ids for g in (False, True)]
    d += [A("equip", item=q) for q in cat.equipment]
    d += [A("ready")]
    d += [A("move", at=a, to=b) for a in hexes for b in hexes]
    d += [A("march"), A("end_move")]
    d += [A("target", at=h) for h in hexes]
    d += [A("explore", at=h) for h in cat.map.landmarks]
    d += [A("reveal"), A("leave"), A("end_explore")]
    d += [A("attack", at=h, target=nb) for h in hexes for nb in rules.neighbours[h]]
    d += [A("end_turn")]
    chance = [A("draw", card=c) for group in (cat.events, cat.chips, cat.earthscapes, cat.faces)
              for c in group]
    chance += [A("roll", pips=v) for v in sorted(set(rules.numbers.spire_die))]
    return d, {a: i for i, a in enumerate(d)}, chance


def num_distinct_actions(rules: CloudspireRules) -> int:
    return len(tables(rules)[0])


def action_to_index(rules: CloudspireRules, action: Any) -> int:
    try:
        return tables(rules)[1][action]
    except (KeyError, TypeError):
        raise IllegalAction(f"{action!r:.80} is not an action of this cloudspire game") from None


def action_from_index(rules: CloudspireRules, index: int) -> CloudspireAction:
    decisions = tables(rules)[0]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(decisions):
        raise IllegalAction(f"cloudspire action indices are 0..{len(decisions) - 1}, not "
                            f"{index!r:.40}")
    return decisions[index]


def chance_outcomes(rules: CloudspireRules) -> list[CloudspireAction]:
    return tables(rules)[2]


# -- observations ----------------------------------------------------------------------------------
def observation_shape(rules: CloudspireRules) -> tuple[int, ...]:
    f = rules.factions
    per_hex = 4 + 2 + f + (f + 2) + (f + 2)
    per_side = 6 + f
    return (len(rules.hexes) * per_hex + f * per_side + rules.market_slots + 1
            + len(PHASES) + len(STAGES) + 1 + (f + 2) + f,)


def _unit(value: float, top: float) -> float:
    return max(0.0, min(1.0, value / top))


def observation(rules: CloudspireRules, view: dict[str, Any], seat: int) -> list[float]:
    f = rules.factions
    land = rules.land(tuple(view["slots"]))
    wells = set(rules.wells(_Slots(tuple(view["slots"]))))
    units = {u["hex"]: u for u in view["units"]}
    spires = {s["hex"]: s for s in view["spires"]}
    landmarks = {lm["hex"]: lm for lm in view["landmarks"]}
    out: list[float] = []
    for h in rules.hexes:
        lm = landmarks.get(h)
        out += [float(h in land), float(h in wells), float(lm is not None),
                _unit(lm["health"], 10) if lm and lm["revealed"] else 0.0]
        out += [float(h in rules.slots), float(h in rules.gate_of_hex)]
        gate_owner = rules.gate_of_hex.get(h, -1)
        out += [float(gate_owner == g) for g in range(f)]
        u = units.get(h)
        out += [float(u is not None and u["owner"] == g) for g in range(f)]
        out += [_unit(u["health"], 15) if u else 0.0,
                float(u is not None and rules.catalogue.units[u["members"][0]].hero)]
        sp = spires.get(h)
        out += [float(sp is not None and sp["owner"] == g) for g in range(f)]
        out += [_unit(len(sp["upgrades"]), 8) if sp else 0.0,
                _unit(sp["upgrades"].count("A"), 8) if sp else 0.0]
    for side in view["sides"]:
        out += [_unit(side["source"], 40), _unit(side["gate"], 30), _unit(len(side["stack"]), 20),
                _unit(side["command"], 30), float(side["done"]),
                _unit(side["limited_builds"], 5)]
        out += [float(side["mark"] == g) for g in range(f)]
    out += [float(bool(chip)) for chip in view["market"]] + [float(bool(view["earthscape_offer"]))]
    out += [float(view["phase"] == p) for p in PHASES]
    out += [float(view["stage"] == st) for st in STAGES]
    out.append(_unit(view["wave"], rules.waves))
    out += [float(view["actor"] == g) for g in range(f)]
    out += [float(view["actor"] == -1), float(view["actor"] == -2)]
    out += [float(seat == g) for g in range(f)]
    return out


class _Slots:
    """What `rules.wells` reads (the slots) from a view."""

    def __init__(self, slots: tuple[str, ...]) -> None:
        self.slots = slots


def observation_string(rules: CloudspireRules, view: dict[str, Any], seat: int) -> str:
    lines = [f"observer {seat}; wave {view['wave']}, {view['phase']}"
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
