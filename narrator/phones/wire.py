"""What goes over the network, shaped so that nothing private shows in its size.

Every JSON body and every server-sent event is padded to a fixed size bucket, and the page
pads every request body to `REQUEST_SIZE`: a view of a
werewolf and of a citizen, of a seer with three memos and of a dead player, an answer that
was taken and one that was refused all have the same length on the Wi-Fi (frame lengths are
visible to anyone in range, even with WPA3). Request bodies are read with a size and a
nesting limit, so a hostile body gets a 400 and one line, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import StreamReader, web

BUCKET = 16384
"""Bytes every message is padded to (a larger one: the next multiple). A full view of a
seven-player game with every memo stays well inside one bucket."""
REQUEST_SIZE = 1024
"""Bytes the page pads every POST body to (static/seal.js): a memo, a vote, a decoy, a join and
a host screen's button all have one length on the Wi-Fi."""
MAX_BODY = 2048
"""Bytes a request body may have; an answer or a code is far smaller."""
MAX_DEPTH = 4
"""Nesting a request body may have: an answer is an object holding at most a list."""


def padded(obj: dict[str, Any] | None, frame: tuple[bytes, bytes] = (b"", b"")) -> bytes:
    """`obj` as JSON inside `frame`, padded with spaces to a whole number of buckets."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    size = len(frame[0]) + len(text) + len(frame[1])
    target = -(-size // BUCKET) * BUCKET
    return frame[0] + text + b" " * (target - size) + frame[1]


def event_frame(obj: dict[str, Any]) -> bytes:
    """One server-sent event carrying `obj`, padded (JSON allows trailing spaces)."""
    return padded(obj, (b"data: ", b"\n\n"))


def reply(obj: dict[str, Any] | None, status: int = 200) -> web.Response:
    return web.Response(body=padded(obj), status=status, content_type="application/json")


def error(status: int, message: str) -> web.Response:
    return reply({"error": message}, status)


async def json_body(request: web.Request) -> dict[str, object] | web.Response:
    """The request's JSON object; a form, a non-object, a huge or deeply nested body is refused."""
    if request.content_type != "application/json":
        return error(415, "send JSON (Content-Type: application/json)")
    too_big = error(400, f"request body larger than {MAX_BODY} bytes")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return too_big
    try:
        raw = await _read_bounded(request.content, MAX_BODY + 1)
    except (ConnectionError, ValueError, RuntimeError):  # RuntimeError: aiohttp's "Connection closed."
        return error(400, "the body could not be read")
    if len(raw) > MAX_BODY:
        return too_big
    body = parse(raw)
    if isinstance(body, web.Response):
        return body
    if not isinstance(body, dict):
        return error(400, "the body must be a JSON object")
    return body


async def _read_bounded(stream: StreamReader, limit: int) -> bytes:
    """The body to its end, or its first `limit` bytes: one `read(n)` returns only what has
    arrived so far, so a body that comes in pieces (a padded memo over a slow link) would be
    cut and refused as bad JSON."""
    raw = b""
    while len(raw) < limit:
        chunk = await stream.read(limit - len(raw))
        if not chunk:
            break
        raw += chunk
    return raw


def parse(raw: bytes) -> object:
    """JSON from a request body, or a 400: too deep a nesting is refused before parsing
    (the parser recurses, and a deep enough body would raise from inside it)."""
    if _bracket_depth(raw) > MAX_DEPTH:
        return error(400, f"the body is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return error(400, "the body is not valid JSON")


def _bracket_depth(raw: bytes) -> int:
    """The deepest bracket nesting in `raw` (strings ignored), found without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest
