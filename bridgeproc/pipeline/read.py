"""Reading the inputs: one reader per file type, and the rules for combining them.

Each reader adds frames to an :class:`Inputs`; ``settle`` then decides which results
count (traveller sheets win over a PBN's own ScoreTables) and which names are used.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import pandas as pd

from bridgeproc.core.pairs import movement_switch_marks
from bridgeproc.errors import ParseError, TeamsEventError, TooLargeError, UsageError
from bridgeproc.io.pbn.reader import pbn_program, read_pbn
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.movement import entry_movement
from bridgeproc.io.sheets.names import read_names, workbook_names
from bridgeproc.io.sheets.own import is_own, own_totals
from bridgeproc.io.sheets.travellers import published_method
from bridgeproc.io.sheets.xlsx import load_workbooks, read_travellers_xlsx
from bridgeproc.io.usebio.marks import split_session
from bridgeproc.model import Options
from bridgeproc.schema import BOARDS_COLUMNS, empty, problems_frame


def suffix(path) -> str:
    """The lower-case extension that picks a reader or writer."""
    return Path(path).suffix.lower()


def input_file(path) -> Path:
    """The file an input names: ``FILE.xml#N`` (session N of a USEBIO file of several) is ``FILE.xml``."""
    return Path(split_session(path)[0])


@dataclass
class Inputs:
    """Everything read from the input files, before checking."""

    raws: list[pd.DataFrame] = field(default_factory=list)
    boards: list[pd.DataFrame] = field(default_factory=list)
    names: list[pd.DataFrame] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    #: Auction and play problems of PBN games (fatal for ``check``, notes for ``score``).
    rules: list[pd.DataFrame] = field(default_factory=list)
    #: Problems found while reading that are as fatal as validation's (deals two files disagree on ...).
    fatal: list[pd.DataFrame] = field(default_factory=list)
    #: The problems of the results checked against a movement (a Bridgemate file's, the entry workbook's,
    #: ``--movement``), in ``fatal`` too: the rows they name are left out of the cross-row checks, whose echoes
    #: would blame right rows.
    seating: list[pd.DataFrame] = field(default_factory=list)
    #: Results from PBN ScoreTables; used unless traveller sheets (or USEBIO/BWS) are given too.
    pbn_raws: list[pd.DataFrame] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    #: Names from a PBN's published TotalScoreTable: used only when no names list is given,
    #: and then for the standings only (a published table is no list to check pairs against).
    fallback_names: list[pd.DataFrame] = field(default_factory=list)
    published_names: list[pd.DataFrame] = field(default_factory=list)
    #: A board's single PBN ScoreTable held several sections: it was scored across the field.
    across_field: bool = False
    #: Published standings of the files that carry them (USEBIO ``PARTICIPANTS``), to compare with ours.
    published_totals: list[pd.DataFrame] = field(default_factory=list)
    #: The corrections applied to the results (schema.CORRECTIONS_COLUMNS), when a corrections file is given.
    corrections: pd.DataFrame | None = None
    #: The PBN files as read (the scored PBN is written onto them: report.pbn_source).
    pbn_files: list = field(default_factory=list)
    #: Where each PBN file's boards are in ``boards`` (their given double dummy is checked: pipeline.inputs).
    pbn_boards: list[int] = field(default_factory=list)
    #: Each Bridgemate file's results and the movement it declares (checked against each other: pipeline.inputs).
    movements: list[tuple[pd.DataFrame, pd.DataFrame]] = field(default_factory=list)
    #: An input that is a teams event: ``score`` and ``conventions`` refuse it (:meth:`refuse_teams`),
    #: ``check`` still checks what it holds.
    teams_event: TeamsEventError | None = None

    def refuse_teams(self) -> None:
        """Raise the TeamsEventError of an input that is a teams event (score it with ``bridgeproc teams``)."""
        if self.teams_event is not None:
            raise self.teams_event

    def settle(self) -> None:
        """Decide which results count: traveller sheets win over a PBN's own ScoreTables.

        A re-run on last night's output PBN (deals, cached double dummy, old results) plus
        corrected travellers must not count every result twice; the PBN results left out
        are named in a note, so nothing is dropped silently.
        """
        if self.raws:
            for frame in self.pbn_raws:
                self.notes.append({"source": str(frame["source"].iloc[0]), "line": "", "column": "",
                                   "value": "", "message": f"its {len(frame)} ScoreTable results are not used: "
                                   "traveller sheets were given too, and they are the results scored"})
        else:
            self.raws.extend(self.pbn_raws)
        self.pbn_raws = []
        if not self.names:
            self.published_names = self.fallback_names

    def reading_notes(self) -> pd.DataFrame | None:
        return problems_frame(self.notes) if self.notes else None

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """Raw results, boards (one row per board) and names (the lists given, else the
        published ones), concatenated."""
        raw = pd.concat(self.raws, ignore_index=True) if self.raws else pd.DataFrame(columns=["source", "line"])
        boards = pd.concat(self.boards, ignore_index=True) if self.boards else empty(BOARDS_COLUMNS)
        boards = boards.drop_duplicates(subset=["board"])
        lists = self.names or self.published_names
        names = (pd.concat(lists, ignore_index=True) if lists
                 else pd.DataFrame(columns=["section", "pair", "direction", "names"]))
        return raw, boards, names

    def rule_problems(self) -> pd.DataFrame | None:
        frames = [f for f in self.rules if len(f)]
        return pd.concat(frames, ignore_index=True) if frames else None


