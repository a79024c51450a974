"""The GPIO button listener with real gpiozero code on gpiozero's mock pins (simulated presses)."""

import asyncio
import time

import pytest

from tests.setup_parts import require_import

gpiozero = require_import("gpiozero", "test", "gpiozero is missing: scripts/setup --test installs it")
from gpiozero.pins.mock import MockFactory  # noqa: E402

from narrator.cues import Ask  # noqa: E402
from narrator.inputs.hub import ListenerHub  # noqa: E402
from narrator.inputs.button import ButtonListener, ButtonUnavailable, PressDecoder  # noqa: E402

HOLD, WINDOW = 0.3, 0.15


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def press(pin, seconds=0.03):
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


async def presses(pin, count, gap=0.04):
    for i in range(count):
        await asyncio.to_thread(press, pin)
        if i + 1 < count:
            await asyncio.sleep(gap)


def run_with_buttons(factory, scenario, pins=(17,)):
    """Run `scenario(hub, listener)` in a loop with the buttons wired to a real hub."""
    async def main():
        hub = ListenerHub()
        listener = ButtonListener(list(pins), hold_time=HOLD, window=WINDOW, pin_factory=factory,
                                  log=lambda message: None)
        listener.start(hub, asyncio.get_running_loop())
        try:
            return await asyncio.wait_for(scenario(hub, listener), timeout=5)
        finally:
            listener.close()
    return asyncio.run(main())


def test_short_press_is_done(factory):
    async def scenario(hub, listener):
        await presses(factory.pin(17), 1)
        return await hub.command(), listener.presses
    heard, log = run_with_buttons(factory, scenario)
    assert (heard.kind, heard.value, heard.source) == ("command", "done", "button")
    assert log == [(17, "short")]


def test_long_press_is_repeat_said_while_still_held(factory):
    async def scenario(hub, listener):
        pin = factory.pin(17)
        pin.drive_low()
        heard = await hub.command()          # arrives after hold_time, before release
        held_while = pin.state == 0
        pin.drive_high()
        await asyncio.sleep(WINDOW * 2)
        return heard, held_while, listener.presses
    heard, held_while, log = run_with_buttons(factory, scenario)
    assert heard.value == "repeat" and held_while
    assert log == [(17, "long")]           # the release after a long press adds no short press


def test_double_press_is_pause(factory):
    async def scenario(hub, listener):
        await presses(factory.pin(17), 2)
        heard = await hub.command()
        await asyncio.sleep(WINDOW * 2)
        return heard, hub.command_nowait(), listener.presses
    heard, extra, log = run_with_buttons(factory, scenario)
    assert heard.value == "pause" and extra is None
    assert log == [(17, "double")]


def test_short_press_answers_yes_and_triple_press_answers_no(factory):
    async def scenario(hub, listener):
        pin = factory.pin(17)
        answers = []
        for count in (1, 3):
            ask = asyncio.ensure_future(hub.answer(Ask("resume.question", ("yes", "no"))))
            await asyncio.sleep(0)
            await presses(pin, count)
            answers.append((await ask).value)
        return answers, listener.presses
    answers, log = run_with_buttons(factory, scenario)
    assert answers == ["yes", "no"]
    assert log == [(17, "short"), (17, "triple")]


def test_second_button_answers_no_and_main_button_answers_done_question(factory):
    async def scenario(hub, listener):
        ask = asyncio.ensure_future(hub.answer(Ask("q", ("yes", "no"))))
        await asyncio.sleep(0)
        await presses(factory.pin(27), 1)
        no = (await ask).value
        ask = asyncio.ensure_future(hub.answer(Ask("setup.ready", ("done",))))
        await asyncio.sleep(0)
        await presses(factory.pin(17), 1)
        return no, (await ask).value
    assert run_with_buttons(factory, scenario, pins=(17, 27)) == ("no", "done")


def test_presses_far_apart_are_two_short_presses(factory):
    async def scenario(hub, listener):
        pin = factory.pin(17)
        await presses(pin, 1)
        first = await hub.command()
        await asyncio.sleep(WINDOW)
        await presses(pin, 1)
        second = await hub.command()
        return first.value, second.value, listener.presses
    first, second, log = run_with_buttons(factory, scenario)
    assert (first, second) == ("done", "done")
    assert log == [(17, "short"), (17, "short")]


def test_decoder_counts_with_a_fake_clock():
    """The timing rules alone: a release after hold_time without a held edge is still long."""
    now = [0.0]
    kinds = []
    decoder = PressDecoder(kinds.append, hold_time=1.0, window=0.01, clock=lambda: now[0])
    decoder.pressed()
    now[0] = 1.5
    decoder.released()
    assert kinds == ["long"]


def test_a_pin_already_in_use_is_one_clear_error(factory):
    first = ButtonListener([17], pin_factory=factory)
    first.open()
    try:
        with pytest.raises(ButtonUnavailable, match="cannot use GPIO pin"):
            ButtonListener([17], pin_factory=factory).open()
    finally:
        first.close()
