"""report.styles.cell: styles through openpyxl's public named styles, each combination registered once."""
import openpyxl
from openpyxl.styles import Font

from bridgeproc.report.styles import BAND_FILL, BOLD, CENTER, HEADER, HEADER_FILL, cell


def _write(path, rows):
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("S")
    for row in rows(ws):
        ws.append(row)
    wb.save(path)
    return openpyxl.load_workbook(path)["S"]


def test_styled_cells_read_back_with_their_look(tmp_path):
    ws = _write(tmp_path / "s.xlsx", lambda ws: [
        [cell(ws, "Pair", font=HEADER, fill=HEADER_FILL, align=CENTER), cell(ws, 12.5, fmt="pct"), cell(ws, 3)],
        [cell(ws, "Total", font=BOLD, fill=BAND_FILL), cell(ws, 7.25, fmt="mp"), cell(ws, "Pair", font=HEADER,
                                                                                     fill=HEADER_FILL, align=CENTER)],
    ])
    head, pct, plain = ws["A1"], ws["B1"], ws["C1"]
    assert head.font.bold and head.font.color.rgb == "00FFFFFF" and head.fill.fgColor.rgb == "00305496"
    assert head.alignment.horizontal == "center"
    assert pct.number_format == "0.00" and ws["B2"].number_format == "0.0"
    assert plain.value == 3 and plain.style == "Normal" and plain.number_format == "General"
    assert ws["A2"].font.bold and ws["A2"].fill.fgColor.rgb == "00D9E1F2"
    # one named style per combination: the repeated header style is registered once
    assert ws["C2"].style == head.style
    assert sorted(ws.parent.named_styles) == ["Normal", "bridgeproc 1", "bridgeproc 2", "bridgeproc 3", "bridgeproc 4"]


def test_fonts_made_on_the_fly_keep_their_own_look(tmp_path):
    """A style is found by the ids of its objects: a font freed after its call must not
    lend its style to a later font that happens to get the same id."""
    colors = ["00FF0000", "0000FF00", "000000FF", "00FFFF00"] * 5
    ws = _write(tmp_path / "f.xlsx", lambda ws: [[cell(ws, color, font=Font(color=color)) for color in colors]])
    assert [c.font.color.rgb for c in next(ws.iter_rows())] == colors
