"""The spoken setup and the host screen's settings page, as the appliance's menu offers them.

Why apart from `serve.py`: the menu's loop (resume, offer, play, again) stays where it was;
this module holds what issue 23 adds to it — a preset picked by number once the table chose
the game and the count, the settings read back in one breath before はい / いいえ, and the
settings page served while the menu waits (every save through `update_table`, the one door).
The page may ask to start: the appliance then plays the table file as it stands.
Issue 37 adds the phones to it: a table file that never says `phones` gets them (a Pi with no
screen has the host screen as its screen), the spoken setup asks whether to use them, and with
no network the table hears so once and plays on by voice and button.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol
from urllib.parse import urlsplit

from narrator.appliance import presets
from narrator.appliance.table import update_table
from narrator.cues import Ask, Say
from narrator.errors import NarratorError, Refusal, SetupError
from narrator.games import get_game
from narrator.values.names import parse_name_entries

if TYPE_CHECKING:  # the phones' page is imported where it is made: a table without phones never loads it
    from narrator.inputs.hub import ListenerHub
    from narrator.phones.seat_carry import Kept
    from narrator.phones.server import PhoneServer
    from narrator.phones.settings_page import SettingsPage
    from narrator.settings import TableSettings
    from narrator.sound.voicepack import VoicePack
    from narrator.table.scheduler import Scheduler
    from narrator.table.session import RunOptions


class Flags(Protocol):
    """How the service was started (`serve.ServeOptions`): the table keys given as flags."""

    @property
    def overrides(self) -> dict[str, Any]: ...


class Menu(Protocol):
    """What the menus (here and `game_menu.py`) use of the `Appliance`. `serve.py` imports
    them, so they name this rather than it (tests/test_layout.py: no import cycle)."""

    table: dict[str, Any]
    path: Path
    run_options: RunOptions
    scheduler: Scheduler
    hub: ListenerHub
    pack: VoicePack
    page: PageHost
    log: Callable[[str], None]

    @property
    def options(self) -> Flags: ...

    async def say(self, line: str, **params: object) -> None: ...

    async def ask(self, ask: Ask, timeout: float | None = None, default: str | None = None) -> object: ...

    def _settings(self, table: dict[str, Any], **changes: str | int) -> TableSettings | None: ...

    def _reload_table(self) -> None: ...

YES_NO = ("yes", "no")


def phones_unsaid(table: dict[str, Any], overrides: dict[str, Any]) -> bool:
    """Whether `narrator serve` turns the phones on by itself: the table file and the flags never
    said `phones` (a fresh appliance). On a Pi with no screen the host screen is the table's
    screen, so it must not wait for a shell command. A deliberate `phones = false` is kept, and
    a scripted run (`answers`) is left as it was: its answers come from the script, not phones."""
    return not any("phones" in keys or keys.get("answers") for keys in (table, overrides))


async def offer_phones(app: Menu) -> None:
    """The spoken setup's question: the host screen and the players' phones, on or off. The
    answer is saved (`phones`, through `update_table`) and takes effect at once: the settings
    page opens or closes. Not asked when a flag or a script decides (`--phones`, `answers`)."""
    if "phones" in app.options.overrides or app.run_options.answers:
        return
    on = await app.ask(Ask("appliance.phones_question", YES_NO)) == "yes"
    try:
        app.table = update_table(app.path, {"phones": on})
    except NarratorError as err:
        app.log(f"phones {'on' if on else 'off'} for this run without saving it: {err}")
    app.run_options = replace(app.run_options, phones=on)
    if on:
        await app.page.open()
    else:
        await app.page.close()


class StartNow(Exception):
    """The host screen pressed start: the menu stops asking and plays the table file."""


async def pick_preset(app: Menu, game: str, players: int) -> bool:
    """Offer the presets for this game and count by number (the recommended set is 1); the
    chosen one becomes the table file's setup. False when there is nothing to choose."""
    names = presets.for_count(app.table, game, players)
    if len(names) < 2:
        return False
    await app.say("appliance.choose_preset")
    i = 0
    while True:
        name = names[i % len(names)]
        ask = (Ask("appliance.preset_recommended", YES_NO) if name == presets.RECOMMENDED
               else Ask("appliance.preset_option", YES_NO, {"n": i % len(names) + 1, "name": name}))
        if await app.ask(ask) == "yes":
            break
        i += 1
    try:
        app.table = presets.pick(app.path, app.table, name, update_table, game=game, players=players)
    except SetupError as err:
        app.log(f"preset {name!r} not applied: {err}")
        return False
    return True


