"""What encoding a USEBIO file's bytes are read in, and the note when it is not the declared one (issue 29:
a UTF-8 file declaring an unknown encoding was read as Windows-1252 with no word: 'BjÃ¸rn')."""
from __future__ import annotations

import pytest

from bridgeproc.io.usebio.xml_tree import parse_tree

NAME = "Bjørn Åsen"


@pytest.mark.parametrize("declared, codec, note", [
    ("UTF-8", "utf-8", None),
    ("windows-1252", "cp1252", None),
    ("ISO-8859-1", "latin-1", None),
    ("x-mac-klingon", "utf-8", "the declared encoding 'x-mac-klingon' is not one known: read as UTF-8 (its bytes are UTF-8)"),
    ("x-mac-klingon", "cp1252", "the declared encoding 'x-mac-klingon' is not one known: read as Windows-1252"),
    ("UTF-8", "cp1252", "the file says UTF-8 but its bytes are not UTF-8: read as Windows-1252"),
    (None, "cp1252", "the file says nothing of its encoding (XML then means UTF-8) but its bytes are not UTF-8: "
                     "read as Windows-1252"),
    ("ascii", "cp1252", "the bytes are not 'ascii' as declared: read as Windows-1252"),
])
def test_the_name_is_read_as_written_and_a_guess_is_noted(declared, codec, note):
    head = f'<?xml version="1.0" encoding="{declared}"?>' if declared else ""
    notes: list[dict] = []
    root = parse_tree((head + f"<USEBIO><NAME>{NAME}</NAME></USEBIO>").encode(codec), "f.xml", notes)
    assert root.value("NAME") == NAME
    assert [n["message"] for n in notes] == ([note] if note else [])
