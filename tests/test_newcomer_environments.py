"""Every notebook runs where a newcomer opens it.

A newcomer opens the notebooks in one of two environments, neither of them the test venv (which
has every extra): the venv `make lab` makes, and the one Binder (repo2docker) makes from binder/.
Each test here builds its environment from a clean venv with the project's own files, the way that
path does, and runs every notebook in notebooks/ top to bottom in a kernel of that environment.

In make lab's venv the notebooks run under nbval, which compares every cell's output with the
committed one (after tests/nbval_sanitize.cfg's substitutions): this is the suite's notebook
check (`make test`, `make notebooks`). In Binder's, whose aloftnb runs as pure Python, a notebook
passes when no cell raises.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "aloftnb-make-lab"
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


def _clean_environment(home: Path, venv: Path | None = None) -> dict[str, str]:
    """The shell of a newcomer: no test venv on PATH, Jupyter's and IPython's folders private."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH")
           and not key.startswith(("PYTEST", "JUPYTER_", "JPY_"))}
    test_bin = str(Path(sys.prefix) / "bin")
    paths = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != test_bin]
    if venv is not None:
        paths.insert(0, str(venv / "bin"))
    env["PATH"] = os.pathsep.join(paths)
    for name, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / folder)
    env["MPLBACKEND"] = "agg"
    return env


def _run(command: list[str], *, cwd: Path, env: dict[str, str], what: str,
         timeout: float = 1200) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({done.returncode}):\n{done.stdout[-4000:]}\n"
                    f"{done.stderr[-4000:]}")
    return done.stdout + done.stderr


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


def _python_for(runtime: str) -> str:
    """The interpreter repo2docker would pick for binder/runtime.txt (`python-X.Y`)."""
    found = re.fullmatch(r"python-(\d+)\.(\d+)", runtime.strip())
    assert found, f"binder/runtime.txt says {runtime!r}, not python-X.Y"
    wanted = (int(found[1]), int(found[2]))
    if sys.version_info[:2] == wanted:
        return str(Path(sys.base_prefix) / "bin" / f"python{wanted[0]}.{wanted[1]}")
    other = shutil.which(f"python{wanted[0]}.{wanted[1]}")
    if other is None:
        pytest.skip(f"binder/runtime.txt asks for Python {wanted[0]}.{wanted[1]}, not on this "
                    "machine")
    return other


@pytest.mark.timeout(3000)
def test_every_notebook_runs_in_the_venv_make_lab_makes(tmp_path):
    """`make lab-venv` is the install step of `make lab`, run here into a new venv."""
    venv = tmp_path / "lab-venv"
    env = _clean_environment(tmp_path / "home")
    _run(["make", "--no-print-directory", "-C", str(ROOT), "lab-venv", f"VENV={venv}"],
         cwd=ROOT, env=env, what="make lab-venv")
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
    env = {**_clean_environment(tmp_path / "home", venv), "JUPYTER_PATH": str(kernels)}
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
    """repo2docker, for a repository with binder/requirements.txt, runtime.txt and postBuild:
    copies the repository in, runs `pip install -r binder/requirements.txt` from its root with
    the Python runtime.txt names, then runs binder/postBuild (its Python buildpack)."""
    binder = ROOT / "binder"
    assert sorted(path.name for path in binder.iterdir()) == [
        "postBuild", "requirements.txt", "runtime.txt"], "binder/ holds an unexpected file"
    python = _python_for((binder / "runtime.txt").read_text())
    # The repository as a clone has it: tracked files only (no .venv, no compiled build).
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    repo = tmp_path / "repo"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    venv = tmp_path / "binder-env"
    env = _clean_environment(tmp_path / "home")
    _run([python, "-m", "venv", str(venv)], cwd=repo, env=env, what="creating the venv")
    env = _clean_environment(tmp_path / "home", venv)
    _run([str(venv / "bin" / "pip"), "install", "--disable-pip-version-check", "--no-input",
          "--progress-bar", "off", "-r", "binder/requirements.txt"], cwd=repo, env=env,
         what="pip install -r binder/requirements.txt")
    _run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env, what="binder/postBuild")
    extensions = _run([str(venv / "bin" / "jupyter"), "server", "extension", "list"], cwd=repo,
                      env=env, what="jupyter server extension list")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", extensions)  # without its colours
    assert re.search(r"aloftnb\.jupyter\s+enabled", plain), plain
    # aloftnb runs from the environment, as installed, not from the copied sources.
    where = _run([str(venv / "bin" / "python"), "-c", "import aloftnb; print(aloftnb.__file__)"],
                 cwd=tmp_path, env=env, what="import aloftnb")
    assert str(venv) in where, where
    _run_every_notebook(venv, repo / "notebooks", env)
