"""Byte-mutation fuzzing of the USEBIO, names-list and CSV traveller readers (issue 15).

Each real file is mutated with a fixed seed (a byte changed, a hostile piece inserted, a run
deleted or doubled, the file cut): every outcome is a result or a bridgeproc ParseError /
ValidationError naming the file, never another exception. An accepted CSV traveller or names
list never loses a row without a note: rows in = rows out + rows noted.
"""
from __future__ import annotations

import csv
import io
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.names import read_names
from bridgeproc.io.sheets.travellers import sniff_delimiter
from bridgeproc.io.text import csv_field_limit, decode
from bridgeproc.io.usebio.reader import parse_usebio

ROOT = Path(__file__).parent.parent.parent
USEBIO = ROOT / "tests" / "data" / "usebio" / "pairs_sections.xml"
COMPSCORE = ROOT / "tests" / "data" / "realdata" / "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
NAMES = ROOT / "sample_data" / "club-evening-names.csv"
TRAVELLERS = ROOT / "sample_data" / "club-evening-travellers.csv"
MUTATIONS = 150

XML_PIECES = [b"<", b">", b"&", b"&nbsp;", b"&bogus;", b"</BOARD>", b"<BOARD>", b"<TRAVELER_LINE>", b"</EVENT>",
              b"<SCORE>-48O</SCORE>", b"<GROUP>", b"]]>", b"<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>",
              b"&e;", b"\xff", b"\xe9", b"\x00"]
CSV_PIECES = [b'"', b'""', b",", b";", b"\t", b"\n", b"\r", b"\r\n", b"\x00", b"\xff", b"\xe9", b"\xef\xbb\xbf",
              b"=cmd|' /C calc'!A0", b"1,NS,Berg, Anna & Lie, Bj\xc3\xb8rn\n", b"A" * 140_000, b"\x89PNG\r\n\x1a\n"]


def mutate(data: bytes, rng: random.Random, pieces: list[bytes]) -> bytes:
    """One mutation of ``data``: change a byte, insert a piece, delete or double a run, or cut the file."""
    at = rng.randrange(len(data))
    kind = rng.randrange(5)
    if kind == 0:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if kind == 1:
        return data[:at] + rng.choice(pieces) + data[at:]
    if kind == 2:
        return data[:at] + data[at + rng.randrange(1, 60):]
    if kind == 3:
        run = data[at:at + rng.randrange(1, 200)]
        return data[:at] + run + run + data[at + len(run):]
    return data[:at]


def outcome(read, name: str) -> tuple[str, object]:
    """("accepted", result), ("ParseError"/"ValidationError", None); any other exception fails the test."""
    try:
        return "accepted", read()
    except (ParseError, ValidationError) as exc:
        assert str(exc).startswith((f"{name}:", f"{name} ", "1 problem", *(f"{n} problem" for n in range(2, 999)))), exc
        if isinstance(exc, ValidationError):
            assert set(exc.problems["source"]) == {name}, exc.problems
        return type(exc).__name__, None


def records(text: str) -> list[tuple[int, list[str]]]:
    """(first line, cells) of each non-blank CSV record, by the csv module alone."""
    delimiter = sniff_delimiter([line for line in text.splitlines() if line.strip()][:10])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    out, previous = [], 0
    with csv_field_limit(len(text)):
        for row in reader:
            start, previous = previous + 1, reader.line_num
            if any(cell.strip() for cell in row):
                out.append((start, row))
    return out


def lines_named(message: str) -> int:
    """How many lines a grouped note names: ``lines 2, 5 and 3 more: ...`` -> 5."""
    head = message.split(":")[0]
    more = re.search(r" and (\d+) more$", head)
    listed = re.sub(r" and \d+ more$", "", head)
    return len(re.findall(r"\d+", listed)) + (int(more.group(1)) if more else 0)


def text_of(data: bytes) -> str:
    return decode(data.rstrip(b"\x00"), "fuzz")


@pytest.mark.parametrize("path, seed", [(USEBIO, 1501), pytest.param(COMPSCORE, 1502, marks=pytest.mark.slow)],
                         ids=["hand-made", "compscore"])
def test_mutated_usebio_is_read_or_refused_with_its_file(path, seed):
    rng = random.Random(seed)
    data = path.read_bytes()
    counts: Counter = Counter()
    for _ in range(MUTATIONS):
        kind, read = outcome(lambda: parse_usebio(mutate(data, rng, XML_PIECES), "m.xml"), "m.xml")
        counts[kind] += 1
        if read is not None:
            assert read.results["line"].notna().all()
            assert all(note["source"] == "m.xml" for note in read.notes)
    assert sum(counts.values()) == MUTATIONS and counts["accepted"] and counts["ParseError"], counts


@pytest.mark.slow
def test_mutated_names_lists_lose_no_row_without_a_note(tmp_path):
    rng = random.Random(1503)
    data = NAMES.read_bytes()
    counts: Counter = Counter()
    path = tmp_path / "names.csv"
    for _ in range(MUTATIONS):
        mutated = mutate(data, rng, CSV_PIECES)
        path.write_bytes(mutated)
        notes: list[dict] = []
        kind, frame = outcome(lambda: read_names(path, notes=notes), "names.csv")
        counts[kind] += 1
        if frame is None:
            continue
        first = int(frame["line"].astype(int).min()) if len(frame) else 0
        rows_in = [start for start, _ in records(text_of(mutated)) if start >= first]
        noted = sum(lines_named(n["message"]) for n in notes if "listed again" in n["message"])
        assert len(rows_in) == len(frame) + noted, (rows_in, frame["line"].tolist(), notes)
    assert sum(counts.values()) == MUTATIONS and counts["accepted"], counts


@pytest.mark.slow
def test_mutated_travellers_lose_no_row_without_a_note(tmp_path):
    rng = random.Random(1504)
    data = TRAVELLERS.read_bytes()
    counts: Counter = Counter()
    path = tmp_path / "travellers.csv"
    for _ in range(MUTATIONS):
        mutated = mutate(data, rng, CSV_PIECES)
        path.write_bytes(mutated)
        notes: list[dict] = []
        kind, frame = outcome(lambda: read_travellers(path, notes=notes), "travellers.csv")
        counts[kind] += 1
        if frame is None:
            continue
        first = int(frame["line"].min())
        rows_in = [start for start, _ in records(text_of(mutated)) if start >= first]
        assert rows_in == frame["line"].tolist(), notes  # no note drops a row: rows out must be every row in
    assert sum(counts.values()) == MUTATIONS and counts["accepted"] and counts["ParseError"], counts


def test_a_quick_round_of_every_reader(tmp_path):
    """A few mutations of each reader for ``make quick`` (the slow tests run 150 each)."""
    rng = random.Random(1505)
    for _ in range(20):
        outcome(lambda: parse_usebio(mutate(USEBIO.read_bytes(), rng, XML_PIECES), "m.xml"), "m.xml")
        for source, reader in ((NAMES, read_names), (TRAVELLERS, read_travellers)):
            path = tmp_path / source.name
            path.write_bytes(mutate(source.read_bytes(), rng, CSV_PIECES))
            outcome(lambda: reader(path), source.name)
