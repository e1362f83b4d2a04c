"""Cloudspire's observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/cloudspire.md, "Encodings"). The numbering of decisions and chance outcomes follows
from the action declaration (actions.py, ACTIONS).

The observation is read from the seat's view only, so it never shows another faction's stack
below its top or a landmark face the seat has not seen.
"""

from __future__ import annotations

from typing import Any

from .rules import CloudspireRules
from .state import OVER, PHASES, STAGES


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
    phase = _phase(rules, view)
    out += [float(phase == p) for p in PHASES]
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
