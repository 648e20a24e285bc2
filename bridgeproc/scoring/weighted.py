"""Weighted scores (Law 12C1c): each part of a ``W:`` code scored on its board."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.vocabulary import seat_categorical, strain_categorical
from bridgeproc.core.weighted import parse_weighted, weighted_code
from bridgeproc.scoring.law77 import score


def score_weighted(results: pd.DataFrame, boards: pd.DataFrame | None = None) -> pd.DataFrame:
    """Write every part's NS score into the weighted codes of ``adjusted``.

    ``W:50% 4SN=; 50% 4SN-1`` on a board with NS vulnerable becomes
    ``W:50% 4SN= +620; 50% 4SN-1 -100``. Parts are scored with :func:`scoring.score`
    on the board's vulnerability (the hand record's when ``boards`` has ``vul``),
    once per distinct (code, board).

    Returns
    -------
    DataFrame
        A new frame: ``results`` with the weighted codes scored (unchanged when none).

    Raises
    ------
    ValueError
        When a ``W:`` code does not parse (validation reports such cells first).
    """
    adjusted = results["adjusted"].astype("string")
    mask = adjusted.str.startswith("W:").to_numpy(dtype=bool, na_value=False)
    if not mask.any():
        return results
    pairs = pd.DataFrame({"code": adjusted[mask].to_numpy(dtype=object), "board": results["board"].to_numpy()[mask]})
    distinct = pairs.drop_duplicates(ignore_index=True)
    parsed = {}
    for code in distinct["code"].unique():
        answer = parse_weighted(code)
        if "error" in answer:
            raise ValueError(answer["error"])
        parsed[code] = answer["parts"]
    lengths = distinct["code"].map(lambda c: len(parsed[c])).to_numpy()
    parts = [p for code in distinct["code"] for p in parsed[code]]
    field = {name: np.array([p[name] for p in parts]) for name in ("level", "strain", "doubled", "declarer", "tricks")}
    played = field["level"] > 0
    long = pd.DataFrame({
        "board": np.repeat(distinct["board"].to_numpy(dtype=np.int64), lengths),
        "level": pd.array(field["level"], dtype="Int8"),
        "strain": strain_categorical(np.where(played, field["strain"], -1)),
        "doubled": pd.array(field["doubled"], dtype="Int8"),
        "declarer": seat_categorical(np.where(played, field["declarer"], -1)),
        "tricks": pd.array(field["tricks"], dtype="Int8"),
    })
    scores = score(long, boards)["score_ns"].to_numpy(dtype=np.int64)
    ends = np.cumsum(lengths)
    distinct["scored"] = [weighted_code(parsed[code], scores[end - n:end])
                          for code, n, end in zip(distinct["code"], lengths, ends)]
    scored = pairs.merge(distinct, on=["code", "board"], how="left")["scored"].to_numpy(dtype=object)
    new = adjusted.copy()
    new[mask] = scored
    return results.assign(adjusted=new)
