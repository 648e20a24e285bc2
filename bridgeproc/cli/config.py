"""``bridgeproc config``: which defaults are in force, and where each one came from."""
from __future__ import annotations

import json
import os
import re

import click

from bridgeproc.cli.common import commands_of, library_errors, load_config, option_keys, with_verbosity
from bridgeproc.cli.main import cli
from bridgeproc.pipeline.config import ENV_VAR, LOCAL_NAME, user_config_path

#: The password of a database URL (``postgresql://user:secret@host/db``), shown as ``***`` as every other
#: message shows it (SQLAlchemy's ``hide_password``).
_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")


def _shown(value: object) -> str:
    if isinstance(value, str):
        value = _PASSWORD.sub(r"\1***@", value)
    elif isinstance(value, (list, tuple)):
        value = [_PASSWORD.sub(r"\1***@", v) if isinstance(v, str) else v for v in value]
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, bool) else str(value).lower()


@cli.command("config")
@click.argument("command", nargs=-1)
@click.option("--all", "show_all", is_flag=True, help="Also list every option left at its built-in default.")
@with_verbosity
def config_command(command, show_all) -> None:
    """Show the defaults in force for each command (or COMMAND: e.g. score, archive, archive list)
    and where each came from.

    Precedence: an option on the command line, then its environment variable
    (BRIDGEPROC_ARCHIVE), then bridgeproc.toml in the working folder, then the
    user's ~/.config/bridgeproc/config.toml, then bridgeproc's own default.

    Example:

        bridgeproc config score
    """
    with library_errors():
        config, in_force = load_config(cli)
    commands = dict(commands_of(cli))
    command = " ".join(command) or None  # "archive list" as one word or two
    if command is not None and not any(name == command or name.startswith(f"{command} ") for name in commands):
        raise click.BadParameter(f"no command {command!r}; one of {', '.join(commands)}", param_hint="COMMAND")
    if os.environ.get(ENV_VAR):
        click.echo(f"Configuration file (${ENV_VAR}): {os.environ[ENV_VAR]}")
    else:
        click.echo(f"Configuration files looked for: {user_config_path()}, then ./{LOCAL_NAME}")
    click.echo("Read (later wins): " + (", ".join(map(str, config.files)) if config.files else "none"))
    for name, cmd in commands.items():
        if command is not None and name != command and not name.startswith(f"{command} "):
            continue
        rows, defaults = [], click.Context(cmd)
        for key, param in option_keys(cmd).items():
            envvar = param.envvar if isinstance(param.envvar, str) else None
            if envvar and os.environ.get(envvar):
                rows.append((key, _shown(os.environ[envvar]), f"${envvar}"))
            elif key in in_force.get(name, {}):
                setting = in_force[name][key]
                where = f"{setting.table} in " if setting.table else ""
                rows.append((key, _shown(setting.value), f"{where}{setting.source}"))
            elif show_all and f"--{key}" not in getattr(param, "secondary_opts", ()):  # within-sections: as set
                default = param.get_default(defaults, call=False)
                default = default if isinstance(default, (str, int, float, bool, list, tuple)) else None
                rows.append((key, "" if default in (None, ()) else _shown(default), "default"))
        if rows or show_all:
            click.echo(f"\n{name}:")
            width = max(len(f"{k} = {v}") for k, v, _ in rows) if rows else 0
            for key, value, source in rows:
                click.echo(f"  {f'{key} = {value}':<{width}}  ({source})")
