"""Issue 24: `release host` without a terminal, by the appliance's button held five seconds or by
voice ("release host", 「ホスト画面を解放」), asked back aloud and confirmed by the table's press or
"yes"; the release then makes a new table code, said aloud, as the terminal's command does.

The button runs on gpiozero's mock pins, the voice on a scripted engine; the press lengths and the
confirmation window are measured on a ManualClock (the table's door clock), never by sleeping.
"""

from __future__ import annotations

import asyncio

import pytest

from narrator.inputs.button import RELEASE_HOLD, PressDecoder
from narrator.inputs.voice.grammar import PhraseBook
from narrator.inputs.voice.listener import VoiceListener
from narrator.inputs.voice.microphone import QueueSource
from narrator.phones import host_release
from narrator.sound.engines import Recognition
from narrator.sound.voicepack import load_pack
from narrator.table.clock import ManualClock
from tests.phones_harness import NAMES5, Phone, open_table, wait_for
from tests.setup_parts import require_import

ASK = "phones.host_release_ask"
RELEASED = "phones.host_released"


def _lines(server) -> list[str]:
    return [line for line, _ in server.said]


async def _until(predicate) -> None:
    """Wait (bounded, generously: the CI machine is shared) until `predicate()` holds."""
    async def holds():
        return predicate()
    assert await wait_for(holds, timeout=60)


async def _is_host(phone: Phone) -> bool:
    async with phone.session.get("/api/seats") as r:
        return (await r.json())["host"]


# --- the gesture ---------------------------------------------------------------------------------

def test_a_hold_of_five_seconds_is_a_hold_and_nothing_shorter_is():
    async def main():
        clock = ManualClock()
        heard: list[str] = []
        decoder = PressDecoder(heard.append, hold_time=1.0, window=0.4, clock=clock.now, release_hold=RELEASE_HOLD)
        decoder.pressed()
        await clock.advance(RELEASE_HOLD - 0.1)
        decoder.held()
        decoder.released()
        assert heard == ["long"]  # the repeat, and no release asked
        decoder.pressed()
        await clock.advance(RELEASE_HOLD)
        decoder.held()
        decoder.released()
        assert heard == ["long", "long", "hold"]
        decoder.pressed()  # gpiozero's held edge never came: the release reports both
        await clock.advance(RELEASE_HOLD)
        decoder.released()
        assert heard == ["long", "long", "hold", "long", "hold"]
        second = PressDecoder(heard.append, clock=clock.now)  # the second button has no hold
        second.pressed()
        await clock.advance(RELEASE_HOLD)
        second.released()
        assert heard[-1] == "long" and heard.count("hold") == 2

    asyncio.run(main())


# --- button: the whole chain on mock pins ----------------------------------------------------------

@pytest.fixture
def factory():
    require_import("gpiozero", "test", "gpiozero is missing: scripts/setup --test installs it")
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.reset()


def test_the_button_held_five_seconds_asks_and_a_press_releases_with_a_new_code(factory):
    from narrator.inputs.button import ButtonListener

    async def main():
        table = await open_table(NAMES5, seed=5)
        server, hub = table.server, table.sitting.hub
        screen = await table.host()  # before the button is wired: it joins at once
        buttons = ButtonListener([17], hold_time=0.3, window=0.15, pin_factory=factory, log=lambda m: None,
                                 clock=table.door.now)
        buttons.start(hub, asyncio.get_running_loop())
        pin = factory.pin(17)
        try:
            old = server.seats.table_code
            pin.drive_low()
            await _until(lambda: (17, "long") in buttons.presses)  # the repeat, at hold_time
            await table.door.advance(RELEASE_HOLD)
            pin.drive_high()
            await _until(lambda: ASK in _lines(server))
            assert server.said[-1] == (ASK, {"seconds": int(host_release.CONFIRM_SECONDS)})
            assert server.seats.table_code == old and await _is_host(screen)  # only asked so far
            assert "yes" in hub.listen_also  # a microphone would hear "yes" now
            pin.drive_low()
            pin.drive_high()  # a short press: the table confirms
            await _until(lambda: RELEASED in _lines(server))
            new = server.seats.table_code
            assert new != old and server.said[-1] == (RELEASED, {"code": " ".join(new)})
            assert not await _is_host(screen) and not server.seats.has_host
            assert hub.listen_also == ()
        finally:
            buttons.close()
            await table.close()

    asyncio.run(main())


# --- what the question protects --------------------------------------------------------------------

