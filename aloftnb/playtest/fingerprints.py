"""Fingerprints of everything a game shows, to prove a refactoring changed no behaviour.

`python -m aloftnb fingerprints` plays seeded random games of every built-in game, mode and
edition, and prints one sha256 digest per game configuration and per kind of output: the legal
actions at every step, the state dicts, each seat's and the spectator's views, the log sentences,
the refusals of actions played out of place, the drawings, the adapters' encodings, and seeded
`simulate` results. Run it before and after a change: equal digests mean the games behave alike.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

# (game, options): every game, every mode and edition, and the older rulings saves replay with.
CONFIGURATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("balloons", {"players": 2}),
    ("balloons", {"players": 5}),
    ("balloons", {"players": 3, "edition": "choice"}),
    ("balloons", {"players": 1, "mode": "solo"}),
    ("balloons", {"players": 3, "mode": "cooperative"}),
    ("alu", {"players": 2}),
    ("commodores", {"players": 3}),
    ("commodores", {"players": 5}),
    ("commodores", {"players": 2, "two_players": True}),
    ("commodores", {"players": 3, "rulings": 1}),
    ("commodores", {"players": 3, "rulings": 2}),
    ("cloudspire", {"players": 2}),
    ("cloudspire", {"players": 3}),
    ("cloudspire", {"players": 4}),
    ("cloudspire", {"players": 1, "mode": "solo"}),
    ("cloudspire", {"players": 3, "mode": "cooperative"}),
    ("cloudspire", {"players": 2, "rulings": 1}),
    ("cloudspire", {"players": 2, "variant": "simplified"}),
)

KINDS = ("legal", "states", "views", "log", "refusals", "drawings", "encodings")


class _Digests:
    def __init__(self) -> None:
        self.hashes = {kind: hashlib.sha256() for kind in KINDS}
        self.counts = dict.fromkeys(KINDS, 0)

    def add(self, kind: str, value: Any) -> None:
        text = value if isinstance(value, str) else json.dumps(value, sort_keys=True,
                                                                default=repr)
        self.hashes[kind].update(text.encode())
        self.hashes[kind].update(b"\x00")
        self.counts[kind] += 1


def _games(game: str, options: dict[str, Any], games: int) -> Iterator[tuple[Any, list[Any],
                                                                              list[Any]]]:
    """(rules, states, actions) of `games` seeded random games."""
    from ..core.registry import make_rules

    options = dict(options)
    players = options.pop("players")
    rules = make_rules(game, players, **options)
    for seed in range(games):
        rng = random.Random(1000 + seed)
        state = rules.initial_state(seed)
        states, actions = [state], []
        while not rules.is_over(state):
            if rules.is_chance(state):
                action = rules.sample_chance(state, rng)
            else:
                action = rng.choice(rules.legal_actions(state))
            actions.append(action)
            state = rules.apply(state, action)
            states.append(state)
        yield rules, states, actions


def configuration_digests(game: str, options: dict[str, Any], games: int = 3,
                          drawings: int = 4) -> dict[str, str]:
    """{kind: digest} over `games` seeded random games of one configuration."""
    digests = _Digests()
    pick = random.Random(7)
    for rules, states, actions in _games(game, options, games):
        seats: list[int | None] = [*range(rules.players), None]
        foreign = [actions[i] for i in pick.sample(range(len(actions)), min(6, len(actions)))]
        drawn = set(pick.sample(range(len(states)), min(drawings, len(states))))
        drawn.add(len(states) - 1)
        for i, state in enumerate(states):
            legal = rules.legal_actions(state)
            digests.add("legal", [rules.current_player(state), rules.phase(state),
                                  rules.round(state), [a.to_dict() for a in legal]])
            digests.add("states", rules.state_to_dict(state))
            views = [rules.view(state, seat) for seat in seats]
            digests.add("views", views)
            if i < len(actions):
                action = actions[i]
                if rules.is_chance(state):
                    texts = [rules.describe_chance(state, action),
                             rules.chance_choice_label(state, action)]
                else:
                    texts = [rules.describe_action(state, action), rules.action_path(state,
                                                                                     action)]
                texts += [rules.hidden_text(state, action, seat) for seat in seats]
                digests.add("log", texts)
            if not rules.is_over(state) and not rules.is_chance(state):
                digests.add("refusals", [rules.why_illegal(state, a) for a in foreign
                                         if a not in legal])
            if i in drawn:
                for view in views + [rules.state_to_dict(state)]:
                    digests.add("drawings", rules.render_svg(view))
            if rules.has_encoding:
                seat = rules.current_player(state)
                if seat is not None and seat >= 0:
                    digests.add("encodings", [[rules.action_to_index(a) for a in legal],
                                              rules.observation(state, seat),
                                              rules.observation_string(state, seat)])
                elif seat is not None:
                    digests.add("encodings", [rules.chance_to_index(a) for a in legal])
    return {kind: f"{digests.hashes[kind].hexdigest()[:16]} ({digests.counts[kind]})"
            for kind in KINDS}


SIMULATIONS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("balloons", {"players": 3}, "greedy"),
    ("alu", {"players": 2}, "greedy"),
    ("commodores", {"players": 3}, "greedy"),
    ("cloudspire", {"players": 2}, "greedy"),
    ("cloudspire", {"players": 1, "mode": "solo"}, "random"),
    ("cloudspire", {"players": 3, "mode": "cooperative"}, "random"),
)


def simulation_digest(game: str, options: dict[str, Any], bots: str, games: int = 20) -> str:
    """The digest of a seeded `simulate` run's rows (its timing column left out)."""
    from .simulation import simulate

    options = dict(options)
    players = options.pop("players")
    frame = simulate(game, players=players, bots=bots, games=games, seed=1, workers=1,
                     progress=False, **options)
    columns = [c for c in frame.columns if "second" not in c and "time" not in c]
    blob = frame[columns].to_json(orient="split", double_precision=15)
    return f"{hashlib.sha256(blob.encode()).hexdigest()[:16]} ({len(frame)} rows)"


def fingerprints(quick: bool = False) -> Iterator[dict[str, Any]]:
    """One record per configuration and one per seeded simulation."""
    for game, options in CONFIGURATIONS:
        yield {"game": game, "options": options,
               **configuration_digests(game, options, games=1 if quick else 3)}
    for game, options, bots in SIMULATIONS:
        yield {"game": game, "options": options, "simulate": bots,
               "digest": simulation_digest(game, options, bots, games=4 if quick else 20)}
