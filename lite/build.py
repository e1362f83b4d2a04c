"""Build the JupyterLite site of aloftnb: the boards in the browser, with no server, offline.

    build/lite-venv/bin/python lite/build.py [--out build/lite]     (what `make lite` runs)

Everything comes from the package registries, at build time only:
  1. pyodide, the Python runtime compiled to WebAssembly, from npm at the version the pyodide
     kernel pins (`npm pack pyodide@VERSION`). That package holds the runtime only.
  2. The Python wheels the browser needs, from PyPI (`pip download`, pure-Python wheels for
     pyodide's Python): micropip at the version pyodide's lock file names, the kernel's
     packages and the boards' (lite/requirements-browser.txt), and aloftnb's own wheel, built
     from this checkout without its dependencies (pandas, bokeh and JupyterLab do not run in
     pyodide, and the boards never import them).
  3. pyodide's lock file is rewritten to list exactly the wheels shipped, with their hashes, and
     the kernel loads all of them as it starts: nothing is looked up on PyPI or a CDN, and a new
     notebook on the site can `import aloftnb` at once.
  4. `jupyter lite build`, always from a clean folder (an incremental rebuild was seen to drop
     the local pyodide URL), with the notebooks of lite/content.

The build runs in its own venv (build/lite-venv, lite/requirements-build.txt): the site's
front end (JupyterLab's, the kernel's, anywidget's and the widget manager's extensions) is copied
from there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

from jupyterlite_pyodide_kernel import constants as kernel_constants

LITE = Path(__file__).resolve().parent
REPO = LITE.parent
CONTENT = LITE / "content"
# The notebook the site opens on.
START = "start-here.ipynb"

PYODIDE_VERSION = kernel_constants.PYODIDE_VERSION  # what the kernel was built against
PYTHON_VERSION = kernel_constants.PYODIDE_PYTHON_VERSION  # pyodide's Python ("3.14")

# Downloaded as dependencies but not shipped: the kernel brings its own stand-in for
# widgetsnbextension (4.0.999, empty), and ipython's pexpect/ptyprocess are for terminals
# (pip evaluates ipython's markers for this machine, not for emscripten, where they are skipped).
NOT_SHIPPED = {"widgetsnbextension", "pexpect", "ptyprocess"}


def say(text: str) -> None:
    print(f"==> lite: {text}", flush=True)


def run(*command: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(part) for part in command], check=True, cwd=cwd)


def project_name(wheel: Path) -> str:
    """The normalized project name of a wheel file (PEP 503)."""
    return wheel.name.split("-")[0].lower().replace("_", "-").replace(".", "-")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_pyodide(cache: Path) -> Path:
    """The pyodide runtime from npm, unpacked: the folder holding pyodide.mjs."""
    unpacked = cache / f"pyodide-{PYODIDE_VERSION}"
    if (unpacked / "package" / "pyodide.mjs").exists():
        return unpacked / "package"
    say(f"pyodide {PYODIDE_VERSION} from npm")
    cache.mkdir(parents=True, exist_ok=True)
    run("npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", cache)
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacked, filter="data")
    return unpacked / "package"


def pip_download(dest: Path, *requirements: str) -> None:
    """Pure-Python wheels for pyodide's Python, with their dependencies, from PyPI."""
    run(sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--only-binary=:all:", "--python-version", PYTHON_VERSION, "--implementation", "py",
        "--abi", "none", "--platform", "any", "--dest", dest, *requirements)


def kernel_wheels() -> list[Path]:
    """The wheels the pyodide kernel's extension ships (pyodide_kernel, piplite, stand-ins)."""
    pypi = (Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite"
            / "pyodide-kernel-extension/static/pypi")
    wheels = sorted(pypi.glob("*.whl"))
    if not wheels:
        sys.exit(f"lite: no kernel wheels in {pypi}: is jupyterlite-pyodide-kernel installed?")
    # Two widgetsnbextension stand-ins ship (ipywidgets 7 and 8): the boards use ipywidgets 8.
    return [w for w in wheels if not w.name.startswith("widgetsnbextension-3.")]


def top_level_imports(wheel: Path) -> list[str]:
    """The importable top-level names in a wheel (what pyodide's lock calls `imports`)."""
    names = set()
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            first = name.split("/")[0]
            if first.endswith((".dist-info", ".data")) or first.startswith("_"):
                continue
            if "/" in name or first.endswith(".py"):
                names.add(first.removesuffix(".py"))
    return sorted(names)


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def lock_entry(wheel: Path) -> dict:
    return {
        "name": project_name(wheel), "version": wheel_version(wheel), "file_name": wheel.name,
        "install_dir": "site", "sha256": sha256(wheel), "package_type": "package",
        "imports": top_level_imports(wheel),
        # Every shipped package is loaded when the kernel starts (loadPyodideOptions.packages),
        # so no entry needs to name the others.
        "depends": [], "unvendored_tests": False,
    }


