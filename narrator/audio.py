"""Where clips are heard: a speaker through sounddevice, or nowhere (a null sink).

sounddevice is imported only when a speaker is wanted: without PortAudio or a device,
text mode and the tests still work, and `open_output` explains what is missing in one
line. Clips are streamed as raw 16-bit frames, so NumPy is not needed on a Pi.
"""

from __future__ import annotations

import threading
import wave
from pathlib import Path
from typing import Protocol

from narrator.errors import NarratorError


class AudioUnavailable(NarratorError):
    """No way to play sound here; the message names the fix."""


class AudioOutput(Protocol):
    def start(self, wav: Path) -> None:
        """Begin playing a WAV file now and return at once."""

    def close(self) -> None:
        """Stop and release the device."""


class NullOutput:
    """Plays nothing. The scheduler's clock still keeps every clip's time."""

    def start(self, wav: Path) -> None:
        pass

    def close(self) -> None:
        pass


class SoundDeviceOutput:
    """Plays each clip on a PortAudio device in a background thread."""

    def __init__(self, device: str | int | None = None):
        try:
            import sounddevice
        except OSError:
            raise AudioUnavailable("PortAudio is missing; install it with `sudo apt-get install libportaudio2`") from None
        except ImportError:
            raise AudioUnavailable("sounddevice is not installed; run `pip install sounddevice`") from None
        self._sd = sounddevice
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        try:
            sounddevice.query_devices(device, kind="output")
        except (ValueError, sounddevice.PortAudioError) as err:
            raise AudioUnavailable(
                f"no audio output device ({err}); connect a speaker, pick one with --audio-device, or use --audio null"
            ) from None
        self.device = device
        self._threads: list[threading.Thread] = []

    def start(self, wav: Path) -> None:
        thread = threading.Thread(target=self._play, args=(wav,), daemon=True)
        thread.start()
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]

    def _play(self, wav: Path) -> None:
        with wave.open(str(wav), "rb") as w:
            frames = w.readframes(w.getnframes())
            rate, channels = w.getframerate(), w.getnchannels()
        with self._sd.RawOutputStream(samplerate=rate, channels=channels, dtype="int16", device=self.device) as stream:
            stream.write(frames)

    def close(self) -> None:
        for t in self._threads:
            t.join(timeout=5)


def open_output(kind: str, device: str | None = None) -> AudioOutput:
    """`null` → NullOutput; `device`/`auto` → a speaker (raises AudioUnavailable)."""
    if kind == "null":
        return NullOutput()
    return SoundDeviceOutput(device)
