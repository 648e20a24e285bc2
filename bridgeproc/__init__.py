"""bridgeproc: batch processing of duplicate bridge results.

The library API mirrors the command line: ``process_session`` is ``bridgeproc score``. The names load
on first use (``bridgeproc._lazy``), so that ``bridgeproc --version`` starts without pandas.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names
from bridgeproc._version import __version__

if TYPE_CHECKING:
    from bridgeproc.errors import BridgeprocError, ParseError, ValidationError
    from bridgeproc.model import ArchiveOptions, CheckOptions, ConventionChoice, Headings, Options, ReadOptions, Session
    from bridgeproc.pipeline.run import load_results
    from bridgeproc.pipeline.write import process_session
    from bridgeproc.scoring.law77 import score

_HOMES = {
    "BridgeprocError": "bridgeproc.errors", "ParseError": "bridgeproc.errors", "ValidationError": "bridgeproc.errors",
    **{name: "bridgeproc.model" for name in ("ArchiveOptions", "CheckOptions", "ConventionChoice", "Headings", "ReadOptions")},
    "Options": "bridgeproc.model", "Session": "bridgeproc.model", "load_results": "bridgeproc.pipeline.run",
    "process_session": "bridgeproc.pipeline.write", "score": "bridgeproc.scoring.law77",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = [
    "ArchiveOptions", "BridgeprocError", "CheckOptions", "ConventionChoice", "Headings", "Options", "ReadOptions", "ParseError", "Session", "ValidationError",
    "load_results", "process_session", "score", "__version__",
]
