"""The balance lab's search: `tune(game, knobs, objectives, ...)` tries settings of a game's
knobs with Optuna, plays each trial's games with `simulate`, and returns a `TuneResults`."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import os
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.bots import Bot, make_bot
from ..core.chance import derive_seed
from ..core.options import seed_problem
from ..core.processes import process_context
from ..errors import AloftnbError, InvalidOptions
from .knobs import KnobSet, knob_set
from .metrics import SeatsNotComparableWarning
from .objectives import (
    Estimate,
    FactionFairness,
    Lineup,
    Objective,
    SeatFairness,
    TrialData,
    as_objectives,
)
from .progress import ProgressBar
from .runner import GameSpec
from .simulation import _bots_for, _defined_here, simulate
from .tune_results import TuneResults

__all__ = ["tune"]


def _optuna() -> Any:
    try:
        import optuna
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError("aloftnb.tune needs optuna, which this Python does not have: "
                                  "`pip install aloftnb[tune]`", name=exc.name) from exc
    return optuna


def _whole(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise AloftnbError(f"{name} must be a whole number >= {low}, not {value!r}")
    return value


def _storage_url(storage: Any) -> Any:
    """An Optuna storage: a URL as given, a file path as an SQLite URL, a storage object as it
    is, None for a study kept in memory."""
    if storage is None or not isinstance(storage, (str, Path)):
        return storage
    text = str(storage)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def _distribution(optuna: Any, knob: Any) -> Any:
    dist = optuna.distributions
    if knob.values is not None:
        return dist.CategoricalDistribution(list(knob.values))
    if knob.whole:
        return dist.IntDistribution(knob.low, knob.high, step=int(knob.step or 1))
    return dist.FloatDistribution(float(knob.low), float(knob.high), step=knob.step)


def _in_range(knob: Any, value: Any) -> bool:
    if knob.values is not None:
        return any(type(v) is type(value) and v == value for v in knob.values)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if not knob.low <= value <= knob.high:
        return False
    if knob.step is None:
        return not knob.whole or isinstance(value, int)
    steps = (value - knob.low) / knob.step
    return bool(abs(steps - round(steps)) < 1e-9)


def _batches(games: int, batches: int) -> list[int]:
    """`games` split into `batches` nearly equal batches (the first ones one larger)."""
    batches = min(batches, games)
    size, extra = divmod(games, batches)
    return [size + (1 if i < extra else 0) for i in range(batches)]


@contextmanager
def _quiet_optuna(optuna: Any) -> Iterator[None]:
    """Optuna logs a line per trial; the progress bar says enough."""
    before = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        yield
    finally:
        optuna.logging.set_verbosity(before)


class _Trials:
    """Plays one trial's games and tells the study: the loop of `tune`."""

    def __init__(self, study: Any, optuna: Any, knobs: KnobSet, objectives: tuple[Objective, ...],
                 lineups: dict[Lineup, tuple[Bot, ...]], lineup: Lineup, batches: list[int],
                 seed: int, rotate_seats: bool, run_options: dict[str, Any], prune: bool) -> None:
        self.study, self.optuna, self.knobs, self.objectives = study, optuna, knobs, objectives
        self.lineups, self.lineup, self.batches = lineups, lineup, batches
        self.seed, self.rotate_seats, self.run_options = seed, rotate_seats, run_options
        self.prune = prune and len(objectives) == 1
        self.distributions = {k.name: _distribution(optuna, k) for k in knobs.knobs}

    def _best(self) -> float | None:
        """The best finished value of a single objective (what pruning compares with)."""
        done = self.study.get_trials(deepcopy=False,
                                     states=(self.optuna.trial.TrialState.COMPLETE,))
        return min((t.values[0] for t in done), default=None)

    def _record(self, trial: Any, estimates: Sequence[Estimate], games: int) -> None:
        for objective, est in zip(self.objectives, estimates):
            for part, number in zip(("value", "low", "high"), est):
                trial.set_user_attr(f"{part}:{objective.name}", float(number))
        trial.set_user_attr("games", games)

    def _evaluate(self, trial: TrialData) -> list[Estimate]:
        return [objective.evaluate(trial) for objective in self.objectives]

    def run_one(self) -> None:
        optuna = self.optuna
        State = optuna.trial.TrialState
        trial = self.study.ask(self.distributions)
        values = dict(trial.params)
        if self._repeat(trial, values):
            return
        try:
            rules = self.knobs.rules(values)
        except InvalidOptions as exc:  # a value inside the range the game refuses
            trial.set_user_attr("error", str(exc))
            self.study.tell(trial, state=State.FAIL)
            return
        options = self.knobs.options(values)
        data = TrialData(rules, self.lineup, {}, self.knobs.knobs, values)
        best = self._best() if self.prune else None
        try:
            for step, games in enumerate(self.batches):
                batch_seed = derive_seed("aloftnb.tune", self.seed, step)
                for lineup, bots in self.lineups.items():
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # an interruption is reported once
                        run = simulate(self.knobs.game, players=self.knobs.players,
                                       bots=list(bots), games=games, seed=batch_seed,
                                       progress=False, rotate_seats=self.rotate_seats,
                                       **self.run_options, **options)
                    if run.attrs.get("interrupted"):
                        raise KeyboardInterrupt
                    before = data.runs.get(lineup)
                    data.runs[lineup] = run if before is None else pd.concat(
                        [before, run], ignore_index=True)
                if self.prune and step < len(self.batches) - 1:
                    est = self.objectives[0].evaluate(data)
                    if not math.isnan(est.value):
                        trial.report(est.value, step)
                    if best is not None and not math.isnan(est.low) and est.low > best:
                        self._record(trial, [est], self._games(data))
                        self.study.tell(trial, state=State.PRUNED)
                        return
            estimates = self._evaluate(data)
        except KeyboardInterrupt:
            trial.set_user_attr("error", "interrupted")
            self.study.tell(trial, state=State.FAIL)
            raise
        except BaseException as exc:
            trial.set_user_attr("error", f"{type(exc).__name__}: {exc}"[:500])
            self.study.tell(trial, state=State.FAIL)
            raise
        self._record(trial, estimates, self._games(data))
        if any(math.isnan(e.value) for e in estimates):
            trial.set_user_attr("error", "no finished games to measure")
            self.study.tell(trial, state=State.FAIL)
            return
        self.study.tell(trial, [e.value for e in estimates])

    def _repeat(self, trial: Any, values: dict[str, Any]) -> bool:
        """A setting already finished plays the same deals to the same results: copy them."""
        State = self.optuna.trial.TrialState
        for earlier in self.study.get_trials(deepcopy=False, states=(State.COMPLETE,)):
            if earlier.params == values:
                for key, value in earlier.user_attrs.items():
                    trial.set_user_attr(key, value)
                trial.set_user_attr("repeat_of", earlier.number)
                self.study.tell(trial, list(earlier.values))
                return True
        return False

    def _games(self, data: TrialData) -> int:
        """Games played with the tune's own bots (else the largest of the other runs)."""
        if self.lineup in data.runs:
            return len(data.runs[self.lineup])
        return max((len(run) for run in data.runs.values()), default=0)


