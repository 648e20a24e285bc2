"""The one output table: which output types each kind of result is written to, and the writer of each
(:data:`OUTPUTS`), as names only: the command line lists them in its options and help without loading
a writer, pandas or openpyxl (``pipeline.publish`` imports the writer when it writes)."""
from __future__ import annotations

import os
from pathlib import Path

#: The :data:`WRITERS` key of a folder output (``-o results/``: the results website as a folder of pages).
FOLDER = "/"


def output_type(output: str | os.PathLike) -> str:
    """The :data:`WRITERS` key of ``output``: :data:`FOLDER` for a name written with a trailing
    slash, or one without an extension that is an existing folder; else its lower-case extension."""
    text = os.fspath(output)
    if text.endswith(("/", os.sep)) or (Path(text).suffix.lower() == "" and Path(text).is_dir()):
        return FOLDER
    return Path(text).suffix.lower()


#: Result type (its class name in ``model``) -> output type -> its writer in ``report`` (``module:function``,
#: taking the result and a plain path). Writers are imported when used, so a run that writes only CSV starts without openpyxl;
#: tests/test_architecture.py checks every entry resolves into ``report``. A new kind of run adds its
#: result type (``model/``) and one row here.
OUTPUTS: dict[str, dict[str, str]] = {
    "Session": {
        ".csv": "bridgeproc.report.scored_csv:write_session_csv",
        ".xlsx": "bridgeproc.report.workbook:write_workbook",
        ".pbn": "bridgeproc.report.pbn:write_scored_pbn",
        ".xml": "bridgeproc.report.usebio:write_usebio",
        ".html": "bridgeproc.report.web:write_page",
        FOLDER: "bridgeproc.report.web:write_site",
    },
    "Event": {
        ".csv": "bridgeproc.report.event:write_event_csv",
        ".xlsx": "bridgeproc.report.event:write_event_workbook",
        ".pbn": "bridgeproc.report.event:write_event_pbn",
        ".xml": "bridgeproc.report.event_usebio:write_event_usebio",
        ".html": "bridgeproc.report.web.event_site:write_event_page",
        FOLDER: "bridgeproc.report.web.event_site:write_event_site",
    },
    "TeamsSession": {
        ".xlsx": "bridgeproc.report.teams_files:write_xlsx",
        ".csv": "bridgeproc.report.teams_files:write_csv",
        ".pbn": "bridgeproc.report.teams_files:write_pbn",
        ".xml": "bridgeproc.report.usebio_teams:write_usebio_teams",
        ".html": "bridgeproc.report.web.render:write_teams_page",
        FOLDER: "bridgeproc.report.web.render:write_teams_site",
    },
    "CheckReport": {
        ".xlsx": "bridgeproc.report.checks:write_check_xlsx",
        ".csv": "bridgeproc.report.checks:write_check_csv",
        ".html": "bridgeproc.report.check_page:write_check_html",
    },
    "SwissRun": {
        ".csv": "bridgeproc.report.scoresheet:write_swiss_csv",
        ".xlsx": "bridgeproc.report.scoresheet:write_swiss_xlsx",
    },
    "ScoreSheet": {
        ".csv": "bridgeproc.report.scoresheet:write_sheet_csv",
        ".xlsx": "bridgeproc.report.scoresheet:write_sheet_xlsx",
    },
    "Movement": {
        ".csv": "bridgeproc.report.movement:write_movement_csv",
        ".xlsx": "bridgeproc.report.entry:write_entry_workbook",
        ".html": "bridgeproc.report.cards:write_table_cards",
        FOLDER: "bridgeproc.report.cards:write_table_cards_folder",
    },
    "SimResult": {
        FOLDER: "bridgeproc.report.sim_folder:write_sim_folder",
    },
    "Ladder": {
        ".csv": "bridgeproc.report.ladder:write_ladder_csv",
        ".xlsx": "bridgeproc.report.ladder:write_ladder_xlsx",
        ".html": "bridgeproc.report.web.render:write_ladder_page",
    },
    "Rescored": {
        ".csv": "bridgeproc.report.ladder:write_rescore_csv",
    },
    "Ratings": {
        ".csv": "bridgeproc.report.ladder:write_ratings_csv",
    },
    "Profile": {
        ".csv": "bridgeproc.report.ladder:write_profile_csv",
    },
    "ClubSite": {
        FOLDER: "bridgeproc.report.web.club_site:write_club_site",
    },
}


def output_types(kind: type | str) -> tuple[str, ...]:
    """The output types a result of ``kind`` can be written to (``.csv``, ... :data:`FOLDER`)."""
    return tuple(OUTPUTS[kind if isinstance(kind, str) else kind.__name__])
