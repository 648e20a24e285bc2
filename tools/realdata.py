"""Keep the repository's copy of the real event files (tests/data/realdata/) true.

    python tools/realdata.py sync [SOURCE]   copy new files from SOURCE (default ../shared/realdata)
                                             and its README, then rewrite SHA256SUMS
    python tools/realdata.py check           every file listed in SHA256SUMS is present and intact,
                                             and every file present is listed

New real files arrive in ``../shared/realdata/``; the tests read only the copy in the
repository, so a bare clone tests itself. Files already copied are never overwritten: a real
file is read, never edited, and a changed copy would be a checksum failure, not an update.
"""
from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ROOT / "tests" / "data" / "realdata"
SUMS = COPY / "SHA256SUMS"
DEFAULT_SOURCE = ROOT.parent / "shared" / "realdata"
#: Files of the folder that are not real data (the listing itself).
NOT_DATA = {"SHA256SUMS"}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listed() -> dict[str, str]:
    """File name -> SHA-256 as SHA256SUMS lists them (``sha256sum`` format)."""
    rows = (line.split(maxsplit=1) for line in SUMS.read_text(encoding="utf-8").splitlines() if line.strip())
    return {name.lstrip("*").strip(): checksum for checksum, name in rows}


def problems() -> list[str]:
    """What is wrong with the copy: missing, changed or unlisted files."""
    sums = listed() if SUMS.is_file() else {}
    present = {p.name for p in COPY.iterdir() if p.is_file() and p.name not in NOT_DATA}
    found = [f"{name}: listed in SHA256SUMS but missing" for name in sorted(set(sums) - present)]
    found += [f"{name}: not listed in SHA256SUMS; run 'make realdata'" for name in sorted(present - set(sums))]
    found += [f"{name}: checksum differs from SHA256SUMS (real files are never edited)"
              for name in sorted(present & set(sums)) if digest(COPY / name) != sums[name]]
    return found


def sync(source: Path = DEFAULT_SOURCE) -> list[str]:
    """Copy the files of ``source`` that the repository lacks (and a newer README), then list the
    new files' checksums; returns the names copied. A listed file whose copy no longer matches
    its checksum stops the sync (real files are never edited), as does a file that differs
    between ``source`` and the copy."""
    if not source.is_dir():
        raise SystemExit(f"{source}: no such folder; new real files arrive there")
    sums = listed() if SUMS.is_file() else {}
    changed = [n for n in sorted(sums) if n != "README.md" and (COPY / n).is_file() and digest(COPY / n) != sums[n]]
    differ = [p.name for p in sorted(source.iterdir()) if p.is_file() and p.name != "README.md"
              and (COPY / p.name).is_file() and digest(p) != digest(COPY / p.name)]
    if changed or differ:
        raise SystemExit("\n".join([*(f"{n}: the copy differs from SHA256SUMS; restore it (real files are "
                                       "never edited)" for n in changed),
                                    *(f"{n}: differs between {source} and the copy; a new version needs a "
                                      "new file name" for n in differ)]))
    copied = []
    for path in sorted(source.iterdir()):
        target = COPY / path.name
        if path.is_file() and (not target.exists() or (path.name == "README.md" and digest(path) != digest(target))):
            shutil.copy2(path, target)
            copied.append(path.name)
    for name in copied:
        sums[name] = digest(COPY / name)
    SUMS.write_text("".join(f"{sums[n]}  {n}\n" for n in sorted(sums)), encoding="utf-8")
    return copied


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "sync":
        copied = sync(Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE)
        print(f"copied {len(copied)} file(s){': ' + ', '.join(copied) if copied else ''}; SHA256SUMS rewritten")
        return 0
    if command == "check":
        found = problems()
        print("\n".join(found) if found else f"{len(listed())} real files, all intact")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
