"""Every notebook runs where a newcomer opens it.

A newcomer opens the notebooks in one of two environments, neither of them the test venv (which
has every extra): the venv `make lab` makes, and the one Binder (repo2docker) makes from binder/.
tests/newcomer_environments.py builds each from a clean venv with the project's own files, the way
that path does (`make test` starts building both before its own set-up, in the background; run
alone, each test builds its own), and each test here runs every notebook in notebooks/ top to
bottom in a kernel of that environment.

In make lab's venv the notebooks run under nbval, which compares every cell's output with the
committed one (after tests/nbval_sanitize.cfg's substitutions): this is the suite's notebook
check (`make test`, `make notebooks`). In Binder's, whose aloftnb runs as pure Python, a notebook
passes when no cell raises.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from newcomer_environments import BuildFailed, build, clean_environment, run

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "aloftnb-make-lab"
BUILD_WAIT = 1500  # seconds: the most a test waits for an environment `make test` is building
# nbval re-runs each notebook in the kernel KERNEL and compares outputs after the substitutions in
# tests/nbval_sanitize.cfg (widget model ids, memory addresses, timings, bokeh ids).
NBVAL_FLAGS = ["--nbval", f"--nbval-kernel-name={KERNEL}",
               "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", "--nbval-cell-timeout=600",
               "--nbval-kernel-startup-timeout=120"]

# Run with the environment's own Python: each notebook in a kernel of that environment (the
# kernelspec "python3" that its ipykernel installs), from the notebook's folder as JupyterLab
# starts it, all cells in order, stopping at the first that raises.
RUNNER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    folder, names = Path(sys.argv[1]), sys.argv[2:]
    seconds, failures = {}, {}
    for name in names:
        notebook = nbformat.read(folder / name, as_version=4)
        client = NotebookClient(notebook, kernel_name="python3", timeout=900,
                                startup_timeout=120, resources={"metadata": {"path": str(folder)}})
        started = time.perf_counter()
        try:
            client.execute()
        except CellExecutionError as error:
            failures[name] = str(error)[-3000:]
        seconds[name] = round(time.perf_counter() - started, 1)
        print(f"{name}: {seconds[name]} s", "FAILED" if name in failures else "", flush=True)
    print("RESULT " + json.dumps({"seconds": seconds, "failures": failures}))
""")


def _environment(name: str, tmp_path: Path) -> dict[str, Any]:
    """Environment `name` ("lab" or "binder"), built by newcomer_environments.py: the one `make
    test` started building before its set-up (ALOFTNB_NEWCOMER_ENVS, waited for), else one built
    here and now."""
    shared = os.environ.get("ALOFTNB_NEWCOMER_ENVS")
    if shared:
        done = Path(shared) / name / "result.json"
        deadline = time.monotonic() + BUILD_WAIT
        while not done.exists():
            if time.monotonic() > deadline:
                pytest.fail(f"ALOFTNB_NEWCOMER_ENVS={shared}: no {name} environment after "
                            f"{BUILD_WAIT} s (`make test` builds it before its set-up)")
            time.sleep(1)
        result = json.loads(done.read_text())
    else:
        result = build(name, tmp_path / name)
    if result["status"] == "cannot":
        pytest.skip(result["message"])
    assert result["status"] == "built", result["message"]
    print(f"{name} environment built in {result['seconds']} s")  # for `pytest -s`
    return result


def _run(command: list[str], *, cwd: Path, env: dict[str, str], what: str,
         timeout: float = 1200) -> str:
    try:
        return run(command, cwd=cwd, env=env, what=what, timeout=timeout)
    except BuildFailed as failure:
        pytest.fail(str(failure))


