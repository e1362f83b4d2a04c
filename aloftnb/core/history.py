"""One step of a match's history: an action a seat played, a chance outcome, or an edit, with
its log text as each viewer may read it."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .action import Action


@dataclass(frozen=True)
class HistoryEntry:
    """One step of a match: an action a seat played, or an edit made from a cell."""

    kind: str  # "action", "chance" (an outcome drawn or forced) or "edit"
    seat: int | None
    action: Action | None = None  # the action played, or the chance outcome
    text: str = ""
    edited: dict[str, Any] | None = None  # the state dict an edit installed
    forced: bool = False  # a chance outcome chosen by a person rather than drawn
    phase: str = ""  # the phase the step was taken in, for games that declare several
    # (seat, text) for the viewers that may not see which step this was (None: spectators):
    # what they read instead of `text` (Rules.hidden_text).
    hidden: tuple[tuple[int | None, str], ...] = ()

    @property
    def is_decision(self) -> bool:
        """A step a person (or bot) chose: an action, an edit or a forced outcome."""
        return self.kind != "chance" or self.forced

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "action":
            assert self.action is not None
            return {"kind": "action", "seat": self.seat, "action": self.action.to_dict()}
        if self.kind == "chance":
            assert self.action is not None
            return {"kind": "chance", "outcome": self.action.to_dict(), "forced": self.forced}
        return {"kind": "edit", "state": copy.deepcopy(self.edited)}  # saves never alias history

    def seen_by(self, seat: int | None) -> bool:
        """Whether `seat` (None: a spectator) may know which action or outcome this was."""
        return all(viewer != seat for viewer, _ in self.hidden)

    def text_for(self, seat: int | None) -> str:
        """`text` as `seat` (None: a spectator) may read it."""
        return next((text for viewer, text in self.hidden if viewer == seat), self.text)

    def line_for(self, seat: int | None) -> str:
        """The log line (`str(entry)`) as `seat` (None: a spectator) may read it."""
        return self._line(self.text_for(seat))

    def __str__(self) -> str:
        return self._line(self.text)

    def _line(self, text: str) -> str:
        if self.kind == "edit":
            return "edit: the state was changed from a cell"
        where = f" ({self.phase})" if self.phase else ""
        if self.kind == "chance":
            return f"chance{where}: {text}" + (" (forced)" if self.forced else "")
        return f"seat {self.seat}{where}: {text}"
