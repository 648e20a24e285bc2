"""A teams event's conventions and headings in words a member understands: the workbook's Conventions
sheet and headings, and the website's (one wording for both, no spreadsheet library here)."""
from __future__ import annotations

from bridgeproc.model import TeamsSession
from bridgeproc.teams.standings import event_format

#: Each tie-break by a short name (the heading, Decided by) and what it compares (the Conventions sheet).
TIE_BREAK_WORDS = {
    "head-to-head-vp": ("head-to-head VPs", "VPs won in the matches between the tied teams"),
    "head-to-head-imps": ("head-to-head IMPs", "IMP margin in the matches between the tied teams"),
    "imp-quotient": ("IMP quotient", "IMPs won divided by IMPs lost, over all matches"),
    "imp-difference": ("IMP difference", "IMPs won minus IMPs lost, over all matches"),
    "imps-for": ("IMPs won", "over all matches"),
    "tied": ("tied", "equal on the total and every tie-break"),
}
#: Each event format in words.
FORMAT_WORDS = {"swiss": "Swiss", "round-robin": "round robin (every team meets every other once)",
                "knockout": "knockout"}
_AN_EVENT = {"swiss": "a Swiss event", "round-robin": "a round robin", "knockout": "a knockout"}
#: How the standings are made, in words.
SCORING_WORDS = {"vp": "Victory points: each match's IMP margin converted to VPs, the VPs added up",
                 "imps": "IMPs: the IMP margins of all matches added up",
                 "bam": "Board-a-match: 1 point for each board won, ½ for a board tied, 0 for a board lost"}


def scale_words(scale) -> str:
    """The VP scale as a member reads it: ``WBF 2013 continuous, 20 VP`` or the custom table's file."""
    if scale.name == "wbf2013":
        return f"WBF 2013 continuous, {scale.total:g} VP"
    if scale.label:
        return scale.label
    return f"the club's table {scale.name}, {scale.total:g} VP"


def tie_break_words(names, short: bool = False) -> str:
    """The tie-breaks in order, in words: ``IMP quotient, then IMP difference``, each with what it
    compares unless ``short``."""
    words = [TIE_BREAK_WORDS.get(n, (n, "")) for n in names]
    return ", then ".join(name if short or not what else f"{name} ({what})" for name, what in words)


def heading(session: TeamsSession) -> list[str]:
    """Event, date/site, VP scale and tie-breaks: the lines above each table."""
    meta = session.meta
    lines = [meta.get("event") or "Teams results"]
    when = " · ".join(str(v) for v in (meta.get("date"), meta.get("site")) if v)
    if when:
        lines.append(when)
    opts = session.options
    scoring = {"vp": f"Victory points: {scale_words(opts.scale)} scale", "imps": "Ranked by total IMP margin",
               "bam": "Board-a-match: 1 / ½ / 0 per board" if opts.bam_win == 1 else
               f"Board-a-match: {opts.bam_win:g} / {opts.bam_win / 2:g} / 0 per board"}[opts.scoring]
    lines.append(scoring)
    lines.append(f"Ties broken by: {tie_break_words(session.tie_breaks, short=True) or 'none (shared rank)'}; "
                 f"A+ = +{opts.ave_plus_imps:g} IMPs (Law 86A)")
    return lines


def convention_rows(session: TeamsSession) -> list[tuple[str, str]]:
    """(label, words) for each convention of the run, as the Conventions sheet shows them."""
    opts = session.options
    half = f"{opts.scale.total / 2:g}"
    detected = event_format(session.matches) if opts.format == "auto" else opts.format
    rows = [
        ("Scoring", SCORING_WORDS[opts.scoring] if opts.scoring != "bam" or opts.bam_win == 1 else
         f"Board-a-match: {opts.bam_win:g} points for each board won, {opts.bam_win / 2:g} for a board tied, "
         "0 for a board lost"),
        ("VP scale", scale_words(opts.scale)),
        ("Match length for the VPs", f"{opts.boards_per_match} boards" if opts.boards_per_match
         else "the boards played in each match"),
        ("Artificial scores (Law 86A)",
         f"average plus: +{opts.ave_plus_imps:g} IMPs on the board, average: 0, average minus: "
         f"−{opts.ave_plus_imps:g} IMPs; each side its own"),
        ("Unplayed matches", "listed, and left out of the standings" if opts.unplayed == "exclude"
         else f"each team gets half the VPs ({half}–{half})"),
        ("Event format", FORMAT_WORDS.get(detected, detected)
         + (", worked out from the matches" if opts.format == "auto" else ", as given")),
        ("Tie-breaks", (tie_break_words(session.tie_breaks) or "none: teams equal on the total share a rank")
         + (f"; the usual order for {_AN_EVENT.get(detected, detected)}"
            if opts.tie_breaks is None and session.tie_breaks else "")),
    ]
    if len(session.pairs):
        rows.append(("Pairwise cross-IMPs", "each pair's result against every other result of the board in the "
                     "event, averaged per comparison; a pair's total is the sum of its board values to 2 decimals"))
    if session.origin:
        rows.append(("Published numbers", session.origin.removeprefix("Conventions: ")))
    if opts.scoring == "bam":
        rows.append(("Board-a-match tie", f"a net difference of at most {opts.bam_tie} point(s) is a tie"
                     if opts.bam_tie else "only equal scores are a tie"))
    return rows
