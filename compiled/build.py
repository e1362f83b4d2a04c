"""Build the compiled modules: the rules engines and the core's hot paths, compiled with mypyc
from the same source (the way black and mypy ship), next to their .py files.

    python compiled/build.py            (what `make compiled` runs; needs mypy and a C compiler)
    python compiled/build.py --force    (rebuild even when the sources are those of the last build)
    python compiled/build.py --check    (whether this machine can build it: what `make test` asks)

Each compiled module is a file beside its source (e.g. aloftnb/games/alu/rules.cpython-311-...so),
plus mypyc's shared library at the top. aloftnb/_compiled.json records the sha256 of every
compiled source: at import, aloftnb uses the compiled modules only while every one of those
sources is unchanged, and otherwise runs the pure Python with a warning (see aloftnb/compiled.py).
The files are ignored by git and left out of the wheel `pip wheel .` builds, which stays pure
Python (the JupyterLite site's); `make wheel` (compiled/wheel.py) adds them to a second wheel,
for this Python and platform.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What is compiled: the engines' rules and the modules they call on every step, the observations
# and legal moves the adapters read at every step, and MCTS's search loop (core/search.py: the
# bot classes, which notebooks subclass, stay Python in bots.py). Left out:
# core/action.py (mypyc tests isinstance(x, Action) by exact type, so a game's action would not
# be an Action), core/records.py (Draft declares its dynamic fields in an `if` in the class
# body, which mypyc refuses) and the games' state.py (a compiled named tuple keeps `tuple` for a
# field typed `tuple[int, ...]`, which the records' dict reader needs). ALU's fast path is
# compiled as engine.py's functions on a final Board (native whole numbers, direct calls): its
# rules class, compiled, boxed every whole number and called methods the slow way (0.6x pure).
MODULES = [
    "aloftnb/core/flow.py", "aloftnb/core/chance.py", "aloftnb/kit/hexgrid.py",
    "aloftnb/kit/tuples.py", "aloftnb/core/search.py", "aloftnb/core/interning.py",
    "aloftnb/games/alu/engine.py",
    "aloftnb/games/balloons/rules.py", "aloftnb/games/balloons/advance.py",
    "aloftnb/games/balloons/wind.py", "aloftnb/games/balloons/scoring.py",
    "aloftnb/games/balloons/actions.py",
    "aloftnb/games/commodores/rules.py", "aloftnb/games/commodores/ships.py",
    "aloftnb/games/commodores/goals.py", "aloftnb/games/commodores/forage.py",
    "aloftnb/games/commodores/explore.py", "aloftnb/games/commodores/changes.py",
    "aloftnb/games/commodores/actions.py", "aloftnb/games/commodores/tables.py",
    "aloftnb/games/commodores/setup.py",
    "aloftnb/games/cloudspire/rules.py", "aloftnb/games/cloudspire/fights.py",
    "aloftnb/games/cloudspire/map.py", "aloftnb/games/cloudspire/actions.py",
    "aloftnb/games/cloudspire/units.py", "aloftnb/games/cloudspire/work.py",
    "aloftnb/games/cloudspire/phases/build.py", "aloftnb/games/cloudspire/phases/march.py",
    "aloftnb/games/cloudspire/phases/market.py", "aloftnb/games/cloudspire/phases/onslaught.py",
    "aloftnb/games/cloudspire/phases/prep.py",
    "aloftnb/games/balloons/encoding.py", "aloftnb/games/commodores/encoding.py",
    "aloftnb/games/cloudspire/encoding.py", "aloftnb/games/alu/encoding.py",
    "aloftnb/kit/observations.py", "aloftnb/adapters/observations.py",
    "aloftnb/games/cloudspire/worth.py", "aloftnb/adapters/steps.py",
    "aloftnb/adapters/spiel_nodes.py",
]
# The folders whose sources the compiled modules depend on (recorded in the manifest).
SOURCES = ["aloftnb/core", "aloftnb/kit", "aloftnb/games", "aloftnb/errors.py"]
MANIFEST = ROOT / "aloftnb" / "_compiled.json"
GROUP = "aloftnb_compiled"  # mypyc's group: its shared library is GROUP__mypyc at the top
LOADER = "aloftnb/core/compiled.py"  # reads the manifest; never compiled


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def missing_tools() -> str | None:
    """Why this machine cannot build the compiled modules, or None."""
    import shutil

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Debian: apt-get install python3-dev)"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "no mypyc (pip install mypy)"
    return None


def main() -> int:
    if sys.argv[1:] == ["--check"]:  # what `make test` asks: can this machine build it?
        why = missing_tools()
        print(why or "ready")
        return 1 if why else 0
    if "--force" not in sys.argv and up_to_date():
        print("the compiled build is up to date (--force rebuilds it)")
        return 0
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    os.chdir(ROOT)
    MANIFEST.unlink(missing_ok=True)
    start = time.monotonic()
    recorded = manifest()  # the sources as mypyc reads them, before any edit during the build
    # mypyc's C sources beside the objects, in build/compiled (make clean removes that folder)
    extensions = mypycify(MODULES, opt_level="3", multi_file=True,
                           group_name=GROUP, target_dir="build/compiled")
    setup(name="aloftnb-compiled", ext_modules=extensions, packages=[], py_modules=[],
          cmdclass={"build_ext": _files_in_parallel(build_ext)}, script_args=[
              "build_ext", "--inplace", "--build-temp", "build/compiled",
              "--parallel", str(os.cpu_count() or 1)])
    MANIFEST.write_text(json.dumps(recorded, indent=1) + "\n", "utf-8")
    print(f"compiled {len(MODULES)} modules in {time.monotonic() - start:.0f} s")
    return 0


def _files_in_parallel(build_ext: type) -> type:
    """build_ext whose C compiler compiles an extension's files side by side. `--parallel`
    builds extensions side by side, but nearly all of the code is in one: mypyc's shared library
    (one C file a module), which setuptools compiles one file after another."""
    from concurrent.futures import ThreadPoolExecutor

    class BuildExtFilesInParallel(build_ext):  # type: ignore[misc, valid-type]
        def build_extensions(self) -> None:
            one_by_one = self.compiler.compile

            def compile_side_by_side(sources: list[str], *args: object,
                                     **kwargs: object) -> list[str]:
                if len(sources) < 2:
                    return one_by_one(sources, *args, **kwargs)  # type: ignore[no-any-return]
                with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                    parts = pool.map(lambda source: one_by_one([source], *args, **kwargs), sources)
                    return [obj for part in parts for obj in part]

            self.compiler.compile = compile_side_by_side
            super().build_extensions()

    return BuildExtFilesInParallel


def manifest() -> dict[str, object]:
    """What the build records: the Python and mypyc it used, the modules it compiled and the
    sha256 of every source mypyc read (not only the compiled ones: compiled code may rely on
    what it saw of a module it imports, such as a class's fields)."""
    from mypy.version import __version__

    sources = sorted({*MODULES, *(p.relative_to(ROOT).as_posix() for folder in SOURCES
                                  for p in ([ROOT / folder] if folder.endswith(".py")
                                            else (ROOT / folder).rglob("*.py")))} - {LOADER})
    return {"python": sys.implementation.cache_tag, "mypyc": __version__, "modules": MODULES,
            "sources": {path: source_hash(ROOT / path) for path in sources}}


def up_to_date() -> bool:
    """Whether the last build was made from these very sources, and its modules are there."""
    try:
        built = json.loads(MANIFEST.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return built == manifest() and all(
        (ROOT / module).with_suffix(suffix).exists() for module in MODULES)


if __name__ == "__main__":
    sys.exit(main())
