"""`python -m aloftnb bench`: the figures of the engines, the adapters, the match, simulation,
tuning and MCTS, each a JSON line (`measure`, `value`, `unit`, and a target where an issue set
one), with readable lines on stderr. Times are CPU times of this process (or of the child
processes that time the pure and the compiled build side by side).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from .core.chance import CHANCE


def _line(measure: str, value: float, unit: str, target: str | None = None,
          meets: bool | None = None, **detail: Any) -> None:
    out: dict[str, Any] = {"measure": measure, "value": round(value, 4), "unit": unit}
    if target is not None:
        out["target"], out["meets_target"] = target, meets
    out.update(detail)
    print(json.dumps(out), flush=True)


def _timed_loop(play_one: Callable[[int], int], seconds: float, first: int = 0
                ) -> tuple[int, int, float]:
    """Call play_one(i), i = first, first + 1, ..., until `seconds` of this process's CPU time
    pass: (calls, summed result, CPU seconds). CPU time, so the rates and their ratios to the
    C++ yardstick (timed the same way) hold on a machine other work shares; on an idle one it
    is the wall time."""
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds:
        steps += play_one(first + games)
        games += 1
    return games, steps, time.process_time() - start


ROUNDS = 3  # rounds of a comparison: each loop runs a share of its time in each


def _timed_rounds(plays: dict[str, Callable[[int], int]], seconds: float,
                  rounds: int = ROUNDS, first: int = 0) -> dict[str, tuple[int, int, float]]:
    """_timed_loop of each play for `seconds` in all, in `rounds` rounds that take turns
    (play A, B, C, then A, B, C again...): a drift in the machine's speed then falls on every
    play of a comparison alike, where timing each at once left it on whichever ran then.
    Each play starts at game `first` and goes on with the games after its last round's."""
    totals = dict.fromkeys(plays, (0, 0, 0.0))
    for _ in range(rounds):
        for name, play in plays.items():
            games, steps, elapsed = totals[name]
            more = _timed_loop(play, seconds / rounds, first=first + games)
            totals[name] = (games + more[0], steps + more[1], elapsed + more[2])
    return totals


def _random_playout(rules: Any, rng: random.Random) -> Callable[[int], int]:
    """Random play of one game from seed i to its end, chance drawn with `rng`: its steps."""
    legal, apply, is_over = rules.legal_actions, rules.apply, rules.is_over
    player, sample = rules.current_player, rules.sample_chance

    def play(i: int) -> int:
        state, steps = rules.initial_state(i), 0
        while not is_over(state):
            if player(state) == CHANCE:
                state = apply(state, sample(state, rng))
            else:
                actions = legal(state)
                state = apply(state, actions[int(rng.random() * len(actions))])
            steps += 1
        return steps

    return play


def bench_fast_path(seconds: float) -> None:
    from .core.registry import make_rules

    for game, players, target in (("balloons", 3, 1000), ("commodores", 3, None),
                                  ("cloudspire", 2, None)):
        play = _random_playout(make_rules(game, players), random.Random(0))
        games, steps, elapsed = _timed_loop(play, seconds)
        rate = games / elapsed
        _line(f"{game}_random_games_per_s_fast_path", rate, "games/s",
              f">= {target} on one core" if target else None,
              rate >= target if target else None, players=players, games=games,
              actions_per_s=round(steps / elapsed))


ADAPTER_GAMES = (("balloons", 3), ("alu", 2), ("commodores", 3), ("cloudspire", 2))
# Speed targets for the adapters: each one's random play as a share of the fast path's
# actions/s (an adapter should add little to the engine's own cost).
ADAPTER_TARGETS = {"openspiel": ("openspiel_adapter", 0.5), "pettingzoo": ("pettingzoo", 0.25)}


