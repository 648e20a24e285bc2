"""Byte mutations of the real Bridgemate .bws: every outcome is a read or a bridgeproc error, never a traceback."""
from __future__ import annotations

import collections
import random

import pytest

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.bws import read_bws
from tests.conftest import REALDATA


@pytest.mark.slow
def test_mutated_bws_files_are_read_or_refused(tmp_path):
    data = (REALDATA / "bridgemate-sample.bws").read_bytes()
    rng = random.Random(15)
    outcomes: collections.Counter[str] = collections.Counter()
    for i in range(40):
        mutated = bytearray(data)
        if i % 4 == 0:
            mutated = mutated[:rng.randrange(len(mutated))]  # cut short, as a copy interrupted leaves it
        for _ in range(rng.randint(1, 16)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        path = tmp_path / f"m{i}.bws"
        path.write_bytes(bytes(mutated))
        try:
            bws = read_bws(path)
        except BridgeprocError as exc:
            outcomes[type(exc).__name__] += 1
            assert "m{}.bws".format(i) in str(exc)  # the file is named
            continue
        outcomes["read"] += 1
        assert len(bws.results) <= 63 + len(bws.dropped if bws.dropped is not None else [])
    assert sum(outcomes.values()) == 40 and outcomes["read"] > 0 and set(outcomes) <= {"read", "ParseError"}
