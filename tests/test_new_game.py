"""A game the narrator has never seen plays through the CLI, with phones, touching no room.

Tiny Stone (tests/games/tiny_stone) is added as a table would add a game: its own folder
(rules and the contract), an entry point in the group `narrator.games`, its lines in a voice
pack of its own and its page. A real `python -m narrator play` process runs it; real HTTP
phones join with the codes the host screen gives, each sees its own stone and only its own,
and the seeker answers the private question from their phone; one phone is a real browser
(Chromium), which shows that player's stone in the game's own words.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp
import pytest

from narrator.phones import crypto
from tests.processes import started
from tests.setup_parts import missing, require_import

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--no-first-run"]
playwright_api = require_import("playwright.async_api", "test", "the test extras are missing: scripts/setup --test")

ROOT = Path(__file__).resolve().parents[1]
GAME_DIR = Path(__file__).with_name("games")
NAMES = ("Aki", "Ben", "Chika")
WAIT = 120.0
"""Seconds any one step may take on a loaded machine (a bound, never a pause)."""


def _install(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine that installed Tiny Stone: its entry point on the path,
    its voice pack among the user's packs."""
    site = tmp_path / "site"
    dist = site / "tiny_stone-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-stone\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[narrator.games]\ntiny-stone = tiny_stone:GAME\n", encoding="utf-8")
    home = tmp_path / "home"
    shutil.copytree(GAME_DIR / "tiny_stone" / "voices", home / "voices")
    env = {**os.environ, "NARRATOR_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(site), str(GAME_DIR), str(ROOT)])}
    return env


def _narrator(env: dict[str, str], *args: str, **kwargs) -> subprocess.Popen:
    return started([sys.executable, "-m", "narrator", *args], env=env, cwd=ROOT, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


class Lines:
    """A process's stderr, line by line, read on a thread so a test can wait for a line."""

    def __init__(self, stream):
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, pattern: str) -> re.Match:
        end = time.monotonic() + WAIT
        for line in self.seen:
            if match := re.search(pattern, line):
                return match
        while time.monotonic() < end:
            try:
                line = self._queue.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if match := re.search(pattern, line):
                return match
        raise AssertionError(f"never printed /{pattern}/; printed:\n{''.join(self.seen)}")


async def _until(get, predicate):
    """Ask `get()` again until `predicate` holds of its answer (bounded by WAIT)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while loop.time() < end:
        value = await get()
        if predicate(value):
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out; last answer {value!r}")


async def _play_on_phones(base: str, table_code: str) -> dict:
    def session() -> aiohttp.ClientSession:
        return aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": base})

    keys: dict[aiohttp.ClientSession, bytes] = {}

    async def view(phone: aiohttp.ClientSession) -> dict:
        async with phone.get("/api/view") as reply:
            assert reply.status == 200, await reply.text()
            sealed = await reply.json()
        view = crypto.unseal(keys[phone], sealed["box"])  # sealed with the seat's key
        assert view.pop("from") == "narrator"
        return view

    host, phones = session(), {name: session() for name in NAMES[:-1]}
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            async with host.post("/api/join", json={"code": table_code}) as reply:
                assert reply.status == 200 and await reply.json() == {"host": True}
            async with host.get("/api/seats") as reply:
                salt = base64.b64decode((await reply.json())["salt"])
            for number, name in enumerate(NAMES, 1):
                async with host.get(f"/api/host/code/{number}") as reply:
                    seat = await reply.json()
                if name in phones:
                    async with phones[name].post("/api/join", json={"code": seat["code"]}) as reply:
                        assert await reply.json() == {"seat": name}
                    keys[phones[name]] = crypto.derive(seat["code"], salt)[0]
                else:  # the last player's phone is a real browser, joined by the seat's link (a QR scan)
                    page = await browser.new_page(viewport={"width": 390, "height": 844})
                    await page.goto(seat["link"])
                    await page.wait_for_selector("#reveal")
            views = {name: await _until(lambda p=phone: view(p), lambda v: v["private"]) for name, phone in phones.items()}
            views[NAMES[-1]] = await page.evaluate("fetch('/api/view').then(r => r.json()).then(opened)")
            await page.click("#reveal")
            shown = await page.inner_text("#own-line-0")
            stones = {name: {k: v for k, v in v["private"].items() if k != "lines"} for name, v in views.items()}
            asked = await _until(lambda: view(phones["Aki"]), lambda v: v["ask"] is not None)
            others = {"Ben": (await view(phones["Ben"]))["ask"], "Chika": views["Chika"]["ask"]}
            black = next(name for name, stone in stones.items() if stone == {"stone": "black"})
            sealed = {"from": "phone", "n": 1, "to": "answer", "body": {"serial": asked["ask"]["serial"], "value": black}}
            box = crypto.seal(keys[phones["Aki"]], sealed, crypto.PLAIN_REQUEST)
            async with phones["Aki"].post("/api/seat", json={"box": box}) as reply:
                assert reply.status == 200, await reply.text()
                assert crypto.unseal(keys[phones["Aki"]], (await reply.json())["box"])["status"] == 200
            return {"views": views, "stones": stones, "asked": asked["ask"], "others": others, "black": black,
                    "shown": shown}
        finally:
            await browser.close()
            for phone in (host, *phones.values()):
                await phone.close()


def test_a_game_from_outside_plays_through_the_cli_with_phones(tmp_path):
    if not CHROMIUM.exists():
        missing("test", "Debian's chromium is missing: run scripts/setup --test (apt-get install chromium)")
    env = _install(tmp_path)
    process = _narrator(env, "play", "tiny-stone", "--names", ",".join(NAMES), "--phones", "--host", "127.0.0.1",
                        "--port", "0", "--voice", "tiny-stone-en", "--lang", "en", "--time-scale", "0",
                        "--no-keyboard", "--seed", "3")
    try:
        lines = Lines(process.stderr)
        base = lines.wait_for(r"phones: open (http://127\.0\.0\.1:\d+)").group(1)
        lines.wait_for(r"phones: table code announced")  # never in the log (issue 24): read from the game folder
        code = json.loads(next(Path(env["NARRATOR_HOME"]).glob("games/*/phones.json")).read_text())["table_code"]
        seen = asyncio.run(_play_on_phones(base, code))
        out, _ = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, "".join(lines.seen)
    # each phone shows its own stone: one black, never the seeker's, and no one else's
    assert sorted(s["stone"] for s in seen["stones"].values()) == ["black", "white", "white"]
    assert seen["stones"]["Aki"] == {"stone": "white"}
    assert all(set(v["private"]) == {"stone", "lines"} for v in seen["views"].values())
    black_line = {"en": "You hold the black stone."}
    assert [v["private"]["lines"] for v in seen["views"].values()].count([black_line]) == 1
    # the page shows the game's own line, from the table's pack, with no change to the page
    assert seen["shown"] == ("You hold the black stone." if seen["black"] == "Chika" else "Your stone is white.")
    # the private question reaches the seeker alone, without their own name among the choices
    assert seen["asked"]["private"] is True and seen["asked"]["choices"] == ["Ben", "Chika"]
    assert seen["others"] == {"Ben": None, "Chika": None}
    lines.wait_for(r"game over: seeker wins")
    assert f"Found! {seen['black']} held the black stone" in "".join(lines.seen) + out


def test_a_game_that_needs_phones_is_refused_without_them_before_anything_is_saved(tmp_path):
    env = _install(tmp_path)
    process = _narrator(env, "play", "tiny-stone", "--names", "Aki,Ben", "--voice", "tiny-stone-en", "--lang", "en",
                        "--time-scale", "0", "--no-keyboard")
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode != 0
    assert "the stones are shown on the players' phones; add --phones (or phones = true)" in err
    assert not (Path(env["NARRATOR_HOME"]) / "games").exists() or not any((Path(env["NARRATOR_HOME"]) / "games").iterdir())


def test_the_narrators_rooms_do_not_know_the_new_game():
    """Adding Tiny Stone touched no file of the narrator: its name is nowhere in the package."""
    mentions = [p for p in (ROOT / "narrator").rglob("*") if p.is_file() and p.suffix in (".py", ".toml", ".js", ".json")
                and re.search(r"tiny|stone", p.read_text(encoding="utf-8", errors="replace"), re.IGNORECASE)]
    assert mentions == []
    assert not [p for p in (ROOT / "voices").iterdir() if "tiny" in p.name]
