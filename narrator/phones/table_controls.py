"""What the host screen does for the whole table besides answering: end a timer early, and
show the end of the game as it was said.

The keyboard's Enter and the appliance's button end a discussion the table has finished;
a table playing on phones alone has neither, so the host screen (the phone in the middle of
the table, seen by everyone) gets the same `done`. A player's own phone never does: one
player cannot cut the others' discussion short. The tap names the timer it ends, so a tap
that arrives after that timer is over cannot end the next one.

The end of a game (the winners, the cards turned up, Bestia Magica's reveal of every night)
is a run of spoken lines; the host screen lists them too, for the table to read back.
"""

from __future__ import annotations

from typing import Callable, Sequence

from aiohttp import web

from narrator.cues import Cue, End, Say
from narrator.phones import host_channel, wire
from narrator.phones.serving import Serving

SOURCE = "phone"


def add_routes(server: Serving, app: web.Application) -> None:
    async def run(request: web.Request) -> web.StreamResponse:
        return await end_timer(server, request)
    app.router.add_post("/api/host/end-timer", run)


async def end_timer(server: Serving, request: web.Request) -> web.Response:
    """`done` for the timer running now (the discussion), from the host screen only."""
    if not server.is_host(request):
        return wire.error(403, "only the host screen may do this")
    body = await host_channel.body_of(server, request)
    if isinstance(body, web.Response):
        return body
    timer = body.get("timer")
    if server.timer is None or timer != server.timer_serial or isinstance(timer, bool):
        return wire.error(409, "this timer is over: reload to see the current one")
    server.hub.offer_command("done", SOURCE)
    return wire.reply({"ok": True})


class EndLines:
    """The public lines said from the game's end on (its End cue and what follows), as text."""

    def __init__(self) -> None:
        self.lines: list[dict[str, str]] | None = None

    def follow(self, cue: Cue | Sequence[Cue], text: Callable[[str, dict[str, object]], dict[str, str]]) -> bool:
        """Take `cue` (a cue the scheduler starts); True when the end's list grew."""
        if isinstance(cue, End):
            self.lines = []
        if self.lines is None or not isinstance(cue, (Say, End)):
            return False
        self.lines.append(text(cue.line, dict(cue.params)))
        return True

    def shown(self) -> list[dict[str, str]]:
        return list(self.lines or [])
