"""The browser harness itself, on a tiny anywidget the test writes: a click reaches Python, a
change made in Python reaches the DOM, and failures in the notebook or the kernel are reported."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROBE = '''
import anywidget
import traitlets


class Probe(anywidget.AnyWidget):
    """A button whose clicks Python counts; the label shows only what Python sent back."""

    _esm = """
    function render({ model, el }) {
      const button = document.createElement("button");
      button.className = "probe-button";
      button.textContent = "click";
      const echo = document.createElement("span");
      echo.className = "probe-echo";
      const show = () => { echo.textContent = model.get("echo"); };
      show();
      model.on("change:echo", show);
      button.addEventListener("click", () => {
        model.set("clicks", model.get("clicks") + 1);
        model.save_changes();
      });
      el.append(button, echo);
    }
    export default { render };
    """
    clicks = traitlets.Int(0).tag(sync=True)
    echo = traitlets.Unicode("python saw 0").tag(sync=True)

    @traitlets.observe("clicks")
    def _count(self, change):
        self.echo = f"python saw {change['new']}"


probe = Probe()
probe
'''

ROUND_TRIPS = 20


def echo_is(text: str) -> str:
    """JS predicate for timed_click: the probe's label shows `text`."""
    return f"(root) => root.querySelector('.probe-echo').textContent === {text!r}"


@pytest.fixture
def probe_notebook(lab_server):
    return lab_server.write_notebook("scratch/probe.ipynb", [PROBE, "print('ran to the end')"])


def test_click_reaches_python_and_python_reaches_the_dom(lab, probe_notebook, browser_report):
    lab.open(probe_notebook)
    cells = lab.run_all()
    assert "ran to the end" in "".join(o.get("text", "") for o in cells[1]["outputs"])
    echo = lab.output(".probe-echo")
    assert echo.text_content() == "python saw 0"
    kernel = lab.kernel()
    assert kernel.eval_json("probe.clicks") == 0

    # Clicks: the label changes only when Python has seen the click and sent the echo back.
    times = []
    for n in range(1, ROUND_TRIPS + 1):
        times.append(lab.timed_click(".probe-button", until=echo_is(f"python saw {n}"), watch=".jp-Notebook"))
    assert kernel.eval_json("probe.clicks") == ROUND_TRIPS
    assert kernel.eval_json("probe.echo") == f"python saw {ROUND_TRIPS}"
    assert echo.text_content() == f"python saw {ROUND_TRIPS}"

    # Python -> DOM, from the test's own kernel client.
    kernel.execute("probe.clicks = 100")
    lab.page.wait_for_function(
        "() => document.querySelector('.probe-echo').textContent === 'python saw 100'"
    )
    # ... and from a cell run in the page, as a person would.
    assert lab.run_cell("probe.echo = 'set from a cell'\nprint(probe.clicks)") == "100\n"
    lab.page.wait_for_function(
        "() => document.querySelector('.probe-echo').textContent === 'set from a cell'"
    )
    assert kernel.eval_json("{'clicks': probe.clicks, 'echo': probe.echo}") == {
        "clicks": 100, "echo": "set from a cell",
    }

    ordered = sorted(times)
    browser_report(
        f"click -> Python -> DOM round trip, minimal anywidget, {ROUND_TRIPS} clicks: "
        f"median {statistics.median(times):.1f} ms, min {ordered[0]:.1f} ms, "
        f"90th pct {ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms, max {ordered[-1]:.1f} ms"
    )


def test_failures_are_reported(lab, lab_server):
    path = lab_server.write_notebook(
        "scratch/broken.ipynb", ["x = 41", "raise ValueError('broken on purpose')", "x += 1"],
    )
    lab.open(path)
    with pytest.raises(lab.NotebookError, match="cell 1: ValueError: broken on purpose"):
        lab.run_all()
    kernel = lab.kernel()
    # Run all stops at the failing cell, like JupyterLab does for a person.
    assert kernel.eval_json("x") == 41
    with pytest.raises(lab.KernelError, match="ZeroDivisionError"):
        kernel.execute("1 / 0")
    with pytest.raises(lab.KernelError, match="not JSON serializable"):
        kernel.eval_json("object()")
    with pytest.raises(lab.NotebookError, match="NameError"):
        lab.run_cell("undefined_name")
    assert kernel.execute("print(x + 1)") == "42\n"


def test_each_test_gets_a_fresh_kernel_outside_the_repo(lab, lab_server, probe_notebook):
    # Runs after the first test, which left `probe` in this notebook's kernel: that kernel was
    # shut down after it, so this one starts empty.
    lab.open(probe_notebook)
    kernel = lab.kernel()
    assert kernel.eval_json("'probe' in globals()") is False
    assert not lab_server.root.resolve().is_relative_to(REPO)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        value = kernel.eval_json(f"__import__('os').environ.get({name!r})")
        assert value is not None and value.startswith(str(lab_server.base)), (name, value)


def test_tests_take_turns_on_one_page_that_is_left_as_a_fresh_load_leaves_it(
        lab, lab_server, shared_lab_page, probe_notebook):
    """The harness loads JupyterLab once a process: after a test it closes what the test opened
    and the next test finds nothing open, at the usual size; after a failure it loads anew."""
    lab.open(probe_notebook)
    lab.page.set_viewport_size({"width": 800, "height": 600})
    lab.run_cell("probe_left_behind = 1")
    page, loads = lab.page, shared_lab_page.loads

    shared_lab_page.after_test(failed=False)
    lab_server.shutdown_kernels()
    again = shared_lab_page.ready()
    assert again is page and shared_lab_page.loads == loads
    documents = "() => Array.from(window.jupyterapp.shell.widgets('main')).filter((w) => w.context)"
    assert again.evaluate(documents + ".length") == 0
    assert again.viewport_size == {"width": 1400, "height": 1000}
    lab.open(probe_notebook)  # a fresh kernel: nothing of the last one is left
    assert lab.kernel().eval_json("'probe_left_behind' in globals()") is False

    shared_lab_page.after_test(failed=True)
    assert page.is_closed()
    fresh = shared_lab_page.ready()
    assert fresh is not page and shared_lab_page.loads == loads + 1
    lab.page = fresh  # the fixture's teardown closes what is open on the new page
