"""Package faces whose names load on first use: ``bridgeproc --version`` and every ``--help`` start
without pandas, numpy, openpyxl, SQLAlchemy or Jinja (issue 28), while ``from bridgeproc.rank import
standings`` still works. A face lists each name's home once (``homes``) and imports the same names under
``TYPE_CHECKING`` for type checkers; ``tests/test_architecture.py`` checks that the two agree."""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: a name of ``homes`` (name -> module) is imported from
    its module when first asked for, then kept on the package."""
    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value
    return __getattr__
