"""Bring the phone page to the table: start the server, announce it, stop it at the end.

Kept apart from the CLI so `play` and `resume` share it: the seats file lives in the game
folder, so a resumed game keeps every phone seated with the same cookie.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable, Protocol, TextIO
from urllib.parse import urlsplit

from narrator.cues import Say
from narrator.games.contract import GameConfig, SomeGame
from narrator.inputs.hub import ListenerHub
from narrator.phones.network import bind_host, join_url, show_qr, spoken_address
from narrator.phones.crypto import SeatKeys
from narrator.phones.private import PrivateLines
from narrator.phones.seats import Seats
from narrator.phones.standings import TableHistory
from narrator.phones.server import PhoneServer
from narrator.errors import SetupError
from narrator.games import game_names, get_game
from narrator.settings import RunSettings
from narrator.sound.voicepack import VoicePack, load_pack, merged_under
from narrator.table.scheduler import Scheduler
from narrator.table.store import GameStore

PAGE_LANGUAGES = ("ja", "en")


def check_game(rules: SomeGame) -> None:
    """Refuse --phones for a game the page has no views for, before anything is saved."""
    if rules.phones is None:
        served = [name for name in game_names() if get_game(name).phones is not None]
        raise SetupError(f"the phone page serves {', '.join(served)}, not {rules.name}; drop --phones")


def make_server(rules: SomeGame, config: GameConfig, store: GameStore, hub: ListenerHub, lang: str, voice: str = "auto",
                no_speaker: bool = False) -> PhoneServer:
    """The game's phone server; `no_speaker`: the appliance plays it without sound (the host screen says so)."""
    check_game(rules)
    assert rules.phones is not None  # check_game refused a game without a phone page
    packs = game_packs(rules, page_packs(voice))
    seats = Seats(rules.phones.seats(config), store.folder / "phones.json", store.warn)
    lines = PrivateLines(store.folder / "phones-private.json", store.warn)
    server = PhoneServer(rules, config, hub, seats, f"narrator_{store.id}", lang, packs, lines)
    server.history = TableHistory(store)
    server.keys = SeatKeys(store.folder / "phones-keys.json", store.warn)
    server.no_speaker = no_speaker
    return server


def page_packs(voice: str = "auto") -> dict[str, VoicePack]:
    """The packs whose words the page shows, one per page language: the bundled ones, and for
    its own language the pack the table plays with (a pack of a game's own lines, say)."""
    packs = {lang_: load_pack(lang_) for lang_ in PAGE_LANGUAGES}
    if voice not in ("auto", "text"):
        table_pack = load_pack(voice)
        if table_pack.lang in packs:
            packs[table_pack.lang] = table_pack
    return packs


def game_packs(rules: SomeGame, packs: dict[str, VoicePack]) -> dict[str, VoicePack]:
    """The page's packs with the game's own lines beneath (a game file's `[lines.<lang>]`), as
    the narrator speaks them (`table.session`): a file's own team's win line, its own role's
    name, worded on the phones too, not only said."""
    if rules.lines is None:
        return packs
    return {lang_: merged_under(pack, rules.lines(lang_)) for lang_, pack in packs.items()}


def speaker(scheduler: Scheduler) -> Callable[[str, dict[str, Any]], None]:
    """Say a line of the server's at once, beside whatever the game is saying (a host screen
    claimed, a seat released): on the timeline's next slot, never failing the game."""
    def speak(line: str, params: dict[str, Any]) -> None:
        async def say() -> None:
            try:
                await scheduler.narration.say(scheduler.voice.clip(line, params), "say")
            except Exception as err:  # the announcement is lost, the game goes on
                print(f"phones: could not say {line} ({type(err).__name__}: {err})", file=sys.stderr)
        asyncio.ensure_future(say())
    return speak


def print_table_code(code: str, url: str, stream: TextIO | None = None) -> None:
    """The table code on the table's own terminal, never in a log: on the appliance stderr is
    the journal, which any user in the `adm` group reads, so there it is only "announced"."""
    stream = stream or sys.stderr
    if stream.isatty():
        print(f"phones: table code {code}", file=stream, flush=True)
        show_qr(f"{url}#code={code}", stream)
    else:
        print("phones: table code announced (not logged)", file=stream, flush=True)
        show_qr(url, stream)


def spoken_code(code: str) -> str:
    """The table code as the narrator says it: digit by digit."""
    return " ".join(code)


async def wait_for_seats(server: PhoneServer | None, run: RunSettings, only_if_used: bool = False) -> None:
    """The step every game with phones takes before its first cue, at `narrator play` and on
    the appliance alike, whether the game needs phones or not: wait until every seat has a
    phone, the host screen presses 「このまま始める」, or the table says "done" (Enter, the
    button). Without it a game's first timers ran before anyone could sit (issue 37: Bestia
    Magica's night memos reached 3 of 8 seats). An answers file answers for everyone: no wait.

    `only_if_used` (the appliance, whose phones are on unless the table says no, for a game
    that can be played without them): a table using none (no host screen, no seat taken) is
    not kept waiting for phones nobody brought; one phone or a host screen and it waits."""
    if server is None or run.answers:
        return
    if only_if_used and not server.seats.has_host and len(server.seats.free()) == len(server.seats.names):
        return
    await server.wait_for_phones()


class Listens(Protocol):
    """A page that listens (the game's phone page, the settings page) on host:port; returns the
    port. A page's own keywords (the settings page's `no_speaker`) pass through `listen_somewhere`."""

    async def start(self, host: str, port: int, /) -> int: ...


async def listen_somewhere(page: Listens, host: str, port: int, what: str, **start: bool) -> int:
    """Listen on `port`, else on a free one: a port another program holds (a second service,
    a stuck old one) must not leave the table without its page. The address said aloud is the
    one listened on, so the table never needs to know which it was."""
    try:
        return await page.start(host, port, **start)
    except SetupError as err:
        if port == 0:
            raise
        print(f"phones: {err}; the {what} listens on a free port instead", file=sys.stderr)
        return await page.start(host, 0, **start)


async def open_phones(server: PhoneServer, scheduler: Scheduler, host: str | None, port: int,
                      any_port: bool = False) -> str:
    """Start listening, print the address and the table code (and a QR code of both on a
    terminal) and say them; the wait for the seats is `wait_for_seats`, once the table's
    listeners run (Enter or the button may end it)."""
    host = bind_host(host)
    server.clock = scheduler.clock
    server.speak = speaker(scheduler)
    # the appliance (`any_port`) takes a free port when its own is held; `narrator play --port N`
    # at a terminal is refused in one line instead, where someone can choose another
    port = await (listen_somewhere(server, host, port, "phone page") if any_port else server.start(host, port))
    url = join_url(host, port)
    server.allowed_hosts.add(urlsplit(url).netloc.lower())
    if server.seats.has_host:
        print(f"phones: open {url} (the host screen is taken; `release host` frees it)", file=sys.stderr)
    else:
        code = server.seats.table_code
        print_table_code(code, url)
        await scheduler.play([Say("phones.join", {"address": spoken_address(url), "code": spoken_code(code)})], {})
    return url
