"""bridgeproc: batch processing of duplicate bridge results.

The library API mirrors the command line: ``process_session`` is ``bridgeproc score``.
"""
from __future__ import annotations

__version__ = "0.1.0"

from bridgeproc.errors import BridgeprocError, ParseError, ValidationError  # noqa: E402
from bridgeproc.scoring.law77 import score  # noqa: E402
from bridgeproc.pipeline.run import Options, Session, load_results, process_session  # noqa: E402

__all__ = [
    "BridgeprocError", "Options", "ParseError", "Session", "ValidationError",
    "load_results", "process_session", "score", "__version__",
]
