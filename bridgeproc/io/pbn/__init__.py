"""PBN 2.1: the lossless game model, lexer, tags, tables, frames and writer."""
from bridgeproc.io.pbn.reader import PbnFile, format_pbn, parse_pbn, read_pbn, write_pbn

__all__ = ["PbnFile", "format_pbn", "parse_pbn", "read_pbn", "write_pbn"]