def _setup(game: str, players: int, knobs: KnobSet, objectives: tuple[Objective, ...],
           lineup: Lineup, games_per_trial: int, batches: int, seed: int,
           rotate_seats: bool) -> dict[str, Any]:
    """What a stored study was made with; resuming it with other settings is refused."""
    return {"game": game, "players": players,
            "knobs": [k.describe() for k in knobs.knobs],
            "objectives": [o.name for o in objectives], "bots": list(lineup),
            "games_per_trial": games_per_trial, "batches": batches, "seed": seed,
            "rotate_seats": rotate_seats,
            "options": json.dumps(knobs.base, sort_keys=True, default=str)[:2000]}


def _study(optuna: Any, storage: Any, study_name: str | None, seed: int, several: int,
           startup: int, setup: dict[str, Any], shipped: Mapping[str, Any] | None) -> Any:
    sampler = (optuna.samplers.NSGAIISampler(seed=seed) if several else
               optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup))
    kwargs: dict[str, Any] = ({"directions": ["minimize"] * several} if several else
                              {"direction": "minimize"})
    name = study_name or f"aloftnb-tune-{setup['game']}"
    study = optuna.create_study(storage=_storage_url(storage), study_name=name, sampler=sampler,
                                load_if_exists=True, **kwargs)
    before = study.user_attrs.get("aloftnb")
    if before is None:
        study.set_user_attr("aloftnb", setup)
        if shipped is not None:  # trial 0: the shipped settings, the point to beat
            study.enqueue_trial(dict(shipped))
    elif before != setup:
        changed = sorted(k for k in setup if before.get(k) != setup[k])
        raise AloftnbError(f"study {name!r} was made with other settings ({', '.join(changed)} "
                           "differ): resume it with the same ones, or give another study_name")
    return study


