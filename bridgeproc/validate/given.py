"""The double-dummy tables and OptimumScore values a file gives, checked before they are reused: some
exports write them wrong (the "1 below 7" convention, counts the deal makes impossible)."""
from __future__ import annotations

import pandas as pd

from bridgeproc.analysis.dd import ONE_BELOW_SEVEN, implausible_tables, without_tables
from bridgeproc.analysis.par import optimum_score_problem


def _board_list(boards: list[int]) -> str:
    """``1-3, 7, 9-10``."""
    spans: list[list[int]] = []
    for b in sorted(set(boards)):
        if spans and b == spans[-1][1] + 1:
            spans[-1][1] = b
        else:
            spans.append([b, b])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)


def check_given(boards: pd.DataFrame, source: str, creator: str | None = None,
                solve: bool = True) -> tuple[pd.DataFrame, list[dict]]:
    """Check the double-dummy tables and OptimumScore values a file gives before they are reused.

    A table :func:`bridgeproc.analysis.dd.implausible_tables` rejects (the "1 below 7" export convention, counts the deal
    makes impossible, two tables that disagree) is blanked with the board's optimum score and
    contract, so that the deal is solved with DDS; an ``OptimumScore`` that
    :func:`optimum_score_problem` rejects is blanked too. ``creator`` names the program that wrote the
    file (its ``%Creator``), for the note; ``solve`` says whether the run solves double dummy.

    Returns the checked boards and one note per cause (problem rows: source, line, column, value,
    message); the notes say what was not used and why.
    """
    notes: list[dict] = []
    if not len(boards):
        return boards, notes
    then = "they are solved again with DDS" if solve else "they are left out (double dummy is not solved: --no-dd)"
    reasons = implausible_tables(boards)
    bad = reasons.notna()
    numbers = boards["board"].tolist()
    quirk = bad & (reasons == ONE_BELOW_SEVEN)
    if quirk.any():
        who = f"as {creator} exports them" if creator else "as BridgeWebs and Dealmaster Pro exports do"
        listed = [numbers[i] for i in quirk.to_numpy().nonzero()[0]]
        notes.append({"source": source, "column": "DoubleDummyTricks", "value": _board_list(listed),
                      "message": f"the double-dummy tables of {len(listed)} board{'s' if len(listed) > 1 else ''} "
                                 f"({_board_list(listed)}) are not used: {ONE_BELOW_SEVEN} ({who}); {then}"})
    lines = boards["line"].tolist() if "line" in boards else [""] * len(boards)
    for i in (bad & ~quirk).to_numpy().nonzero()[0]:
        notes.append({"source": source, "line": str(lines[i]), "column": "DoubleDummyTricks", "value": "",
                      "message": f"board {numbers[i]}: the double-dummy table is not used: {reasons.iloc[i]}; "
                                 f"{then.replace('they are', 'it is')}"})
    boards = without_tables(boards, bad)
    if "optimum_score" in boards:
        texts = boards["optimum_score"].astype("object").tolist()
        problems = [optimum_score_problem(t) if isinstance(t, str) else None for t in texts]
        for i, problem in enumerate(problems):
            if problem is not None:
                notes.append({"source": source, "line": str(lines[i]), "column": "OptimumScore", "value": texts[i],
                              "message": f"board {numbers[i]}: OptimumScore {texts[i]!r} {problem}; it is not copied"
                                         + (" (par is worked out from the double-dummy table)" if solve else "")})
        wrong = pd.Series([p is not None for p in problems], index=boards.index)
        if wrong.any():
            boards = boards.assign(optimum_score=boards["optimum_score"].mask(wrong))
    return boards, notes
