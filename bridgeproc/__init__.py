"""bridgeproc: batch processing of duplicate bridge results.

The library API mirrors the command line: ``process_session`` is ``bridgeproc score``.
"""
from __future__ import annotations

from bridgeproc._version import __version__
from bridgeproc.errors import BridgeprocError, ParseError, ValidationError  # noqa: E402
from bridgeproc.model import Options, Session
from bridgeproc.pipeline.run import load_results
from bridgeproc.pipeline.write import process_session
from bridgeproc.scoring.law77 import score  # noqa: E402

__all__ = [
    "BridgeprocError", "Options", "ParseError", "Session", "ValidationError",
    "load_results", "process_session", "score", "__version__",
]