def _add_travellers(raw: pd.DataFrame, inputs: Inputs) -> None:
    """A traveller sheet's rows, its published numbers named for the comparison, and the method they say."""
    raw, scoring = published_method(raw)
    inputs.raws.append(raw)
    if scoring:
        inputs.meta.setdefault("scoring", scoring)


def _read_csv(path, options: Options, inputs: Inputs) -> None:
    notes: list[dict] = []  # kept only if the file is read as travellers
    try:
        _add_travellers(read_travellers(path, options.read.encoding, notes), inputs)
        inputs.notes.extend(notes)
    except ParseError as traveller_error:
        if isinstance(traveller_error, TooLargeError):
            raise  # read whole once is enough
        names_notes: list[dict] = []  # kept only if the file is read as a names list
        try:
            inputs.names.append(read_names(path, encoding=options.read.encoding, notes=names_notes))
        except ParseError:
            raise traveller_error from None
        inputs.notes.extend(names_notes)


#: The cells a director types into an entry workbook (the others come from the movement).
_TYPED = ("contract", "declarer", "result", "lead")


def _played_rows(raw: pd.DataFrame, notes: list[dict]) -> pd.DataFrame:
    """An entry workbook's rows with something typed; the others were not played, said in one note."""
    typed = [c for c in _TYPED if c in raw]
    empty = pd.Series(True, index=raw.index)
    for column in typed:
        empty &= raw[column].astype("string").str.strip().fillna("").eq("")
    if not empty.any():
        return raw
    lines = raw.loc[empty, "line"].astype("string").tolist()
    shown = ", ".join(lines[:10]) + (f" and {len(lines) - 10} more" if len(lines) > 10 else "")
    notes.append({"source": str(raw["source"].iloc[0]), "line": lines[0], "column": "", "value": "",
                  "message": f"{len(lines)} row(s) of the entry workbook left empty (rows {shown}): those boards "
                             "were not played at those tables; type the results to score them"})
    return raw[~empty].reset_index(drop=True)


def _read_xlsx(path, options: Options, inputs: Inputs) -> None:
    """Travellers (with the names sheet, if the workbook has one), or a names-only workbook.

    The file is loaded once and the loaded workbook handed to each reader.
    """
    workbooks = load_workbooks(path)
    notes: list[dict] = []  # kept only if the workbook is read as travellers
    try:
        raw = read_travellers_xlsx(path, workbooks, notes)
        plan = entry_movement(workbooks[0], Path(path).name) if is_own(workbooks[0]) else None
        if plan is not None:  # bridgeproc's entry workbook: rows left empty were not played; its movement checks
            raw = movement_switch_marks(_played_rows(raw, notes), plan)
            inputs.movements.append((raw if "section" in raw else raw.assign(section=""), plan))
        _add_travellers(raw, inputs)
        inputs.notes.extend(notes)
    except ParseError as traveller_error:
        names_notes: list[dict] = []
        try:
            inputs.names.append(read_names(path, workbooks=workbooks, notes=names_notes))
        except ParseError:
            raise traveller_error from None
        inputs.notes.extend(names_notes)
        return
    names = workbook_names(path, workbooks, inputs.notes)
    if names is not None:
        inputs.names.append(names)
    totals = own_totals(workbooks[0], Path(path).name)  # bridgeproc's workbook: its Ranking sheets
    if totals is not None:
        inputs.published_totals.append(totals)


#: TotalScoreTable directions as written by Ruter, Magic Contest, FFB (N-S, E-W, Ö-V ...).
_DIRECTION = {"N": "NS", "E": "EW", "Ö": "EW", "O": "EW", "Ø": "EW"}


