"""Real-browser harness: JupyterLab on 127.0.0.1 driven through Playwright in Debian's Chromium.

Fixtures (every test in tests/browser/ is marked `browser`; skip them with `-m "not browser"`):

- `lab_server` (session): one JupyterLab server on 127.0.0.1 and a free port, no token, its root a
  temporary folder holding a copy of the repo's notebooks/ (tests never touch the committed ones),
  every JUPYTER_* / IPYTHONDIR variable pointing into that temporary folder.
  `lab_server.write_notebook("scratch/x.ipynb", [code, ...])` adds a notebook for a test.
- `chromium` (session): headless /usr/bin/chromium (or $ALOFTNB_CHROMIUM); never a downloaded one.
- `page` (function): JupyterLab loaded in a page at 1400 x 1000, nothing open in it. Loading
  JupyterLab costs about 3 s of a core, so a process's tests take turns on one page
  (`SharedLabPage`): after a test it closes every document, and it is thrown away (the next test
  loads a new one) when the test failed or left a dialog. On failure the test report gets a
  screenshot path and the browser console.
- `lab` (function): helpers on that page, for one notebook at a time:
      lab.open("notebooks/00-start-here.ipynb")   # opens it alone, waits for an idle kernel
      lab.run_all()                               # raises NotebookError if a cell failed
      lab.output(".aloftnb-board svg")            # a locator inside the output areas, visible
      lab.run_cell("match.undo()")                # a new cell at the end; returns its outputs
      kernel = lab.kernel()                       # the notebook's own kernel, from the test side
      kernel.eval_json("match.state.to_dict()")   # a JSON value computed in that kernel
      kernel.execute("match.undo()")              # run code there; returns stdout
      ms = lab.timed_click(".button", until="(root) => ...")  # click -> DOM change, timed in page
  After each test every document is closed and every kernel is shut down, so the next test that
  opens the same notebook starts from a fresh kernel.
- `browser_report` (session): `browser_report("text")` adds a line to the "browser timings" section
  printed at the end of the run (timings are printed, never asserted).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("ALOFTNB_CHROMIUM", "/usr/bin/chromium")
# Headless is added by Playwright; the rest keeps Chromium off the (closed) network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-proxy-server",
]
SERVER_START_TIMEOUT = 90  # seconds; it takes about 2 s here
PAGE_TIMEOUT_MS = 60_000

# JupyterLab user settings: no news or update toasts, no autosave (tests never write notebooks),
# every cell attached to the DOM (so outputs below the fold exist for selectors).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}

_REPORT_LINES: list[str] = []


class NotebookError(AssertionError):
    """A notebook cell raised, or the notebook could not be driven."""


class KernelError(AssertionError):
    """Code sent to a kernel from the test side raised there."""


# -- processes -----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a live process, from /proc."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """{pid: start time} of every live descendant of `root` (Linux /proc)."""
    parents: dict[int, list[tuple[int, int]]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat:
                parents.setdefault(stat[0], []).append((int(entry.name), stat[1]))
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        for pid, started in parents.get(todo.pop(), []):
            if pid not in found:
                found[pid] = started
                todo.append(pid)
    return found


def _end_processes(processes: dict[int, int], grace: float = 5.0) -> list[int]:
    """SIGTERM, then SIGKILL, the listed processes that are still the same processes."""

    def alive() -> list[int]:
        return [pid for pid, started in processes.items() if (_proc_stat(pid) or (0, -1))[1] == started]

    left = alive()
    for pid in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + grace
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = alive()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left


# -- the server ----------------------------------------------------------------------------------
class LabServer:
    """A JupyterLab server for tests; see the module docstring."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.root = base / "root"
        self.jupyter_home = base / "jupyter"
        self.log_path = base / "jupyterlab.log"
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self._opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),  # 127.0.0.1 only, whatever *_proxy says
            urllib.request.HTTPCookieProcessor(CookieJar()),
        )
        self._xsrf: str | None = None
        self.env = self._environment()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def runtime_dir(self) -> Path:
        return Path(self.env["JUPYTER_RUNTIME_DIR"])

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON"))}
        dirs = {
            "JUPYTER_CONFIG_DIR": "config",
            "JUPYTER_DATA_DIR": "data",
            "JUPYTER_RUNTIME_DIR": "runtime",
            "JUPYTERLAB_SETTINGS_DIR": "lab-settings",
            "JUPYTERLAB_WORKSPACES_DIR": "lab-workspaces",
            "IPYTHONDIR": "ipython",
        }
        for name, sub in dirs.items():
            path = self.jupyter_home / sub
            path.mkdir(parents=True, exist_ok=True)
            env[name] = str(path)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def prepare(self) -> None:
        """The root (a copy of notebooks/) and the user settings."""
        self.root.mkdir(parents=True, exist_ok=True)
        source = REPO / "notebooks"
        if source.is_dir():
            shutil.copytree(
                source, self.root / "notebooks",
                ignore=shutil.ignore_patterns(".ipynb_checkpoints"), dirs_exist_ok=True,
            )
        settings = Path(self.env["JUPYTERLAB_SETTINGS_DIR"])
        for name, values in LAB_SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values, indent=2))

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.terminals_enabled=False",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]

    def start(self, attempts: int = 3) -> None:
        for _ in range(attempts):
            self.port = _free_port()
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    self.command(), cwd=self.root, env=self.env, stdin=subprocess.DEVNULL,
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                )
            deadline = time.monotonic() + SERVER_START_TIMEOUT
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    self.request("GET", "/api/status")
                    return
                except OSError:
                    time.sleep(0.1)
            else:
                self.stop()
                raise RuntimeError(f"JupyterLab did not answer in {SERVER_START_TIMEOUT} s\n{self.log_tail()}")
            if "already in use" not in self.log_tail():
                raise RuntimeError(f"JupyterLab exited with {self.proc.returncode}\n{self.log_tail()}")
            # Another process took the port between the probe and the bind: try another one.
        raise RuntimeError(f"no free port after {attempts} attempts\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "--- JupyterLab log (tail) ---\n" + "\n".join(text.splitlines()[-lines:])

    # REST: anything but GET must echo the _xsrf cookie, even with no token.
    def request(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        headers = {"Content-Type": "application/json"}
        if method != "GET":
            headers["X-XSRFToken"] = self.xsrf_token()
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with self._opener.open(req, timeout=timeout) as response:
            text = response.read().decode()
        return json.loads(text) if text.strip() else None

    def xsrf_token(self) -> str:
        if self._xsrf is None:
            with self._opener.open(self.url + "/lab", timeout=30) as response:
                response.read()
            jar = next(h for h in self._opener.handlers if isinstance(h, urllib.request.HTTPCookieProcessor)).cookiejar
            tokens = [cookie.value for cookie in jar if cookie.name == "_xsrf"]
            if not tokens:
                raise RuntimeError("JupyterLab sent no _xsrf cookie")
            self._xsrf = tokens[0]
        return self._xsrf

    def sessions(self) -> list[dict]:
        return self.request("GET", "/api/sessions")

    def kernels(self) -> list[dict]:
        return self.request("GET", "/api/kernels")

    def shutdown_kernels(self, timeout: float = 20) -> None:
        """Every session and kernel, over REST (kernels live in their own process sessions)."""
        for session in self.sessions():
            self._delete(f"/api/sessions/{session['id']}")
        for kernel in self.kernels():
            self._delete(f"/api/kernels/{kernel['id']}")
        deadline = time.monotonic() + timeout
        while self.kernels() and time.monotonic() < deadline:
            time.sleep(0.1)

    def _delete(self, path: str) -> None:
        try:
            self.request("DELETE", path)
        except urllib.error.HTTPError as exc:
            if exc.code != 404:  # already gone
                raise

    def stop(self) -> None:
        """Kernels over REST, then the server, then any child left behind (by PID)."""
        if self.proc is None:
            return
        children: dict[int, int] = {}
        if self.proc.poll() is None:
            try:
                self.shutdown_kernels()
            except (OSError, ValueError) as exc:
                print(f"aloftnb harness: kernel shutdown over REST failed: {exc}", file=sys.stderr)
            children = _descendants(self.proc.pid)
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        stragglers = _end_processes(children)
        if stragglers:
            print(f"aloftnb harness: killed leftover processes {stragglers}", file=sys.stderr)
        self.proc = None

    # -- notebooks for tests ---------------------------------------------------------------------
    def write_notebook(self, relpath: str, cells: list[str]) -> str:
        """Write a notebook of code cells under the server root; returns its path for lab.open()."""
        import nbformat

        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {
            "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python",
        }
        notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
        path = self.root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, path)
        return relpath


# -- the kernel, seen from the test --------------------------------------------------------------
class NotebookKernel:
    """A second client on a notebook's own kernel: run code there, read values back as JSON.

    jupyter_client runs an asyncio loop; Playwright's sync API keeps one of its own in this
    thread. The client therefore lives on a worker thread of its own.
    """

    KernelError = KernelError

    def __init__(self, connection_file: Path) -> None:
        self.connection_file = connection_file
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aloftnb-kernel")
        self._client = self._worker.submit(self._connect).result()

    def _connect(self):
        from jupyter_client import BlockingKernelClient

        client = BlockingKernelClient(connection_file=str(self.connection_file))
        client.load_connection_file()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        return client

    def execute(self, code: str, timeout: float = 60) -> str:
        """Run `code` in the kernel; its stdout. KernelError if it raised."""
        return self._worker.submit(self._execute, code, timeout).result()

    def _execute(self, code: str, timeout: float) -> str:
        stdout: list[str] = []

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                stdout.append(msg["content"]["text"])

        reply = self._client.execute_interactive(
            code, store_history=False, allow_stdin=False, timeout=timeout, output_hook=hook,
        )
        content = reply["content"]
        if content["status"] != "ok":
            raise KernelError(
                f"{content.get('ename')}: {content.get('evalue')}\n  while running: {code!r}"
            )
        return "".join(stdout)

    def eval_json(self, expression: str, timeout: float = 60) -> Any:
        """The value of a Python expression in the kernel, passed through json.dumps/json.loads."""
        return self._worker.submit(self._eval_json, expression, timeout).result()

    def _eval_json(self, expression: str, timeout: float) -> Any:
        wrapped = f"__import__('json').dumps({expression})"
        reply = self._client.execute_interactive(
            "", silent=True, store_history=False, allow_stdin=False, timeout=timeout,
            user_expressions={"value": wrapped}, output_hook=lambda msg: None,
        )
        result = reply["content"]["user_expressions"]["value"]
        if result["status"] != "ok":
            raise KernelError(f"{result.get('ename')}: {result.get('evalue')}\n  evaluating: {expression}")
        return json.loads(ast.literal_eval(result["data"]["text/plain"]))

    def close(self) -> None:
        try:
            self._worker.submit(self._client.stop_channels).result(timeout=10)
        finally:
            self._worker.shutdown(wait=False)


# -- the page ------------------------------------------------------------------------------------
# JS that finds the open notebook panel by its path (not "the current widget", which a dialog or a
# launcher could be).
_FIND = """
const findPanel = (path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return null;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.content && w.sessionContext) return w;
  }
  return null;
};
const kernelOf = (panel) => panel.sessionContext.session && panel.sessionContext.session.kernel;
"""

_READY_JS = """
(path) => {""" + _FIND + """
  const panel = findPanel(path);
  if (!panel || !panel.context.isReady || !panel.sessionContext.isReady) return false;
  const kernel = kernelOf(panel);
  return !!kernel && kernel.status === 'idle' && kernel.connectionStatus === 'connected';
}"""

_RUN_ALL_JS = """
async (path) => {""" + _FIND + """
  const panel = findPanel(path);
  window.jupyterapp.shell.activateById(panel.id);
  return await window.jupyterapp.commands.execute('notebook:run-all-cells');
}"""

_RUN_CELL_JS = """
async ({path, code}) => {""" + _FIND + """
  const app = window.jupyterapp;
  const panel = findPanel(path);
  app.shell.activateById(panel.id);
  const notebook = panel.content;
  notebook.activeCellIndex = notebook.widgets.length - 1;
  await app.commands.execute('notebook:insert-cell-below');
  notebook.activeCell.model.sharedModel.setSource(code);
  await app.commands.execute('notebook:run-cell');
  return notebook.activeCellIndex;
}"""

_OUTPUTS_JS = """
({path, index}) => {""" + _FIND + """
  const cells = findPanel(path).content.widgets;
  const pick = index === null ? cells : [cells[index]];
  return pick.map((cell, i) => ({
    index: index === null ? i : index,
    type: cell.model.type,
    outputs: cell.model.type === 'code' ? cell.model.outputs.toJSON() : [],
  }));
}"""

_TIMED_CLICK_SETUP_JS = """
({watch, until}) => {
  const root = watch ? document.querySelector(watch) : document.body;
  if (!root) throw new Error('timed_click: nothing matches ' + watch);
  const done = new Function('return (' + until + ')')();
  const record = window.__aloftnbClick = {t0: null, t1: null};
  document.addEventListener('click', () => {
    if (record.t0 === null) record.t0 = performance.now();
  }, {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (record.t0 !== null && record.t1 === null && done(root)) {
      record.t1 = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  record.observer = observer;
}"""


_LAB_RUNNING_JS = """
() => !!(window.jupyterapp && window.jupyterapp.shell && window.jupyterapp.commands)"""

# Closes every document and panel in the main area without a prompt (tests never save), so
# the next test finds JupyterLab as a fresh load leaves it. Returns the documents left open.
_CLOSE_EVERYTHING_JS = """
() => {
  const app = window.jupyterapp;
  for (const widget of Array.from(app.shell.widgets('main'))) {
    if (widget.context && widget.context.model) widget.context.model.dirty = false;
    widget.dispose();
  }
  if (document.activeElement && document.activeElement !== document.body) {
    document.activeElement.blur();
  }
  // A launcher may open in the emptied area, as on a fresh load: not a document.
  return Array.from(app.shell.widgets('main')).filter((w) => w.context).map((w) => w.id);
}"""

_OPEN_JS = """
async (path) => {
  const widget = await window.jupyterapp.commands.execute(
    'docmanager:open', {path, factory: 'Notebook'});
  window.jupyterapp.shell.activateById(widget.id);
}"""


def _lab_is_running(page) -> bool:
    try:
        return bool(page.evaluate(_LAB_RUNNING_JS))
    except Exception:  # a closed page, or one still navigating
        return False


def _output_text(outputs: list[dict]) -> str:
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out and "text/plain" in out["data"]:
            parts.append(out["data"]["text/plain"] + "\n")
    return "".join(parts)


def _errors(cells: list[dict]) -> list[str]:
    found = []
    for cell in cells:
        for out in cell["outputs"]:
            if out.get("output_type") == "error":
                found.append(f"cell {cell['index']}: {out.get('ename')}: {out.get('evalue')}")
    return found


class Lab:
    """Drive one notebook in the JupyterLab page; see the module docstring."""

    NotebookError = NotebookError
    KernelError = KernelError

    def __init__(self, server: LabServer, page) -> None:
        self.server = server
        self.page = page
        self.path: str | None = None
        self._kernels: list[NotebookKernel] = []

    def open(self, path: str, timeout: float = 90) -> Lab:
        """Open a notebook (relative to the server root) and wait for an idle, connected kernel.

        On a page where JupyterLab already runs (the `lab` fixture's), every open document is
        closed and the notebook opened as a person would from the file browser; on any other
        page, JupyterLab is loaded on the notebook alone (`?reset`)."""
        if not (self.server.root / path).is_file():
            raise NotebookError(f"no notebook {path} under the test server's root")
        self.path = path
        if _lab_is_running(self.page):
            self.page.evaluate(_CLOSE_EVERYTHING_JS)
            self.page.evaluate(_OPEN_JS, path)
        else:
            self.page.goto(f"{self.server.url}/lab/tree/{quote(path)}?reset")
        self.wait_idle(timeout)
        return self

    def wait_idle(self, timeout: float = 120) -> None:
        """Until the notebook's kernel is idle and connected."""
        try:
            self.page.wait_for_function(_READY_JS, arg=self.path, timeout=timeout * 1000, polling=100)
        except Exception as exc:
            raise NotebookError(f"{self.path}: kernel not idle and connected after {timeout} s: {exc}") from None

    def run_all(self, timeout: float = 300) -> list[dict]:
        """Run every cell; wait until done and idle. NotebookError names any cell that raised."""
        self.page.evaluate(_RUN_ALL_JS, self.path)
        self.wait_idle(timeout)
        cells = self.cells()
        errors = _errors(cells)
        if errors:
            raise NotebookError(f"{self.path}: " + "; ".join(errors))
        return cells

    def cells(self, index: int | None = None) -> list[dict]:
        """[{index, type, outputs}] as the front end holds them (nbformat output dicts)."""
        return self.page.evaluate(_OUTPUTS_JS, {"path": self.path, "index": index})

    def run_cell(self, code: str, timeout: float = 120) -> str:
        """Append a code cell, run it as a person would, return its text output."""
        index = self.page.evaluate(_RUN_CELL_JS, {"path": self.path, "code": code})
        self.wait_idle(timeout)
        cells = self.cells(index)
        errors = _errors(cells)
        if errors:
            raise NotebookError(f"{self.path}: the new cell raised: " + "; ".join(errors))
        return _output_text(cells[0]["outputs"])

    def output(self, selector: str, timeout: float = 30):
        """The first element matching `selector` inside an output area, once it is visible."""
        locator = self.page.locator(f".jp-OutputArea-output {selector}").first
        locator.wait_for(state="visible", timeout=timeout * 1000)
        return locator

    def timed_click(self, target, until: str, watch: str | None = None, timeout: float = 30) -> float:
        """Click `target` (selector or locator); milliseconds, measured inside the page, from the
        click event to the first DOM mutation after which `until(root)` is true.

        `until` is JS source of a function of the watched element (`watch`, default the body).
        """
        self.page.evaluate(_TIMED_CLICK_SETUP_JS, {"watch": watch, "until": until})
        locator = self.page.locator(target).first if isinstance(target, str) else target
        locator.click()
        try:
            self.page.wait_for_function(
                "() => window.__aloftnbClick.t1 !== null", timeout=timeout * 1000, polling="raf",
            )
        finally:
            self.page.evaluate("() => window.__aloftnbClick.observer.disconnect()")
        return self.page.evaluate("() => window.__aloftnbClick.t1 - window.__aloftnbClick.t0")

    def kernel(self) -> NotebookKernel:
        """A client on the open notebook's own kernel (found over REST, by the notebook's path)."""
        sessions = [s for s in self.server.sessions() if s.get("path") == self.path]
        if len(sessions) != 1 or not sessions[0].get("kernel"):
            raise NotebookError(f"expected one kernel session for {self.path}, found {sessions}")
        connection = self.server.runtime_dir / f"kernel-{sessions[0]['kernel']['id']}.json"
        if not connection.is_file():
            raise NotebookError(f"no connection file {connection}")
        client = NotebookKernel(connection)
        self._kernels.append(client)
        return client

    def close(self) -> None:
        for client in self._kernels:
            client.close()
        self._kernels.clear()


# -- fixtures ------------------------------------------------------------------------------------
def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item._aloftnb_call_report = report  # the lab fixture keeps its page only after a pass
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and page is not None and not page.is_closed():
        shot = Path(item.config._aloftnb_artifacts) / f"{item.name}.png"
        try:
            page.screenshot(path=str(shot), full_page=True)
            report.sections.append(("browser screenshot", str(shot)))
        except Exception as exc:  # the report matters more than the picture
            report.sections.append(("browser screenshot", f"failed: {exc}"))
        console = getattr(page, "_aloftnb_console", [])
        report.sections.append(("browser console", "\n".join(console[-60:]) or "(empty)"))
    return report


def pytest_terminal_summary(terminalreporter):
    if _REPORT_LINES:
        terminalreporter.section("browser timings (printed, never asserted)")
        for line in _REPORT_LINES:
            terminalreporter.write_line(line)


def _wait_until(check, timeout: float = 20.0, what: str = "condition"):
    """Poll `check()` until it returns something true; AssertionError naming `what` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture(scope="session")
def wait_until():
    """`wait_until(check, timeout=20, what=...)`, e.g. for Python to see a click."""
    return _wait_until


@pytest.fixture(scope="session")
def browser_report():
    return _REPORT_LINES.append


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory, browser_report):
    base = tmp_path_factory.mktemp("jupyterlab")
    server = LabServer(base)
    server.prepare()
    started = time.perf_counter()
    server.start()
    browser_report(f"JupyterLab server up in {time.perf_counter() - started:.1f} s ({server.url})")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium(pytestconfig, tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"{CHROMIUM} not found: `make test` installs Debian's chromium "
            "(or deselect these tests with -m 'not browser')"
        )
    from playwright.sync_api import sync_playwright

    pytestconfig._aloftnb_artifacts = str(tmp_path_factory.mktemp("browser-artifacts"))
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        )
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


VIEWPORT = {"width": 1400, "height": 1000}


class SharedLabPage:
    """One JupyterLab page that a process's tests take turns on. Loading JupyterLab costs about
    3 s of a core, as much as many tests themselves; between tests every document is closed and
    every kernel shut down, so each test still meets a fresh kernel and nothing open. A test that
    failed, or left a dialog or a document that would not close, gets the page thrown away and
    the next test a newly loaded one."""

    def __init__(self, chromium, server: LabServer) -> None:
        self.chromium, self.server = chromium, server
        self.page = None
        self.loads = 0

    def ready(self):
        """The page, JupyterLab loaded and restored, nothing open, at the usual size."""
        if self.page is None or self.page.is_closed() or not _lab_is_running(self.page):
            self.discard()
            self._load()
        page = self.page
        page._aloftnb_console.clear()
        page.set_viewport_size(VIEWPORT)
        return page

    def _load(self) -> None:
        context = self.chromium.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        console: list[str] = []
        page._aloftnb_console = console
        page.on("console", lambda msg: console.append(f"[{msg.type}] {msg.text}"))
        page.on("pageerror", lambda exc: console.append(f"[pageerror] {exc}"))
        # Every request the page makes beyond this machine, from its load on (nothing may need
        # the network: tests/browser/test_playtesting_browser.py).
        outside: list[str] = []
        page._aloftnb_outside = outside
        page.on("request", lambda request: outside.append(request.url)
                if urlparse(request.url).hostname not in ("127.0.0.1", None) else None)
        page.goto(f"{self.server.url}/lab?reset")
        page.wait_for_function(_LAB_RUNNING_JS, polling=100)
        page.evaluate("() => window.jupyterapp.restored.then(() => true)")
        page.evaluate(_CLOSE_EVERYTHING_JS)
        self.page = page
        self.loads += 1

    def after_test(self, failed: bool) -> None:
        """Close what the test opened; keep the page only if it is as a fresh load leaves it."""
        page = self.page
        if page is None:
            return
        keep = not failed and not page.is_closed() and _lab_is_running(page)
        if keep:
            try:
                left = page.evaluate(_CLOSE_EVERYTHING_JS)
                dialogs = page.locator(".jp-Dialog").count()
                keep = not left and dialogs == 0
            except Exception:
                keep = False
        if not keep:
            self.discard()

    def discard(self) -> None:
        if self.page is not None:
            try:
                self.page.context.close()
            except Exception:
                pass  # already gone with the browser
            self.page = None


@pytest.fixture(scope="session")
def shared_lab_page(chromium, lab_server, browser_report):
    shared = SharedLabPage(chromium, lab_server)
    try:
        yield shared
    finally:
        browser_report(f"JupyterLab loaded {shared.loads} times in this process")
        shared.discard()


@pytest.fixture
def page(shared_lab_page):
    return shared_lab_page.ready()


@pytest.fixture
def lab(request, lab_server, page, shared_lab_page):
    helper = Lab(lab_server, page)
    try:
        yield helper
    finally:
        helper.close()
        report = getattr(request.node, "_aloftnb_call_report", None)
        shared_lab_page.after_test(failed=report is None or not report.passed)
        lab_server.shutdown_kernels()
