"""Columnar reads of a frame table (archive.bulk): on SQLite each column comes as one text over runs of
rowids; whatever the rows hold and however they were written, the frame must be the one the driver's
rows give (``as_frame(fetch(...))``), and the column path must really be the one taken when it can be."""
from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, insert, select

from bridgeproc.archive import bulk
from bridgeproc.archive.tables import metadata, results, sessions
from bridgeproc.archive.tables import versions as versions_table
from tests.conftest import examples

COLUMNS = ("section", "board", "ns", "ew", "adjusted", "score_ns")
INTS, NULLABLE = ("board",), ("score_ns",)


@pytest.fixture
def engine(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'bulk.sqlite'}")
    metadata.create_all(engine)
    yield engine
    engine.dispose()


def row(version_id: int, pos: int, board: int = 1, score: int | None = 420, section: str | None = "A",
        ns: str | None = "1", ew: str | None = "2", adjusted: str | None = None) -> dict:
    return {"version_id": version_id, "pos": pos, "section": section, "board": board, "ns": ns, "ew": ew,
            "adjusted": adjusted, "score_ns": score}


def write(engine, rows: list[dict], versions: range = range(1, 9)) -> None:
    """The rows inserted in the order given (that order is their rowid order), with their versions."""
    with engine.begin() as conn:
        if not conn.execute(select(versions_table.c.version_id)).first():
            stamp = "2026-12-01T00:00:00"
            conn.execute(insert(sessions).values(session_id="s", event="e", date="", created_at=stamp,
                                                 updated_at=stamp))
            for version_id in versions:
                conn.execute(insert(versions_table).values(version_id=version_id, session_id="s", version=version_id,
                                                           created_at=stamp, content_hash="", conventions="{}",
                                                           meta="{}"))
        for item in rows:
            conn.execute(insert(results).values(**item))


def both(engine, versions: dict[int, int]) -> tuple[pd.DataFrame, pd.DataFrame]:
    with engine.connect() as conn:
        fast = bulk.read_columns(conn, results, COLUMNS, versions, ints=INTS, nullable=NULLABLE)
        slow = bulk.as_frame(bulk.fetch(conn, results, COLUMNS, sorted(versions)), COLUMNS, INTS, NULLABLE)
    return fast, slow


def no_driver(monkeypatch) -> None:
    """Reading through the driver fails the test: the column path must serve every version."""
    def refuse(*args, **kwargs):
        raise AssertionError("read through the driver")
    monkeypatch.setattr(bulk, "fetch", refuse)


def test_contiguous_versions_read_by_column_with_nulls_empty_texts_and_negative_scores(engine, monkeypatch):
    write(engine, [row(1, 0, 1, 420), row(1, 1, 2, None, adjusted="A+/A-"), row(1, 2, 3, -1100, section=None),
                   row(2, 0, 1, 0, section="", ns="", ew=None), row(2, 1, 5, -50, adjusted="")])
    with engine.connect() as conn:
        no_driver(monkeypatch)
        fast = bulk.read_columns(conn, results, COLUMNS, {1: 3, 2: 2}, ints=INTS, nullable=NULLABLE)
    assert fast["version_id"].tolist() == [1, 1, 1, 2, 2]
    assert fast["board"].tolist() == [1, 2, 3, 1, 5]
    assert fast["score_ns"].tolist() == [420, pd.NA, -1100, 0, -50]
    assert fast["section"].tolist() == ["A", "A", pd.NA, "", "A"]
    assert fast["ns"].tolist() == ["1", "1", "1", "", "1"]
    assert fast["ew"].tolist() == ["2", "2", "2", pd.NA, "2"]
    assert fast["adjusted"].tolist() == [pd.NA, "A+/A-", pd.NA, pd.NA, ""]
    assert dict(fast.dtypes.astype(str)) == {"version_id": "int64", "section": "string", "board": "int64",
                                             "ns": "string", "ew": "string", "adjusted": "string",
                                             "score_ns": "Int64"}


def test_a_version_not_asked_for_between_two_that_are_is_left_out(engine, monkeypatch):
    write(engine, [row(1, 0, 1), row(1, 1, 2), row(7, 0, 9), row(7, 1, 9), row(3, 0, 4)])
    fast, slow = both(engine, {1: 2, 3: 1})
    pd.testing.assert_frame_equal(fast, slow)
    assert fast["board"].tolist() == [1, 2, 4]


def test_rows_written_out_of_pos_order_come_back_in_pos_order(engine):
    write(engine, [row(1, 2, 3), row(1, 0, 1), row(1, 1, 2)])
    fast, slow = both(engine, {1: 3})
    pd.testing.assert_frame_equal(fast, slow)
    assert fast["board"].tolist() == [1, 2, 3]


@pytest.mark.parametrize("case", ["interleaved", "separator in a text", "fewer rows than the frame says",
                                  "a real in an integer column"])
def test_what_the_columns_cannot_read_is_read_through_the_driver(engine, case):
    rows = [row(1, 0, 1), row(1, 1, 2), row(2, 0, 3), row(2, 1, 4)]
    versions = {1: 2, 2: 2}
    if case == "interleaved":
        rows = [rows[0], rows[2], rows[1], rows[3]]
    elif case == "separator in a text":
        rows[1] = row(1, 1, 2, section="A\x1eB")
    elif case == "fewer rows than the frame says":
        versions = {1: 3, 2: 2}
    else:
        rows[3] = row(2, 1, 4, score=None) | {"score_ns": 1.5}
    write(engine, rows)
    fast, slow = both(engine, versions)
    pd.testing.assert_frame_equal(fast, slow)
    if case == "separator in a text":
        assert fast["section"].tolist()[1] == "A\x1eB"


def test_no_versions_and_an_empty_version(engine):
    write(engine, [row(1, 0, 1)])
    fast, slow = both(engine, {})
    pd.testing.assert_frame_equal(fast, slow)
    assert len(fast) == 0
    fast, slow = both(engine, {1: 1, 5: 0})
    pd.testing.assert_frame_equal(fast, slow)


TEXT = st.one_of(st.none(), st.text(alphabet=st.sampled_from(list('AB1 ,"\'\n\x1e\x1fé♠,-0')), max_size=4))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_rows_in_any_order_read_as_the_driver_reads_them(engine, data):
    n_versions = data.draw(st.integers(1, 4))
    rows = []
    for version_id in range(1, n_versions + 1):
        for pos in range(data.draw(st.integers(0, 5))):
            rows.append(row(version_id, pos, data.draw(st.integers(-5, 40)),
                            data.draw(st.one_of(st.none(), st.integers(-7600, 7600))),
                            data.draw(TEXT), data.draw(TEXT), data.draw(TEXT), data.draw(TEXT)))
    rows = data.draw(st.one_of(st.just(rows), st.permutations(rows)))
    with engine.begin() as conn:
        conn.execute(results.delete())
    write(engine, rows)
    counts = {v: sum(1 for r in rows if r["version_id"] == v) for v in range(1, n_versions + 1)}
    wanted = {v: n for v, n in counts.items() if data.draw(st.booleans()) or v == 1}
    fast, slow = both(engine, wanted)
    pd.testing.assert_frame_equal(fast, slow)
