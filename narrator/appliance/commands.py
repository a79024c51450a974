"""The appliance's commands: `narrator serve`, `narrator config …`, `narrator service …`.

Kept beside the appliance (`narrator/cli/__init__.py` only calls `register`) so the CLI modules stay
small; each command is a thin layer over `serve`, `table` and `unit`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, ParamSpec, Protocol, TypeVar

import click

from narrator.appliance import table as table_file
from narrator.appliance import unit
from narrator.errors import SetupError

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., object])


class Decorator(Protocol):
    """`cli.common.friendly_errors`, handed in by the CLI (the appliance never imports `cli/`):
    a command wrapped with the same signature."""

    def __call__(self, func: Callable[P, R], /) -> Callable[P, R]: ...

SERVE_FLAGS = [
    ("--lang", "lang", "Language of the narration: ja or en."),
    ("--voice", "voice", "Voice pack name, or `text` to print the lines."),
    ("--time-scale", "time_scale", "1 = real time, 0 = every wait instantly."),
    ("--audio", "audio", "auto, null or device."),
    ("--audio-device", "audio_device", "Audio output device name or index."),
    ("--answers", "answers", "Scripted answers file (tests): every question, menus included."),
    ("--transcript", "transcript", "Write every cue as JSON Lines to this file."),
]


def register(main: click.Group, friendly_errors: Decorator) -> None:
    """Add the appliance's commands to the `narrator` group."""

    @main.command()
    @click.option("--table", "table", type=click.Path(path_type=Path), default=None,
                  help="Table file (default: the app home's table.toml).")
    @click.option("--once", is_flag=True, help="Stop after one game instead of offering another.")
    @click.option("--keyboard/--no-keyboard", default=None, help="Read answers from the terminal (default: if it is one).")
    @click.option("--no-buttons", is_flag=True, help="Do not use the GPIO buttons.")
    @_serve_options
    @friendly_errors
    def serve(table: Path | None, once: bool, keyboard: bool | None, no_buttons: bool, **flags: str | None) -> None:
        """The appliance: greet, resume or choose a game by button or voice, play; run by the service."""
        from narrator.appliance.serve import ServeOptions, serve as run_serve

        overrides = {k: v for k, v in flags.items() if v is not None}
        run_serve(ServeOptions(table=table, once=once, keyboard=keyboard, buttons=not no_buttons, overrides=overrides))

    @main.group()
    def config() -> None:
        """The default table file the service plays (every change is checked before saving)."""

    @config.command("show")
    @friendly_errors
    def config_show() -> None:
        """Print the table file, and whether it is valid."""
        path = table_file.ensure_table()
        click.echo(f"# {path}")
        click.echo(table_file.read_table_text(path).rstrip("\n"))
        settings, game_config, appliance = table_file.check_table(table_file.load_table(path), f"table file {path}")
        click.echo(f"# valid: {settings.game} for {game_config.players} players, lang {settings.lang}, "
                   f"buttons on {', '.join(map(str, appliance.pins)) or 'none'}", err=True)

    @config.command("set")
    @click.argument("pairs", nargs=-1, metavar="KEY VALUE [KEY VALUE]...")
    @friendly_errors
    def config_set(pairs: tuple[str, ...]) -> None:
        """Set KEY (e.g. players, lang, cards.占い師, appliance.button_pin) to VALUE, if the result
        is valid; several pairs are one change (card counts that must add up)."""
        if not pairs or len(pairs) % 2:
            raise SetupError.said("config_set_pairs")
        path = table_file.ensure_table()
        changes = {key: table_file.parse_value(value) for key, value in zip(pairs[::2], pairs[1::2])}
        table_file.update_table(path, changes)
        for key, parsed in changes.items():
            click.echo(f"{key} = {table_file.format_value(parsed)}  ({path})")

    @config.command("unset")
    @click.argument("key")
    @friendly_errors
    def config_unset(key: str) -> None:
        """Remove KEY from the table file (its default applies again)."""
        path = table_file.ensure_table()
        table_file.update_table(path, {key: None})
        click.echo(f"{key} removed ({path})")

    @config.command("edit")
    @friendly_errors
    def config_edit() -> None:
        """Edit the table file in $EDITOR; it is saved only if it is valid."""
        path = table_file.ensure_table()
        table_file.edit(path)
        click.echo(f"saved {path}")

    @config.command("hotspot")
    @click.argument("state", type=click.Choice(["on", "off"]))
    @click.option("--interface", default="wlan0", show_default=True, help="The Wi-Fi interface to use.")
    @friendly_errors
    def config_hotspot(state: str, interface: str) -> None:
        """The appliance's own Wi-Fi (NetworkManager): only the table joins it (see docs/phones.md)."""
        from narrator.appliance import hotspot

        if state == "off":
            click.echo("hotspot removed" if hotspot.disable() else "there was no hotspot")
            return
        made = hotspot.enable(interface)
        click.echo(f"hotspot on: Wi-Fi {made.ssid}, password {made.password} (shown once; the phones join it)")

    @config.command("path")
    def config_path() -> None:
        """Print where the table file is."""
        click.echo(str(table_file.table_path()))

    @main.group()
    def service() -> None:
        """The systemd service that starts the narrator on boot (Raspberry Pi appliance)."""

    @service.command("install")
    @click.option("--user", default=None, help="Unprivileged user to run as (default: the sudo user, or you).")
    @click.option("--home", "narrator_home", type=click.Path(path_type=Path), default=None,
                  help="NARRATOR_HOME for the service (default: the user's ~/.local/share/narrator).")
    @click.option("--root", type=click.Path(path_type=Path), default=None, help="Install into an image tree at ROOT.")
    @click.option("--no-enable", is_flag=True, help="Only write the unit file.")
    @click.option("--start", is_flag=True, help="Start it now as well.")
    @click.option("--print", "print_only", is_flag=True, help="Print the unit file and change nothing.")
    @friendly_errors
    def service_install(user: str | None, narrator_home: Path | None, root: Path | None, no_enable: bool,
                        start: bool, print_only: bool) -> None:
        """Write and enable the unit: start on boot, restart on failure, log to the journal."""
        spec = unit.make_spec(user, narrator_home.resolve() if narrator_home else None)
        if print_only:
            click.echo(unit.render_unit(spec), nl=False)
            return
        for line in unit.install(spec, root=root, enable=not no_enable, start=start):
            click.echo(line)

    @service.command("status")
    @click.option("--root", type=click.Path(path_type=Path), default=None, help="Look in an image tree at ROOT.")
    @friendly_errors
    def service_status(root: Path | None) -> None:
        """Installed? enabled? running? and its last log lines."""
        for line in unit.status(root=root):
            click.echo(line)

    @service.command("uninstall")
    @click.option("--root", type=click.Path(path_type=Path), default=None, help="Remove from an image tree at ROOT.")
    @friendly_errors
    def service_uninstall(root: Path | None) -> None:
        """Stop, disable and remove the unit (saved games and the table file stay)."""
        for line in unit.uninstall(root=root):
            click.echo(line)


def _serve_options(func: F) -> F:
    for flag, key, help_text in reversed(SERVE_FLAGS):
        func = click.option(flag, key, default=None, help=help_text)(func)
    return func

