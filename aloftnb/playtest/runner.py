"""Playing simulated games: the part that runs in worker processes (no pandas, no Jupyter).

Each game's seed is derived from (run seed, game index) alone, each seat's bot gets its own
generator derived from the game seed, and each chance step is drawn from the game's own chance
stream (`chance_rng(seed, step)`, as a `Match` draws it), so a game's result never depends on
which worker played it, and `results_match` replays it exactly.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, replace
from typing import Any

from ..core.bots import Bot, IllegalChoice, game_hooks
from ..core.chance import CHANCE, chance_rng, derive_seed
from ..core.options import recorded_options
from ..core.registry import make_rules
from ..core.rules import AnyRules
from .measures import GameMeasures

__all__ = ["GameSpec", "bot_rng", "derive_seed", "game_seed", "play_chunk", "play_game",
           "worker_rules"]


def game_seed(run_seed: int, index: int) -> int:
    return derive_seed("aloftnb.game", run_seed, index)


def bot_rng(seed: int, seat: int) -> random.Random:
    return random.Random(derive_seed("aloftnb.bot", seed, seat))


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play games of one variant (picklable)."""

    game: str
    players: int
    options: dict[str, Any]
    bots: tuple[Bot, ...]
    max_steps: int = 100_000
    # Seat rotation: each deal is played once per order; order[seat] is the index of the bot of
    # `bots` (the line-up) sitting at that seat. Empty: every game uses `bots` as they are.
    orders: tuple[tuple[int, ...], ...] = ()

    def rules(self) -> AnyRules:
        return make_rules(self.game, self.players, **self.options)


def _remember_last_legal_actions(rules: AnyRules) -> None:
    """The runner and the bot both ask for the same state's legal actions: compute them once.

    Only on this worker's private rules object; states are immutable, so identity is enough.
    Each caller gets its own copy of the list.
    """
    compute = rules.legal_actions
    last: list[Any] = [None, []]

    def legal_actions(state: Any) -> list[Any]:
        if state is not last[0]:
            last[0], last[1] = state, compute(state)
        return list(last[1])

    # A search asks for the actions of millions of states, each once: it calls the rules' own
    # method (core/search.py), which this wrapper would slow by a sixth in Cloudspire.
    legal_actions.uncached = compute  # type: ignore[attr-defined]
    try:
        rules.legal_actions = legal_actions  # type: ignore[method-assign]
    except AttributeError:
        pass  # a rules class with __slots__: no shortcut, same results


def worker_rules(spec: GameSpec) -> AnyRules:
    """The rules object a worker plays its games with (built once: building one reads the
    game's data and its tables)."""
    rules = spec.rules()
    _remember_last_legal_actions(rules)
    return rules


def play_chunk(spec: GameSpec, run_seed: int, indices: list[int],
               rules: AnyRules | None = None) -> list[dict[str, Any]]:
    """Play the games with these indices; one row dict each. Runs in a worker, with `rules`
    from `worker_rules(spec)` when it plays several chunks in a row."""
    if rules is None:
        rules = worker_rules(spec)
    if spec.orders:
        return [play_rotated_game(rules, spec, run_seed, index) for index in indices]
    return [play_game(rules, spec, run_seed, index) for index in indices]


