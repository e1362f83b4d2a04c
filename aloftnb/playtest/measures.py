"""What a simulated game measures while it is played: length, branching (per phase too), chance
steps, lead changes and score spread, then the game's own measures and positions from its hooks.

The runner's loop (runner.play_game) feeds a `GameMeasures` each decision, chance step and step
played; `columns` gives the measure columns of the game's result row. docs/playtesting.md says
what each column means.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.hooks import AnyHooks
from ..core.rules import Rules


class GameMeasures:
    """The measures of one game, fed by the loop that plays it."""

    def __init__(self, rules: Rules[Any, Any], state: Any) -> None:
        self.rules = rules
        self.chance_steps = 0
        self.branching = 0  # legal actions summed over the decisions
        self.by_phase = len(rules.phases) > 1
        self.phase_length = dict.fromkeys(rules.phases, 0)
        self.phase_branching = dict.fromkeys(rules.phases, 0)
        self.leader: int | None = None
        self.lead_changes = 0
        self._round_of, self._phase_of = rules.round, rules.phase
        self._sign = 1 if rules.higher_score_wins else -1
        self._round = self._round_of(state)

    def decision(self, state: Any, actions: Sequence[Any]) -> None:
        """A seat is to choose among `actions` in `state`."""
        self.branching += len(actions)
        if self.by_phase:
            phase = self._phase_of(state)
            self.phase_length[phase] += 1
            self.phase_branching[phase] += len(actions)

    def chance_step(self) -> None:
        self.chance_steps += 1

    def stepped(self, state: Any, over: bool) -> None:
        """A step was played, leading to `state`. The leader is read when a round (as the game
        declares rounds) ends, and at the end."""
        new_round = self._round if over else self._round_of(state)
        if over or new_round != self._round:
            self._round = new_round
            sign = self._sign
            running = self.rules.scores(state)
            best = max(sign * v for v in running.values())
            top = [p for p, v in running.items() if sign * v == best]
            if len(top) == 1 and len(running) > 1:
                if self.leader is not None and top[0] != self.leader:
                    self.lead_changes += 1
                self.leader = top[0]

    def columns(self, hooks: AnyHooks, state: Any, decisions: int,
                final: dict[int, float] | None) -> dict[str, Any]:
        """The row's measure columns, after `decisions` decisions. `final`: the final scores of
        a finished game, None for a game stopped by an error."""
        rules = self.rules
        row: dict[str, Any] = {
            "length": decisions,
            "chance_steps": self.chance_steps,
            "branching": self.branching / decisions if decisions else 0.0,
        }
        if self.by_phase:
            for phase in rules.phases:
                length = self.phase_length[phase]
                row[f"length_{phase}"] = length
                row[f"branching_{phase}"] = (self.phase_branching[phase] / length if length
                                             else float("nan"))
        row["lead_changes"] = self.lead_changes
        row["score_spread"] = (max(final.values()) - min(final.values()) if final is not None
                               else float("nan"))
        finished = final is not None
        if finished:
            row.update(hooks.measures(rules, state))
        else:  # an error row keeps the hook's columns, empty; a hook may refuse unfinished games
            try:
                row.update(dict.fromkeys(hooks.measures(rules, state), float("nan")))
            except Exception:  # noqa: BLE001 - the frame fills these columns with NaN anyway
                pass
        if hooks.POSITION_AXES is not None:  # the game records positions
            row["positions"] = " ".join(hooks.positions(rules, state)) if finished else ""
        return row
