"""A simultaneous event's clubs read and checked (the workers' half of ``pipeline.sim``).

Which files are whose (:func:`clubs_of`); then a chunk of clubs per task of the pool
(:func:`read_clubs`). Each club's files go through the normal readers, so every problem names the
club's file and line: a club of one traveller CSV through the CSV reader up to its rows
(``travellers_rows``), the chunk's rows then built into one frame; any other club, or a file the
reader refuses, through ``read_inputs``. A chunk's plain clubs (no names list, no section letters
on the pair numbers) are checked together (``validate.batch``); a club that check hands back is
checked again alone, so its problems and notes read exactly as ``bridgeproc check`` gives them.
Text is read once per distinct cell (factorized codes), and the chunk's results go back as one
frame, its clubs in the order given.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.errors import ParseError, UsageError, ValidationError
from bridgeproc.io.sheets.travellers import travellers_rows
from bridgeproc.io.text import csv_field_limit, read_text
from bridgeproc.model import Options
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.read import READERS, suffix
from bridgeproc.schema import BOARDS_COLUMNS, empty, problems_frame
from bridgeproc.validate.batch import check_club, check_together, club_results, prefixed_clubs

# --- which files are whose -----------------------------------------------------------------


def clubs_of(paths: Sequence[str | os.PathLike], rule: str = "stem") -> dict[str, list[Path]]:
    """Club -> its files. A folder given is one club (its name; the files in it bridgeproc reads);
    a file is its stem's club (``rule="stem"``) or its folder's (``rule="folder"``).

    Raises UsageError for a club named twice by ``stem`` (two files of one name) or a folder
    without a file bridgeproc reads."""
    clubs: dict[str, list[Path]] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and suffix(p) in READERS)
            if not files:
                raise UsageError(f"{path}: a club folder without results; give folders holding "
                                 f"{', '.join(READERS)} files")
            clubs.setdefault(path.name, []).extend(files)
            continue
        club = path.stem if rule == "stem" else path.resolve().parent.name
        if rule == "stem" and club in clubs:
            raise UsageError(f"{path}: club {club!r} is given twice (files of the same name); rename one, or "
                             "put each club's files in a folder of its own and use --club-of folder")
        clubs.setdefault(club, []).append(path)
    return clubs


# --- reading and checking, in the workers ---------------------------------------------------


@dataclass
class _Club:
    """One club as its files were read: raw results, boards, names, notes and what refuses it."""

    club: str
    raw: pd.DataFrame
    boards: pd.DataFrame
    names: pd.DataFrame | None
    published_names: pd.DataFrame | None
    meta: dict
    notes: list[pd.DataFrame]
    problems: list[pd.DataFrame]
    plain: bool


@dataclass
class CheckedClubs:
    """What a chunk's check gave: results per club (placeholder sections replaced), notes, problems."""

    results: list[pd.DataFrame] = field(default_factory=list)
    numbering: dict[str, str] = field(default_factory=dict)
    boards: list[pd.DataFrame] = field(default_factory=list)
    names: list[pd.DataFrame] = field(default_factory=list)
    meta: dict[str, dict] = field(default_factory=dict)
    notes: list[pd.DataFrame] = field(default_factory=list)
    problems: list[pd.DataFrame] = field(default_factory=list)


def _where(paths: Sequence[Path]) -> dict[str, str]:
    """A reader's ``source`` (the file's name) -> the path as given, so that a problem names the
    club's file even when clubs' files share a name (``oakfield/travellers.csv``)."""
    return {p.name: str(p) for p in paths}


def _source_named(text: str, where: Mapping[str, str]) -> str:
    """A reader's ``source`` (``file`` or ``file!Sheet``) naming the path as given."""
    name, bang, rest = text.partition("!")
    return where.get(name, name) + bang + rest


def _sourced(frame: pd.DataFrame, where: Mapping[str, str]) -> pd.DataFrame:
    """``frame`` with its ``source`` (``file`` or ``file!Sheet``) naming the path as given."""
    if "source" not in frame or not len(frame):
        return frame
    source = frame["source"].astype("string")
    codes, uniques = pd.factorize(source)  # a file's rows share its name: map each name once
    mapped = np.array([_source_named(str(u), where) for u in uniques] + [pd.NA], dtype=object)
    return frame.assign(source=pd.array(mapped[codes], dtype="string"))


#: A club of one file of these is read with the rest of its chunk (one frame, not one per file).
_CSV_SUFFIXES = (".csv", ".txt", ".tsv")


@dataclass
class _Rows:
    """One club's traveller CSV read up to the frame: its columns, rows, lines, source (the path
    as given) and notes."""

    columns: dict[str, int]
    body: list[list[str]]
    lines: list[int]
    source: str
    notes: list[dict]


