"""Law 77 over whole columns, weighted parts and the fast text path."""
from bridgeproc.scoring.law77 import board_phase, declarer_score_codes, score, score_ns_codes, score_text

__all__ = ["board_phase", "declarer_score_codes", "score", "score_ns_codes", "score_text"]
