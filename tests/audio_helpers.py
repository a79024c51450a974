"""Helpers for the audio tests: make WAVs, read them, find onsets by looking at the samples."""

from __future__ import annotations

import array
import math
import wave
from pathlib import Path

from narrator.sound.clips import RATE


def tone(seconds: float, freq: float = 440.0, amp: float = 0.3, rate: int = RATE) -> array.array:
    return array.array("h", (round(amp * 32767 * math.sin(2 * math.pi * freq * i / rate)) for i in range(int(seconds * rate))))


def silence(seconds: float, rate: int = RATE) -> array.array:
    return array.array("h", bytes(2 * int(seconds * rate)))


def write_wav(path: Path, samples: array.array, rate: int = RATE) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())
    return path


def read_wav(path: Path) -> tuple[array.array, int]:
    with wave.open(str(path), "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        return array.array("h", w.readframes(w.getnframes())), w.getframerate()


def rms_dbfs(samples: array.array) -> float:
    if not samples:
        return -math.inf
    mean = sum(s * s for s in samples) / len(samples)
    return 20 * math.log10(math.sqrt(mean) / 32768) if mean else -math.inf


def first_sound(samples: array.array, rate: int, start_s: float, end_s: float, threshold: int = 300) -> float | None:
    """The first time in [start_s, end_s) where |sample| exceeds `threshold`."""
    for i in range(max(0, int(start_s * rate)), min(len(samples), int(end_s * rate))):
        if abs(samples[i]) > threshold:
            return i / rate
    return None
