"""Byte-mutation fuzzing of the XLSX reader, with a fixed seed: at the zip level (bytes of the file
flipped, cut, repeated) and at the XML level (sheet1.xml mutated inside a valid zip). Every outcome
through ``pipeline.read.read_inputs`` is accepted or a ParseError naming the file, never another
exception (the issue saw 258 tracebacks in 400 such mutations)."""
import collections
import random
import zipfile

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.pipeline.inputs import read_inputs
from tests.conftest import examples, workbook

SEED = 15
ZIP_MUTATIONS = 200
XML_MUTATIONS = 200
#: Bytes an XML mutation inserts: markup, entities, references far away, other cell types.
TOKENS = [b"<", b">", b"&", b'"', b"</c>", b"<row r=\"3\">", b"<!DOCTYPE x [<!ENTITY e \"e\">]>", b"&e;", b"&amp;",
          b'r="XFD1048576"', b'r="A0"', b't="e"', b't="b"', b't="s"', b"<v>#REF!</v>", b"<f>SUM(A1:A2)</f>",
          b"<v>1e308</v>", b"<v>-0</v>", b"\x00", b"\xff\xfe", b"\xc3\x28", "é".encode(), b"<mergeCell ref=\"A1:B2\"/>"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    path = workbook(tmp_path_factory.mktemp("fuzz") / "base.xlsx", {
        "Results": [["Board", "NS", "EW", "Contract", "Declarer", "Result", "Lead"],
                    [1, 1, 2, "4S", "N", "=", "HK"], [1, 3, 4, "3NT", "S", "+1", "S2"],
                    [2, 1, 4, "2H", "E", "-1", "CA"], [2, 3, 2, "PASS", None, None, None]],
        "Names": [["Pair", "Names"], [1, "Anna Berg & Bjørn Lie"], [2, "Carla Fossum & David Olsen"]],
    }, merges={"Results": []})
    with zipfile.ZipFile(path) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    return path.read_bytes(), parts


def _outcome(path) -> str:
    try:
        read_inputs([path])
    except ParseError as exc:
        assert exc.source == path.name, exc
        return "ParseError"
    return "accepted"


def _mutate(rng: random.Random, data: bytes, tokens: list[bytes]) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 5, 8])):
        kind = rng.randrange(5)
        at = rng.randrange(len(out) or 1)
        if kind == 0:  # flip one byte
            if out:
                out[at] = rng.randrange(256)
        elif kind == 1:  # delete a span
            del out[at:at + rng.randrange(1, 64)]
        elif kind == 2:  # insert a token
            out[at:at] = rng.choice(tokens)
        elif kind == 3:  # repeat a span
            out[at:at] = out[at:at + rng.randrange(1, 256)]
        else:  # cut the rest
            del out[max(at, 1):]
    return bytes(out)


def _run(tmp_path, files) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for i, data in enumerate(files):
        path = tmp_path / f"m{i}.xlsx"
        path.write_bytes(data)
        counts[_outcome(path)] += 1
    return counts


def test_zip_level_mutations(tmp_path, base):
    data, _ = base
    rng = random.Random(SEED)
    count = examples(ZIP_MUTATIONS)
    counts = _run(tmp_path, (_mutate(rng, data, [b"PK\x03\x04", b"PK\x01\x02", b"\x00" * 4]) for _ in range(count)))
    print(f"zip-level mutations: {dict(counts)}")
    assert sum(counts.values()) == count and set(counts) <= {"accepted", "ParseError"}
    assert counts["ParseError"] > 0


def test_xml_level_mutations(tmp_path, base):
    _, parts = base
    rng = random.Random(SEED)
    count = examples(XML_MUTATIONS)

    def files():
        for _ in range(count):
            mutated = dict(parts, **{"xl/worksheets/sheet1.xml": _mutate(rng, parts["xl/worksheets/sheet1.xml"], TOKENS)})
            path = tmp_path / "zip.xlsx"
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
                for name, part in mutated.items():
                    package.writestr(name, part)
            yield path.read_bytes()

    counts = _run(tmp_path, files())
    print(f"XML-level mutations: {dict(counts)}")
    assert sum(counts.values()) == count and set(counts) <= {"accepted", "ParseError"}
    assert counts["ParseError"] > 0 and counts["accepted"] > 0
