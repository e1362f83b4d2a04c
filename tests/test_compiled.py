"""The compiled build (`make compiled`, aloftnb/core/compiled.py): the same games as the pure
Python, and never a compiled module in place of a source edited after the build."""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from aloftnb.core import compiled
from aloftnb.core.registry import make_rules

ROOT = Path(__file__).resolve().parent.parent
needs_build = pytest.mark.skipif(
    compiled.status() != "compiled",
    reason=f"no compiled build in use ({compiled.status()}); `make compiled` builds one")


def _run(*args: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ALOFTNB_PURE", None)
    if pure:
        env["ALOFTNB_PURE"] = "1"
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600, check=True)


@needs_build
def test_the_compiled_engines_are_the_ones_running():
    from aloftnb.games.balloons import advance

    assert Path(advance.__file__).suffix != ".py"
    assert "aloftnb.games.balloons.advance" in compiled.compiled_modules()


@needs_build
def test_the_bench_counts_a_game_compiled_by_its_engine_module():
    """ALU's rules class stays pure Python; its fast path (engine.py) is compiled, and the
    bench's compiled figures say so. Under ALOFTNB_PURE nothing is counted compiled."""
    code = ("from aloftnb.benchmark import engine_compiled; "
            "from aloftnb.core.registry import make_rules; "
            "print(*(engine_compiled(make_rules(g, 2)) for g in ('alu', 'cloudspire')))")
    assert _run("-c", code, pure=False).stdout.split() == ["True", "True"]
    assert _run("-c", code, pure=True).stdout.split() == ["False", "False"]


@needs_build
def test_code_that_picks_a_way_per_build_knows_which_build_runs():
    """is_compiled tells the builds apart, and the two places that pick the faster way per
    build (the observations' writer, sky commodores' record copy) follow it."""
    code = ("from aloftnb.core.compiled import is_compiled; "
            "from aloftnb.adapters import observations; "
            "from aloftnb.games.commodores import changes, state; "
            "print(is_compiled(observations.put_entries), observations.BY_NUMBER, "
            "changes.changed is state.CommodoresState._replace, is_compiled(is_compiled))")
    assert _run("-c", code, pure=False).stdout.split() == ["True", "True", "False", "False"]
    assert _run("-c", code, pure=True).stdout.split() == ["False", "False", "True", "False"]


@needs_build
def test_the_compiled_and_the_pure_build_play_the_same_games():
    """Every game, mode and edition, the same seeds through both builds: the legal actions and
    the state dict at every step, the views, logs, refusals, drawings, encodings and seeded
    simulations hash alike (`python -m aloftnb fingerprints`, one process per build)."""
    with ThreadPoolExecutor(2) as pool:
        pure, built = pool.map(lambda p: _run("-m", "aloftnb", "fingerprints", pure=p),
                               (True, False))
    pure_lines, built_lines = pure.stdout.splitlines(), built.stdout.splitlines()
    assert len(pure_lines) >= 17  # a line per game configuration, and the simulations
    assert built_lines == pure_lines