def _published_names(totals: pd.DataFrame) -> pd.DataFrame | None:
    """Pair (or player) names from a PBN's TotalScoreTable, as a names list."""
    pair = next((c for c in ("pairid", "playerid") if c in totals), None)
    names = next((c for c in ("names", "name") if c in totals), None)
    if pair is None or names is None or not len(totals):
        return None
    direction = (totals["direction"].astype("string").str.strip().str[:1].str.upper().map(_DIRECTION)
                 if "direction" in totals and pair == "pairid" else pd.NA)
    return pd.DataFrame({
        "section": totals["section"].astype("string") if "section" in totals else pd.NA,
        "pair": totals[pair].astype("string"),
        "direction": direction,
        "names": totals[names].astype("string"),
    }).astype("string")


def published_totals(totals: pd.DataFrame, event: bool = False) -> pd.DataFrame | None:
    """A PBN TotalScoreTable's standings (``TotalScoreMP``/``TotalScoreIMP``, ``TotalPercentage``,
    ``Rank``) in the frame the USEBIO reader gives, so that both are compared with ours alike."""
    pair = next((c for c in ("pairid", "playerid") if c in totals), None)
    # A session of an event of several (Ruter, Magic Contest) publishes its own columns beside the cumulative
    # ones: the session is what is scored, so its columns are what is compared.
    # ``event``: the cumulative columns, for the event's ranking.
    session = not event and ("sessionscoremp" in totals or "sessionscoreimp" in totals)
    total = next((c for c in ("sessionscoremp", "sessionscoreimp")[:2 if session else 0] + ("totalscoremp",
                                                                                           "totalscoreimp")
                  if c in totals), None)
    if pair is None or total is None or not len(totals):
        return None
    def text(column: str) -> pd.Series:
        return totals[column].astype("string") if column in totals else pd.Series(pd.NA, index=totals.index,
                                                                                  dtype="string")
    direction = (totals["direction"].astype("string").str.strip().str[:1].str.upper().map(_DIRECTION)
                 if "direction" in totals and pair == "pairid" else pd.Series(pd.NA, index=totals.index))
    return pd.DataFrame({
        "section": text("section"), "pair": text(pair), "direction": direction.astype("string"),
        "place": text("sessionrank" if session else "rank"),
        "percentage": text("sessionpercentage" if session else "totalpercentage"), "total": text(total),
        "names": text("names"), "source": text("source"), "line": text("line"),
    })


def _scored_across_field(pbn) -> bool:
    """True when a board has one game whose ScoreTable holds several sections: the program
    that wrote it compared the board across the field, so bridgeproc does too (unless told)."""
    results = pbn.results
    if not len(results) or "section" not in results or results["section"].nunique() < 2:
        return False
    games = pd.Series([g.get("Board") for g in pbn.games], dtype="string").value_counts()
    single = set(games[games == 1].index)
    sections = results.groupby("board")["section"].nunique()
    return bool((sections[sections.index.isin(single)] > 1).any())


def creator(escapes: list[str]) -> str | None:
    """The program named by a PBN's ``%Creator:`` line, if any."""
    for line in escapes:
        name, _, value = line.lstrip("%").partition(":")
        if name.strip().lower() == "creator" and value.strip():
            return value.strip()
    return None


def _pbn_teams(pbn) -> str | None:
    """What makes a PBN a teams event, or None: every result a room game naming both teams (HomeTeam,
    VisitTeam), or only a team ScoreTable of match totals (Ruter's MatchDetails)."""
    results = pbn.results
    if len(results) and {"hometeam", "visitteam"} <= set(results.columns) and \
            (results["hometeam"].notna() & results["visitteam"].notna()).all():
        teams = pd.concat([results["hometeam"], results["visitteam"]]).nunique()
        return f"{len(results)} room results of {teams} teams, each game naming its HomeTeam and VisitTeam"
    if not len(results) and len(pbn.matches) and "matchdetails" in pbn.matches:
        return f"{len(pbn.matches)} match totals (MatchDetails) and no boards"
    return None


def _read_pbn(path, options: Options, inputs: Inputs) -> None:
    pbn = read_pbn(path, options.read.encoding)
    teams = _pbn_teams(pbn)
    if teams is not None and inputs.teams_event is None:
        inputs.teams_event = TeamsEventError(pbn.source, teams)
    inputs.pbn_files.append(pbn)
    inputs.notes.extend({"source": pbn.source, "line": str(line), "column": "", "value": "", "message": message}
                        for line, message in pbn.notes)
    published = _published_names(pbn.totals)
    if published is not None:
        inputs.fallback_names.append(published)
    totals = published_totals(pbn.totals)
    if totals is not None:
        inputs.published_totals.append(totals)
    inputs.across_field |= _scored_across_field(pbn)
    inputs.pbn_boards.append(len(inputs.boards))
    inputs.boards.append(pbn.boards)
    for key, value in pbn.meta.items():
        inputs.meta.setdefault(key.lower(), value)
    program = pbn_program(pbn.escapes, pbn.games)
    if program:
        inputs.meta.setdefault("program", program)


