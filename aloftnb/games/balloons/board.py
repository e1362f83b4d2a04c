"""The Aloft board: the generic board plus balloon-specific texts and click explanations."""

from __future__ import annotations

from importlib import resources
from typing import cast

from ...widget.board import Board
from .rules import BalloonAction, BalloonsRules


class GameBoard(Board):
    game_css = resources.files(__package__).joinpath("board.css").read_text("utf-8")

    @property
    def game_rules(self) -> BalloonsRules:
        """The match's rules, typed as this game's."""
        return cast(BalloonsRules, self.match.rules)

    def hints(self) -> dict[str, str]:
        state = self.match.state
        rules = self.game_rules
        return {f"balloon:{rules.ids[b]}": f"Now click a free truck for {rules.ids[b]}."
                for b in state.row}

    def seat_label(self, seat: int, view: dict) -> str:
        colour = view.get("colours", {}).get(str(seat))
        return f"Seat {seat}" + (f" ({colour})" if colour else "")

    def reveal_text(self) -> str:
        rules, seat = self.game_rules, self.match.current_player
        if rules.mode != "competitive" or seat is None or self.viewer != "turn":
            return ""
        return f"Hide seat {seat}'s colour" if self.revealed else f"Show seat {seat}'s colour card"

    def status_text(self) -> str:
        match = self.match
        if not match.is_over:
            return super().status_text()
        scores = match.scores()
        if match.rules.higher_score_wins:
            won = " and ".join(f"seat {p}" for p in match.winners())
            return "Game over. " + ", ".join(
                f"seat {p}: {s}" for p, s in scores.items()) + f". Winner: {won}."
        return f"Game over. Shared score {scores[0]} (lower is better)."

    def explain(self, path: list[str]) -> str:
        """Why a click plays nothing: the refusal the rules give for the move it suggests."""
        match = self.match
        rules, state = self.game_rules, match.state
        if match.is_over:
            return "the game is over"
        if not path:
            return "nothing was chosen"
        key = path[0]
        if key.startswith("truck:") and len(path) == 1:
            return "pick a balloon first, then a free truck for it"
        if not key.startswith("balloon:"):
            return "nothing can be played there now"
        bid = key.split(":", 1)[1]
        if bid not in rules.index:
            return f"there is no balloon {bid!r}"
        status = state.status[rules.index[bid]]
        kind = ("unpack", "inflate", "launch", "ascend")[status]
        if kind == "unpack":
            truck = next((k.split(":", 1)[1] for k in path[1:] if k.startswith("truck:")), None)
            if truck is None:
                action = BalloonAction("unpack", balloon=bid, truck=0)
                if rules.solo_rules and state.row and state.row[0] != rules.index[bid]:
                    return rules.why_illegal(state, action)
                return f"no truck is free for {bid}"
            trucks = [str(k) for k in range(rules.truck_count)]
            if truck not in trucks:  # e.g. "x", "-1", "99": only the drawn trucks exist
                return (f"there is no launch-zone truck {truck[:20]!r}: they are "
                        f"{', '.join(trucks)}")
            action = BalloonAction("unpack", balloon=bid, truck=int(truck))
        else:
            action = BalloonAction(kind, balloon=bid)
        if action in rules.legal_actions(state):
            return f"{action} is legal now"
        return rules.why_illegal(state, action)
