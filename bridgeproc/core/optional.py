"""The one place that imports a package bridgeproc can run without, with the install hint."""
from __future__ import annotations

import importlib
from types import ModuleType

from bridgeproc.errors import SetupError


def install_hint(package: str, extra: str | None = None) -> str:
    """What to type: the extra when bridgeproc names one, else the package itself."""
    return f"pip install 'bridgeproc[{extra}]'" if extra else f"pip install {package}"


def require(module: str, needed_for: str, package: str | None = None, extra: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`SetupError` saying what needs it and how to install it.

    A broken install (the module is there but fails to load, e.g. DDS's shared library on an
    unsupported platform) is reported the same way, with the loader's own words.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        package = package or module.split(".")[0]
        why = "is not installed" if isinstance(exc, ModuleNotFoundError) else f"cannot be loaded ({exc})"
        raise SetupError(f"the package {package}, needed for {needed_for}, {why}; "
                         f"install it with: {install_hint(package, extra)}") from None
