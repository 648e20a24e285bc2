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
