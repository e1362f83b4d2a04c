"""Build the two environments a newcomer opens the notebooks in (tests/test_newcomer_environments.py
runs every notebook in each):

- "lab": the venv `make lab` makes (`make lab-venv VENV=...`, its install step);
- "binder": the one Binder (repo2docker) makes from binder/: a copy of the repository's tracked
  files, a venv of the Python binder/runtime.txt names, `pip install -r binder/requirements.txt`
  from the copy's root, then binder/postBuild.

    python tests/newcomer_environments.py lab|binder FOLDER

builds one under FOLDER/lab or FOLDER/binder and writes FOLDER/<name>/result.json, also when a
step fails (the test reports that step and its output). `make test` starts it for each in the
background, at low priority, before its own set-up: installing costs minutes of a core that
the set-up leaves idle. A test run without it (ALOFTNB_NEWCOMER_ENVS unset) builds its own.
Standard library only: it runs with the system Python, before any venv exists.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class BuildFailed(Exception):
    """A step of building an environment failed: what, and its output."""


class CannotBuild(Exception):
    """This machine cannot build the environment (e.g. no Python of runtime.txt's version)."""


def clean_environment(home: Path, venv: Path | None = None) -> dict[str, str]:
    """The shell of a newcomer: no test venv on PATH, Jupyter's and IPython's folders private."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH")
           and not key.startswith(("PYTEST", "JUPYTER_", "JPY_", "ALOFTNB_", "MAKE"))
           and key not in ("MFLAGS",)}
    running = str(Path(sys.prefix) / "bin")
    paths = [p for p in env.get("PATH", "").split(os.pathsep)
             if p and (p != running or sys.prefix == sys.base_prefix)]
    if venv is not None:
        paths.insert(0, str(venv / "bin"))
    env["PATH"] = os.pathsep.join(paths)
    for name, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / folder)
    env["MPLBACKEND"] = "agg"
    return env


def run(command: list[str], *, cwd: Path, env: dict[str, str], what: str,
        timeout: float = 1200) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise BuildFailed(f"{what} failed ({done.returncode}):\n{done.stdout[-4000:]}\n"
                          f"{done.stderr[-4000:]}")
    return done.stdout + done.stderr


def python_for(runtime: str) -> str:
    """The interpreter repo2docker would pick for binder/runtime.txt (`python-X.Y`)."""
    found = re.fullmatch(r"python-(\d+)\.(\d+)", runtime.strip())
    if not found:
        raise BuildFailed(f"binder/runtime.txt says {runtime!r}, not python-X.Y")
    wanted = (int(found[1]), int(found[2]))
    if sys.version_info[:2] == wanted:
        return str(Path(sys.base_prefix) / "bin" / f"python{wanted[0]}.{wanted[1]}")
    other = shutil.which(f"python{wanted[0]}.{wanted[1]}")
    if other is None:
        raise CannotBuild(f"binder/runtime.txt asks for Python {wanted[0]}.{wanted[1]}, not on "
                          "this machine")
    return other


def build_lab(folder: Path) -> dict[str, str]:
    """`make lab-venv` (the install step of `make lab`) into folder/venv."""
    venv = folder / "venv"
    run(["make", "--no-print-directory", "-C", str(ROOT), "lab-venv", f"VENV={venv}"],
        cwd=ROOT, env=clean_environment(folder / "home"), what="make lab-venv")
    return {"venv": str(venv)}


def build_binder(folder: Path) -> dict[str, str]:
    """What repo2docker does for binder/requirements.txt, runtime.txt and postBuild: copies the
    repository in, runs `pip install -r binder/requirements.txt` from its root with the Python
    runtime.txt names, then runs binder/postBuild (its Python buildpack)."""
    python = python_for((ROOT / "binder" / "runtime.txt").read_text())
    # The repository as a clone has it: tracked files only (no .venv, no compiled build).
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    repo = folder / "repo"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    venv = folder / "env"
    home = folder / "home"
    run([python, "-m", "venv", str(venv)], cwd=repo, env=clean_environment(home),
        what="creating the venv")
    env = clean_environment(home, venv)
    run([str(venv / "bin" / "pip"), "install", "--disable-pip-version-check", "--no-input",
         "--progress-bar", "off", "-r", "binder/requirements.txt"], cwd=repo, env=env,
        what="pip install -r binder/requirements.txt")
    run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env, what="binder/postBuild")
    return {"venv": str(venv), "repo": str(repo)}


BUILDERS = {"lab": build_lab, "binder": build_binder}


def build(name: str, folder: Path) -> dict[str, object]:
    """Build environment `name` in `folder` (emptied first); its result, also written to
    folder/result.json: {"status": "built"|"failed"|"cannot", "message", "seconds", paths}."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    started = time.perf_counter()
    result: dict[str, object]
    try:
        result = {"status": "built", **BUILDERS[name](folder)}
    except BuildFailed as failure:
        result = {"status": "failed", "message": str(failure)}
    except CannotBuild as reason:
        result = {"status": "cannot", "message": str(reason)}
    except Exception as error:  # the test reports it, whatever it is
        result = {"status": "failed", "message": f"{type(error).__name__}: {error}"}
    result["seconds"] = round(time.perf_counter() - started, 1)
    partial = folder / "result.json.part"
    partial.write_text(json.dumps(result))
    partial.replace(folder / "result.json")  # whole or absent, for a reader polling it
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in BUILDERS:
        print(__doc__, file=sys.stderr)
        return 2
    name, folder = argv[0], Path(argv[1]).resolve()
    result = build(name, folder / name)  # empties folder/name first, result.json with it
    print(f"==> newcomer environment {name}: {result['status']} in {result['seconds']} s",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
