"""Law 77 over whole columns, weighted parts and the fast text path."""
from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.scoring.law77 import board_phase, declarer_score_codes, score, score_ns_codes, score_text

_HOMES = {
    "board_phase": "bridgeproc.scoring.law77",
    "declarer_score_codes": "bridgeproc.scoring.law77",
    "score": "bridgeproc.scoring.law77",
    "score_ns_codes": "bridgeproc.scoring.law77",
    "score_text": "bridgeproc.scoring.law77",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = ["board_phase", "declarer_score_codes", "score", "score_ns_codes", "score_text"]