def bench_adapters(seconds: float) -> None:
    """Random play of each game through the fast path, the OpenSpiel adapter (legal_actions and
    apply_action on a pyspiel state) and the PettingZoo adapter (an agent_iter loop that reads
    each step's action mask and picks among its non-zero places), in actions per second, timed
    in rounds that take turns (`_timed_rounds`); then each adapter's rate as a share of the
    fast path's (a JSON line, and a readable line on stderr)."""
    from .core.registry import make_rules

    for game, players in ADAPTER_GAMES:
        rules = make_rules(game, players)
        rng = random.Random(0)
        plays = {"fast_path": _random_playout(rules, rng)}
        skipped: dict[str, str] = {}
        for adapter, bench in (("openspiel", _bench_openspiel_adapter),
                               ("pettingzoo", _bench_pettingzoo_adapter)):
            try:
                plays[adapter] = bench(game, players, rng)
            except ImportError as exc:
                skipped[adapter] = f"{exc}"
        timed = _timed_rounds(plays, seconds)
        games, steps, elapsed = timed["fast_path"]
        fast = steps / elapsed
        _line(f"{game}_random_actions_per_s_fast_path", fast, "actions/s",
              players=players, games=games)
        summary = [f"{game} {players}p: fast path {fast:,.0f} actions/s"]
        floor = _bench_floors(game, rules, seconds)
        for adapter in ("openspiel", "pettingzoo"):
            measure = f"{game}_random_actions_per_s_{adapter}"
            if adapter in skipped:
                print(json.dumps({"measure": measure, "value": None,
                                  "skipped": skipped[adapter]}), flush=True)
                continue
            games, steps, elapsed = timed[adapter]
            rate = steps / elapsed
            _line(measure, rate, "actions/s", players=players, games=games)
            label, target = ADAPTER_TARGETS[adapter]
            ratio = rate / fast
            _line(f"{game}_{label}_ratio", ratio, "x fast path", f">= {target:g} of the fast "
                  "path's actions/s", ratio >= target, players=players)
            text = f"{adapter} {rate:,.0f} ({ratio:.2f} of it, target {target:g})"
            if adapter in floor:  # a step's µs: the move, and the rest beside the floor's loop
                step, move = 1e6 / rate, 1e6 / fast
                text += (f" = {step:.2f} µs a step: move {move:.2f} + the rest "
                         f"{step - move:.2f} (the floor's loop: {floor[adapter]:.2f}), where the "
                         f"target allows {move / target:.2f}")
            summary.append(text)
        print("; ".join(summary), file=sys.stderr, flush=True)


def _bench_openspiel_adapter(game: str, players: int, rng: random.Random) -> Callable:
    from .adapters.bench import openspiel_loop
    from .adapters.openspiel import load_game

    # one set-up (seed 0); the play varies
    return openspiel_loop(load_game(game, players=players), rng)


def _bench_pettingzoo_adapter(game: str, players: int, rng: random.Random) -> Callable:
    from .adapters.bench import pettingzoo_loop
    from .adapters.pettingzoo import env

    return pettingzoo_loop(env(game, players), rng)


def _bench_floors(game: str, rules: Any, seconds: float) -> dict[str, float]:
    """Each adapter loop's cost a step, in µs, with an environment that plays no game but has
    this game's action count and its mean number of legal actions (from 20 seeded games)."""
    from .adapters import bench

    legal = max(1, round(bench.mean_legal(rules, 20)))
    rng, costs = random.Random(0), {}
    for adapter, make in (
            ("openspiel", lambda: bench.openspiel_loop(bench.openspiel_floor(legal), rng)),
            ("pettingzoo", lambda: bench.pettingzoo_loop(
                bench.pettingzoo_floor(rules.num_distinct_actions(), legal), rng))):
        try:
            play = make()
        except ImportError:
            continue
        _, steps, elapsed = _timed_loop(play, seconds)
        costs[adapter] = elapsed / steps * 1e6
        _line(f"{game}_{adapter}_floor_us", costs[adapter], "µs a step", legal=legal,
              actions=rules.num_distinct_actions())
    return costs


def bench_match(seconds: float) -> None:
    from .core.match import new_match

    rng = random.Random(0)

    def play(i: int) -> int:
        match = new_match("balloons", players=3, seed=i)
        while not match.is_over:
            actions = match.legal_actions()
            match.play(actions[int(rng.random() * len(actions))])
        return match.position

    games, steps, elapsed = _timed_loop(play, seconds)
    _line("balloons_random_games_per_s_match", games / elapsed, "games/s", players=3,
          games=games, actions_per_s=round(steps / elapsed))


