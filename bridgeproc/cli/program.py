"""The ``bridgeproc`` program: the command group run, then the process ended at once.

A Python process that has imported pandas, numpy and openpyxl spends about 0.06 s at its end tearing
the interpreter down (every module's objects freed one by one), memory the system takes back anyway:
a tenth of a club night's whole run. So once the command is done, :func:`main` runs what the process
registered to run at its end (``atexit``: the archive's engines closed, coverage saved, logging
flushed), flushes the standard streams and ends the process with the command's exit code. Every
output is in place and closed by then: the writers close their files before renaming them into
place. When another thread is still running, the process ends the ordinary way, which waits for it.
Library callers and tests call the group itself (``bridgeproc.cli.cli``) and are not ended.
"""
from __future__ import annotations

import atexit
import os
import sys
import threading

from bridgeproc.cli.main import cli


def main() -> None:
    """Run ``bridgeproc`` with the command line's arguments and end the process with its exit code."""
    try:
        cli.main(prog_name="bridgeproc")
        code: str | int | None = 0
    except SystemExit as done:  # click ends every run (success, usage error, --help) this way
        code = done.code
    end(code)


def end(code: str | int | None) -> None:
    """End the process with ``code`` (as ``sys.exit`` reads it) without tearing the interpreter down."""
    if threading.active_count() > 1:
        sys.exit(code)
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message"): the message to stderr, status 1
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the stream closed (``>&-``, pythonw): nothing to flush
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (bridgeproc ... | head) or a closed stream
            status = status or 1
    os._exit(status)
