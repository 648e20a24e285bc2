"""Keep the help and the README honest: every command has help text and is documented."""
import click
import pytest

from bridgeproc.cli import cli

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(group, prefix=""):
    if hasattr(group, "load_all"):  # the commands loaded when asked for: every one of them here
        group.load_all()
    for name, command in group.commands.items():
        yield f"{prefix}{name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")


@pytest.mark.parametrize(("name", "command"), list(_commands(cli)))
def test_every_command_has_help_and_is_in_the_readme(name, command):
    assert command.help and len(command.help.strip()) > 20
    top, *sub = name.split()
    assert f"bridgeproc {top}" in README
    for word in sub:
        assert f"{word}" in README.split(f"bridgeproc {top}", 1)[1].split("\n", 1)[0], f"{name} missing from README"


def test_readme_opens_with_the_two_commands():
    head = "\n".join(README.splitlines()[:15])
    assert "make demo" in head and "make test" in head


@pytest.mark.parametrize("option", ["--method", "--factoring", "--mp-scale", "--cross-imp", "--datum-drop", "--profile"])
def test_design_option_names_exist_and_are_documented(option):
    names = {opt for param in cli.commands["score"].params for opt in getattr(param, "opts", [])}
    assert option in names
    assert option in README


def test_real_files_are_intact_and_listed():
    """tests/data/realdata holds every real file with its checksum (tools/realdata.py keeps it)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("realdata_tool", ROOT / "tools" / "realdata.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.problems() == []
    listed = tool.listed()
    assert "README.md" in listed and len(listed) >= 37


def test_a_plain_install_does_the_main_job():
    """Double dummy and .bws are ordinary dependencies; only the PostgreSQL driver is an extra."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = {dep.split(">")[0].split("[")[0].strip() for dep in project["dependencies"]}
    assert {"pandas", "openpyxl", "click", "sqlalchemy", "endplay", "access-parser"} <= needed
    assert set(project["optional-dependencies"]) == {"postgres", "test"}
    assert isinstance(project["license"], str)  # SPDX text: no setuptools deprecation warning


def test_sync_never_approves_an_edited_real_file(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("realdata_tool_sync", ROOT / "tools" / "realdata.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    copy, source = tmp_path / "copy", tmp_path / "shared"
    copy.mkdir()
    source.mkdir()
    (source / "a.pbn").write_text("first")
    monkeypatch.setattr(tool, "COPY", copy)
    monkeypatch.setattr(tool, "SUMS", copy / "SHA256SUMS")
    assert tool.sync(source) == ["a.pbn"] and tool.problems() == []
    (source / "b.pbn").write_text("second")
    assert tool.sync(source) == ["b.pbn"] and set(tool.listed()) == {"a.pbn", "b.pbn"}
    (copy / "a.pbn").write_text("edited")
    with pytest.raises(SystemExit, match="a.pbn: the copy differs from SHA256SUMS"):
        tool.sync(source)
    assert tool.problems() == ["a.pbn: checksum differs from SHA256SUMS (real files are never edited)"]


def _conventions_table() -> dict[str, set[str]]:
    """The README's conventions table: each option (both names of a flag pair) -> the values it lists."""
    section = README.split("## Conventions\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `--")]
    table: dict[str, set[str]] = {}
    for row in rows:
        cell = row.split(" | ")[0].lstrip("| ")
        for part in cell.split(" / "):
            names, _, values = part.strip("`").partition(" ")
            for name in names.split("/"):
                table[name] = set(values.replace("\\|", "|").split("|")) if values and not values.isupper() else set()
    return table


def test_readme_conventions_table_lists_every_option_and_value_of_score_help():
    """Every option of `score --help`'s "Method and conventions" section is a row of the README's table,
    with every value its help offers (choices, or 0-6|exact), and no row names an option score lacks."""
    from bridgeproc.cli.common import Option

    table = _conventions_table()
    score = cli.commands["score"]
    method = [p for p in score.params if isinstance(p, Option) and p.section == "Method and conventions"]
    documented = set()
    for param in method:
        for name in [*param.opts, *param.secondary_opts]:
            assert name in table, f"{name} is not in the README's conventions table"
            documented.add(name)
        choices = getattr(param.type, "choices", None)
        if choices is not None:
            assert table[param.opts[0]] == set(choices), param.opts[0]
        elif param.type.name == "0-6|exact":
            assert table[param.opts[0]] == {"0-6", "exact"}
    names = {opt for param in score.params for opt in [*getattr(param, "opts", []), *getattr(param, "secondary_opts", [])]}
    assert set(table) <= names, set(table) - names


def test_readme_names_every_profile_and_producer():
    from bridgeproc.rank.conventions import PRODUCER_TABLE, PROFILES

    section = README.split("## Conventions\n", 1)[1].split("\n## ", 1)[0]
    profiles = section.split("Profiles:", 1)[1].split("\n\n", 1)[0]
    for name in PROFILES:
        assert f"`{name}`" in profiles, name
    for maker in PRODUCER_TABLE:
        assert maker.name in section, maker.name
