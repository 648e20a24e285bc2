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

from bridgeproc.core.pairs import PairNumbering

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


@dataclass(frozen=True)
class Conventions:
    """Every convention of a ranking run; see the module docstring for the defaults.

    Attributes
    ----------
    method : ``"mp"`` | ``"cross-imp"`` | ``"butler"``
        The ranking method (used by :func:`bridgeproc.rank.rank_results`).
    mp_scale : 2 | 1
        Matchpoints per result beaten (a tie is half of it).
    factoring : ``"neuberg"`` | ``"average"`` | ``"none"``
        How a board with fewer results than expected is brought to the full top.
        ``"average"`` (ScoreBridge's "average for the missing result") counts every
        missing result as a tie: MP' = MP + (N - n) x scale/2, top = scale x (N - 1).
    expected : int or None
        Results expected on every board (N); None means the most rows (not ``NP``)
        on any board of the section (of the field with ``across_field``).
    across_field : bool
        Compare a board across all sections instead of within its section.
    centred : bool
        Publish matchpoints centred on zero (Norway): MP - top/2.
    mp_decimals : int or None
        Round each board's MPs (halves away from zero) to this many decimals, so that
        totals are sums of the published board figures (Magic Contest prints and sums
        one decimal). None keeps them exact.
    ave_plus, ave, ave_minus : float
        Percentages of the full top for A+, A, A-.
    adjusted_mode : ``"fixed"`` | ``"session"``
        ``"session"``: A+ = max(ave_plus, pair's own % on its other boards),
        A- = min(ave_minus, own %).
    cross_imp : ``"sum"`` | ``"average"`` | ``"average-n"`` | ``"board-average"``
        How a pair's cross-IMP total is formed (board IMPs are the sums, except with
        ``"board-average"``: each result's sum divided by its comparisons, totals their sum).
    mp_top : ``"full"`` | ``"board"``
        Matchpoints on the full top, or each board on its own top on the traveller and
        factored to the full top in the totals (Compscore).
    datum_drop : int
        Butler: results dropped at each end before averaging.
    datum_drop_share : float or None
        Butler: share dropped at each end (overrides ``datum_drop``).
    imp_ave_plus : float
        IMPs per comparison for A+ (A- is the negative, A is 0; a fixed percentage p
        gives (p - 50)/10 x imp_ave_plus).
    winners : ``"auto"`` | ``"one"`` | ``"two"``
        One ranking of all pairs, or NS and EW apart; auto decides from the results.
    pair_numbering : ``"auto"`` | ``"shared"`` | ``"per-direction"``
        Passed to :func:`bridgeproc.movement.pair_numbering`.
    sitout : ``"none"`` | ``"scale"`` | ``"most"``
        IMP standings: scale totals to all boards of the section; ``"most"``: every
        method's totals to the most boards played by a pair of the ranking group.
    imp_per_board : bool
        IMP standings: publish the total divided by the boards played (the Norwegian
        teams-Butler file prints 41/14 = 2.93).
    fouled : ``"neuberg"`` | ``"acbl"``
        Fouled boards: every group Neuberg-factored to the full top, or ACBL's fixed
        percentages for groups of 1, 2 and 3 (a group of 3 only when it is not the
        largest group of the board).
    """

    method: Method = "mp"
    mp_scale: int = 2
    factoring: Factoring = "neuberg"
    expected: int | None = None
    across_field: bool = False
    centred: bool = False
    mp_decimals: int | None = None
    ave_plus: float = 60.0
    ave: float = 50.0
    ave_minus: float = 40.0
    adjusted_mode: AdjustedMode = "fixed"
    cross_imp: CrossImp = "sum"
    mp_top: MpTop = "full"
    datum_drop: int = 1
    datum_drop_share: float | None = None
    imp_ave_plus: float = 3.0
    winners: Winners = "auto"
    pair_numbering: PairNumbering = "auto"
    sitout: Sitout = "none"
    imp_per_board: bool = False
    fouled: Fouled = "neuberg"

    def __post_init__(self) -> None:
        checks = {
            "method": (self.method, METHODS),
            "mp_scale": (self.mp_scale, (1, 2)),
            "factoring": (self.factoring, ("neuberg", "average", "none")),
            "adjusted_mode": (self.adjusted_mode, ("fixed", "session")),
            "cross_imp": (self.cross_imp, ("sum", "average", "average-n", "board-average")),
            "mp_top": (self.mp_top, ("full", "board")),
            "winners": (self.winners, ("auto", "one", "two")),
            "pair_numbering": (self.pair_numbering, ("auto", "shared", "per-direction")),
            "sitout": (self.sitout, ("none", "scale", "most")),
            "fouled": (self.fouled, ("neuberg", "acbl")),
        }
        for name, (value, allowed) in checks.items():
            if value not in allowed:
                raise ValueError(f"{name}={value!r}; expected one of {', '.join(map(str, allowed))}")
        if self.datum_drop < 0:
            raise ValueError(f"datum_drop={self.datum_drop}; expected 0 or more")
        if self.datum_drop_share is not None and not 0 <= self.datum_drop_share < 0.5:
            raise ValueError(f"datum_drop_share={self.datum_drop_share}; expected a share below 0.5, e.g. 0.1")
        if self.mp_decimals is not None and not 0 <= self.mp_decimals <= 6:
            raise ValueError(f"mp_decimals={self.mp_decimals}; expected 0 to 6 decimals")
        if self.expected is not None and self.expected < 1:
            raise ValueError(f"expected={self.expected}; expected a number of results of 1 or more")

    def replace(self, **changes: object) -> Conventions:
        """A copy with some conventions changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> dict[str, object]:
        """The conventions as a plain dict, for the workbook's "conventions used" sheet."""
        return dataclasses.asdict(self)


