"""Rankings: matchpoints, cross-IMPs, Butler, and the standings built from them.

Every function takes a results frame and returns a new frame; nothing loops over
results in Python. Conventions are one frozen :class:`Conventions` value.
"""
from __future__ import annotations

from bridgeproc.rank._core import IMP_BOUNDS, to_imps
from bridgeproc.rank.conventions import PROFILES, Conventions, parse_scoring_tag, profile
from bridgeproc.rank.imps import butler, cross_imps
from bridgeproc.rank.matchpoints import matchpoints
from bridgeproc.rank.standings import rank_results, rank_text, standings, winner_groups

__all__ = [
    "Conventions", "PROFILES", "profile", "parse_scoring_tag",
    "matchpoints", "cross_imps", "butler", "to_imps", "IMP_BOUNDS",
    "standings", "rank_text", "winner_groups", "rank_results",
]
