"""Build aloftnb's two wheels, the way black and mypy ship: a pure-Python one that installs and runs
everywhere (the JupyterLite site's), and one for this machine's Python and platform with the
compiled build inside it.

    python compiled/wheel.py [--out dist]     (what `make wheel` runs, after `make compiled`)

The compiled wheel is the pure wheel plus the compiled build as it stands beside the sources:
each compiled module (`...cpython-311-x86_64-linux-gnu.so` beside its `.py`), mypyc's shared
library at the top and `aloftnb/_compiled.json`, with the wheel's tag and RECORD rewritten. The
sources stay in it, so an installed aloftnb checks them as a checkout does
(aloftnb/core/compiled.py): an installed source edited after the build runs as pure Python, with
a warning, never the compiled module beside it. The compiled build must be up to date (the
sources it was built from are those here); otherwise this stops and says so.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

from build import GROUP, MANIFEST, ROOT, source_hash  # (compiled/build.py, beside this file)

SHARED_LIBRARY = f"{GROUP}__mypyc"


def pure_wheel(out: Path) -> Path:
    """`pip wheel` of the checkout, without its dependencies: the py3-none-any wheel (the
    project's build excludes compiled files). Without build isolation when hatchling is here
    (the test extra installs it), so no download is needed."""
    flags = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                        "--disable-pip-version-check", *flags, "-w", work, str(ROOT)], check=True)
        (built,) = Path(work).glob("aloftnb-*-py3-none-any.whl")
        out.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy2(built, out / built.name))


def compiled_files() -> list[Path]:
    """The compiled build's files, relative to the checkout: each module's extension, mypyc's
    shared library and the manifest. Stops with a message when the build is missing or was
    made from other sources than these."""
    try:
        manifest = json.loads(MANIFEST.read_text("utf-8"))
    except (OSError, ValueError):
        sys.exit("wheel: no compiled build (make compiled builds one)")
    if manifest.get("python") != sys.implementation.cache_tag:
        sys.exit(f"wheel: the compiled build is for {manifest.get('python')}, "
                 f"not {sys.implementation.cache_tag} (make compiled rebuilds it)")
    for path, digest in manifest["sources"].items():
        if source_hash(ROOT / path) != digest:
            sys.exit(f"wheel: {path} changed after the compiled build (make compiled rebuilds it)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = [Path(module).with_suffix(suffix) for module in manifest["modules"]]
    files += [Path(f"{SHARED_LIBRARY}{suffix}"), MANIFEST.relative_to(ROOT)]
    missing = [str(f) for f in files if not (ROOT / f).is_file()]
    if missing:
        sys.exit(f"wheel: the compiled build lacks {', '.join(missing)} (make compiled)")
    return files


def platform_tag() -> str:
    """This interpreter's wheel tag: cp311-cp311-linux_x86_64, say."""
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}-{platform}"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compiled_wheel(pure: Path, files: list[Path], out: Path) -> Path:
    """The pure wheel with `files` added, tagged for this interpreter and platform."""
    tag = platform_tag()
    name, version = pure.name.split("-")[:2]
    target = out / f"{name}-{version}-{tag}.whl"
    entries: list[tuple[str, bytes]] = []
    with zipfile.ZipFile(pure) as wheel:
        dist_info = next(n.split("/")[0] for n in wheel.namelist()
                         if n.split("/")[0].endswith(".dist-info"))
        for item in wheel.infolist():
            if item.filename in (f"{dist_info}/RECORD", f"{dist_info}/WHEEL"):
                continue
            entries.append((item.filename, wheel.read(item)))
        lines = wheel.read(f"{dist_info}/WHEEL").decode().splitlines()
    # The wheel's metadata: not pure any more, and for this Python and platform only.
    lines = [line for line in lines if not line.startswith(("Root-Is-Purelib:", "Tag:"))]
    lines += ["Root-Is-Purelib: false", f"Tag: {tag}"]
    entries += [(f.as_posix(), (ROOT / f).read_bytes()) for f in files]
    entries.append((f"{dist_info}/WHEEL", ("\n".join(lines) + "\n").encode()))
    record = [_record_line(n, data) for n, data in entries] + [f"{dist_info}/RECORD,,"]
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for n, data in entries:
            wheel.writestr(n, data)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "dist"), help="where the wheels go")
    args = parser.parse_args(argv)
    out = Path(args.out)
    files = compiled_files()  # (checked first: a stale build stops before anything is built)
    pure = pure_wheel(out)
    print(f"pure wheel: {pure}")
    print(f"compiled wheel: {compiled_wheel(pure, files, out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
