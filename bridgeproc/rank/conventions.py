"""The conventions a ranking depends on, as one frozen value with documented defaults.

Scoring programs disagree on details (reference sections 7, 8 and 13). Every such
detail is a field of :class:`Conventions`; a *profile* names a consistent set, and
the PBN ``Scoring`` tag can be read into a method plus conventions.

Defaults and why:

* ``mp_scale=2``: 2 MPs per result beaten, 1 per tie (Law 78A "two scoring units";
  EBU, WBF, Magic Contest, Ruter, the French and Finnish files). ACBL uses 1/½.
* ``factoring="neuberg"``: boards with fewer results than the most-played board are
  factored up with Neuberg (EBU, WBF, ACBL's ASE formula is the same on 1/½).
* ``adjusted_mode="fixed"``: A+/A/A- are 60/50/40 % of the board's full top, as
  the real files publish them (RealBridge's flat "Avg+"); ``"session"`` gives the
  WBF/EBU rule (A+ = max(60, own %), A- = min(40, own %)).
* ``across_field=False``: a board is matchpointed (and its Butler datum and
  cross-IMPs taken) within its section; ``True`` compares it over every section.
* ``cross_imp="sum"``: PBN ``Cross``; ``"average"`` is PBN ``Cross2`` (board IMPs are
  the sums, a pair's total is its IMPs divided by its number of comparisons, as the
  Finnish Cross2 file publishes); ``"average-n"`` is PBN ``Cross1`` (divided by the
  number of results, comparisons + 1); ``"board-average"`` (Compscore, KoPS, BBO): a
  result's board value is its cross-IMP sum divided by its comparisons on that board
  (-32/3 = -10.67), and a pair's total is the sum of those unrounded board values (the
  Moonee Valley Compscore file, the Chorzów KoPS pages).
* ``mp_top="full"``: every board's matchpoints are on the full top (boards played
  fewer times Neuberg-factored to it, per ``factoring``). ``"board"`` (Compscore): a board
  is matchpointed on its own top, 2 x (lines on the board - 1), artificial lines counted
  (the real results Neuberg-factored around them), and the traveller shows that; the
  totals and percentages count each board Neuberg-factored to the full top (an artificial
  line at its percentage of it). The Lindfield Compscore file: board 12, played 5 times of
  6, shows MPs on a top of 8.
* ``datum_drop=1``: Butler drops the single highest and lowest score (PBN
  ``Butler-2``, the Norwegian and Finnish files); ``datum_drop_share`` (e.g. 0.1)
  overrides it with round-half-up(share x n) at each end. At least one result is
  always kept (a 3-result board's datum is its median, as in the Finnish file).
* ``imp_ave_plus=3``: A+ is worth +3 IMPs per comparison and A- -3 (Law 86A, the
  teams rule; no pairs rule was found). The Swedish cross-IMP file gives 1.5.
* ``winners="auto"``: one winner when pairs change direction (shared numbering and
  more than ``ONE_WINNER_SHARE`` of a section's pairs sit both ways), else NS and EW
  are ranked apart.
* ``mp_decimals=None``: board MPs are kept exact and totals rounded only when shown;
  the French and Finnish files (Magic Contest) sum one-decimal board MPs (``1``),
  the Swedish individual file sums exact ones.
* ``imp_per_board=False``: IMP totals are sums (the Norwegian teams-Butler file
  prints the average per board).
* ``sitout="none"``: IMP totals are plain sums; ``"scale"`` scales each pair's total
  to every board of its section (a sitting-out pair gets its own average on the
  boards it missed, as the Finnish Butler file does: 36 x 28/24 = 42.0); ``"most"``
  (Compscore) scales every method's total to the most boards played by a pair of its
  ranking group, total x B/b (Lindfield pairs 1 and 3: x 27/26); a matchpoint
  percentage stays over the boards played.
* ``fouled="neuberg"``: each group of a fouled board (reference 7.3) is matchpointed
  on its own and Neuberg-factored to the board's full top, whatever its size.
  ``"acbl"`` gives small groups fixed percentages instead (ACBLscore manual,
  "Fouled/Adjusted board formula", web2.acbl.org/acblscore/manual/92.htm, and the
  WBF proposal quoted by hermandw.be/bridge/calcula/calcul24.html): a single result
  60 %, a group of 2 65/55 %, a group of 3 70/60/50 % unless it is the largest group
  of the board; ties share the percentages of the places they span, each direction
  apart (so NS + EW is 120 %). On by default only in the ``acbl`` profile.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from bridgeproc.core.numbering import PairNumbering

Method = Literal["mp", "cross-imp", "butler"]
Factoring = Literal["neuberg", "average", "none"]
AdjustedMode = Literal["fixed", "session"]
CrossImp = Literal["sum", "average", "average-n", "board-average"]
MpTop = Literal["full", "board"]
Winners = Literal["auto", "one", "two"]
Sitout = Literal["none", "scale", "most"]
Fouled = Literal["neuberg", "acbl"]

METHODS: tuple[str, ...] = ("mp", "cross-imp", "butler")
#: ``--mp-decimals exact``: board matchpoints kept unrounded (``mp_decimals=None``), against a producer's rounding.
EXACT = "exact"


IMPS: tuple[str, ...] = ("cross-imp", "butler")


@dataclass(frozen=True)
class Declared:
    """A convention, declared once, in its :class:`Conventions` field: everything else said about it is
    made from this (the checks of every Conventions, ``--help`` and the command-line option, the
    workbook's and website's words, the search for a file's conventions).

    help         the meaning in one line (the workbook's conventions sheet, the website)
    label        what a member reads it as
    choices      the values allowed; ``low``/``high`` (``high_open``) the bounds of a number, ``expect``
                 how the bounds are said in the error
    flag         the command-line option (``--mp-scale``; ``--x/--no-x`` for a switch); None: not one
    kind         the option's type: ``choice``, ``int``, ``float``, ``switch``, ``decimals`` (0-6 or exact) or ``text`` (a name or a path)
    cli_help     the option's help
    scoring      the methods whose results it changes (the website shows it for those)
    search       the values the search for a file's conventions tries, bridgeproc's default first;
                 ``search_rank`` the order it is tried in, ``search_methods`` for which methods
    board        it changes a result's board value (the others change only the standings)
    words        a value in words, for the website
    later        added after archives existed: an archived session's content hash leaves it out while it is
                 at its default, so an unchanged session archived before it is still seen as unchanged
    checks       the checks of the inputs need it too (which pairs are one pair): its option is on every
                 command that checks inputs, ``check`` included, not only on those that rank
    """

    help: str
    label: str
    choices: tuple = ()
    low: float | None = None
    high: float | None = None
    high_open: bool = False
    expect: str = ""
    flag: str | None = None
    kind: str = "choice"
    cli_help: str = ""
    scoring: tuple[str, ...] = METHODS
    search: tuple = ()
    search_rank: int = 0
    search_methods: tuple[str, ...] = ()
    board: bool = False
    words: dict = dataclasses.field(default_factory=dict)
    later: bool = False
    checks: bool = False


def convention(default: object, **declared: object):
    """A :class:`Conventions` field: its default and its one declaration (:class:`Declared`)."""
    return dataclasses.field(default=default, metadata={"declared": Declared(**declared)})  # type: ignore[arg-type]


@dataclass(frozen=True)
class Conventions:
    """Every convention of a ranking run, each declared once in its field (see :class:`Declared` and the
    module docstring for the defaults and why). Attributes, in short:

    method (mp, cross-imp, butler); mp_scale (MPs per result beaten); factoring (boards played fewer
    times); expected (results expected per board, N; None: the most rows on any board); across_field;
    centred (MP - top/2, Norway); mp_decimals (board MPs rounded before totals, Magic Contest);
    ave_plus, ave, ave_minus (percentages of the top); adjusted_mode (fixed, or the pair's own session %);
    cross_imp (how a pair's cross-IMP total is formed); mp_top (full top, or each board on its own, Compscore);
    datum_drop, datum_drop_share (Butler); imp_ave_plus (IMPs per comparison for A+); winners;
    pair_numbering (passed to :func:`bridgeproc.core.pairs.pair_numbering`); sitout (IMP totals scaled for
    missed boards); imp_per_board; fouled (neuberg or ACBL's fixed percentages for small groups).
    """

    method: Method = convention(
        "mp", choices=METHODS, help="ranking method: mp (matchpoints), cross-imp, butler", label="Scoring method",
        flag="--method", cli_help="Ranking method [default: the input PBN's Scoring tag, else mp].",
        words={"mp": "Matchpoints", "cross-imp": "Cross-IMPs", "butler": "Butler IMPs"})
    mp_scale: int = convention(
        2, choices=(2, 1), help="matchpoints per result beaten (2 = EBU/international, 1 = ACBL); a tie scores half",
        label="Matchpoints for each result beaten", flag="--mp-scale",
        cli_help="Matchpoints per result beaten [default: 2].", scoring=("mp",), search=(2, 1), search_rank=5,
        search_methods=("mp",), board=True)
    factoring: Factoring = convention(
        "neuberg", choices=("neuberg", "average", "none"),
        help="boards with fewer results: neuberg, average (missing results count as ties), none",
        label="Boards played fewer times", flag="--factoring", cli_help="Boards played fewer times [default: neuberg].",
        scoring=("mp",), search=("neuberg", "average", "none"), search_rank=3, search_methods=("mp",), board=True,
        words={"neuberg": "Neuberg's formula", "average": "missing results count as ties", "none": "not factored"})
    expected: int | None = convention(
        None, low=1, high=100_000, expect="a number of results from 1 to 100,000",
        help="results expected per board (blank: the most played on any board of the section)",
        label="Results expected on each board", flag="--expected", kind="int",
        cli_help="Results expected per board, for factoring [default: the most played].", scoring=("mp",))
    across_field: bool = convention(
        False, help="boards compared across all sections (True) or within each section",
        label="Boards compared across all sections", flag="--across-field/--within-sections", kind="switch",
        cli_help="Compare each board across all sections, or within each [default: within, unless a PBN input "
                 "scored a board's sections in one ScoreTable].",
        search=(False, True), search_rank=10, search_methods=METHODS, board=True)
    centred: bool = convention(
        False, help="matchpoints shown centred on zero, MP - top/2 (Norway)", label="Matchpoints shown around zero",
        flag="--centred/--no-centred", kind="switch", cli_help="Show matchpoints centred on zero (Norway), or not.",
        scoring=("mp",), search=(False, True), search_rank=1, search_methods=("mp",), board=True)
    mp_decimals: int | None = convention(
        None, low=0, high=6, expect="0 to 6 decimals",
        help="board matchpoints rounded to this many decimals before totals (blank: exact)",
        label="Board matchpoints rounded to", flag="--mp-decimals", kind="decimals",
        cli_help="Round board matchpoints to 0-6 decimals before totalling, or exact [default: exact].",
        scoring=("mp",), search=(None, 1, 2), search_rank=2, search_methods=("mp",))
    ave_plus: float = convention(60.0, help="percentage of the top for average-plus (A+)",
                                 label="Average-plus (A+), % of the top", scoring=("mp",))
    ave: float = convention(50.0, help="percentage of the top for average (A)", label="Average (A), % of the top",
                            scoring=("mp",))
    ave_minus: float = convention(40.0, help="percentage of the top for average-minus (A-)",
                                  label="Average-minus (A-), % of the top", scoring=("mp",))
    adjusted_mode: AdjustedMode = convention(
        "fixed", choices=("fixed", "session"),
        help="fixed: A+/A- are the percentages above; session: or the pair's own session % if better",
        label="Average-plus and own session score", flag="--adjusted",
        cli_help="A+/A-: fixed 60/40 %, or the pair's own session % if better [default: fixed].", scoring=("mp",),
        search=("fixed", "session"), search_rank=6, search_methods=("mp",), board=True,
        words={"fixed": "fixed percentages", "session": "or the pair's own session %, if better"})
    cross_imp: CrossImp = convention(
        "sum", choices=("sum", "average", "average-n", "board-average"),
        help="cross-IMP total: sum, average (per comparison), average-n (per result), "
             "board-average (each board's IMPs per comparison, summed: Compscore, KoPS, BBO)",
        label="Cross-IMP totals", flag="--cross-imp",
        cli_help="Cross-IMP pair total: sum, or average per comparison; board-average: each board's IMPs per "
                 "comparison, summed (Compscore, KoPS, BBO) [default: sum].",
        scoring=("cross-imp",), search=("sum", "board-average", "average", "average-n"), search_rank=7,
        search_methods=("cross-imp",), board=True,
        words={"sum": "summed", "average": "averaged per comparison", "average-n": "averaged per result",
               "board-average": "averaged per board, then summed"})
    mp_top: MpTop = convention(
        "full", choices=("full", "board"),
        help="matchpoints on the full top, or board: each board on its own top, factored to the full top "
             "in the totals (Compscore)",
        label="Top of each board", flag="--mp-top",
        cli_help="Matchpoints on the full top, or each board on its own top, factored to the full top in the "
                 "totals (Compscore) [default: full].",
        scoring=("mp",), search=("full", "board"), search_rank=4, search_methods=("mp",), board=True,
        words={"full": "the full top", "board": "each board's own top"})
    datum_drop: int = convention(
        1, low=0, high=10_000, expect="0 to 10,000", help="Butler: results dropped at each end before the datum is averaged",
        label="Results left out at each end of the datum", flag="--datum-drop", kind="int",
        cli_help="Butler: results dropped at each end of the datum [default: 1].", scoring=("butler",),
        search=(1, 0, 2), search_rank=8, search_methods=("butler",), board=True)
    datum_drop_share: float | None = convention(
        None, low=0, high=0.5, high_open=True, expect="a share below 0.5, e.g. 0.1",
        help="Butler: share of results dropped at each end (overrides datum_drop)",
        label="Share left out at each end of the datum", flag="--datum-drop-share", kind="float",
        cli_help="Butler: share of results dropped at each end (e.g. 0.1); overrides --datum-drop.",
        scoring=("butler",))
    datum_round: int = convention(
        10, choices=(10, 1), help="Butler: the datum rounded to the nearest 10 points (the usual rule) or to the point",
        label="Butler datum rounded to", flag="--datum-round",
        cli_help="Butler: round the datum to the nearest 10 points, or to the point [default: 10].",
        scoring=("butler",), search=(10, 1), search_rank=8, search_methods=("butler",), board=True,
        words={10: "the nearest 10 points", 1: "the nearest point"}, later=True)
    imp_ave_plus: float = convention(
        3.0, low=0, high=24, expect="0 to 24 IMPs",
        help="IMPs per comparison for an average-plus in IMP scoring (A- is minus this)",
        label="IMPs for an average-plus", flag="--imp-ave-plus", kind="float",
        cli_help="IMPs per comparison for an average-plus in IMP scoring [default: 3].", scoring=IMPS,
        search=(3.0, 1.5, 2.0, 1.0, 6.0), search_rank=9, search_methods=IMPS, board=True)
    winners: Winners = convention(
        "auto", choices=("auto", "one", "two"),
        help="one ranking (one) or NS and EW apart (two); auto decides from the movement", label="Winners",
        flag="--winners", cli_help="One ranking, or NS and EW apart [default: auto from the movement].",
        search=("auto", "one", "two"), search_rank=13, search_methods=METHODS,
        words={"auto": "from the movement", "one": "one ranking", "two": "North-South and East-West apart"})
    pair_numbering: PairNumbering = convention(
        "auto", choices=("auto", "shared", "per-direction"),
        help="shared: NS 1 and EW 1 are the same pair; per-direction: they are two pairs", label="Pair numbers",
        flag="--pair-numbering", checks=True,
        cli_help="Whether NS 1 and EW 1 are one pair (shared) or two (per-direction Mitchell) [default: auto, "
                 "from the movement].",
        words={"auto": "from the movement", "shared": "one number per pair",
               "per-direction": "North-South and East-West numbered apart"})
    sitout: Sitout = convention(
        "none", choices=("none", "scale", "most"),
        help="IMP totals: none (plain sums) or scale (to all boards, own average for missed boards); "
             "most: any total x the most boards played by a pair of its group / its boards (Compscore)",
        label="Pairs that missed boards", flag="--sitout",
        cli_help="IMP totals: plain sums, or scaled to all boards for pairs that sat out; most: any total x the "
                 "most boards of a pair of its group / its boards (Compscore) [default: none].",
        scoring=IMPS, search=("none", "scale", "most"), search_rank=11, search_methods=METHODS,
        words={"none": "plain sums", "scale": "scaled to all boards", "most": "scaled to the most boards played"})
    imp_per_board: bool = convention(
        False, help="IMP totals divided by the boards played", label="IMP totals per board played",
        flag="--imp-per-board/--no-imp-per-board", kind="switch", cli_help="IMP totals divided by boards played, or not.",
        scoring=IMPS, search=(False, True), search_rank=12, search_methods=IMPS)
    fouled: Fouled = convention(
        "neuberg", choices=("neuberg", "acbl"),
        help="fouled boards: neuberg (every group factored to the full top) or acbl (groups of 1-3 get 60, "
             "65/55, 70/60/50 %)",
        label="Fouled boards", flag="--fouled",
        cli_help="Fouled boards: every group Neuberg-factored to the full top, or ACBL's 60 / 65-55 / 70-60-50 % "
                 "for groups of 1-3 [default: neuberg].",
        scoring=("mp",),
        words={"neuberg": "each group factored to the full top", "acbl": "ACBL percentages"}, later=True)
    masterpoints: str = convention(
        "auto", kind="text",
        help="masterpoint scale: auto (the one the file names), none, a scale bridgeproc carries (ebu-club, "
             "abf-club) or a club's own scale file (.toml)",
        label="Masterpoint scale", flag="--masterpoints",
        cli_help="Masterpoint scale: ebu-club, abf-club, a scale file (.toml), or none [default: auto, the one "
                 "the input file names].",
        words={"auto": "the one the file names", "none": "no awards"}, later=True)
    handicap_style: str = convention(
        "percentage", choices=("percentage", "score"),
        help="a handicap (--handicaps) added to the percentage (percentage, the EBU's) or to the total in the "
             "method's units (score, Norway's); the scratch ranking is kept beside it",
        label="Handicaps added to", flag="--handicap-style",
        cli_help="With --handicaps: add each handicap to the percentage (the EBU's) or to the total (Norway's) "
                 "[default: percentage].",
        words={"percentage": "the percentage", "score": "the total score"}, later=True)
    strata: str = convention(
        "500,100", kind="text",
        help="with --holdings: the masterpoint holdings under which strata B, C ... begin (a pair's holdings are "
             "its players' average; A is everyone)",
        label="Strata begin under", flag="--strata",
        cli_help="With --holdings: the holdings under which strata B, C ... begin, highest first [default: "
                 "500,100].", later=True)

    def __post_init__(self) -> None:
        for name, declared in DECLARED.items():
            value = getattr(self, name)
            if declared.choices and value not in declared.choices:
                raise ValueError(f"{name}={value!r}; expected one of {', '.join(map(str, declared.choices))}")
            if value is None or isinstance(value, bool) or (declared.low is None and declared.high is None):
                continue
            high_ok = declared.high is None or (value < declared.high if declared.high_open else value <= declared.high)
            if (declared.low is not None and value < declared.low) or not high_ok:
                raise ValueError(f"{name}={value}; expected {declared.expect}")

    def replace(self, **changes: object) -> Conventions:
        """A copy with some conventions changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> dict[str, object]:
        """The conventions as a plain dict, for the workbook's "conventions used" sheet."""
        return dataclasses.asdict(self)


#: Every convention's declaration, by name, in the order of the fields.
DECLARED: dict[str, Declared] = {f.name: f.metadata["declared"] for f in dataclasses.fields(Conventions)}
#: One line per convention, for the workbook's conventions sheet and the website (from the declarations).
CONVENTION_HELP: dict[str, str] = {name: d.help for name, d in DECLARED.items()}
#: Each convention as a member reads it, for the workbook's conventions sheet and the website.
CONVENTION_LABELS: dict[str, str] = {name: d.label for name, d in DECLARED.items()}


def convention_label(name: str) -> str:
    """What a member reads for the convention ``name`` (``mp_scale`` -> ``Matchpoints for each result beaten``)."""
    return CONVENTION_LABELS.get(name, name.replace("_", " ").capitalize())


def convention_words(name: str, value: object) -> str | None:
    """``value`` of the convention ``name`` in words (``winners`` ``two`` -> North-South and East-West apart);
    None when its declaration says none."""
    declared = DECLARED.get(name)
    return None if declared is None else declared.words.get(value)


#: Named bundles. ``ebu``/``wbf``: 2/1 MPs, Neuberg, A+ = 60 % or own session %
#: (WBF Laws Committee 1998/2000, EBU White Book). ``acbl``: 1/½ MPs and the ASE
#: formula (= Neuberg on 1/½) and its fixed percentages for small fouled-board groups
#: (ACBLscore manual); A+ kept at a flat 60 % (not verified against ACBLscore).
#: IMP conventions are not part of a federation's profile: no federation rule was found for them.
#: Producers' profiles, each verified against its real files (tests/data/realdata/README.md):
#: ``compscore`` (Compscore3, Australia: board tops, totals scaled to the most boards, cross-IMPs
#: averaged per board; picked by a USEBIO file's ``PROGRAM_NAME``), ``kops`` (the Polish KoPS:
#: cross-IMPs averaged per board), ``bbo`` (BridgeBase Online: percentages over the real results
#: only, no factoring; cross-IMPs averaged per board).
PROFILES: dict[str, Conventions] = {
    "default": Conventions(),
    "ebu": Conventions(mp_scale=2, factoring="neuberg", adjusted_mode="session", datum_drop=1),
    "wbf": Conventions(mp_scale=2, factoring="neuberg", adjusted_mode="session"),
    "acbl": Conventions(mp_scale=1, factoring="neuberg", adjusted_mode="fixed", fouled="acbl"),
    "compscore": Conventions(mp_top="board", sitout="most", cross_imp="board-average"),
    "kops": Conventions(cross_imp="board-average"),
    "bbo": Conventions(factoring="none", cross_imp="board-average"),
}

@dataclass(frozen=True)
class Producer:
    """A scoring program whose files bridgeproc reads, the conventions it scores by, and the real
    file (tests/data/realdata/) or the issue that shows them."""

    name: str
    #: Spellings the files give (``PROGRAM_NAME``, ``%Creator``, a Generator META or tag), lower case,
    #: spaces removed, each matched as a prefix.
    spellings: tuple[str, ...]
    conventions: Conventions
    #: What shows the conventions: a real file's name, or where they were reported.
    shown_by: str


#: Every producer seen, first match wins (``bboextractor`` before ``bbo``). Where a producer's own
#: conventions could not be seen in a file (no artificial score, no short board), the defaults
#: stand and ``shown_by`` says what the file does show; the search of :mod:`bridgeproc.rank.reproduce`
#: still finds what a file's numbers say.
PRODUCER_TABLE: tuple[Producer, ...] = (
    Producer("Compscore", ("compscore",), PROFILES["compscore"],
             "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml (board tops, totals x most boards), "
             "aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml (cross-IMPs averaged per board)"),
    Producer("KoPS", ("kops",), PROFILES["kops"], "pol-chorzow-2013-08-07-imp-kops-pbntools.pbn (with its pages)"),
    Producer("BBO Extractor", ("bboextractor",), Conventions(),
             "eng-crawley-bc-2025-01-06-mp-bbo-online-bboextractor.usebio.xml (plain 2-per-beat MPs, Neuberg)"),
    Producer("BBO", ("bridgebase", "bbo"), PROFILES["bbo"],
             "bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn (percentages on the real results only)"),
    Producer("EBUScore", ("ebuscore",), Conventions(),
             "eng-island-bridge-2025-01-06-mp-ebuscore.usebio.xml (plain 2-per-beat MPs; no artificial score)"),
    Producer("PairsScorer", ("pairsscorer",), Conventions(),
             "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml (A5050 at 50 %, Neuberg; across "
             "the field where its tops say so)"),
    Producer("TeamsScorer", ("teamsscorer",), Conventions(cross_imp="board-average"),
             "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml (pairwise cross-IMPs per comparison)"),
    Producer("ScoreBridge", ("scorebridge",), Conventions(factoring="average", mp_decimals=1),
             "issue 25: missing results counted as ties, totals of one-decimal board MPs (files kept aside)"),
    Producer("Pianola", ("pianola",), Conventions(cross_imp="board-average"),
             "issue 25: USEBIO cross-IMPs averaged per board, as Compscore's (files kept aside)"),
    Producer("BriAn", ("brian",), Conventions(factoring="none"), "issue 25: no factoring (files kept aside)"),
    Producer("RealBridge", ("realbridge",), Conventions(),
             "flat Avg+ 60 % (adjusted fixed), tests/data/realdata/README.md"),
    Producer("Magic Contest", ("magiccontest",), Conventions(mp_decimals=1),
             "ffb-dn1-open2-s1-2022.pbn (totals of one-decimal board MPs)"),
    Producer("Ruter i Norge", ("ruterinorge",), Conventions(centred=True),
             "nor-ostfold-follo-2022-05-08-km-par.pbn, nor-nesodden-bk-2022-10-04-hostsingel-individual.pbn "
             "(matchpoints centred on zero)"),
    Producer("Ruter", ("ruter",), Conventions(),
             "fin-sm-parikilpailu-2014-s1.pbn, swe-bridgefestival-orebro-2011-silver1-crossimp.pbn (the Scoring tag)"),
    Producer("JFR Pary", ("jfr",), Conventions(), "pol-warsaw-2012-08-02-barometer-jfrpary-pbntools.pbn"),
    Producer("Bridgemate", ("bridgemate", "bcs"), Conventions(), "bridgemate-sample.bws (no published numbers)"),
    Producer("BridgeWebs", ("bridgewebs",), Conventions(),
             "winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn (no published numbers)"),
)


def producer(program: str | None) -> Producer | None:
    """The producer that wrote a file, from the program name it gives (``Compscore3``, ``Ruter i Norge``)."""
    name = (program or "").strip().lower().replace(" ", "")
    if not name:
        return None
    return next((p for p in PRODUCER_TABLE if any(name.startswith(s) for s in p.spellings)), None)


def producer_profile(program: str | None) -> str | None:
    """The named profile of the program that wrote a file (``Compscore3`` -> ``compscore``), else None."""
    found = producer(program)
    return next((name for name, conv in PROFILES.items() if found and conv == found.conventions
                 and name not in ("default",)), None)


#: The values the search for a file's conventions tries (:mod:`bridgeproc.rank.reproduce`, the
#: ``conventions`` command), each field's first value tried being bridgeproc's default: from the declarations.
#: The fields of :data:`BOARD_FIELDS` change the board values; the others only who is ranked with whom and totals.
SEARCH_SPACE: dict[str, tuple] = {name: d.search for name, d in DECLARED.items() if d.search}
#: The fields the search tries for each method, in the order it tries them.
SEARCH_FIELDS: dict[str, tuple[str, ...]] = {
    method: tuple(sorted((name for name, d in DECLARED.items() if method in d.search_methods),
                         key=lambda name: DECLARED[name].search_rank)) for method in METHODS}
#: Fields that change a result's board value (the rest change only standings).
BOARD_FIELDS = frozenset(name for name, d in DECLARED.items() if d.board)


def profile(name: str, **overrides: object) -> Conventions:
    """The conventions of a named profile, with ``overrides`` applied.

    Raises ValueError naming the known profiles when ``name`` is unknown.
    """
    try:
        base = PROFILES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; expected one of {', '.join(PROFILES)}") from None
    return base.replace(**overrides) if overrides else base


def parse_scoring_tag(tag: str, base: Conventions = Conventions()) -> Conventions:
    """Read a PBN ``Scoring`` tag (``MatchPoints;MP1``, ``IMP;Cross2``, ``IMP;Butler-2;Mean``).

    The method and the conventions the tag names are set on ``base``; conventions the
    tag does not mention keep ``base``'s values. Unknown modifiers are ignored (PBN
    allows program-specific ones). Raises ValueError when the tag names no pairs
    method bridgeproc knows.

    PBN modifiers read: ``MP1`` 2 per beaten (reference 7.1), ``MP2`` 1 per beaten,
    ``Cross``/``Cross1``/``Cross2`` the cross-IMP total (and bridgeproc's own
    ``BoardAverage`` for ``cross_imp="board-average"``), ``Butler`` and ``Butler-K``
    (K extreme scores dropped in all, K/2 at each end; ``Butler-2`` drops one at each
    end), ``Mean`` (the datum is a mean: the only kind supported).
    """
    parts = [p.strip().lower() for p in tag.replace(",", ";").split(";") if p.strip()]
    if not parts:
        raise ValueError("empty Scoring tag; expected e.g. MatchPoints, IMP;Cross or IMP;Butler-2")
    changes: dict[str, object] = {}
    head, mods = parts[0], parts[1:]
    if head in ("matchpoints", "mp", "mps", "pairs"):
        changes["method"] = "mp"
    elif head in ("imp", "imps", "butler", "cross"):
        changes["method"] = "cross-imp"
        mods = [head] + mods if head != "imp" and head != "imps" else mods
    else:
        raise ValueError(f"Scoring tag {tag!r} names no pairs method; expected MatchPoints, IMP;Cross or IMP;Butler")
    for mod in mods:
        if mod == "mp1":
            changes["mp_scale"] = 2
        elif mod == "mp2":
            changes["mp_scale"] = 1
        elif mod == "cross":
            changes.update(method="cross-imp", cross_imp="sum")
        elif mod == "cross1":
            changes.update(method="cross-imp", cross_imp="average-n")
        elif mod == "cross2":
            changes.update(method="cross-imp", cross_imp="average")
        elif mod == "boardaverage":
            changes.update(method="cross-imp", cross_imp="board-average")
        elif mod.startswith("butler"):
            changes["method"] = "butler"
            count = mod[len("butler"):].lstrip("-")
            if count.isdigit():
                changes["datum_drop"] = int(count) // 2
    return base.replace(**changes)


def scoring_tag(conventions: Conventions) -> str:
    """The PBN ``Scoring`` tag that :func:`parse_scoring_tag` reads back as these conventions'
    method, scale, cross-IMP total and Butler drop (what a PBN can say; the rest is not kept)."""
    if conventions.method == "mp":
        return "MatchPoints;MP1" if conventions.mp_scale == 2 else "MatchPoints;MP2"
    if conventions.method == "cross-imp":
        return {"sum": "IMP;Cross", "average": "IMP;Cross2", "average-n": "IMP;Cross1",
                "board-average": "IMP;Cross;BoardAverage"}[conventions.cross_imp]
    if conventions.datum_drop_share is not None:
        return "IMP;Butler;Mean"
    return f"IMP;Butler-{2 * conventions.datum_drop};Mean"
