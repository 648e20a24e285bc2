"""Masterpoint awards from a ranking, by a federation's scale kept as data (``rank/scales/*.toml``: one
file per scale with its source and its rules in words; a club's own file is read the same way).

A scale says, for each kind of field (``single``: one winner; ``two``: NS and EW ranked apart;
``individual``; ``teams``), the share of the field awarded (by the boards played), how that share is
rounded, the fewest full tables (or teams) that earn awards, and how places are awarded: ``steps`` (the
EBU's: the last place awarded one step, each place above one step more) or ``abf`` (the ABF's: the
winner's award, the runner-up 70 % of it, place p the winner's divided by p - 1). Ties share the awards
of the places they cover (at least the scale's minimum, when it has one, if any of them is awarded).
The awards are per player, in the federation's own units (EBU local points; ABF hundredths), as the
federations' files carry them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.errors import UsageError
from bridgeproc.rank.published import published_awards

#: The kinds of field a scale declares.
KINDS = ("single", "two", "individual", "teams")
#: The largest scale file read (a scale is a few dozen lines).
MAX_SCALE_BYTES = 64_000


@dataclass(frozen=True)
class Kind:
    """One kind of field of a scale: ``step`` and ``minimum`` (steps placing), the fewest full tables or
    teams that earn awards, and the share of the field awarded when it differs from the scale's."""

    step: float = 0.0
    minimum: float = 0.0
    minimum_entry: int = 1
    share: float | None = None
    share_rounding: str | None = None


@dataclass(frozen=True)
class Scale:
    """A masterpoint scale (see the module's text)."""

    name: str
    title: str
    federation: str
    point_type: str
    source: str
    rules: str
    placing: str
    share_rounding: str
    kinds: dict[str, Kind]
    #: (boards from, share): the share of the field awarded for that many boards or more.
    shares: tuple[tuple[int, float], ...]
    #: A winner's award the club fills in (abf placing); None: the file's published award.
    winner: float | None = None
    path: str = field(default="", compare=False)

    def awarded_places(self, kind: str, field_size: int, boards: int) -> int:
        """How many places earn awards in a field of ``field_size`` after ``boards`` boards."""
        declared = self.kinds[kind]
        share = declared.share
        if share is None:
            share = next((s for start, s in sorted(self.shares, reverse=True) if boards >= start), 0.0)
        rounding = declared.share_rounding or self.share_rounding
        exact = field_size * share
        places = math.ceil(exact - 1e-9) if rounding == "up" else math.floor(exact + 1e-9)
        return max(0, min(places, field_size))

    def place_awards(self, kind: str, places: int, winner: float | None) -> np.ndarray:
        """The award of each place 1..``places`` (before ties)."""
        if places <= 0:
            return np.zeros(0)
        if self.placing == "steps":
            step = self.kinds[kind].step
            return np.maximum(step * np.arange(places, 0, -1, dtype=float), self.kinds[kind].minimum)
        if winner is None:
            return np.zeros(0)
        position = np.arange(1, places + 1, dtype=float)
        share = np.where(position == 1, 1.0, np.where(position == 2, 0.7, 1.0 / np.maximum(position - 1, 1)))
        return np.floor(winner * share + 0.5)


def _kind(declared: dict) -> Kind:
    """A kind of field as the scale file declares it, its numbers checked to be numbers."""
    share = declared.get("share")
    return Kind(step=float(declared.get("step", 0)), minimum=float(declared.get("minimum", 0)),
                minimum_entry=int(declared.get("minimum_entry", 1)), share=None if share is None else float(share),
                share_rounding=declared.get("share_rounding"))


