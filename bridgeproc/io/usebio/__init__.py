"""USEBIO XML: a safe XML tree, the reader (pairs events) and the team-event reader."""
from bridgeproc.io.usebio.reader import UsebioFile, parse_usebio, read_usebio
from bridgeproc.io.usebio.teams import UsebioTeams, parse_usebio_teams, read_usebio_teams

__all__ = ["UsebioFile", "parse_usebio", "read_usebio", "UsebioTeams", "parse_usebio_teams", "read_usebio_teams"]
