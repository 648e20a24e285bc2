"""Hostile USEBIO files (issue 15): every variant read with a note, or refused with its XML line.

Results outside the expected structure (a ``BOARD`` in an unknown wrapper, a misspelt
``TRAVELLER_LINE``, a line directly under ``EVENT``), a ``SCORE`` that is not a number,
undefined and external entities, billion laughs, unknown elements: each an exact outcome.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.usebio.reader import parse_usebio, read_usebio
from bridgeproc.validate.results import validate_results

BASE = (Path(__file__).parent.parent / "data" / "usebio" / "pairs_sections.xml").read_text(encoding="utf-8")
DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
LINE = ("<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3</EW_PAIR_NUMBER>"
        "<CONTRACT>1NT</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>7</TRICKS><SCORE>90</SCORE>{extra}</TRAVELLER_LINE>")
LAUGHS = ('<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa">'
          + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 10}">' for p, n in zip("abcdefgh", "bcdefghi"))
          + ']><USEBIO><EVENT><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLAYER><PLAYER_NAME>&i;</PLAYER_NAME>'
          "</PLAYER></PAIR></PARTICIPANTS></EVENT></USEBIO>")
QUADRATIC = ('<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "' + "a" * 50_000 + '">]><USEBIO><EVENT><PARTICIPANTS>'
             "<PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLAYER><PLAYER_NAME>" + "&a;" * 2_000 + "</PLAYER_NAME></PLAYER></PAIR>"
             "</PARTICIPANTS></EVENT></USEBIO>")


def edit(*pairs: tuple[str, str, int]):
    """A change of the base file: each (old, new, occurrence) replaces one occurrence (1 = the first)."""
    def apply(text: str) -> str:
        for old, new, nth in pairs:
            at = -1
            for _ in range(nth):
                at = text.index(old, at + 1)
            text = text[:at] + new + text[at + len(old):]
        return text
    return apply


def line_at(where: str, nth: int = 1, extra: str = "") -> tuple[str, str, int]:
    """Put a traveller line for board ``3`` just before ``where`` (its ``nth`` occurrence), on the same line."""
    return (where, LINE.format(extra=extra) + where, nth)


def external(system_id: str, element: str = "PLAYER_NAME", text: str = "Ann North"):
    return edit((DOCTYPE, f'<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "{system_id}">]>', 1),
                (text, text.replace(" ", " &x; ") if element == "PLAYER_NAME" else "&x;", 1))


OK, FAILS = "ok", "fails"
# (id, change of the base file (or whole bytes), expected):
#   (OK, results, [words of each note, in order])   or   (FAILS, error type, line, [words])
CASES = [
    ("board-in-unknown-wrapper", edit(("<BOARD>", "<GROUP><BOARD>", 1), ("</BOARD>", "</BOARD></GROUP>", 1)),
     (OK, 4, [["<BOARD> inside <GROUP>", "read as a board of its section", "line 53"]])),
    ("board-in-two-wrappers", edit(("<BOARD>", "<X><Y><BOARD>", 2), ("</BOARD>", "</BOARD></Y></X>", 2)),
     (OK, 4, [["<BOARD> inside <Y>", "line 83"]])),
    ("section-in-unknown-wrapper", edit(('<SECTION SECTION_ID="A">', '<PART><SECTION SECTION_ID="A">', 1),
                                        ("</SECTION>", "</SECTION></PART>", 1)),
     (OK, 4, [["<BOARD> inside <PART>", "2 times, first on line 53"]])),
    ("misspelt-one-line", edit(("<TRAVELLER_LINE>", "<TRAVELER_LINE>", 1), ("</TRAVELLER_LINE>", "</TRAVELER_LINE>", 1)),
     (OK, 4, [["result line written <TRAVELER_LINE>", "read as a traveller line", "line 60"]])),
    ("misspelt-every-line", lambda t: t.replace("TRAVELLER_LINE>", "TRAVELER_LINE>"),
     (OK, 4, [["<TRAVELER_LINE>", "4 times, first on line 60"]])),
    ("misspelt-two-ways", edit(("<TRAVELLER_LINE>", "<TRAVELLERLINE>", 1), ("</TRAVELLER_LINE>", "</TRAVELLERLINE>", 1),
                               ("<TRAVELLER_LINE>", "<RESULT_LINE>", 3), ("</TRAVELLER_LINE>", "</RESULT_LINE>", 3)),
     (OK, 4, [["<TRAVELLERLINE>", "line 60"], ["<RESULT_LINE>", "line 98"]])),
    ("lower-case-tags-are-the-same", lambda t: t.replace("TRAVELLER_LINE>", "traveller_line>"), (OK, 4, [])),
    ("lines-in-a-wrapper", edit(("<TRAVELLER_LINE>", "<LINES><TRAVELLER_LINE>", 1),
                                ("</TRAVELLER_LINE>", "</TRAVELLER_LINE></LINES>", 2)),
     (OK, 4, [["<TRAVELLER_LINE> inside an element USEBIO does not have", "2 times, first on line 60"]])),
    ("line-under-event-without-board", edit(line_at("  </EVENT>")),
     (FAILS, ValidationError, "112", ["<TRAVELLER_LINE> directly inside <EVENT>", "its board is unknown",
                                      "move it into its <BOARD>"])),
    ("misspelt-line-under-event", edit((("  </EVENT>"), LINE.format(extra="").replace("TRAVELLER_LINE", "TRAVELER_LINE")
                                        + "  </EVENT>", 1)),
     (FAILS, ValidationError, "112", ["<TRAVELER_LINE> directly inside <EVENT>", "its board is unknown"])),
    ("two-lines-under-session", edit(line_at("    </SESSION>"), line_at("  </EVENT>")),
     (FAILS, ValidationError, "111", ["2 problem(s)", "directly inside <SESSION>", "directly inside <EVENT>"])),
    ("line-under-event-with-board-number", edit(line_at("  </EVENT>", extra="<BOARD_NUMBER>2</BOARD_NUMBER>")),
     (OK, 5, [["result line not directly in a <BOARD>", "that its <BOARD_NUMBER> names", "line 112"]])),
    ("line-under-section-with-board-number", edit(line_at("      </SECTION>", extra="<BOARD_NUMBER>1</BOARD_NUMBER>")),
     (OK, 5, [["not directly in a <BOARD>", "line 110"]])),
    ("line-inside-a-hand", edit(("</HAND>", LINE.format(extra="") + "</HAND>", 1)),
     (OK, 5, [["not directly in a <BOARD>", "read as a line of the board around it", "line 56"]])),
    ("board-outside-every-event", edit(("</USEBIO>", "<BOARD><BOARD_NUMBER>3</BOARD_NUMBER>"
                                        + LINE.format(extra="") + "</BOARD></USEBIO>", 1)),
     (OK, 5, [["<BOARD> outside every <EVENT>", "line 113"]])),
    ("line-inside-handset", edit(("</USEBIO>", "<HANDSET><BOARD><BOARD_NUMBER>3</BOARD_NUMBER>"
                                  + LINE.format(extra="") + "</BOARD></HANDSET></USEBIO>", 1)),
     (OK, 5, [["result line inside <HANDSET>", "line 113"]])),
    ("score-not-a-number-is-kept", edit(("<SCORE>420</SCORE>", "<SCORE>-48O</SCORE>", 1)), (OK, 4, [])),
    ("artificial-score-with-a-contract", edit(("<SCORE>420</SCORE>", "<SCORE>AVE+</SCORE>", 1)),
     (OK, 4, [["a contract and an artificial <SCORE>", "'4S' and 'AVE+'", "the contract is read"]])),
    ("artificial-score-without-contract", edit(("<CONTRACT>4S</CONTRACT>", "<CONTRACT>-</CONTRACT>", 1),
                                              ("<SCORE>420</SCORE>", "<SCORE>AVE+</SCORE>", 1)), (OK, 4, [])),
    ("html-entity-nbsp", edit(("Ann North", "Ann&nbsp;North", 1)),
     (OK, 4, [["&nbsp; in <PLAYER_NAME>", "read as the HTML character '\\xa0'"]])),
    ("html-entity-eacute", edit(("Eve East", "&Eacute;ve East", 1)),
     (OK, 4, [["&Eacute; in <PLAYER_NAME>", "read as the HTML character 'É'"]])),
    ("unknown-entity-kept", edit(("Ann North", "Ann &foo; North", 1)),
     (OK, 4, [["&foo; in <PLAYER_NAME>", "is not defined in the file: kept as written"]])),
    ("unknown-entity-twice", edit(("Ann North", "Ann &foo; North", 1), ("Bob Bell", "Bob &foo; Bell", 1)),
     (OK, 4, [["&foo; in <PLAYER_NAME> (2 times)"]])),
    ("unknown-entity-in-attribute", edit(('SESSION_ID="1"', 'SESSION_ID="1&foo;"', 1)),
     (OK, 4, [["&foo; in <SESSION SESSION_ID>", "kept as written"]])),
    ("undefined-entity-without-dtd", edit((DOCTYPE, "", 1), ("Ann North", "Ann &foo; North", 1)),
     (FAILS, ParseError, 22, ["not well-formed XML (undefined entity"])),
    ("external-entity-file", external("file:///etc/passwd"),
     (FAILS, ParseError, 22, ["<PLAYER_NAME> refers to the external entity &x; (file:///etc/passwd)",
                              "never reads a file"])),
    ("external-entity-http", external("http://example.com/names.txt"),
     (FAILS, ParseError, 22, ["<PLAYER_NAME> refers to the external entity &x; (http://example.com/names.txt)"])),
    ("external-entity-in-club-name", external("names.txt", "CLUB_NAME", "Hand-made Bridge Club"),
     (FAILS, ParseError, 5, ["<CLUB_NAME> refers to the external entity &x;"])),
    ("external-parameter-entity-not-fetched",
     edit((DOCTYPE, '<!DOCTYPE USEBIO [<!ENTITY % p SYSTEM "http://example.com/p.dtd"> %p;]>', 1),
          ("Ann North", "Ann &y; North", 1)),
     (OK, 4, [["&y; in <PLAYER_NAME>", "kept as written"]])),
    ("internal-entity-declared", edit((DOCTYPE, '<!DOCTYPE USEBIO [<!ENTITY club "Bridge Club">]>', 1),
                                      ("Hand-made Bridge Club", "Hand-made &club;", 1)), (OK, 4, [])),
    ("billion-laughs", lambda t: LAUGHS,
     (FAILS, ParseError, 1, ["not well-formed XML (limit on input amplification factor"])),
    ("quadratic-blowup", lambda t: QUADRATIC,
     (FAILS, ParseError, 1, ["not well-formed XML (limit on input amplification factor"])),
    ("cut-in-half", lambda t: t[: len(t) // 2], (FAILS, ParseError, 58, ["not well-formed XML (unclosed token"])),
    ("unknown-elements-one-note", edit(("    <WINNER_TYPE>", "    <FOO>x</FOO><WINNER_TYPE>", 1),
                                       ("<PLACE>1</PLACE>", "<PLACE>1</PLACE><BAR/>", 1),
                                       ("<PLACE>2</PLACE>", "<PLACE>2</PLACE><BAR/>", 1)),
     (OK, 4, [["elements that are not USEBIO were not read", "<FOO> (line 12)", "<BAR> (2 times, first on line 20)"]])),
    ("unknown-element-in-a-line", edit(("<EW_MATCH_POINTS>0</EW_MATCH_POINTS>",
                                        "<EW_MATCH_POINTS>0</EW_MATCH_POINTS><NS_VP>3</NS_VP>", 1)),
     (OK, 4, [["were not read: <NS_VP> (line 69)"]])),
    ("pairs-in-a-wrapper", edit(("<PARTICIPANTS>", "<PARTICIPANTS><NS_PAIRS>", 1),
                                ("</PARTICIPANTS>", "</NS_PAIRS></PARTICIPANTS>", 1)),
     (OK, 4, [["<PAIR> inside <NS_PAIRS>", "read as a participant of its section", "4 times, first on line 16"]])),
    ("empty-xml", lambda t: "", (FAILS, ParseError, 1, ["not well-formed XML (no element found"])),
    ("only-a-declaration", lambda t: '<?xml version="1.0"?>\n',
     (FAILS, ParseError, 2, ["not well-formed XML (no element found"])),
    ("nul-byte-inside", edit(("Ann North", "Ann\x00North", 1)), (FAILS, ParseError, 22, ["not well-formed XML (not well-formed (invalid token)"])),
    ("png-renamed-xml", lambda t: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
     (FAILS, ParseError, 1, ["not well-formed XML"])),
    ("utf16-with-bom", lambda t: t.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"), (OK, 4, [])),
    ("utf8-with-bom", lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"), (OK, 4, [])),
    # 8 MB of empty elements took 917 MB: refused before a node is built, in a fraction of a second
    ("two-million-empty-elements", lambda t: t.replace("</EVENT>", "<A/>" * 2_000_000 + "</EVENT>").encode("utf-8"),
     (FAILS, ParseError, 1, ["holds more than 1,000,000 XML elements", "export the sessions as separate files"])),
]


@pytest.mark.parametrize("change, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_usebio_has_an_exact_outcome(change, expected):
    data = change(BASE)
    if expected[0] == OK:
        read = parse_usebio(data, "hostile.xml")
        assert len(read.results) == expected[1]
        assert len(read.notes) == len(expected[2]), [n["message"] for n in read.notes]
        for note, words in zip(read.notes, expected[2]):
            for word in words:
                assert word in note["message"], (word, note["message"])
    else:
        kind, line, words = expected[1:]
        with pytest.raises(kind) as info:
            parse_usebio(data, "hostile.xml")
        text = str(info.value)
        assert f"hostile.xml:{line}:" in text, text
        for word in words:
            assert word in text, (word, text)


def test_the_catalogue_is_large_enough():
    assert len(CASES) >= 40


def test_structure_variants_read_the_same_results_as_the_base():
    base = parse_usebio(BASE, "hostile.xml").results
    for name in ("board-in-unknown-wrapper", "section-in-unknown-wrapper", "misspelt-every-line", "lines-in-a-wrapper"):
        change = next(c[1] for c in CASES if c[0] == name)
        read = parse_usebio(change(BASE), "hostile.xml").results
        columns = ["section", "board", "ns", "ew", "contract", "declarer", "result", "score"]
        assert read[columns].astype(str).values.tolist() == base[columns].astype(str).values.tolist(), name


def test_a_line_read_by_its_board_number_has_that_board_and_section():
    change = next(c[1] for c in CASES if c[0] == "line-under-section-with-board-number")
    read = parse_usebio(change(BASE), "hostile.xml").results
    stray = read[read["line"] == 110]
    assert stray[["section", "board", "ns", "ew", "contract", "score"]].values.tolist() == [
        ["A", "1", "3", "3", "1NT", "90"]]


def test_entities_give_the_text_a_name_really_has():
    for name, expected in (("html-entity-nbsp", "Ann\xa0North & Sam South"), ("unknown-entity-kept",
                                                                            "Ann &foo; North & Sam South")):
        change = next(c[1] for c in CASES if c[0] == name)
        assert parse_usebio(change(BASE), "hostile.xml").names["names"].iloc[0] == expected


@pytest.mark.parametrize("score", ["-48O", "42O", "4 20", "--100x", "1e3"])
def test_a_score_that_is_not_a_number_is_a_problem_with_its_line(score):
    read = parse_usebio(BASE.replace("<SCORE>420</SCORE>", f"<SCORE>{score}</SCORE>"), "hostile.xml")
    with pytest.raises(ValidationError) as info:
        validate_results(read.results)
    assert str(info.value).splitlines()[1].startswith("hostile.xml:60: score: not a score")


def test_read_usebio_from_a_file_names_it(tmp_path):
    path = tmp_path / "cut.xml"
    path.write_bytes(BASE.encode()[:2000])
    with pytest.raises(ParseError, match=r"^cut\.xml:\d+: not well-formed XML"):
        read_usebio(path)


def test_the_element_bound_holds_while_parsing_too(monkeypatch):
    """Text (not bytes) is not counted beforehand: the parser stops at the element past the bound."""
    from bridgeproc.io.usebio import xml_tree

    monkeypatch.setattr(xml_tree, "MAX_ELEMENTS", 30)
    with pytest.raises(ParseError, match=r"hostile\.xml:\d+: the file holds more than 30 XML elements") as info:
        parse_usebio(BASE, "hostile.xml")
    line = int(str(info.value).split(":")[1])
    assert 1 < line < len(BASE.splitlines())
