"""Simultaneous events across clubs: many clubs' files for the same boards, scored across the
whole field and within each club, ranked both ways.

Each club's files go through the normal readers and checks (``read_inputs``,
``validate_results``), so every problem is listed with the club's file and line. Reading and
checking run in a pool of worker processes, clubs in chunks: a chunk's plain clubs (no names
list, no section letters on the pair numbers) are checked together in one call, each club's
sections under a placeholder of its own so that no check sees two clubs as one section, and
each club with its own pair numbering; a club whose check finds anything to say is checked
again alone, so its problems and notes read exactly as ``bridgeproc check`` gives them. The
field is then one frame (sections named ``club/section``) scored once: across the field
(``across_field``: every board one group) and within each club's sections, with the ranking
functions of ``rank`` on whole columns.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import PER_DIRECTION_SHARE, pair_directions
from bridgeproc.errors import BridgeprocError, ParseError, UsageError, ValidationError
from bridgeproc.io.atomic import TMP_SUFFIX, user_umask
from bridgeproc.io.pbn.frames import same_deal
from bridgeproc.model import Options
from bridgeproc.pipeline.read import READERS, read_inputs, suffix
from bridgeproc.pipeline.run import session_conventions
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.sim import MARKER, ClubPart, FieldParts, club_folder, field_parts, write_club_part, write_field
from bridgeproc.schema import (
    BOARDS_COLUMNS,
    PROBLEM_COLUMNS,
    RESULTS_COLUMNS,
    SIM_COLUMNS,
    SIM_FREQUENCY_COLUMNS,
    SIM_STANDINGS_COLUMNS,
    empty,
    problems_frame,
)
from bridgeproc.validate.results import validate_results

#: Clubs read and checked per task of the pool (a chunk's plain clubs are checked in one call).
CHUNK_CLUBS = 50
#: Worker processes reading and checking clubs, and writing per-club outputs.
WORKERS = 2
#: Joins a pair number to its direction for a club numbered per direction, so that one shared
#: numbering identifies every pair of the field (a character no pair cell holds).
_DIRECTION_MARK = "\x1f"
#: Placeholder section of a club inside a chunk check: ``<index>~<section>`` (digits survive upper-casing).
_PLACEHOLDER = "~"
#: Joins a pair's section to its number in the field's pair ids (never in a cell).
_SECTION_MARK = "\x1e"


@dataclass(frozen=True)
class SimResult:
    """A simultaneous event scored across the field and within each club.

    ``results``: the field, one row per result: ``RESULTS_COLUMNS`` with ``section`` as
    ``club/section`` (the club's name alone when it has no sections), ``SIM_COLUMNS`` (club,
    the club's own section), the method's columns scored across the field (``mp_ns`` ...) and
    within each club's sections (``club_mp_ns`` ...). ``field_standings``/``club_standings``:
    ``SIM_STANDINGS_COLUMNS`` (groups ``NS``/``EW``/``ALL`` across the field; per club section
    within clubs). ``frequencies``: the field's frequency table (``SIM_FREQUENCY_COLUMNS``).
    ``numbering``: each club's pair numbering; ``notes``: every note and warning (problem columns).
    """

    results: pd.DataFrame
    boards: pd.DataFrame
    field_standings: pd.DataFrame
    club_standings: pd.DataFrame
    frequencies: pd.DataFrame
    clubs: tuple[str, ...]
    conventions: Conventions
    numbering: Mapping[str, str]
    meta: dict = field(default_factory=dict)
    notes: pd.DataFrame | None = None

    def club_results(self, club: str) -> pd.DataFrame:
        """The club's own results, with the field's and the club's points."""
        return self.results[self.results["club"] == club].reset_index(drop=True)

    def club_frequencies(self, club: str) -> pd.DataFrame:
        """The field's frequency table with ``here``: how many of the club's results have each score."""
        return frequencies_of(self.results, self.frequencies, club)


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
class _Checked:
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


def _sourced(frame: pd.DataFrame, where: Mapping[str, str]) -> pd.DataFrame:
    """``frame`` with its ``source`` (``file`` or ``file!Sheet``) naming the path as given."""
    if "source" not in frame or not len(frame):
        return frame
    source = frame["source"].astype("string")
    codes, uniques = pd.factorize(source)  # a file's rows share its name: map each name once

    def named(text: str) -> str:
        name, bang, rest = text.partition("!")
        return where.get(name, name) + bang + rest
    mapped = np.array([named(str(u)) for u in uniques] + [pd.NA], dtype=object)
    return frame.assign(source=pd.array(mapped[codes], dtype="string"))


_PREFIXED_PAIR = r"^\s*[A-Za-z]{1,2}\s*-?\s*\d"


def _read_club(club: str, paths: Sequence[Path], options: Options) -> _Club:
    """Read one club's files; a file that cannot be read is a problem of the club, not an abort."""
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
    raw = _sourced(raw, where)
    prefixed = any(pd.Series(pd.unique(raw[side].astype("string").dropna())).str.contains(_PREFIXED_PAIR).any()
                   for side in ("ns", "ew") if side in raw)  # each pair number looked at once
    listed = names if read.names and len(names) else None
    published = names if not read.names and len(names) else None
    return _Club(club, raw, _sourced(boards, where), listed, published, dict(read.meta), notes, problems,
                 plain=listed is None and not prefixed)


def _validate(raw: pd.DataFrame, options: Options, numbering: str, boards: pd.DataFrame | None,
              names: pd.DataFrame | None):
    """``validate_results`` as ``build_session`` calls it."""
    return validate_results(raw, result_style=options.result_style, check_scores=options.check_scores,
                            pair_numbering_option=numbering, trust=options.trust,  # type: ignore[arg-type]
                            tables=options.tables, boards=boards if boards is not None and len(boards) else None,
                            names=names)


def _named(results: pd.DataFrame, club: str) -> pd.DataFrame:
    """``results`` of ``club`` with the club's columns and each section named ``club/section``."""
    own = results["section"].astype("string").fillna("")
    section = (club + "/" + own).where(own != "", club)
    return results.assign(section=section.astype("string"), club=pd.Series(club, index=results.index, dtype="string"),
                          club_section=own.astype("string"))


def _named_all(results: pd.DataFrame, club_code: np.ndarray, clubs: Sequence[str]) -> pd.DataFrame:
    """:func:`_named` for the results of several clubs at once (``club_code``: each row's index in ``clubs``)."""
    own = results["section"].astype("string").fillna("")
    club = pd.Series(np.asarray(clubs, dtype=object)[club_code], index=results.index, dtype="string")
    section = (club + "/" + own).where(own != "", club)
    return results.assign(section=section.astype("string"), club=club, club_section=own.astype("string"))


def _alone(c: _Club, options: Options, hand: pd.DataFrame | None, out: _Checked) -> None:
    """Check one club on its own, exactly as ``bridgeproc check`` would."""
    try:
        checked = _validate(c.raw, options, options.pair_numbering, hand, c.names)
    except ValidationError as exc:
        out.problems.append(exc.problems)
        return
    out.results.append(_named(checked.results, c.club))
    out.numbering[c.club] = checked.numbering
    if len(checked.notes):
        out.notes.append(checked.notes)


def numbering_by_group(section: pd.Series, board: np.ndarray, ns: pd.Series, ew: pd.Series,
                       group: np.ndarray) -> np.ndarray:
    """``core.pairs.pair_numbering`` for each group code at once (True: per direction): the share
    of (section, board, pair) entries seen in both directions, above ``PER_DIRECTION_SHARE``."""
    n = len(section)
    entries = pd.DataFrame({"g": np.concatenate([group, group]), "section": pd.concat([section, section], ignore_index=True),
                            "board": np.concatenate([board, board]),
                            "pair": pd.concat([ns, ew], ignore_index=True),
                            "direction": np.repeat(np.array([0, 1], dtype=np.int8), n)}).dropna(subset=["pair"])
    entries = entries.drop_duplicates(subset=["g", "section", "board", "pair", "direction"])
    both = entries.duplicated(subset=["g", "section", "board", "pair"], keep=False)
    groups = int(group.max()) + 1 if len(group) else 0
    total = np.bincount(entries["g"].to_numpy(), minlength=groups)
    twice = np.bincount(entries["g"].to_numpy(), weights=both.to_numpy(dtype=float), minlength=groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, twice / np.where(total > 0, total, 1), 0.0) > PER_DIRECTION_SHARE


def _guess_numbering(raw: pd.DataFrame, code: np.ndarray, clubs: int) -> np.ndarray:
    """Each club's pair numbering read from the raw cells (checked after validation)."""
    def pair(side: str) -> pd.Series:
        return raw[side].astype("string").str.strip().str.replace(r"^0+(?=\d)|\.0+$", "", regex=True)

    section = raw["section"].astype("string").str.strip().str.upper() if "section" in raw else pd.Series(
        "", index=raw.index, dtype="string")
    board = pd.to_numeric(raw["board"].astype("string").str.strip(), errors="coerce").fillna(-1).to_numpy()
    guess = numbering_by_group(section.fillna(""), board, pair("ns"), pair("ew"), code)
    return np.pad(guess, (0, max(0, clubs - len(guess))))


def _check_together(plain: list[_Club], options: Options, hand: pd.DataFrame | None, out: _Checked) -> None:
    """Check the plain clubs of a chunk in one call per pair numbering; a club the call finds
    anything to say about is checked again alone (the messages name its own sections)."""
    raws = []
    for i, c in enumerate(plain):
        own = c.raw["section"].astype("string").fillna("") if "section" in c.raw else pd.Series(
            "", index=c.raw.index, dtype="string")
        raws.append(c.raw.assign(section=(f"{i}{_PLACEHOLDER}" + own.str.strip()).astype("string"),
                                 _club=np.full(len(c.raw), i, dtype=np.int64)))
    raw = pd.concat(raws, ignore_index=True)
    code = raw.pop("_club").to_numpy()
    per_direction = _guess_numbering(raw, code, len(plain))
    again: set[int] = set()
    for flag, numbering in ((True, "per-direction"), (False, "shared")):
        members = np.flatnonzero(per_direction == flag)
        if not len(members):
            continue
        part = raw[np.isin(code, members)]
        try:
            checked = _validate(part, options, numbering, hand, None)
        except ValidationError as exc:
            failing = set(exc.problems["source"].astype("string").str.split("!").str[0])
            again |= {int(i) for i in members if set(plain[i].raw["source"].astype("string").str.split("!").str[0]) & failing}
            if not again & {int(i) for i in members}:
                again |= {int(i) for i in members}  # cannot tell whose: check each alone
            continue
        results = checked.results
        placeholder = results["section"].astype("string").str.split(_PLACEHOLDER, n=1, regex=False)
        club_code = placeholder.str[0].astype("int64").to_numpy()
        own = placeholder.str[1].astype("string")
        results = results.assign(section=own)
        decided = numbering_by_group(results["section"].astype("string").fillna(""),
                                     results["board"].to_numpy(), results["ns"], results["ew"], club_code)
        noted: set[str] = set()
        if len(checked.notes):
            noted = {str(s).split("!")[0] for s in pd.unique(checked.notes["source"].astype("string").dropna())}
        # every club's columns at once (club, club/section), then each club's rows cut out by position
        named = _named_all(results, club_code, [c.club for c in plain])
        order = np.argsort(club_code, kind="stable")
        starts = np.searchsorted(club_code[order], np.arange(len(plain) + 1))
        for i in map(int, members):
            c = plain[i]
            files = {str(s).split("!")[0] for s in pd.unique(c.raw["source"].astype("string").dropna())}
            if bool(decided[i]) != flag or files & noted:
                again.add(i)
                continue
            out.results.append(named.iloc[order[starts[i]:starts[i + 1]]].reset_index(drop=True))
            out.numbering[c.club] = numbering
    for i in sorted(again):
        _alone(plain[i], options, hand, out)


def read_clubs(chunk: Sequence[tuple[str, Sequence[Path]]], options: Options,
               hand: pd.DataFrame | None) -> _Checked:
    """Read and check a chunk of clubs (a task of the pool); every problem is returned, none raised."""
    out = _Checked()
    clubs = [_read_club(club, paths, options) for club, paths in chunk]
    plain = []
    for c in clubs:
        out.boards.append(c.boards.assign(club=c.club) if len(c.boards) else c.boards)
        out.meta[c.club] = c.meta
        out.notes.extend(c.notes)
        names = c.names if c.names is not None else c.published_names
        if names is not None and len(names):
            out.names.append(_named_names(names, c.club))
        if c.problems:
            out.problems.extend(c.problems)
            if len(c.raw):
                _alone_problems(c, options, hand, out)
        elif c.plain:
            plain.append(c)
        else:
            _alone(c, options, hand, out)
    if plain:
        _check_together(plain, options, hand, out)
    return out


def _alone_problems(c: _Club, options: Options, hand: pd.DataFrame | None, out: _Checked) -> None:
    """A club refused while reading: its results' problems too, so that all are listed at once."""
    try:
        _validate(c.raw, options, options.pair_numbering, hand, c.names)
    except ValidationError as exc:
        out.problems.append(exc.problems)


def _named_names(names: pd.DataFrame, club: str) -> pd.DataFrame:
    """A club's names list with its sections named as the field names them."""
    own = names["section"].astype("string").fillna("") if "section" in names else pd.Series(
        "", index=names.index, dtype="string")
    return names.assign(club=club, section=(club + "/" + own.str.upper()).where(own != "", pd.NA).astype("string"))


# --- the field ------------------------------------------------------------------------------


def _deal_conflicts(boards: pd.DataFrame) -> pd.DataFrame | None:
    """A board dealt differently in two files (the hand record first, then the clubs' files in
    order): one problem per file that differs, naming the file it differs from."""
    dealt = boards[boards["deal"].notna()]
    if not len(dealt):
        return None
    counts = dealt.groupby("board")["deal"].nunique()
    rows = []
    for board in counts[counts > 1].index:
        mine = dealt[dealt["board"] == board]
        first = mine.iloc[0]
        for other in mine.iloc[1:].drop_duplicates(subset=["deal", "source"]).itertuples():
            if same_deal(str(first["deal"]), str(other.deal)):
                continue
            rows.append({"source": other.source, "line": "" if pd.isna(other.line) else str(other.line),
                         "column": "deal", "value": other.deal,
                         "message": f"board {board} is dealt differently in {first['source']} (line "
                                    f"{'' if pd.isna(first['line']) else first['line']}); the clubs of a "
                                    "simultaneous event play the same deals: correct the hand record or the file"})
    return problems_frame(rows) if rows else None


def _read_hand_record(hand_record: str | os.PathLike | None, options: Options):
    """The hand record's boards and tags (empty when none is given)."""
    if hand_record is None:
        return empty(BOARDS_COLUMNS), {}
    read = read_inputs([hand_record], options)
    if read.raws:
        raise UsageError(f"{hand_record}: the hand record holds results; give the deals alone "
                         "(a club's scored PBN is one of the club files)")
    boards = read.frames()[1]
    return _sourced(boards, {Path(hand_record).name: str(hand_record)}), dict(read.meta)


def _chunks(clubs: Mapping[str, Sequence[str | os.PathLike]], size: int) -> list[list[tuple[str, list[Path]]]]:
    items = [(club, [Path(p) for p in paths]) for club, paths in clubs.items()]
    return [items[i:i + size] for i in range(0, len(items), size)]


def _gather(parts: Sequence[_Checked], hand: pd.DataFrame) -> _Checked:
    """The chunks' checks as one; a deal two files disagree on is a problem."""
    whole = _Checked()
    for part in parts:
        whole.results.extend(part.results)
        whole.numbering.update(part.numbering)
        whole.boards.extend(part.boards)
        whole.names.extend(part.names)
        whole.meta.update(part.meta)
        whole.notes.extend(part.notes)
        whole.problems.extend(part.problems)
    boards = [b for b in (hand, *whole.boards) if len(b)]
    if boards:
        conflicts = _deal_conflicts(pd.concat([b[list(BOARDS_COLUMNS)] for b in boards], ignore_index=True))
        if conflicts is not None:
            whole.problems.append(conflicts)
    return whole


def score_sim(club_inputs: Mapping[str, Sequence[str | os.PathLike]], hand_record: str | os.PathLike | None = None,
              options: Options = Options(), *, workers: int = WORKERS, chunk: int = CHUNK_CLUBS) -> SimResult:
    """Read, check and score a simultaneous event: ``club_inputs`` maps each club to its files
    (any mix of formats; each club numbers its own sections), ``hand_record`` the deals all
    played. Clubs are read and checked in ``workers`` processes (in this one for a single chunk).

    Raises ValidationError listing every problem of every club (file and line), or UsageError.
    """
    if not club_inputs:
        raise UsageError("no club files given; give each club's results")
    if options.corrections is not None or options.names:
        raise UsageError("--corrections and --names are per club: put a club's names list in its folder "
                         "(--club-of folder); corrections are not taken for a simultaneous event yet")
    options = replace(options, dd=False, archive=False)
    hand, meta = _read_hand_record(hand_record, options)
    tasks = _chunks(club_inputs, max(1, chunk))
    if workers > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(read_clubs, tasks, [options] * len(tasks), [hand] * len(tasks)))
    else:
        parts = [read_clubs(task, options, hand) for task in tasks]
    whole = _gather(parts, hand)
    if whole.problems:
        raise ValidationError(pd.concat(whole.problems, ignore_index=True))
    order = {club: i for i, club in enumerate(club_inputs)}
    whole.results.sort(key=lambda r: order[str(r["club"].iloc[0])] if len(r) else -1)
    results = pd.concat(whole.results, ignore_index=True)
    conventions = session_conventions(options, meta)
    boards = hand if len(hand) else _first_boards(whole.boards)
    names = pd.concat(whole.names, ignore_index=True) if whole.names else None
    return score_field(results, whole.numbering, conventions, boards=boards, names=names, meta=meta,
                       clubs=tuple(club_inputs), notes=whole.notes)


