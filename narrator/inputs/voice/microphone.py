"""Where heard audio comes from: a microphone, a WAV file, or a test's scripted microphone.

Every source yields 16-bit mono PCM chunks at the engine's rate, so the recognition code
path is the same whether a table speaks, a recording is replayed (`narrator listen --wav`)
or a test plays WAVs into the listener. sounddevice is imported only for a microphone.
"""

from __future__ import annotations

import array
from functools import lru_cache
import queue
import warnings
import wave
from pathlib import Path
from typing import Iterator, Mapping, Protocol

from narrator.errors import NarratorError

CHUNK_SECONDS = 0.1


class InputUnavailable(NarratorError):
    """No microphone can be opened; the message names the fix."""


def to_mono16(frames: bytes, width: int, channels: int, rate: int, target_rate: int) -> bytes:
    """Raw WAV frames as 16-bit mono PCM at `target_rate`."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import audioop  # in the standard library up to Python 3.12
    except ImportError:  # pragma: no cover - Python 3.13+: the slow pure-Python way
        return _to_mono16_python(frames, width, channels, rate, target_rate)
    if width != 2:
        frames = audioop.lin2lin(frames, width, 2)
    if channels == 2:
        frames = audioop.tomono(frames, 2, 0.5, 0.5)
    elif channels != 1:
        raise NarratorError(f"audio with {channels} channels is not supported; use mono or stereo")
    if rate != target_rate:
        frames, _ = audioop.ratecv(frames, 2, 1, rate, target_rate, None)
    return frames


def loudness(pcm: bytes) -> float:
    """Root mean square of 16-bit samples (0 for silence, ~3000 for speech close to a mic)."""
    samples = array.array("h", pcm)
    if not samples:
        return 0.0
    return (sum(s * s for s in samples[::4]) / len(samples[::4])) ** 0.5


@lru_cache(maxsize=512)
def audible_seconds(path: Path | str, threshold: int = 500) -> float:
    """Seconds from the start of a WAV clip to its last sample louder than `threshold`."""
    try:
        with wave.open(str(path), "rb") as w:
            rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            frames = w.readframes(w.getnframes())
    except (OSError, wave.Error, EOFError):
        return float("inf")  # unreadable: the caller mutes for the clip's whole length
    if width != 2:
        return len(frames) / (width * channels * rate)
    samples = array.array("h", frames)
    for i in range(len(samples) - 1, -1, -1):
        if abs(samples[i]) > threshold:
            return (i // channels + 1) / rate
    return 0.0


def _to_mono16_python(frames: bytes, width: int, channels: int, rate: int, target_rate: int) -> bytes:
    if width != 2:
        raise NarratorError("without audioop only 16-bit WAV files can be read; convert the file to 16-bit")
    samples = array.array("h", frames)
    if channels > 1:
        samples = array.array("h", (sum(samples[i:i + channels]) // channels for i in range(0, len(samples), channels)))
    if rate != target_rate:
        n = int(len(samples) * target_rate / rate)
        samples = array.array("h", (samples[min(len(samples) - 1, int(i * rate / target_rate))] for i in range(n)))
    return samples.tobytes()


def read_wav(path: Path, rate: int) -> bytes:
    """A WAV file as 16-bit mono PCM at `rate`; a bad file is one clear line."""
    try:
        with wave.open(str(path), "rb") as w:
            frames = w.readframes(w.getnframes())
            return to_mono16(frames, w.getsampwidth(), w.getnchannels(), w.getframerate(), rate)
    except FileNotFoundError:
        raise NarratorError(f"no such recording {path}; check the path given to --wav") from None
    except (wave.Error, EOFError) as err:
        raise NarratorError(f"{path} is not a PCM WAV file ({err}); convert it to 16-bit PCM WAV") from None


def chunked(pcm: bytes, rate: int, seconds: float = CHUNK_SECONDS) -> Iterator[bytes]:
    step = int(rate * seconds) * 2
    for i in range(0, len(pcm), step):
        yield pcm[i:i + step]


class WavSource:
    """A recording, chunk by chunk (as fast as it can be read), with trailing silence."""

    def __init__(self, path: Path, rate: int, tail_silence: float = 0.5):
        self.path, self.rate = Path(path), rate
        self.pcm = read_wav(self.path, rate) + b"\0\0" * int(rate * tail_silence)

    def chunks(self) -> Iterator[bytes]:
        yield from chunked(self.pcm, self.rate)

    def close(self) -> None:
        pass


class QueueSource:
    """A microphone a program plays into (tests, benchmarks): `push` PCM, `close` to end."""

    def __init__(self, rate: int):
        self.rate = rate
        self._queue: queue.Queue[bytes | None] = queue.Queue()

    def push(self, pcm: bytes) -> None:
        for chunk in chunked(pcm, self.rate):
            self._queue.put(chunk)

    def push_wav(self, path: Path, silence_after: float = 1.5) -> None:
        self.push(read_wav(Path(path), self.rate) + b"\0\0" * int(self.rate * silence_after))

    def chunks(self) -> Iterator[bytes]:
        while (chunk := self._queue.get()) is not None:
            yield chunk

    def close(self) -> None:
        self._queue.put(None)


_RatecvState = tuple[int, tuple[tuple[int, int], ...]]
"""`audioop.ratecv`'s state between two chunks (as typeshed spells it)."""


