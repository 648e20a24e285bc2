"""The shape of the house (docs/architecture.md): imports point down without cycles, each package's
third-party library stays in its room, and the bridge vocabulary is declared once."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "bridgeproc"
#: The only modules at the top of the package: its face, the model, schema, errors and the version.
TOP_LEVEL = {"__init__", "__main__", "_lazy", "_version", "errors", "schema"}  # model/ is a package (issue 27)


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = modules()


@functools.cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(path: Path, top_only: bool):
    """(node, imported module names, at the module's top) of the package's own imports in ``path``.
    ``from bridgeproc.x import sub`` of submodules counts as importing the submodules."""
    tree = parsed(path)
    top = {id(node) for node in tree.body}
    nodes = tree.body if top_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("bridgeproc"):
            subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES]
            names = subs if len(subs) == len(node.names) else [node.module, *subs]
            yield node, [n for n in names if n in MODULES], id(node) in top
        elif isinstance(node, ast.Import):
            yield node, [a.name for a in node.names if a.name in MODULES], id(node) in top
        elif isinstance(node, ast.ImportFrom) and node.level:
            yield node, ["<relative>"], id(node) in top


def graph() -> dict[str, set[str]]:
    return {name: {t for _, targets, _ in imports(path, top_only=True) for t in targets if t != name}
            for name, path in MODULES.items()}


#: The top two layers may import writers and the archive when a command uses them, for start-up
#: time (nothing imports them, so such an import cannot hide a cycle; the layers contract sees it).
LAZY_ALLOWED = ("bridgeproc.cli", "bridgeproc.pipeline")


@pytest.mark.slow
def test_no_module_imports_the_package_inside_a_function_or_only_for_type_checking():
    """Except the top two layers, and a package face that loads its names on first use (its
    ``TYPE_CHECKING`` imports are the names of its ``_HOMES``: test_lazy_faces_name_what_they_load)."""
    hidden = [f"{path.relative_to(ROOT)}:{node.lineno}"
              for name, path in MODULES.items() if not name.startswith(LAZY_ALLOWED) and name not in lazy_faces()
              for node, targets, at_top in imports(path, top_only=False) if targets and not at_top]
    assert hidden == []


def lazy_faces() -> dict[str, dict[str, str]]:
    """Package faces whose names load on first use (bridgeproc._lazy): face -> name -> its module, as the
    face's ``TYPE_CHECKING`` block imports them."""
    faces = {}
    for name, path in MODULES.items():
        tree = parsed(path)
        if path.name != "__init__.py" or "lazy_names" not in path.read_text(encoding="utf-8"):
            continue
        block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
        faces[name] = {a.asname or a.name: n.module for n in block.body if isinstance(n, ast.ImportFrom)
                       for a in n.names}
    return faces


def test_lazy_faces_name_what_they_load():
    """Each lazy face loads exactly the names its TYPE_CHECKING block shows type checkers, from the
    same modules, and all of them are in its __all__; none is also a submodule's name (the submodule,
    once imported, would shadow it)."""
    import importlib

    faces = lazy_faces()
    assert {"bridgeproc", "bridgeproc.rank", "bridgeproc.pipeline", "bridgeproc.model"} <= set(faces)
    for face, names in faces.items():
        module = importlib.import_module(face)
        assert module._HOMES == names, face
        assert set(names) <= set(module.__all__), face
        assert [n for n in names if f"{face}.{n}" in MODULES] == [], face
        assert all(getattr(module, n) is getattr(importlib.import_module(m), n) for n, m in names.items())


@pytest.mark.slow  # a fresh interpreter showing seventeen screens
def test_a_version_or_a_help_screen_loads_no_heavy_library():
    """Issue 28: ``--version``, ``--help`` and every command's ``--help`` import no pandas, numpy, openpyxl,
    SQLAlchemy or Jinja (a fresh interpreter per screen)."""
    import subprocess
    import sys

    screens = [["--version"], ["--help"], *([*c.split(), "--help"] for c in (
        "score", "check", "conventions", "event", "teams", "rubber", "chicago", "swiss", "sim", "config",
        "archive", "archive list", "archive ladder", "archive rescore", "archive history"))]
    code = ("import sys\nfrom bridgeproc.cli import cli\nfor args in %r:\n    try:\n        cli(args, standalone_mode=False)\n"
            "    except SystemExit:\n        pass\nprint(sorted(m for m in ('pandas', 'numpy', 'openpyxl', 'sqlalchemy', "
            "'jinja2') if m in sys.modules), file=sys.stderr)" % screens)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def test_nothing_imports_the_top_two_layers_but_themselves_and_the_face():
    upward = [(name, target) for name, targets in graph().items() for target in targets
              if target.startswith(LAZY_ALLOWED) and not name.startswith((*LAZY_ALLOWED, "bridgeproc.__"))
              and name != "bridgeproc"]
    assert upward == []


def test_imports_are_absolute():
    relative = [name for name, path in MODULES.items() for _, targets, _ in imports(path, True) if "<relative>" in targets]
    assert relative == []


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``edges`` (as a path that returns to its start), or None: iterative DFS."""
    state: dict[str, int] = {}
    for start in sorted(edges):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(edges[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    return None


def test_find_cycle_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_import_graph_has_no_cycle():
    assert find_cycle(graph()) is None


def test_only_the_face_schema_errors_and_version_sit_at_the_top():
    top = {path.stem for path in PACKAGE.glob("*.py")}
    assert top == TOP_LEVEL


@pytest.mark.parametrize(("library", "room"), [
    ("click", ("bridgeproc.cli",)),
    # openpyxl writes the workbooks (report); the one XLSX traveller reader is its only other user
    ("openpyxl", ("bridgeproc.report", "bridgeproc.io.sheets.xlsx")),
    ("endplay", ("bridgeproc.analysis",)),
    ("sqlalchemy", ("bridgeproc.archive",)),
])
def test_each_library_stays_in_its_room(library, room):
    outside = []
    for name, path in MODULES.items():
        for node in ast.walk(parsed(path)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            if any(n == library or n.startswith(library + ".") for n in names) and not name.startswith(room):
                outside.append(name)
    assert outside == []


#: Bridge vocabulary: each name is assigned at module level in exactly one module.
VOCABULARY = ["SEATS", "STRAINS", "RANKS", "DD_COLUMNS", "VULS", "SUIT_SYMBOLS", "STRAIN_ALIASES", "SEAT_ALIASES",
              "DOUBLING_ALIASES", "MINUS_SIGNS", "PASSED_OUT", "VUL_CYCLE", "VUL_ALIASES", "CONTRACT_TEXT"]


@pytest.mark.parametrize("constant", VOCABULARY)
def test_the_vocabulary_is_declared_once(constant):
    pattern = re.compile(rf"^{constant}[ \t]*(:[^=\n]+)?=", re.M)
    homes = [name for name, path in MODULES.items() if pattern.search(path.read_text(encoding="utf-8"))]
    assert len(homes) == 1, homes


def test_every_writer_of_the_output_table_is_a_function_in_report():
    import importlib

    from bridgeproc.pipeline.publish import OUTPUTS

    for table in OUTPUTS.values():
        for target in table.values():
            module, name = target.split(":")
            assert module.startswith("bridgeproc.report.") and callable(getattr(importlib.import_module(module), name))


def test_one_shape_for_every_run():
    """Issue 27: one output table (pipeline.publish.OUTPUTS) and one place that stages files; no writer
    stages its own file, no command composes its writes, no result travels in DataFrame.attrs, no report
    module declares a Protocol for a result."""
    from bridgeproc import model
    from bridgeproc.pipeline.publish import OUTPUTS

    report = [(n, p) for n, p in MODULES.items() if n.startswith("bridgeproc.report")]
    assert [n for n, p in report if "atomic_path" in p.read_text(encoding="utf-8")] == []
    assert [n for n, p in report if re.search(r"class \w+\(Protocol\)", p.read_text(encoding="utf-8"))] == []
    cli = [(n, p) for n, p in MODULES.items() if n.startswith("bridgeproc.cli")]
    assert [n for n, p in cli if re.search(r"\b(write_all|check_outputs|atomic_path)\b", p.read_text(encoding="utf-8"))] == []
    assert [n for n, p in MODULES.items() if ".attrs" in p.read_text(encoding="utf-8")] == []
    # every result type a command publishes has its row, the simultaneous event's folder included
    types = {getattr(model, name) for name in model.__all__ if isinstance(getattr(model, name), type)}
    given = {model.Options, model.ReadOptions, model.CheckOptions, model.ConventionChoice, model.ArchiveOptions,
             model.Headings}
    parts = {model.Evening}  # an evening of the ClubSite, published with it
    published = types - given - parts - {model.EventArchived, model.ArchiveResult, model.History}
    assert {t.__name__ for t in published} == set(OUTPUTS)


def test_options_are_split_by_stage():
    """Issue 27: each stage of a run has its own options type, and Options is only the five of them and dd."""
    import dataclasses

    from bridgeproc import model

    stages = {f.name: f.type for f in dataclasses.fields(model.Options)}
    assert stages == {"read": "ReadOptions", "check": "CheckOptions", "ranking": "ConventionChoice",
                      "archive": "ArchiveOptions", "headings": "Headings", "dd": "bool"}
    # no bag of everything: a stage's field is found in that stage only
    names = [f.name for t in (model.ReadOptions, model.CheckOptions, model.ConventionChoice, model.ArchiveOptions,
                              model.Headings) for f in dataclasses.fields(t)]
    assert len(names) == len(set(names))


def test_every_frame_contract_is_declared_in_schema():
    """A ``*_COLUMNS`` mapping of column -> dtype is a frame's contract: its one home is ``schema``."""
    pattern = re.compile(r"^([A-Z_]+_COLUMNS)[ \t]*(:[^=\n]+)?=[ \t]*(\{|dict\()", re.M)
    outside = [f"{name}:{match.group(1)}" for name, path in MODULES.items() if name != "bridgeproc.schema"
               for match in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert outside == []
    schema_text = MODULES["bridgeproc.schema"].read_text(encoding="utf-8")
    declared = [m.group(1) for m in pattern.finditer(schema_text)]
    assert len(declared) == len(set(declared)) and len(declared) >= 20


def test_every_ranking_method_is_known_to_the_command_line():
    from click import Choice

    from bridgeproc.cli.main import cli
    from bridgeproc.rank.methods import METHODS

    score = cli.commands["score"]  # type: ignore[attr-defined]
    option = next(p for p in score.params if p.name == "method")
    assert isinstance(option.type, Choice) and list(option.type.choices) == list(METHODS)


def test_reading_runs_no_check():
    """Issue 27: the readers read (pipeline.read imports nothing from validate); what a file gives is
    checked in one place (pipeline.inputs) with validate's checks, and a deal two files disagree on is one
    check for pairs and the simultaneous event alike."""
    text = MODULES["bridgeproc.pipeline.read"].read_text(encoding="utf-8")
    assert re.findall(r"^from bridgeproc\.(?:validate|analysis)\S*", text, re.M) == []
    users = [n for n, p in MODULES.items() if "deal_conflicts(" in p.read_text(encoding="utf-8")]
    assert sorted(users) == ["bridgeproc.pipeline.inputs", "bridgeproc.pipeline.sim", "bridgeproc.validate.deals"]


def test_every_data_csv_is_written_by_the_one_csv_writer():
    """Issue 29: a CSV is written by report.csv_files (formula-looking text begun with ``'``) or, for the
    check report, with its safe_text; the simultaneous event's bulk writer goes through its safe_frame.
    Nothing else calls ``to_csv`` but the rubber reader (a frame given as a file, read, never written)."""
    callers = sorted(n for n, p in MODULES.items() if ".to_csv(" in p.read_text(encoding="utf-8"))
    assert callers == ["bridgeproc.report.csv_files", "bridgeproc.report.sim", "bridgeproc.rubber.deals"]
    sim = MODULES["bridgeproc.report.sim"].read_text(encoding="utf-8")
    assert all(("safe_frame(" in line or "small.to_csv" in line or "safe.to_csv" in line)
               for line in sim.splitlines() if ".to_csv(" in line)
    checks = MODULES["bridgeproc.report.checks"].read_text(encoding="utf-8")
    assert "safe_text(v)" in checks
