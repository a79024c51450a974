"""What every command module shares: one line and an exit status for a `NarratorError`.

Kept in its own module so that the command modules and the group that registers them
(`narrator/cli/__init__.py`) never import each other.
"""

from __future__ import annotations

import sys
from functools import wraps
from typing import Callable, ParamSpec, TypeVar

import click

from narrator.errors import NarratorError, SaveError
from narrator.sound.doctor import command_name
from narrator.terminal import said

P = ParamSpec("P")
R = TypeVar("R")


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a NarratorError into `error: …` and its exit status, an unexpected disk failure into
    one line and exit 2; Ctrl-C into a resume hint when a game was playing. Every line is in the
    terminal's language (narrator/terminal/lines.py: the table's, else the locale's)."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except NarratorError as err:
            click.echo(said("error", message=err), err=True)
            sys.exit(err.exit_code)
        except OSError as err:  # a disk or path failure nothing else caught: still one line
            where = f" {err.filename}" if err.filename else ""
            click.echo(said("disk_error", where=where, reason=err.strerror or err), err=True)
            sys.exit(SaveError.exit_code)
        except KeyboardInterrupt:
            from narrator.table.lock import game_held_here

            if game_held_here():
                click.echo("\n" + said("stopped_saved", command=command_name()), err=True)
            else:
                click.echo("\n" + said("stopped"), err=True)
            sys.exit(130)

    return wrapper
