"""What a board offers its viewer to choose: the legal actions as menu choices (only the first
steps when there are many, the rest once one is selected), the designer's chance outcomes, what
each drawn element plays (said first in its accessible name) and the words for a choice's steps.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.chance import chance_rng, weighted_choice
from ..core.match import Match


def shared_words(labels: list[str], count: int) -> str:
    """Several choices said in one phrase: the words their labels start with, then what
    differs ("explore 2,0, paying 1 canvas or wood"), or the count where that is long."""
    distinct = list(dict.fromkeys(labels))
    if len(distinct) == 1:
        return distinct[0]
    words = [label.split(" ") for label in distinct]
    shared = 0
    while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    start = " ".join(words[0][:shared])
    tails = [" ".join(w[shared:]) for w in words]
    if shared and len(tails) <= 6 and sum(map(len, tails)) <= 80:
        return f"{start} {', '.join(tails[:-1])} or {tails[-1]}"
    if shared:
        return f"{start} … ({count} choices)"
    verbs = list(dict.fromkeys(w[0] for w in words))
    said = f"{', '.join(verbs[:-1])} or {verbs[-1]}" if len(verbs) > 1 else verbs[0]
    return f"{said} … ({count} choices)"


class Choices:
    """The Board's part that builds the choices it sends (see the module's docstring)."""

    # Above this many legal actions, only the first steps are sent, and the full choices under
    # the first step a person selects (a "select" intent): redraws stay small as boards grow.
    choices_limit: ClassVar[int] = 150

    if TYPE_CHECKING:  # what this part uses of the board (board.py defines them)
        match: Match

        def choice_label(self, action: Any) -> str: ...
        def step_label(self, key: str) -> str: ...
        def key_action(self, path: list[str], choices: list[dict[str, Any]]) -> str: ...

    def _choices_to_send(self) -> list[dict[str, Any]]:
        rules, state = self.match.rules, self.match.state
        legal = rules.legal_actions(state)
        paths = [rules.action_path(state, a) for a in legal]
        if len(legal) <= self.choices_limit:
            return [{"path": path, "label": self.choice_label(a), "action": a.to_dict()}
                    for a, path in zip(legal, paths)]
        selected = getattr(self, "_selected_first", None)
        choices: list[dict[str, Any]] = []
        stubs: dict[str, dict[str, Any]] = {}
        for action, path in zip(legal, paths):
            if path[0] == selected or len(path) == 1:
                choices.append({"path": path, "label": self.choice_label(action),
                                "action": action.to_dict()})
            elif path[0] in stubs:
                stubs[path[0]]["count"] += 1
            else:  # a first step standing for the choices after it, sent when it is selected
                stubs[path[0]] = {"path": path[:1], "label": self.step_label(path[0]),
                                  "partial": True, "count": 1}
        return choices + list(stubs.values())

    def _chance_choices(self) -> list[dict[str, Any]]:
        """At a chance step, the designer is offered a random draw and every listed outcome,
        worded as what will happen. Outcomes worded the same (five leviathans set aside face
        down) are one choice with their summed probability: nobody can tell them apart, so
        choosing it draws one of them as "Draw at random" would (the match's chance stream for
        this step, their probabilities), rather than always the first."""
        match = self.match
        choices: list[dict[str, Any]] = [
            {"path": ["chance:draw"], "label": "Draw at random", "intent": "draw", "action": {}}]
        if match.rules.traits.chance == "explicit":
            rules, state = match.rules, match.state
            alike: dict[str, list[tuple[Any, float]]] = {}
            for outcome, probability in match.chance_outcomes():
                alike.setdefault(rules.chance_choice_label(state, outcome), []).append(
                    (outcome, probability))
            for number, (text, outcomes) in enumerate(alike.items()):
                chosen = outcomes[0][0] if len(outcomes) == 1 else weighted_choice(
                    outcomes, chance_rng(match.seed, match.position))
                probability = sum(p for _, p in outcomes)
                choices.append({"path": [f"chance:{number}"], "intent": "force",
                                "label": f"{text} ({100 * probability:.3g}%)",
                                "action": chosen.to_dict()})
        return choices

    def _key_actions(self, choices: list[dict[str, Any]], svg: str) -> list[list[Any]]:
        drawn = {html.unescape(key) for key in re.findall(r'data-key="([^"]*)"', svg)}
        leads_to: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for choice in choices:
            path = choice["path"]
            for i, key in enumerate(path):
                if key in drawn:
                    leads_to.setdefault(tuple(path[: i + 1]), []).append(choice)
        return [[list(path), self.key_action(list(path), found)]
                for path, found in leads_to.items()]

    def _step_labels(self, choices: list[dict[str, Any]]) -> dict[str, str]:
        keys = {key for choice in choices for key in choice["path"]}
        labels = {key: self.step_label(key) for key in keys}
        return {key: label for key, label in labels.items() if label != key}
