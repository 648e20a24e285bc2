"""Rankings: matchpoints, cross-IMPs, Butler, and the standings built from them.

Every function takes a results frame and returns a new frame; nothing loops over
results in Python. Conventions are one frozen :class:`Conventions` value.

The functions are imported from here (``from bridgeproc.rank import matchpoints,
standings``): the modules that implement ``matchpoints`` and ``standings`` are private
(``_matchpoints``, ``_standings``), so no submodule shares a name with a function
(``import bridgeproc.rank.standings`` used to leave the function where a module was
expected). ``to_imps``/``IMP_BOUNDS`` (the WBF IMP scale), ``played_masks`` and
``artificial_imps`` are shared with the teams and rubber scorers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.rank._core import IMP_BOUNDS, artificial_imps, played_masks, to_imps
    from bridgeproc.rank._matchpoints import matchpoints
    from bridgeproc.rank._standings import is_individual, rank_results, rank_text, standings, winner_groups
    from bridgeproc.rank.conventions import PROFILES, Conventions, parse_scoring_tag, profile
    from bridgeproc.rank.imps import butler, cross_imps

_HOMES = {
    "IMP_BOUNDS": "bridgeproc.rank._core",
    "artificial_imps": "bridgeproc.rank._core",
    "played_masks": "bridgeproc.rank._core",
    "to_imps": "bridgeproc.rank._core",
    "matchpoints": "bridgeproc.rank._matchpoints",
    "is_individual": "bridgeproc.rank._standings",
    "rank_results": "bridgeproc.rank._standings",
    "rank_text": "bridgeproc.rank._standings",
    "standings": "bridgeproc.rank._standings",
    "winner_groups": "bridgeproc.rank._standings",
    "PROFILES": "bridgeproc.rank.conventions",
    "Conventions": "bridgeproc.rank.conventions",
    "parse_scoring_tag": "bridgeproc.rank.conventions",
    "profile": "bridgeproc.rank.conventions",
    "butler": "bridgeproc.rank.imps",
    "cross_imps": "bridgeproc.rank.imps",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = [
    "Conventions", "PROFILES", "profile", "parse_scoring_tag",
    "matchpoints", "cross_imps", "butler", "to_imps", "IMP_BOUNDS",
    "standings", "rank_text", "winner_groups", "rank_results", "is_individual",
    "played_masks", "artificial_imps",
]
