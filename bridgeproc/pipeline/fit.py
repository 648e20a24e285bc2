"""Which conventions reproduce a file's published numbers (``bridgeproc conventions FILE...``).

A file that publishes its numbers (board MPs or IMPs, datums, totals, percentages, places)
was scored by some program with some conventions. ``bridgeproc score`` finds them by itself
(:mod:`bridgeproc.rank.reproduce`); this command shows the same search's answer in words: what it
reproduces, the options that give it on the command line, and the other sets that do as well.
A director migrating from another program, or checking one, reads which options to use.

The inputs are read and checked once; each candidate only ranks (vectorised).
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from bridgeproc.errors import BridgeprocError, TeamsEventError
from bridgeproc.model import Options
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.run import director_chose, other_methods, session_conventions, validate_inputs
from bridgeproc.rank import Conventions
from bridgeproc.rank.methods import ranking_method
from bridgeproc.rank.reproduce import Tally, option_flags, reproduce


@dataclass(frozen=True)
class Fit(Tally):
    """How well one set of conventions reproduces the published numbers.

    ``name`` is where the set came from; ``kinds`` has ``kind, compared, agree``."""

    name: str
    conventions: Conventions
    kinds: pd.DataFrame
    #: Where the search started: the file's own conventions (its producer's, its Scoring tag, its sections).
    file_base: Conventions | None = None
    #: True for the set ``bridgeproc score`` ranks the file by when given no options.
    by_default: bool = False

    def options(self) -> list[str]:
        """The command-line options that give these conventions on this file, from what the file
        itself says (its producer, Scoring tag and sections): none when they are the file's own."""
        return option_flags(self.conventions, self.file_base or Conventions())



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
    """Every set of conventions the search compared, with how many published numbers each
    reproduces, best first (the one ``score`` uses first among equals).

    ``published`` is a table of the other program's numbers (see :func:`read_published`), for a
    file that does not carry them (a conversion from the program's web pages). Raises
    BridgeprocError when there are no published numbers to compare with.
    """
    given = read_published(published) if published is not None else None
    read = read_inputs(list(inputs), options)
    read.refuse_teams()
    if not read.raws:
        raise BridgeprocError("no results in the inputs: nothing published to reproduce")
    raw, _, names = read.frames()
    base = session_conventions(options, read.meta, read.across_field)
    checked = validate_inputs(read, options, base.pair_numbering, strict_rules=False)
    totals = pd.concat(read.published_totals, ignore_index=True) if read.published_totals else None
    extra = (lambda ranked, method: _given_agreement(given, ranked, method)) if given is not None else None
    found = reproduce(checked.results, raw, base, checked.numbering, totals, names if len(names) else None,
                      methods=other_methods(base.method), given=extra)
    if not found.compared:
        raise BridgeprocError("the inputs publish no board values, datums, totals, percentages or places to "
                              "reproduce; give a file scored by another program (a PBN ScoreTable, a USEBIO export)")
    chosen = director_chose(options)
    fits = [Fit("as the file says" if conventions == base else "search", conventions, kinds, base,
                by_default=not chosen and conventions == found.conventions)
            for conventions, kinds in found.tried]
    if not any(fit.conventions == found.conventions for fit in fits):
        fits.append(Fit("search", found.conventions, found.kinds, base, by_default=not chosen))
    order = sorted(range(len(fits)), key=lambda i: (-fits[i].agree, not fits[i].by_default,
                                                    len(fits[i].options()), i))
    return [fits[i] for i in order]


def describe_fit(fits: list[Fit]) -> list[str]:
    """What a director reads: the reproducing set (or the closest and where it differs), the options
    that give it, and up to three other sets that reproduce as much."""
    best = fits[0]
    flags = " ".join(best.options())
    if best.by_default:
        how = (f"no options (what score does on this file: it finds {flags} from the numbers)" if flags
               else "no options (what score does on this file)")
    else:
        how = flags or "no options"
    if best.exact:
        lines = [f"Reproduced: {best.summary()}", f"  with: {how}"]
    else:
        lines = [f"Not reproduced exactly; closest: {best.summary()}", f"  with: {how}"]
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


def describe_conventions(inputs: list, options: Options = Options(), published=None) -> list[str]:
    """What ``bridgeproc conventions`` prints: :func:`describe_fit` of a pairs session, or for a teams
    event (:class:`~bridgeproc.errors.TeamsEventError`) what ``bridgeproc teams`` reproduces."""
    try:
        return describe_fit(fit_conventions(inputs, options, published))
    except TeamsEventError:
        from bridgeproc.pipeline.teams import teams_conventions  # the teams readers only for a teams file

        return teams_conventions(list(inputs), options.read.encoding)


__all__ = ["Fit", "fit_conventions", "describe_fit", "describe_conventions", "read_published"]
