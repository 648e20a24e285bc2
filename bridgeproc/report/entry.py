"""The entry workbook: the grid a director types the evening into, made from the movement before play.

Sheet ``Travellers``: ``Board, Round, Table, NS, EW, Contract, Declarer, Result, Lead`` (``Section`` first
when there are several), one row for each board at each table in each round in the order of the
travellers, Board to EW filled in and locked (the sheet is protected without a password: only Contract,
Declarer, Result and Lead take typing), lists on Contract, Declarer and Result (a spelling off the Contract
and Result lists is kept after a warning: every spelling ``score`` reads is accepted); sheet ``Names``: one row per pair (per player in an individual) to fill in;
sheet ``Movement``: the movement itself (as ``movement.csv``), which ``score`` checks every result
against. Printed with the header on every page, a board's traveller kept on one page."""
from __future__ import annotations

import itertools
import os

import openpyxl
from openpyxl.styles import Font, Protection
from openpyxl.worksheet.datavalidation import DataValidation

from bridgeproc._version import __version__
from bridgeproc.movements.model import PHANTOM, Movement
from bridgeproc.report.movement import movement_table
from bridgeproc.report.styles import CREATOR, add_row, break_before, new_sheet

#: The sheets of the entry workbook (``io.sheets`` reads them back by these names).
TRAVELLERS, NAMES, MOVEMENT, LISTS = "Travellers", "Names", "Movement", "Lists"
TYPED = ("Contract", "Declarer", "Result", "Lead")
#: The choices the Contract and Result cells offer (any other spelling score reads is kept after a warning:
#: 4SX=, 3NT+1 with the result in the contract cell, AVE+, tricks as a number).
CONTRACT_CHOICES = ["PASS", *(f"{level}{strain}{double}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")
                              for double in ("", "X", "XX"))]
RESULT_CHOICES = ["=", *(f"+{n}" for n in range(1, 7)), *(f"-{n}" for n in range(1, 14))]
TYPED_HELP = {"Contract": "e.g. 4S, 3NTX, PASS, AVE+", "Result": "e.g. =, +1, -2, or the tricks taken"}


def write_entry_workbook(movement: Movement, path: str | os.PathLike) -> None:
    """The entry workbook of ``movement`` (see the module's text)."""
    wb = openpyxl.Workbook()  # not write-only: cells are unlocked after they are written
    wb.properties.creator = f"{CREATOR} {__version__}"
    travellers = movement.travellers()
    sections = travellers["section"].fillna("").nunique() > 1 or (travellers["section"].fillna("") != "").any()
    head = (["Section"] if sections else []) + ["Board", "Round", "Table", "NS", "EW", *TYPED]
    ws = wb.active
    ws.title = TRAVELLERS
    add_row(ws, head)
    bold = Font(bold=True)
    for cell in ws[1]:
        cell.font = bold
    given = travellers[(["section"] if sections else []) + ["board", "round", "table", "ns", "ew"]]
    for row in given.itertuples(index=False):
        add_row(ws, [*row, None, None, None, None])
    unlocked = Protection(locked=False)
    first_typed = len(head) - len(TYPED) + 1
    for row in ws.iter_rows(min_row=2, min_col=first_typed, max_col=len(head)):
        for cell in row:
            cell.protection = unlocked
    declarer = DataValidation(type="list", formula1='"N,E,S,W"', allow_blank=True, showErrorMessage=True,
                              errorTitle="Declarer", error="N, E, S or W")
    letter = openpyxl.utils.get_column_letter
    declarer.add(f"{letter(first_typed + 1)}2:{letter(first_typed + 1)}{ws.max_row}")
    ws.add_data_validation(declarer)
    lists = new_sheet(wb, LISTS)  # the choices offered; anything else score reads is kept after a warning
    for contract, result in itertools.zip_longest(CONTRACT_CHOICES, RESULT_CHOICES):
        add_row(lists, [contract, result])
    lists.sheet_state = "hidden"
    for offset, count, what in ((0, len(CONTRACT_CHOICES), "Contract"), (2, len(RESULT_CHOICES), "Result")):
        source = letter(1 if what == "Contract" else 2)
        choice = DataValidation(type="list", formula1=f"{LISTS}!${source}$1:${source}${count}", allow_blank=True,
                                showErrorMessage=True, errorStyle="warning", errorTitle=what,
                                error=f"Not one of the usual spellings: keep it if score reads it ({TYPED_HELP[what]})")
        column = letter(first_typed + offset)
        choice.add(f"{column}2:{column}{ws.max_row}")
        ws.add_data_validation(choice)
    ws.protection.sheet = True  # no password: the director can unprotect it
    ws.freeze_panes = "A2"
    ws.print_title_rows = "1:1"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    boards = travellers["board"].tolist()  # a page break between travellers: a board's stays on one page
    break_before(ws, [at + 2 for at in range(1, len(boards)) if boards[at] != boards[at - 1]])
    for letter, width in zip("ABCDEFGHIJ", [8 if sections else 7, 7, 7, 6, 6, 10, 10, 8, 7, 7]):
        ws.column_dimensions[letter].width = width

    names = new_sheet(wb, NAMES)
    add_row(names, ["Player no", "Name"] if movement.players is not None else
                 ["Pair", "Player 1", "Player 2"] if movement.numbering == "shared" else
                 ["Pair", "Direction", "Player 1", "Player 2"])
    for cell in names[1]:
        cell.font = bold
    seating = movement.seating
    if movement.players is not None:  # an individual: one row per player
        for player in range(1, 4 * movement.tables + 1):
            add_row(names, [player, None])
    elif movement.numbering == "shared":
        for pair in sorted((set(seating["ns"]) | set(seating["ew"])) - {PHANTOM}):
            add_row(names, [int(pair), None, None])
    else:
        for direction, column_name in (("NS", "ns"), ("EW", "ew")):
            for pair in sorted(set(seating.loc[~seating["switched"], column_name]) - {PHANTOM}):
                add_row(names, [int(pair), direction, None, None])

    plan = new_sheet(wb, MOVEMENT)
    table = movement_table(movement)
    add_row(plan, list(table.columns))
    for row in table.astype(object).where(table.notna(), None).itertuples(index=False):
        add_row(plan, [None if v == "" else v for v in row])
    plan.sheet_state = "hidden"
    plan.protection.sheet = True
    wb.save(path)
