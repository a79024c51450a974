"""Issue 24: the host screen's own actions (release, move, start, end-timer, public answers) go
sealed through one door, `POST /api/host`, between the key pair the host screen made at join and
the narrator's, with a counter taken once. Each attack runs twice: with its protection
monkeypatched off it succeeds, with it on it fails. The page's side runs in a real Chromium in
tests/test_phones_browser.py (the host screen releases and moves seats through `Seal.hostRequest`)."""

import asyncio
import base64
import json
import re
import tomllib

import nacl.public
import pytest

from narrator.phones import crypto, host_channel
from tests.phones_harness import Phone
from tests.test_phones_bestia import close
from tests.test_phones_crypto import bestia_through


def run(main):
    return asyncio.run(main())


class HostScreen:
    """What the host screen's page does (`Seal.hostRequest`): its actions sealed to the narrator."""

    def __init__(self, phone: Phone, key: nacl.public.PrivateKey, server):
        self.phone, self.box = phone, nacl.public.Box(key, server.keys.private_key.public_key)
        self.n = 0

    def sealed_body(self, to: str, body: dict) -> dict:
        self.n += 1
        message = crypto.padded_json({"from": "host", "n": self.n, "to": to, "body": body}, crypto.PLAIN_REQUEST)
        return {"box": base64.b64encode(bytes(self.box.encrypt(message))).decode()}

    async def act(self, to: str, body: dict) -> tuple[int, dict]:
        """(the status inside the sealed reply, its body); the door's own status when it refused."""
        n = self.n + 1
        async with self.phone.session.post(host_channel.DOOR, json=self.sealed_body(to, body)) as r:
            reply = await r.json()
            if r.status != 200:
                return r.status, reply
        inner = json.loads(self.box.decrypt(base64.b64decode(reply["box"])))
        assert inner["from"] == "narrator" and inner["n"] == n, inner
        return inner["status"], inner["body"]

    async def plain(self, path: str, body: dict) -> int:
        """The host screen as it was before: a plain POST with its cookie."""
        async with self.phone.session.post(path, json=body) as r:
            return r.status


async def through_proxy():
    table, phones, host, host_key, proxy = await bestia_through()
    return table, phones, HostScreen(host, host_key, table.server), proxy


def _cookie(phone: Phone) -> dict[str, str]:
    return {c.key: c.value for c in phone.session.cookie_jar}


@pytest.mark.parametrize("protected", [False, True])
def test_a_listener_with_the_wifi_password_reads_nothing_of_a_host_action(monkeypatch, protected):
    """The host screen releases Aki's seat and moves Ben's phone to it: before, both actions and
    their seats were readable on the air (the path and the JSON); sealed, neither is."""
    if not protected:
        monkeypatch.setattr(host_channel, "SEALED_ONLY", False)

    async def main():
        table, phones, screen, proxy = await through_proxy()
        try:
            before = len(proxy.captured)
            if protected:
                assert (await screen.act("release", {"seat": "Aki"}))[0] == 200
                assert (await screen.act("move", {"from": "Ben", "to": "Aki"}))[0] == 200
            else:  # the page as it was: plain POSTs
                assert await screen.plain("/api/host/release", {"seat": "Aki"}) == 200
                assert await screen.plain("/api/host/move", {"from": "Ben", "to": "Aki"}) == 200
            assert table.server.seats.taken("Aki") and not table.server.seats.taken("Ben")  # it acted
            return proxy.captured[before:]
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": screen.phone})

    air = run(main)
    readable = [rb"/api/host/release", rb"/api/host/move", rb'"seat":\s*"Aki"', rb'"from":\s*"Ben"', rb'"free":\s*"Aki"']
    assert [re.search(piece, air) is not None for piece in readable] == [not protected] * len(readable)
    assert (b"POST /api/host HTTP" in air) == protected  # one door, whatever the action


