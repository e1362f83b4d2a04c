"""A small progress bar for notebooks (an updating HTML display) and terminals (one line)."""

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


class _Line:
    """What a notebook shows: HTML <progress> with a plain-text fallback."""

    def __init__(self, done: int, total: int, text: str) -> None:
        self.done, self.total, self.text = done, total, text

    def _repr_html_(self) -> str:
        return (f'<div style="font-family: monospace"><progress value="{self.done}" '
                f'max="{max(self.total, 1)}" style="width: 24em"></progress> {self.text}</div>')

    def __repr__(self) -> str:
        return self.text


class ProgressBar:
    """Call `update(done)` as games finish and `close()` at the end.

    Notebook: one display updated in place. Terminal: a line redrawn with carriage returns on a
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
        self._handle = None
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        if self.notebook:
            from IPython.display import display

            self._handle = display(_Line(0, total, self._text()), display_id=True)

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
        if self._handle is not None:
            self._handle.update(_Line(done, self.total, self._text()))
        elif self._tty:
            self.stream.write(f"\r{self._bar()} {self._text()}\033[K")
            self.stream.flush()

    def close(self, interrupted: bool = False) -> None:
        final = "(interrupted)" if interrupted else "done"
        if self._handle is not None:
            self._handle.update(_Line(self.done, self.total, self._text(final)))
        else:
            prefix = "\r" if self._tty else ""
            self.stream.write(f"{prefix}{self._bar()} {self._text(final)}\033[K\n"
                              if self._tty else f"{self._bar()} {self._text(final)}\n")
            self.stream.flush()


ProgressCallback = Callable[[int, int], None]
