"""``FILE.xml#N``, session N of a USEBIO file of several: how an input names one session (light: no
pandas, no XML reader, so that naming the inputs of a run of PBN and traveller sheets loads neither)."""
from __future__ import annotations

import os
import re

#: ``FILE.xml#N``: session N of a USEBIO file of several sessions (the path, then the text after ``#``).
SESSION_MARK = re.compile(r"^(?P<path>.+\.xml)#(?P<number>[^#/\\]*)$", re.IGNORECASE)


def split_session(path: str | os.PathLike) -> tuple[str, str | None]:
    """(the file, the session number's text) of ``FILE.xml#N``; (path, None) for any other path."""
    text = os.fspath(path)
    m = SESSION_MARK.match(text)
    return (m.group("path"), m.group("number")) if m else (text, None)
