"""Where clips are heard: a speaker, a clocked null sink, a WAV file of the session, or nowhere.

Every output is a timeline: the scheduler hands it a clip with the game second it must
start at (`start(pcm, at)`), usually ahead of time, and the output's `Mixer` puts it on
that exact sample. Live outputs (a speaker through sounddevice, or `NullSink`, a
thread that consumes audio at real speed like a sound card would) map game seconds to
their own frames through the game clock; `Recorder` (`recorder.py`, `--audio-out FILE.wav`)
maps game second t to frame t × RATE and writes the whole session, silence included, when closed.

sounddevice is imported only when a speaker is wanted: without PortAudio or a device,
text mode and the tests still work, and `open_output` explains what is missing in one line.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Protocol

from narrator.sound.clips import RATE
from narrator.errors import NarratorError
from narrator.sound.mixer import Mixer
from narrator.sound.recorder import Recorder

BLOCK = 240
"""Frames per block a live output renders (10 ms at 24 kHz)."""
BUFFER = 0.2
"""Seconds of output buffer of a live output. Clips are handed over `scheduler.LEAD` (0.5 s)
ahead, so a deep buffer costs no timing and keeps a busy CPU from starving the device
(measured: with 0.1 s and both cores busy, one tick in a few hundred came 113 ms late)."""


class AudioUnavailable(NarratorError):
    """No way to play sound here; the message names the fix."""


class AudioOutput(Protocol):
    def start(self, pcm: bytes, at: float, speech: bool = True) -> int:
        """Play 16-bit mono `pcm` from game second `at` (now if that has passed); returns a handle."""

    def cancel(self, handle: int) -> None:
        """Drop a clip handed over ahead of time, unless it has begun."""

    def ambience(self, pcm: bytes | None, at: float, gain: float = 0.3) -> None:
        """Loop `pcm` under the speech from `at`; `None` stops the loop at `at`."""

    def onset(self, handle: int) -> float | None:
        """The game second the clip's first sample was actually played (None if not yet)."""

    def extend(self, t: float) -> None:
        """The session has reached game second `t` (a recording is at least that long)."""

    def close(self) -> None:
        """Finish (write the file, drain the speaker) and release the device."""


class GameClock(Protocol):
    """What an output reads of the game clock (`narrator.table.clock`, a floor above): its game
    second now; a live clock also maps game seconds to and from `time.monotonic()` (looked up)."""

    def now(self) -> float: ...


class _Stream(Protocol):
    """A sounddevice `RawOutputStream`: started once, stopped and closed when the output closes."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class SoundDevice(Protocol):
    """What the narrator uses of the `sounddevice` module (untyped): its error, its device list
    (a list of dicts, or one dict for one device) and a raw output stream."""

    PortAudioError: type[Exception]

    def query_devices(self, device: int | str | None = None, kind: str | None = None) -> object: ...

    def RawOutputStream(self, *, samplerate: int, channels: int, dtype: str, device: int | str | None,
                        blocksize: int, latency: float, callback: _Callback) -> _Stream: ...


class _TimeInfo(Protocol):
    """PortAudio's times of a callback's block, in the stream's own clock."""

    outputBufferDacTime: float
    currentTime: float


class _Buffer(Protocol):
    """The block a stream's callback fills (a cffi buffer)."""

    def __setitem__(self, index: slice, value: bytes) -> None: ...


class _Callback(Protocol):
    def __call__(self, outdata: _Buffer, frames: int, timeinfo: _TimeInfo, status: object) -> None: ...


class NullOutput:
    """Plays nothing and waits for nothing: text mode and instant games."""

    live = False
    latency = 0.0

    def __init__(self) -> None:
        self._n = 0

    def start(self, pcm: bytes, at: float, speech: bool = True) -> int:
        self._n += 1
        return self._n

    def cancel(self, handle: int) -> None:
        pass

    def ambience(self, pcm: bytes | None, at: float, gain: float = 0.3) -> None:
        pass

    def onset(self, handle: int) -> float | None:
        return None

    def extend(self, t: float) -> None:
        pass

    def close(self) -> None:
        pass


