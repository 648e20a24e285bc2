"""Hostile names lists (issue 15): every variant read with a note, or refused with its line.

A pair listed twice, an unquoted comma inside the names, one stray Windows-1252 byte in a UTF-8
file, a line break inside a quoted name, an unbalanced quote: each an exact outcome.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.sheets.names import read_names
from bridgeproc.model import Options, ReadOptions
from bridgeproc.pipeline.inputs import read_inputs

SAMPLE = Path(__file__).parent.parent.parent / "sample_data"
H = "Pair,Direction,Names\n"
OK, FAILS = "ok", "fails"


def many(count: int, broken: int | None = None) -> str:
    """A list of ``count`` pairs; the row on file line ``broken`` opens a quote it never closes."""
    rows = [f'{n},NS,{chr(34) if n + 1 == broken else ""}Player {n}a & Player {n}b' for n in range(1, count + 1)]
    return H + "\n".join(rows) + "\n"


# (id, file content (text is written as UTF-8), expected):
#   (OK, [names read, in order], [words of each note])   or   (FAILS, error type, line, [words])
CASES = [
    ("pair-twice-same-names", H + "1,NS,Ann & Bob\n2,NS,Cy & Di\n1,NS,Ann & Bob\n",
     (OK, ["Ann & Bob", "Cy & Di"], [["line 4: a pair listed again with the same names: read once"]])),
    ("pair-twice-other-names", H + "1,NS,Ann & Bob\n2,NS,Cy & Di\n1,NS,Ed & Flo\n",
     (FAILS, ValidationError, "4", ["pair 1 (NS) is listed twice: 'Ed & Flo' here and 'Ann & Bob' on line 2",
                                    "delete the wrong row"])),
    ("two-pairs-twice", H + "1,NS,Ann & Bob\n2,NS,Cy & Di\n1,NS,Ed & Flo\n2,NS,Gus & Hal\n",
     (FAILS, ValidationError, "4", ["2 problem(s)", "names.csv:5: pair: pair 2 (NS) is listed twice"])),
    ("pair-twice-by-section-letter", "Pair,Names\nA1,Ann & Bob\nA1,Cy & Di\n",
     (FAILS, ValidationError, "3", ["pair A1 is listed twice"])),
    ("same-number-two-sections", "Section,Pair,Names\nA,1,Ann & Bob\nB,1,Cy & Di\n", (OK, ["Ann & Bob", "Cy & Di"], [])),
    ("same-number-two-directions", H + "1,NS,Ann & Bob\n1,EW,Cy & Di\n", (OK, ["Ann & Bob", "Cy & Di"], [])),
    ("unquoted-comma-in-names", H + "1,NS,Berg, Anna & Lie, Bjørn\n2,NS,Cy & Di\n",
     (OK, ["Berg, Anna & Lie, Bjørn", "Cy & Di"],
      [["line 2: more cells than the header", "read with it ('Berg, Anna & Lie, Bjørn')", "quote such names"]])),
    ("unquoted-comma-three-rows", H + "1,NS,Berg, Anna & Lie, Bjørn\n2,NS,Ås, Per & Øy, Kari\n3,NS,Cy & Di\n",
     (OK, ["Berg, Anna & Lie, Bjørn", "Ås, Per & Øy, Kari", "Cy & Di"], [["lines 2, 3: more cells"]])),
    ("unquoted-semicolon", "Pair;Direction;Names\n1;NS;Berg; Anna & Lie; Bjørn\n2;NS;Cy & Di\n",
     (OK, ["Berg; Anna & Lie; Bjørn", "Cy & Di"], [["unquoted ';'"]])),
    ("unquoted-comma-names-not-last", "Pair,Names,Direction\n1,Berg, Anna & Lie, Bjørn,NS\n",
     (FAILS, ValidationError, "2", ["names: 5 cells but the header has 3", "quote the names"])),
    ("unquoted-comma-player-columns", "Pair,Player 1,Player 2\n1,Berg, Anna,Lie, Bjørn\n",
     (FAILS, ValidationError, "2", ["5 cells but the header has 3", "quote the names"])),
    ("stray-cp1252-byte-in-utf8", H.encode() + "1,NS,Anna Berg & Bjørn Lie\n2,NS,Ren".encode() + b"\xe9"
     + " Dubois & Åse Ås\n".encode(),
     (OK, ["Anna Berg & Bjørn Lie", "René Dubois & Åse Ås"],
      [["1 byte(s) are not UTF-8 in a file that is otherwise UTF-8", "line 3: 0xE9 read as 'é'", "re-save"]])),
    ("four-stray-bytes", H.encode() + "1,NS,Bjørn\n".encode() + b"2,NS,Andr\xe9 & Z\xf6e\n3,NS,M\xfcller & N\xe8ve\n",
     (OK, ["Bjørn", "André & Zöe", "Müller & Nève"], [["4 byte(s) are not UTF-8", "and 1 more"]])),
    ("whole-file-cp1252", (H + "1,NS,André & Zöe\n2,NS,Bjørn Ås\n").encode("cp1252"),
     (OK, ["André & Zöe", "Bjørn Ås"], [])),
    ("newline-in-quoted-name", H + '1,NS,"Berg &\nLie"\n2,NS,Cy & Di\n',
     (OK, ["Berg & Lie", "Cy & Di"], [["line 2: a line break or control character in the names is read as a space"]])),
    ("crlf-in-quoted-name", H + '1,NS,"Berg &\r\nLie"\r\n2,NS,Cy & Di\r\n', (OK, ["Berg & Lie", "Cy & Di"], [["line 2"]])),
    ("control-character", H + "1,NS,Ann\x07 & Bob\x0b\n", (OK, ["Ann & Bob"], [["line 2: a line break or control"]])),
    ("unbalanced-quote-line-6-of-338", many(338, broken=6),
     (FAILS, ParseError, 6, ["a quoted cell opened on line 6 runs to line 339", "unbalanced quote"])),
    ("unbalanced-quote-closed-next-row", H + '1,NS,A\n2,NS,"Berg & Lie\n3,NS,Olsen" & Aas\n',
     (FAILS, ParseError, 3, ["a quoted cell opened on line 3 runs to line 4"])),
    ("unbalanced-quote-last-row", H + '1,NS,A\n2,NS,"Olsen & Aas\n', (OK, ["A", "Olsen & Aas"], [])),
    ("header-only", H, (FAILS, ParseError, 1, ["the names list has a header but no pairs below it"])),
    ("empty", "", (FAILS, ParseError, 1, ["the names file is empty"])),
    ("blank-lines", "\n \n\n", (FAILS, ParseError, 1, ["the names file is empty"])),
    ("utf8-bom", b"\xef\xbb\xbf" + (H + "1,NS,Åse\n").encode(), (OK, ["Åse"], [])),
    ("double-bom", b"\xef\xbb\xbf\xef\xbb\xbf" + (H + "1,NS,Åse\n").encode(), (OK, ["Åse"], [])),
    ("utf16-bom", (H + "1,NS,Åse & Øyvind\n").encode("utf-16"), (OK, ["Åse & Øyvind"], [])),
    ("nul-in-the-middle", (H + "1,NS,A\n" * 600).encode() + b"2,NS,B\x00C\n",
     (FAILS, ParseError, 602, ["a NUL byte (0x00)", "damaged"])),
    ("bad-pair-and-direction", H + "x,NS,A\n2,SN,B\n",
     (FAILS, ValidationError, "2", ["2 problem(s)", "'x' is not a pair number", "'SN' is not a direction"])),
    ("png-as-csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200),
     (FAILS, ParseError, None, ["this is a PNG image, not text"])),
    ("cell-over-the-csv-limit", H + "1,NS," + "A" * 200_000 + "\n", (OK, ["A" * 200_000], [])),
]


@pytest.mark.parametrize("content, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_names_list_has_an_exact_outcome(tmp_path, content, expected):
    path = tmp_path / "names.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    notes: list[dict] = []
    if expected[0] == OK:
        frame = read_names(path, notes=notes)
        assert frame["names"].tolist() == expected[1]
        assert len(notes) == len(expected[2]), [n["message"] for n in notes]
        for note, words in zip(notes, expected[2]):
            assert note["source"] == "names.csv"
            for word in words:
                assert word in note["message"], (word, note["message"])
    else:
        kind, line, words = expected[1:]
        with pytest.raises(kind) as info:
            read_names(path, notes=notes)
        text = str(info.value)
        where = "names.csv:" if line is None else f"names.csv:{line}:"
        assert where in text, text
        for word in words:
            assert word in text, (word, text)


def test_an_unbalanced_quote_is_one_problem_at_its_line_not_one_per_pair(tmp_path):
    """Before: the quote swallowed the list and 338 'pair N is not in names.csv' followed."""
    names = tmp_path / "names.csv"
    names.write_text(many(338, broken=6), encoding="utf-8")
    with pytest.raises(ParseError) as info:
        read_inputs([SAMPLE / "club-evening-travellers.csv"], Options(read=ReadOptions(names=(str(names),))))
    assert str(info.value) == ("names.csv:6: a quoted cell opened on line 6 runs to line 339: check line 6 for an "
                               "unbalanced quote (\")")


def test_the_sample_list_reads_with_no_note():
    notes: list[dict] = []
    frame = read_names(SAMPLE / "club-evening-names.csv", notes=notes)
    assert len(frame) == 26 and notes == []
    assert frame["names"].iloc[0] == "Anna Berg & Bjørn Lie"


def test_a_names_list_in_an_encoding_it_does_not_fit_names_the_line(tmp_path):
    """It was answered without a line (the travellers reader already said it; now every reader does)."""
    from bridgeproc.io.sheets.names import read_names

    path = tmp_path / "names.csv"
    path.write_bytes("Pair,Player 1,Player 2\n1,Ann,Bob\n2,Bjørn,Cy\n".encode("utf-8"))
    with pytest.raises(ParseError) as caught:
        read_names(path, encoding="ascii")
    assert str(caught.value) == ("names.csv:3: byte 0xc3 is not valid ascii; re-save the file as ascii, or leave out "
                                 "--encoding to detect the encoding")