def _read(text: str, where: str) -> Scale:
    import tomllib  # only when a scale is read (--masterpoints): not part of every run's start

    try:
        data = tomllib.loads(text)
        kinds = {name: _kind(data.get("kinds", {}).get(name, {})) for name in KINDS}
        shares = tuple((int(s["boards_from"]), float(s["share"])) for s in data.get("shares", []))
        scale = Scale(name=str(data["name"]), title=str(data.get("title", data["name"])),
                      federation=str(data.get("federation", "")), point_type=str(data.get("point_type", "")),
                      source=str(data.get("source", "")).strip(), rules=str(data.get("rules", "")).strip(),
                      placing=str(data.get("placing", "steps")), share_rounding=str(data.get("share_rounding", "up")),
                      kinds=kinds, shares=shares, winner=data.get("winner"), path=where)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{where}: not a masterpoint scale ({exc}); see bridgeproc/rank/scales/ebu-club.toml for "
                         "the form") from None
    if scale.placing not in ("steps", "abf") or scale.share_rounding not in ("up", "down"):
        raise UsageError(f"{where}: placing must be steps or abf and share_rounding up or down")
    return scale


def scale_names() -> list[str]:
    """The scales bridgeproc carries (``ebu-club`` ...)."""
    return sorted(p.name.removesuffix(".toml") for p in (resources.files("bridgeproc.rank") / "scales").iterdir()
                  if p.name.endswith(".toml"))


def load_scale(name: str) -> Scale:
    """A scale bridgeproc carries, by name, or a club's own scale file (a path ending ``.toml``)."""
    if name.endswith(".toml"):
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"--masterpoints {name}: no such scale file")
        if path.stat().st_size > MAX_SCALE_BYTES:
            raise UsageError(f"--masterpoints {name}: a scale file is at most {MAX_SCALE_BYTES:,} bytes")
        return _read(path.read_text(encoding="utf-8"), str(path))
    if name not in scale_names():
        raise UsageError(f"--masterpoints {name}: not a scale bridgeproc knows; give one of "
                         f"{', '.join(scale_names())}, none, auto, or a scale file (.toml)")
    text = (resources.files("bridgeproc.rank") / "scales").joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return _read(text, f"{name}.toml")


#: The producers whose files carry a federation's club points, and that federation's scale.
_BY_TYPE = {"BLACK": "ebu-club", "GREEN": "abf-club", "RED": "abf-club"}


def scale_for(choice: str, meta: dict) -> Scale | None:
    """The scale a session uses: the director's (``ebu-club``, a file), none (``none``), or with ``auto`` the
    one the file names (a USEBIO ``MASTER_POINT_TYPE``: BLACK for the EBU's local points, GREEN or RED for
    the ABF's), else none: bridgeproc awards nothing a file did not ask for."""
    if choice == "none":
        return None
    if choice != "auto":
        return load_scale(choice)
    named = _BY_TYPE.get(str(meta.get("masterpoint_type") or "").upper())
    return load_scale(named) if named else None


def _places(rank: pd.Series) -> np.ndarray:
    """``3=`` -> 3: the place each contestant shares."""
    return pd.to_numeric(rank.astype("string").str.rstrip("=").str.strip(), errors="coerce").to_numpy(dtype=float)


def field_kind(group: str, individual: bool, teams: bool) -> str:
    """The kind of field a ranking group is."""
    if teams:
        return "teams"
    if individual:
        return "individual"
    return "two" if group.split(" ")[-1] in ("NS", "EW") else "single"


def _full_tables(standings: pd.DataFrame, group: str, kind: str) -> tuple[int, int]:
    """(full tables or teams, the field counted in full tables) of ``group``."""
    count = int((standings["group"] == group).sum())
    if kind == "teams":
        return count, count
    if kind == "individual":
        return count // 4, 4 * (count // 4)
    if kind == "single":
        return count // 2, 2 * (count // 2)
    section, _, direction = group.rpartition(" ")
    other = f"{section} {'EW' if direction == 'NS' else 'NS'}".strip()
    tables = min(count, int((standings["group"] == other).sum()) or count)
    return tables, tables


