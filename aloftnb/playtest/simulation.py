"""Simulating many games with bots: `simulate(...)` gives one pandas row per game."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ..core.bots import Bot, bot_for
from ..core.match import Match, new_match
from ..core.options import seed_problem
from ..core.processes import process_context, registered_here
from ..core.registry import make_rules
from ..core.rules import AnyRules
from ..errors import AloftnbError, IllegalAction
from .progress import ProgressBar
from .runner import GameSpec, play_chunk, seat_orders, worker_rules

ProgressHook = Callable[[int, int], None]


def _bots_for(players: int, bots: str | Bot | Sequence[str | Bot] | None,
              rules: AnyRules) -> tuple[Bot, ...]:
    if bots is None:
        bots = "random"
    if isinstance(bots, (str, Bot)):
        if isinstance(bots, str) and "," in bots:
            bots = [b for b in bots.split(",")]
        else:
            bots = [bots] * players
    bots = list(bots)
    if len(bots) != players:
        raise AloftnbError(f"{players} players need {players} bots (one per seat), "
                           f"got {len(bots)}: {bots!r}")
    return tuple(bot_for(b, rules) for b in bots)  # "bot": the game's default bot


def game_spec(game: str, players: int, bots: str | Bot | Sequence[str | Bot] | None,
              max_steps: int = 100_000, **options: Any) -> GameSpec:
    """What a worker needs to play games of `game` with these bots (one per seat) and options;
    the game, players and options are checked now."""
    rules = make_rules(game, players, **options)
    return GameSpec(game, players, dict(rules.options), _bots_for(players, bots, rules),
                    max_steps)


def _bar_hook(bar: ProgressBar) -> ProgressHook:
    def hook(done: int, total: int) -> None:
        bar.update(done)

    return hook


def _chunks(indices: list[int], size: int) -> list[list[int]]:
    return [indices[i:i + size] for i in range(0, len(indices), size)]


def simulate(game: str, *, players: int | None = None,
             bots: str | Bot | Sequence[str | Bot] | None = None, games: int = 100,
             seed: int = 0, workers: int | None = None, executor: cf.Executor | None = None,
             progress: bool | ProgressHook = True, chunk_size: int | None = None,
             max_steps: int = 100_000, rotate_seats: bool = False,
             **options: Any) -> pd.DataFrame:
    """Play `games` games of `game` and return one row per game (a pandas DataFrame).

    - `bots`: one per seat ("random", "greedy", "mcts", "mcts:500", Bot instances), a list or a
      comma-separated text; one bot name alone takes every seat. Default: random.
    - `seed`: the run's seed. Game i's seed comes from (seed, i) alone, so the results are the
      same whatever `workers`, `chunk_size` or executor.
    - `workers`: local processes (default: all cores; 1 plays in this process). `executor`: any
      `concurrent.futures.Executor` instead, e.g. a Dask client's `client.get_executor()`.
    - `progress`: a progress bar (True), none (False), or a callable `(done, total)`.
    - Ctrl-C (KeyboardInterrupt) stops the run and returns the games finished so far, with
      `df.attrs["interrupted"] = True`.
    - A bot that raises or plays an illegal action gives that game an error row (`error` says
      what happened) and the run goes on.
    - `rotate_seats=True`: each of the `games` deals is played once in every distinct seat order
      of the bots (3 bots: 6 orders), on the same game seed, so every bot sits in every seat
      equally often and per-seat and per-bot win rates can be read apart. The run then has
      `games` x orders rows, with the columns `deal` and `seat_order` (the line-up index of the
      bot at each seat). Without it, different bots at different seats confound the seat with
      the bot, and `design_metrics` warns about its seat figures.

    Columns: game_index, seed, game, players, options (JSON; a quiet option at its default is
    left out), bots, bot_<seat>, score_<seat>, win_<seat> (1 when among the winners), winners,
    length (actions), branching (mean legal actions per decision), lead_changes (after each
    round), score_spread, the game's own measures, positions, error, error_seat, moves
    (legal-action indices, for `results_match`).
    """
    if players is None:
        if bots is not None and not isinstance(bots, (str, Bot)):
            players = len(bots)
        else:
            raise AloftnbError("simulate needs players=... (or one bot per seat)")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise AloftnbError(f"games must be a whole number >= 0, not {games!r}")
    problem = seed_problem(seed)
    if problem:
        raise AloftnbError(f"seed {problem}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise AloftnbError(f"workers must be a whole number >= 1, not {workers!r}")
    if not isinstance(rotate_seats, bool):
        raise AloftnbError(f"rotate_seats must be True or False, not {rotate_seats!r:.60}")
    spec = game_spec(game, players, bots, max_steps, **options)
    if rotate_seats:
        spec = GameSpec(spec.game, spec.players, spec.options, spec.bots, spec.max_steps,
                        orders=seat_orders(spec.bots))
        games *= len(spec.orders)

    if executor is None and workers is None:
        workers = os.cpu_count() or 1
    parallel = executor is not None or (workers or 1) > 1
    lanes = (workers or 1) if executor is None else 8
    if chunk_size is None:
        # Small enough for a live progress bar and little lost work on Ctrl-C; large enough that
        # sending a chunk costs little next to playing it.
        chunk_size = max(1, min(100, games // (lanes * 16) or 1)) if parallel else 1
    chunks = _chunks(list(range(games)), chunk_size)

    bar: ProgressBar | None = None
    hook: ProgressHook | None = None
    if callable(progress):
        hook = progress
    elif progress:
        bar = ProgressBar(games)
        hook = _bar_hook(bar)

    rows: list[dict[str, Any]] = []
    interrupted = False
    try:
        if not parallel:
            rules_once = worker_rules(spec)  # one game per chunk: build the rules once
            for chunk in chunks:
                rows.extend(play_chunk(spec, seed, chunk, rules_once))
                if hook:
                    hook(len(rows), games)
        else:
            rows, interrupted = _run_parallel(spec, seed, chunks, games, executor, workers, hook)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close(interrupted)
    if interrupted:
        warnings.warn(f"simulation interrupted: returning the {len(rows)} finished games of "
                      f"{games}", stacklevel=2)
    return _frame(rows, spec, seed, games, interrupted)


def _run_parallel(spec: GameSpec, seed: int, chunks: list[list[int]], games: int,
                  executor: cf.Executor | None, workers: int | None,
                  hook: ProgressHook | None) -> tuple[list[dict[str, Any]], bool]:
    rows: list[dict[str, Any]] = []
    own = executor is None
    if executor is None:
        executor = cf.ProcessPoolExecutor(max_workers=workers,
                                          mp_context=process_context(_defined_here(spec)))
    futures = [executor.submit(play_chunk, spec, seed, chunk) for chunk in chunks]
    consumed: set[cf.Future[list[dict[str, Any]]]] = set()
    interrupted = False
    try:
        for future in cf.as_completed(futures):
            rows.extend(future.result())
            consumed.add(future)
            if hook:
                hook(len(rows), games)
    except KeyboardInterrupt:
        interrupted = True
        for future in futures:
            future.cancel()
        for future in futures:  # keep what finished while we were stopping
            if (future not in consumed and future.done() and not future.cancelled()
                    and future.exception() is None):
                rows.extend(future.result())
    finally:
        if own:
            if interrupted:  # stop the games in progress now rather than at interpreter exit
                for process in list(getattr(executor, "_processes", {}).values()):
                    process.terminate()
            executor.shutdown(wait=not interrupted, cancel_futures=True)
    return rows, interrupted


def _defined_here(spec: GameSpec) -> bool:
    """Whether the workers need something that exists only in this process: a bot class or a
    rules class defined in a notebook cell (module __main__), or a game registered at run time.
    Only forked workers, which copy this process, can use those."""
    classes = [type(bot) for bot in spec.bots] + [type(spec.rules())]
    return (any(cls.__module__ == "__main__" for cls in classes)
            or registered_here(spec.game))


def _frame(rows: list[dict[str, Any]], spec: GameSpec, seed: int, games: int,
           interrupted: bool) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    if not df.empty:
        df = df.sort_values("game_index", kind="stable").reset_index(drop=True)
    df.attrs.update({
        "game": spec.game, "players": spec.players, "options": dict(spec.options),
        "bots": [b.spec for b in spec.bots], "seed": seed, "games": games,
        "interrupted": interrupted, "rotate_seats": bool(spec.orders),
        "seat_orders": len(spec.orders) or 1,
    })
    return df


def results_match(results: pd.DataFrame, index: int) -> Match:
    """The `Match` of row `index` of simulation results, replayed to its last action.

    `match.goto(n)` steps through it; `match.board()` shows it. Works on results read back from
    CSV. Raises AloftnbError when the row cannot be replayed (e.g. the rules have changed).
    """
    if not isinstance(results, pd.DataFrame):
        raise AloftnbError(f"results_match needs simulation results (a DataFrame), "
                           f"not {type(results).__name__}")
    if isinstance(index, bool) or not isinstance(index, int) or not (
            -len(results) <= index < len(results)):
        raise AloftnbError(f"row must be a whole number 0..{len(results) - 1}, not {index!r}")
    missing = [c for c in ("game", "players", "options", "seed", "moves") if c not in results]
    if missing:
        raise AloftnbError(f"these results have no {missing[0]!r} column; they are not from "
                           "aloftnb.simulate")
    row = results.iloc[index]
    try:
        options = json.loads(row["options"])
    except (TypeError, ValueError):
        raise AloftnbError(f"row {index}: 'options' is not JSON: {row['options']!r}") from None
    if not isinstance(options, dict):
        raise AloftnbError(f"row {index}: 'options' must be a JSON object")
    match = new_match(str(row["game"]), players=int(row["players"]), seed=int(row["seed"]),
                      **options)
    text = row["moves"]
    text = "" if not isinstance(text, str) else text
    for step, token in enumerate(text.split(), start=1):
        actions = match.legal_actions()
        if not token.isdigit() or int(token) >= len(actions):
            raise AloftnbError(f"row {index}, move {step}: {token!r} is not one of the "
                               f"{len(actions)} legal actions (results from other rules?)")
        try:
            match.play(actions[int(token)])
        except IllegalAction as exc:
            raise AloftnbError(f"row {index}, move {step} cannot be replayed: {exc}") from None
    if not row.get("error") or (isinstance(row.get("error"), float)):
        for seat, score in match.scores().items():
            recorded = row.get(f"score_{seat}")
            if recorded is not None and not pd.isna(recorded) and float(recorded) != score:
                raise AloftnbError(
                    f"row {index}: replaying gives seat {seat} a score of {score}, the results "
                    f"say {recorded} (results from other rules?)")
    # Who played each seat, so a board of this replay names the bots (it plays none itself).
    match.played_by = {seat: str(row[f"bot_{seat}"]) for seat in range(match.players)
                       if isinstance(row.get(f"bot_{seat}"), str)}
    return match
