"""Swiss pairing of the next round, from the current standings.

Top-down (Monrad style): the best-placed unpaired team meets the next best-placed
unpaired team it has not met yet; when it has met all of them, the next one
(a rematch). With an odd number of teams the lowest-placed team that has not had a
bye gets it. This greedy rule is simple and predictable; it does not backtrack to
avoid a late rematch, and it is not the WBF/ACBL rule set (which differ among
themselves), so a director may still swap pairs by hand.
"""
from __future__ import annotations

import pandas as pd


def swiss_pairings(table: pd.DataFrame, matches: pd.DataFrame, byes: set[str] | None = None) -> pd.DataFrame:
    """Pairings for the next round.

    Parameters
    ----------
    table : DataFrame
        Standings (``team`` in ranking order), from :func:`bridgeproc.teams.standings.standings`.
    matches : DataFrame
        Matches so far (``home``, ``away``), to avoid rematches.
    byes : set of str, optional
        Teams that already had a bye.

    Returns
    -------
    DataFrame
        ``table`` (1, 2, ...), ``home`` (the better placed team), ``away`` (NA for a bye).
    """
    order = [str(t) for t in table["team"]]
    met = set(zip(matches["home"].astype(str), matches["away"].astype(str)))
    met |= {(b, a) for a, b in met}
    bye = None
    if len(order) % 2:
        had = byes or set()
        bye = next((t for t in reversed(order) if t not in had), order[-1])
        order.remove(bye)
    pairs: list[tuple[str, str | None]] = []
    waiting = list(order)
    while waiting:
        team = waiting.pop(0)
        opponent = next((t for t in waiting if (team, t) not in met), waiting[0])
        waiting.remove(opponent)
        pairs.append((team, opponent))
    if bye is not None:
        pairs.append((bye, None))
    return pd.DataFrame({"table": range(1, len(pairs) + 1),
                         "home": pd.array([p[0] for p in pairs], dtype="string"),
                         "away": pd.array([p[1] for p in pairs], dtype="string")})
