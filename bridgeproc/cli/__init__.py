"""The command line: a thin click layer over bridgeproc's library calls (the only package that
imports click). ``main`` holds the group, ``score`` and ``check``; ``sheets`` the rubber,
Chicago and teams commands; ``archive`` the archive commands; ``config`` shows the defaults
in force; ``event``, ``movement``, ``sim`` and ``swiss`` their commands. The group loads those
modules when one of their commands is asked for (``main.LAZY_COMMANDS``). ``common`` has what
they share (exit codes, help sections, verbosity, the configuration file as defaults),
``progress`` the double-dummy progress; ``program`` is the ``bridgeproc`` program itself (the
group run, then the process ended at once)."""
from bridgeproc.cli.main import cli

__all__ = ["cli"]
