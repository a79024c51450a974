"""`narrator stats`: the table's standings from its saved games, and `stats forget NAME`.

The words of the table are the phone page's (`strings.json`, the `standings_*` keys), so the
host screen and the terminal say the same in the same language; what a player held is named
by the game's voice pack (`label.*` lines). `--json` and `--csv` are for a spreadsheet.
"""

from __future__ import annotations

import csv
import datetime
import json
import sys
import unicodedata

import click

from narrator import home
from narrator.cli.common import friendly_errors
from narrator.errors import NarratorError, SetupError
from narrator.games import game_names
from narrator.table.forget import forget as forget_player
from narrator.table.history import records as history_records
from narrator.table.standings import Standing, select, standings
from narrator.terminal import said


@click.group(invoke_without_command=True)
@click.option("--game", help="Only this game (one of `narrator games`).")
@click.option("--since", metavar="DATE", help="Only games from this day on (YYYY-MM-DD).")
@click.option("--until", metavar="DATE", help="Only games up to this day (YYYY-MM-DD).")
@click.option("--player", metavar="NAME", help="Only this player.")
@click.option("--lang", type=click.Choice(["ja", "en"]), help="The table's language (default: the table file's).")
@click.option("--json", "as_json", is_flag=True, help="Print the standings and the games as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV, for a spreadsheet.")
@click.pass_context
@friendly_errors
def stats(ctx: click.Context, game: str | None, since: str | None, until: str | None, player: str | None,
          lang: str | None, as_json: bool, as_csv: bool) -> None:
    """The table's standings: games, wins, win rate, roles held most, survived."""
    if ctx.invoked_subcommand is not None:
        return
    if game is not None and game not in game_names():
        raise SetupError(f"unknown game '{game}' for --game; known games: {', '.join(game_names())}")
    since, until = _day(since, "--since"), _day(until, "--until")
    kept = select(history_records(home.app_home(), _warn), game, since, until, player)
    rows = standings(kept, player)
    words = Words(lang or table_language())
    if as_json:
        click.echo(json.dumps({"players": [dict(r.to_dict(), held_most=words.roles(r)) for r in rows],
                               "games": kept}, ensure_ascii=False, indent=2))
    elif as_csv:
        out = csv.writer(sys.stdout)
        out.writerow(["player", "games", "wins", "decided", "win_rate", "held_most", "survived", "survival_known"])
        for r in rows:
            out.writerow([r.name, r.games, r.wins, r.decided, "" if r.win_rate is None else round(r.win_rate, 4),
                          words.roles(r), r.survived, r.survival_known])
    elif not rows:
        click.echo(words["standings_none"])
    else:
        click.echo(words.table(rows))


@stats.command()
@click.argument("name")
@friendly_errors
def forget(name: str) -> None:
    """Remove a player from every record of the table's history."""
    rewritten, noted = forget_player(home.app_home(), name)
    click.echo(f"forgot {name}: {rewritten} finished game(s) rewritten without the name"
               + (f", {noted} unfinished game(s) leave it out once they end" if noted else ""), err=True)


def _warn(message: str) -> None:
    click.echo(said("warning", message=message), err=True)


def _day(value: str | None, flag: str) -> str | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise SetupError(f"{flag} {value} is not a day; write it as YYYY-MM-DD, e.g. 2026-12-01") from None


def table_language() -> str:
    """The language of the table's own file (`narrator config`), else Japanese."""
    from narrator.values.files import read_table_file

    path = home.app_home() / "table.toml"
    try:
        lang = read_table_file(path).get("lang") if path.is_file() else None
    except NarratorError:
        lang = None
    return lang if lang in ("ja", "en") else "ja"


class Words:
    """The standings' words and the cards' names in one language."""

    def __init__(self, lang: str):
        from narrator.phones.standings import page_strings
        from narrator.phones.table import page_packs

        self.strings = page_strings()[lang]
        self.pack = page_packs()[lang]

    def __getitem__(self, key: str) -> str:
        return self.strings[key]

    def role(self, line: str) -> str:
        return self.pack.speak(line).text if self.pack.has(line) else line

    def roles(self, row: Standing) -> str:
        return ", ".join(f"{self.role(line)} {n}" for line, n in row.most_held())

    def table(self, rows: list[Standing]) -> str:
        unknown = self["standings_unknown"]
        head = [self[f"standings_{k}"] for k in ("player", "games", "wins", "rate", "roles", "survived")]
        body = [[r.name, str(r.games), str(r.wins) if r.decided else unknown,
                 unknown if r.win_rate is None else f"{r.win_rate:.0%}", self.roles(r) or unknown,
                 f"{r.survived}/{r.survival_known}" if r.survival_known else unknown] for r in rows]
        widths = [max(_width(line[i]) for line in [head, *body]) for i in range(len(head))]
        return "\n".join("  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(line, widths)).rstrip()
                         for line in [head, *body])


def _width(text: str) -> int:
    """Columns a text takes at a terminal: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def register(main: click.Group) -> None:
    main.add_command(stats)
