"""What the phone page's handlers use of the page that serves them: Protocols, not the class.

Why: the handlers (host.py, carry.py, standings.py, table_controls.py, host_channel.py,
host_release.py, seat_carry.py) live in modules server.py and settings_page.py import, so a
type-only import of `PhoneServer` or `SettingsPage` back would be an import cycle
(tests/test_layout.py counts `TYPE_CHECKING` imports too). A Protocol is structural: nothing
imports the server, and mypy checks `PhoneServer` (and `SettingsPage`) against it wherever a
handler is handed one, so a renamed attribute fails the type check, not a game at the table.

Each Protocol is what its callers really use, no more: `Door` (the host screen's sealed door,
both pages), `Releasing` (`release host` asked aloud, both pages), `Menu` (the settings page
as carry.py sees it) and `Serving` (a game's page as its handlers see it). An attribute a
handler only reads is a property here, so a page may hold a narrower type. `Playing` is the
game in play that `Serving` and `answers.Answering` share.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from aiohttp import web

from narrator.cues import Ask
from narrator.games.contract import GameConfig, GameState, SomeGame
from narrator.inputs.hub import ListenerHub
from narrator.phones.crypto import SeatKeys
from narrator.phones.gate import JoinGate
from narrator.phones.host_turns import PendingHost, Turns
from narrator.phones.join_challenge import Challenges
from narrator.phones.seats import Seats


class Door(Protocol):
    """A page with a host screen's sealed door (host_channel.py): the game's and the settings page."""

    @property
    def keys(self) -> SeatKeys: ...

    def is_host(self, request: web.Request) -> bool: ...

    def token(self, request: web.Request, host_cookie: bool = False) -> str | None: ...


class Releasing(Protocol):
    """A page whose host screen the table may release by button or voice (host_release.py)."""

    release_until: float | None

    @property
    def hub(self) -> ListenerHub | None: ...

    @property
    def gate(self) -> JoinGate: ...

    def announce(self, line: str, params: dict[str, Any]) -> None: ...

    def release(self, name: str) -> str: ...


class Menu(Door, Protocol):
    """The settings page as carry.py and host_keep.py see it: the host screen it holds between games."""

    host_digest: str | None
    pending: PendingHost | None
    table_code: str

    @property
    def hub(self) -> ListenerHub | None: ...

    @property
    def turns(self) -> Turns: ...

    def now(self) -> float: ...

    def announce(self, line: str, params: dict[str, Any]) -> None: ...

    def host_changed(self) -> None: ...


class Playing(Protocol):
    """A page with a game in play: the hub its answers go to, and the game, config and state
    they are checked against. `Serving` and the answer handlers' `Answering` both extend it."""

    @property
    def hub(self) -> ListenerHub: ...

    @property
    def game(self) -> SomeGame: ...

    @property
    def config(self) -> GameConfig: ...

    @property
    def state(self) -> GameState | None: ...


class Serving(Door, Playing, Releasing, Protocol):
    """A game's phone page (`PhoneServer`) as its handlers see it: seats, codes, the hub, the game."""

    pending_host: PendingHost | None
    cookie: str
    host_cookie: str
    final_standings: dict[str, Any] | None

    @property
    def seats(self) -> Seats: ...

    @property
    def turns(self) -> Turns: ...

    @property
    def challenges(self) -> Challenges: ...

    @property
    def waiting(self) -> asyncio.Future[None] | None: ...

    @property
    def shown(self) -> GameState | None:
        """The state the phones show (the game's, once its step has been announced)."""

    @property
    def timer(self) -> tuple[float, float] | None: ...

    @property
    def timer_serial(self) -> int: ...

    def seats_changed(self) -> None: ...

    def _ask_text(self, ask: Ask) -> dict[str, str]: ...

    def _text(self, line: str, params: dict[str, Any]) -> dict[str, str]: ...
