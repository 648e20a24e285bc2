"""analysis.par against endplay's private API (0.5.12): these fail loudly the day endplay changes it.

``_dds_par`` is the one function that fills ``endplay._dds.ddTableResults`` and reads
``ParList._data`` (the public API cannot make a DDTable from trick counts, and its
ParList iteration splits a side's contract per player). Nothing here solves a deal:
par from a known table is quick, so these run in every test run.
"""
import pandas as pd

from bridgeproc.analysis.dd import DD_COLUMNS
from bridgeproc.analysis.par import _dds_par, par


def table(**tricks) -> tuple[int, ...]:
    """20 trick counts in DD_COLUMNS order: 6 everywhere except ``N_NT=9`` ..."""
    return tuple(tricks.get(c.removeprefix("dd_"), 6) for c in DD_COLUMNS)


BOTH_NS_3NT = table(N_NT=9, S_NT=9, E_NT=4, W_NT=4)


def test_raw_dds_par_of_a_side_and_of_one_player():
    # (level, denom 0=NT, seats 4=NS / 0=N, under, over)
    assert _dds_par(BOTH_NS_3NT, 0, "None") == (400, [(3, 0, 4, 0, 0)])
    assert _dds_par(table(N_NT=9, S_NT=8, E_NT=4, W_NT=4), 0, "None") == (400, [(3, 0, 0, 0, 0)])
    # NS make 4S; EW's 5H doubled two down (seats 5=EW, denom 2=H) costs less, non-vulnerable
    assert _dds_par(table(N_S=10, S_S=10, E_H=9, W_H=9), 0, "None") == (300, [(5, 2, 5, 2, 0)])


def test_public_par_list_still_splits_a_side_contract():
    """Why ``ParList._data`` is read: the public iteration gives N and S for NS's 3NT.
    If this fails, endplay keeps sides now: read the contracts through its public API."""
    from endplay import _dds
    from endplay.dds import par as dds_par
    from endplay.dds.ddtable import DDTable
    from endplay.types import Player, Vul

    res = _dds.ddTableResults()
    res.resTable[4][0] = res.resTable[4][2] = 9  # NT: North, South
    found = dds_par(DDTable(res), Vul(0), Player(0))
    assert found.score == 400
    assert [(c.level, c.declarer) for c in found] == [(3, Player.north), (3, Player.south)]


def test_par_frame_from_known_tables():
    boards = pd.DataFrame([dict(zip(DD_COLUMNS, t)) for t in (BOTH_NS_3NT, table(N_S=10, S_S=10, E_H=9, W_H=9))],
                          dtype="Int8").assign(board=[1, 1], dealer=["N", "N"], vul=["None", "None"])
    out = par(boards)
    assert out["par_score"].tolist() == [400, 300]
    assert out["par_contracts"].tolist() == ["NS 3NT", "EW 5HX-2"]
    assert out["par_optimum_score"].tolist() == ["NS 400", "NS 300"]
