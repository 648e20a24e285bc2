"""Checks: raw text frames to typed results, with every problem and note collected (cells,
tricks, written scores, pairs and movement, auction and play legality)."""
from bridgeproc.validate.results import Checked, validate_results

__all__ = ["Checked", "validate_results"]
