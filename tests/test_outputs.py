"""Outputs: the speaker's callback places clips by the device's clock; the recorder by game time."""

import array
from types import SimpleNamespace

from narrator.sound.outputs import LiveOutput, SpeakerOutput, Tee
from narrator.sound.recorder import Recorder
from narrator.sound.clips import RATE
from narrator.table.clock import ScaledClock
from tests.audio_helpers import read_wav


def test_speaker_callback_puts_a_clip_on_the_frame_of_its_game_second():
    clock = ScaledClock()
    speaker = SpeakerOutput.__new__(SpeakerOutput)  # no device here: drive its callback by hand
    LiveOutput.__init__(speaker, clock)
    blocks = []

    def pull(frames=240, latency=0.02):
        out = bytearray(frames * 2)
        info = SimpleNamespace(currentTime=100.0, outputBufferDacTime=100.0 + latency)
        speaker._callback(out, frames, info, None)
        blocks.append(bytes(out))

    pull()  # the first callback anchors frame 0 to "now + latency"
    at = clock.from_monotonic(speaker.anchor + 0.5)  # the game second heard 0.5 s into the stream
    handle = speaker.start(array.array("h", [1000] * 100).tobytes(), at)
    while speaker.rendered < RATE:
        pull()
    samples = array.array("h", b"".join(blocks))
    first = next(i for i, s in enumerate(samples) if s)
    assert abs(first - RATE // 2) <= 2  # the anchor is re-measured on each callback; within 2 samples
    assert speaker.onset(handle) is not None


def test_a_late_clip_starts_at_the_next_frame_not_in_the_past():
    clock = ScaledClock()
    live = LiveOutput(clock)
    live.rendered = 4800
    handle = live.start(b"\x01\x00" * 10, clock.now() - 5)
    assert live.mixer.placed[0].start == 4800 and handle == 1


def test_recorder_writes_clips_at_their_game_seconds_with_silence_between(tmp_path):
    rec = Recorder(tmp_path / "s.wav")
    rec.start(array.array("h", [1000] * 24).tobytes(), 1.0)
    rec.start(array.array("h", [2000] * 24).tobytes(), 2.5)
    handle = rec.start(array.array("h", [3000] * 24).tobytes(), 3.0)
    rec.cancel(handle)
    rec.extend(4.0)
    rec.close()
    samples, rate = read_wav(tmp_path / "s.wav")
    assert rate == RATE and len(samples) == 4 * RATE
    nonzero = [i for i, s in enumerate(samples) if s]
    assert nonzero[0] == RATE and samples[RATE] == 1000 and samples[int(2.5 * RATE)] == 2000
    assert len(nonzero) == 48  # the cancelled clip is not in the file


def test_tee_hands_each_clip_to_every_output(tmp_path):
    a, b = Recorder(tmp_path / "a.wav"), Recorder(tmp_path / "b.wav")
    tee = Tee(a, b)
    h = tee.start(b"\x10\x00" * 5, 0.5)
    assert a.onset(h) == b.onset(1) == 0.5
    tee.close()
    assert read_wav(tmp_path / "a.wav") == read_wav(tmp_path / "b.wav")
