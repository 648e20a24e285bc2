"""Teams: IMP matches, victory points, Swiss and round-robin standings, board-a-match.

Pipeline (each step a function over whole frames; see the module docstrings):

``load``       room games / traveller sheets -> raw team frame (``ns_team``, ``ew_team``, round)
``session``    ``score_rooms`` (validate + score), ``read_teams``, ``score_teams`` (the event computed;
               ``bridgeproc.pipeline.teams.process_teams`` adds the outputs)
``matches``    ``board_imps`` (two rooms -> board IMPs), ``match_totals`` (IMPs, carry-over,
               penalties, VPs), ``totals_from_imps`` (match-level input)
``vp``         WBF 2013 continuous scale, custom CSV tables
``vp_scales``  the scales known by name, and which reproduces a file's published VPs
``standings``  Swiss / round-robin ranking with a tie-break chain
``bam``        board-a-match points
``swiss``      next-round Swiss pairings (top-down, rematches avoided)
The workbook, CSV and PBN writers are in ``bridgeproc.report.teams``/``teams_files``.
"""
from __future__ import annotations

from bridgeproc.teams.bam import add_bam, board_bam
from bridgeproc.teams.load import assign_matches, published_matches, read_adjustments, read_lineup, read_team_travellers
from bridgeproc.teams.matches import board_imps, match_totals, result_imps, totals_from_imps
from bridgeproc.teams.options import TIE_BREAKS, TeamsOptions, options_from_text
from bridgeproc.teams.session import compare_published, read_teams, score_rooms, score_teams
from bridgeproc.teams.standings import standings
from bridgeproc.teams.swiss import swiss_pairings
from bridgeproc.teams.vp import WBF2013, VpScale, parse_vp_table, read_vp_table, wbf_table
from bridgeproc.teams.vp_scales import KNOWN_SCALES, vp_scale

__all__ = [
    "TeamsOptions", "options_from_text", "read_adjustments", "TIE_BREAKS", "read_teams", "score_teams", "score_rooms",
    "swiss_pairings", "board_imps", "match_totals", "result_imps", "totals_from_imps", "standings", "board_bam", "add_bam",
    "assign_matches", "published_matches", "read_team_travellers", "read_lineup", "compare_published",
    "VpScale", "WBF2013", "wbf_table", "parse_vp_table", "read_vp_table", "vp_scale", "KNOWN_SCALES",
]
