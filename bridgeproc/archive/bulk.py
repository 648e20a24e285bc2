"""Columnar reads of a frame table for whole-archive passes (``archive rescore``): many versions' rows,
a few typed columns, as numpy arrays without a Python object per cell where the database allows it.

The DB-API driver hands over every row as a tuple of Python objects: about 5 s a million results for
the six columns re-scoring reads, more than the scoring itself. On SQLite each column is instead asked
for as one text (``group_concat``) over a run of rowids, and parsed by numpy in one call; the runs are the
versions' own rows (a version's rows are written together, so they are contiguous), found from the
primary-key index, and every row read is checked to be one of the versions asked for, in the right number.
A version whose rows are not where that says, a text holding the separator, or an integer column with a
NULL, is read through the driver instead (:func:`fetch`), as every read is on PostgreSQL: the result is
the same frame either way.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
from sqlalchemy import Table

#: Versions per ``IN (...)`` list (SQLite's old limit on bound parameters is 999).
IN_LIST = 900
#: Separates the values of a text column in its ``group_concat`` (checked never to occur in one).
_SEP = "\x1e"
_INTEGERS = re.compile(r"[-0-9,]*")
#: Rowids between two versions' runs that are read through rather than starting a new run.
_GAP = 4096


def fetch(conn, table: Table, columns: tuple[str, ...], ids: list[int]) -> list[tuple]:
    """``(version_id, *columns)`` rows of ``table`` for ``ids``, in (version_id, pos) order, through the driver
    (SQLAlchemy's per-row processing would cost more than the database's work)."""
    quote = conn.dialect.identifier_preparer.quote
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    cursor = conn.connection.driver_connection.cursor()
    out: list[tuple] = []
    for start in range(0, len(ids), IN_LIST):
        some = ids[start:start + IN_LIST]
        cursor.execute(f"SELECT version_id, {', '.join(quote(c) for c in columns)} FROM {quote(table.name)} "
                       f"WHERE version_id IN ({', '.join([mark] * len(some))}) ORDER BY version_id, pos", some)
        out += cursor.fetchall()
    cursor.close()
    return out


def text_array(values) -> pd.arrays.StringArray:
    """Python strings and Nones as a ``string`` array (NA for None)."""
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return pd.array(array, dtype="string")


def as_frame(rows: list[tuple], columns: tuple[str, ...], ints: tuple[str, ...] = (),
             nullable: tuple[str, ...] = ()) -> pd.DataFrame:
    """Rows of ``(version_id, *columns)`` as a frame: ``ints`` int64, ``nullable`` Int64, the rest ``string``."""
    data = list(zip(*rows)) if rows else [()] * (len(columns) + 1)
    out = {"version_id": np.fromiter(data[0], dtype=np.int64, count=len(rows))}
    for name, values in zip(columns, data[1:]):
        if name in ints:
            out[name] = np.fromiter(values, dtype=np.int64, count=len(rows))
        elif name in nullable:
            floats = np.array(values, dtype=np.float64) if rows else np.zeros(0)
            out[name] = pd.array(np.nan_to_num(floats).astype(np.int64), dtype="Int64")
            out[name][np.isnan(floats)] = pd.NA
        else:
            out[name] = text_array(values)
    return pd.DataFrame(out)


def read_columns(conn, table: Table, columns: tuple[str, ...], versions: dict[int, int], *,
                 ints: tuple[str, ...] = (), nullable: tuple[str, ...] = ()) -> pd.DataFrame:
    """The ``columns`` of ``table`` for ``versions`` (version_id -> its number of rows), with ``version_id``,
    in (version_id, pos) order: the frame :func:`as_frame` makes of :func:`fetch`'s rows, read by column."""
    ids = sorted(versions)
    if conn.dialect.name != "sqlite" or not ids:
        return as_frame(fetch(conn, table, columns, ids), columns, ints, nullable)
    parts, slow = [], []
    for low, high, wanted in _runs(conn, table, versions):
        part = _run(conn, table, columns, low, high, wanted, ints, nullable)
        if part is None:
            slow += list(wanted)
        else:
            parts.append(part)
    if slow:
        parts.append(as_frame(fetch(conn, table, columns, sorted(slow)), columns, ints, nullable))
    if not parts:  # only versions without rows
        return as_frame([], columns, ints, nullable)
    out = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    key = out["version_id"].to_numpy()
    if len(key) > 1 and not (np.diff(key) >= 0).all():  # runs came in rowid order, not version order
        out = out.iloc[np.argsort(key, kind="stable")].reset_index(drop=True)
    return out


