"""A passive listener on the table's Wi-Fi, played on loopback: a recording proxy in front of
the phone server, and a script that reads what it captured.

Every byte both ways is kept, as someone holding the Wi-Fi password (WPA2-Personal, after
the handshake) sees it. `read_capture` is the listener's script: every JSON object in the
capture (request and reply bodies, server-sent events), and from them the roles, the seat
codes and the memo targets it gives away.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RecordingProxy:
    """Forwards 127.0.0.1:`port` to the server at `target`, keeping every chunk both ways."""

    target: tuple[str, int]
    chunks: list[tuple[str, bytes]] = field(default_factory=list)
    requests: list[tuple[float, bytes]] = field(default_factory=list)
    """(when, its first chunk) of every request sent up: its line and headers, cookies included."""
    port: int = 0
    _server: Any = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, way: str) -> None:
            try:
                while chunk := await src.read(65536):
                    self.chunks.append((way, chunk))
                    if way == "up" and chunk[:5] in (b"POST ", b"GET /"):
                        self.requests.append((time.perf_counter(), chunk))
                    dst.write(chunk)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer, "up"), pipe(up_reader, writer, "down"))

    @property
    def captured(self) -> bytes:
        return b"".join(chunk for _, chunk in self.chunks)

    async def stop(self) -> None:
        self._server.close()


def json_objects(raw: bytes) -> list[dict[str, Any]]:
    """Every top-level JSON object in a capture of HTTP traffic (bodies and event data)."""
    text = raw.decode("utf-8", "replace")
    decoder, found, i = json.JSONDecoder(), [], 0
    while (i := text.find("{", i)) >= 0:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i += 1
            continue
        if isinstance(obj, dict):
            found.append(obj)
        i = end
    return found


def _walk(obj: Any):
    if isinstance(obj, str) and obj.startswith("{"):  # JSON inside a string (an unsealed "box")
        try:
            obj = json.loads(obj)
        except ValueError:
            return
    yield obj
    if isinstance(obj, dict):
        for value in obj.values():
            yield from _walk(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _walk(value)


def read_capture(raw: bytes, codes: list[str] = ()) -> dict[str, Any]:
    """What a listener learns from `raw`: each seat's role (from views), the seat codes that
    crossed the network (`codes`: the ones to look for), and the memo targets sent."""
    roles: dict[str, str] = {}
    targets: list[str] = []
    for obj in json_objects(raw):
        for part in _walk(obj):
            if not isinstance(part, dict):
                continue
            private = part.get("private")
            if isinstance(part.get("seat"), str) and isinstance(private, dict) and private.get("role"):
                roles[part["seat"]] = private["role"]
            answer = part.get("answer")
            if isinstance(answer, dict) and isinstance(answer.get("target"), str):
                targets.append(answer["target"])
    text = raw.decode("utf-8", "replace")
    seen_codes = [c for c in codes if re.search(re.escape(c), text)]
    return {"roles": roles, "codes": seen_codes, "targets": targets}


def posts_by_cookie(proxy: RecordingProxy, path: bytes) -> list[tuple[float, str]]:
    """(when, the Cookie header) of every POST to `path`: a listener tells phones apart by it."""
    out = []
    for when, chunk in proxy.requests:
        head = chunk.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
        if head[0].startswith(b"POST " + path + b" "):
            cookie = next((h.split(b":", 1)[1].strip().decode() for h in head if h.lower().startswith(b"cookie:")), "")
            out.append((when, cookie))
    return out