async def confirm(app: Menu, settings: TableSettings) -> bool:
    """Read the setup back in one breath (card set, night order, countdowns, discussion), then
    ask はい / いいえ."""
    rules = get_game(settings.game)
    config = rules.configure(settings)
    cues = rules.summary(config) if rules.summary else rules.box(config) if rules.box else []
    if cues:
        await app.scheduler.play(list(cues), {})
    return await app.ask(Ask("appliance.confirm", YES_NO)) == "yes"


class PageHost:
    """What the settings page may do to the table, bound to one appliance."""

    def __init__(self, app: Menu):
        self.app = app
        self.page: SettingsPage | None = None
        self.seats_kept: Kept | None = None
        """The last game's seated phones, for the next game (seat_carry.Kept); on the card too
        (seats_keep.py), so a restart between games keeps them."""
        self.said = False
        """The page's address and table code were said (once per service run)."""
        self.start_requested = False
        self._waiting: asyncio.Future[None] | None = None
        """Answers the next menu question for a start tapped while none was open."""
        self.said_offline = False
        """The table heard once that there is no network for the page (`offline`)."""

    def table(self) -> dict[str, Any]:
        return self.app.table

    def apply(self, kind: str, arg: object) -> None:
        """One change from the page (settings_page.py): `arg` the changed keys ("change"), a
        preset's name ("save", checked by `presets.save`; "pick") or a seat's (number, name, reading)."""
        app = self.app
        if kind == "change" and isinstance(arg, Mapping):
            app.table = update_table(app.path, arg)
        elif kind == "save":
            app.table = presets.save(app.path, app.table, arg, update_table)
        elif kind == "pick" and isinstance(arg, str):
            app.table = presets.pick(app.path, app.table, arg, update_table)
        elif kind == "seat" and isinstance(arg, tuple):
            number, name, reading = arg
            app.table = update_table(app.path, {"names": self._names_with(number, name, reading)})
        else:
            raise SetupError(f"unknown change '{kind}'")

    def _names_with(self, number: int, name: str, reading: str) -> list[str]:
        names, readings = parse_name_entries(self.app.table.get("names", ()), "table file")
        if not 1 <= number <= len(names):
            raise Refusal("seat_unnamed", number=number)
        entries = [f"{n}:{readings[n]}" if n in readings else n for n in names]
        entries[number - 1] = f"{name.strip()}:{reading.strip()}" if reading.strip() else name.strip()
        return entries

    def announce(self, line: str, params: dict[str, Any]) -> None:
        """Say what changed, in one short line, without closing the question that is open."""
        asyncio.ensure_future(self.app.scheduler.play([Say(line, params)], {}))

    def play(self) -> None:
        """Start the game now: the open menu question gets its yes (or done); when none is
        open yet (tapped while a line is said, before "play again?" opens), the next one does."""
        self.start_requested = True
        open_ask = self.app.hub.open_ask
        if open_ask is not None and open_ask[1].line.startswith("appliance."):
            serial, ask = open_ask
            self.app.hub.offer_value(serial, "yes" if "yes" in ask.choices else ask.choices[0], "phones")
        elif self._waiting is None or self._waiting.done():
            self._waiting = asyncio.ensure_future(self._answer_next(open_ask[0] if open_ask else 0))

    async def _answer_next(self, serial: int) -> None:
        hub = self.app.hub
        while self.start_requested:
            serial, ask = await hub.next_ask(serial)
            if self.start_requested and ask.line.startswith("appliance.") and hub.offer_value(
                    serial, "yes" if "yes" in ask.choices else ask.choices[0], "phones"):
                return

    async def open(self) -> None:
        """Serve the page while the menu waits (with phones on); said once per service run."""
        app = self.app
        if not app.run_options.phones or (self.page is not None and self.page.running):
            return
        from narrator.phones.network import bind_host, join_url, spoken_address
        from narrator.phones.table import listen_somewhere

        if await self.offline():
            return
        first = not self.said
        page = self.made()
        speaker = getattr(app, "speaker", None)  # its notice, as it stands at this visit
        host = bind_host(app.run_options.host)
        try:
            port = await listen_somewhere(page, host, app.run_options.port, "settings page",
                                          no_speaker=bool(speaker is not None and speaker.problem))
        except SetupError as err:
            app.log(f"no settings page: {err}")
            return
        url = join_url(host, port)
        page.join_link = url  # the page draws it as a QR code for the other phones
        if page.allowed_hosts is not None:  # set once it listens (None: it checks no host)
            page.allowed_hosts.add(urlsplit(url).netloc.lower())
        app.log(f"settings page: {url} (table code announced, not logged)")  # the journal is not the table's
        if first:
            self.said = True
            await app.say("appliance.settings_page", address=spoken_address(url), code=" ".join(page.table_code))

    def made(self) -> SettingsPage:
        """The settings page's state, made once per service run (served or not): a game resumed at
        boot carries its host screen back to it. It takes the host screen kept on the card, so
        after a power cut the same phone is the host screen again (host_keep.py)."""
        if self.page is None:
            from narrator import home
            from narrator.phones import host_keep
            from narrator.phones.settings_page import SettingsPage
            from narrator.phones.table import page_packs

            app = self.app
            self.page = SettingsPage(self.table, self.apply, self.announce, self.play,
                                     page_packs(app.run_options.voice), app.run_options.lang)
            self.page.hub = app.hub  # a press at the table confirms the host screen
            if self.page.keep_at(home.app_home() / host_keep.FILE, lambda message: app.log(f"warning: {message}")):
                app.log("the host screen kept from before is the host screen")
        return self.page

    async def close(self) -> None:
        if self.page is not None:
            await self.page.stop()

    async def offline(self) -> bool:
        """No network to serve the page on (no Wi-Fi, no hotspot address, and no `host` chosen):
        said once in one line, and the table plays on by voice and button. Checked at every
        visit of the menu, so a network that comes up later gets its page."""
        from narrator.phones import network

        if self.app.run_options.host or network.lan_ip() is not None:
            return False
        if not self.said_offline:
            self.said_offline = True
            self.app.log("no network address for the host screen (no Wi-Fi or hotspot); playing by voice and "
                         "button (join a Wi-Fi, or `narrator config hotspot on`)")
            await self.app.say("appliance.no_network")
        return True

    def carry_in(self, server: PhoneServer) -> str:
        """The game's phone page answers the host screen of the settings page (carry.py), and
        the last game's seated phones keep their seats if the table is the same (seat_carry.py):
        "carried", "changed" (they join anew, and the table is told) or "none"."""
        from narrator.phones import carry, seat_carry, seats_keep

        if carry.into_game(self.made(), server):
            self.app.log("the host screen of the settings page is the game's host screen")
        kept = self.seats_kept if self.seats_kept is not None else seats_keep.load(self._seats_file(), self._warn)
        self.seats_kept = None
        seats_keep.save(self._seats_file(), None)  # the game's own seats file keeps them now
        outcome = seat_carry.into_game(kept, server)
        if outcome == "carried" and kept is not None:
            self.app.log(f"{len(kept.seats)} phones keep their seats from the last game")
        return outcome

    def carry_back(self, server: PhoneServer) -> None:
        from narrator.phones import carry, seat_carry, seats_keep

        carry.back_from_game(self.made(), server)
        self.seats_kept = seat_carry.after_game(server)
        if not seats_keep.save(self._seats_file(), self.seats_kept):
            self._warn("cannot keep the seated phones on the card; they keep their seats until a restart")

    def _seats_file(self) -> Path:
        """Where the last game's seated phones are kept between games (seats_keep.py)."""
        from narrator import home
        from narrator.phones import seats_keep

        return home.app_home() / seats_keep.FILE

    def _warn(self, message: str) -> None:
        self.app.log(f"warning: {message}")

    def take_start(self) -> bool:
        started, self.start_requested = self.start_requested, False
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        return started
