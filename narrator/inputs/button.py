"""One or two GPIO push buttons as a listener (gpiozero), for a table without a screen.

The main button: short press = done / next (and "yes" when a yes/no question is open),
long press = repeat, double press = pause (again to go on), triple press = no, a hold of
`RELEASE_HOLD` seconds (let go after it) = release the host screen, asked back first. An optional
second button: short press = no. Each press becomes words offered to the `ListenerHub`, so a
button answers exactly like the keyboard or a voice.

gpiozero has no double-press event, so `PressDecoder` times presses itself from the
pressed/released/held edges, which gpiozero delivers from its own threads (interrupt-driven
on a Pi, no polling here); a `threading.Timer` closes the multi-press window. The words go
to the hub on the event loop's thread through `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import warnings
from typing import Any, Callable, Sequence

from narrator.errors import NarratorError
from narrator.inputs.hub import ListenerHub

SOURCE = "button"
MAIN_BUTTON: dict[str, tuple[str, ...]] = {"short": ("done", "yes"), "long": ("repeat",), "double": ("pause",), "triple": ("no",),
               "hold": ("release_host",)}
"""Words each kind of press offers, tried in order until one fits what is being asked."""
SECOND_BUTTON: dict[str, tuple[str, ...]] = {"short": ("no",), "long": ("repeat",), "double": ("pause",), "triple": ("no",)}
RELEASE_HOLD = 5.0
"""Seconds the main button is held for `hold` (the long press's repeat comes at one second first:
harmless, and no other gesture lasts this long, in a game or in the appliance's menus)."""


class ButtonUnavailable(NarratorError):
    """No GPIO here (no gpiozero, or no pin factory): the message says what to install."""


class PressDecoder:
    """Turns one button's edges into presses: short, long, double, triple.

    A press held for `hold_time` is long, reported while still held (at gpiozero's
    `when_held`, or at release if that edge never came). Short presses separated by less
    than `window` seconds count together; the count is reported once the window closes.
    A press that lasted `release_hold` seconds (by `clock`) is also a `hold`, at its release.
    """

    def __init__(self, emit: Callable[[str], None], hold_time: float = 1.0, window: float = 0.4,
                 clock: Callable[[], float] = time.monotonic, release_hold: float | None = None):
        self.emit, self.hold_time, self.window, self.clock = emit, hold_time, window, clock
        self.release_hold = release_hold
        self._lock = threading.Lock()
        self._down_at: float | None = None
        self._held = False
        self._count = 0
        self._timer: threading.Timer | None = None

    def pressed(self) -> None:
        with self._lock:
            self._down_at = self.clock()
            self._held = False
            self._cancel_timer()

    def held(self) -> None:
        with self._lock:
            if self._down_at is None or self._held:
                return
            self._held = True
            pending, self._count = self._count, 0
        self._report(pending)
        self.emit("long")

    def released(self) -> None:
        long_press, pending = False, 0
        with self._lock:
            down_at, self._down_at = self._down_at, None
            lasted = self.clock() - down_at if down_at is not None else 0.0
            very_long = down_at is not None and self.release_hold is not None and lasted >= self.release_hold
            if down_at is None or self._held:
                self._held = False
            elif lasted >= self.hold_time:
                pending, self._count = self._count, 0
                long_press = True
            else:
                self._count += 1
                self._timer = threading.Timer(self.window, self._window_closed)
                self._timer.daemon = True
                self._timer.start()
        if long_press:
            self._report(pending)
            self.emit("long")
        if very_long:
            self.emit("hold")

    def close(self) -> None:
        with self._lock:
            self._cancel_timer()

    def _window_closed(self) -> None:
        with self._lock:
            if self._down_at is not None:  # pressed again: the count goes on
                return
            count, self._count = self._count, 0
            self._timer = None
        self._report(count)

    def _report(self, count: int) -> None:
        if count:
            self.emit({1: "short", 2: "double"}.get(count, "triple"))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class ButtonListener:
    """The table's buttons: `pins[0]` is the main button, `pins[1]` (optional) answers no."""

    def __init__(self, pins: Sequence[int | str], hold_time: float = 1.0, window: float = 0.4,
                 pull_up: bool = True, bounce_time: float | None = 0.02, pin_factory: object = None,
                 log: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 release_hold: float | None = RELEASE_HOLD):
        if not pins:
            raise ButtonUnavailable("no button pin configured; set one with `narrator config set appliance.button_pin 17`")
        self.pins = list(pins)[:2]
        self.hold_time, self.window = hold_time, window
        self.pull_up, self.bounce_time, self.pin_factory = pull_up, bounce_time, pin_factory
        self.clock, self.release_hold = clock, release_hold
        self.log = log or (lambda message: print(message, file=sys.stderr, flush=True))
        self.presses: list[tuple[int | str, str]] = []
        """Every decoded press (pin, kind), for the log and for tests."""
        self._buttons: list[Any] = []
        self._decoders: list[PressDecoder] = []

    def open(self) -> None:
        """Claim the pins; raises ButtonUnavailable with the fix when there is no GPIO."""
        try:
            from gpiozero import Button
            from gpiozero.exc import GPIOZeroError
        except ImportError:
            raise ButtonUnavailable("gpiozero is not installed; run `.venv/bin/pip install gpiozero` "
                                    "(scripts/setup does on a Raspberry Pi)") from None
        try:
            with warnings.catch_warnings():  # gpiozero warns once per factory it cannot load
                warnings.simplefilter("ignore")
                for pin in self.pins:
                    self._buttons.append(Button(pin, pull_up=self.pull_up, bounce_time=self.bounce_time,
                                                hold_time=self.hold_time, pin_factory=self.pin_factory))
        except (GPIOZeroError, OSError, RuntimeError) as err:
            self.close()
            raise ButtonUnavailable(f"cannot use GPIO pin(s) {', '.join(map(str, self.pins))} ({err}); "
                                    "on a Raspberry Pi install lgpio (scripts/setup does), elsewhere buttons are off") from None

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> None:
        """Route presses to `hub`; opens the pins first if `open` was not called."""
        if not self._buttons:
            self.open()
        hub.register(SOURCE)
        for button, pin, meaning in zip(self._buttons, self.pins, (MAIN_BUTTON, SECOND_BUTTON)):
            decoder = PressDecoder(self._emitter(hub, loop, pin, meaning), self.hold_time, self.window, self.clock,
                                   self.release_hold if meaning is MAIN_BUTTON else None)
            button.when_pressed = decoder.pressed
            button.when_released = decoder.released
            button.when_held = decoder.held
            self._decoders.append(decoder)

    def close(self) -> None:
        for decoder in self._decoders:
            decoder.close()
        for button in self._buttons:
            button.close()
        self._buttons, self._decoders = [], []

    def _emitter(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop, pin: int | str,
                 meaning: dict[str, tuple[str, ...]]) -> Callable[[str], None]:
        def emit(kind: str) -> None:
            self.presses.append((pin, kind))
            try:
                loop.call_soon_threadsafe(self._offer, hub, pin, kind, meaning[kind])
            except RuntimeError:  # the loop has closed: the game is over
                pass
        return emit

    def _offer(self, hub: ListenerHub, pin: int | str, kind: str, words: tuple[str, ...]) -> None:
        hint = None
        for word in words:
            hint = hub.offer_text(word, SOURCE)
            if hint is None:
                self.log(f"button {pin}: {kind} press = {word}")
                return
        self.log(f"button {pin}: {kind} press does not answer this question ({hint}); answer by voice or phone")