@pytest.mark.parametrize("protected", [False, True])
def test_a_sniffed_host_cookie_cannot_release_a_seat(monkeypatch, protected):
    if not protected:  # the cookie alone is enough, as before
        monkeypatch.setattr(host_channel, "SEALED_ONLY", False)

    async def main():
        table, phones, screen, proxy = await through_proxy()
        thief = Phone(table.base, "thief")
        try:
            thief.session.cookie_jar.update_cookies(_cookie(screen.phone))  # read off the air
            statuses = []
            for path, body in (("/api/host/release", {"seat": "Ben"}), ("/api/host/start", {}),
                               ("/api/host/end-timer", {"timer": table.server.timer_serial})):
                async with thief.session.post(path, json=body) as r:
                    statuses.append(r.status)
            async with thief.session.post("/api/answer", json={"serial": 1, "value": "yes"}) as r:
                statuses.append(r.status)
            return statuses, table.server.seats.taken("Ben")
        finally:
            await thief.close()
            await proxy.stop()
            await close(table, {**phones, "host": screen.phone})

    statuses, ben_seated = run(main)
    assert (statuses[0] == 200 and not ben_seated) == (not protected)
    if protected:
        assert statuses == [401] * 4 and ben_seated  # refused before anything was read or done


@pytest.mark.parametrize("protected", [False, True])
def test_a_captured_sealed_host_action_sent_again_is_refused(monkeypatch, protected):
    """The host screen releases Aki (a lost phone); she joins again with her new code; the
    captured release, sent again with the host screen's cookie, would knock her off again."""
    if not protected:  # no counter check
        monkeypatch.setattr(crypto, "fresh", lambda counter, newest, seen: True)

    async def main():
        table, phones, screen, proxy = await through_proxy()
        try:
            assert (await screen.act("release", {"seat": "Aki"}))[0] == 200
            raw = proxy.captured
            start = raw.rindex(b"POST /api/host HTTP")
            head, body = raw[start:].split(b"\r\n\r\n", 1)
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            captured = body[:length]
            assert await phones["Aki"].join() == 200  # Aki is back on her seat
            async with screen.phone.session.post(host_channel.DOOR, data=captured,
                                                 headers={"Content-Type": "application/json"}) as r:
                return r.status, await r.json(), table.server.seats.taken("Aki")
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": screen.phone})

    status, reply, aki_seated = run(main)
    assert (status == 200 and not aki_seated) == (not protected)
    assert ((status, reply, aki_seated) == (401, {"error": host_channel.NOT_SEALED}, True)) == protected


def test_every_host_action_goes_through_the_door_and_a_forged_one_opens_to_nothing():
    async def main():
        table, phones, screen, proxy = await through_proxy()
        try:
            assert await screen.act("start", {}) == (200, {"ok": True})
            status, body = await screen.act("end-timer", {"timer": -1})
            assert status == 409  # the real status, inside the sealed reply
            assert (await screen.act("answer", {"serial": -1, "value": "yes"}))[0] == 409
            assert (await screen.act("release", {"seat": "Nobody"}))[0] == 404
            for odd in (["Aki"], "Aki", 3, None):  # a sealed body that is not an object is an empty one
                assert await screen.act("release", odd) == (404, {"error": "unknown seat"})
            status, body = await screen.act("shutdown", {})  # no such action: the reply names those there are
            assert status == 400 and body["error"].startswith("a host action is one of: ")
            assert {"start", "end-timer", "answer", "release", "move"} <= set(body["error"].split(": ", 1)[1].split(", "))
            # a host screen that has a key sending a plain action: refused, saying what to do
            async with screen.phone.session.post("/api/host/release", json={"seat": "Aki"}) as r:
                assert (r.status, await r.json()) == (401, {"error": host_channel.PLAIN_REFUSED})
            # sealed by someone else's key pair, or by a seat: refused at the door
            stranger = HostScreen(screen.phone, nacl.public.PrivateKey.generate(), table.server)
            assert (await stranger.act("release", {"seat": "Aki"}))[0] == 401
            assert table.server.seats.taken("Aki")
            # a seated phone cannot use the door, with or without a box
            async with phones["Aki"].session.post(host_channel.DOOR, json=screen.sealed_body("start", {})) as r:
                assert (r.status, await r.json()) == (403, {"error": "only the host screen may do this"})
            # a sealed reply of the host's own, sent back as a request, is not from the host screen
            async with screen.phone.session.post(host_channel.DOOR, json={"box": 1}) as r:
                assert r.status == 401
            assert (await screen.act("release", {"seat": "Aki"}))[0] == 200  # the counter goes on
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": screen.phone})

    run(main)