def _built_modules() -> list[str]:
    """compiled/build.py's MODULES (the file imports nothing outside the standard library)."""
    spec = importlib.util.spec_from_file_location("_compiled_build", ROOT / "compiled" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    modules: list[str] = build.MODULES
    return modules


def test_the_mcts_search_is_in_the_compiled_build():
    """Issue 22: MCTS must gain from the compiled build as the fast path does, so its loop and
    tree (core/search.py) are compiled, and the bot runs them rather than a loop of its own;
    so are the rewards and estimates its playouts end in, and the set-up its bench starts in."""
    from aloftnb.core import bots, search
    from aloftnb.core.hooks import rank_rewards
    from aloftnb.games.cloudspire import worth
    from aloftnb.games.cloudspire.metrics import HOOKS as CLOUDSPIRE
    from aloftnb.games.commodores import goals
    from aloftnb.games.commodores.metrics import HOOKS as COMMODORES

    assert {"aloftnb/core/search.py", "aloftnb/games/cloudspire/worth.py",
            "aloftnb/games/commodores/goals.py",
            "aloftnb/games/commodores/setup.py"} <= set(_built_modules())
    assert rank_rewards is search.rank_rewards
    state = make_rules("commodores", 3).initial_state(0)
    assert COMMODORES.estimate(make_rules("commodores", 3), state) == goals.goal_estimate(
        make_rules("commodores", 3), state)
    state = make_rules("cloudspire", 2).initial_state(0)
    assert CLOUDSPIRE.estimate(make_rules("cloudspire", 2), state) == worth.estimate(
        make_rules("cloudspire", 2), state)
    assert bots.run_search is search.search
    assert type(bots.MCTSBot(iterations=1).search(
        make_rules("balloons", 2), make_rules("balloons", 2).initial_state(0), 0,
        random.Random(0))) is search.Node


def test_the_openspiel_adapters_steps_are_in_the_compiled_build():
    """Issue 22: pyspiel asks the adapter's node for its player, legal moves and next node at
    every step, so spiel_nodes.py is compiled, and its moves are found without an interpreted
    frame (the node's methods are its own, not Python functions)."""
    import types

    from aloftnb.adapters import spiel_nodes

    assert "aloftnb/adapters/spiel_nodes.py" in _built_modules()
    if compiled.status() == "compiled":
        assert "aloftnb.adapters.spiel_nodes" in compiled.compiled_modules()
        assert Path(spiel_nodes.__file__).suffix != ".py"
        assert not isinstance(spiel_nodes._Node.decisions, types.FunctionType)


@needs_build
def test_a_compiled_search_runs_no_python_per_iteration():
    """In the compiled build the search loop is native code: the Python frames a search enters
    in core/bots.py and core/search.py are as many for 40 iterations as for 10 (the pure build
    calls a helper at every step)."""
    from aloftnb.core import bots, search

    assert Path(search.__file__).suffix != ".py"
    rules = make_rules("commodores", 3)
    state = rules.initial_state(0)
    watched = {str(ROOT / "aloftnb" / "core" / name) for name in ("bots.py", "search.py")}

    def python_calls(iterations: int) -> int:
        calls = 0

        def count(frame: Any, event: str, arg: Any) -> None:
            nonlocal calls
            if event == "call" and frame.f_code.co_filename in watched:
                calls += 1

        sys.setprofile(count)
        try:
            bots.MCTSBot(iterations=iterations).choose(rules, state, 0, random.Random(0))
        finally:
            sys.setprofile(None)
        return calls

    assert python_calls(10) == python_calls(40)


# Each game's seeded MCTS moves and its root's statistics (floats by repr), in one build.
MCTS_DIGEST = textwrap.dedent("""
    import random
    from aloftnb.core.bots import MCTSBot
    from aloftnb.core.registry import make_rules
    for game, players, options in [("balloons", 3, {}), ("alu", 2, {}), ("commodores", 3, {}),
                                   ("cloudspire", 2, {}), ("cloudspire", 1, {"mode": "solo"})]:
        rules = make_rules(game, players, **options)
        rng, state, moves = random.Random(1), rules.initial_state(1), 0
        while not rules.is_over(state) and moves < 12:
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            seat, bot = rules.current_player(state), MCTSBot(iterations=20, exploration=1.1)
            root = bot.search(rules, state, seat, random.Random(moves))
            stats = sorted((str(a), c.visits, c.available, repr(c.reward))
                           for a, c in root.children.items())
            action = bot.choose(rules, state, seat, rng)
            print(game, players, moves, str(action), root.visits, stats)
            state, moves = rules.apply(state, action), moves + 1
""")


@needs_build
def test_the_compiled_and_the_pure_build_search_alike():
    """The same seeds give the same MCTS moves and the same statistics at every node of the
    root, to the last bit of each summed reward, in both builds."""
    with ThreadPoolExecutor(2) as pool:
        pure, built = pool.map(lambda p: _run("-c", MCTS_DIGEST, pure=p), (True, False))
    assert len(pure.stdout.splitlines()) >= 5 * 12
    assert built.stdout == pure.stdout


def test_aloftnb_pure_runs_the_source():
    code = ("import aloftnb.games.alu.rules as r, aloftnb.core.compiled as c; "
            "print(r.__file__); print(c.status())")
    file, status = _run("-c", code, pure=True).stdout.splitlines()
    assert file.endswith("rules.py")
    assert status.startswith("pure: ")


def test_a_source_edited_after_the_build_runs_as_python_with_a_warning(tmp_path):
    """The manifest says how alu/rules.py read when it was compiled; it reads otherwise now, so
    the module is imported from its source and the warning names the file."""
    code = textwrap.dedent(f"""
        import json, sys, warnings
        import aloftnb.core.compiled as c
        fake = {{"python": sys.implementation.cache_tag, "modules": ["aloftnb/games/alu/rules.py"],
                 "sources": {{"aloftnb/games/alu/rules.py": "0" * 64}}}}
        manifest = {str(tmp_path / "manifest.json")!r}
        open(manifest, "w").write(json.dumps(fake))
        c.MANIFEST = c.Path(manifest)
        for name in [n for n in sys.modules if n.startswith("aloftnb.games.alu")]:
            del sys.modules[name]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            c.choose()
        import aloftnb.games.alu.rules as r
        print(r.__file__)
        print(c.status())
        print(caught[0].category.__name__, caught[0].message)
    """)
    file, status, warning = _run("-c", code, pure=False).stdout.splitlines()
    assert file == str(ROOT / "aloftnb" / "games" / "alu" / "rules.py")
    assert status == "pure: aloftnb/games/alu/rules.py changed after the compiled build"
    assert warning == ("StaleCompiledBuild aloftnb: aloftnb/games/alu/rules.py changed after "
                       "the compiled build, so the pure Python runs (make compiled rebuilds it)")


def test_a_compiled_module_function_binds_as_a_method():
    class Board:
        def __init__(self) -> None:
            self.size = 3

        area = compiled.method(lambda board, k: board.size * k)

    assert Board().area(2) == 6
    assert Board.area(Board(), 4) == 12


@needs_build
def test_a_flow_games_legal_actions_and_apply_run_compiled():
    """A flow game's derived methods live in the compiled flow.py, bound through
    compiled.method, so the fast path passes through no interpreted frame."""
    import types

    from aloftnb.core import flow
    from aloftnb.core.registry import make_rules

    rules = make_rules("balloons", 3)
    assert not isinstance(flow.apply_by_flow, types.FunctionType)  # compiled, not Python
    assert rules.apply.__func__ is flow.apply_by_flow
    assert rules.legal_actions.__func__ is flow.legal_by_flow
    state = rules.initial_state(0)
    assert rules.legal_actions(state) == flow.Flow.legal(rules.flow, rules, state, 0)


def test_a_rules_object_pickles_by_its_class_players_and_options():
    """Rules rebuild from their options when unpickled: the compiled fast path's tables
    (balloons' Tables, ALU's Board, sky commodores' Tables) are never pickled themselves."""
    import pickle

    from aloftnb.core.registry import make_rules

    for game, players, options in (("balloons", 3, {"columns": 10}), ("alu", 2, {}),
                                   ("commodores", 3, {}), ("cloudspire", 2, {})):
        rules = make_rules(game, players, **options)
        copy = pickle.loads(pickle.dumps(rules))
        assert copy == rules and copy is not rules and copy.options == rules.options
        state = rules.initial_state(4)
        assert copy.legal_actions(state) == rules.legal_actions(state)


@needs_build
def test_a_compiled_module_the_build_did_not_list_is_never_imported(tmp_path):
    """A compiled file left beside a source by an earlier build (its module since taken out of
    the build's list) would not import with this build's shared library: only the modules the
    manifest lists load compiled, the rest from their sources."""
    code = textwrap.dedent(f"""
        import json, sys
        import aloftnb.core.compiled as c
        fake = {{"python": sys.implementation.cache_tag,
                 "modules": ["aloftnb/games/balloons/wind.py"], "sources": {{}}}}
        manifest = {str(tmp_path / "manifest.json")!r}
        open(manifest, "w").write(json.dumps(fake))
        c.MANIFEST = c.Path(manifest)
        for name in [n for n in sys.modules if n.startswith("aloftnb.games.balloons")]:
            del sys.modules[name]
        c.choose()
        import aloftnb.games.balloons.advance as advance, aloftnb.games.balloons.wind as wind
        print(c.status())
        print(advance.__file__)
        print(wind.__file__.endswith(".py"))
    """)
    status, advance, wind_is_source = _run("-c", code, pure=False).stdout.splitlines()
    assert status == "compiled"
    assert advance == str(ROOT / "aloftnb" / "games" / "balloons" / "advance.py")
    assert wind_is_source == "False"  # listed, so compiled


@needs_build
def test_the_wheels_one_pure_and_one_holding_the_compiled_build(tmp_path):
    """`make wheel`: a py3-none-any wheel with no compiled file (the JupyterLite site's), and one
    for this Python and platform holding the compiled build. Installed, the second runs
    compiled, plays the same games as the pure Python, and runs an installed source edited
    after the build as Python, never the compiled module beside it."""
    import base64
    import hashlib
    import sysconfig
    import zipfile

    pytest.importorskip("hatchling")  # (the test extra's: the wheels build with no download)
    out = tmp_path / "dist"
    subprocess.run([sys.executable, str(ROOT / "compiled" / "wheel.py"), "--out", str(out)],
                   check=True, capture_output=True, text=True, timeout=600)
    (pure,) = out.glob("*-py3-none-any.whl")
    (built,) = [w for w in out.glob("*.whl") if w != pure]
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert built.name.startswith("aloftnb-") and f"-{python}-{python}-" in built.name
    with zipfile.ZipFile(pure) as wheel:
        names = wheel.namelist()
        assert "aloftnb/games/balloons/rules.py" in names
        assert not [n for n in names if n.endswith((".so", ".pyd", "_compiled.json"))]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    with zipfile.ZipFile(built) as wheel:
        names = set(wheel.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        tags = wheel.read(f"{info}/WHEEL").decode().splitlines()
        assert "Root-Is-Purelib: false" in tags and f"Tag: {python}-{python}-" in "\n".join(tags)
        for module in compiled.compiled_modules():
            path = module.replace(".", "/")
            assert f"{path}{suffix}" in names and f"{path}.py" in names
        assert "aloftnb/_compiled.json" in names
        assert any(n.startswith("aloftnb_compiled__mypyc") for n in names)
        # Every file's hash and size as its RECORD line says (pip checks them too).
        record = wheel.read(f"{info}/RECORD").decode().splitlines()
        listed = {line.split(",")[0] for line in record}
        assert listed == names
        for line in record:
            name, digest, size = line.split(",")
            if name.endswith("RECORD"):
                continue
            data = wheel.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), name

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(site), str(built)],
                   check=True, capture_output=True, text=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("ALOFTNB_PURE", None)

    def installed(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=600, check=True)

    where = ("import aloftnb, aloftnb.core.compiled as c, aloftnb.games.balloons.rules as r; "
             "print(aloftnb.__file__); print(r.__file__); print(c.status())")
    package, rules_file, status = installed("-c", where).stdout.splitlines()
    assert Path(package).is_relative_to(site) and status == "compiled"
    assert rules_file == str(site / "aloftnb" / "games" / "balloons" / f"rules{suffix}")
    # The same games as the checkout's pure Python.
    games = installed("-m", "aloftnb", "fingerprints", "--quick").stdout
    assert games and games == _run("-m", "aloftnb", "fingerprints", "--quick", pure=True).stdout
    # A designer edits an installed rule: its source runs, and the warning names it.
    scoring = site / "aloftnb" / "games" / "balloons" / "scoring.py"
    scoring.write_text(scoring.read_text("utf-8") + "\n# edited after the build\n", "utf-8")
    done = installed("-c", where)
    package, rules_file, status = done.stdout.splitlines()
    assert rules_file == str(site / "aloftnb" / "games" / "balloons" / "rules.py")
    assert status == "pure: aloftnb/games/balloons/scoring.py changed after the compiled build"
    assert "StaleCompiledBuild" in done.stderr and "scoring.py" in done.stderr
