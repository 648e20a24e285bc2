"""A season ladder (``model.Ladder``, from archive.ladder) written as CSV or as a one-sheet workbook, and
the archive rescored (``model.Rescored``), the ratings and the players against double dummy
(``model.Profile``) as CSV (``pipeline.publish`` stages the file)."""
from __future__ import annotations

import os

from bridgeproc.model import Ladder, Profile, Ratings, Rescored
from bridgeproc.report.csv_files import write_csv
from bridgeproc.report.styles import SUBTITLE, TITLE, a4, add_row, cell, header_row, new_sheet, new_workbook, set_widths
from bridgeproc.schema import LADDER_COLUMNS, PROFILE_COLUMNS, RATINGS_COLUMNS, RESCORE_COLUMNS, check

#: Column titles of the ladder sheet.
TITLES = {"rank": "Rank", "names": "Names", "ids": "Member ids", "sessions": "Sessions", "counted": "Counted",
          "pct": "Average %", "best": "Best %"}


def write_ladder_csv(ladder: Ladder, path: str | os.PathLike) -> None:
    """The ladder's table (LADDER_COLUMNS) as CSV, numbers as every output shows them, no title."""
    check(ladder.table, LADDER_COLUMNS)
    write_csv(ladder.table, path)


def write_rescore_csv(rescored: Rescored, path: str | os.PathLike) -> None:
    """Each pair's new rank, total and percentage beside the archived ones (RESCORE_COLUMNS) as CSV,
    numbers as every output shows them."""
    check(rescored.table, RESCORE_COLUMNS)
    write_csv(rescored.table, path)


def write_ladder_xlsx(ladder: Ladder, path: str | os.PathLike) -> None:
    """The ladder as a workbook: its title and span, the rule and the notes, then the table."""
    table = ladder.table
    check(table, LADDER_COLUMNS)
    lines = [ladder.rule, *ladder.notes]
    wb = new_workbook()
    ws = new_sheet(wb, "Ladder")
    set_widths(ws, [7, 40, 20, 10, 10, 11, 9])
    add_row(ws, [cell(ws, f"Ladder: {ladder.span}", font=TITLE)])
    for line in lines:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])
    header = len(lines) + 3
    a4(ws, f"{header}:{header}")
    awarded = "masterpoints" in table  # the season's masterpoints, when its sessions awarded any
    add_row(ws, header_row(ws, [TITLES[c] for c in LADDER_COLUMNS] + (["Masterpoints"] if awarded else [])))
    for row in table.itertuples(index=False):
        add_row(ws, [row.rank, row.names, row.ids, int(row.sessions), int(row.counted),
                     cell(ws, float(row.pct), fmt="pct"), cell(ws, float(row.best), fmt="pct"),
                     *([float(row.masterpoints)] if awarded else [])])
    wb.save(path)


def write_ratings_csv(ratings: Ratings, path: str | os.PathLike) -> None:
    """The ratings (RATINGS_COLUMNS) as CSV: ``name``, ``id`` and ``handicap`` before the rating, so the file
    is a players' list ``score --handicaps`` reads as it is."""
    check(ratings.table, RATINGS_COLUMNS)
    write_csv(ratings.table[["name", "id", "handicap", "rating", "sessions", "rank", "last"]], path)


def write_profile_csv(profile: Profile, path: str | os.PathLike) -> None:
    """The players against double dummy (PROFILE_COLUMNS) as CSV, a figure blank where its sample is too small."""
    check(profile.table, PROFILE_COLUMNS)
    write_csv(profile.table, path)