def awards(standings: pd.DataFrame, scale: Scale, individual: bool = False, teams: bool = False,
           winners: dict[str, float] | None = None) -> pd.Series:
    """Each contestant's award (float64, 0 for none) in ``standings`` (``group``, ``rank``, ``boards``), by
    ``scale``; ``winners`` the winner's award of each group where the scale takes it from the file."""
    out = np.zeros(len(standings))
    places = _places(standings["rank"])
    for group in dict.fromkeys(standings["group"]):
        at = (standings["group"] == group).to_numpy()
        kind = field_kind(str(group), individual, teams)
        tables, size = _full_tables(standings, group, kind)
        if tables < scale.kinds[kind].minimum_entry:
            continue
        boards = int(standings.loc[at, "boards"].max()) if "boards" in standings and at.any() else 0
        count = scale.awarded_places(kind, size, boards)
        table = scale.place_awards(kind, count, (winners or {}).get(str(group), scale.winner))
        if not len(table):
            continue
        place = places[at]
        tied = pd.Series(place).map(pd.Series(place).value_counts()).to_numpy(dtype=float)
        # the places a tie covers: place .. place + tied - 1; their awards shared
        cumulative = np.concatenate([[0.0], np.cumsum(table)])
        first = np.clip(np.nan_to_num(place, nan=len(table) + 1) - 1, 0, len(table)).astype(int)
        last = np.clip(first + np.nan_to_num(tied, nan=1).astype(int), 0, len(table))
        shared = (cumulative[last] - cumulative[first]) / np.maximum(tied, 1)
        covered = last > first
        minimum = scale.kinds[kind].minimum if scale.placing == "steps" else 0.0
        out[at] = np.where(covered, np.maximum(shared, minimum), 0.0)
    return pd.Series(out, index=standings.index, dtype="float64")


def with_masterpoints(standings: pd.DataFrame, choice: str, meta: dict, published: pd.DataFrame | None,
                      individual: bool = False, teams: bool = False) -> tuple[pd.DataFrame, str, Scale | None]:
    """The standings with a ``masterpoints`` column by the scale chosen (:func:`scale_for`), one line
    saying which scale awarded them, and the scale (empty, and the standings as they were, when none
    applies). A scale
    that takes the winner's award from the file (the ABF's) reads it from the published awards."""
    scale = scale_for(choice, meta)
    if scale is None or not len(standings):
        return standings, "", None
    theirs = published_awards(published, standings)
    winners: dict[str, float] = {}
    if scale.placing == "abf" and scale.winner is None:
        if theirs is None:
            return standings, (f"Masterpoints: {scale.title} needs the winner's award (the manual's tables are "
                               "not in bridgeproc): none awarded; give a scale file with winner = ..."), None
        first = pd.DataFrame({"group": standings["group"], "place": _places(standings["rank"]), "award": theirs})
        winners = first[first["place"] == 1].groupby("group")["award"].max().dropna().to_dict()
    awarded = awards(standings, scale, individual=individual, teams=teams, winners=winners)
    given = int((awarded > 0).sum())
    whence = " (the winner's award as the file publishes it)" if winners else ""
    return (standings.assign(masterpoints=awarded), f"Masterpoints: {scale.title}{whence}, {given} awarded",
            scale)


def with_team_masterpoints(standings: pd.DataFrame, choice: str, meta: dict,
                           places: pd.DataFrame | None) -> tuple[pd.DataFrame, str, tuple[int, int] | None]:
    """A teams event's standings (``team``, ``rank``, ``boards``) with their ``masterpoints`` by the scale chosen,
    the line saying which scale, and (agree, compared) against the awards the input published by team."""
    scale = scale_for(choice, meta)
    if scale is None or not len(standings):
        return standings, "", None
    field = standings.assign(group="ALL")
    theirs = None
    if places is not None and "masterpoints" in places and places["masterpoints"].notna().any():
        theirs = places.drop_duplicates("team").set_index("team")["masterpoints"].reindex(
            standings["team"].astype("string")).fillna(0.0).to_numpy(dtype=float)
    winners: dict[str, float] = {}
    if scale.placing == "abf" and scale.winner is None:
        if theirs is None:
            return standings, f"Masterpoints: {scale.title} needs the winner's award: none awarded", None
        first = _places(standings["rank"]) == 1
        winners = {"ALL": float(theirs[first].max())} if first.any() else {}
    awarded = awards(field, scale, teams=True, winners=winners)
    agreement = None
    if theirs is not None:
        agreement = (int((np.abs(awarded.to_numpy() - theirs) < 0.051).sum()), len(theirs))
    return (standings.assign(masterpoints=awarded), f"Masterpoints: {scale.title}, {int((awarded > 0).sum())} awarded",
            agreement)