def _csv_rows(paths: Sequence[Path], options: Options) -> _Rows | None:
    """A club of one traveller CSV read as ``read_inputs`` reads it, short of building the frame;
    None when it must go the whole way (other files, an encoding given, a names list or
    corrections, or a file refused or read as a names list: ``read_inputs`` then gives exactly its
    messages)."""
    if (len(paths) != 1 or suffix(paths[0]) not in _CSV_SUFFIXES or options.read.encoding or options.read.names
            or options.check.corrections is not None):
        return None
    notes: list[dict] = []
    try:
        text, source = read_text(paths[0], None, notes)
        with csv_field_limit(len(text)):
            columns, body, lines = travellers_rows(text, source, notes)
    except ParseError:
        return None
    return _Rows(columns, body, lines, _source_named(source, _where(paths)), notes)


def _rows_frame(read: Sequence[_Rows]) -> pd.DataFrame:
    """The raw frame of several files with the same columns, built once: as ``raw_frame`` builds
    each file's and ``read_inputs`` and :func:`_sourced` name its source, then concatenated."""
    data = {}
    for name in read[0].columns:
        cells: list[str] = []
        for one in read:
            at = one.columns[name]
            cells.extend([row[at] if at < len(row) else "" for row in one.body])
        data[name] = pd.array(cells, dtype="string")
    sizes = [len(one.body) for one in read]
    frame = pd.DataFrame(data, index=pd.RangeIndex(sum(sizes)))
    sources = np.repeat(np.array([one.source for one in read], dtype=object), sizes)
    return frame.assign(source=pd.array(sources, dtype="string"),
                        line=pd.array([line for one in read for line in one.lines], dtype="Int64"))


def _read_chunk(chunk: Sequence[tuple[str, Sequence[Path]]], options: Options) -> tuple[list[_Club], pd.DataFrame | None]:
    """Every club of a chunk read. Clubs of one traveller CSV (:func:`_csv_rows`) are built into
    one frame per run of files with the same columns, each club's raw a slice of it; the second
    value is that frame when it holds every club's rows (one run, nothing else), else None."""
    clubs: list[_Club | None] = []
    runs: list[tuple[list[int], list[_Rows]]] = []
    for club, paths in chunk:
        rows = _csv_rows(paths, options)
        if rows is None:
            clubs.append(_read_club(club, paths, options))
            continue
        if not runs or runs[-1][0][-1] != len(clubs) - 1 or list(runs[-1][1][0].columns) != list(rows.columns):
            runs.append(([], []))
        runs[-1][0].append(len(clubs))
        runs[-1][1].append(rows)
        clubs.append(None)
    whole = None
    for members, read in runs:
        frame = _rows_frame(read)
        ends = np.cumsum([len(one.body) for one in read])
        for k, one, start, end in zip(members, read, ends - [len(one.body) for one in read], ends):
            notes = [_sourced(problems_frame(one.notes), _where(chunk[k][1]))] if one.notes else []
            clubs[k] = _Club(chunk[k][0], frame.iloc[int(start):int(end)].reset_index(drop=True), empty(BOARDS_COLUMNS),
                             None, None, {}, notes, [], plain=True)
        if len(members) == len(chunk):
            whole = frame
    return [c for c in clubs if c is not None], whole


def _read_club(club: str, paths: Sequence[Path], options: Options) -> _Club:
    """Read one club's files; a file that cannot be read is a problem of the club, not an abort.
    ``plain`` here says only that no names list came with it (the chunk's pair cells are looked
    at together: validate.batch.prefixed_clubs)."""
    where = _where(paths)
    try:
        read = read_inputs(list(paths), options)
    except ParseError as exc:
        problem = problems_frame([{"source": where.get(exc.source, exc.source), "line": exc.line,
                                   "message": exc.message}])
        return _Club(club, pd.DataFrame(), empty(BOARDS_COLUMNS), None, None, {}, [], [problem], False)
    raw, boards, names = read.frames()
    problems = [_sourced(f, where) for f in read.fatal if len(f)]
    if not len(raw):
        problems.append(problems_frame([{"source": ", ".join(str(p) for p in paths), "message":
                        f"club {club}: no results in its files; give the club's traveller sheets, "
                        "USEBIO, .bws or scored PBN"}]))
    notes = [_sourced(n, where) for n in (read.reading_notes(), read.rule_problems()) if n is not None and len(n)]
    listed = names if read.names and len(names) else None
    published = names if not read.names and len(names) else None
    return _Club(club, _sourced(raw, where), _sourced(boards, where), listed, published, dict(read.meta), notes,
                 problems, plain=listed is None)


def _alone(c: _Club, options: Options, hand: pd.DataFrame | None, out: CheckedClubs) -> pd.DataFrame | None:
    """Check one club on its own, exactly as ``bridgeproc check`` would; its results, named."""
    try:
        checked = check_club(c.raw, options.ranking.pair_numbering, hand, c.names, _checks(options))
    except ValidationError as exc:
        out.problems.append(exc.problems)
        return None
    out.numbering[c.club] = checked.numbering
    if len(checked.notes):
        out.notes.append(checked.notes)
    return club_results(checked.results, c.club)


def _checks(options: Options) -> dict[str, object]:
    """The check options of a run as the checks take them (validate.batch)."""
    check = options.check
    return {"result_style": check.result_style, "check_scores": check.check_scores, "trust": check.trust,
            "tables": check.tables}


