"""The service's spoken game menu: the offer, else game → players → preset → read back → yes / no.

Why a module of its own: it is the one part of the appliance a table without a phone uses to
change what it plays (one button is enough: each item is offered in turn until it gets a yes),
and it has one job apart from running games (`serve.py`): turn yes/no answers into a saved
choice (the phones and host screen among them: `setup_menu.offer_phones`). Every save goes through `update_table` (the one door), so a switch of game keeps the
old game's setup aside (`game_switch.py`) and the choice is what the table file then plays.
`app` is the `Appliance`, named by what the menus use of it (`setup_menu.Menu`): its `say`,
`ask`, `table`, `path`, `log` and `_settings`.
"""

from __future__ import annotations

from typing import Awaitable, Callable, TypeVar

from narrator.appliance import setup_menu
from narrator.appliance.setup_menu import Menu
from narrator.appliance.table import update_table
from narrator.cues import Ask
from narrator.errors import NarratorError
from narrator.games import game_names
from narrator.settings import COMMON_KEYS, TableSettings


YES_NO = ("yes", "no")
MAX_PLAYERS = 20


async def choose(app: Menu, settings: TableSettings) -> TableSettings:
    """Ask until the table accepts a setup; returns the settings to play."""
    while True:
        await say_title(app, settings.game)
        if await app.ask(Ask("appliance.offer", YES_NO, {"players": settings.players})) == "yes":
            app._reload_table()  # the host screen may have changed it meanwhile
            return app._settings(app.table) or settings
        games = [g for g in game_names() if player_counts(app, g)]
        if len(games) > 1:
            await app.say("appliance.choose_game")
            game = await _offer(app, games, games.index(settings.game) if settings.game in games else 0,
                                lambda g: say_title(app, g), Ask("appliance.this_one", YES_NO))
        else:
            game = games[0]
        counts = player_counts(app, game)
        current = settings.players if settings.game == game else None
        start = next((i for i, (n, _) in enumerate(counts) if n == current), 0)
        if len(counts) > 1:
            await app.say("appliance.choose_players")
            players = await _offer(app, [n for n, _ in counts], start, None, None)
        else:
            players = counts[0][0]
        settings = dict(counts)[players]
        if not save_choice(app, game, players):
            await app.say("appliance.table_unwritable")
        else:
            settings = app._settings(app.table) or settings  # what the file now plays (a kept setup back)
            if await setup_menu.pick_preset(app, game, players):
                settings = app._settings(app.table) or settings
        await setup_menu.offer_phones(app)
        if await setup_menu.confirm(app, settings):
            return settings


T = TypeVar("T")
"""What the menu offers in turn: a game's name, a player count."""


async def _offer(app: Menu, items: list[T], start: int, intro: Callable[[T], Awaitable[None]] | None,
                 ask: Ask | None) -> T:
    """Offer items one by one (from `start`, round and round) until one gets a yes."""
    i = start
    while True:
        item = items[i % len(items)]
        if intro is not None:
            await intro(item)
        question = ask or Ask("appliance.players_option", YES_NO, {"players": item})
        if await app.ask(question) == "yes":
            return item
        i += 1


async def say_title(app: Menu, game: str) -> None:
    line = "title." + game.replace("-", "_")
    if app.pack.has(line):
        await app.say(line)
    else:
        await app.say("appliance.game_unnamed", n=game_names().index(game) + 1)


def player_counts(app: Menu, game: str) -> list[tuple[int, TableSettings]]:
    """Player counts the game accepts with this table (its own options dropped if they misfit)."""
    for table in (app.table, {k: v for k, v in app.table.items() if k in COMMON_KEYS}):
        table = {k: v for k, v in table.items() if k not in ("players",)}
        found = [(n, s) for n in range(1, MAX_PLAYERS + 1)
                 if (s := app._settings(table, game=game, players=n)) is not None]
        if found:
            return found
    return []


def save_choice(app: Menu, game: str, players: int) -> bool:
    """Keep the table's choice for the next game; False (logged) when the file refuses it."""
    try:
        app.table = update_table(app.path, {"game": game, "players": players})
        app.log(f"table file {app.path}: game = {game}, players = {players}")
    except NarratorError as err:
        app.log(f"playing {game} for {players} without saving it: {err}")
        return False
    return True
