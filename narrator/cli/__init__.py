"""The `narrator` command line: one module per command group, registered here and only here.

- `play.py`: play, resume, games
- `voices.py`: say, doctor, voices list/render/check
- `listen.py`: listen, models
- `stats.py`: stats, stats forget (the table's history)
- `narrator/appliance/commands.py`: serve, config, service (the Pi's own commands)
- `common.py`: what they share (a `NarratorError` becomes one line and its exit status)

Command modules never import this package, so there is no import cycle.
"""

from __future__ import annotations

import click

from narrator.appliance.commands import register as register_appliance
from narrator.cli import listen, play, stats, voices
from narrator.cli.common import friendly_errors


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="narrator")
def main() -> None:
    """A voice-narrated game master for social-deduction party games."""


play.register(main)
voices.register(main)
listen.register(main)
stats.register(main)
register_appliance(main, friendly_errors)


if __name__ == "__main__":
    main()