def _run_every_notebook(venv: Path, folder: Path, env: dict[str, str]) -> None:
    names = sorted(path.name for path in folder.glob("*.ipynb"))
    assert names == NOTEBOOKS, f"{folder} holds {names}, the checkout {NOTEBOOKS}"
    output = _run([str(venv / "bin" / "python"), "-c", RUNNER, str(folder), *names],
                  cwd=folder, env=env, what="running the notebooks", timeout=3000)
    result = json.loads(output.rsplit("RESULT ", 1)[1].splitlines()[0])
    print(output.rsplit("RESULT ", 1)[0])  # each notebook's seconds, for `pytest -s`
    assert sorted(result["seconds"]) == names
    assert not result["failures"], "\n\n".join(
        f"{name} stopped with an error:\n{text}" for name, text in result["failures"].items())


def _seconds_per_notebook(report: str) -> str:
    """Each notebook's seconds under nbval (its cells' set-up, run and teardown, added up) from
    pytest's --durations report."""
    seconds: dict[str, float] = {}
    for spent, name in re.findall(r"^([\d.]+)s \w+\s+notebooks/([\w.-]+\.ipynb)::", report,
                                  flags=re.MULTILINE):
        seconds[name] = seconds.get(name, 0.0) + float(spent)
    return "\n".join(f"{name}: {value:.1f} s" for name, value in sorted(seconds.items()))


@pytest.mark.timeout(3000)
def test_every_notebook_runs_in_the_venv_make_lab_makes(tmp_path):
    """`make lab-venv` is the install step of `make lab`, run into a new venv."""
    venv = Path(_environment("lab", tmp_path)["venv"])
    env = clean_environment(tmp_path / "home")
    assert (venv / ".installed").exists()
    assert not (venv / ".installed-test").exists()
    # Nothing of the test extra came with it: this is not the test venv under another name.
    missing = subprocess.run([str(venv / "bin" / "python"), "-c", "import pytest"],
                             capture_output=True, env=env)
    assert missing.returncode != 0, "the lab venv has pytest: it is not the newcomer's"
    # The notebooks under nbval, in a kernel of that venv (its own Python, a kernelspec of ours).
    kernels = tmp_path / "kernels"
    spec = kernels / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(venv / "bin" / "python"), "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"],
        "display_name": "make lab's venv", "language": "python"}))
    env = {**clean_environment(tmp_path / "home", venv), "JUPYTER_PATH": str(kernels)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "notebooks", *NBVAL_FLAGS, "-p", "no:cacheprovider",
         "-p", "no:xdist", "-q", "--durations=0", "--durations-min=0", "-o", "addopts="],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=2400,
        stdin=subprocess.DEVNULL)
    print(_seconds_per_notebook(done.stdout))  # for `pytest -s`
    assert done.returncode == 0, (
        f"nbval in make lab's venv failed ({done.returncode}):\n{done.stdout[-12000:]}\n"
        f"{done.stderr[-3000:]}")
    assert re.search(r"\d+ passed", done.stdout)


@pytest.mark.timeout(3000)
def test_every_notebook_runs_in_the_environment_binder_makes(tmp_path):
    """repo2docker, for a repository with binder/requirements.txt, runtime.txt and postBuild
    (newcomer_environments.build_binder says what it does)."""
    binder = ROOT / "binder"
    assert sorted(path.name for path in binder.iterdir()) == [
        "postBuild", "requirements.txt", "runtime.txt"], "binder/ holds an unexpected file"
    built = _environment("binder", tmp_path)
    venv, repo = Path(built["venv"]), Path(built["repo"])
    env = clean_environment(tmp_path / "home", venv)
    extensions = _run([str(venv / "bin" / "jupyter"), "server", "extension", "list"], cwd=repo,
                      env=env, what="jupyter server extension list")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", extensions)  # without its colours
    assert re.search(r"aloftnb\.jupyter\s+enabled", plain), plain
    # aloftnb runs from the environment, as installed, not from the copied sources.
    where = _run([str(venv / "bin" / "python"), "-c", "import aloftnb; print(aloftnb.__file__)"],
                 cwd=tmp_path, env=env, what="import aloftnb")
    assert str(venv) in where, where
    _run_every_notebook(venv, repo / "notebooks", env)
