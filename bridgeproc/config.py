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

Where it is looked up, the later winning: the user's file
(``$XDG_CONFIG_HOME/bridgeproc/config.toml``, ``~/.config/...`` when unset), then
``bridgeproc.toml`` in the working folder (or the file ``$BRIDGEPROC_CONFIG`` names instead
of both). An option on the command line beats them all. Input paths (names lists, line-ups,
the archive) are relative to the file that names them; outputs to the working folder, where
the command runs.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BridgeprocError

#: The file looked up in the working folder.
LOCAL_NAME = "bridgeproc.toml"
ENV_VAR = "BRIDGEPROC_CONFIG"
#: Keys whose values are paths of files the run reads (made relative to the config file).
INPUT_PATHS = frozenset({"names", "archive", "lineup", "adjustments", "targets"})


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
    return [p for p in dict.fromkeys(c.resolve() for c in candidates) if p.is_file()]


@dataclass(frozen=True)
class Setting:
    """One value in force: ``key`` (option name), for ``command`` (None: every command that has
    the option), and the file it came from."""

    key: str
    value: object
    source: Path
    command: str | None = None


@dataclass
class Config:
    """Every setting of the files consulted, in precedence order (later wins)."""

    settings: list[Setting] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def for_command(self, command: str, keys: set[str]) -> dict[str, Setting]:
        """The settings in force for ``command`` among its option names ``keys``: a later file beats
        an earlier one; within a file, the command's own table beats the top level."""
        chosen: dict[str, Setting] = {}
        for path in self.files:
            for setting in self.settings:
                if setting.source == path and setting.command is None and setting.key in keys:
                    chosen[setting.key] = setting
            for setting in self.settings:
                if setting.source == path and setting.command == command and setting.key in keys:
                    chosen[setting.key] = setting
        return chosen


def _value(key: str, value: object, base: Path, where: str) -> object:
    if isinstance(value, dict):
        raise ConfigError(f"{where}: {key} is a table; give a value, e.g. {key} = \"...\"")
    if key in INPUT_PATHS:
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in items):
            raise ConfigError(f"{where}: {key} must be a file name (text in quotes) or a list of them")
        paths = [v if "://" in v else str((base / Path(v).expanduser())) for v in items]
        return paths if isinstance(value, list) else paths[0]
    return value


def read_config(paths: list[Path] | None = None, known: dict[str, set[str]] | None = None) -> Config:
    """Read the configuration files (default :func:`config_paths`).

    ``known`` maps each command to its option names: a key no command has, or a table that is
    not a command, is refused with every such key listed (a misspelt key silently ignored would
    be a default the club thinks it has).
    """
    paths = config_paths() if paths is None else paths
    config = Config(files=list(paths))
    problems: list[str] = []
    every = set().union(*known.values()) if known else set()
    for path in paths:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the configuration file: {exc.strerror}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not a TOML file ({exc}); write key = value lines, e.g. profile = \"ebu\"") from None
        base = path.parent
        for key, value in data.items():
            if isinstance(value, dict) and (known is None or key in known):
                for sub, inner in value.items():
                    if known is not None and sub not in known[key]:
                        problems.append(f"{path}: [{key}] {sub}: the {key} command has no option --{sub}")
                        continue
                    config.settings.append(Setting(sub, _value(sub, inner, base, f"{path}: [{key}]"), path, key))
            elif known is not None and key not in every:
                what = "table" if isinstance(value, dict) else "key"
                problems.append(f"{path}: {key}: unknown {what}; use the long name of an option without --, "
                                "e.g. profile, names, archive, output (bridgeproc config lists them)")
            else:
                config.settings.append(Setting(key, _value(key, value, base, str(path)), path))
    if problems:
        raise ConfigError("\n".join(problems))
    return config