def _first_boards(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The boards of the clubs' files (no hand record given): each board from the first file that deals it."""
    found = [f[list(BOARDS_COLUMNS)] for f in frames if len(f)]
    if not found:
        return empty(BOARDS_COLUMNS)
    boards = pd.concat(found, ignore_index=True)
    return boards.sort_values("deal", key=lambda s: s.isna(), kind="stable").drop_duplicates("board").sort_values(
        "board").reset_index(drop=True)


def _field_pairs(results: pd.DataFrame, numbering: Mapping[str, str]) -> pd.DataFrame:
    """``results`` with every pair id naming its section (``oakfield/A\x1e3``) and, for a club
    numbered per direction, its direction (``...3\x1fNS``): one shared numbering then tells
    every pair of the field apart, and a standings row says whose it is. The direction is that of
    the pair's number (``core.pairs.pair_directions``): on an arrow-switched row the NS seat holds
    an EW pair, marked ``EW`` as in every other round it plays."""
    section = results["section"].astype("string") + _SECTION_MARK
    ns, ew = section + results["ns"].astype("string"), section + results["ew"].astype("string")
    per_direction = [c for c, n in numbering.items() if n == "per-direction"]
    if per_direction:
        mask = results["club"].isin(per_direction).to_numpy()
        ns_dir, ew_dir = pair_directions(results)
        ns = ns.where(~mask, ns + _DIRECTION_MARK + pd.Series(ns_dir, index=results.index, dtype="string"))
        ew = ew.where(~mask, ew + _DIRECTION_MARK + pd.Series(ew_dir, index=results.index, dtype="string"))
    return results.assign(ns=ns, ew=ew)


def _field_names(names: pd.DataFrame | None, results: pd.DataFrame, numbering: Mapping[str, str]) -> pd.DataFrame | None:
    """The names lists with their pairs marked as :func:`_field_pairs` marks them: a row without a
    section names the pair in each of its club's sections, one without a direction of a club
    numbered per direction both its NS and its EW pair."""
    if names is None or not len(names):
        return None
    sections = results[["club", "section"]].drop_duplicates()
    names = names.assign(pair=names["pair"].astype("string"), names=names["names"].astype("string"),
                         direction=names["direction"].astype("string") if "direction" in names else pd.NA)
    given = names[names["section"].notna()]
    spread = names[names["section"].isna()].drop(columns="section").merge(sections, on="club")
    rows = pd.concat([given, spread], ignore_index=True)
    rows["pair"] = rows["section"].astype("string") + _SECTION_MARK + rows["pair"]
    per = rows["club"].map(lambda c: numbering.get(c) == "per-direction").to_numpy(dtype=bool)
    out = [rows[~per]]
    for side in ("NS", "EW"):
        mine = rows[per & (rows["direction"].isna() | (rows["direction"] == side)).to_numpy(dtype=bool)]
        out.append(mine.assign(pair=mine["pair"] + _DIRECTION_MARK + side, direction=side))
    return pd.concat(out, ignore_index=True).assign(section=pd.NA)[["section", "pair", "direction", "names"]]


def _standings(work: pd.DataFrame, results: pd.DataFrame, conventions: Conventions,
               names: pd.DataFrame | None) -> pd.DataFrame:
    """Standings of ``work`` (pairs marked) with the club, its own section and the pair as numbered."""
    table = standings(work, conventions.replace(pair_numbering="shared"), names)
    marked = table["pair"].astype("string").str.split(_SECTION_MARK, n=1, regex=False)
    section, pair = marked.str[0].astype("string"), marked.str[1].str.split(_DIRECTION_MARK, n=1, regex=False).str[0]
    group = table["group"].astype("string").str.rsplit(" ", n=1).str[-1]  # ``oakfield/A NS`` -> ``NS``
    club_of = results.drop_duplicates("section").set_index("section")[["club", "club_section"]].reindex(
        section.to_numpy())
    out = table.assign(group=group, pair=pair.astype("string"))
    out.insert(0, "club_section", pd.array(club_of["club_section"].to_numpy(), dtype="string"))
    out.insert(0, "club", pd.array(club_of["club"].to_numpy(), dtype="string"))
    return out[list(SIM_STANDINGS_COLUMNS)].astype(SIM_STANDINGS_COLUMNS)


def _ordered(table: pd.DataFrame, clubs: Sequence[str], by_club: bool, percentages: bool) -> pd.DataFrame:
    """Standings sorted as ``standings`` sorts them (best first, pair 2 before pair 10), the field's
    by group, the clubs' by club (in the order given), section and group."""
    order = {club: i for i, club in enumerate(clubs)}
    key = (table["pct"] if percentages else table["total"]).round(6)
    sort = table.assign(_club=table["club"].map(order), _key=-key, _number=pd.to_numeric(table["pair"], errors="coerce"))
    by = (["_club", "club_section", "group"] if by_club else ["group"]) + ["_key", "_club", "_number", "pair"]
    sort = sort.sort_values(list(dict.fromkeys(by)), kind="stable")
    return sort[list(SIM_STANDINGS_COLUMNS)].reset_index(drop=True)


def score_field(results: pd.DataFrame, numbering: Mapping[str, str], conventions: Conventions, *,
                boards: pd.DataFrame | None = None, names: pd.DataFrame | None = None, meta: dict | None = None,
                clubs: Sequence[str] = (), notes: Sequence[pd.DataFrame] = ()) -> SimResult:
    """Score a checked field (``results`` with ``club``, ``club_section`` and sections unique in
    the field) across the field and within each club's sections, and rank it both ways."""
    method = ranking_method(conventions.method)
    base = [c for c in results.columns if c not in method.columns and not c.startswith("club_") or c == "club_section"]
    results = results[base].reset_index(drop=True)
    work = _field_pairs(results, numbering)
    shared = conventions.replace(pair_numbering="shared")
    field_conv, club_conv = shared.replace(across_field=True), shared.replace(across_field=False)
    across = rank_results(work, field_conv)
    within = rank_results(work, club_conv)
    added = {name: across[name] for name in method.columns}
    added.update({f"club_{name}": within[name] for name in method.columns})
    scored = results.assign(**added)
    marked_names = _field_names(names, results, numbering)
    field_table = _standings(across, results, field_conv, marked_names)
    club_table = _standings(within, results, club_conv, marked_names)
    order = {club: i for i, club in enumerate(clubs or results["club"].unique())}
    field_table = _ordered(field_table, list(order), False, method.percentages)
    club_table = _ordered(club_table, list(order), True, method.percentages)
    found = [n for n in notes if n is not None and len(n)]
    return SimResult(results=scored, boards=boards if boards is not None else empty(BOARDS_COLUMNS),
                     field_standings=field_table, club_standings=club_table,
                     frequencies=frequency_table(scored, conventions), clubs=tuple(order),
                     conventions=field_conv.replace(pair_numbering=conventions.pair_numbering), numbering=dict(numbering),
                     meta=dict(meta or {}),
                     notes=pd.concat(found, ignore_index=True)[list(PROBLEM_COLUMNS)] if found else None)


def frequency_table(results: pd.DataFrame, conventions: Conventions) -> pd.DataFrame:
    """The field's frequencies: per board and NS score (an artificial code apart), how many
    results have it, and the field's points for it (their mean: equal results score alike)."""
    method = ranking_method(conventions.method)
    ns_col, ew_col = method.points
    frame = pd.DataFrame({
        "board": results["board"].to_numpy(), "score_ns": results["score_ns"],
        "adjusted": results["adjusted"].astype("string").fillna(""),
        "points_ns": results[ns_col].astype("float64"), "points_ew": results[ew_col].astype("float64"),
        "pct_ns": results["pct_ns"].astype("float64") if "pct_ns" in results else np.nan,
        "pct_ew": results["pct_ew"].astype("float64") if "pct_ew" in results else np.nan,
    })
    grouped = frame.groupby(["board", "score_ns", "adjusted"], dropna=False, sort=True)
    table = grouped.agg(results=("board", "size"), points_ns=("points_ns", "mean"), points_ew=("points_ew", "mean"),
                        pct_ns=("pct_ns", "mean"), pct_ew=("pct_ew", "mean")).reset_index()
    table["adjusted"] = table["adjusted"].replace("", pd.NA)
    table = table.sort_values(["board", "score_ns"], ascending=[True, False], kind="stable", na_position="last")
    return table[list(SIM_FREQUENCY_COLUMNS)].astype(SIM_FREQUENCY_COLUMNS).reset_index(drop=True)


def frequencies_of(results: pd.DataFrame, frequencies: pd.DataFrame, club: str) -> pd.DataFrame:
    """``frequencies`` with ``here``: how many of ``club``'s results have each board and score."""
    mine = results[results["club"] == club]
    counts = (pd.DataFrame({"board": mine["board"].to_numpy(), "score_ns": mine["score_ns"].to_numpy(),
                            "adjusted": mine["adjusted"].astype("string").fillna("").to_numpy()})
              .groupby(["board", "score_ns", "adjusted"], dropna=False).size().rename("here").reset_index())
    keyed = frequencies.assign(adjusted=frequencies["adjusted"].fillna(""))
    merged = keyed.merge(counts, on=["board", "score_ns", "adjusted"], how="left")
    merged["here"] = merged["here"].fillna(0).astype("int64")
    merged["adjusted"] = merged["adjusted"].replace("", pd.NA).astype("string")
    return merged


# --- from the archive ---------------------------------------------------------------------


def score_sim_from_archive(url: str, event: str, options: Options = Options()) -> SimResult:
    """Score the field of ``event`` from the archive at ``url``: every archived session of that
    event is one club (its ``site``, else its session id), its latest version scored again across
    the field. Raises BridgeprocError when the archive holds no session of ``event``."""
    from bridgeproc.archive import list_sessions, load_session  # start-up: SQLAlchemy only when used

    listed = list_sessions(url)
    mine = listed[(listed["event"] == event) & (listed["kind"] == "pairs")]  # a teams session is no club's pairs
    mine = mine[mine["versions"] > 0]
    if not len(mine):
        known = ", ".join(sorted(set(listed["event"].dropna()))) or "none"
        raise BridgeprocError(f"the archive holds no session of event {event!r} (events: {known}); "
                              "archive each club's session with --event")
    sessions = [(str(sid), load_session(url, str(sid))) for sid in sorted(mine["session_id"])]
    sites = [str(s.meta.get("site") or "").strip() for _, s in sessions]
    by_site = all(sites) and len(set(sites)) == len(sites)
    frames, numbering, names, notes = [], {}, [], []
    for (sid, session), site in zip(sessions, sites):
        club = site if by_site else sid
        keep = [c for c in RESULTS_COLUMNS if c in session.results] + (["fouled"] if "fouled" in session.results else [])
        frames.append(_named(session.results[keep], club))
        numbering[club] = session.numbering
        if session.names is not None and len(session.names):
            names.append(_named_names(session.names, club))
        versions = int(mine.loc[mine["session_id"] == sid, "versions"].iloc[0])
        if versions > 1:
            notes.append(problems_frame([{"source": f"archive {sid}", "message": f"club {club}: version {versions} "
                         f"of {versions} scored (the latest); if two clubs archived under one session id, give "
                         "each its own --session-id"}]))
    first = sessions[0][1]
    conventions = first.conventions
    boards = first.boards[[c for c in first.boards.columns]] if len(first.boards) else empty(BOARDS_COLUMNS)
    return score_field(pd.concat(frames, ignore_index=True), numbering, conventions, boards=boards,
                       names=pd.concat(names, ignore_index=True) if names else None,
                       meta={**first.meta, "event": event}, clubs=[f["club"].iloc[0] for f in frames], notes=notes)


__all__ = ["SimResult", "clubs_of", "frequency_table", "frequencies_of", "read_clubs", "score_field", "score_sim",
           "score_sim_from_archive", "write_sim", "SIM_COLUMNS"]


# --- outputs ---------------------------------------------------------------------------------


def _write_clubs(root: str, tasks: Sequence[tuple[str, ClubPart]], field: FieldParts, meta: dict, method: str) -> None:
    """Write a chunk of clubs' folders (a task of the pool) from their parts of the field."""
    for name, part in tasks:
        write_club_part(Path(root) / "clubs" / name, part, field, meta, method)


#: The field's parts in a worker process (sent once per worker, not with every chunk).
_SHARED: dict[str, FieldParts] = {}


def _share(field: FieldParts) -> None:
    _SHARED["field"] = field


def _write_shared(root: str, tasks: Sequence[tuple[str, ClubPart]], meta: dict, method: str) -> None:
    _write_clubs(root, tasks, _SHARED["field"], meta, method)


def _club_names(clubs: Sequence[str]) -> dict[str, str]:
    """Club -> its folder name, unique (``oakfield``, ``oakfield-2`` for a second club of that slug)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for club in clubs:
        name, n = club_folder(club), 1
        while name in taken:
            n += 1
            name = f"{club_folder(club)}-{n}"
        taken.add(name)
        names[club] = name
    return names


def write_sim(sim: SimResult, folder: str | os.PathLike, *, workers: int = WORKERS, chunk: int = CHUNK_CLUBS) -> Path:
    """Write the field's and every club's outputs (``report.sim``) into ``folder``, all or nothing:
    staged beside it and renamed into place, replacing a folder an earlier ``sim`` wrote. Clubs are
    written by ``workers`` processes. Raises UsageError for a folder holding other files."""
    target = Path(folder)
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).exists())):
        raise UsageError(f"{target}: exists and was not written by bridgeproc sim; give a new or empty folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent))
    try:
        names = _club_names(sim.clubs)
        method = sim.conventions.method
        field = field_parts(sim.results, sim.frequencies, method, sim.club_standings)  # formatted once
        present = set(sim.results["club"].astype(str))
        rankings = dict(tuple(sim.club_standings.groupby("club", sort=False)))
        tasks = [(names[club], field.club(club, rankings.get(club, sim.club_standings[:0])))
                 for club in sim.clubs if club in present]
        chunks = [tasks[i:i + chunk] for i in range(0, len(tasks), max(1, chunk))]
        if workers > 1 and len(chunks) > 1:
            with ProcessPoolExecutor(max_workers=workers, initializer=_share, initargs=(field,)) as pool:
                done = pool.map(_write_shared, [str(staging)] * len(chunks), chunks, [sim.meta] * len(chunks),
                                [method] * len(chunks))
                # the field's own files meanwhile, in this process
                write_field(staging, sim.results, sim.field_standings, sim.meta, method, names, field)
                list(done)
        else:
            write_field(staging, sim.results, sim.field_standings, sim.meta, method, names, field)
            for part in chunks:
                _write_clubs(str(staging), part, field, sim.meta, method)
        os.chmod(staging, 0o777 & ~user_umask())
        if target.exists():
            old = target.with_name(f".{target.name}.old{TMP_SUFFIX}")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            staging.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
