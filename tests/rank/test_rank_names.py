"""bridgeproc.rank's functions are not shadowed by (nor shadow) its modules.

Contract: ``bridgeproc.rank.matchpoints`` and ``bridgeproc.rank.standings`` are the
functions, always (also after importing every submodule); the modules implementing
them are private (``_matchpoints``, ``_standings``), so ``import bridgeproc.rank.standings``
is an error instead of quietly binding a function. Every public module of the package
stays a module when imported by its dotted name.
"""
import importlib
import pkgutil
import types

import pandas as pd
import pytest

import bridgeproc.rank


def test_every_submodule_name_is_a_module_after_import():
    for info in pkgutil.iter_modules(bridgeproc.rank.__path__):
        module = importlib.import_module(f"bridgeproc.rank.{info.name}")
        assert isinstance(module, types.ModuleType)
        attribute = getattr(bridgeproc.rank, info.name)
        assert attribute is module, f"bridgeproc.rank.{info.name} is {attribute!r}, not its module"


@pytest.mark.parametrize("name", ["standings", "matchpoints"])
def test_function_names_are_not_modules(name):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"bridgeproc.rank.{name}")
    assert callable(getattr(bridgeproc.rank, name))


def test_standings_and_matchpoints_are_the_functions():
    from bridgeproc.rank import Conventions, matchpoints, standings

    results = pd.DataFrame({
        "section": pd.array(["A"] * 4, dtype="string"), "board": [1, 1, 2, 2], "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4],
        "adjusted": pd.array([pd.NA] * 4, dtype="string"), "score_ns": pd.array([420, -50, 140, 110], dtype="Int64"),
    }).astype({"ns": "string", "ew": "string"})
    scored = matchpoints(results, Conventions())
    assert scored["mp_ns"].tolist() == [2.0, 0.0, 2.0, 0.0]
    table = standings(scored, Conventions())
    assert table[["group", "rank", "pair", "total"]].values.tolist() == [
        ["EW", "1", "4", 4.0], ["EW", "2", "2", 0.0], ["NS", "1", "1", 4.0], ["NS", "2", "3", 0.0]]


@pytest.mark.slow
def test_no_module_outside_rank_imports_its_private_modules():
    """Teams, rubber and the reports use bridgeproc.rank's public names (to_imps, played_masks ...)."""
    import ast
    from pathlib import Path

    package = Path(bridgeproc.rank.__file__).parents[1]
    offenders = []
    for path in package.rglob("*.py"):
        if path.parent.name == "rank" and path.parent.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            offenders += [f"{path.relative_to(package)}: {n}" for n in names if n.startswith("bridgeproc.rank._")]
    assert offenders == []
    from bridgeproc.rank import IMP_BOUNDS, artificial_imps, is_individual, played_masks, to_imps

    assert to_imps(-450).tolist() == -10.0 and IMP_BOUNDS[0] == 20
    assert callable(artificial_imps) and callable(played_masks) and callable(is_individual)