class LiveOutput:
    """Shared by the speaker and the null sink: game seconds → frames through the game clock.

    Frame f of the stream is heard at monotonic time `anchor + f / RATE`; a clip for game
    second t goes to the frame where `clock.to_monotonic(t)` falls, or to the next frame
    still to be rendered if it comes late.
    """

    live = True
    latency = BUFFER
    """Seconds from handing a clip over to the earliest it can be heard."""

    def __init__(self, clock: GameClock, volume: float = 1.0):
        self.clock = clock
        self.mixer = Mixer(volume=volume)
        self.anchor = time.monotonic()
        self.rendered = 0
        """Frames rendered so far: a clip cannot go before this."""
        self.played_at: dict[int, float] = {}
        """Onset frame → monotonic time its block was really rendered (or handed to the device)."""

    def _frame(self, at: float) -> int:
        m = self.clock.to_monotonic(at) if hasattr(self.clock, "to_monotonic") else time.monotonic()
        return max(self.rendered, round((m - self.anchor) * RATE))

    def start(self, pcm: bytes, at: float, speech: bool = True) -> int:
        return self.mixer.place(pcm, self._frame(at), speech)

    def cancel(self, handle: int) -> None:
        self.mixer.cancel(handle, after=self.rendered)

    def ambience(self, pcm: bytes | None, at: float, gain: float = 0.3) -> None:
        if pcm is None:
            self.mixer.stop_ambience(self._frame(at))
        else:
            self.mixer.start_ambience(pcm, self._frame(at), gain)

    def onset(self, handle: int) -> float | None:
        frame = self.mixer.onsets.get(handle)
        if frame is None:
            return None
        m = self.played_at.get(frame, self.anchor + frame / RATE)
        return self.clock.from_monotonic(m) if hasattr(self.clock, "from_monotonic") else m

    def extend(self, t: float) -> None:
        pass

    def hush(self) -> None:
        """Ctrl-C: drop what is still to be heard, so `close` has nothing to drain."""
        self.mixer.silence(self.rendered)


class NullSink(LiveOutput):
    """`--audio null`: a sink clocked like a sound card, for a machine without one.

    Like a device with a `buffer`-second output buffer (0.2 s), a thread renders each 10 ms block
    `buffer` seconds before the block is "heard", and notes when each clip's first sample
    is heard: on its frame's time, or later if the thread rendered it too late (an
    underrun on a real card). Benchmarks read those onsets.
    """

    def __init__(self, clock: GameClock, volume: float = 1.0, buffer: float = BUFFER):
        super().__init__(clock, volume)
        self.buffer = self.latency = buffer
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="narrator-null-sink", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        raise_priority()
        while not self._stop.is_set():
            heard_at = self.anchor + self.rendered / RATE
            delay = heard_at - self.buffer - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            frame0 = self.rendered
            self.rendered = frame0 + BLOCK  # first, so a clip handed over now goes to a later block
            before = set(self.mixer.onsets)
            self.mixer.render(frame0, BLOCK)
            late = max(heard_at, time.monotonic())
            for clip_id in set(self.mixer.onsets) - before:
                frame = self.mixer.onsets[clip_id]
                self.played_at[frame] = late + (frame - frame0) / RATE

    def close(self) -> None:
        end = self.mixer.end_frame()
        while self.rendered < end and self._thread.is_alive():
            time.sleep(0.01)
        self._stop.set()
        self._thread.join(timeout=1)


class SpeakerOutput(LiveOutput):
    """A PortAudio device through sounddevice: one stream, its callback pulls from the mixer."""

    def __init__(self, clock: GameClock, device: str | int | None = None, volume: float = 1.0):
        super().__init__(clock, volume)
        sd = import_sounddevice()
        self.device = resolve_device(sd, device)
        try:
            self._stream = sd.RawOutputStream(samplerate=RATE, channels=1, dtype="int16", device=self.device,
                                              blocksize=BLOCK, latency=BUFFER, callback=self._callback)
            self._stream.start()
        except (sd.PortAudioError, ValueError) as err:
            raise AudioUnavailable(f"cannot open audio device {self.device!r} ({err}); "
                                   "pick another with --audio-device or use --audio null") from None

    def _callback(self, outdata: _Buffer, frames: int, timeinfo: _TimeInfo, status: object) -> None:
        # Re-anchor when the device clock and the monotonic clock part by more than 20 ms.
        dac = time.monotonic() + max(0.0, timeinfo.outputBufferDacTime - timeinfo.currentTime)
        drift = dac - (self.anchor + self.rendered / RATE)
        if self.rendered == 0 or abs(drift) > 0.02:
            if self.rendered == 0:
                raise_priority()
            self.anchor += drift
        frame0 = self.rendered
        self.rendered = frame0 + frames  # first, so a clip handed over now goes to a later block
        before = set(self.mixer.onsets)
        outdata[:] = self.mixer.render(frame0, frames)
        for clip_id in set(self.mixer.onsets) - before:
            frame = self.mixer.onsets[clip_id]
            self.played_at[frame] = dac + (frame - frame0) / RATE

    def close(self) -> None:
        end = self.mixer.end_frame()
        give_up = time.monotonic() + 30
        while self.rendered < end and time.monotonic() < give_up:
            time.sleep(0.01)
        self._stream.stop()
        self._stream.close()