def _read_usebio(path, options: Options, inputs: Inputs) -> None:
    """A USEBIO file of one session, or ``FILE.xml#N``: session N of a file of several (io.usebio.sessions);
    a file of several sessions given whole is refused (ParseError: rank it with ``bridgeproc event``)."""
    from bridgeproc.io.usebio.sessions import read_usebio_session  # loaded for USEBIO inputs only

    read = read_usebio_session(path)
    kind = str(read.meta.get("event_type") or "").upper()
    if "TEAM" in kind or ("team" in read.results and read.results["team"].notna().any()):
        matches = read.results[["round", "team", "opposing_team"]].drop_duplicates() if "team" in read.results \
            else read.results.iloc[:0]
        if inputs.teams_event is None:
            inputs.teams_event = TeamsEventError(read.source, f"USEBIO EVENT_TYPE {kind or 'with matches'}, "
                                                 f"{len(matches)} matches")
    _add_file(read, inputs)


def _read_bws(path, options: Options, inputs: Inputs) -> None:
    from bridgeproc.io.bws import read_bws  # loaded for Bridgemate inputs only

    bws = read_bws(path)
    inputs.movements.append((bws.results, bws.movement))
    _add_file(bws, inputs)


def _add_file(read, inputs: Inputs) -> None:
    """Add a reader's results, boards, names and meta (USEBIO and BWS files carry all four)."""
    if len(read.results):
        inputs.raws.append(read.results)
    if len(read.boards):
        inputs.boards.append(read.boards)
    if len(read.names):
        inputs.names.append(read.names)
    for key, value in read.meta.items():
        inputs.meta.setdefault(key.lower(), value)
    inputs.notes.extend(getattr(read, "notes", []))  # what the reader read other than written
    totals = getattr(read, "totals", None)
    if totals is not None and len(totals):
        inputs.published_totals.append(totals)


READERS: dict[str, Callable] = {".xml": _read_usebio, ".bws": _read_bws,".csv": _read_csv, ".txt": _read_csv, ".tsv": _read_csv,
                                 ".xlsx": _read_xlsx, ".xlsm": _read_xlsx, ".pbn": _read_pbn}


def file_identity(path: Path) -> tuple[int, int] | None:
    """The file ``path`` names (device and inode, through symlinks), or None when it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def check_input_files(inputs: Iterable, names: Iterable = ()) -> None:
    """Refuse an input bridgeproc has no reader for, and a file given twice by any name (the same
    path, a symlink, a hard link, or as an input and a ``--names`` list too): its results would
    count twice. A mistake in the call (:class:`UsageError`), found before anything is read. Two sessions
    of one USEBIO file (``FILE.xml#1``, ``FILE.xml#2``) are two inputs; the file whole and one of its
    sessions, or one session twice, are given twice."""
    inputs, names = [Path(p) for p in inputs], [Path(p) for p in names]
    for path in inputs:
        if suffix(input_file(path)) not in READERS:
            raise UsageError(f"{path.name}: cannot read {suffix(path) or 'files without an extension'}; "
                             f"give one of {', '.join(READERS)}")
    seen: dict[tuple[int, int], list[tuple[Path, str, str | None]]] = {}
    for path, role in [*((p, "an input") for p in inputs), *((p, "a names list") for p in names)]:
        key = file_identity(input_file(path))
        if key is None:
            continue  # not there: the reader says so
        session = split_session(path)[1]
        for first, first_role, first_session in seen.get(key, []):
            if session is not None and first_session is not None and session != first_session:
                continue  # two sessions of one file
            same = f"{path}" if path == first else f"{path} is the same file as {first}"
            roles = "" if role == first_role else f", as {first_role} and as {role}"
            raise UsageError(f"{same}: given twice{roles}; give each file once")
        seen.setdefault(key, []).append((path, role, session))


def read_file(path, options: Options, inputs: Inputs) -> None:
    """Read one input file by its extension into ``inputs`` (nothing checked: pipeline.inputs checks)."""
    READERS[suffix(input_file(path))](path, options, inputs)


def read_names_lists(options: Options, inputs: Inputs) -> None:
    """Read the names lists given with ``options.read.names`` into ``inputs``."""
    for path in options.read.names:
        notes: list[dict] = []
        inputs.names.append(read_names(path, encoding=options.read.encoding, notes=notes))
        inputs.notes.extend(notes)
