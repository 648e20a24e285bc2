"""Double-dummy progress as a person or a log reads it: a moving bar with an ETA on a terminal,
one plain line when solving starts and one when it ends otherwise."""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import click

from bridgeproc.cli.common import NORMAL, say, verbosity

if TYPE_CHECKING:  # click.progressbar's return type (click imports it the same way)
    from click._termui_impl import ProgressBar


class SolveProgress:
    """The ``progress(done, total)`` callback of the pipeline, for ``with`` around the run."""

    def __init__(self, label: str = "Double dummy") -> None:
        self.label = label
        self.bar: ProgressBar[int] | None = None
        self.started: float | None = None
        self.total = 0
        self.done = 0
        self.terminal = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if verbosity() < NORMAL:
            return
        if self.started is None:
            self.started, self.total = time.perf_counter(), total
            if self.terminal:
                self.bar = click.progressbar(length=total, label=self.label, show_eta=True, show_pos=True,
                                             file=sys.stderr).__enter__()
            else:
                say(f"{self.label}: solving {total} deal(s)")
        if self.bar is not None:
            self.bar.update(done - self.done)
        self.done = done

    def __enter__(self) -> "SolveProgress":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
        if self.started is not None and not self.terminal and exc[0] is None:
            say(f"{self.label}: {self.done} of {self.total} deal(s) solved in "
                f"{time.perf_counter() - self.started:.1f} s")
