"""The rules of an event over several sessions, in words: how the sessions make the total, what a
pair that missed a session gets, how a pair is known from session to session (``rank.event`` applies
them; the command line's choices and help load them without pandas)."""
from __future__ import annotations

#: How the sessions' scores make the event's (``--rule``).
EVENT_RULES: dict[str, str] = {
    "sum": "the sum of the sessions' matchpoints (or IMPs); refused when the sessions' tops differ, "
           "percentage = matchpoints / the tops of the boards played (Ruter's TotalPercentage)",
    "scaled": "each session's matchpoints scaled to the largest session top, then summed",
    "percent-sum": "the sum of the session percentages (total), and that sum / the number of sessions (%)",
    "percent-average": "the average of the session percentages, each session counting the same",
    "carry-over": "a share (--carry-over) of the qualifying sessions' score carried into the last "
                  "session (the final): matchpoints, the qualifying percentage on the final's top",
}
#: What a pair that missed a session gets for it (``--missing``).
MISSING_RULES: dict[str, str] = {
    "drop": "left out of the event ranking (named in a note; its sessions are still shown)",
    "zero": "no score for the session: 0 matchpoints (0 %) over the session's full top",
    "average": "its own average of the sessions it played (their percentage, on the missed session's full "
               "top; IMPs per board played x the session's boards)",
}
#: How a pair of one session is known in another (``--match``).
MATCH_BY: dict[str, str] = {
    "number": "the pair number (NS 1 and EW 1 apart when a session numbers them per direction)",
    "names": "the players' names, regardless of case, spacing, order and 'Strand, Anna'",
    "ids": "the players' member numbers, in any order",
}
