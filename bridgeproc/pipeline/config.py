"""The club's configuration file: the defaults a club would otherwise retype every night.

A TOML file (read with the standard library) whose keys are the long option names of the
commands, without ``--``::

    # bridgeproc.toml
    club = "Winchester Bridge Club"
    profile = "ebu"
    names = "members.csv"
    archive = "~/bridge/archive.sqlite"
    output = ["results.xlsx", "results.pbn"]

    [teams]              # a table per command overrides the keys above for that command
    vp-scale = "wbf2013"
    output = ["teams.xlsx"]

    [archive.list]       # a sub-command's table ([archive] for every archive command)
    json = true

Where it is looked up, the later winning: the user's file
(``$XDG_CONFIG_HOME/bridgeproc/config.toml``, ``~/.config/...`` when unset), then
``bridgeproc.toml`` in the working folder (or the file ``$BRIDGEPROC_CONFIG`` names instead
of both). An option on the command line beats them all. Input paths (names lists, line-ups,
the archive) are relative to the file that names them; outputs to the working folder, where
the command runs. A top-level ``output`` is the ``score`` command's (the evening's results
files); the other commands that write files take theirs from their own table only.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bridgeproc.errors import BridgeprocError, ParseError
from bridgeproc.io.text import file_bytes

#: The largest configuration file read (a few hundred bytes is usual).
MAX_CONFIG_BYTES = 1024 * 1024

#: The file looked up in the working folder.
LOCAL_NAME = "bridgeproc.toml"
ENV_VAR = "BRIDGEPROC_CONFIG"
#: Keys whose values are paths of files the run reads (made relative to the config file).
INPUT_PATHS = frozenset({"names", "archive", "lineup", "adjustments", "targets", "vp-scale"})
#: Values of those keys that name something built in, not a file (``vp-scale = "wbf2013"``).
BUILT_IN = frozenset({"wbf2013", "wbf", "wbf-2013"})
#: Top-level keys that apply to one command only, not to every command having the option: the
#: club's ``output = ["results.xlsx", ...]`` is not where ``rubber`` or ``archive export`` write.
TOP_LEVEL_FOR = {"output": "score"}


class ConfigError(BridgeprocError):
    """The configuration file cannot be read or names an option no command has."""


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "bridgeproc" / "config.toml"


def config_paths(cwd: Path | None = None) -> list[Path]:
    """The files consulted, lowest precedence first (only those that exist)."""
    if os.environ.get(ENV_VAR):
        return [Path(os.environ[ENV_VAR]).expanduser()]
    candidates = [user_config_path(), (cwd or Path.cwd()) / LOCAL_NAME]
    return [p for p in dict.fromkeys(map(_resolved, candidates)) if _present(p)]


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:  # a folder on the way that cannot be looked into: the read says so
        return path.absolute()


def _present(path: Path) -> bool:
    """Whether ``path`` is a file to read; True too when it cannot be looked at (a folder of the user's
    configuration that cannot be read): the read then says why, rather than the file being ignored."""
    try:
        return path.is_file()
    except OSError:
        return True


@dataclass(frozen=True)
class Setting:
    """One value in force: ``key`` (option name), for ``command`` (None: every command that has
    the option; ``"archive"``: every archive command; ``"archive list"``: that one), and the file
    it came from."""

    key: str
    value: object
    source: Path
    command: str | None = None

    @property
    def table(self) -> str | None:
        """The TOML table it is written in (``[archive.list]``), None at the top level."""
        return None if self.command is None else f"[{self.command.replace(' ', '.')}]"

    @property
    def where(self) -> str:
        """The file, and the table within it, as messages begin: ``"club.toml: [score] "``."""
        return f"{self.source}: {self.table} " if self.table else f"{self.source}: "


@dataclass
class Config:
    """Every setting of the files consulted, in precedence order (later wins)."""

    settings: list[Setting] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def for_command(self, command: str, keys: set[str]) -> dict[str, Setting]:
        """The settings in force for ``command`` (its full name, ``"archive list"``) among its option
        names ``keys``: a later file beats an earlier one; within a file, the command's own table
        beats its group's (``[archive]``), which beats the top level."""
        parts = command.split()
        scopes = [None, *(" ".join(parts[:n]) for n in range(1, len(parts) + 1))]
        chosen: dict[str, Setting] = {}
        for path in self.files:
            for scope in scopes:
                for setting in self.settings:
                    if (setting.source == path and setting.command == scope and setting.key in keys
                            and (scope is not None or TOP_LEVEL_FOR.get(setting.key, command) == command)):
                        chosen[setting.key] = setting
        return chosen


