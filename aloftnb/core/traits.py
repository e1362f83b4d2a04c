"""What kind of game a game is (after OpenSpiel's GameType), and how a finished game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ChanceMode = Literal["none", "explicit", "sampled"]
Information = Literal["perfect", "imperfect"]
Utility = Literal["scores", "win_loss"]


@dataclass(frozen=True)
class Traits:
    """A game's type, declared once by its rules class and shown by `aloftnb.games()`.

    - `player_counts`: the seat counts the game supports (options may narrow them).
    - `chance`: "none" (nothing random after set-up), "explicit" (every chance step lists its
      outcomes with probabilities: `rules.chance_outcomes`), or "sampled" (the outcome space is
      too large to list, e.g. a shuffle: `rules.sample_chance` draws one and
      `rules.check_chance` accepts a forced one).
    - `information`: "imperfect" when some seat's view hides part of the state.
    - `utility`: "scores" when final scores rank the seats, "win_loss" when only winning counts.
    - `cooperative`: every seat shares one outcome; everybody may lose together.
    - `simultaneous`: the game has choices made at once in secret, played as hidden commitments
      (see CONTRIBUTING.md, "Simultaneous choices").
    The maximum length depends on the options, so it is `rules.max_length()`, not a trait.
    """

    player_counts: tuple[int, ...]
    chance: ChanceMode = "none"
    information: Information = "perfect"
    utility: Utility = "scores"
    cooperative: bool = False
    simultaneous: bool = False

    def __post_init__(self) -> None:
        if not self.player_counts or any(
                isinstance(n, bool) or not isinstance(n, int) or n < 1
                for n in self.player_counts):
            raise ValueError(f"player_counts must be whole numbers >= 1, not "
                             f"{self.player_counts!r}")
        for name, allowed in (("chance", ("none", "explicit", "sampled")),
                              ("information", ("perfect", "imperfect")),
                              ("utility", ("scores", "win_loss"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"traits {name} must be one of {allowed}, not "
                                 f"{getattr(self, name)!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"player_counts": list(self.player_counts), "chance": self.chance,
                "information": self.information, "utility": self.utility,
                "cooperative": self.cooperative, "simultaneous": self.simultaneous}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who won (possibly nobody), the final scores, and why.

    `winners` is empty for a cooperative loss or a game stopped by a turn limit with no winner;
    several seats on a tie or a cooperative win. `reason` is a short sentence for people
    ("21 tiles controlled", "the last fortress gate fell").
    """

    winners: tuple[int, ...]
    scores: dict[int, float] = field(default_factory=dict)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners),
                "scores": {str(seat): score for seat, score in self.scores.items()},
                "reason": self.reason}
