"""A literal golden of the sample evening's rankings (issue 27): the expected standings frame written
out by hand from the travellers, with its dtypes, so that a change to reading, scoring or ranking that
moves one number shows here. 13 tables, 26 boards, two winners; a board's top is 24 (2 per result
beaten), the evening's 624, so a percentage is the total / 624."""
from __future__ import annotations

import pandas as pd

from bridgeproc.model import Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from tests.conftest import SAMPLE

#: (group, rank, pair, names, total), as the evening's travellers give them.
EXPECTED = [
    ("EW", "1", "2", "Carla Aas & David Næss", 382.0),
    ("EW", "2", "8", "Olga Moen & Per Vik", 342.0),
    ("EW", "3", "1", "Anna Strand & Bjørn Sæther", 341.0),
    ("EW", "4", "3", "Eva Holm & Frank Berg", 333.0),
    ("EW", "5", "4", "Grete Berge & Hans Fossum", 321.0),
    ("EW", "6", "6", "Kari Eriksen & Lars Nilsen", 319.0),
    ("EW", "7", "11", "Vera Bakke & Wenche Solberg", 318.0),
    ("EW", "8", "10", "Tove Thorsen & Ulf Hagen", 314.0),
    ("EW", "9", "7", "Mona Johansen & Nils Ruud", 293.0),
    ("EW", "10", "12", "Yngve Sæther & Åse Dahl", 282.0),
    ("EW", "11", "9", "Rita Pedersen & Sven Lund", 278.0),
    ("EW", "12", "13", "Øystein Næss & Liv Haug", 277.0),
    ("EW", "13", "5", "Ingrid Tangen & Jon Krogh", 256.0),
    ("NS", "1", "8", "Olga Hagen & Per Eriksen", 373.0),
    ("NS", "2", "5", "Ingrid Ruud & Jon Holm", 354.0),
    ("NS", "3", "1", "Anna Berg & Bjørn Lie", 341.0),
    ("NS", "4", "12", "Yngve Lie & Åse Thorsen", 322.0),
    ("NS", "5", "11", "Vera Haug & Wenche Pedersen", 316.0),
    ("NS", "6", "6", "Kari Vik & Lars Berge", 315.0),
    ("NS", "7", "10", "Tove Dahl & Ulf Moen", 313.0),
    ("NS", "8", "13", "Øystein Olsen & Liv Bakke", 307.0),
    ("NS", "9", "7", "Mona Lund & Nils Tangen", 302.0),
    ("NS", "10", "9", "Rita Solberg & Sven Johansen", 301.0),
    ("NS", "11", "2", "Carla Fossum & David Olsen", 289.0),
    ("NS", "12", "4", "Grete Nilsen & Hans Aas", 269.0),
    ("NS", "13", "3", "Eva Krogh & Frank Strand", 254.0),
]
#: Percentages written out to six decimals (total / 624 x 100).
PERCENTAGES = [61.217949, 54.807692, 54.647436, 53.365385, 51.442308, 51.121795, 50.961538, 50.320513,
               46.955128, 45.192308, 44.551282, 44.391026, 41.025641, 59.775641, 56.730769, 54.647436,
               51.602564, 50.641026, 50.480769, 50.160256, 49.198718, 48.397436, 48.237179, 46.314103,
               43.108974, 40.705128]


def test_the_sample_evening_ranks_as_written_out():
    session = build_session([str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")],
                            Options(read=ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False))
    expected = pd.DataFrame({
        "method": pd.array(["mp"] * 26, dtype=pd.StringDtype(na_value=float("nan"))),
        "group": pd.array([r[0] for r in EXPECTED], dtype="string"),
        "rank": pd.array([r[1] for r in EXPECTED], dtype="string"),
        "pair": pd.array([r[2] for r in EXPECTED], dtype="string"),
        "names": pd.array([r[3] for r in EXPECTED], dtype="string"),
        "boards": pd.array([26] * 26, dtype="int64"),
        "total": pd.array([r[4] for r in EXPECTED], dtype="float64"),
        "pct": pd.array(PERCENTAGES, dtype="float64"),
    })
    pd.testing.assert_frame_equal(session.standings, expected, check_exact=False, atol=5e-7, rtol=0)
    assert session.movement == "Movement: 13 tables, 26 boards, two winners (NS and EW ranked apart); pairs numbered " \
                               "per-direction"
