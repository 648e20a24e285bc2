"""The one exception hierarchy of bridgeproc; converted to exit codes only in the cli package."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


class BridgeprocError(Exception):
    """Base of every error bridgeproc raises on purpose (bad input, not bugs)."""


class SetupError(BridgeprocError):
    """bridgeproc is installed without a package a command needs: a setup problem for whoever
    installed it, not bad data (the command line exits 2). ``str()`` names what to install."""


class ParseError(BridgeprocError, ValueError):
    """A file could not be read; ``str()`` is ``source:line: message``."""

    def __init__(self, source: str, line: int | str | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line not in (None, "") else source
        super().__init__(f"{where}: {message}")


class ValidationError(BridgeprocError, ValueError):
    """Input data has problems; ``problems`` is a frame (see schema.PROBLEM_COLUMNS).

    Every problem is collected before this is raised, so the director sees them all at once.
    """

    def __init__(self, problems: "pd.DataFrame") -> None:
        self.problems = problems
        lines = format_problems(problems)
        super().__init__(f"{len(lines)} problem(s) in the input:\n" + "\n".join(lines))


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
