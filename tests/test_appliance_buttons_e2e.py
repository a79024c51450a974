"""A whole headless game by one button: `narrator serve` with gpiozero's mock pins.

Real gpiozero code reads simulated presses on GPIO17; the presses go through the button
listener and the hub into the appliance and the game: short = yes/done, long = repeat,
double = pause (inside the discussion timer), short again = go on, short = end the timer.
"""

import threading
import time

import pytest

from tests.setup_parts import require_import

gpiozero = require_import("gpiozero", "test", "gpiozero is missing: scripts/setup --test installs it")
from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from narrator.appliance.serve import ServeOptions, serve  # noqa: E402
from narrator.errors import NoMoreAnswers  # noqa: E402
from narrator.table.saved_games import saved_games  # noqa: E402
from narrator.table.transcript import read_transcript  # noqa: E402
from tests.clock_helpers import wait_until  # noqa: E402

HOLD, WINDOW = 0.3, 0.15
SCALE, DISCUSSION = 0.02, 180
"""The game runs 50 times faster than the table's clock; its discussion lasts 180 game seconds."""


@pytest.fixture
def mock_pins():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


class Spy:
    """Keeps the hub so the test's table knows when a question is open (registers nothing)."""

    hub = loop = None

    def start(self, hub, loop):
        self.hub, self.loop = hub, loop


def records(path):
    try:
        return read_transcript(path)
    except (FileNotFoundError, ValueError):
        return []


def press(pin, seconds=0.03):
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


class Table(threading.Thread):
    """The players, with one button: they answer every question with a short press, but
    first ask for the ready question again (long press), and pause the discussion."""

    def __init__(self, pin, spy, transcript):
        super().__init__(daemon=True)
        self.pin, self.spy, self.transcript = pin, spy, transcript
        self.stop = threading.Event()
        self.paused_records_still = None
        self.error = None

    def run(self):
        """The players; if they give up (a bounded wait ran out on a loaded machine), the game
        is stopped at its next question, so the test fails saying why instead of hanging."""
        try:
            self._play()
        except Exception as err:
            self.error = err
            while not self.stop.is_set():
                if self.spy.loop is not None:
                    self.spy.loop.call_soon_threadsafe(self.spy.hub.fail, NoMoreAnswers(f"the test's table gave up: {err}"))
                time.sleep(0.2)

    def _play(self):
        answered, repeated, paused_done, seated = set(), False, False, False
        while not self.stop.is_set():
            seen = records(self.transcript)
            lines = [r["line"] for r in seen]
            serial = self.spy.hub.open_serial if self.spy.hub else None
            if "phones.wait_seats" in lines and not seated:
                seated = True                              # nobody here has a phone: start anyway
                press(self.pin)
                continue
            if serial is not None and serial not in answered:
                if lines and lines[-1] == "setup.ready" and not repeated:
                    repeated = True
                    press(self.pin, HOLD + 0.2)            # long press: say it again
                    wait_until(lambda: any(r["line"] == "setup.ready" and r.get("repeat")
                                           for r in records(self.transcript)), "the ready question is asked again")
                    continue
                answered.add(serial)
                press(self.pin)                            # short press: done / yes
            elif "discussion" in lines and not paused_done:
                paused_done = True
                discussion_seen = time.monotonic()         # at or after the discussion began
                press(self.pin), time.sleep(0.04), press(self.pin)   # double press: pause
                wait_until(lambda: "control.paused" in [r["line"] for r in records(self.transcript)], "the pause")
                count = len(records(self.transcript))
                # held past the whole discussion's end on the game clock (however slow this
                # machine is: a slower one only holds longer), so an unheld timer would have spoken
                # its warnings and its end, and a timer the pause does not shift says them at the resume
                time.sleep(max(0.0, discussion_seen + DISCUSSION * SCALE + 0.5 - time.monotonic()))
                self.paused_records_still = len(records(self.transcript)) == count
                press(self.pin)                            # short press: go on
                wait_until(lambda: "control.resumed" in [r["line"] for r in records(self.transcript)], "the resume")
                time.sleep(WINDOW * 2)                     # a press of its own, not a second of the last
                press(self.pin)                            # short press: end the discussion
            time.sleep(0.02)


def test_a_whole_game_by_one_button(narrator_home, tmp_path, mock_pins):
    table_file = tmp_path / "table.toml"
    table_file.write_text(f'lang = "en"\n[appliance]\nbutton_pin = 17\nhold_time = {HOLD}\n'
                          f"multi_press = {WINDOW}\nremind_after = 0\n")
    transcript = tmp_path / "t.jsonl"
    spy = Spy()
    table = Table(mock_pins.pin(17), spy, transcript)
    options = ServeOptions(table=table_file, once=True, keyboard=False, listeners=[spy],
                           overrides={"voice": "text", "time_scale": str(SCALE), "transcript": str(transcript)})
    table.start()
    try:
        status = serve(options, log=lambda m: None)
    finally:
        table.stop.set()
        table.join(timeout=5)
    if table.error is not None:
        raise table.error
    assert status == 1
    seen = read_transcript(transcript)
    answers = [(r["line"], r["value"], r["source"]) for r in seen if r["kind"] == "answer"]
    assert answers == [("appliance.offer", "yes", "button"), ("setup.ready", "done", "button"),
                       ("nomination.werewolf_found", "yes", "button")]
    ready = [r for r in seen if r["kind"] == "ask" and r["line"] == "setup.ready"]
    assert [r.get("repeat", False) for r in ready] == [False, True]
    lines = [r["line"] for r in seen]
    assert lines.index("discussion") < lines.index("control.paused") < lines.index("control.resumed")
    assert table.paused_records_still is True
    # the pause, longer than the whole discussion, moved the timer on by its length: no warning
    # fell due at the resume, and the short press after it ended the discussion early
    discussion = lines.index("discussion")
    paused, resumed = (next(r for r in seen if r["line"] == word) for word in ("control.paused", "control.resumed"))
    assert resumed["t"] - paused["t"] >= DISCUSSION
    after = next(r for r in seen[discussion + 1:] if r["kind"] == "say"
                 and r["line"] not in ("control.resumed", "control.paused"))
    assert "timer.warning" not in lines[discussion:seen.index(after)]
    assert after["t"] - seen[discussion]["t"] - (resumed["t"] - paused["t"]) < DISCUSSION
    [game] = saved_games(narrator_home)
    assert game.meta["outcome"]["winner"] == "citizens"