def tune(game: str, knobs: Mapping[str, Any], objectives: Any, *, players: int | None = None,
         bots: str | Bot | Sequence[str | Bot] | None = None, trials: int = 20,
         games_per_trial: int = 100, seed: int = 0, storage: Any = None,
         study_name: str | None = None, workers: int | None = None,
         executor: cf.Executor | None = None,
         progress: bool | Callable[[int, int], None] = True, rotate_seats: bool = True,
         batches: int = 4, prune: bool = True, **options: Any) -> TuneResults:
    """Search the knobs of `game` for settings that bring the objectives nearest 0.

    - `knobs`: {path: (low, high) | (low, high, step) | [values]}; paths as in
      aloftnb/playtest/knobs.py ("catalogue.rules.gate_health", "gate_health", "turn_limit").
      Every range end and listed value is checked by building the game's rules before any game
      is played; an unknown path is refused naming the nearest valid one (InvalidOptions).
    - `objectives`: one or several `aloftnb.objectives` objects or names ("seat_fairness").
      Each is minimized; each value comes with a 95% interval.
    - Each trial plays `games_per_trial` games (simulate's `games`: with `rotate_seats`, each
      deal in every seat order of the bots) in `batches` batches. Every trial plays the same
      deals (batch seeds come from `seed`), so trials differ by their settings, not their luck.
    - The search: Optuna's TPE sampler for one objective, NSGA-II for several, seeded with
      `seed` (the same seed gives the same trials). A fresh study's first trial is the shipped
      settings (when they lie in the ranges).
    - Pruning (one objective, `prune=True`): an interval check, not an Optuna pruner. After each
      batch but the last, a trial stops as "pruned" when even the low end of its objective's
      95% interval is above the best finished trial's value.
    - `storage`: None (in memory), a file path ("study.db", an SQLite file) or an Optuna storage
      URL. A study stored under `study_name` is resumed: `trials` more trials are added.
    - Ctrl-C (KeyboardInterrupt) stops the search and returns the trials finished so far.
    - `workers`, `executor`: as for simulate (one process pool serves the whole search).
    - `progress`: a bar across trials (True), none (False), or a callable (done, total).
    - `**options`: the game's options the knobs start from (e.g. mode="cooperative").
    """
    optuna = _optuna()
    if players is None:
        if bots is not None and not isinstance(bots, (str, Bot)):
            players = len(bots)
        else:
            raise AloftnbError("tune needs players=... (or one bot per seat)")
    trials = _whole("trials", trials, 1)
    games_per_trial = _whole("games_per_trial", games_per_trial, 1)
    batches = _whole("batches", batches, 1)
    problem = seed_problem(seed)
    if problem:
        raise AloftnbError(f"seed {problem}")
    if workers is not None:
        _whole("workers", workers, 1)
    objective_list = as_objectives(objectives)
    knobs_set = knob_set(game, players, knobs, options)
    base_rules = knobs_set.rules({})
    for objective in objective_list:
        objective.check(base_rules)
    own = _bots_for(players, bots, base_rules)
    lineup = tuple(b.spec for b in own)
    if not rotate_seats and len(set(lineup)) > 1 and any(
            isinstance(o, (SeatFairness, FactionFairness)) for o in objective_list):
        warnings.warn(f"seat and faction fairness compare seats at which different bots sit "
                      f"({', '.join(lineup)}), so they mix the seat with the bot; keep "
                      "rotate_seats=True", SeatsNotComparableWarning, stacklevel=2)
    lineups: dict[Lineup, tuple[Bot, ...]] = {}
    for objective in objective_list:
        wanted = objective.lineup(players, lineup)
        if wanted is not None and wanted not in lineups:
            lineups[wanted] = own if wanted == lineup else tuple(make_bot(b) for b in wanted)
    shipped = knobs_set.shipped()
    fits = all(_in_range(k, shipped[k.name]) for k in knobs_set.knobs)
    several = len(objective_list) if len(objective_list) > 1 else 0
    setup = _setup(game, players, knobs_set, objective_list, lineup, games_per_trial, batches,
                   seed, rotate_seats)
    with _quiet_optuna(optuna), warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        study = _study(optuna, storage, study_name, seed, several,
                       max(2, min(10, trials // 3)), setup, shipped if fits else None)
        pool = _pool(knobs_set, own, workers, executor)
        run_options: dict[str, Any] = {"workers": 1} if pool is None else {"executor": pool}
        loop = _Trials(study, optuna, knobs_set, objective_list, lineups, lineup,
                       _batches(games_per_trial, batches), seed, rotate_seats, run_options, prune)
        bar = ProgressBar(trials, "trials") if progress is True else None
        interrupted = False
        try:
            for done in range(1, trials + 1):
                loop.run_one()
                if bar is not None:
                    bar.update(done)
                elif callable(progress):
                    progress(done, trials)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.close(interrupted)
            if pool is not None and pool is not executor:
                _close_pool(pool, interrupted)
    if interrupted:
        warnings.warn("tuning interrupted: returning the trials finished so far", stacklevel=2)
    return TuneResults(study, knobs_set, objective_list, lineup, interrupted)


def _pool(knobs: KnobSet, bots: tuple[Bot, ...], workers: int | None,
          executor: cf.Executor | None) -> cf.Executor | None:
    """One executor for every trial's games (None: play them in this process)."""
    if executor is not None:
        return executor
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return None
    spec = GameSpec(knobs.game, knobs.players, knobs.resolved, bots)
    return cf.ProcessPoolExecutor(max_workers=workers,
                                  mp_context=process_context(_defined_here(spec)))


def _close_pool(pool: cf.Executor, interrupted: bool) -> None:
    if interrupted:  # stop the games in progress now rather than at interpreter exit
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
    pool.shutdown(wait=not interrupted, cancel_futures=True)
