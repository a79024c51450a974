"""The host screen's standings: the table's history, shown after the game and on request.

Only the host screen asks, and only before the first night or once the game is over: the
standings hold finished games alone, but a screen that changed mid-game could still tell
the table something, so nothing is shown while a game is under way. The game just ended
is counted at once, before the runner has marked its saved game finished.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import web

from narrator.phones import wire
from narrator.phones.serving import Serving
from narrator.phones.views import phone_play
from narrator.table.history import record_of, records
from narrator.table.standings import select, standings
from narrator.table.store import GameStore

STRINGS = Path(__file__).with_name("static") / "strings.json"
SHOWN_IN = ("setup", "over")
"""The phases in which the standings may be shown."""


@cache
def page_strings() -> dict[str, dict[str, str]]:
    """The page's words in each language (also the terminal's, for `narrator stats`)."""
    return json.loads(STRINGS.read_text(encoding="utf-8"))


class TableHistory:
    """Where the server finds the history of the game it serves."""

    def __init__(self, store: GameStore):
        self.store = store
        self.root = store.folder.parent.parent
        self.on = store.meta["run"].get("history") is not False


def add_routes(server: Serving, app: web.Application) -> None:
    async def run(request: web.Request) -> web.StreamResponse:
        return await reply(server, request)
    app.router.add_get("/api/host/standings", run)


async def reply(server: Serving, request: web.Request) -> web.Response:
    """The host screen's request (the Standings button): this game's standings, or why not now."""
    if not server.is_host(request):
        return wire.error(403, "only the host screen may do this")
    if phone_play(server.game).table_facts(server.config, server.shown)["phase"] not in SHOWN_IN:
        return wire.reply({"shown": False, "reason": "later"})
    return wire.reply(table_standings(server))


def after_the_game(server: Serving) -> dict[str, Any] | None:
    """What the host view carries once the game is over (read once), else None."""
    if server.shown is None or not server.shown.finished:
        return None
    if getattr(server, "final_standings", None) is None:
        server.final_standings = table_standings(server)
    return server.final_standings


def table_standings(server: Serving) -> dict[str, Any]:
    """This game's standings: each player's line, what they held in both languages."""
    history: TableHistory | None = getattr(server, "history", None)
    if history is None or not history.on:
        return {"shown": False, "reason": "off"}
    kept = records(history.root, lambda message: print(f"phones: {message}", file=sys.stderr, flush=True))
    state = server.state
    if state is not None and state.finished and all(r["id"] != history.store.id for r in kept):
        kept.append(record_of(server.game, server.config, state, history.store.id, history.store.meta))
    rows = standings(select(kept, server.game.name))
    return {"shown": True, "rows": [dict(r.to_dict(), held_most=[
        {"text": server._text(role, {}), "times": n} for role, n in r.most_held()]) for r in rows]}
