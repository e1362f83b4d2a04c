"""Command line: `aloftnb simulate ...`, `aloftnb bench`, `aloftnb games` (or `python -m aloftnb`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .benchmark import cmd_bench
from .errors import AloftnbError


def _option(text: str) -> tuple[str, Any]:
    """NAME=VALUE; VALUE is read as JSON (numbers, lists, true/false) or else kept as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"options are NAME=VALUE, not {text!r}")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aloftnb", description="Tabletop games in JupyterLab: "
                                     "simulate games with bots, benchmark the engines.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play many games with bots; write CSV and a report")
    sim.add_argument("game", help="a game name (see `aloftnb games`)")
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--bots", default="random",
                     help="one bot per seat, comma-separated (random, greedy, mcts, mcts:500, "
                          "mcts:0.5s), or one bot for every seat")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--workers", type=int, default=None, help="local processes (default: cores)")
    sim.add_argument("--option", "-o", type=_option, action="append", default=[],
                     metavar="NAME=VALUE", help="a rule option, e.g. -o edition=choice")
    sim.add_argument("--out", help="write one row per game to this CSV file")
    sim.add_argument("--report", help="write the plots and metrics to this HTML file")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.add_argument("--rotate-seats", action="store_true",
                     help="play each deal in every seat order of the bots (--games deals)")

    bench = sub.add_parser("bench", help="print one JSON line per performance measure")
    bench.add_argument("--quick", action="store_true",
                       help="small runs (a smoke test of the command, not real figures)")

    sub.add_parser("games", help="list the games with their options")
    prints = sub.add_parser("fingerprints", help="print digests of what every game shows, to "
                            "compare before and after a change")
    prints.add_argument("--quick", action="store_true", help="fewer games (a smoke test)")
    evidence = sub.add_parser("evidence", help="play or check the stored evidence for the "
                              "shipped numbers (measurements.json in a directory)")
    evidence.add_argument("directory", nargs="?", default="evidence")
    evidence.add_argument("--run", action="append", default=None, metavar="NAME",
                          help="play this run (repeatable); with no --run, only show the table")
    evidence.add_argument("--missing", action="store_true", help="play every run not stored")
    evidence.add_argument("--stale", action="store_true",
                          help="play every run not stored, measured on other data, or whose "
                               "shortest game no longer replays as stored")
    evidence.add_argument("--workers", type=int, default=None,
                          help="local processes for playing and replaying runs (default: cores)")
    strength = sub.add_parser("strength", help="the default bot against other bots at equal "
                              "time per move, seats rotated, with 95%% intervals")
    strength.add_argument("--game", action="append", default=None, metavar="NAME",
                          help="only this game's cases (repeatable; default: every game)")
    strength.add_argument("--opponent", action="append", default=None, metavar="BOT",
                          help="uct, greedy or openspiel-mcts (repeatable; default: all three)")
    strength.add_argument("--candidate", default=None,
                          help="the bot measured (default: each game's default bot)")
    strength.add_argument("--seconds", type=float, default=None,
                          help="seconds per move for both bots (default: 0.25, or the "
                               "candidate's own budget if less)")
    strength.add_argument("--games", type=int, default=None,
                          help="games per case (default: 100 for balloons and ALU, 60 for sky "
                               "commodores and Cloudspire)")
    strength.add_argument("--seed", type=int, default=0)
    strength.add_argument("--workers", type=int, default=None,
                          help="games at once, one core each (default: cores)")
    strength.add_argument("--out", help="append each row to this CSV file as it is measured")
    return parser


def cmd_strength(args: argparse.Namespace) -> int:
    import pandas as pd

    from .playtest.strength import CASES, SECONDS_PER_MOVE, strength

    cases = [c for c in CASES if args.game is None or c.game in args.game]
    if not cases:
        raise AloftnbError(f"no strength cases for {', '.join(args.game)} (games: "
                           f"{', '.join(sorted({c.game for c in CASES}))})")
    opponents = args.opponent or ["uct", "greedy", "openspiel-mcts"]
    print(f"{len(cases)} cases x {len(opponents)} opponents, "
          f"{args.seconds or SECONDS_PER_MOVE:g} s per move", flush=True)

    def report(row: dict[str, Any]) -> None:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                          for k, v in row.items()}), flush=True)
        if args.out:
            frame = pd.DataFrame([row])
            exists = Path(args.out).exists()
            frame.to_csv(args.out, mode="a", header=not exists, index=False)

    table = strength(cases, opponents, candidate=args.candidate,
                     seconds=args.seconds or SECONDS_PER_MOVE, seed=args.seed,
                     workers=args.workers, games=args.games, report=report)
    columns = [c for c in ("case", "opponent", "games", "share", "low", "high", "target",
                           "opponent_share", "verdict") if c in table]
    with pd.option_context("display.width", 160, "display.max_columns", None):
        print(table[columns].to_string(index=False, float_format="{:.3f}".format))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from .playtest.metrics import bot_win_rates, design_metrics, win_rates
    from .playtest.simulation import simulate

    options = dict(args.option)
    results = simulate(args.game, players=args.players, bots=args.bots, games=args.games,
                       seed=args.seed, workers=args.workers, progress=not args.no_progress,
                       rotate_seats=args.rotate_seats, **options)
    errors = int((results["error"] != "").sum()) if len(results) else 0
    print(f"{len(results)} games of {args.game} ({args.players} players, bots {args.bots}), "
          f"{errors} with errors")
    if len(results) - errors:
        print(win_rates(results).to_string(float_format=lambda v: f"{v:.3f}"))
        if len(bot_win_rates(results)) > 1:
            print(bot_win_rates(results).to_string(float_format=lambda v: f"{v:.3f}"))
        metrics = design_metrics(results)[["value", "low", "high"]]
        print(metrics.to_string(float_format=lambda v: f"{v:.3f}"))
    if args.out:
        results.to_csv(args.out, index=False)
        print(f"results: {args.out}")
    if args.report:
        from .playtest.reports import report

        report(results, args.report)
        print(f"report: {args.report}")
    return 130 if results.attrs.get("interrupted") else 0


def cmd_games(args: argparse.Namespace) -> int:
    from .core.registry import games

    print(json.dumps(games(), indent=2))
    return 0


def cmd_fingerprints(args: argparse.Namespace) -> int:
    from .playtest.fingerprints import fingerprints

    for record in fingerprints(quick=args.quick):
        print(json.dumps(record), flush=True)
    return 0


def cmd_evidence(args: argparse.Namespace) -> int:
    import pandas as pd

    from .playtest.evidence import evidence_status, evidence_table, measure

    names = args.run
    if args.stale:
        status = evidence_status(args.directory, workers=args.workers)
        fresh = status["stored"] & status["same_data"].eq(True) & status["replays"].eq(True)
        names = (names or []) + list(status.loc[~fresh, "run"])
    if names or args.missing:
        for name in measure(args.directory, names, workers=args.workers, progress=True,
                            missing_only=args.missing and not names):
            print(f"stored {name}", flush=True)
    with pd.option_context("display.width", 160, "display.max_rows", None,
                           "display.max_columns", None):
        print(evidence_status(args.directory, workers=args.workers).to_string(index=False))
        print()
        print(evidence_table(args.directory).to_string(index=False, float_format="{:.3f}".format))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = {"simulate": cmd_simulate, "bench": cmd_bench, "games": cmd_games,
               "fingerprints": cmd_fingerprints, "evidence": cmd_evidence,
               "strength": cmd_strength}[args.command]
    try:
        return command(args)
    except AloftnbError as exc:
        print(f"aloftnb: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
