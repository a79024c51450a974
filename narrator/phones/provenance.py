"""Whether a request comes from the narrator's own page: the one check both pages make (the
game's phone server and the settings page between games), so they cannot drift apart.

A page elsewhere on the Wi-Fi (or on the internet, through a phone's browser) can send a
phone's browser to this address. Two headers tell it apart: its POST carries its own
`Origin`, and a name of its own pointed at this machine (DNS rebinding) shows in `Host`.
"""

from __future__ import annotations

from collections.abc import Collection
from aiohttp import web

from narrator.phones import wire


def same_origin(request: web.Request) -> bool:
    """A POST must carry the page's own Origin (a page elsewhere cannot answer for a phone)."""
    return request.headers.get("Origin", "").lower() == f"http://{request.host.lower()}"


def refusal(request: web.Request, allowed_hosts: Collection[str] | None,
            check_origin: bool = True) -> web.Response | None:
    """The error a request from elsewhere gets, or None for the page's own: 421 for a name
    this machine does not answer to (`allowed_hosts`; None before the page knows its port),
    403 for a POST from another origin (unless `check_origin` is off, as some unit tests do)."""
    if allowed_hosts is not None and request.host.lower() not in allowed_hosts:
        return wire.error(421, "unknown host: open the address the narrator announced")
    if check_origin and request.method == "POST" and not same_origin(request):
        return wire.error(403, "this request did not come from the narrator's page")
    return None