def test_a_sealed_action_named_by_no_text_is_told_the_actions_there_are():
    """`to` that is a list or a number (a broken host page) gets the door's one line, not a crash."""
    async def main():
        table, phones, screen, proxy = await through_proxy()
        try:
            for odd in (["release"], {"a": 1}, 3, None):
                status, body = await screen.act(odd, {})
                assert status == 400 and body["error"].startswith("a host action is one of: "), (odd, status, body)
            assert await screen.act("start", {}) == (200, {"ok": True})  # the door is still open
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": screen.phone})

    run(main)


# --- the settings page between games: its host screen's saves, through the same door ------------------

def _settings_table(tmp_path, test):
    """The settings page (tests/test_settings_page.py's table) behind a recording proxy; `test(page,
    host, stranger, proxy)` with the host screen joined with a key pair of its own."""
    from aiohttp.test_utils import TestServer

    from narrator.phones import settings_page
    from tests.phones_listener import RecordingProxy
    from tests.test_settings_page import setup_menu, table_with_names, load_table, SimpleNamespace
    from narrator.phones.table import page_packs

    path = table_with_names(tmp_path)
    menu = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    menu.announce = lambda line, params: None
    page = settings_page.SettingsPage(menu.table, menu.apply, menu.announce, menu.play, page_packs(), "ja")

    async def main():
        server = TestServer(page.app(), host="127.0.0.1")
        await server.start_server()
        proxy = RecordingProxy(("127.0.0.1", server.port))
        base = f"http://127.0.0.1:{await proxy.start()}"
        host, stranger = Phone(base, "settings host"), Phone(base, "stranger")
        key = nacl.public.PrivateKey.generate()
        async with host.session.post("/api/settings/join", json={"code": page.table_code,
                                     "key": base64.b64encode(bytes(key.public_key)).decode()}) as r:
            assert r.status == 200
        screen = HostScreen(host, key, page)
        try:
            return await test(page, screen, stranger, proxy)
        finally:
            await host.close()
            await stranger.close()
            await proxy.stop()
            await server.close()

    result = asyncio.run(main())
    return result, tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("protected", [False, True])
def test_the_settings_pages_saves_are_sealed_and_its_sniffed_cookie_acts_for_nobody(tmp_path, monkeypatch, protected):
    """The host screen saves a discussion of 123 s; a listener reads it in plain HTTP, sealed not;
    a thief with the host screen's cookie (read off the air) then sets 456 s: before, it could."""
    from narrator.phones import settings_page

    if not protected:
        monkeypatch.setattr(host_channel, "SEALED_ONLY", False)
    door = "/api/settings/sealed"

    async def test(page, screen, stranger, proxy):
        before = len(proxy.captured)
        if protected:
            async with screen.phone.session.post(door, json=screen.sealed_body("change", {"changes": {"discussion": 123}})) as r:
                reply = await r.json()
            inner = json.loads(screen.box.decrypt(base64.b64decode(reply["box"])))
            assert (inner["status"], inner["body"]) == (200, {"ok": True})
        else:
            assert await screen.plain("/api/settings/change", {"changes": {"discussion": 123}}) == 200
        air = proxy.captured[before:]
        sniffed = {c.key: c.value for c in screen.phone.session.cookie_jar}[settings_page.HOST_COOKIE]
        stranger.session.cookie_jar.update_cookies({settings_page.HOST_COOKIE: sniffed})
        async with stranger.session.post("/api/settings/change", json={"changes": {"discussion": 456}}) as r:
            stolen = r.status
        async with stranger.session.post("/api/settings/play", json={}) as r:
            stolen_play = r.status
        return air, stolen, stolen_play

    (air, stolen, stolen_play), table = _settings_table(tmp_path, test)
    assert (re.search(rb'"discussion":\s*123', air) is not None) == (not protected)
    assert (stolen == 200 and table["discussion"] == 456) == (not protected)
    assert ((stolen, stolen_play) == (401, 401) and table["discussion"] == 123) == protected