#: One line per convention, for ``--help`` texts and the workbook's conventions sheet.
CONVENTION_HELP: dict[str, str] = {
    "method": "ranking method: mp (matchpoints), cross-imp, butler",
    "mp_scale": "matchpoints per result beaten (2 = EBU/international, 1 = ACBL); a tie scores half",
    "factoring": "boards with fewer results: neuberg, average (missing results count as ties), none",
    "expected": "results expected per board (blank: the most played on any board of the section)",
    "across_field": "boards compared across all sections (True) or within each section",
    "centred": "matchpoints shown centred on zero, MP - top/2 (Norway)",
    "mp_decimals": "board matchpoints rounded to this many decimals before totals (blank: exact)",
    "ave_plus": "percentage of the top for average-plus (A+)",
    "ave": "percentage of the top for average (A)",
    "ave_minus": "percentage of the top for average-minus (A-)",
    "adjusted_mode": "fixed: A+/A- are the percentages above; session: or the pair's own session % if better",
    "cross_imp": "cross-IMP total: sum, average (per comparison), average-n (per result), "
                 "board-average (each board's IMPs per comparison, summed: Compscore, KoPS, BBO)",
    "mp_top": "matchpoints on the full top, or board: each board on its own top, factored to the full top "
              "in the totals (Compscore)",
    "datum_drop": "Butler: results dropped at each end before the datum is averaged",
    "datum_drop_share": "Butler: share of results dropped at each end (overrides datum_drop)",
    "imp_ave_plus": "IMPs per comparison for an average-plus in IMP scoring (A- is minus this)",
    "winners": "one ranking (one) or NS and EW apart (two); auto decides from the movement",
    "pair_numbering": "shared: NS 1 and EW 1 are the same pair; per-direction: they are two pairs",
    "sitout": "IMP totals: none (plain sums) or scale (to all boards, own average for missed boards); "
              "most: any total x the most boards played by a pair of its group / its boards (Compscore)",
    "imp_per_board": "IMP totals divided by the boards played",
    "fouled": "fouled boards: neuberg (every group factored to the full top) or acbl (groups of 1-3 get 60, 65/55, 70/60/50 %)",
}

#: Each convention as a member reads it, for the workbook's conventions sheet and the website
#: (the option names above are Python's).
CONVENTION_LABELS: dict[str, str] = {
    "method": "Scoring method",
    "mp_scale": "Matchpoints for each result beaten",
    "factoring": "Boards played fewer times",
    "expected": "Results expected on each board",
    "across_field": "Boards compared across all sections",
    "centred": "Matchpoints shown around zero",
    "mp_decimals": "Board matchpoints rounded to",
    "ave_plus": "Average-plus (A+), % of the top",
    "ave": "Average (A), % of the top",
    "ave_minus": "Average-minus (A-), % of the top",
    "adjusted_mode": "Average-plus and own session score",
    "cross_imp": "Cross-IMP totals",
    "mp_top": "Top of each board",
    "datum_drop": "Results left out at each end of the datum",
    "datum_drop_share": "Share left out at each end of the datum",
    "imp_ave_plus": "IMPs for an average-plus",
    "winners": "Winners",
    "pair_numbering": "Pair numbers",
    "sitout": "Pairs that missed boards",
    "imp_per_board": "IMP totals per board played",
    "fouled": "Fouled boards",
}


def convention_label(name: str) -> str:
    """What a member reads for the convention ``name`` (``mp_scale`` -> ``Matchpoints for each result beaten``)."""
    return CONVENTION_LABELS.get(name, name.replace("_", " ").capitalize())

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
#: ``conventions`` command), each field's first value tried being bridgeproc's default. The fields of
#: :data:`BOARD_FIELDS` change the board values; the others only who is ranked with whom and totals.
SEARCH_SPACE: dict[str, tuple] = {
    "mp_scale": (2, 1), "factoring": ("neuberg", "average", "none"), "mp_decimals": (None, 1, 2),
    "centred": (False, True), "mp_top": ("full", "board"), "adjusted_mode": ("fixed", "session"),
    "cross_imp": ("sum", "board-average", "average", "average-n"), "imp_ave_plus": (3.0, 1.5, 2.0, 1.0, 6.0),
    "datum_drop": (1, 0, 2), "across_field": (False, True), "sitout": ("none", "scale", "most"),
    "imp_per_board": (False, True), "winners": ("auto", "one", "two"),
}
#: The fields the search tries for each method.
SEARCH_FIELDS: dict[str, tuple[str, ...]] = {
    "mp": ("centred", "mp_decimals", "factoring", "mp_top", "mp_scale", "adjusted_mode", "across_field", "sitout",
           "winners"),
    "cross-imp": ("cross_imp", "imp_ave_plus", "across_field", "sitout", "imp_per_board", "winners"),
    "butler": ("datum_drop", "imp_ave_plus", "across_field", "sitout", "imp_per_board", "winners"),
}
#: Fields that change a result's board value (the rest change only standings).
BOARD_FIELDS = frozenset({"mp_scale", "factoring", "centred", "mp_top", "adjusted_mode", "imp_ave_plus",
                          "datum_drop", "across_field", "cross_imp"})


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
