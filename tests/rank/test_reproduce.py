"""A file's published numbers are the spec (issue 25): the search of rank/reproduce.py finds the
conventions that reproduce them, and ``bridgeproc score`` ranks by them with no options.

* The search on the sample evening, published by "another program" with known conventions (a
  table of cases: one change, two changes, IMPs): it finds a set that reproduces every number,
  and it is the set that program used.
* Every real file with published numbers, scored with no options: the line that says whose
  conventions ranked it and how much they reproduce, written out literally (the stated exceptions
  are in it: a tie Magic Contest writes apart, board 37 of the Norwegian pairs, a place of the
  Swedish individual).
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd
import pytest

from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.run import build_session, load_results
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.conventions import PRODUCER_TABLE, producer
from bridgeproc.rank.reproduce import changed_fields, option_flags, reproduce
from tests.conftest import REALDATA, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick


@lru_cache(maxsize=None)
def evening() -> pd.DataFrame:
    """The sample evening's checked results, board 3 missing two tables (so factoring matters)."""
    results = load_results([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"], Options(dd=False))
    board3 = results.index[results["board"] == 3][:2]
    return results.drop(index=board3).reset_index(drop=True)


def published_by(conventions: Conventions) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What another program using ``conventions`` would publish: board values at two decimals, and
    totals, percentages and places."""
    results = evening()
    ranked = rank_results(results, conventions.replace(pair_numbering="shared"))
    points = {"mp": ("mp_ns", "mp_ew"), "cross-imp": ("ximp_ns", "ximp_ew"), "butler": ("butler_ns", "butler_ew")}
    published = {"mp": ("mp_ns", "mp_ew"), "cross-imp": ("imp_ns", "imp_ew"), "butler": ("imp_ns", "imp_ew")}
    raw = results[["source", "line", "board", "section"]].assign(**{
        theirs: ranked[ours].astype(float).round(2).map("{:.2f}".format).astype("string")
        for ours, theirs in zip(points[conventions.method], published[conventions.method])})
    table = standings(ranked, conventions.replace(pair_numbering="shared"))
    totals = pd.DataFrame({
        "section": table["section"].astype("string") if "section" in table else pd.NA, "pair": table["pair"],
        "direction": table["group"].where(table["group"].isin(["NS", "EW"]), pd.NA).astype("string"),
        "place": table["rank"].astype("string"), "percentage": table["pct"].round(2).astype("string"),
        "total": table["total"].round(2).astype("string"), "names": pd.NA, "source": "other.xml",
        "line": "1"}).astype("string")
    return raw, totals


@pytest.mark.parametrize("start, used, changes", [
    (Conventions(), Conventions(), {}),
    (Conventions(), Conventions(centred=True), {"centred": True}),
    (Conventions(), Conventions(mp_scale=1), {"mp_scale": 1}),
    (Conventions(), Conventions(factoring="none"), {"factoring": "none"}),
    (Conventions(), Conventions(factoring="average"), {"factoring": "average"}),
    (Conventions(), Conventions(centred=True, mp_scale=1), {"centred": True, "mp_scale": 1}),
    # centred, "no factoring" and "missing results as ties" publish the same numbers: the first declared is kept
    (Conventions(), Conventions(centred=True, factoring="none"), {"centred": True, "factoring": "average"}),
    (Conventions(centred=True), Conventions(), {"centred": False}),  # a producer's profile the file does not bear out
    (Conventions(method="cross-imp"), Conventions(method="cross-imp", cross_imp="average"), {"cross_imp": "average"}),
    (Conventions(method="cross-imp"), Conventions(method="cross-imp", cross_imp="board-average"),
     {"cross_imp": "board-average"}),
    (Conventions(method="butler"), Conventions(method="butler", datum_drop=0), {"datum_drop": 0}),
])
def test_the_search_finds_the_conventions_another_program_used(start, used, changes):
    raw, totals = published_by(used)
    found = reproduce(evening(), raw, start, "shared", totals)
    assert found.exact, found.summary()
    assert changed_fields(found.conventions, start) == changes
    boards = 338 - 2
    assert found.kinds["compared"].tolist()[:2] == [boards, boards]  # NS and EW board values, then the standings
    assert found.rankings <= 40  # a few dozen rankings, never the whole grid


def test_nothing_published_leaves_the_start_as_it_is():
    results = evening()
    found = reproduce(results, results[["source", "line", "board"]], Conventions(centred=True), "shared")
    assert found.conventions == Conventions(centred=True) and found.compared == 0 and not found.exact


def test_option_flags_are_scores_own_names():
    assert option_flags(Conventions(adjusted_mode="session", centred=True)) == ["--centred", "--adjusted session"]
    # in the order the conventions are declared (rank.conventions.Conventions)
    assert option_flags(Conventions(), Conventions(centred=True, mp_decimals=1)) == ["--no-centred",
                                                                                    "--mp-decimals exact"]
    assert option_flags(Conventions(method="butler", imp_ave_plus=1.5, across_field=True)) == [
        "--method butler", "--across-field", "--imp-ave-plus 1.5"]


@pytest.mark.parametrize("program, name", [
    ("Compscore3", "Compscore"), ("EBUScore Pairs", "EBUScore"), ("BBO Extractor", "BBO Extractor"),
    ("BridgeBase Online", "BBO"), ("PairsScorer", "PairsScorer"), ("TeamsScorer", "TeamsScorer"),
    ("ScoreBridge 6", "ScoreBridge"), ("Pianola", "Pianola"), ("BriAn", "BriAn"), ("RealBridge", "RealBridge"),
    ("Magic Contest France", "Magic Contest"), ("Ruter i Norge", "Ruter i Norge"), ("Ruter", "Ruter"),
    ("KoPS2www", "KoPS"), ("Bridgewebs", "BridgeWebs"), (None, None), ("Some Other Program", None),
])
def test_each_producer_is_found_by_the_name_its_files_give(program, name):
    found = producer(program)
    assert (found.name if found else None) == name


def test_every_producer_names_what_shows_its_conventions():
    for maker in PRODUCER_TABLE:
        files = [word.strip("(),") for word in maker.shown_by.split() if "." in word and "-" in word]
        assert maker.shown_by.startswith(("issue 25", "flat")) or files, maker.name
        for name in files:
            assert (REALDATA / name).exists(), (maker.name, name)


#: Every real file with published numbers, with no options: whose conventions and how much they reproduce.
NO_OPTIONS = {
    "aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml":
        "Conventions: Compscore's, reproducing IMP_NS 108/108, IMP_EW 108/108, totals 9/9, places 9/9, masterpoint awards 9/9",
    "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml":
        "Conventions: Compscore's, reproducing MP_NS 161/161, MP_EW 161/161, totals 12/12, percentages 12/12, "
        "places 12/12, masterpoint awards 12/12",
    "aus-sunshine-coast-bc-2026-03-09-butler-howell-compscore3.usebio.xml":
        "Conventions: Compscore's, reproducing IMP_NS 140/140, IMP_EW 140/140, datums 35/35, totals 8/8, places 8/8, masterpoint awards 8/8",
    "eng-crawley-bc-2025-01-06-mp-bbo-online-bboextractor.usebio.xml":
        "Conventions: BBO Extractor's, reproducing MP_NS 144/144, MP_EW 144/144, percentages 17/17, places 17/17, masterpoint awards 17/17",
    "eng-island-bridge-2025-01-06-mp-ebuscore.usebio.xml":
        "Conventions: EBUScore's, reproducing MP_NS 234/234, MP_EW 234/234, percentages 19/19, places 19/19, masterpoint awards 19/19",
    "eng-usebio-sample-2015-10-22-mp-2winner-pairsscorer.usebio.xml":
        "Conventions: PairsScorer's, reproducing MP_NS 242/242, MP_EW 242/242, percentages 22/22, places 22/22, masterpoint awards 22/22",
    # 335 + 335 + 32 + 32 = all 734 numbers, across the field: the tops say so
    "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml":
        "Conventions: PairsScorer's with --across-field (found from the file's numbers), reproducing MP_NS 335/335, "
        "MP_EW 335/335, percentages 32/32, places 32/32, masterpoint awards 32/32",
    # Magic Contest ranks a tie of one-decimal totals by the exact ones: one place written apart
    "ffb-dn1-open2-s1-2022.pbn":
        "Conventions: Magic Contest's, the closest found, reproducing MP_NS 660/660, MP_EW 660/660, totals 44/44, "
        "percentages 44/44, places 43/44",
    "ffb-dn1-open2-s5-2022.pbn":
        "Conventions: Magic Contest's, reproducing MP_NS 616/616, MP_EW 616/616, totals 44/44, percentages 44/44, "
        "places 44/44",
    "fin-lounaisliiga-2013-09-25-cross2-imp.pbn":
        "Conventions: Ruter's with --winners one (found from the file's numbers), reproducing IMP_NS 192/192, "
        "IMP_EW 192/192, totals 24/24, places 24/24",
    "fin-sbl-h6-turku-2013-08-20-butler.pbn":
        "Conventions: Magic Contest's with --sitout scale (found from the file's numbers), reproducing IMP_NS 84/84, "
        "IMP_EW 84/84, datums 28/28, totals 7/7, places 7/7",
    "fin-sm-parikilpailu-2014-s1.pbn":
        "Conventions: Ruter's, reproducing MP_NS 1188/1188, MP_EW 1188/1188, totals 36/36, percentages 36/36, "
        "places 36/36",
    # the session's own columns (SessionScoreMP ...), not the event's running totals
    "fin-sm-parikilpailu-2014-s2.pbn":
        "Conventions: Ruter's, reproducing MP_NS 702/702, MP_EW 702/702, totals 36/36, percentages 36/36, places 36/36",
    "nor-nesodden-bk-2022-10-04-hostsingel-individual.pbn":
        "Conventions: Ruter i Norge's, reproducing totals 20/20, percentages 20/20, places 20/20",
    # board 37 (two artificial rows) is unexplained (realdata README); counting missing results as ties
    # reproduces two more percentages than Neuberg there, so the search keeps it
    "nor-ostfold-follo-2022-05-08-km-par.pbn":
        "Conventions: Ruter i Norge's with --factoring average (found from the file's numbers), the closest found, "
        "reproducing MP_NS 250/252, MP_EW 250/252, totals 4/8, percentages 6/8, places 8/8",
    "nor-ostfold-follo-2022-09-14-kmlag-butler.pbn":
        "Conventions: Ruter i Norge's with --winners one --imp-per-board (found from the file's numbers), reproducing "
        "IMP_NS 336/336, IMP_EW 336/336, datums 28/28, totals 48/48, places 48/48",
    "ruter7-klubbkveld-butler-2012.pbn":
        "Conventions: Ruter i Norge's, reproducing IMP_NS 168/168, IMP_EW 168/168, datums 21/21, totals 16/16, "
        "places 16/16",
    "swe-bridgefestival-orebro-2010-stormastartraffen-individual.pbn":
        "Conventions: Ruter's, the closest found, reproducing totals 48/48, percentages 48/48, places 47/48",
    "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn":
        "Conventions: Ruter's with --imp-ave-plus 1.5 (found from the file's numbers), reproducing IMP_NS 1680/1680, "
        "IMP_EW 1680/1680, totals 80/80, places 80/80",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(NO_OPTIONS))
def test_every_real_file_is_reproduced_with_no_options(name):
    session = build_session([REALDATA / name], Options(dd=False))
    assert session.origin == NO_OPTIONS[name]
    differences = session.notes[session.notes["message"].str.contains("published", regex=False)] \
        if session.notes is not None else pd.DataFrame({"message": []})
    if "the closest found" in NO_OPTIONS[name]:
        assert len(differences) and differences["message"].str.contains(
            "sets of conventions tried reproduces them all").all()
    else:
        assert not len(differences)


def test_the_directors_options_win_over_the_file():
    session = build_session([REALDATA / "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml"],
                            Options(ranking=ConventionChoice(changes={"across_field": False}), dd=False))
    assert not session.conventions.across_field
    assert session.origin == ("Conventions: as given, the closest found, reproducing MP_NS 27/335, MP_EW 25/335, "
                              "percentages 0/32, places 2/32, masterpoint awards 19/32")


def test_the_workbook_and_the_website_say_whose_conventions(tmp_path, runner):
    import openpyxl

    from bridgeproc.cli import cli

    source = REALDATA / "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml"
    result = runner.invoke(cli, ["score", str(source), "--no-dd", "--no-archive", "-o", str(tmp_path / "r.xlsx"),
                                 "-o", f"{tmp_path}/site/"])
    assert result.exit_code == 0, result.output
    line = ("Conventions: PairsScorer's with --across-field (found from the file's numbers), reproducing MP_NS 335/335, "
            "MP_EW 335/335, percentages 32/32, places 32/32, masterpoint awards 32/32")
    assert line in result.output
    book = openpyxl.load_workbook(tmp_path / "r.xlsx")
    try:
        assert book["Conventions"]["A2"].value == line
    finally:
        book.close()
    page = (tmp_path / "site" / "conventions.html").read_text(encoding="utf-8")
    assert f"<p>{line.replace(chr(39), '&#39;')}.</p>" in page
