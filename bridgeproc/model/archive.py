"""What the archive answers over a season (frozen, no I/O): ``Ladder``, ``History``, ``Rescored`` and
``Ratings``, what the season's queries give, their notes as fields; ``ClubSite``, the club's website of
``Evening``s. ``ArchiveResult``, the version a run stored, is in :mod:`bridgeproc.model.archived` (every
run's result carries one; these only the season's commands need)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd


@dataclass(frozen=True)
class Ladder:
    """A season's ladder (``archive.ladder``): ``table`` of ``schema.LADDER_COLUMNS``, ``sessions`` how
    many sessions with percentages the range holds (the M of "best N of M"), ``rule`` in words,
    ``notes``: the players taken as one, and every row or session left out, with why; ``span`` the
    sessions it covers in words (``2026-09-01 to 2026-09-30, events holding 'Autumn'``)."""

    table: pd.DataFrame
    sessions: int
    rule: str
    notes: tuple[str, ...] = ()
    span: str = "every date"


@dataclass(frozen=True)
class Ratings:
    """The open rating of the archive's players (``archive.ratings``; the model in ``analysis.rating``):
    ``table`` of ``schema.RATINGS_COLUMNS`` (best first), ``changes`` of ``schema.RATING_CHANGE_COLUMNS``
    (every change, oldest first, each explained), ``sessions`` rated, ``notes`` (spellings taken as one
    player, rows left out)."""

    table: pd.DataFrame
    changes: pd.DataFrame
    sessions: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class History:
    """A player's or partnership's results over the archive (``archive.history``): ``table`` of
    ``schema.HISTORY_COLUMNS``, oldest first; ``matches`` the spellings and member ids taken as one player."""

    table: pd.DataFrame
    matches: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rescored:
    """The archive scored again under other conventions (``archive.rescore``): ``table`` of
    ``schema.RESCORE_COLUMNS`` and ``skipped``: session id -> why it was left out (teams sessions, sessions
    with no complete version yet), when no sessions were named."""

    table: pd.DataFrame
    skipped: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    """The archive's players against double dummy (``archive.profile``): ``table`` of
    ``schema.PROFILE_COLUMNS`` (by name), ``results`` how many results with a deal it read, ``notes``
    (what it could not say, and why)."""

    table: pd.DataFrame
    results: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Evening:
    """One archived session as the club's site shows it: its latest version's ``session`` (a pairs
    ``Session`` or a ``TeamsSession``), ``stamp`` (``version:content hash``: what the site compares to
    know the evening unchanged), ``winners`` (the names ranked first, per group), and ``corrected``: one
    line per later version, ``corrected on DATE (what changed)``."""

    session_id: str
    date: str
    event: str
    kind: str
    version: int
    stamp: str
    session: object
    winners: str = ""
    corrected: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClubSite:
    """The club's results website from the archive (``archive.club_site``): the ``evenings`` newest first,
    the season's ``ladder``, ``players`` (``schema.CLUB_PLAYER_COLUMNS``: one row per player and pairs
    evening, with the partner), ``span`` in words, and ``previous``: the site folder this one replaces
    (its pages that have not changed are kept as they are), ``previous_stamps`` the evenings it showed."""

    title: str
    evenings: tuple[Evening, ...]
    ladder: Ladder
    players: pd.DataFrame
    span: str = "every date"
    previous: str | None = None
    previous_stamps: Mapping[str, str] = field(default_factory=dict)
    #: The players against double dummy (shown on their pages), None when not asked for.
    profile: Profile | None = None
    #: The double dummy the profile solved (``tables``: deal -> 20 tricks; ``leads``: (deal, strain, leader)
    #: -> card -> tricks), kept in the site's folder so that the next run solves only new deals.
    solved: Mapping[str, dict] = field(default_factory=dict)
