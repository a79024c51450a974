"""`--audio-out FILE.wav`: the session written to a file, each clip at its place on the game timeline.

The one output that keeps no time of its own: game second t is frame t × RATE, nothing is
heard while the game runs, and the whole session (silence included) is written when it
closes, through a `.part` file replaced at once, so a crash never leaves half a WAV. A
resumed game keeps what the file held up to the stop, so the WAV is the whole game. Live
outputs (`outputs.py`) map game seconds through the clock to a device's frames; this one
only files, which is why it stands apart from them.
"""

from __future__ import annotations

import wave
from pathlib import Path

from narrator.sound.clips import RATE, WIDTH
from narrator.sound.mixer import Mixer, seconds_to_frame


class Recorder:
    """`--audio-out FILE.wav`: the session as heard, each clip at its place on the game timeline."""

    live = False
    latency = 0.0

    def __init__(self, path: Path, volume: float = 1.0, keep: float = 0.0):
        """`keep`: a resumed game starts at that game second; what the file already holds
        up to it (the game before the stop) is kept, so the WAV is the whole game."""
        self.path = path
        self.mixer = Mixer(volume=volume, keep_played=True)
        self._end = 0
        self._before = _recorded_until(path, seconds_to_frame(keep)) if keep > 0 else b""
        self._end = len(self._before) // WIDTH

    def start(self, pcm: bytes, at: float, speech: bool = True) -> int:
        return self.mixer.place(pcm, seconds_to_frame(at), speech)

    def cancel(self, handle: int) -> None:
        self.mixer.cancel(handle)

    def ambience(self, pcm: bytes | None, at: float, gain: float = 0.3) -> None:
        if pcm is None:
            self.mixer.stop_ambience(seconds_to_frame(at))
        else:
            self.mixer.start_ambience(pcm, seconds_to_frame(at), gain)

    def onset(self, handle: int) -> float | None:
        for p in self.mixer.placed:
            if p.id == handle:
                return p.start / RATE
        return None

    def extend(self, t: float) -> None:
        self._end = max(self._end, seconds_to_frame(t))

    def close(self) -> None:
        self.mixer.stop_ambience(self._end)
        end = max(self._end, self.mixer.end_frame())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".part")
        with wave.open(str(tmp), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(WIDTH)
            w.setframerate(RATE)
            w.writeframes(self._before)  # as written before the resume: mixed and at its volume already
            for frame0 in range(len(self._before) // WIDTH, end, RATE):
                w.writeframes(self.mixer.render(frame0, min(RATE, end - frame0)))
        tmp.replace(self.path)


def _recorded_until(path: Path, frames: int) -> bytes:
    """The first `frames` of a WAV this recorder wrote before (mono, its width and rate), else nothing."""
    try:
        with wave.open(str(path), "rb") as w:
            if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, WIDTH, RATE):
                return b""
            return w.readframes(frames)
    except (OSError, EOFError, wave.Error):
        return b""
