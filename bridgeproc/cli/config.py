"""``bridgeproc config``: which defaults are in force, and where each one came from."""
from __future__ import annotations

import json
import os

import click

from ..config import ENV_VAR, LOCAL_NAME, user_config_path
from .common import commands_of, library_errors, load_config, option_keys, with_verbosity
from .main import cli


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, bool) else str(value).lower()


@cli.command("config")
@click.argument("command", required=False)
@click.option("--all", "show_all", is_flag=True, help="Also list every option left at its built-in default.")
@with_verbosity
def config_command(command, show_all) -> None:
    """Show the defaults in force for each command (or COMMAND) and where each came from.

    Precedence: an option on the command line, then its environment variable
    (BRIDGEPROC_ARCHIVE), then bridgeproc.toml in the working folder, then the
    user's ~/.config/bridgeproc/config.toml, then bridgeproc's own default.

    Example:

        bridgeproc config score
    """
    with library_errors():
        config, in_force = load_config(cli)
    commands = dict(commands_of(cli))
    if command is not None and command not in commands:
        raise click.BadParameter(f"no command {command!r}; one of {', '.join(commands)}", param_hint="COMMAND")
    if os.environ.get(ENV_VAR):
        click.echo(f"Configuration file (${ENV_VAR}): {os.environ[ENV_VAR]}")
    else:
        click.echo(f"Configuration files looked for: {user_config_path()}, then ./{LOCAL_NAME}")
    click.echo("Read (later wins): " + (", ".join(map(str, config.files)) if config.files else "none"))
    for name, cmd in commands.items():
        if command is not None and name != command:
            continue
        rows = []
        for key, param in option_keys(cmd).items():
            if f"--{key}" in getattr(param, "secondary_opts", ()):
                continue
            envvar = param.envvar if isinstance(param.envvar, str) else None
            if envvar and os.environ.get(envvar):
                rows.append((key, _shown(os.environ[envvar]), f"${envvar}"))
            elif key in in_force[name]:
                setting = in_force[name][key]
                where = f"[{setting.command}] in " if setting.command else ""
                rows.append((key, _shown(setting.value), f"{where}{setting.source}"))
            elif show_all:
                default = param.default if isinstance(param.default, (str, int, float, bool, list, tuple)) else None
                rows.append((key, "" if default in (None, ()) else _shown(default), "default"))
        if rows or show_all:
            click.echo(f"\n{name}:")
            width = max(len(f"{k} = {v}") for k, v, _ in rows) if rows else 0
            for key, value, source in rows:
                click.echo(f"  {f'{key} = {value}':<{width}}  ({source})")
