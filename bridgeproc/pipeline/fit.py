"""Which conventions reproduce a file's published numbers (``bridgeproc conventions FILE...``).

A file that publishes its numbers (board MPs or IMPs, datums, totals, percentages, places)
was scored by some program with some conventions. This tries bridgeproc's named profiles
and the options that change published numbers for the file's method, scores the file with
each, and counts, per kind, how many published numbers each set reproduces. The best set is
the one that reproduces most, then the one that differs least from bridgeproc's defaults;
a director migrating from another program, or checking one, reads which options to use.

The inputs are read and checked once; each candidate only ranks (vectorised), so a club
evening's few hundred candidates take seconds.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.model import Options
from bridgeproc.pipeline.read import read_inputs
from bridgeproc.pipeline.run import session_conventions, validate_inputs
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.conventions import PROFILES
from bridgeproc.rank.methods import ranking_method
from bridgeproc.rank.published import published_agreement

#: Options tried per method (every combination), beside the named profiles.
GRID: dict[str, dict[str, tuple]] = {
    "mp": {"mp_top": ("full", "board"), "factoring": ("neuberg", "average", "none"), "mp_decimals": (None, 1, 2),
           "centred": (False, True), "mp_scale": (2, 1), "sitout": ("none", "most")},
    "cross-imp": {"cross_imp": ("sum", "average", "average-n", "board-average"), "sitout": ("none", "scale", "most"),
                  "imp_per_board": (False, True)},
    "butler": {"datum_drop": (0, 1, 2), "sitout": ("none", "scale", "most"), "imp_per_board": (False, True)},
}
#: The published kinds that depend on who is ranked with whom (the rest are board values).
STANDINGS_KINDS = ("totals", "percentages", "places")
#: The rankings every candidate's board scores are ranked in (one winner, two, or as the movement says).
WINNERS = ("auto", "one", "two")
#: The fields a candidate may differ in from the defaults (what the report names as options).
_NAMED = sorted({name for grid in GRID.values() for name in grid} | {"method", "across_field", "datum_drop_share",
                                                                      "adjusted_mode", "fouled", "winners"})


@dataclass(frozen=True)
class Fit:
    """How well one set of conventions reproduces the published numbers.

    ``name`` is the profile's name or ``options``; ``kinds`` has ``kind, compared, agree``."""

    name: str
    conventions: Conventions
    kinds: pd.DataFrame
    #: What ``bridgeproc score`` uses on the file with no options (its Scoring tag, its producer's profile).
    file_base: Conventions | None = None

    @property
    def agree(self) -> int:
        return int(self.kinds["agree"].sum())

    @property
    def compared(self) -> int:
        return int(self.kinds["compared"].sum())

    @property
    def exact(self) -> bool:
        return self.compared > 0 and self.agree == self.compared

    def options(self) -> list[str]:
        """The shortest command-line options that give these conventions on this file: none when
        they are what ``score`` uses anyway, else what differs from that, or ``--profile NAME``
        and what differs from the profile."""
        keep = {"method": self.conventions.method, "across_field": self.conventions.across_field,
                "pair_numbering": self.conventions.pair_numbering}
        base = self.file_base or Conventions()
        ways = [option_flags(self.conventions, base.replace(**keep))]
        ways += [[f"--profile {name}", *option_flags(self.conventions, profile.replace(**keep))]
                 for name, profile in PROFILES.items()]
        if self.conventions.method != base.method:
            ways = [[f"--method {self.conventions.method}", *w] for w in ways]
        return min(ways, key=len)

    def summary(self) -> str:
        """``MP_NS 322/322, totals 12/12, ...``."""
        return ", ".join(self.kinds["kind"] + " " + self.kinds["agree"].astype(str) + "/"
                         + self.kinds["compared"].astype(str))


def option_flags(conventions: Conventions, base: Conventions = Conventions()) -> list[str]:
    """``--cross-imp board-average`` ... for each named field that differs from ``base``."""
    flags = []
    for name in _NAMED:
        value, default = getattr(conventions, name), getattr(base, name)
        if value == default:
            continue
        if name == "method":
            continue  # the file names its method; Fit.options adds --method when another one fits
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else {"across_field": "--within-sections"}.get(name, f"--no-{flag[2:]}"))
        elif value is not None:
            flags.append(f"{flag} {value}")
    return flags


def _candidates(base: Conventions, methods: list[str]) -> list[tuple[str, Conventions]]:
    """The file's own (or producer's) conventions, each profile for the method, then the grid."""
    found: list[tuple[str, Conventions]] = [("as the file says", base)]
    for method in methods:
        keep = {"method": method, "across_field": base.across_field, "pair_numbering": base.pair_numbering}
        found += [(f"profile {name}", conventions.replace(**keep)) for name, conventions in PROFILES.items()]
        grid = GRID[method]
        for values in itertools.product(*grid.values()):
            found.append(("options", base.replace(**keep, **dict(zip(grid, values)))))
    unique: dict[Conventions, str] = {}  # the first name a set of conventions is met under
    for name, conventions in found:
        unique.setdefault(conventions, name)
    return [(name, conventions) for conventions, name in unique.items()]


#: Columns of a ``--published`` table (the other program's travellers, typed or converted from its
#: pages): the result's board and pairs, then any of these values (NS side), -> (our column, label).
GIVEN = {"mp_ns": ("points", "given board MPs"), "pct_ns": ("pct_ns", "given board %"),
         "imp_ns": ("points", "given board IMPs")}
TOLERANCE = 0.051


