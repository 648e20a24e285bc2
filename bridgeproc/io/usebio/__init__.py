"""USEBIO XML: a safe XML tree, the reader (pairs events) and the team-event reader."""
from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.io.usebio.reader import UsebioFile, parse_usebio, read_usebio
    from bridgeproc.io.usebio.teams import UsebioTeams, parse_usebio_teams, read_usebio_teams

_HOMES = {
    "UsebioFile": "bridgeproc.io.usebio.reader",
    "parse_usebio": "bridgeproc.io.usebio.reader",
    "read_usebio": "bridgeproc.io.usebio.reader",
    "UsebioTeams": "bridgeproc.io.usebio.teams",
    "parse_usebio_teams": "bridgeproc.io.usebio.teams",
    "read_usebio_teams": "bridgeproc.io.usebio.teams",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = ["UsebioFile", "parse_usebio", "read_usebio", "UsebioTeams", "parse_usebio_teams", "read_usebio_teams"]
