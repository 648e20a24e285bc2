"""The inputs read and checked: each file read (pipeline.read), then what a file gives checked before it
is used, with the checks of ``validate`` (the PBN games' auctions and play, the results their records
fill in, the double dummy they give, a Bridgemate file's movement, a deal two files disagree on, the
director's corrections)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from bridgeproc.core.pairs import movement_switch_marks
from bridgeproc.io.corrections import read_corrections
from bridgeproc.io.sheets.movement import read_movement
from bridgeproc.model import Options
from bridgeproc.pipeline.read import Inputs, check_input_files, creator, read_file, read_names_lists
from bridgeproc.validate.corrections import apply_corrections
from bridgeproc.validate.deals import deal_conflicts
from bridgeproc.validate.given import check_given
from bridgeproc.validate.movement import check_meetings, check_movement
from bridgeproc.validate.records import fill_from_records
from bridgeproc.validate.rules import check_games


def read_inputs(paths: list, options: Options = Options()) -> Inputs:
    """Read every input file by its extension (names lists given with ``options.read.names`` too) and check
    what each gives before it is used; problems found are kept on the inputs (``rules``, ``fatal``,
    ``notes``) for the check stage to list with validation's."""
    check_input_files(paths, options.read.names)
    inputs = Inputs()
    for path in paths:
        games, movements = len(inputs.pbn_files), len(inputs.movements)
        read_file(path, options, inputs)
        for number, pbn in enumerate(inputs.pbn_files[games:], start=games):
            _check_pbn(pbn, inputs.pbn_boards[number], options, inputs)
        if options.check.movement_check:
            inputs.seating.extend(check_movement(results, movement) for results, movement in inputs.movements[movements:])
            inputs.fatal.extend(inputs.seating[len(inputs.seating) - len(inputs.movements[movements:]):])
    inputs.settle()
    if options.check.movement is not None:  # the director's movement: every result checked against it
        movement = read_movement(options.check.movement, options.read.encoding)
        raw = movement_switch_marks(inputs.frames()[0], movement)  # its arrow-switched rounds need no marks typed
        inputs.raws = [raw] if inputs.raws else []
        inputs.seating.append(_against_movement(raw, movement))
        inputs.fatal.append(inputs.seating[-1])
    if len(inputs.boards) > 1:
        conflicts = deal_conflicts(pd.concat(inputs.boards, ignore_index=True), "give one hand record")
        if conflicts is not None:
            inputs.fatal.append(conflicts)
    read_names_lists(options, inputs)
    if options.check.corrections is not None:  # the director's corrections, then checked like typed cells
        read = read_corrections(options.check.corrections, options.read.encoding, inputs.notes)
        raw, inputs.corrections, notes = apply_corrections(inputs.frames()[0], read, options.check.result_style,
                                                           Path(options.check.corrections).name)
        inputs.raws = [raw] if inputs.raws else []
        inputs.notes.extend(notes)
    return inputs


def _against_movement(raw: pd.DataFrame, movement: pd.DataFrame) -> pd.DataFrame:
    """Results with a table and round checked as a Bridgemate file's are; the others by whether their
    pairs meet on that board anywhere in the movement."""
    if "section" not in raw:
        raw = raw.assign(section=pd.Series("", index=raw.index, dtype="string"))
    if not len(raw):
        return check_meetings(raw, movement)
    placed = pd.Series(True, index=raw.index)
    for column in ("table", "round"):
        placed &= raw[column].astype("string").str.strip().fillna("").ne("") if column in raw else False
    found = [check_movement(raw[placed], movement) if placed.any() else None,
             check_meetings(raw[~placed], movement) if (~placed).any() else None]
    return pd.concat([f for f in found if f is not None], ignore_index=True)


def _check_pbn(pbn, at: int, options: Options, inputs: Inputs) -> None:
    """A PBN file's games checked against the Laws' auction and play; the results their auctions and
    play fill in; its double-dummy tables and optimum scores checked before they are reused (some exports
    write them wrong)."""
    inputs.rules.append(check_games(pbn))
    results, filled = fill_from_records(pbn.results, pbn)
    inputs.notes.extend({"source": pbn.source, "line": str(line), "column": "", "value": "", "message": message}
                        for line, message in filled)
    if len(results):
        inputs.pbn_raws.append(results)
    boards, notes = check_given(inputs.boards[at], pbn.source, creator(pbn.escapes), solve=options.dd)
    inputs.notes.extend(notes)
    inputs.boards[at] = boards
