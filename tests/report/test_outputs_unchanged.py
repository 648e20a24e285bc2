"""Every output of every real file is the same as the last accepted writer's, byte for byte (issue 27) and,
for the workbook, cell for cell: values, number formats, styles, merges, widths and print settings (issue 28).

Each real file `score` takes (and the sample evening) is scored with no double dummy and written to each
output; the digest of each output is compared with ``tests/data/golden/outputs.json``. Text outputs are
digested as bytes (bridgeproc's version string is the one thing masked); a workbook as the dump of each
sheet ``workbook_dump`` makes, since the zip around it carries the time it was written; a website as the
bytes of each of its files. A change that means to change an output refreshes the file, and the diff of
the JSON says which outputs it changed:

    .venv/bin/python -m tests.report.test_outputs_unchanged --update
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import openpyxl
import pytest

from bridgeproc import __version__
from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from tests.conftest import NOT_YET_READ, REALDATA
from tests.report.test_real_files_outputs import REFUSED

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "outputs.json"
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
OUTPUTS = ("pbn", "xml", "csv", "xlsx", "site")
#: What bridgeproc refuses to write for a file, with the reason (a hand record has no results).
NOT_WRITTEN = ("not supported", "no result")
FILES = sorted(p.name for p in REALDATA.iterdir()
               if p.suffix in (".pbn", ".xml", ".bws") and p.name not in REFUSED and p.name not in NOT_YET_READ)


def _inputs(name: str) -> list[str]:
    if name == "sample":
        return [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")]
    return [str(REALDATA / name)]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data.replace(__version__.encode(), b"VERSION")).hexdigest()[:16]


def _style(cell) -> tuple:
    font, fill, align, border = cell.font, cell.fill, cell.alignment, cell.border
    return (cell.number_format, font.b, font.i, font.sz, font.color.rgb if font.color is not None else None,
            fill.fill_type, fill.fgColor.rgb if fill.fill_type else None,
            align.horizontal, align.vertical, align.wrap_text, align.indent,
            tuple(getattr(getattr(border, side), "style", None) for side in ("left", "right", "top", "bottom")),
            cell.protection.locked)


def workbook_dump(path: Path) -> dict[str, list]:
    """Each sheet as the rows a reader sees and the settings a printer uses: every cell's value and style,
    merges, column widths, row heights, frozen panes, the print titles, area, orientation, fit and margins."""
    book = openpyxl.load_workbook(path)
    sheets = {}
    for sheet in book.worksheets:
        cells = [(c.coordinate, repr(c.value), _style(c)) for row in sheet.iter_rows() for c in row
                 if c.value is not None or c.has_style]
        setup = sheet.page_setup
        margins = sheet.page_margins
        sheets[sheet.title] = [
            cells, sorted(str(r) for r in sheet.merged_cells.ranges),
            sorted((k, v.width) for k, v in sheet.column_dimensions.items() if v.width),
            sorted((k, v.height) for k, v in sheet.row_dimensions.items() if v.height),
            sheet.freeze_panes, sheet.print_title_rows, sheet.print_title_cols, str(sheet.print_area),
            setup.orientation, setup.paperSize, setup.fitToWidth, setup.fitToHeight, sheet.sheet_properties.pageSetUpPr
            and sheet.sheet_properties.pageSetUpPr.fitToPage,
            (margins.left, margins.right, margins.top, margins.bottom), sheet.print_options.gridLines,
            sheet.sheet_view.showGridLines, [str(v.sqref) + str(v.formula1) for v in sheet.data_validations.dataValidation],
            sheet.protection.sheet,
        ]
    return {"sheets": list(sheets), **{title: _digest(json.dumps(dump, default=str).encode())
                                       for title, dump in sheets.items()}}


def digests(name: str, folder: Path) -> dict[str, object]:
    """The digest of each output of one file (or the words of the refusal to write it)."""
    from bridgeproc.errors import BridgeprocError

    session = build_session(_inputs(name), Options(dd=False))
    found: dict[str, object] = {}
    for ext in OUTPUTS:
        out = folder / ("site" if ext == "site" else f"scored.{ext}")
        try:
            write_outputs(session, [f"{out}/" if ext == "site" else out])
        except BridgeprocError as exc:
            found[ext] = "refused: " + next((w for w in NOT_WRITTEN if w in str(exc)), str(exc)[:80])
            continue
        if ext == "xlsx":
            found[ext] = workbook_dump(out)
        elif ext == "site":
            found[ext] = {str(p.relative_to(out)): _digest(p.read_bytes()) for p in sorted(out.rglob("*")) if p.is_file()}
        else:
            found[ext] = _digest(out.read_bytes())
    return found


def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sample", *FILES])
def test_every_output_is_as_the_accepted_writer_wrote_it(tmp_path, name):
    expected = _golden()[name]
    found = digests(name, tmp_path)
    for ext in OUTPUTS:
        if isinstance(expected[ext], dict) and isinstance(found[ext], dict):
            changed = sorted(k for k in expected[ext].keys() | found[ext].keys()
                             if expected[ext].get(k) != found[ext].get(k))
            assert changed == [], f"{name} .{ext}: changed {changed[:10]}"
        assert found[ext] == expected[ext], f"{name} .{ext}"


def test_the_golden_file_covers_every_real_file():
    assert sorted(_golden()) == sorted(["sample", *FILES])


def _update() -> None:
    import tempfile

    table = {}
    for name in ["sample", *FILES]:
        with tempfile.TemporaryDirectory() as folder:
            table[name] = digests(name, Path(folder))
        print(name, file=sys.stderr)
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    _update()
