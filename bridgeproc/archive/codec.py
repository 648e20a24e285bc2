"""Frames to SQL rows and back, exactly (values, column order and pandas dtypes).

A frame is encoded column by column into plain Python lists (``None`` for a
missing value), which is what the database drivers bind fastest. Columns the
frame table has a typed SQL column for go there; the rest go into the row's
``extra`` JSON text. The column spec (name, dtype, SQL column) is stored in
``frames.columns`` and drives decoding.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from itertools import repeat

import numpy as np
import pandas as pd
from sqlalchemy import Float, Integer, Table

from bridgeproc.archive.tables import RENAMED


@dataclass
class Encoded:
    """One frame as lists: ``values[i]`` is the column stored in ``targets[i]`` (None: in ``extra``)."""

    frame: str
    spec: dict
    n_rows: int
    targets: list[str | None]
    values: list[list]

    def sql_columns(self) -> list[str]:
        """The table columns :meth:`rows` fills, in order."""
        stored = [t for t in self.targets if t is not None]
        return ["version_id", "pos"] + stored + (["extra"] if None in self.targets else [])

    def rows(self, version_id: int) -> list[tuple]:
        """Plain tuples in :meth:`sql_columns` order (the fastest thing to executemany)."""
        columns = [v for t, v in zip(self.targets, self.values) if t is not None]
        extra_names = [c[0] for c, t in zip(self.spec["columns"], self.targets) if t is None]
        if extra_names:
            extra_values = [v for t, v in zip(self.targets, self.values) if t is None]
            columns.append([json.dumps(dict(zip(extra_names, row)), default=str) for row in zip(*extra_values)])
        return list(zip(repeat(version_id, self.n_rows), range(self.n_rows), *columns))

    def digest(self, hasher) -> None:
        hasher.update(self.frame.encode())
        hasher.update(json.dumps(self.spec, sort_keys=True).encode())
        for values in self.values:
            hasher.update(repr(values).encode())


def dtype_spec(dtype) -> object:
    """A JSON-able description of a pandas dtype (see :func:`spec_dtype`)."""
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        return {"category": categories.tolist(), "ordered": bool(dtype.ordered),
                "categories_dtype": dtype_spec(categories.dtype)}
    if isinstance(dtype, pd.StringDtype):
        na = "NA" if dtype.na_value is pd.NA else "nan"
        return {"string": dtype.storage, "na": na}
    return str(dtype)


def spec_dtype(spec: object):
    """The pandas dtype a :func:`dtype_spec` describes."""
    if isinstance(spec, dict) and "category" in spec:
        categories = pd.Index(spec["category"], dtype=spec_dtype(spec.get("categories_dtype", "object")))
        return pd.CategoricalDtype(categories, ordered=spec["ordered"])
    if isinstance(spec, dict) and "string" in spec:
        return pd.StringDtype(spec["string"], na_value=np.nan if spec["na"] == "nan" else pd.NA)
    return pd.api.types.pandas_dtype(spec)


def _kind(series: pd.Series) -> str:
    dtype = series.dtype
    if isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)):
        return "text"
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
        return "int"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if pd.api.types.is_object_dtype(dtype) and all(isinstance(v, str) for v in series.dropna()):
        return "text"
    return "other"


def _sql_kind(column) -> str:
    if isinstance(column.type, Integer):
        return "int"
    if isinstance(column.type, Float):
        return "float"
    return "text"


def _fits(kind: str, sql_kind: str) -> bool:
    return kind == sql_kind or (kind == "int" and sql_kind == "float")


def _na_kind(series: pd.Series) -> str | None:
    missing = series[series.isna()]
    kinds = {"None" if v is None else "NA" if v is pd.NA else "nan" for v in missing}
    return kinds.pop() if len(kinds) == 1 else None


def to_python(series: pd.Series) -> list:
    """Column values as Python scalars, ``None`` where missing."""
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categories = np.asarray(dtype.categories, dtype=object)
        codes = series.cat.codes.to_numpy()
        out = categories.take(codes.clip(0))
        out[codes < 0] = None
        return out.tolist()
    if pd.api.types.is_float_dtype(dtype):
        array = series.to_numpy(dtype="float64", na_value=np.nan)
        out = array.tolist()
        for i in np.flatnonzero(np.isnan(array)):
            out[i] = None
        return out
    if pd.api.types.is_object_dtype(dtype):
        array = series.to_numpy(dtype=object, copy=True)
        array[series.isna().to_numpy()] = None
        return array.tolist()
    if isinstance(dtype, np.dtype) and dtype.kind in "biu":
        return series.to_numpy().tolist()
    if isinstance(dtype, np.dtype) and dtype.kind in "mM":
        return [None if pd.isna(v) else str(v) for v in series]
    return series.to_numpy(dtype=object, na_value=None).tolist()


def _mixed(series: pd.Series) -> list:
    """An object column of mixed values, JSON-able (text for anything but str/int/float/bool)."""
    return [None if v is None or (not isinstance(v, (list, dict, tuple)) and pd.isna(v))
            else v if isinstance(v, (str, int, float, bool)) else str(v) for v in series.tolist()]


def encode(frame_name: str, frame: pd.DataFrame, table: Table) -> Encoded:
    """Encode ``frame`` for ``table`` (see module docstring)."""
    index_names = None
    if not (isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0 and frame.index.step == 1
            and frame.index.name is None):
        index_names = list(frame.index.names)
        frame = frame.rename_axis([f"__index_{i}__" for i in range(frame.index.nlevels)]).reset_index()
    renamed = RENAMED.get(frame_name, {})
    columns, targets, values = [], [], []
    for name in frame.columns:
        series = frame[name]
        sql_name = renamed.get(name, name)
        target = None
        kind = _kind(series)
        if sql_name in table.c and sql_name not in ("version_id", "pos", "extra") \
                and _fits(kind, _sql_kind(table.c[sql_name])):
            target = sql_name
        entry = [str(name), dtype_spec(series.dtype), target]
        if series.dtype == object:
            entry.append(_na_kind(series))
        columns.append(entry)
        targets.append(target)
        values.append(_mixed(series) if kind == "other" and series.dtype == object else to_python(series))
    spec = {"columns": columns, "index": index_names}
    return Encoded(frame_name, spec, len(frame), targets, values)


def _column(values: list, entry: list) -> pd.Series:
    dtype = spec_dtype(entry[1])
    if pd.api.types.is_object_dtype(dtype):
        array = np.empty(len(values), dtype=object)
        array[:] = values
        na = entry[3] if len(entry) > 3 else None
        if na in ("nan", "NA"):
            array[pd.isna(array)] = np.nan if na == "nan" else pd.NA
        return pd.Series(array, dtype=object)  # an explicit dtype: pandas 3 would infer str
    if isinstance(dtype, np.dtype) and dtype.kind in "mM":
        return pd.Series(values, dtype=object).astype(dtype)
    return pd.Series(values, dtype=dtype)


def decode(spec: dict, rows: list[tuple]) -> pd.DataFrame:
    """Rebuild a frame from ``spec`` and rows of (stored SQL columns in spec order..., extra)."""
    entries = spec["columns"]
    n = len(rows)
    stored = [e for e in entries if e[2] is not None]
    by_position: list = list(zip(*rows)) if n else [() for _ in range(len(stored) + 1)]
    data: dict[str, list] = {e[0]: list(col) for e, col in zip(stored, by_position)}
    extra_entries = [e for e in entries if e[2] is None]
    if extra_entries:
        parsed = [json.loads(text) if text else {} for text in by_position[len(stored)]]
        for e in extra_entries:
            data[e[0]] = [row.get(e[0]) for row in parsed]
    frame = pd.DataFrame({e[0]: _column(data[e[0]], e) for e in entries}, index=pd.RangeIndex(n))
    frame = frame[[e[0] for e in entries]] if entries else frame
    if spec.get("index"):
        levels = [f"__index_{i}__" for i in range(len(spec["index"]))]
        frame = frame.set_index(levels)
        frame.index = frame.index.set_names(spec["index"])
    return frame


def select_columns(spec: dict, table: Table) -> list:
    """The table columns :func:`decode` expects, in order."""
    return [table.c[e[2]] for e in spec["columns"] if e[2] is not None] + [table.c.extra]


def content_hash(encoded: list[Encoded], header: dict) -> str:
    """SHA-256 of everything a version stores except timestamps and run options."""
    hasher = hashlib.sha256(json.dumps(header, sort_keys=True, default=str).encode())
    for item in encoded:
        item.digest(hasher)
    return hasher.hexdigest()
