"""The mixer: every clip placed at its own sample on one timeline, added into one buffer.

This is how the narrator keeps time to the sample: a countdown's eleven ticks are handed
to the mixer at once, each at frame `round(t * RATE)`, and whoever pulls audio out of it
(a speaker's callback, a clocked null sink, a WAV file) gets each tick exactly on its
second, however busy the CPU is when the scheduler wakes. The same code renders a live
block and a whole recorded session, so what `--audio-out` writes is what a table hears.

Also here: an ambience loop ducked (turned down) under speech, the master volume, and a
record of when each clip's first sample was actually rendered (its onset).
"""

from __future__ import annotations

import bisect
import threading
import warnings
from dataclasses import dataclass, field

from narrator.sound.clips import RATE, WIDTH

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # audioop: audioop-lts on Python ≥ 3.13
    import audioop

DUCK_GAIN = 0.25
"""Ambience level while a line is spoken, relative to its own level."""


@dataclass
class Placed:
    """A clip on the timeline: starts at frame `start`, plays `pcm` (16-bit mono)."""

    id: int
    start: int
    pcm: bytes
    speech: bool = True

    @property
    def end(self) -> int:
        return self.start + len(self.pcm) // WIDTH


@dataclass
class Ambience:
    """A loop played from `start` until `stop` (None: until stopped), under the speech."""

    pcm: bytes
    start: int
    stop: int | None
    gain: float


@dataclass
class Mixer:
    volume: float = 1.0
    placed: list[Placed] = field(default_factory=list)
    ambience: list[Ambience] = field(default_factory=list)
    onsets: dict[int, int] = field(default_factory=dict)
    """Clip id → the frame its first sample was rendered at."""
    _next_id: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    keep_played: bool = False
    """Keep clips after they are rendered (a recorder renders the whole timeline at the end)."""

    def place(self, pcm: bytes, start: int, speech: bool = True) -> int:
        """Put `pcm` on the timeline at frame `start`; returns an id for `cancel`."""
        with self._lock:
            self._next_id += 1
            clip = Placed(self._next_id, max(0, start), pcm, speech)
            starts = [p.start for p in self.placed]
            self.placed.insert(bisect.bisect_right(starts, clip.start), clip)
            return clip.id

    def cancel(self, clip_id: int, after: int | None = None) -> bool:
        """Take a clip off the timeline unless it has begun (before frame `after`)."""
        with self._lock:
            for i, p in enumerate(self.placed):
                if p.id == clip_id:
                    if after is not None and p.start < after:
                        return False
                    del self.placed[i]
                    return True
        return False

    def start_ambience(self, pcm: bytes, start: int, gain: float) -> None:
        with self._lock:
            if pcm and not any(a.stop is None for a in self.ambience):
                self.ambience.append(Ambience(pcm, start, None, gain))

    def stop_ambience(self, stop: int) -> None:
        with self._lock:
            for a in self.ambience:
                if a.stop is None:
                    a.stop = max(a.start, stop)

    def silence(self, frame: int) -> None:
        """Stop everything at `frame`: clips (begun or not) leave the timeline, ambience stops."""
        with self._lock:
            self.placed.clear()
            for a in self.ambience:
                a.stop = max(a.start, min(frame, a.stop if a.stop is not None else frame))

    def end_frame(self) -> int:
        """The last frame anything on the timeline reaches (stopped ambience included)."""
        with self._lock:
            ends = [p.end for p in self.placed] + [a.stop for a in self.ambience if a.stop is not None]
        return max(ends, default=0)

    def speaking(self, frame: int) -> bool:
        with self._lock:
            return any(p.speech and p.start <= frame < p.end for p in self.placed)

    def render(self, frame0: int, n: int) -> bytes:
        """`n` frames of the mix starting at timeline frame `frame0`."""
        out = bytes(n * WIDTH)
        end = frame0 + n
        with self._lock:
            active = [p for p in self.placed if p.start < end and p.end > frame0]
            ambience = [a for a in self.ambience if a.start < end and (a.stop is None or a.stop > frame0)]
            if not self.keep_played:
                self.placed = [p for p in self.placed if p.end > end]
                self.ambience = [a for a in self.ambience if a.stop is None or a.stop > end]
        speech_spans = []
        for p in active:
            if p.id not in self.onsets:  # its first sample heard (late if placed in the past)
                self.onsets[p.id] = max(p.start, frame0)
            out = audioop.add(out, _window(p.pcm, p.start, frame0, n), WIDTH)
            if p.speech:
                speech_spans.append((max(p.start, frame0) - frame0, min(p.end, end) - frame0))
        for a in ambience:
            lo, hi = max(frame0, a.start) - frame0, (n if a.stop is None else min(end, a.stop) - frame0)
            loop = bytearray(audioop.mul(_loop_window(a.pcm, a.start, frame0, n), WIDTH, a.gain))
            loop[: lo * WIDTH] = bytes(lo * WIDTH)
            loop[hi * WIDTH:] = bytes((n - hi) * WIDTH)
            for s0, s1 in speech_spans:  # ducked, to the sample, under every spoken clip
                loop[s0 * WIDTH:s1 * WIDTH] = audioop.mul(bytes(loop[s0 * WIDTH:s1 * WIDTH]), WIDTH, DUCK_GAIN)
            out = audioop.add(out, bytes(loop), WIDTH)
        if self.volume != 1.0:
            out = audioop.mul(out, WIDTH, self.volume)
        return out


def _window(pcm: bytes, start: int, frame0: int, n: int) -> bytes:
    """The part of a clip that falls in frames [frame0, frame0 + n), zero-padded."""
    lead = start - frame0
    if lead >= 0:
        body = pcm[: (n - lead) * WIDTH]
        return bytes(lead * WIDTH) + body + bytes((n - lead) * WIDTH - len(body))
    body = pcm[-lead * WIDTH: (n - lead) * WIDTH]
    return body + bytes(n * WIDTH - len(body))


def _loop_window(pcm: bytes, start: int, frame0: int, n: int) -> bytes:
    """`n` frames of a loop that began at `start`, from timeline frame `frame0`."""
    length = len(pcm) // WIDTH
    pos = (frame0 - start) % length
    out = b""
    while len(out) < n * WIDTH:
        take = pcm[pos * WIDTH:(pos + n) * WIDTH - len(out)]
        out += take
        pos = 0
    return out[: n * WIDTH]


def seconds_to_frame(t: float) -> int:
    return round(t * RATE)