def read_published(path) -> pd.DataFrame:
    """A published-numbers table: ``board, ns, ew`` (pair ids as the inputs name them; section
    optional) and one or more of ``mp_ns, pct_ns, imp_ns``. Refused, naming what is missing."""
    table = pd.read_csv(path, dtype="string")
    table.columns = [str(c).strip().lower() for c in table.columns]
    missing = [c for c in ("board", "ns", "ew") if c not in table]
    if missing or not set(GIVEN) & set(table.columns):
        raise BridgeprocError(f"{path}: a published table needs the columns board, ns, ew and one of "
                              f"{', '.join(GIVEN)} (missing: {', '.join(missing) or 'a value column'})")
    return table


def _given_agreement(given: pd.DataFrame, results: pd.DataFrame, method: str) -> pd.DataFrame:
    """``kind, compared, agree`` of a published table against our results, matched by board and pairs."""
    def keys(frame: pd.DataFrame) -> pd.DataFrame:
        section = frame["section"].astype("string").fillna("") if "section" in frame else ""
        return pd.DataFrame({"section": section, "board": pd.to_numeric(frame["board"], errors="coerce"),
                             "ns": frame["ns"].astype("string").str.strip().str.casefold(),
                             "ew": frame["ew"].astype("string").str.strip().str.casefold()})
    points = ranking_method(method).points[0]
    ours = keys(results).assign(points=results[points].to_numpy(dtype=float, na_value=float("nan")),
                                pct_ns=results["pct_ns"] if "pct_ns" in results else float("nan"))
    if "section" not in given:
        ours = ours.assign(section="")
    theirs = keys(given)
    rows = []
    for column, (mine, label) in GIVEN.items():
        if column not in given:
            continue
        both = theirs.assign(published=pd.to_numeric(given[column], errors="coerce")).dropna(subset=["published"])
        both = both.merge(ours[["section", "board", "ns", "ew", mine]], on=["section", "board", "ns", "ew"], how="left")
        agree = ((both["published"] - both[mine].astype(float)).abs() <= TOLERANCE).sum()
        rows.append({"kind": label, "compared": len(both), "agree": int(agree)})
    return pd.DataFrame(rows, columns=["kind", "compared", "agree"])


def fit_conventions(inputs: list, options: Options = Options(), published=None) -> list[Fit]:
    """Every candidate set of conventions with how many published numbers it reproduces, best first.

    ``published`` is a table of the other program's numbers (see :func:`read_published`), for a
    file that does not carry them (a conversion from the program's web pages). Raises
    BridgeprocError when there are no published numbers to compare with.
    """
    given = read_published(published) if published is not None else None
    read = read_inputs(list(inputs), options)
    if not read.raws:
        raise BridgeprocError("no results in the inputs: nothing published to reproduce")
    raw, _, names = read.frames()
    base = session_conventions(options, read.meta, read.across_field)
    checked = validate_inputs(read, options, base.pair_numbering, strict_rules=False)
    totals = pd.concat(read.published_totals, ignore_index=True) if read.published_totals else None
    imps = [m for m in ("cross-imp", "butler") if m != base.method]
    methods = [base.method] + (imps if base.method != "mp" else [])
    fits = []
    seen: set[Conventions] = set()
    for name, conventions in _candidates(base, methods):
        decided = conventions.replace(pair_numbering=checked.numbering)
        results = rank_results(checked.results, decided)
        board_kinds = _given_agreement(given, results, conventions.method) if given is not None else None
        # who is ranked with whom changes only the standings: each board scoring is ranked each way
        for winners in dict.fromkeys((conventions.winners, *WINNERS)):
            candidate = conventions.replace(winners=winners)
            if candidate in seen:
                continue
            seen.add(candidate)
            table = standings(results, decided.replace(winners=winners), names if len(names) else None)
            kinds = published_agreement(raw, results, conventions.method, table, totals)
            if board_kinds is not None:
                kinds = pd.concat([kinds, board_kinds], ignore_index=True)
            fits.append(Fit(name if winners == conventions.winners else "options", candidate, kinds))
            ranked = kinds["kind"].isin(STANDINGS_KINDS)
            agree = kinds["agree"] == kinds["compared"]
            if agree[ranked].all() or not agree[~ranked].all():
                break  # the standings agree already, or the board values do not: another ranking cannot win
    if not any(fit.compared for fit in fits):
        raise BridgeprocError("the inputs publish no board values, datums, totals, percentages or places to "
                              "reproduce; give a file scored by another program (a PBN ScoreTable, a USEBIO export)")
    fits = [dataclasses.replace(fit, file_base=base) for fit in fits]
    order = sorted(range(len(fits)), key=lambda i: (-fits[i].agree, len(fits[i].options()), i))
    return [fits[i] for i in order]


def describe_fit(fits: list[Fit]) -> list[str]:
    """What a director reads: the reproducing set (or the closest and where it differs)."""
    best = fits[0]
    flags = " ".join(best.options()) or "no options (what score does on this file)"
    if best.exact:
        lines = [f"Reproduced: {best.summary()}", f"  with: {flags}"]
    else:
        lines = [f"Not reproduced exactly; closest: {best.summary()}", f"  with: {flags}"]
        missed = best.kinds[best.kinds["agree"] < best.kinds["compared"]]
        lines.append("  differs in: " + ", ".join((missed["compared"] - missed["agree"]).astype(str) + " " + missed["kind"]))
    seen = {flags}
    for fit in fits[1:]:
        other = " ".join(fit.options()) or "no options"
        if fit.agree < best.agree or len(seen) > 3:
            break
        if other not in seen:
            seen.add(other)
            lines.append(f"  or: {other}")
    return lines


__all__ = ["Fit", "fit_conventions", "describe_fit", "option_flags", "GRID"]