def bench_simulate(game: str, games: int, target_s: float, players: int = 3,
                   target_games: int = 10_000) -> None:
    from .playtest.simulation import simulate

    start = time.perf_counter()
    results = simulate(game, players=players, bots="random", games=games, seed=0, workers=2,
                       progress=False)
    elapsed = time.perf_counter() - start
    full = games == target_games
    _line(f"{game}_{games}_random_games_wall_s_2_workers", elapsed, "s",
          f"<= {target_s:g} s for {target_games:,} games" if full else None,
          elapsed <= target_s if full else None, games=len(results), players=players,
          games_per_s=round(len(results) / elapsed))


# One knob per game for the tuning line: a trial is its games plus Optuna's and the knob's work.
TUNE_KNOBS: list[tuple[str, int, dict[str, Any]]] = [
    ("balloons", 3, {"columns": (8, 16)}), ("alu", 2, {"iron": (5, 15)}),
    ("commodores", 3, {"turn_limit": (20, 60)}),
    ("cloudspire", 2, {"catalogue.rules.gate_health": (6, 14)}),
]


def bench_tune(games: int) -> None:
    """The wall time of one tuning trial (seat fairness, random bots, in this process)."""
    from .playtest.tuning import tune

    for game, players, knobs in TUNE_KNOBS:
        start = time.perf_counter()
        results = tune(game, knobs, "seat_fairness", players=players, trials=1,
                       games_per_trial=games, workers=1, progress=False)
        elapsed = time.perf_counter() - start
        _line(f"{game}_tune_one_trial_{games}_games_wall_s", elapsed, "s", players=players,
              games=int(results.trials["games"].sum()), knob=next(iter(knobs)))


# Every game, mode and player count, with the time its rules page gives an MCTS decision at the
# default budget (`mcts`): a board's bot seat must answer within it.
MCTS_BUDGETS: list[tuple[str, int, dict[str, Any], float]] = [
    ("balloons", 2, {}, 1.0), ("balloons", 3, {}, 1.0), ("balloons", 5, {}, 1.0),
    ("balloons", 3, {"edition": "choice"}, 1.0), ("balloons", 1, {"mode": "solo"}, 1.0),
    ("balloons", 3, {"mode": "cooperative"}, 1.0),
    ("alu", 2, {}, 1.0),
    ("commodores", 2, {"two_players": True}, 1.0), ("commodores", 3, {}, 1.0),
    ("commodores", 5, {}, 1.0),
    ("cloudspire", 2, {}, 2.0), ("cloudspire", 3, {}, 2.0), ("cloudspire", 4, {}, 2.0),
    ("cloudspire", 1, {"mode": "solo"}, 2.0), ("cloudspire", 2, {"mode": "cooperative"}, 2.0),
    ("cloudspire", 3, {"mode": "cooperative"}, 2.0),
]


