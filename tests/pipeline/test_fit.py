"""bridgeproc conventions: which conventions reproduce a file's published numbers, on the real files."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.fit import describe_fit, fit_conventions
from bridgeproc.pipeline.run import build_session
from tests.conftest import REALDATA
from tests.rank.test_producers_realdata import _bbo_pages, _kops_pages

pytestmark = pytest.mark.slow  # every candidate set ranks the whole file: seconds per file


def best(name, published=None, options=Options(dd=False)):
    fits = fit_conventions([REALDATA / name], options, published=published)
    return fits[0], describe_fit(fits)


@pytest.mark.parametrize("name, summary, flags", [
    ("aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml",
     "MP_NS 161/161, MP_EW 161/161, totals 12/12, percentages 12/12, places 12/12", []),  # the Compscore profile by its PROGRAM_NAME
    ("aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml", "IMP_NS 108/108, IMP_EW 108/108, totals 9/9, places 9/9", []),
    ("aus-sunshine-coast-bc-2026-03-09-butler-howell-compscore3.usebio.xml",
     "IMP_NS 140/140, IMP_EW 140/140, datums 35/35, totals 8/8, places 8/8", []),
    ("ruter7-klubbkveld-butler-2012.pbn", "IMP_NS 168/168, IMP_EW 168/168, datums 21/21, totals 16/16, places 16/16", []),
])
def test_the_producers_files_are_reproduced_with_no_options(name: str, summary: str, flags: list[str]):
    fit, lines = best(name)
    assert fit.exact and fit.options() == flags
    assert fit.summary() == summary
    assert lines[0].startswith("Reproduced: ") and lines[1] == "  with: no options (what score does on this file)"


def test_magic_contest_totals_need_one_decimal_per_board():
    """FFB's file (Magic Contest): every board MP and total with one decimal per board, Magic Contest's
    own convention (its Generator META names the program); one place is a tie written apart."""
    fit, lines = best("ffb-dn1-open2-s1-2022.pbn")
    assert fit.options() == [] and fit.conventions.mp_decimals == 1 and fit.by_default
    assert fit.summary() == "MP_NS 660/660, MP_EW 660/660, totals 44/44, percentages 44/44, places 43/44"
    assert lines[:3] == ["Not reproduced exactly; closest: MP_NS 660/660, MP_EW 660/660, totals 44/44, percentages 44/44, places 43/44",
                         "  with: no options (what score does on this file)", "  differs in: 1 places"]
    # the director's own options win in score: exact board MPs miss 7 of the published totals (pair 7: 771.10)
    exact = build_session([REALDATA / "ffb-dn1-open2-s1-2022.pbn"], Options(ranking=ConventionChoice(changes={"mp_decimals": "exact"}), dd=False))
    assert exact.conventions.mp_decimals is None
    assert exact.origin == "Conventions: as given (--mp-decimals exact), the closest found, reproducing MP_NS 660/660, " \
                           "MP_EW 660/660, totals 37/44, percentages 44/44, places 44/44"


def test_kops_needs_board_averaged_cross_imps_given_its_pages(tmp_path):
    pages, _ = _kops_pages()
    table = pd.DataFrame({"board": pages["board"], "ns": "Para-" + pages["ns_no"] + " - Para-" + pages["ns_no"],
                          "ew": "Para-" + pages["ew_no"] + " - Para-" + pages["ew_no"], "imp_ns": pages["pub_ns"]})
    table.to_csv(tmp_path / "kops.csv", index=False)
    fit, _ = best("pol-chorzow-2013-08-07-imp-kops-pbntools.pbn", tmp_path / "kops.csv")
    assert fit.summary() == "given board IMPs 106/108"  # board 22's two rows (KoPS counts 420 v -1660 as 17)
    assert fit.conventions.cross_imp == "board-average"  # --profile kops, bbo or compscore: all three average
    assert fit.options()[0] in ("--profile compscore", "--profile kops", "--cross-imp board-average")


def test_bbo_needs_unfactored_percentages_given_its_pages(tmp_path):
    pages = _bbo_pages()
    pages = pages[~pages["artificial"]]
    table = pd.DataFrame({"board": pages["board"], "ns": pages["n"] + " - " + pages["s"],
                          "ew": pages["e"] + " - " + pages["w"], "pct_ns": pages["pub_pct"]})
    table.to_csv(tmp_path / "bbo.csv", index=False)
    fit, _ = best("bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn", tmp_path / "bbo.csv")
    assert fit.exact and fit.summary() == "given board % 573/573"  # at 0.05: BBO's unfactored % round alike here


def test_a_file_that_publishes_nothing_is_told_so(runner):
    from bridgeproc.cli import cli
    result = runner.invoke(cli, ["conventions", str(REALDATA / "pol-chorzow-2013-08-07-imp-kops-pbntools.pbn")])
    assert result.exit_code == 1 and "publish no board values" in result.output and "Traceback" not in result.output


def test_ruter_league_ranks_every_pair_in_one_list():
    """The Finnish league file (Ruter, fixed directions, sections A/B) publishes one ranking of all
    24 pairs, NS and EW together: reproduced with --winners one (found by ranking each candidate's
    board scores every way)."""
    fit, lines = best("fin-lounaisliiga-2013-09-25-cross2-imp.pbn")
    assert fit.exact and fit.options() == ["--winners one"] and fit.by_default
    assert fit.summary() == "IMP_NS 192/192, IMP_EW 192/192, totals 24/24, places 24/24"
    assert lines[:2] == ["Reproduced: IMP_NS 192/192, IMP_EW 192/192, totals 24/24, places 24/24",
                         "  with: no options (what score does on this file: it finds --winners one from the numbers)"]
