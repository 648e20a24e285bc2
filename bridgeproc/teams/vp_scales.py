"""The VP scales bridgeproc knows by name, and the one that reproduces a file's published VPs.

A teams file that publishes its match VPs seldom names the scale (USEBIO has no element for it).
The published VPs fix it: each known scale converts the file's own IMP margins, and the one that
gives back the most published VPs is the event's scale (the WBF scale first, so a tie keeps the
default). The director's ``--vp-scale`` is never overridden.

Known scales:

* ``wbf2013``: the WBF 2013 continuous 20-VP scale (:mod:`bridgeproc.teams.vp`), any match length.
* ``ebu20``: the EBU's 20-VP scale in whole VPs, as TeamsScorer publishes it; bridgeproc knows its
  3-board table (``eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml``: 0:10, 1:11,
  2:12, 3-4:13, 5-6:14, 7-8:15, 9-10:16, 11-13:17, 14-16:18, 17-20:19, 21+:20). A match of
  another length on that scale needs its table given with ``--vp-scale``.
"""
from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pandas as pd

from bridgeproc.teams.vp import WBF2013, VpScale, parse_vp_table, read_vp_table

__all__ = ["EBU20", "KNOWN_SCALES", "scale_covers", "vp_agreement", "vp_scale"]

#: The EBU 20-VP whole-VP scale's tables by match length (margin, winner, loser, boards).
_EBU20_TABLE = """margin,winner,loser,boards
0,10,10,3
1,11,9,3
2,12,8,3
3,13,7,3
5,14,6,3
7,15,5,3
9,16,4,3
11,17,3,3
14,18,2,3
17,19,1,3
21,20,0,3
"""
#: The EBU 20-VP scale (whole VPs) for the match lengths bridgeproc has its table of.
EBU20 = replace(parse_vp_table(_EBU20_TABLE, "ebu20"), label="EBU 20-VP (whole VPs)")
#: Name -> scale, in the order tried when the file does not name its scale (the default first).
KNOWN_SCALES: dict[str, VpScale] = {"wbf2013": WBF2013, "ebu20": EBU20}


def scale_covers(scale: VpScale, lengths: np.ndarray) -> bool:
    """True when ``scale`` converts matches of every length in ``lengths``."""
    return scale.name == "wbf2013" or not scale.bands or 0 in scale.bands or \
        set(int(n) for n in np.unique(lengths)) <= set(scale.bands)


def vp_agreement(ours: pd.DataFrame, published: pd.DataFrame) -> tuple[int, int]:
    """(published VPs equal to ours, published VPs compared): each played match's two VPs, to 0.01.

    ``ours`` has ``round home away vp_home vp_away`` (:func:`bridgeproc.teams.matches.match_totals`),
    ``published`` the same keys with the file's ``vp_home vp_away`` and ``played``.
    """
    pub = published[published["played"].to_numpy(dtype=bool) & published["vp_home"].notna().to_numpy()]
    if not len(pub):
        return 0, 0
    keyed = ours.drop_duplicates(subset=["round", "home", "away"]).set_index(["round", "home", "away"])
    at = pd.MultiIndex.from_frame(pub[["round", "home", "away"]].astype({"round": "Int64"}))
    agree = 0
    for side in ("home", "away"):
        mine = keyed[f"vp_{side}"].reindex(at).to_numpy(dtype=np.float64)
        theirs = pub[f"vp_{side}"].to_numpy(dtype=np.float64)
        agree += int(np.sum(np.abs(mine - theirs) < 0.005))
    return agree, 2 * len(pub)


def vp_scale(spec: str | os.PathLike | VpScale | None) -> VpScale:
    """``None`` -> the WBF scale; a known scale's name (``wbf2013``, ``wbf``, ``ebu20``) -> that scale;
    any other text -> the path of a club's VP table (:func:`bridgeproc.teams.vp.read_vp_table`)."""
    if spec is None or isinstance(spec, VpScale):
        return spec or WBF2013
    name = str(spec).lower()
    if name in ("wbf", "wbf-2013"):
        return WBF2013
    if name in KNOWN_SCALES:
        return KNOWN_SCALES[name]
    return read_vp_table(spec)