def bench_mcts(game: str, players: int, options: dict[str, Any], target_s: float, moves: int,
               iterations: int | None = None, rate_iterations: int = 200) -> None:
    """The game's default bot (`default_bot`): its decision times along one game (chance drawn,
    single-choice steps skipped), at its own budget unless `iterations` is given. Then, on the
    same decisions, the iterations per second of both searches (the guided `mcts` at the game's
    settings and today's `uct`), each given `rate_iterations` a decision."""
    from .core.bots import MCTSBot, UCTBot, default_bot, default_iterations, make_bot
    from .core.registry import make_rules

    rules = make_rules(game, players, **options)
    spec = default_bot(rules)
    bot = make_bot(spec) if iterations is None else MCTSBot(iterations=iterations)
    rng = random.Random(0)
    state = rules.initial_state(0)
    times: list[float] = []
    decisions: list[tuple[Any, int]] = []
    while not rules.is_over(state) and len(times) < moves:
        if rules.current_player(state) == CHANCE:
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        if len(rules.legal_actions(state)) > 1:  # single-choice moves skip the search
            start = time.perf_counter()
            seat = rules.current_player(state)
            assert seat is not None
            decisions.append((state, seat))
            action = bot.choose(rules, state, seat, rng)
            times.append(time.perf_counter() - start)
        else:
            action = rules.legal_actions(state)[0]
        state = rules.apply(state, action)
    median, worst = statistics.median(times), max(times)
    # e.g. cloudspire_solo_1p, commodores_two_players_2p
    label = "_".join([game, *(name if value is True else str(value)
                              for name, value in options.items()), f"{players}p"])
    budget = "default" if iterations is None else f"{iterations}_iterations"
    full = iterations is None
    _line(f"{label}_mcts_{budget}_s_per_move", median,
          "s (median)", f"<= {target_s:g} s per move" if full else None,
          worst <= target_s if full else None, max_s=round(worst, 4), moves=len(times),
          bot=spec if full else bot.spec,
          iterations=iterations or getattr(bot, "iterations", None) or default_iterations(rules))
    for search in (UCTBot(iterations=rate_iterations), MCTSBot(iterations=rate_iterations)):
        started = time.perf_counter()
        for where, seat in decisions:
            search.search(rules, where, seat, random.Random(1))
        elapsed = time.perf_counter() - started
        _line(f"{label}_{search.name}_iterations_per_s", rate_iterations * len(decisions) / elapsed,
              "iterations/s", decisions=len(decisions), bot=search.spec)


def bench_openspiel(seconds: float) -> float | None:
    """OpenSpiel's C++ connect_four through pyspiel, random play: its actions/s (or None)."""
    try:
        import pyspiel
    except ImportError as exc:
        print(json.dumps({"measure": "openspiel_connect_four_random_actions_per_s",
                          "value": None, "skipped": f"open_spiel is not installed ({exc}); "
                          "pip install 'aloftnb[bench]' or pip install open_spiel"}), flush=True)
        return None
    from .adapters.bench import openspiel_loop

    # the same loop as the OpenSpiel adapter's
    play = openspiel_loop(pyspiel.load_game("connect_four"), random.Random(0))
    games, steps, elapsed = _timed_loop(play, seconds)
    _line("openspiel_connect_four_random_actions_per_s", steps / elapsed, "actions/s",
          games_per_s=round(games / elapsed), games=games,
          note="yardstick: C++ engine through its Python API (pyspiel)")
    return steps / elapsed


# -- the compiled build beside the pure one ------------------------------------------------------
# Speed targets for the engines: each game's fast path as a fraction of OpenSpiel's C++
# connect_four (the yardstick).
CPP_TARGETS = {"balloons": 0.44, "alu": 0.25, "commodores": 0.23, "cloudspire": 0.08}
MCTS_STEP = 50  # iterations per search when timing MCTS


def build_counts(seconds: float, first: int = 0, yardstick: bool = True,
                 rounds: int = ROUNDS) -> dict[str, dict[str, float]]:
    """For this process's build (compiled or pure): with `yardstick`, OpenSpiel's C++
    connect_four through the adapters' loop (under "yardstick", when OpenSpiel is installed),
    and each game's fast path from game `first` on and its MCTS iterations (from the first
    decision of seed 0 with more than one choice), each for `seconds`, in `rounds` rounds that
    take turns (`_timed_rounds`): so a game's fast path, its MCTS and the yardstick they are
    divided by meet the same drift of the machine's speed. Returns what was done and the CPU
    seconds it took, so the rounds of several processes add up."""
    from .core.registry import make_rules

    plays: dict[str, Callable[[int], int]] = {}
    try:
        import pyspiel

        from .adapters.bench import openspiel_loop
    except ImportError:
        yardstick = False
    if yardstick:
        plays["yardstick"] = openspiel_loop(pyspiel.load_game("connect_four"),
                                            random.Random(first))
    compiled: dict[str, float] = {}
    for game, players in ADAPTER_GAMES:
        rules = make_rules(game, players)
        plays[game] = _random_playout(rules, random.Random(first))
        plays[f"{game} mcts"] = _mcts_searches(rules)
        compiled[game] = float(engine_compiled(rules))
    timed = _timed_rounds(plays, seconds, rounds, first)
    counts: dict[str, dict[str, float]] = {}
    if yardstick:
        counts["yardstick"] = {"actions": timed["yardstick"][1],
                               "actions_s": timed["yardstick"][2]}
    for game, _ in ADAPTER_GAMES:
        _, steps, elapsed = timed[game]
        _, searched, search_s = timed[f"{game} mcts"]
        counts[game] = {"actions": steps, "actions_s": elapsed, "iterations": searched,
                        "iterations_s": search_s, "engine_compiled": compiled[game]}
    return counts