def gather_wheels(work: Path, lock: dict) -> list[Path]:
    """Every wheel the browser gets, in `work`: micropip, the kernel's, the boards', aloftnb."""
    wheels_dir = work / "wheels"
    shutil.rmtree(wheels_dir, ignore_errors=True)
    wheels_dir.mkdir(parents=True)
    micropip = lock["packages"]["micropip"]["version"]
    say(f"wheels from PyPI for Python {PYTHON_VERSION}: micropip {micropip}, "
        "lite/requirements-browser.txt")
    pip_download(wheels_dir, f"micropip=={micropip}", "-r",
                 str(LITE / "requirements-browser.txt"))
    for wheel in list(wheels_dir.glob("*.whl")):
        if project_name(wheel) in NOT_SHIPPED:
            wheel.unlink()
    say("aloftnb's wheel from this checkout (no dependencies)")
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--wheel-dir", wheels_dir, REPO)
    for wheel in kernel_wheels():
        shutil.copy2(wheel, wheels_dir)
    found = sorted(wheels_dir.glob("*.whl"))
    impure = [w.name for w in found if not w.name.endswith("-none-any.whl")]
    if impure:
        sys.exit(f"lite: pyodide runs only pure-Python wheels here, not {', '.join(impure)}")
    names = [project_name(w) for w in found]
    twice = {n for n in names if names.count(n) > 1}
    if twice:
        sys.exit(f"lite: two versions of {', '.join(sorted(twice))} were downloaded")
    return found


def stage(work: Path, cache: Path) -> Path:
    """The JupyterLite project folder `jupyter lite build` reads: configuration, and pyodide
    with its lock file and every wheel under static/pyodide (the kernel's well-known place)."""
    lite_dir = work / "site-src"
    # Emptied, with the build's own records (.jupyterlite.doit.db): every build starts clean.
    shutil.rmtree(lite_dir, ignore_errors=True)
    pyodide_dir = lite_dir / "static" / "pyodide"
    runtime = fetch_pyodide(cache)
    shutil.copytree(runtime, pyodide_dir, ignore=shutil.ignore_patterns(
        "*.map", "*.d.ts", "*.html", "README.md", "package.json", "pyodide.js"))
    lock = json.loads((runtime / "pyodide-lock.json").read_text("utf-8"))
    wheels = gather_wheels(work, lock)
    for wheel in wheels:
        shutil.copy2(wheel, pyodide_dir)
    # The npm package's lock lists the ~350 packages of pyodide's full distribution, whose files
    # it does not hold: micropip would look there first and fail. List what is shipped instead.
    lock["packages"] = {project_name(w): lock_entry(w) for w in wheels}
    (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), "utf-8")
    packages = sorted(lock["packages"])
    say(f"{len(packages)} wheels: {', '.join(packages)}")

    kernel = {
        # Nothing from PyPI at run time: piplite answers only from the site's own wheels.
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": packages},
    }
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "aloftnb in the browser",
            # window.jupyterapp, which the browser test drives (a text, as JupyterLab reads it).
            "exposeAppInBrowser": "true",
            "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel},
        },
    }
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=2), "utf-8")
    shutil.copy2(LITE / "overrides.json", lite_dir / "overrides.json")
    return lite_dir


def build(out: Path) -> None:
    started = time.monotonic()
    work = REPO / "build" / "lite-work"
    cache = REPO / "build" / "lite-cache"
    lite_dir = stage(work, cache)
    shutil.rmtree(out, ignore_errors=True)
    say(f"jupyter lite build into {out}")
    run(Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", lite_dir,
        "--output-dir", out, "--contents", CONTENT, "--apps", "lab", "--no-sourcemaps",
        "--no-unused-shared-packages", cwd=lite_dir)
    # The site opens on the notebook made for it. The root index.html stays as built (the lab's
    # page reads its configuration from it): a first script there sends visitors on.
    index = out / "index.html"
    landing = f"lab/index.html?path={START}"
    index.write_text(index.read_text("utf-8").replace(
        "<head>", f'<head>\n<script>window.location.replace("{landing}");</script>', 1), "utf-8")
    check(out)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    say(f"site in {out}: {size / 1e6:.1f} MB, built in {time.monotonic() - started:.0f} s; "
        "serve it with `make lite-serve`")


def check(out: Path) -> None:
    """Fail unless the built site points the kernel at its own pyodide and ships every wheel its
    lock file names, with the right hash."""
    config = json.loads((out / "jupyter-lite.json").read_text("utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    url = settings.get("pyodideUrl", "")
    if url != "./static/pyodide/pyodide.mjs":
        sys.exit(f"lite: the site's pyodideUrl is {url!r}, not its own copy of pyodide")
    pyodide_dir = out / "static" / "pyodide"
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text("utf-8"))
    for entry in lock["packages"].values():
        wheel = pyodide_dir / entry["file_name"]
        if not wheel.exists() or sha256(wheel) != entry["sha256"]:
            sys.exit(f"lite: {wheel} is missing or does not match its lock entry")
    if not (out / "files" / START).exists():
        sys.exit(f"lite: the site holds no {START} (is jupyter_server installed?)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "lite",
                        help="where the site goes (emptied first)")
    build(parser.parse_args().out.resolve())


if __name__ == "__main__":
    main()
