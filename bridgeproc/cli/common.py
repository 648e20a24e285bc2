"""What every command shares: the library's errors as exit codes, option sections in ``--help``,
how much to print (``--quiet``/``--verbose``) and the club's configuration file as defaults."""
from __future__ import annotations

import contextlib
import functools
from typing import Iterator

import click
from click.core import ParameterSource

from bridgeproc.errors import BridgeprocError, SetupError, UsageError, ValidationError
from bridgeproc.pipeline.config import Config, ConfigError, Setting, config_paths, read_config


class SetupProblem(click.ClickException):
    """Something bridgeproc needs is not installed, or the configuration file is wrong: exit 2,
    as for a command-line mistake (the data is not at fault)."""

    exit_code = 2


@contextlib.contextmanager
def library_errors() -> Iterator[None]:
    """Bad input data exits 1 with the problems listed (grouped by cause; every one with
    ``--verbose``); files that cannot be right together (an output that is an input, an input
    given twice, an unknown type) exit 2 with the usage line, as any command-line mistake;
    a setup problem exits 2; no traceback."""
    try:
        yield
    except (SetupError, ConfigError) as exc:
        raise SetupProblem(str(exc)) from None
    except UsageError as exc:
        raise click.UsageError(str(exc), click.get_current_context(silent=True)) from None
    except ValidationError as exc:
        raise click.ClickException(exc.full_text() if verbosity() >= VERBOSE else str(exc)) from None
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None


# --------------------------------------------------------------------------- option sections


class Option(click.Option):
    """An option that names the section of ``--help`` it is listed in."""

    def __init__(self, *args, section: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.section = section


def option(section: str):
    """``click.option`` for options listed under ``section`` in ``--help``."""
    return functools.partial(click.option, cls=Option, section=section)


class Command(click.Command):
    """A command whose ``--help`` lists its options by section (inputs, method and conventions,
    outputs, archive ...), in the order the sections first appear."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        sections: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                sections.setdefault(getattr(param, "section", None) or "Other options", []).append(record)
        sections["Other options"] = sections.pop("Other options", [])  # -q, -v, -h last
        for title, rows in sections.items():
            with formatter.section(title):
                formatter.write_dl(rows)


def apply(decorators, command):
    """Apply a list of click decorators, the first listed outermost (as if stacked in order)."""
    return functools.reduce(lambda f, d: d(f), reversed(decorators), command)


# --------------------------------------------------------------------------- verbosity

QUIET, NORMAL, VERBOSE = 0, 1, 2


def _set_verbosity(level: int):
    def callback(ctx: click.Context, param, value) -> None:
        if value:
            ctx.meta["bridgeproc.verbosity"] = level
    return callback


#: ``-q``/``-v`` on the group and on every command (``bridgeproc score -q ...`` reads naturally).
VERBOSITY = [
    click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set_verbosity(QUIET),
                 help="Print only errors (no progress, notes or summary)."),
    click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_set_verbosity(VERBOSE),
                 help="Also print each stage of the run as it ends, with its time."),
]


def with_verbosity(command):
    """Add ``-q``/``-v`` to a command."""
    return apply(VERBOSITY, command)


def verbosity() -> int:
    ctx = click.get_current_context(silent=True)
    return NORMAL if ctx is None else ctx.meta.get("bridgeproc.verbosity", NORMAL)


def say(message: str, level: int = NORMAL) -> None:
    """Print to standard error (standard output may carry ``-o -``) unless quieter than ``level``."""
    if verbosity() >= level:
        click.echo(message, err=True)


# --------------------------------------------------------------------------- configuration


def option_keys(command: click.Command) -> dict[str, click.Parameter]:
    """Configuration key (long option name without ``--``) -> parameter, for ``command``."""
    keys: dict[str, click.Parameter] = {}
    for param in command.params:
        if isinstance(param, click.Option) and param.expose_value:
            for opt in [*param.opts, *param.secondary_opts]:
                if opt.startswith("--") and opt not in ("--help",):
                    keys.setdefault(opt[2:], param)
    return keys


def commands_of(group: click.Group, prefix: str = "") -> Iterator[tuple[str, click.Command]]:
    """Every command of ``group`` by its full name (``"archive list"``), those loaded when asked for too."""
    load_all = getattr(group, "load_all", None)
    if load_all is not None:
        load_all()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from commands_of(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def load_config(group: click.Group) -> tuple[Config, dict[str, dict[str, Setting]]]:
    """The configuration files read against every command's options, and what is in force for
    each command (by full name, ``"archive list"``): nothing in force, and no command loaded to read it
    against, when there is no file."""
    paths = config_paths()
    if not paths:
        return Config(files=[]), {}
    commands = dict(commands_of(group))
    known = {name: set(option_keys(cmd)) for name, cmd in commands.items()}
    config = read_config(paths, known=known)
    return config, {name: config.for_command(name, known[name]) for name in commands}


#: :func:`_default` of a switch set to false that only picks one value of several (``csv = false``).
_LEAVE = object()


def _default(param: click.Parameter, key: str, value: object) -> object:
    """A TOML value as click takes a default: text for choices and paths, a list for ``multiple``,
    the flag's sense for ``--across-field/--within-sections``, the value a ``--csv``/``--json``
    switch picks."""
    if isinstance(param, click.Option) and param.is_flag:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} is a switch: write {key} = true or false")
        if f"--{key}" in param.secondary_opts:
            return not value  # within-sections = true is across-field = false
        if not param.is_bool_flag:  # one of --csv/--json (one parameter): true picks it
            return param.flag_value if value else _LEAVE
        return value
    if isinstance(param, click.Option) and param.multiple:
        items = value if isinstance(value, list) else [value]
        return [str(v) for v in items]
    if isinstance(value, list):
        raise ConfigError(f"{key} takes one value, not a list")
    if isinstance(value, bool):
        return value
    return str(value)


def default_map(group: click.Group, in_force: dict[str, dict[str, Setting]] | None = None) -> dict:
    """click's ``default_map`` for ``group`` from the configuration files (nested per command);
    ``in_force`` as :func:`load_config` returns it (read again when not given)."""
    if in_force is None:
        _, in_force = load_config(group)
    if not in_force:  # no configuration file: nothing to look up, no command to load
        return {}
    commands = dict(commands_of(group))
    out: dict = {}
    for name, settings in in_force.items():
        keys = option_keys(commands[name])
        values = {}
        for key, setting in settings.items():
            param = keys[key]
            try:
                value = _default(param, key, setting.value)
            except ConfigError as exc:
                raise ConfigError(f"{setting.where}{exc}") from None
            if value is not _LEAVE:
                values[param.name] = value
        if values:
            target = out
            for part in name.split()[:-1]:
                target = target.setdefault(part, {})
            target[name.split()[-1]] = values
    return out


def config_problem(exc: click.BadParameter, in_force: dict[str, dict[str, Setting]]) -> SetupProblem | None:
    """``exc`` as a mistake in the configuration file, naming the file and the key, when the value
    click refused came from there (not the command line): else None."""
    ctx, param = exc.ctx, exc.param
    if ctx is None or param is None or param.name is None:
        return None
    if ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT_MAP:
        return None
    names, parent = [], ctx
    while parent.parent is not None:
        assert parent.info_name is not None  # click names every subcommand's context
        names.append(parent.info_name)
        parent = parent.parent
    settings = in_force.get(" ".join(reversed(names)), {})
    for key, setting in settings.items():
        if option_keys(ctx.command).get(key) is param:
            return SetupProblem(f"{setting.where}{key}: {exc.message}")
    return None
