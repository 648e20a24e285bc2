"""The whole job as one library call: read inputs, check, score, write outputs."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .errors import BridgeprocError, ValidationError
from .io.scored_csv import write_scored_csv
from .io.travellers import read_travellers_csv
from .movement import PairNumbering
from .notation import ResultStyle
from .validate import build_results


@dataclass(frozen=True)
class Options:
    """Conventions and switches for one run (each has a documented default)."""

    result_style: ResultStyle = "auto"
    check_scores: bool = True
    encoding: str | None = None
    pair_numbering: PairNumbering = "auto"


@dataclass
class Session:
    """What a run produced: the frames, for the library user and the writers."""

    results: pd.DataFrame
    options: Options = field(default_factory=Options)


WRITERS = {".csv": write_scored_csv}


def load_results(inputs: list[str | os.PathLike], options: Options = Options()) -> pd.DataFrame:
    """Read every input file and return the checked, scored ``results`` frame."""
    raws = []
    for path in inputs:
        suffix = Path(path).suffix.lower()
        if suffix in (".csv", ".txt", ".tsv"):
            raws.append(read_travellers_csv(path, options.encoding))
        else:
            raise BridgeprocError(f"{Path(path).name}: cannot read {suffix or 'files without an extension'} yet; give a traveller .csv")
    raw = pd.concat(raws, ignore_index=True)
    return build_results(raw, options.result_style, options.check_scores, options.pair_numbering)


def process_session(inputs: list[str | os.PathLike], outputs: list[str | os.PathLike] = (), options: Options = Options()) -> Session:
    """Load, check and score ``inputs``; write each of ``outputs`` by its extension.

    Nothing is written unless every input is clean (ValidationError lists all problems).
    """
    for out in outputs:
        if Path(out).suffix.lower() not in WRITERS:
            raise BridgeprocError(f"{out}: unknown output type; use one of {', '.join(WRITERS)}")
    session = Session(results=load_results(list(inputs), options), options=options)
    for out in outputs:
        WRITERS[Path(out).suffix.lower()](session.results, out)
    return session


__all__ = ["Options", "Session", "process_session", "load_results", "ValidationError"]
