"""What a board's viewer may see and read: the seat a view shows ("turn", "designer" or
"seat:N"), its view of the state, the texts of history steps, the log, the news told to a live
region, and the recent steps marked on the drawing. A seat's view never names what it cannot see
(Rules.hidden_text); the designer reads everything."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.chance import CHANCE
from ..core.match import HistoryEntry, Match
from ..errors import AloftnbError

if TYPE_CHECKING:
    from .seats import SeatControl

ECHO_LIMIT = 300  # characters of a refusal message; longer ones are cut
NEWS_LINES = 4  # steps a live announcement words; more are counted


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` cut to `limit` characters, so a refusal never echoes a huge input back."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_viewer(match: Match, viewer: Any) -> None:
    allowed = ["turn", "designer"] + [f"seat:{p}" for p in range(match.players)]
    if not isinstance(viewer, str) or viewer not in allowed:
        raise AloftnbError(f"viewer must be one of {', '.join(allowed)}, not {viewer!r:.60}")


class ViewerTexts:
    """The Board's part that words the game for its viewer (see the module's docstring)."""

    if TYPE_CHECKING:  # what this part uses of the board (board.py sets them)
        match: Match
        control: SeatControl
        viewer: str
        revealed: bool
        log: list[Any]
        log_delta: dict[str, Any]
        news: dict[str, Any]
        _trait_values: dict[str, Any]
        _revealed_for: int | None
        _news_told: int
        _news_where: tuple[int, str]
        _news_count: int

        def where_text(self) -> str: ...

    def _viewing_seat(self) -> int | None | str:
        """The seat whose view is shown; "all" for the designer."""
        if self.viewer == "designer":
            return "all"
        if self.viewer.startswith("seat:"):
            return int(self.viewer[5:])
        seat = self.match.current_player
        if seat is None or seat == CHANCE:  # nobody's secrets during a draw or once over
            return None
        return seat if (self.revealed and seat == self._revealed_for) else None

    def _can_act(self, seat: int | None) -> bool:
        return not self.viewer.startswith("seat:") or self.viewer == f"seat:{seat}"

    def view_dict(self) -> dict[str, Any]:
        rules, state = self.match.rules, self.match.state
        seat = self._viewing_seat()
        return rules.state_to_dict(state) if isinstance(seat, str) else rules.view(state, seat)

    def step_text(self, entry: HistoryEntry, line: bool = False) -> str:
        """A history step's text (or log line) as this board's viewer may read it: a seat's
        view never names what that seat cannot see (Rules.hidden_text); the designer reads all.
        """
        seat = self._viewing_seat()
        if isinstance(seat, str):
            return str(entry) if line else entry.text
        return entry.line_for(seat) if line else entry.text_for(seat)

    def step_seen(self, entry: HistoryEntry) -> bool:
        """Whether this board's viewer may know which action or outcome `entry` was."""
        seat = self._viewing_seat()
        return isinstance(seat, str) or entry.seen_by(seat)

    def recent_keys(self, steps: range) -> list[str]:
        """The drawing's keys to mark for history steps `steps` (0-based). Games may refine it.
        Steps the viewer may not see are not marked (their keys would name them)."""
        match, keys = self.match, list[str]()
        history = match.history if steps else []  # once: each read copies the history
        for i in steps:
            entry = history[i]
            if entry.kind == "action" and entry.action is not None and self.step_seen(entry):
                before = match.state_at(i)
                keys.extend(k for k in match.rules.action_path(before, entry.action)
                            if k not in keys)
        return keys

    def recent_steps(self) -> tuple[int, int]:
        """The steps (from, to] since the seat this board shows last acted: what others did.

        The seat is the viewed one, or the one to move (hot seat and designer views). Its own
        latest moves are skipped, so during a turn of several actions the others' moves stay
        marked. After the game (or with no seat to move) the last step is marked.
        """
        match = self.match
        history = match.history
        end = len(history)
        seat = int(self.viewer[5:]) if self.viewer.startswith("seat:") else match.current_player
        if seat is None:
            return (max(0, end - 1), end)
        i = end
        while i > 0 and history[i - 1].kind == "action" and history[i - 1].seat == seat:
            i -= 1
        top = i
        # Others' moves, and the chance outcomes drawn among them, since this seat last acted.
        while i > 0 and (history[i - 1].kind == "chance"
                         or (history[i - 1].kind == "action" and history[i - 1].seat != seat)):
            i -= 1
        return (i, top)

    def _publish_log(self) -> None:
        match = self.match
        seat = self._viewing_seat()  # once, not once per entry: logs grow long
        entries = [{"text": str(entry) if isinstance(seat, str) else entry.line_for(seat),
                    "seat": entry.seat} for entry in match.timeline]
        sent = self.log
        start = 0
        while start < min(len(sent), len(entries)) and sent[start] == entries[start]:
            start += 1
        if start == len(sent) == len(entries):
            return
        # Keep the whole log current for views that say hello, without syncing it each time
        # (traitlets' own store: no change event, so nothing is sent).
        self._trait_values["log"] = entries
        self.log_delta = {"start": start, "entries": entries[start:], "length": len(entries)}

    def news_text(self, steps: range) -> str:
        """What history steps `steps` say to this board's viewer, briefly: the chance draws,
        the bots' moves and moves made at other boards (a move a person makes here is not told
        back), each as this viewer may read it (a hidden step never names what it hides)."""
        history = self.match.history if steps else []  # once: each read copies the history
        lines = []
        for i in steps:
            entry = history[i]
            if (entry.kind == "action" and entry.seat not in self.control.bots
                    and self._can_act(entry.seat)):
                continue  # played on this board (or one like it) by a person
            lines.append(self.step_text(entry, line=True).rstrip("."))
        if len(lines) > NEWS_LINES:
            lines = [f"{len(lines) - NEWS_LINES + 1} steps", *lines[-(NEWS_LINES - 1):]]
        return ". ".join(lines) + ("." if lines else "")

    def _tell_news(self) -> None:
        """After a move or a draw, the steps since the last news, and a new round."""
        match = self.match
        told, end = self._news_told, match.position
        where = (match.round, match.phase)
        moved = self.control.last_change in ("action", "chance") and end > told
        self._news_told = end
        if not moved:  # undo, the timeline, an edit, a redraw: nothing new happened
            self._news_where = where
            return
        text = self.news_text(range(told, end))
        if where[0] != self._news_where[0] and not match.is_over:  # a new round (phases
            # come and go with each seat's turn in some games: each line names its phase)
            text = (text + " " if text else "") + f"{self.where_text()}."
        self._news_where = where
        if text:
            self._news_count += 1
            self.news = {"text": clip(text), "n": self._news_count}
