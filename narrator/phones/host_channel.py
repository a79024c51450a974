"""The host screen's one door: its releases, moves, start, end-timer and public answers, sealed.

Why: the host screen's buttons were plain POSTs with a cookie, so a listener on the Wi-Fi read
every action (which seat was released, the answer to a public question) and a sniffed cookie
could send them again or make new ones. Now every action goes to `POST /api/host`, sealed with
NaCl's box between the key pair the host screen made when it joined and the narrator's own
(`crypto.SeatKeys.open_host_request`; the page's side is `Seal.hostRequest` in seal.js), with a
counter taken once and padded by the page to one size; the reply is sealed back, the real status
inside. A host screen that gave a key at join (every page does) is refused a plain action.
"""

from __future__ import annotations

import json
from typing import Awaitable, Callable, Mapping, TypeVar, cast

from aiohttp import web

from narrator.phones import wire
from narrator.phones.serving import Door

DOOR = "/api/host"
OPENED: web.RequestKey[dict[str, object]] | str = (
    web.RequestKey("host_body", dict) if hasattr(web, "RequestKey") else "narrator.host_body")
"""Where the door leaves the opened body on the request, for the action's handler (a typed key
where aiohttp has them, 3.12 on)."""
SEALED_ONLY = True
"""A host screen with a key must seal its actions (a test turns it off to show the attack)."""
NOT_SEALED = "this request is not sealed with the host screen's key: reload the host screen"
PLAIN_REFUSED = "the host screen's actions are sealed: reload the host screen"

P = TypeVar("P", bound=Door)
"""The page the door is on (the game's, the settings page): its actions are handed that page."""
Action = Callable[[P, web.Request], Awaitable[web.Response]]


def add_routes(server: P, app: web.Application, actions: Mapping[str, Action[P]]) -> None:
    async def run(request: web.Request) -> web.StreamResponse:
        return await door(server, request, actions)
    app.router.add_post(DOOR, run)


async def door(server: P, request: web.Request, actions: Mapping[str, Action[P]]) -> web.Response:
    """Open the host screen's sealed request, do the action it names, seal the reply."""
    if not server.is_host(request):
        return wire.error(403, "only the host screen may do this")
    token = server.token(request, host_cookie=True)
    body = await wire.json_body(request)
    if isinstance(body, web.Response):
        return body
    message = server.keys.open_host_request(token, body.get("box"))
    if message is None:
        return wire.error(401, NOT_SEALED)
    inner, to = message.get("body"), message.get("to")
    action = actions.get(to) if isinstance(to, str) else None
    request[OPENED] = inner if isinstance(inner, dict) else {}
    response = await action(server, request) if action else wire.error(400, f"a host action is one of: {', '.join(actions)}")
    reply = {"status": response.status, "body": json.loads(cast(bytes, response.body)), "n": message["n"], "from": "narrator"}
    return wire.reply(server.keys.seal_for_host(token, reply))


async def body_of(server: Door, request: web.Request) -> dict[str, object] | web.Response:
    """A host action's body: opened by the door; a plain one only from a host screen with no key."""
    if OPENED in request:
        return request[OPENED]
    if SEALED_ONLY and server.keys.host_has_key(server.token(request, host_cookie=True)):
        return wire.error(401, PLAIN_REFUSED)
    return await wire.json_body(request)
