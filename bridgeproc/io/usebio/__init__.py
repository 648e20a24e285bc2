"""USEBIO XML: a safe XML tree and the reader."""
from bridgeproc.io.usebio.reader import UsebioFile, parse_usebio, read_usebio

__all__ = ["UsebioFile", "parse_usebio", "read_usebio"]
