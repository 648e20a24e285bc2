"""Checks: raw text frames to typed results, with every problem and note collected (cells,
tricks, written scores, pairs and movement, auction and play legality)."""
from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.validate.results import Checked, validate_results

_HOMES = {
    "Checked": "bridgeproc.validate.results",
    "validate_results": "bridgeproc.validate.results",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = ["Checked", "validate_results"]