@pytest.mark.parametrize("asked_back", [False, True])
def test_a_slip_or_a_mishearing_releases_nothing_unless_the_table_confirms(monkeypatch, asked_back):
    """A hold by accident (or a phrase misheard) with no question asked back frees the host
    screen on the spot; asked back, nothing happens until the table's own press or "yes"
    within the window: not a phone's or a script's, not a late one."""
    if not asked_back:
        monkeypatch.setattr(host_release, "ask", lambda server: server.release("host"))

    async def main():
        table = await open_table(NAMES5, seed=5)
        server, hub = table.server, table.sitting.hub
        screen = await table.host()
        hub.register("button")
        try:
            old = server.seats.table_code
            assert hub.offer_text("release_host", "button") is None
            assert (server.seats.table_code != old) == (not asked_back)
            if asked_back:
                hub.offer_text("done", "script")  # a script's or a phone's word is not the table's
                hub.offer_text("yes", "phones")
                assert server.seats.table_code == old
                await table.door.advance(host_release.CONFIRM_SECONDS)
                hub.offer_text("done", "button")  # too late: an ordinary press
                assert server.seats.table_code == old and await _is_host(screen)
                assert RELEASED not in _lines(server) and hub.listen_also == ()
                assert hub.offer_text("release_host", "phones") is not None  # only the table asks
                assert _lines(server).count(ASK) == 1
            else:
                assert not await _is_host(screen)
        finally:
            await table.close()

    asyncio.run(main())


def test_the_terminal_still_releases_at_once_and_a_phone_can_claim_the_new_code():
    async def main():
        table = await open_table(NAMES5, seed=5)
        server, hub = table.server, table.sitting.hub
        await table.host()
        try:
            old = server.seats.table_code
            hub.offer_text("release host", "keyboard")  # typed: no question asked back
            assert server.seats.table_code != old and ASK not in _lines(server)
            hub.register("voice")
            hub.offer_text("release_host", "voice")
            await table.door.advance(host_release.CONFIRM_SECONDS - 0.5)
            newer = server.seats.table_code
            assert hub.offer_text("yes", "voice") is None and server.seats.table_code != newer
            phone = Phone(table.base, "new host screen")
            try:
                assert await phone.join_code(server.seats.table_code) == 202  # waits for the table
                assert hub.offer_text("done", "voice") is None and await _is_host(phone)
            finally:
                await phone.close()
        finally:
            await table.close()

    asyncio.run(main())


# --- voice -----------------------------------------------------------------------------------------

class ScriptedEngine:
    """Hears `script`, one utterance per pushed chunk; notes each grammar it was given."""

    name, sample_rate = "scripted", 16000

    def __init__(self, script):
        self.script, self.grammars = list(script), []

    def missing_words(self, phrases):
        return []

    def recognizer(self, phrases):
        self.grammars.append(list(phrases))
        return self

    def accept(self, pcm):
        return self.script.pop(0) if self.script else None

    def finish(self):
        return None

    def reset(self):
        pass


def test_the_packs_hear_the_phrase_at_any_moment_and_yes_only_while_asked():
    for lang, phrase in (("en", "release host"), ("ja", "ほすと がめん を かいほう")):
        book = PhraseBook.from_pack(load_pack(lang))
        assert book.grammar(None).read(phrase) == "release_host"
        yes = book.phrases["yes"][0]
        assert book.grammar(None).read(yes) is None and book.grammar(None, ("yes",)).read(yes) == "yes"


def test_release_host_said_aloud_is_asked_back_and_a_heard_yes_releases():
    async def main():
        table = await open_table(NAMES5, seed=5)
        server, hub = table.server, table.sitting.hub
        await table.host()
        engine = ScriptedEngine([Recognition("release host", 1.0), Recognition("yes", 1.0)])
        source = QueueSource(16000)
        listener = VoiceListener(engine, source, PhraseBook.from_pack(load_pack("en")), mute_tail=0.0,
                                 endpoint_silence=None)
        listener.start(hub, asyncio.get_running_loop())
        try:
            old = server.seats.table_code
            source.push(b"\0\0" * 1600)
            await _until(lambda: ASK in _lines(server))
            assert server.seats.table_code == old
            source.push(b"\0\0" * 1600)
            await _until(lambda: RELEASED in _lines(server))
            assert server.seats.table_code != old and not server.seats.has_host
            assert [h.outcome for h in listener.hearings if h.meaning in ("release_host", "yes")] == ["used", "used"]
        finally:
            source.close()
            await table.close()

    asyncio.run(main())


def test_a_game_that_ends_with_a_release_still_asked_leaves_no_yes_in_the_grammar():
    async def main():
        table = await open_table(NAMES5, seed=5)
        hub = table.sitting.hub
        await table.host()
        hub.register("button")
        hub.offer_text("release_host", "button")
        assert hub.listen_also == ("yes",)
        await table.close()
        return hub

    hub = asyncio.run(main())
    assert hub.listen_also == () and "release_host" not in hub.table_actions