def _mcts_searches(rules: Any) -> Callable[[int], int]:
    """Searches of MCTS_STEP iterations from the first decision of seed 0 with more than one
    choice, one a call (its iterations). One generator for all of them, new here: the searches,
    playouts included, are then the same in both builds and in every run."""
    from .core.bots import MCTSBot

    rng = random.Random(0)
    state = rules.initial_state(0)
    while (seat := rules.current_player(state)) in (CHANCE, None) \
            or len(rules.legal_actions(state)) < 2:
        state = rules.apply(state, rules.sample_chance(state, rng) if seat == CHANCE
                            else rules.legal_actions(state)[0])
    assert seat is not None

    def search(_: int) -> int:
        MCTSBot(iterations=MCTS_STEP).choose(rules, state, seat, rng)
        return MCTS_STEP

    return search


def engine_compiled(rules: Any) -> bool:
    """Whether a module of the game's package runs compiled (the fast path may live beside the
    rules class, as ALU's engine.py does)."""
    package = type(rules).__module__.rpartition(".")[0] + "."
    return any(name.startswith(package)
               and not (getattr(module, "__file__", None) or ".py").endswith(".py")
               for name, module in list(sys.modules.items()))


def _counts_in_child(pure: bool, seconds: float, first: int
                     ) -> tuple[str, dict[str, dict[str, float]]]:
    """build_counts in a fresh process of the pure or the compiled build: (its status, counts)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("ALOFTNB_PURE", None)
    if pure:
        env["ALOFTNB_PURE"] = "1"
    code = ("import json; from aloftnb.core import compiled; from aloftnb.benchmark import "
            f"build_counts; print(json.dumps([compiled.status(), "
            f"build_counts({seconds!r}, {first!r}, yardstick={not pure!r})]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True)
    status, counts = json.loads(done.stdout.splitlines()[-1])
    return status, counts


BUILD_ROUNDS = 2  # pure, compiled, pure, compiled: one process each


def _add_counts(total: dict[str, dict[str, float]], more: dict[str, dict[str, float]]) -> None:
    for name, numbers in more.items():
        kept = total.setdefault(name, dict.fromkeys(numbers, 0.0))
        for key, value in numbers.items():
            kept[key] = value if key == "engine_compiled" else kept[key] + value


def _rates(counts: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {name: {"actions_per_s": numbers["actions"] / numbers["actions_s"],
                   "mcts_iterations_per_s": (numbers["iterations"] / numbers["iterations_s"]
                                             if "iterations" in numbers else 0.0),
                   "engine_compiled": numbers.get("engine_compiled", 0.0)}
            for name, numbers in counts.items()}


def bench_builds(seconds: float, cpp_rate: float | None) -> None:
    """Each game's fast path and MCTS in the pure and the compiled build, the compiled build's
    speedup and the ratio to OpenSpiel's C++. The builds take turns, one process each
    (BUILD_ROUNDS rounds sharing `seconds`), so a drift in the machine's speed falls on both;
    the processes of the build (compiled, or pure where there is none) time the C++ yardstick
    too, and a ratio to it divides figures timed in those same processes (`cpp_rate`, timed
    earlier in this run, where OpenSpiel is missing there)."""
    totals: dict[str, dict[str, dict[str, float]]] = {"pure": {}, "compiled": {}}
    status = ""
    for round_ in range(BUILD_ROUNDS):
        first = round_ * 100_000  # (each round plays other games; both builds the same ones)
        _add_counts(totals["pure"], _counts_in_child(True, seconds / BUILD_ROUNDS, first)[1])
        status, counts = _counts_in_child(False, seconds / BUILD_ROUNDS, first)
        _add_counts(totals["compiled"], counts)
    pure, built = _rates(totals["pure"]), _rates(totals["compiled"])
    compiled = built if status == "compiled" else None
    no_build = {"value": None, "skipped": f"no compiled build ({status})"}
    for game, players in ADAPTER_GAMES:
        words = [f"{game} ({players} players):"]
        # a game whose engine the build leaves out runs its pure Python in both
        left_out: dict[str, Any] = {} if compiled is None or compiled[game]["engine_compiled"] \
            else {"note": "this game's engine is not compiled: both figures are pure Python"}
        engine_gain = 0.0  # (the fast path's, set first: the MCTS gain's target)
        for kind, unit in (("actions_per_s", "actions/s"),
                           ("mcts_iterations_per_s", "MCTS iterations/s")):
            stem = f"{game}_random_actions_per_s" if kind == "actions_per_s" else f"{game}_mcts"
            speedup = f"{game}_compiled_speedup" if kind == "actions_per_s" else \
                f"{game}_mcts_compiled_speedup"
            name = stem if kind == "actions_per_s" else f"{stem}_iterations_per_s"
            _line(f"{name}_pure", pure[game][kind], unit, players=players)
            words.append(f"pure {pure[game][kind]:,.0f} {unit}")
            if compiled is None:
                for measure in (f"{name}_compiled", speedup):
                    print(json.dumps({"measure": measure, **no_build}), flush=True)
                continue
            gain = compiled[game][kind] / pure[game][kind]
            _line(f"{name}_compiled", compiled[game][kind], unit, players=players, **left_out)
            if kind == "actions_per_s":
                engine_gain = gain
                _line(speedup, gain, "x", players=players, **left_out)
            else:  # a target: MCTS's loop is compiled too, so it gains as much as the fast path
                _line(speedup, gain, "x", f">= {game}_compiled_speedup ({engine_gain:.4f})",
                      gain >= engine_gain, players=players, **left_out)
            words.append(f"compiled {compiled[game][kind]:,.0f} (x{gain:.2f});")
        build = "compiled" if compiled and not left_out else "pure"
        best = built[game]["actions_per_s"]  # (pure Python where the build has no engine)
        yardstick = built["yardstick"]["actions_per_s"] if "yardstick" in built else cpp_rate
        measure = f"{game}_openspiel_cpp_ratio"
        if yardstick is None:
            print(json.dumps({"measure": measure, "value": None,
                              "skipped": "open_spiel is not installed"}), flush=True)
        else:
            target = CPP_TARGETS[game]
            _line(measure, best / yardstick, "x OpenSpiel C++ connect_four actions/s",
                  f">= {target}", best / yardstick >= target, players=players, build=build,
                  yardstick=round(yardstick))
            words.append(f"{best / yardstick:.3f} x OpenSpiel's C++ connect_four ({build}; "
                         f"{yardstick:,.0f} actions/s there)"
                         + (" (engine not compiled)" if left_out else ""))
        print(" ".join(words), file=sys.stderr, flush=True)


def cmd_bench(args: argparse.Namespace) -> int:
    quick = args.quick
    print(json.dumps({"measure": "machine", "python": platform.python_version(),
                      "cpus": os.cpu_count(), "quick": quick}), flush=True)
    bench_fast_path(0.3 if quick else 3.0)
    bench_adapters(0.3 if quick else 3.0)
    bench_match(0.3 if quick else 3.0)
    bench_simulate("balloons", 300 if quick else 10_000, 10.0)
    bench_simulate("commodores", 100 if quick else 10_000, 60.0)
    bench_simulate("cloudspire", 100 if quick else 1_000, 60.0, players=2, target_games=1_000)
    bench_tune(5 if quick else 50)
    for game, players, options, target_s in MCTS_BUDGETS:
        bench_mcts(game, players, options, target_s, moves=2 if quick else 10,
                   iterations=100 if quick else None, rate_iterations=20 if quick else 200)
    cpp_rate = bench_openspiel(0.3 if quick else 3.0)
    bench_builds(0.3 if quick else 3.0, cpp_rate)
    return 0
