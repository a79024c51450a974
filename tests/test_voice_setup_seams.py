"""The voice listener's seams as typed: what `open_voice` and the microphone are handed.

`open_voice` with an engine but no audio source (a table whose engine is given) hears the
microphone, not nothing; a device whose entry names no sample rate is one line, not a KeyError.
"""

from __future__ import annotations

import pytest

from narrator.inputs.voice import setup
from narrator.inputs.voice.microphone import InputUnavailable, Microphone
from narrator.inputs.voice.setup import ListenOptions, open_voice
from narrator.sound.voicepack import load_pack


class KnowsEveryWord:
    """A recognition engine whose model knows every word (nothing is recognized here)."""

    name = "fake"
    sample_rate = 16000

    def missing_words(self, phrases):
        return []

    def recognizer(self, phrases):
        raise AssertionError("nothing is heard in this test")


def test_a_given_engine_hears_the_microphone(monkeypatch):
    opened = []

    class FakeMicrophone:
        def __init__(self, rate, device=None):
            opened.append((rate, device))

    monkeypatch.setattr(setup, "Microphone", FakeMicrophone)
    listener = open_voice(ListenOptions(listen="on", input_device="2"), load_pack("en"), ["Aki"],
                          warn=pytest.fail, engine=KnowsEveryWord())
    assert listener is not None and isinstance(listener.source, FakeMicrophone)
    assert opened == [(16000, "2")]


class NoRateDevice:
    """sounddevice with a microphone that refuses 16 kHz and whose entry names no rate."""

    class PortAudioError(Exception):
        pass

    def check_input_settings(self, *, device, channels, dtype, samplerate):
        raise self.PortAudioError("Invalid sample rate")

    def query_devices(self, device, kind):
        return {"name": "USB mic"}


def test_a_microphone_with_no_rate_is_one_line():
    with pytest.raises(InputUnavailable, match=r"^no microphone \(Invalid sample rate\); connect one"):
        Microphone._usable_rate(NoRateDevice(), None, 16000)
