"""The faction the rules play in solo and cooperative games (the seats' common opponent): it
decides at once whenever it must, by fixed priorities, so no seat ever waits for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CloudspireAction
from .map import FAR
from .state import CloudspireState

if TYPE_CHECKING:
    from .rules import CloudspireRules


def play_bots(rules: CloudspireRules, s: CloudspireState) -> CloudspireState:
    """`s` after every decision the rules' factions face, until a seat or chance is to act."""
    # RULING (bot factions): whenever a faction played by the rules must decide, the rules
    # choose for it at once (bot_choice); chance steps in its turns stay chance steps.
    while s.actor in rules.bots:
        s = rules._apply_one(s, rules.bot_choice(s, rules.legal_actions(s)))
    return s


def bot_choice(rules: CloudspireRules, s: CloudspireState, actions: list[CloudspireAction]
               ) -> CloudspireAction:
    """The bot faction's fixed priorities: build spires and upgrade, deploy every minion it
    can, march, then move each hero as near its mark as it can, fire at the first target,
    attack whenever it can; never buy at the market or explore."""
    moves = [a for a in actions if a.type == "move"]
    if moves and not any(a.type in ("construct", "upgrade", "march") for a in actions):
        side = s.sides[s.actor]
        dist = rules.mark_distance(s.slots, "land", rules.gate_hexes[max(side.mark, 0)])
        best = min(moves, key=lambda a: (dist.get(a.to, FAR), rules.hex_index[a.to]))
        forced = all(a.at == rules.gate_hexes[s.actor] for a in moves) and not any(
            a.type == "end_move" for a in actions)
        if forced or dist.get(best.to, FAR) < dist.get(best.at, FAR):
            return best
    prefer = ("target", "reveal", "construct", "upgrade", "mark", "deploy", "march",
              "attack", "end_move", "end_explore", "ready", "end_turn", "decline", "pass",
              "leave")
    for kind in prefer:
        for act in actions:
            if act.type == kind and not (kind == "deploy" and act.group):
                return act
    return moves[0] if moves else actions[-1]