def _check_together(plain: list[_Club], raw: pd.DataFrame, code: np.ndarray, options: Options,
                    hand: pd.DataFrame | None, out: CheckedClubs) -> dict[int, tuple[pd.DataFrame, np.ndarray]]:
    """The plain clubs of a chunk checked together (validate.batch.check_together), those it hands back
    checked alone. Returns each club's index -> its results (a checked frame and the club's rows in it)."""
    together = check_together(raw, code, [c.club for c in plain], hand, _checks(options))
    for i, numbering in together.numbering.items():
        out.numbering[plain[i].club] = numbering
    kept = dict(together.kept)
    for i in sorted(together.again):
        alone = _alone(plain[i], options, hand, out)
        if alone is not None:
            kept[i] = (alone, np.arange(len(alone)))
    return kept


def _in_order(pieces: Sequence[tuple[pd.DataFrame, np.ndarray]]) -> pd.DataFrame:
    """The clubs' results as one frame, club after club: consecutive clubs cut from one checked
    frame are taken in one step."""
    runs: list[tuple[pd.DataFrame, list[np.ndarray]]] = []
    for frame, rows in pieces:
        if runs and runs[-1][0] is frame:
            runs[-1][1].append(rows)
        else:
            runs.append((frame, [rows]))
    frames = [frame.iloc[np.concatenate(rows)] for frame, rows in runs]
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)


def read_clubs(chunk: Sequence[tuple[str, Sequence[Path]]], options: Options,
               hand: pd.DataFrame | None) -> CheckedClubs:
    """Read and check a chunk of clubs (a task of the pool); every problem is returned, none
    raised. The chunk's results come back as one frame, its clubs in the order given."""
    out = CheckedClubs()
    clubs, whole = _read_chunk(chunk, options)
    candidates = [k for k, c in enumerate(clubs) if c.plain and not c.problems]
    if whole is not None:  # every club one CSV read into one frame: every club a candidate
        raw = whole
    else:
        raw = pd.concat([clubs[k].raw for k in candidates], ignore_index=True) if candidates else pd.DataFrame()
    code = np.repeat(np.arange(len(candidates)), [len(clubs[k].raw) for k in candidates])
    prefixed = prefixed_clubs(raw, code, len(candidates))
    plain = {k for k, p in zip(candidates, prefixed) if not p}
    pieces: dict[int, tuple[pd.DataFrame, np.ndarray]] = {}
    for k, c in enumerate(clubs):
        out.boards.append(c.boards.assign(club=c.club) if len(c.boards) else c.boards)
        out.meta[c.club] = c.meta
        out.notes.extend(c.notes)
        names = c.names if c.names is not None else c.published_names
        if names is not None and len(names):
            out.names.append(club_names_list(names, c.club))
        if c.problems:
            out.problems.extend(c.problems)
            if len(c.raw):
                _alone_problems(c, options, hand, out)
        elif k not in plain:
            alone = _alone(c, options, hand, out)
            if alone is not None:
                pieces[k] = (alone, np.arange(len(alone)))
    if plain:
        together = [k for k in candidates if k in plain]
        mine = np.isin(code, [j for j, k in enumerate(candidates) if k in plain])
        recode = np.cumsum(~prefixed) - 1  # a candidate's index among the plain clubs
        kept = _check_together([clubs[k] for k in together], raw[mine].reset_index(drop=True), recode[code[mine]],
                               options, hand, out)
        pieces.update({together[i]: piece for i, piece in kept.items()})
    if pieces:
        out.results.append(_in_order([pieces[k] for k in sorted(pieces)]))
    return out


def _alone_problems(c: _Club, options: Options, hand: pd.DataFrame | None, out: CheckedClubs) -> None:
    """A club refused while reading: its results' problems too, so that all are listed at once."""
    try:
        check_club(c.raw, options.ranking.pair_numbering, hand, c.names, _checks(options))
    except ValidationError as exc:
        out.problems.append(exc.problems)


def club_names_list(names: pd.DataFrame, club: str) -> pd.DataFrame:
    """A club's names list with its sections named as the field names them."""
    own = names["section"].astype("string").fillna("") if "section" in names else pd.Series(
        "", index=names.index, dtype="string")
    return names.assign(club=club, section=(club + "/" + own.str.upper()).where(own != "", pd.NA).astype("string"))


# --- the hand record -----------------------------------------------------------------------


def read_hand_record(hand_record: str | os.PathLike | None, options: Options):
    """The hand record's boards and tags (empty when none is given)."""
    if hand_record is None:
        return empty(BOARDS_COLUMNS), {}
    read = read_inputs([hand_record], options)
    if read.raws:
        raise UsageError(f"{hand_record}: the hand record holds results; give the deals alone "
                         "(a club's scored PBN is one of the club files)")
    boards = read.frames()[1]
    return _sourced(boards, {Path(hand_record).name: str(hand_record)}), dict(read.meta)
