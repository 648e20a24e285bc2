"""build_session: computes once what a run needs."""
from __future__ import annotations

from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def test_pair_numbering_is_decided_once_per_run(monkeypatch):
    """The checks decide shared or per-direction numbering; ranking and the movement line reuse it."""
    import bridgeproc.core.pairs as pairs
    from bridgeproc.model import Options
    from bridgeproc.pipeline.run import build_session

    decided = []
    real = pairs._entries
    monkeypatch.setattr(pairs, "_entries", lambda results: decided.append(len(results)) or real(results))
    session = build_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"], Options(dd=False))
    assert len(decided) == 1
    assert session.numbering == "per-direction" and "pairs numbered per-direction" in session.movement  # a Mitchell
    # what was asked is kept (auto, as the archive stores it); what was decided is on the session
    assert (session.conventions.pair_numbering, session.decided.pair_numbering) == ("auto", "per-direction")
    assert session.decided.replace(pair_numbering="auto") == session.conventions


def test_hand_records_alone_give_the_hand_record_outputs_and_are_not_archived(tmp_path):
    """A Dealmaster Pro or BridgeComposer hand record with no results: deals, double dummy and par out."""
    import openpyxl

    from bridgeproc.io.pbn import read_pbn
    from bridgeproc.model import ArchiveOptions, Options
    from bridgeproc.pipeline.write import process_session
    from tests.conftest import REALDATA

    source = REALDATA / "bkp-cz-2022-10-19-handrecord-bridgecomposer.pbn"
    outputs = [tmp_path / "hands.xlsx", tmp_path / "hands.pbn"]
    session = process_session([source], [str(o) for o in outputs], Options(archive=ArchiveOptions(store=True), dd=False))
    assert len(session.results) == 0 and session.archived is None
    assert sorted(session.boards["board"]) == list(range(16, 31))
    assert "hand records only: 15 boards" in " ".join(session.notes["message"])
    assert openpyxl.load_workbook(outputs[0]).sheetnames == ["Hand records", "Conventions"]
    written = read_pbn(outputs[1])
    assert sorted(written.boards["board"]) == list(range(16, 31))
    assert list(written.boards.sort_values("board")["deal"]) == list(session.boards.sort_values("board")["deal"])


def test_inputs_with_neither_results_nor_deals_are_refused(tmp_path):
    import pytest

    from bridgeproc.errors import BridgeprocError
    from bridgeproc.model import Options
    from bridgeproc.pipeline.run import build_session

    empty_pbn = tmp_path / "empty.pbn"
    empty_pbn.write_text('[Event "x"]\n[Board "1"]\n', encoding="utf-8")
    with pytest.raises(BridgeprocError, match="no results and no deals"):
        build_session([empty_pbn], Options(dd=False))
