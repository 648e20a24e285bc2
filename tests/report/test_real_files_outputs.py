"""Every real file in the test data through `bridgeproc score` to a workbook and a website: it scores
(exit 0) or is refused with its reason (exit 1, no traceback, no output left), never crashes."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from bridgeproc.cli import cli
from tests.conftest import REALDATA

#: Real files `bridgeproc score` refuses, with words its message must hold (the rest score with exit 0).
REFUSED = {
    "bridgemate-sample.bws": "problem",
    "ebl-2021-online-qual-open-r2-teams.pbn": "a teams event (299 room results of 30 teams, each game naming its "
                                              "HomeTeam and VisitTeam); score it with `bridgeproc teams",
    "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml": "a teams event (USEBIO EVENT_TYPE TEAMS, 40 "
                                                                    "matches); score it with `bridgeproc teams",
    "fin-lounaisliiga-div2-2013-teams-vp.pbn": "match totals (MatchDetails) and no boards); score it with `bridgeproc teams",
    "fin-salo-joukkue-2013-09-15-teams-vp.pbn": "match totals (MatchDetails) and no boards); score it with `bridgeproc teams",
    "nor-ostfold-follo-2022-km-a-teams-vp.pbn": "match totals (MatchDetails) and no boards); score it with `bridgeproc teams",
    "pbn-reference-errors_10.pbn": "problems",
    "pbn-reference-errors_20.pbn": "ActionTable row has 4 cell(s)",
    "pbn-reference-errors_21.pbn": "bad OptimumScore value",
}
REAL_INPUTS = sorted(path.name for pattern in ("*.pbn", "*.xml", "*.bws") for path in REALDATA.glob(pattern))


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL_INPUTS)
def test_every_real_file_scores_to_a_workbook_and_a_website_or_is_refused_with_the_reason(tmp_path, name):
    for out in ("out.xlsx", "site/"):
        result = CliRunner().invoke(cli, ["score", str(REALDATA / name), "--no-dd", "--no-archive", "-o",
                                          f"{tmp_path}/{out}"])
        assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
            repr(result.exception)
        if name in REFUSED:
            assert result.exit_code == 1 and REFUSED[name] in result.output, result.output
            assert not (tmp_path / out).exists()
        else:
            assert result.exit_code == 0, result.output
            assert (tmp_path / out).exists()
