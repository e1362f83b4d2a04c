"""A small progress bar for notebooks (ipywidgets) and terminals (one line)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class ProgressBar:
    """Call `update(done)` as games finish and `close()` at the end.

    Notebook: an ipywidgets bar and label, updated live (a widget's saved text form is fixed at
    display, so notebook checks stay stable). Terminal: a line redrawn with carriage returns on a
    tty; elsewhere only the closing summary line, so logs stay readable.
    """

    def __init__(self, total: int, label: str = "games", stream: TextIO | None = None,
                 notebook: bool | None = None, min_interval: float = 0.1) -> None:
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.notebook = in_notebook() if notebook is None else notebook
        self.min_interval = min_interval
        self.started = time.perf_counter()
        self._last_draw = 0.0
        self.done = 0
        self._widgets = None
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        if self.notebook:
            import ipywidgets
            from IPython.display import display as ipython_display

            display: Callable[..., object] = ipython_display  # IPython leaves it untyped

            bar = ipywidgets.IntProgress(value=0, min=0, max=max(total, 1), description=label)
            text = ipywidgets.Label(value=self._text())
            self._widgets = (bar, text)
            display(ipywidgets.HBox([bar, text]))

    def _text(self, final: str = "") -> str:
        elapsed = time.perf_counter() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        text = f"{self.done:,}/{self.total:,} {self.label}"
        if final:
            return f"{text} {final} in {elapsed:.1f} s ({rate:,.0f} {self.label}/s)"
        if self.done and rate > 0:
            left = (self.total - self.done) / rate
            text += f"  {rate:,.0f} {self.label}/s  about {left:.0f} s left"
        return text

    def _bar(self, width: int = 30) -> str:
        filled = int(width * self.done / self.total) if self.total else width
        return "[" + "#" * filled + "." * (width - filled) + "]"

    def update(self, done: int) -> None:
        self.done = done
        now = time.perf_counter()
        if now - self._last_draw < self.min_interval and done < self.total:
            return
        self._last_draw = now
        if self._widgets is not None:
            self._widgets[0].value, self._widgets[1].value = done, self._text()
        elif self._tty:
            self.stream.write(f"\r{self._bar()} {self._text()}\033[K")
            self.stream.flush()

    def close(self, interrupted: bool = False) -> None:
        final = "(interrupted)" if interrupted else "done"
        line = f"{self._bar()} {self._text(final)}"
        if self._widgets is not None:
            self._widgets[0].value, self._widgets[1].value = self.done, self._text(final)
        elif self._tty:
            self.stream.write(f"\r{line}\033[K\n")
            self.stream.flush()
        else:
            self.stream.write(line + "\n")
            self.stream.flush()


ProgressCallback = Callable[[int, int], None]
