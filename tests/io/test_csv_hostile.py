"""Hostile CSV traveller files (issue 15): bytes before the CSV is even parsed.

A cell over the csv module's 131,072-character limit, NUL bytes, a binary file under a .csv
name, empty and header-only files, byte-order marks, UTF-16/32, mixed line endings, a stray
Windows-1252 byte: each an exact outcome of ``read_travellers``, never a traceback.
"""
from __future__ import annotations

import csv
import gzip
import io
import zipfile

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.text import csv_field_limit

H = "Board,NS,EW,Contract,Declarer,Result,Lead\n"
ROW = "1,1,2,4S,N,=,S2\n"
OK, FAILS = "ok", "fails"


def zipped() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return out.getvalue()


# (id, file content (text is written as UTF-8), expected):
#   (OK, [line of each row], [words of each note])   or   (FAILS, line or None, [words])
CASES = [
    # a cell past the csv module's limit is read (no crash), then refused: no traveller cell holds that much
    ("lead-cell-over-the-csv-limit", H + "1,1,2,4S,N,=," + "S" * 200_000 + "\n",
     (FAILS, 2, ["the lead cell holds 200,000 characters", "holds more than 1,000"])),
    ("contract-cell-over-the-limit-quoted", H + '1,1,2,"' + "4S" * 150_000 + '",N,=,S2\n' + ROW,
     (FAILS, 2, ["the contract cell holds 300,000 characters"])),
    ("nul-after-the-first-4k", (H + ROW * 400).encode() + b"1,1,2,4S,N,=,S\x002\n",
     (FAILS, 402, ["a NUL byte (0x00) at byte", "damaged or not text"])),
    ("nul-in-the-first-4k", (H + "1,1,2,4S\x00,N,=,S2\n").encode(), (FAILS, None, ["this is a binary file, not text"])),
    ("trailing-nul-padding", (H + ROW + ROW).encode() + b"\x00" * 512,
     (OK, [2, 3], [["the file ends in 512 NUL byte(s)", "ignored", "check that the last results are all there"]])),
    ("only-nul-bytes", b"\x00" * 100, (FAILS, None, ["this is a binary file, not text"])),
    ("png-image", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(300), (FAILS, None, ["this is a PNG image, not text"])),
    ("jpeg-image", b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(100), (FAILS, None, ["this is a JPEG image"])),
    ("zip-archive", zipped(), (FAILS, None, ["this is a zip archive (an XLSX workbook", "under its .xlsx name"])),
    ("pdf-document", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", (FAILS, None, ["this is a PDF document"])),
    ("old-excel-file", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500), (FAILS, None, ["an old Excel (.xls)"])),
    ("gzip-file", gzip.compress((H + ROW).encode()), (FAILS, None, ["this is a gzip-compressed file"])),
    ("empty-file", b"", (FAILS, 1, ["the file is empty; expected a header"])),
    ("blank-lines-only", "\r\n  \n\t\n", (FAILS, 1, ["the file is empty"])),
    ("header-only", H, (FAILS, 1, ["the file has a header but no results below it"])),
    ("header-only-no-newline", H.rstrip("\n"), (FAILS, 1, ["the file has a header but no results below it"])),
    ("utf8-bom", b"\xef\xbb\xbf" + (H + ROW).encode(), (OK, [2], [])),
    ("double-utf8-bom", b"\xef\xbb\xbf\xef\xbb\xbf" + (H + ROW).encode(), (OK, [2], [])),
    ("utf16-le-bom", (H + ROW + ROW).encode("utf-16-le").join([b"\xff\xfe", b""]), (OK, [2, 3], [])),
    ("utf16-be-bom", b"\xfe\xff" + (H + ROW).encode("utf-16-be"), (OK, [2], [])),
    ("utf32-bom", (H + ROW).encode("utf-32"), (OK, [2], [])),
    ("utf16-without-bom", (H + ROW).encode("utf-16-le"), (FAILS, None, ["this is a binary file, not text"])),
    ("broken-utf16", b"\xff\xfe" + (H + ROW).encode("utf-16-le") + b"\x00\xd8", (FAILS, None, ["broken UTF-16 text"])),
    ("mixed-line-endings", H.rstrip("\n") + "\r\n" + ROW.rstrip("\n") + "\r" + ROW + ROW.rstrip("\n") + "\r\n",
     (OK, [2, 3, 4], [])),
    ("old-mac-line-endings", (H + ROW + ROW).replace("\n", "\r"), (OK, [2, 3], [])),
    ("stray-cp1252-byte-in-utf8", H.encode() + "1,1,2,4S,N,=,S2\n2,1,2,3NT,S,=,Ø\n".encode()
     + b"3,1,2,2H,N,=,\xe9\n", (OK, [2, 3, 4], [["1 byte(s) are not UTF-8", "line 4: 0xE9 read as 'é'"]])),
    ("whole-file-cp1252", (H + "1,1,2,4S,N,=,Ré\n").encode("cp1252"), (OK, [2], [])),
    ("unbalanced-quote", H + ROW + '2,1,2,"4S,N,=,S2\n' + ROW * 3,
     (FAILS, 3, ["a quoted cell opened on line 3 runs to line 6", "unbalanced quote"])),
]


@pytest.mark.parametrize("content, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_csv_bytes_have_an_exact_outcome(tmp_path, content, expected):
    path = tmp_path / "travellers.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    notes: list[dict] = []
    if expected[0] == OK:
        frame = read_travellers(path, notes=notes)
        assert frame["line"].tolist() == expected[1]
        assert len(notes) == len(expected[2]), [n["message"] for n in notes]
        for note, words in zip(notes, expected[2]):
            for word in words:
                assert word in note["message"], (word, note["message"])
    else:
        line, words = expected[1:]
        with pytest.raises(ParseError) as info:
            read_travellers(path, notes=notes)
        text = str(info.value)
        assert text.startswith("travellers.csv: " if line is None else f"travellers.csv:{line}: "), text
        for word in words:
            assert word in text, (word, text)


def test_a_long_cell_is_read_whole():
    path_text = H + "1,1,2,4S,N,=," + "S" * 200_000 + "\n"
    with csv_field_limit(len(path_text)):
        rows = list(csv.reader(io.StringIO(path_text)))
    assert len(rows[1][6]) == 200_000


def test_the_csv_limit_is_restored_after_reading(tmp_path):
    before = csv.field_size_limit()
    path = tmp_path / "long.csv"
    path.write_text(H + "1,1,2,4S,N,=," + "S" * 200_000 + "\n", encoding="utf-8")
    with pytest.raises(ParseError, match="the lead cell holds 200,000 characters"):  # read whole, then refused
        read_travellers(path)
    assert csv.field_size_limit() == before


def test_an_explicit_encoding_keeps_the_long_cell_limit_raised(tmp_path):
    path = tmp_path / "long.csv"
    path.write_bytes((H + "1,1,2,4S,N,=," + "é" * 140_000 + "\n").encode("cp1252"))
    with pytest.raises(ParseError, match="the lead cell holds 140,000 characters"):  # read whole, then refused
        read_travellers(path, encoding="cp1252")


def test_the_catalogues_hold_at_least_40_hostile_cases():
    from tests.io import test_names_hostile, test_usebio_hostile

    assert len(CASES) + len(test_names_hostile.CASES) + len(test_usebio_hostile.CASES) >= 40
