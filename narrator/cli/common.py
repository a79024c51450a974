"""What every command module shares: one line and an exit status for a `NarratorError`.

Kept in its own module so that the command modules and the group that registers them
(`narrator/cli/__init__.py`) never import each other.
"""

from __future__ import annotations

import sys
from functools import wraps
from typing import Any, Callable

import click

from narrator.errors import NarratorError, SaveError
from narrator.sound.doctor import command_name


def friendly_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a NarratorError into `error: …` and its exit status, an unexpected disk failure into
    one line and exit 2; Ctrl-C into a resume hint when a game was playing."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NarratorError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(err.exit_code)
        except OSError as err:  # a disk or path failure nothing else caught: still one line
            where = f" {err.filename}" if err.filename else ""
            click.echo(f"error: cannot read or write{where} ({err.strerror or err}); free some space or fix "
                       "the path and its permissions (what was saved is kept)", err=True)
            sys.exit(SaveError.exit_code)
        except KeyboardInterrupt:
            from narrator.table.lock import game_held_here

            if game_held_here():
                click.echo(f"\nstopped: the game is saved; continue it with `{command_name()} resume`", err=True)
            else:
                click.echo("\nstopped", err=True)
            sys.exit(130)

    return wrapper
