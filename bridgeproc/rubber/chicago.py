"""Chicago (four-deal bridge) score sheets, and the HCP-target ("Russian") Chicago in IMPs.

Input is a deal-by-deal sheet (``deal_sheet.read_sheet``; columns documented there).

Chicago (ACBL four-deal bridge; reference section 2.2)
    Four deals make one chicago; the dealer rotates clockwise from ``first_dealer``.
    Vulnerability: deal 1 neither side, deals 2 and 3 the dealer's side, deal 4 both
    (``cycle="dealer"``, ACBL standard) or, by the common agreement, deals 2 and 3
    the side that did not deal (``cycle="non-dealer"``; with North dealing first
    that is NS on deal 2 and EW on deal 3, as duplicate boards 1-4). A passed-out
    deal is redealt by the same dealer and does not count as one of the four.
    Part-scores carry forward toward game and are wiped for both sides when either
    side makes game; the game premium (300 not vulnerable, 500 vulnerable) is scored
    at once. There is no 50 part-score premium, but a part-score made on deal 4 that
    does not complete a game earns ``partscore_bonus`` (100). Slams, insult,
    overtricks and undertricks as in Law 77; honours are not counted.
Chicago duplicate (``variant="duplicate"``)
    Played like duplicate: four deals with Chicago's dealer and vulnerability rotation
    (``cycle`` as above), each deal scored on its own like a duplicate board (Law 77:
    game premium 300/500, slams, insult), with a part-score premium of
    ``partscore_premium`` (50, as Law 77; some clubs 100) and no carrying of
    part-scores toward game. A passed-out deal scores 0 and is one of the four, as a
    duplicate board (``passed_out="score"``, the default here), or is redealt by the
    same dealer (``passed_out="redeal"``). ``partscore_bonus`` (deal 4) does not apply.
HCP-target Chicago (``variant="hcp"``; reference section 12, UNVERIFIED source)
    Each deal's duplicate score (Law 77, vulnerability from the same cycle) is
    compared with a target from the combined high-card points of the side with 20
    or more (NS at 20-20) and that side's vulnerability; the side scores
    ``IMP(score - target)`` (WBF scale) and the other side the negative. The target
    table is data: ``load_targets`` reads a club's own CSV (columns ``hcp,nv,vul``,
    one row for each HCP 20-40); ``CHICAGO_TARGETS`` is the default. Passed-out deals
    are redealt (``passed_out="redeal"``) or scored as 0 against the target
    (``passed_out="score"``).
"""
from __future__ import annotations

import os
from typing import Literal

import pandas as pd

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.rank import to_imps
from bridgeproc.rubber.deals import read_sheet
from bridgeproc.rubber.rubber import (
    GAME_POINTS,
    SIDES,
    declared_by,
    duplicate_score,
    made_parts,
    result_text,
    sheet_totals,
    trick_score,
)
from bridgeproc.schema import CHICAGO_COLUMNS, CHICAGO_HCP_COLUMNS, SEATS, problems_frame, records

#: HCP -> (not vulnerable, vulnerable) target, qoobaa/bridge ``Bridge::Points::Chicago::POINTS``.
CHICAGO_TARGETS = pd.DataFrame({
    "hcp": range(20, 41),
    "nv": [0, 50, 70, 110, 200, 300, 350, 400, 430, 460, 490, 600, 700, 900, 1000, 1100, 1200, 1300, 1300, 1300, 1300],
    "vul": [0, 50, 70, 110, 290, 440, 520, 600, 630, 660, 690, 900, 1050, 1350, 1500, 1650, 1800, 1950, 1950, 1950,
            1950],
}).set_index("hcp")



def chicago_vulnerability(round_deal: int, dealer: str, cycle: str = "dealer") -> str:
    """``None``, ``NS``, ``EW`` or ``All`` for deal 1-4 of a chicago dealt by ``dealer``."""
    if round_deal == 1:
        return "None"
    if round_deal == 4:
        return "All"
    dealer_side = "NS" if dealer in "NS" else "EW"
    if cycle == "dealer":
        return dealer_side
    if cycle == "non-dealer":
        return "EW" if dealer_side == "NS" else "NS"
    raise ValueError(f"unknown vulnerability cycle {cycle!r}; use 'dealer' or 'non-dealer'")


def _vulnerable(vul: str, side: str) -> bool:
    return vul == "All" or vul == side


