"""Output files for every command: refused before any work when they cannot be right, then
written all together or not at all."""
from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Iterable

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.atomic import atomic_path


def check_outputs(outputs: Iterable, suffixes: Iterable[str], reads: Iterable = ()) -> None:
    """Refuse an output of an unknown type, one given twice or inside another output, one whose
    folder is a file, and one that is a file this run reads (an input, a names list, a target
    table, the archive): writing it would destroy what the director gave."""
    outputs = [Path(o) for o in outputs]
    suffixes = list(suffixes)
    reads = [Path(r) for r in reads if r is not None]
    read_paths = {r.resolve() for r in reads}
    for out in outputs:
        if out.suffix.lower() not in suffixes:
            raise BridgeprocError(f"{out}: unknown output type; use one of {', '.join(suffixes)}")
        same = out.resolve() in read_paths or (
            out.exists() and any(r.exists() and os.path.samefile(out, r) for r in reads))
        if same:
            raise BridgeprocError(f"{out}: this run reads that file; write the output to another file")
        parent = next((p for p in [out.parent, *out.parent.parents] if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise BridgeprocError(f"{out}: cannot write there, {parent} is a file, not a folder")
    resolved = [o.resolve() for o in outputs]
    if len(set(resolved)) < len(resolved):
        raise BridgeprocError("the same output file is given twice")
    for path in resolved:
        if any(path in other.parents for other in resolved):
            raise BridgeprocError(f"{path.name}: another output is inside it; give files in a folder")


def write_all(outputs: Iterable, write: Callable[[Path, Path], None], then: Callable[[], None] | None = None) -> None:
    """Write every output to a temporary file (``write(output, temporary)``), run ``then`` (e.g.
    archiving), and only then rename them all: a failure anywhere leaves no output written."""
    try:
        with ExitStack() as stack:
            for out in outputs:
                write(Path(out), stack.enter_context(atomic_path(out)))
            if then is not None:
                then()
    except OSError as exc:
        raise BridgeprocError(f"cannot write {exc.filename or 'an output'}: {exc.strerror or exc}; "
                              "nothing was written") from None