class Tee:
    """A speaker (or null sink) and a recording at once: `--audio-out` while playing live."""

    def __init__(self, *outputs: AudioOutput):
        self.outputs = outputs
        self.live = any(getattr(o, "live", False) for o in outputs)
        self.latency = max(getattr(o, "latency", 0.0) for o in outputs)
        self._handles: dict[int, list[int]] = {}

    def start(self, pcm: bytes, at: float, speech: bool = True) -> int:
        handles = [o.start(pcm, at, speech) for o in self.outputs]
        self._handles[handles[0]] = handles
        return handles[0]

    def cancel(self, handle: int) -> None:
        for o, h in zip(self.outputs, self._handles.get(handle, [])):
            o.cancel(h)

    def ambience(self, pcm: bytes | None, at: float, gain: float = 0.3) -> None:
        for o in self.outputs:
            o.ambience(pcm, at, gain)

    def onset(self, handle: int) -> float | None:
        return self.outputs[0].onset(handle)

    def extend(self, t: float) -> None:
        for o in self.outputs:
            o.extend(t)

    def hush(self) -> None:
        for o in self.outputs:
            if hasattr(o, "hush"):
                o.hush()

    def close(self) -> None:
        for o in self.outputs:
            o.close()


def raise_priority() -> None:
    """Best effort: run the calling audio thread at nice −10 (allowed for root or CAP_SYS_NICE)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
    except (OSError, AttributeError):
        pass


def import_sounddevice() -> SoundDevice:
    """The sounddevice module (imported here only: without PortAudio, text mode still works)."""
    try:
        import sounddevice
    except OSError:
        raise AudioUnavailable("PortAudio is missing; install it with `sudo apt-get install libportaudio2`") from None
    except ImportError:
        raise AudioUnavailable("sounddevice is not installed; run `scripts/setup` (or `pip install sounddevice`)") from None
    return sounddevice


def resolve_device(sd: SoundDevice, device: str | int | None) -> int | str | None:
    """A device index or name that PortAudio has as an output, or AudioUnavailable naming the fix."""
    if isinstance(device, str) and device.strip().isdigit():
        device = int(device)
    try:
        sd.query_devices(device, kind="output")
    except (ValueError, sd.PortAudioError) as err:
        raise AudioUnavailable(
            f"no audio output device{'' if device is None else f' {device}'} ({err}); connect a speaker, "
            "pick one with --audio-device (see `narrator doctor`), or use --audio null"
        ) from None
    return device


def output_devices() -> list[str]:
    """`index: name` of every output device PortAudio sees (for doctor and errors)."""
    devices = import_sounddevice().query_devices()
    listed = devices if isinstance(devices, (list, tuple)) else ()  # sounddevice's DeviceList is a tuple
    return [f"{i}: {d['name']}" for i, d in enumerate(listed) if isinstance(d, dict) and _outputs(d) > 0]


def _outputs(device: dict[str, object]) -> int:
    """A device's output channels (0 when its entry lacks them)."""
    channels = device.get("max_output_channels", 0)
    return channels if isinstance(channels, int) else 0


def open_output(kind: str, clock: GameClock, device: str | None = None, volume: float = 1.0,
                record: Path | None = None) -> AudioOutput:
    """`null` → NullSink, `auto`/`device` → a speaker (raises AudioUnavailable), `none` → nothing;
    with `record`, a Recorder too."""
    if kind == "none":
        output: AudioOutput = NullOutput()
    elif kind == "null":
        output = NullSink(clock, volume)
    else:
        output = SpeakerOutput(clock, device, volume)
    if record is not None:
        recorder = Recorder(record, volume, keep=clock.now())  # a resumed game keeps its first part
        return recorder if kind == "none" else Tee(output, recorder)
    return output