class InputDevices(Protocol):
    """What the microphone asks of the `sounddevice` module (untyped): whether a device records
    at a rate, and a device's entry (a dict, with its `default_samplerate`)."""

    PortAudioError: type[Exception]

    def check_input_settings(self, *, device: str | int | None, channels: int, dtype: str,
                             samplerate: int) -> None: ...

    def query_devices(self, device: str | int | None, kind: str) -> Mapping[str, object]: ...


class Microphone:
    """A PortAudio input device, read in blocks by sounddevice's callback thread."""

    def __init__(self, rate: int, device: str | int | None = None):
        try:
            import sounddevice
        except OSError:
            raise InputUnavailable("PortAudio is missing; install it with `sudo apt-get install libportaudio2`") from None
        except ImportError:
            raise InputUnavailable("sounddevice is not installed; run `pip install sounddevice`") from None
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        self.rate = rate
        self.device_rate = self._usable_rate(sounddevice, device, rate)
        self._closed = False
        self._resample_state: _RatecvState | None = None  # audioop.ratecv's own state, handed back to it
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        self._stream = sounddevice.RawInputStream(
            samplerate=self.device_rate, blocksize=int(self.device_rate * CHUNK_SECONDS), device=device, channels=1,
            dtype="int16", callback=lambda data, frames, time, status: self._queue.put(bytes(data)),
        )

    @staticmethod
    def _usable_rate(sounddevice: InputDevices, device: str | int | None, rate: int) -> int:
        """`rate` if the device records at it, else the device's own rate (resampled here).

        Many USB microphones opened by hardware index record only at 44.1 or 48 kHz.
        """
        try:
            sounddevice.check_input_settings(device=device, channels=1, dtype="int16", samplerate=rate)
            return rate
        except (ValueError, sounddevice.PortAudioError) as first:
            try:
                native = sounddevice.query_devices(device, kind="input").get("default_samplerate")
                if not isinstance(native, (int, float)):
                    raise ValueError(f"the device names no sample rate ({native!r})")
                sounddevice.check_input_settings(device=device, channels=1, dtype="int16", samplerate=int(native))
                return int(native)
            except (ValueError, sounddevice.PortAudioError):
                raise InputUnavailable(
                    f"no microphone ({first}); connect one, pick it with --input-device, or play with the keyboard"
                ) from None

    def _to_rate(self, chunk: bytes) -> bytes:
        if self.device_rate == self.rate:
            return chunk
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import audioop
        chunk, self._resample_state = audioop.ratecv(chunk, 2, 1, self.device_rate, self.rate, self._resample_state)
        return chunk

    def chunks(self) -> Iterator[bytes]:
        self._stream.start()
        try:
            while (chunk := self._queue.get()) is not None and not self._closed:
                yield self._to_rate(chunk)
        finally:
            self._stream.stop()
            self._stream.close()

    def close(self) -> None:
        """End `chunks` now, however much audio is queued (the reading thread releases the device)."""
        self._closed = True
        self._queue.put(None)