def seat_orders(bots: tuple[Bot, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct seating of a line-up: (0, 1, 2), (0, 2, 1), ... once per distinct result.

    Equal bots are interchangeable, so ("mcts", "random", "random") gives 3 orders, not 6.
    """
    seen: set[tuple[str, ...]] = set()
    orders = []
    for order in itertools.permutations(range(len(bots))):
        seating = tuple(bots[i].spec for i in order)
        if seating not in seen:
            seen.add(seating)
            orders.append(order)
    return tuple(orders)


def play_rotated_game(rules: AnyRules, spec: GameSpec, run_seed: int, index: int) -> dict[str, Any]:
    """Game `index` of a rotated run: deal index // len(orders), seated in one of the orders.

    Every order of a deal plays the same game seed, so the seatings differ only in who sits where.
    """
    deal, which = divmod(index, len(spec.orders))
    order = spec.orders[which]
    seated = replace(spec, bots=tuple(spec.bots[i] for i in order), orders=())
    row = play_game(rules, seated, run_seed, deal)
    row["game_index"] = index
    row["deal"] = deal
    row["seat_order"] = " ".join(map(str, order))
    return row


def play_game(rules: AnyRules, spec: GameSpec, run_seed: int, index: int) -> dict[str, Any]:
    """Play one game to the end with the spec's bots. A failing bot gives an error row.

    The loop plays; a GameMeasures (measures.py) it feeds gives the row's measure columns."""
    seed = game_seed(run_seed, index)
    bots = spec.bots
    rngs = [bot_rng(seed, seat) for seat in range(rules.players)]
    state = rules.initial_state(seed)
    measured = GameMeasures(rules, state)
    moves: list[int] = []  # decisions only: chance steps are drawn again on replay
    steps = 0  # decisions and chance steps: the position a Match would be at
    error = ""
    error_seat: int | None = None
    legal, apply, is_over, player_of = (rules.legal_actions, rules.apply, rules.is_over,
                                        rules.current_player)
    sample_chance = rules.sample_chance
    over = is_over(state)
    while not over:
        if steps >= spec.max_steps:
            error = f"the game did not end within {spec.max_steps} steps"
            break
        seat = player_of(state)
        assert seat is not None  # the game is not over
        if seat == CHANCE:
            try:
                state = apply(state, sample_chance(state, chance_rng(seed, steps)))
            except Exception as exc:  # noqa: BLE001 - a rules bug: keep the moves leading to it
                error = f"the rules raised {type(exc).__name__} at a chance step: {exc}"
                break
            steps += 1
            measured.chance_step()
        else:
            actions = legal(state)
            measured.decision(state, actions)
            bot = bots[seat]
            try:
                choice = bot.choose_index(rules, state, seat, rngs[seat], actions)
                action = actions[choice]
            except IllegalChoice as exc:
                error, error_seat = (f"seat {seat} ({bot.spec}) chose {exc.action!r}, which is "
                                     "not a legal action"), seat
                break
            except Exception as exc:  # noqa: BLE001 - a broken bot spoils its game, not the run
                error = f"seat {seat} ({bot.spec}) raised {type(exc).__name__}: {exc}"
                error_seat = seat
                break
            moves.append(choice)
            try:
                state = apply(state, action)
            except Exception as exc:  # noqa: BLE001 - a rules bug: keep the moves leading to it
                error = f"the rules raised {type(exc).__name__} applying {action}: {exc}"
                break
            steps += 1
        over = is_over(state)
        measured.stepped(state, over)
    row: dict[str, Any] = {
        "game_index": index,
        "seed": seed,
        "game": rules.name,
        "players": rules.players,
        "options": json.dumps(recorded_options(rules.option_spec, rules.options),
                              sort_keys=True),
        "bots": ",".join(b.spec for b in bots),
    }
    for seat in range(rules.players):
        row[f"bot_{seat}"] = bots[seat].spec
    finished = not error
    result = rules.outcome(state) if finished else None
    final = (result.scores or rules.scores(state)) if result is not None else {}
    winners = list(result.winners) if result is not None else []
    for seat in range(rules.players):
        row[f"score_{seat}"] = float(final[seat]) if finished else float("nan")
    for seat in range(rules.players):
        row[f"win_{seat}"] = (1 if seat in winners else 0) if finished else float("nan")
    row["winners"] = " ".join(str(w) for w in winners)
    row["reason"] = result.reason if result is not None else ""
    row.update(measured.columns(game_hooks(rules), state, len(moves),
                                final if finished else None))
    row["error"] = error
    row["error_seat"] = error_seat if error_seat is not None else -1
    row["moves"] = " ".join(map(str, moves))
    return row
