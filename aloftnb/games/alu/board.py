"""The ALU board: the generic board plus ALU's texts, spoken status and click explanations."""

from __future__ import annotations

from importlib import resources
from typing import cast

from ...widget.board import Board
from .rules import END_TURN, SEAT_NAMES, AluAction, AluRules


class GameBoard(Board):
    game_css = resources.files(__package__).joinpath("board.css").read_text("utf-8")

    @property
    def game_rules(self) -> AluRules:
        """The match's rules, typed as this game's."""
        return cast(AluRules, self.match.rules)

    def seat_label(self, seat: int, view: dict) -> str:
        return f"Seat {seat} ({SEAT_NAMES[seat]})"

    def hints(self) -> dict[str, str]:
        """After a tile is picked: what is on it and which actions it offers."""
        match = self.match
        if match.is_over:
            return {}
        by_tile: dict[str, list[str]] = {}
        for action in match.legal_actions():
            if action.type != END_TURN:
                by_tile.setdefault(action.tile, []).append(action.type.replace("_", " "))
        board = match.view(None)["board"]
        return {f"tile:{tile}": f"{tile} ({board[tile]}): choose {' or '.join(kinds)}."
                for tile, kinds in by_tile.items()}

    def status_text(self) -> str:
        """Spoken after every change (an aria-live region): what happened, then who acts."""
        match = self.match
        history = match.history
        last = (f"{self.step_text(history[-1], line=True)}. "
                if history and history[-1].kind == "action" else "")
        last = last.replace("seat 0: ", "").replace("seat 1: ", "")
        if match.is_over:
            return f"{last}Game over: {match.view(None)['derived']['result_text']}."
        seat = match.current_player
        assert seat is not None  # ALU has no chance steps, and the game is not over
        state = match.state
        bot = self.control.bots.get(seat)
        who = f"{SEAT_NAMES[seat].capitalize()} (seat {seat}" + (
            f", {bot.name} bot)" if bot else ")")
        counts = match.scores()
        return (f"{last}{who} to act, {state.actions_left} action"
                f"{'s' if state.actions_left != 1 else ''} left. Circle controls {counts[0]}, "
                f"square {counts[1]}.")

    def explain(self, path: list[str]) -> str:
        """Why a click plays nothing: the refusal the rules give for the move it suggests."""
        match = self.match
        rules, state = self.game_rules, match.state
        if match.is_over:
            return "the game is over"
        tiles = [k.split(":", 1)[1] for k in path if k.startswith("tile:")]
        kinds = [k.split(":", 1)[1] for k in path if k.startswith("do:")]
        if kinds and kinds[0] not in rules.action_types:
            return "nothing can be played there now"
        if kinds == [END_TURN]:
            return rules.problem(state, rules._end_turn) or "the turn can end now"
        if not tiles:
            if kinds:
                return "choose a tile first, then an action for it"
            return "nothing can be played there now"
        if len(tiles) > 1:  # the front end keeps the first tile chosen; say how to switch
            return (f"{tiles[0]} was chosen, so {tiles[1]} was not: choose an action for "
                    f"{tiles[0]}, or press Escape and then choose {tiles[1]}")
        tile = tiles[0]
        if tile not in rules.index:
            return f"there is no tile {tile!r}"
        if rules.legal_actions(state) == [rules._end_turn]:
            return (f"{SEAT_NAMES[state.player]} has no legal action left this turn: "
                    "choose 'end the turn'")
        content = match.view(None)["board"][tile]
        if kinds:
            kind = kinds[0]
        else:
            seat_name = SEAT_NAMES[state.player]
            if content == seat_name:
                return (f"{tile} holds {seat_name}'s own camp; actions go on the tiles next to "
                        "your camps")
            kind = {"empty": "camp", "raided": "restore"}.get(content, "attack")
        problem = rules.problem(state, AluAction(kind, tile=tile)) or f"{kind} {tile} is legal"
        return problem if tile in problem else f"{tile}: {problem}"