def load_targets(source: str | os.PathLike | pd.DataFrame) -> pd.DataFrame:
    """Read a target table (CSV with ``hcp,nv,vul``), indexed by HCP 20..40.

    Raises
    ------
    ValidationError
        A missing or repeated HCP row, or a value that is not a whole number >= 0.
    """
    if isinstance(source, pd.DataFrame):
        raw, name = source.reset_index().astype("string"), "<frame>"
    else:
        name = os.path.basename(os.fspath(source))
        try:
            raw = pd.read_csv(source, dtype="string", keep_default_na=False, skipinitialspace=True)
        except (OSError, ValueError) as exc:
            raise ParseError(name, None, f"cannot read the target table: {exc}") from None
    raw.columns = [str(c).strip().lower() for c in raw.columns]
    missing = [c for c in ("hcp", "nv", "vul") if c not in raw.columns]
    if missing:
        raise ParseError(name, 1, f"the target table needs columns hcp,nv,vul (missing {', '.join(missing)})")
    problems, values = [], {}
    for offset, row in enumerate(raw[["hcp", "nv", "vul"]].to_numpy(dtype=object).tolist()):
        line = str(offset + 2)
        cells = [str(c).strip() for c in row]
        if not all(c.isdigit() for c in cells):
            problems.append({"source": name, "line": line, "column": "hcp", "value": ",".join(cells),
                             "message": "each row needs whole numbers: hcp (20-40), nv and vul targets"})
            continue
        hcp, nv, vul = map(int, cells)
        if hcp in values or not 20 <= hcp <= 40:
            problems.append({"source": name, "line": line, "column": "hcp", "value": str(hcp),
                             "message": f"HCP {hcp} is {'repeated' if hcp in values else 'outside 20-40'}"})
            continue
        values[hcp] = (nv, vul)
    absent = [h for h in range(20, 41) if h not in values]
    if absent and not problems:
        problems.append({"source": name, "line": "", "column": "hcp", "value": "",
                         "message": f"no target for HCP {', '.join(map(str, absent))}; give one row per HCP 20-40"})
    if problems:
        raise ValidationError(problems_frame(problems))
    return pd.DataFrame({"hcp": list(range(20, 41)), "nv": [values[h][0] for h in range(20, 41)],
                         "vul": [values[h][1] for h in range(20, 41)]}).set_index("hcp")


#: Part-score premiums a Chicago duplicate deal may carry (Law 77's 50; some clubs 100).
PARTSCORE_PREMIUMS = (50, 100)


def chicago_sheet(source: str | os.PathLike | pd.DataFrame,
                  variant: Literal["standard", "duplicate", "hcp"] = "standard",
                  cycle: Literal["dealer", "non-dealer"] = "dealer", first_dealer: str = "N",
                  partscore_bonus: int = 100, passed_out: Literal["redeal", "score"] | None = None,
                  targets: str | os.PathLike | pd.DataFrame | None = None,
                  encoding: str | None = None, partscore_premium: int = 50) -> pd.DataFrame:
    """Score a sequence of Chicago deals.

    Parameters
    ----------
    source : path or DataFrame
        A deal sheet (CSV path, frame of text cells, or ``read_sheet``'s frame).
    variant : {"standard", "duplicate", "hcp"}
        Four-deal Chicago scoring, Chicago duplicate (each deal a duplicate board), or
        IMPs against the HCP target table.
    cycle : {"dealer", "non-dealer"}
        Who is vulnerable on deals 2 and 3 (module docstring).
    first_dealer : str
        Dealer of the first deal.
    partscore_bonus : int
        Standard: premium for a part-score on deal 4 that does not complete a game.
    passed_out : {"redeal", "score"}, optional
        Duplicate and HCP variants: redeal a passed-out deal, or score it (0; against the
        target in HCP). Default: ``score`` for duplicate, ``redeal`` otherwise; standard
        Chicago always redeals.
    targets : path or DataFrame, optional
        HCP variant: the target table (default ``CHICAGO_TARGETS``).
    partscore_premium : {50, 100}
        Duplicate: the premium of every part-score made (Law 77: 50).

    Returns
    -------
    DataFrame
        ``CHICAGO_COLUMNS`` or ``CHICAGO_HCP_COLUMNS``: one row per sheet row; ``round_deal``
        (1-4) is NA for a redealt passed-out deal; totals run within each chicago.
    """
    if variant not in ("standard", "duplicate", "hcp"):
        raise ValueError(f"unknown Chicago variant {variant!r}; use 'standard', 'duplicate' or 'hcp'")
    if partscore_premium not in PARTSCORE_PREMIUMS:
        raise ValueError(f"part-score premium {partscore_premium!r}: use 50 or 100")
    if passed_out is None:
        passed_out = "score" if variant == "duplicate" else "redeal"
    if passed_out not in ("redeal", "score"):
        raise ValueError(f"unknown passed-out rule {passed_out!r}; use 'redeal' or 'score'")
    if variant == "standard" and passed_out == "score":
        raise ValueError("standard Chicago redeals a passed-out deal; passed_out='score' is for the duplicate "
                         "and HCP variants")
    sheet = source if isinstance(source, pd.DataFrame) and "level" in source else read_sheet(source, encoding)
    table = load_targets(targets) if targets is not None else CHICAGO_TARGETS
    if variant == "hcp":
        _require_hcp(sheet, passed_out)
    rows: list[dict] = []
    number, counted, below, total = 1, 0, [0, 0], [0, 0]
    dealer_index = SEATS.index(first_dealer.upper())
    for deal in records(sheet):  # a chicago is a sequence: part-scores carry from deal to deal
        if counted == 4:
            number, counted, below, total = number + 1, 0, [0, 0], [0, 0]
        dealer = SEATS[dealer_index % 4]
        redeal = deal.level == 0 and passed_out == "redeal"
        round_deal = counted + 1
        vul = chicago_vulnerability(round_deal, dealer, cycle)
        row = {"chicago": number, "deal": deal.deal, "round_deal": pd.NA if redeal else round_deal,
               "dealer": dealer, "vul": vul, "contract": "PASS", "note": None}
        if deal.level:
            row.update(declarer=declared_by(deal),
                       contract=f"{deal.level}{deal.strain}{'X' * deal.doubled}", tricks=deal.tricks,
                       result=result_text(deal.level, deal.tricks))
        if redeal:
            row.update(ns_points=0, ew_points=0, note=f"passed out: redealt by {dealer}")
            if variant == "hcp":
                row.update(imps_ns=0, imps_ew=0, hcp_ns=deal.hcp_ns)
        elif variant == "standard":
            points, note = _chicago_points(deal, vul, round_deal, below, partscore_bonus)
            row.update(ns_points=points[0], ew_points=points[1], note=note)
        elif variant == "duplicate":
            points, note = _duplicate_points(deal, vul, partscore_premium)
            row.update(ns_points=points[0], ew_points=points[1], note=note)
        else:
            row.update(_hcp_points(deal, vul, table))
        if not redeal:
            counted += 1
            dealer_index += 1
        total[0] += row["imps_ns" if variant == "hcp" else "ns_points"]
        total[1] += row["imps_ew" if variant == "hcp" else "ew_points"]
        row.update(ns_total=total[0], ew_total=total[1])
        rows.append(row)
    columns = CHICAGO_HCP_COLUMNS if variant == "hcp" else CHICAGO_COLUMNS
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def _chicago_points(deal, vul: str, round_deal: int, below: list[int], bonus: int) -> tuple[list[int], str | None]:
    side = SIDES.index(deal.side)
    vulnerable = _vulnerable(vul, deal.side)
    points = [0, 0]
    if deal.tricks < deal.level + 6:
        points[1 - side] = -duplicate_score(deal.level, deal.strain, deal.doubled, vulnerable, deal.tricks)
        return points, None
    tricks_below, above = made_parts(deal.level, deal.strain, deal.doubled, vulnerable, deal.tricks)
    points[side] = tricks_below + above
    below[side] += trick_score(deal.level, deal.strain, deal.doubled)
    if below[side] >= GAME_POINTS:
        premium = 500 if vulnerable else 300
        points[side] += premium
        below[0] = below[1] = 0
        return points, f"game {deal.side} {premium}"
    if round_deal == 4:
        points[side] += bonus
        return points, f"part-score on deal 4: {bonus}"
    return points, None


