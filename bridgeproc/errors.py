"""The one exception hierarchy of bridgeproc; converted to exit codes only in the cli package."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


class BridgeprocError(Exception):
    """Base of every error bridgeproc raises on purpose (bad input, not bugs)."""


class SetupError(BridgeprocError):
    """bridgeproc is installed without a package a command needs: a setup problem for whoever
    installed it, not bad data (the command line exits 2). ``str()`` names what to install."""


class UsageError(BridgeprocError, ValueError):
    """The files asked for cannot be right together, whatever they hold: an output that is one of
    the inputs, an input given twice (by any name: a symlink, a hard link), a file type bridgeproc
    has no reader or writer for. A mistake in the call, not in the data: the command line exits 2."""


class TeamsEventError(BridgeprocError):
    """An input of ``score`` (or ``check``, ``conventions``) is a teams event: its matches are scored by
    ``bridgeproc teams``, never ranked as pairs. ``source`` is the file; ``str()`` names the command."""

    def __init__(self, source: str, what: str) -> None:
        self.source = source
        super().__init__(f"{source}: a teams event ({what}); score it with `bridgeproc teams {source} -o results.xlsx`")


#: The longest line of a message a file's problem is given in: a message quotes cells, and a hostile file's
#: cell can be megabytes long (a 2.4 MB header line was answered with 2.8 million characters).
MAX_MESSAGE = 2_000


def bounded(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` with each line longer than ``limit`` characters cut, with a mark saying how long it was
    (a message of many problems, one per line, is kept whole)."""
    if len(message) <= limit:
        return message
    return "\n".join(line if len(line) <= limit else f"{line[:limit]}... [{len(line):,} characters; the rest left out]"
                     for line in message.split("\n"))


class ParseError(BridgeprocError, ValueError):
    """A file could not be read; ``str()`` is ``source:line: message`` (the message bounded: :func:`bounded`)."""

    def __init__(self, source: str, line: int | str | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message = bounded(message)
        where = f"{source}:{line}" if line not in (None, "") else source
        super().__init__(f"{where}: {message}")


class TooLargeError(ParseError):
    """A file holds more than a bound of the read allows: refused as it is, never tried as another kind of
    file (which would read it all again)."""


class ValidationError(BridgeprocError, ValueError):
    """Input data has problems; ``problems`` is a frame (see schema.PROBLEM_COLUMNS).

    Every problem is collected before this is raised, so the director sees them all at once.
    """

    def __init__(self, problems: "pd.DataFrame") -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the input:\n" + "\n".join(summarize_problems(problems)))

    def full_text(self) -> str:
        """Every problem, one line each (``str()`` groups a cause with many lines)."""
        lines = format_problems(self.problems)
        return f"{len(lines)} problem(s) in the input:\n" + "\n".join(lines)


def format_problems(problems: "pd.DataFrame") -> list[str]:
    """One ``file:line: column: message`` text per problem, in input order."""
    out = []
    for source, line, column, message in zip(
        problems["source"], problems["line"], problems["column"], problems["message"]
    ):
        where = f"{source}:{line}" if str(line) not in ("", "<NA>", "None") else f"{source}"
        col = f"{column}: " if column else ""
        out.append(f"{where}: {col}{message}")
    return out


#: A cause with more lines than this is shown by its first ``SHOWN_PER_CAUSE`` and a count.
GROUP_ABOVE = 5
SHOWN_PER_CAUSE = 3
#: What varies between problems of one cause: quoted values, numbers, seats and cards (a lead ``SK``).
_VARYING = re.compile(r"'[^']*'|\"[^\"]*\"|\d+|\b(?:North|South|East|West)\b|\b[SHDC](?:10|[AKQJT2-9])\b")
_REPEATS = ("has a second result on board", "is entered twice", "already has a result on board",
            "is dealt differently in")


def problem_cause(column: object, message: object) -> tuple[str, str]:
    """What problems of one cause share: the column and the message with its values blanked."""
    return (str(column or ""), _VARYING.sub("#", str(message)))


def likely_causes(problems: "pd.DataFrame") -> list[str]:
    """One line per likely common cause of many problems (named once, before the problems)."""
    messages = problems["message"].astype(str)
    sources = problems["source"].astype(str)
    out = []
    repeats = messages.str.contains("|".join(map(re.escape, _REPEATS)))
    if repeats.sum() > GROUP_ABOVE:
        files = sorted(set(sources[repeats]))
        out.append(f"Likely cause: two sessions (or the same results twice) given together: {int(repeats.sum())} "
                   "problems are boards and tables that already have results"
                   + (f" ({', '.join(files)})" if len(files) > 1 else "")
                   + "; score each session on its own, or give its files only")
    swaps = messages.str.contains("(a declarer-seat swap: the same side, the score stands)", regex=False)
    if swaps.sum() > GROUP_ABOVE:
        out.append(f"Likely cause: {int(swaps.sum())} leads are in the other defender's hand: the declarer's partner "
                   "was written as declarer (North for South, East for West); the side and the score are right")
    missing = messages.str.extract(r"^(?:pair|player) (\S+) is not in .*names", expand=False).dropna()
    if missing.nunique() > GROUP_ABOVE:
        out.append(f"Likely cause: the names list lacks {missing.nunique()} pairs of the results: "
                   "is it the list of this session?")
    return out


def summarize_problems(problems: "pd.DataFrame") -> list[str]:
    """The problems grouped by cause: likely causes named once, then per cause its lines, or
    its first few lines and a count when it has many (in order of first appearance)."""
    lines = format_problems(problems)
    causes = [problem_cause(c, m) for c, m in zip(problems["column"], problems["message"])]
    by_cause: dict[tuple[str, str], list[str]] = {}
    for cause, line in zip(causes, lines):
        by_cause.setdefault(cause, []).append(line)
    if all(len(group) <= GROUP_ABOVE for group in by_cause.values()):
        return lines
    out = likely_causes(problems)
    for group in by_cause.values():
        if len(group) <= GROUP_ABOVE:
            out.extend(group)
        else:
            out.extend(group[:SHOWN_PER_CAUSE])
            out.append(f"  ... and {len(group) - SHOWN_PER_CAUSE} more like these")
    out.append("(grouped by cause: --verbose lists every problem)")
    return out