def _value(key: str, value: object, base: Path, where: str) -> object:
    """``value`` as in force, input paths made relative to ``base``; ``where`` begins messages."""
    if isinstance(value, dict):
        raise ConfigError(f"{where}{key} is a table; give a value, e.g. {key} = \"...\"")
    if key in INPUT_PATHS:
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in items):
            raise ConfigError(f"{where}{key} must be a file name (text in quotes) or a list of them")
        texts = [str(v) for v in items]
        paths = [v if "://" in v or v.lower() in BUILT_IN else str((base / Path(v).expanduser())) for v in texts]
        return paths if isinstance(value, list) else paths[0]
    return value


def read_config(paths: list[Path] | None = None, known: dict[str, set[str]] | None = None) -> Config:
    """Read the configuration files (default :func:`config_paths`).

    ``known`` maps each command, by its full name (``"score"``, ``"archive list"``), to its option
    names: a key no command has, or a table that is not a command (``[score]``,
    ``[archive.list]``) or a group of them (``[archive]``), is refused with every such key listed
    (a misspelt key silently ignored would be a default the club thinks it has).
    """
    paths = config_paths() if paths is None else paths
    config = Config(files=list(paths))
    problems: list[str] = []
    groups: dict[str, set[str]] = {}
    for name, keys in (known or {}).items():
        parts = name.split()
        for n in range(1, len(parts)):
            groups.setdefault(" ".join(parts[:n]), set()).update(keys)
    scopes = {**groups, **(known or {})}  # table name -> the option names it may hold
    every = set().union(*known.values()) if known else set()
    tables = ", ".join(f"[{name.replace(' ', '.')}]" for name in scopes)

    def table(data: dict, command: str | None, path: Path) -> None:
        where = Setting("", None, path, command).where
        for key, value in data.items():
            name = key if command is None else f"{command} {key}"
            if isinstance(value, dict) and (known is None or name in scopes):
                table(value, name, path)
            elif known is not None and isinstance(value, dict) and (command is None or key not in scopes[command]):
                problems.append(f"{path}: [{name.replace(' ', '.')}]: unknown table; a table is named after a "
                                f"command: {tables}")
            elif known is not None and command is None and key not in every:
                problems.append(f"{where}{key}: unknown key; use the long name of an option without --, "
                                "e.g. profile, names, archive, output (bridgeproc COMMAND --help lists them)")
            elif known is not None and command is not None and key not in scopes[command]:
                whose = f"no {command} command has an" if command in groups else f"the {command} command has no"
                problems.append(f"{where}{key}: {whose} option --{key}")
            else:
                config.settings.append(Setting(key, _value(key, value, path.parent, where), path, command))

    if paths:
        import tomllib  # only when the club keeps a configuration file: its parser is 1.6 ms of a run's start

    for path in paths:
        try:
            data = tomllib.loads(file_bytes(path, MAX_CONFIG_BYTES).decode("utf-8"))
        except ParseError as exc:  # not a file (a device, a pipe), too large, unreadable
            raise ConfigError(f"{path}: cannot read the configuration file: "
                              f"{exc.message.removeprefix('cannot read file: ')}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not a TOML file ({exc}); write key = value lines, "
                              "e.g. profile = \"ebu\"") from None
        except RecursionError:  # arrays or tables nested thousands deep: no configuration is
            raise ConfigError(f"{path}: not a configuration file (its values are nested too deeply); write "
                              "key = value lines, e.g. profile = \"ebu\"") from None
        table(data, None, path)
    if problems:
        raise ConfigError("\n".join(problems))
    return config