def _duplicate_points(deal, vul: str, premium: int) -> tuple[list[int], str | None]:
    """One Chicago duplicate deal: its Law 77 score, the part-score premium ``premium``."""
    if not deal.level:
        return [0, 0], "passed out: 0"
    side = SIDES.index(deal.side)
    score = duplicate_score(deal.level, deal.strain, deal.doubled, _vulnerable(vul, deal.side), deal.tricks)
    partscore = deal.tricks >= deal.level + 6 and trick_score(deal.level, deal.strain, deal.doubled) < GAME_POINTS
    if partscore:
        score += premium - 50  # Law 77's part-score premium is 50
    points = [0, 0]
    if score >= 0:
        points[side] = score
    else:
        points[1 - side] = -score
    return points, None


def _hcp_points(deal, vul: str, table: pd.DataFrame) -> dict:
    hcp_ns = int(deal.hcp_ns)
    score_ns = 0
    if deal.level:
        score = duplicate_score(deal.level, deal.strain, deal.doubled, _vulnerable(vul, deal.side), deal.tricks)
        score_ns = score if deal.side == "NS" else -score
    side = "NS" if hcp_ns >= 20 else "EW"
    hcp = hcp_ns if side == "NS" else 40 - hcp_ns
    target = int(table.at[hcp, "vul" if _vulnerable(vul, side) else "nv"])
    side_score = score_ns if side == "NS" else -score_ns
    imps = int(to_imps(side_score - target))
    imps_ns = imps if side == "NS" else -imps
    return {"hcp_ns": hcp_ns, "target_side": side, "target": target, "score_ns": score_ns,
            "imps_ns": imps_ns, "imps_ew": -imps_ns, "ns_points": score_ns, "ew_points": -score_ns,
            "note": f"{side} {hcp} HCP target {target}"}


def _require_hcp(sheet: pd.DataFrame, passed_out: str) -> None:
    need = sheet["hcp_ns"].isna().to_numpy()
    if passed_out == "redeal":
        need = need & (sheet["level"].to_numpy() > 0)
    if need.any():
        bad = sheet[need]
        raise ValidationError(problems_frame([
            {"source": s, "line": str(n), "column": "hcp", "value": "",
             "message": "HCP-target Chicago needs the high-card points of each deal; write e.g. NS 23 in the hcp "
                        "column (or give the cards)"}
            for s, n in zip(bad["source"], bad["line"])]))


def chicago_totals(sheet: pd.DataFrame) -> pd.DataFrame:
    """One row per chicago: ``chicago``, ``ns``, ``ew`` (final totals), ``winner``, ``margin``."""
    return sheet_totals(sheet, "chicago")
