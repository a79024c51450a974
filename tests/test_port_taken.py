"""A port another program holds does not leave the table without its page: the settings page
and the game's phone page listen on a free port instead, and the address said aloud is that one
(before, `narrator serve` logged "cannot listen" and the table heard nothing)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from narrator.errors import SetupError
from narrator.phones.table import listen_somewhere


class Page:
    """A page whose `start` listens for real, as the settings page and phone page do."""

    def __init__(self):
        self.servers = []

    async def start(self, host, port):
        try:
            server = await asyncio.start_server(lambda r, w: None, host, port)
        except OSError as err:
            raise SetupError(f"cannot listen on {host}:{port} ({err.strerror})") from None
        self.servers.append(server)
        return server.sockets[0].getsockname()[1]


def test_a_taken_port_gives_a_free_one_and_says_so(capsys):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    taken = holder.getsockname()[1]

    async def main():
        page = Page()
        port = await listen_somewhere(page, "127.0.0.1", taken, "settings page")
        for server in page.servers:
            server.close()
        return port
    try:
        port = asyncio.run(main())
    finally:
        holder.close()
    assert port not in (0, taken)
    assert "the settings page listens on a free port instead" in capsys.readouterr().err


def test_a_free_port_that_fails_is_still_one_line():
    class Broken:
        async def start(self, host, port):
            raise SetupError("cannot listen")
    with pytest.raises(SetupError, match="cannot listen"):
        asyncio.run(listen_somewhere(Broken(), "127.0.0.1", 0, "phone page"))