def _runs(conn, table: Table, versions: dict[int, int]) -> list[tuple[int, int, dict[int, int]]]:
    """Runs of rowids ``(low, high, {version_id: rows})`` holding the versions' rows: each version from the
    rowid of its first row to that of its last (by pos), neighbouring versions joined into one run."""
    name = conn.dialect.identifier_preparer.quote(table.name)
    cursor = conn.connection.driver_connection.cursor()
    ids = sorted(versions)
    spans = []
    for start in range(0, len(ids), IN_LIST):
        some = ids[start:start + IN_LIST]
        cursor.execute(f"SELECT v.version_id, (SELECT rowid FROM {name} r WHERE r.version_id = v.version_id "
                       f"ORDER BY pos LIMIT 1), (SELECT rowid FROM {name} r WHERE r.version_id = v.version_id "
                       f"ORDER BY pos DESC LIMIT 1) FROM versions v WHERE v.version_id IN ({', '.join('?' * len(some))})", some)
        spans += [span for span in cursor.fetchall() if span[1] is not None]  # a version without rows: no span
    cursor.close()
    spans.sort(key=lambda span: span[1])
    runs: list[tuple[int, int, dict[int, int]]] = []
    for version_id, first, last in spans:
        low, high = min(first, last), max(first, last)
        if runs and low - runs[-1][1] <= _GAP:
            run_low, run_high, wanted = runs[-1]
            wanted[version_id] = versions[version_id]
            runs[-1] = (run_low, max(run_high, high), wanted)
        else:
            runs.append((low, high, {version_id: versions[version_id]}))
    return runs


def _run(conn, table: Table, columns: tuple[str, ...], low: int, high: int, wanted: dict[int, int],
         ints: tuple[str, ...], nullable: tuple[str, ...]) -> pd.DataFrame | None:
    """The rows of ``wanted`` in rowids ``low..high``, every column one ``group_concat`` of a single query
    (so all are read from the same rows in the same order); None when the versions' rows are not all
    there, or a value cannot be read this way: the caller reads those versions through the driver."""
    quote = conn.dialect.identifier_preparer.quote
    flags = " || ".join(f"({quote(c)} IS NULL)" for c in columns)
    parts = ["group_concat(version_id, ',')", "group_concat(pos, ',')", f"group_concat({flags}, '')"]
    for name in columns:
        if name in ints or name in nullable:
            parts.append(f"group_concat(coalesce({quote(name)}, 0), ',')")
        else:
            parts.append(f"group_concat(coalesce({quote(name)}, ''), '{_SEP}')")
    cursor = conn.connection.driver_connection.cursor()
    try:
        cursor.execute(f"SELECT count(*), {', '.join(parts)} FROM {quote(table.name)} WHERE rowid BETWEEN ? AND ?",
                       (low, high))
        n, version_text, pos_text, flag_text, *texts = cursor.fetchone()
    finally:
        cursor.close()
    version, pos = _integers(version_text, n), _integers(pos_text, n)
    if version is None or pos is None or len(flag_text or "") != n * len(columns):
        return None
    keep = np.isin(version, np.fromiter(wanted, dtype=np.int64, count=len(wanted)))
    ids, counts = np.unique(version[keep], return_counts=True)
    if len(ids) != len(wanted) or any(wanted[int(i)] != int(c) for i, c in zip(ids, counts)):
        return None
    everything = bool(keep.all())
    null = (np.frombuffer(flag_text.encode("ascii"), dtype=np.uint8).reshape(n, len(columns)) == ord("1"))[keep]
    out: dict[str, object] = {"version_id": version[keep]}
    for j, (name, text) in enumerate(zip(columns, texts)):
        if name in ints or name in nullable:
            values = _integers(text, n)
            if values is None or (name in ints and null[:, j].any()):
                return None
            out[name] = values[keep] if name in ints else pd.arrays.IntegerArray(values[keep], null[:, j].copy())
        else:
            split = text.split(_SEP)
            if len(split) != n:  # a value holds the separator
                return None
            strings = np.array(split, dtype=object)
            strings = strings if everything else strings[keep]
            strings[null[:, j]] = None
            out[name] = pd.array(strings, dtype="string")
    frame = pd.DataFrame(out)
    order = np.lexsort((pos[keep], frame["version_id"].to_numpy()))
    if not (order == np.arange(len(order))).all():
        frame = frame.iloc[order].reset_index(drop=True)
    return frame


def _integers(text: str | None, n: int) -> np.ndarray | None:
    """``n`` comma-separated integers (``group_concat`` of an INTEGER column) as int64; None when the text
    is not that (a value stored as a real or a text)."""
    if not n:
        return np.zeros(0, dtype=np.int64)
    if not text or not _INTEGERS.fullmatch(text):
        return None
    values = np.fromstring(text, dtype=np.int64, sep=",")
    return values if len(values) == n else None
