"""Clip processing: every clip the narrator plays has one format, no padding, one loudness.

Engines pad (Open JTalk ~0.4 s before and ~0.5 s after each line) and differ in level and
sample rate. A countdown number must start *on* its second, so leading silence is cut;
trailing silence is cut so a line's measured length is its spoken length; and every clip
is brought to the same loudness so a recorded line sits beside a synthesized one. The
result is 16-bit mono PCM at `RATE`, the format the mixer adds together without converting.
pydub (and its audioop) does the work; pydub is imported here only.
"""

from __future__ import annotations

import warnings
import wave
from pathlib import Path
from types import ModuleType
from typing import Protocol

RATE = 24_000
"""Samples per second of every processed clip and of the mixer: plenty for speech, light on a Pi."""
WIDTH = 2
TARGET_DBFS = -20.0
"""Loudness (RMS, dBFS) every clip is normalized to; peaks are kept below `PEAK_LIMIT_DBFS`."""
PEAK_LIMIT_DBFS = -1.0
SILENCE_THRESHOLD_DB = -45.0
"""A stretch quieter than this, relative to the clip's peak, counts as silence when trimming."""
FADE_MS = 3
"""A trimmed clip fades in and out over this long, so it does not start or stop on a click."""
ONSET_FRAME_MS = 10
ONSET_WITHIN_DB = 20.0
"""A clip's audible onset: its first `ONSET_FRAME_MS` frame within this many dB of its loudest frame."""
ONSET_KEEP_MS = 30
"""Onset trimming keeps this much before the onset frame (the consonant that leads into it)."""


class Segment(Protocol):
    """What `audible_onset_ms` reads of a pydub `AudioSegment` (pydub ships no type hints):
    its length and slices in milliseconds, and a slice's loudness."""

    @property
    def dBFS(self) -> float: ...

    def __len__(self) -> int: ...

    def __getitem__(self, ms: slice) -> Segment: ...


def _pydub() -> tuple[ModuleType, ModuleType]:
    """pydub and its `silence` module, imported on first use (without its ffmpeg warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydub warns about ffmpeg, which WAV does not need
        import pydub
        from pydub import silence
    return pydub, silence


def process(raw: Path, out: Path, trim: bool = True, normalize: bool = True, onset: bool = False) -> None:
    """Read any WAV `raw`, write it to `out` as trimmed, normalized 16-bit mono at `RATE`.

    With `onset` (countdown numbers), the lead is trimmed up to `ONSET_KEEP_MS` before the
    audible onset too: a quiet breath or a soft first mora (Open JTalk's 「1」 starts 0.4 s
    before it is heard) would otherwise put the number late on its second.
    """
    pydub, silence = _pydub()
    sound = pydub.AudioSegment.from_wav(str(raw))
    sound = sound.set_channels(1).set_sample_width(WIDTH).set_frame_rate(RATE)
    if trim and len(sound) > 0 and sound.max_dBFS != float("-inf"):
        threshold = sound.max_dBFS + SILENCE_THRESHOLD_DB
        start = silence.detect_leading_silence(sound, silence_threshold=threshold, chunk_size=1)
        if onset:
            start = max(start, audible_onset_ms(sound) - ONSET_KEEP_MS)
        end = len(sound) - silence.detect_leading_silence(sound.reverse(), silence_threshold=threshold, chunk_size=1)
        if end > start:
            sound = sound[start:end].fade_in(FADE_MS).fade_out(FADE_MS)
    if normalize and sound.rms > 0:
        sound = sound.apply_gain(TARGET_DBFS - sound.dBFS)
        if sound.max_dBFS > PEAK_LIMIT_DBFS:
            sound = sound.apply_gain(PEAK_LIMIT_DBFS - sound.max_dBFS)
    out.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(WIDTH)
        w.setframerate(RATE)
        w.writeframes(sound.raw_data)


def audible_onset_ms(sound: Segment) -> int:
    """Milliseconds from the start of `sound` (a pydub segment) to its first 10 ms frame
    within `ONSET_WITHIN_DB` of its loudest frame: when a listener hears it begin."""
    frames = [sound[i:i + ONSET_FRAME_MS] for i in range(0, len(sound), ONSET_FRAME_MS)]
    levels = [f.dBFS for f in frames]
    loudest = max(levels, default=float("-inf"))
    if loudest == float("-inf"):
        return 0
    return next(i for i, level in enumerate(levels) if level >= loudest - ONSET_WITHIN_DB) * ONSET_FRAME_MS


def audible_onset(path: Path) -> float:
    """Seconds from the start of WAV `path` to its audible onset (see `audible_onset_ms`)."""
    pydub, _ = _pydub()
    return audible_onset_ms(pydub.AudioSegment.from_wav(str(path))) / 1000.0


def read_pcm(path: Path) -> bytes:
    """The frames of a processed clip (16-bit mono at `RATE`); anything else is converted."""
    with wave.open(str(path), "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, WIDTH, RATE):
            return w.readframes(w.getnframes())
    pydub, _ = _pydub()
    sound = pydub.AudioSegment.from_wav(str(path)).set_channels(1).set_sample_width(WIDTH).set_frame_rate(RATE)
    return sound.raw_data


def write_pcm(path: Path, frames: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(WIDTH)
        w.setframerate(RATE)
        w.writeframes(frames)


def measure(path: Path) -> dict[str, float]:
    """Length, loudness and edge silence of a WAV file (for tests, `voices check`, doctor)."""
    pydub, silence = _pydub()
    sound = pydub.AudioSegment.from_wav(str(path))
    lead = trail = 0
    if sound.max_dBFS != float("-inf"):
        threshold = sound.max_dBFS + SILENCE_THRESHOLD_DB
        lead = silence.detect_leading_silence(sound, silence_threshold=threshold, chunk_size=1)
        trail = silence.detect_leading_silence(sound.reverse(), silence_threshold=threshold, chunk_size=1)
    return {
        "seconds": len(sound) / 1000.0,
        "dbfs": sound.dBFS,
        "peak_dbfs": sound.max_dBFS,
        "lead_s": lead / 1000.0,
        "trail_s": trail / 1000.0,
        "rate": float(sound.frame_rate),
    }
