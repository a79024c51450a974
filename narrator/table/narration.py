"""The narration: a clip said on its slot of the timeline, shown, and written down.

The one way a line is heard, whichever part of the scheduler says it: the clip is handed
to the output `LEAD` seconds before its slot *with its start time* (the mixer puts it on
its exact sample), shown on the display, written to the transcript at that start, and the
listeners are told when it will be heard (so the microphone mutes). A countdown hands all
its ticks over at once with `hand_over` and tells the rest as each deadline passes.

It also keeps what the step has said so far, which `repeat` says again, and the step's
context (its night and day), which every record carries.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.cues import Ask, Event
from narrator.inputs.hub import ListenerHub
from narrator.sound.outputs import AudioOutput
from narrator.sound.voice import Clip
from narrator.table.display import ConsoleDisplay
from narrator.table.timeline import Timeline
from narrator.table.transcript import Transcript

LEAD = 0.5
"""Seconds ahead of its start a clip is handed to the output (it waits there, on its sample);
more than the live outputs' buffer (`audio.BUFFER`), with room for a late wake-up."""


class Narration:
    """Says clips on the timeline; keeps the step's context and what it has said."""

    def __init__(self, output: AudioOutput, hub: ListenerHub, transcript: Transcript,
                 display: ConsoleDisplay, timeline: Timeline):
        self.output, self.hub, self.transcript, self.timeline = output, hub, transcript, timeline
        self.display = display
        """Swapped whole by a test that types what it sees; the other parts show through it."""
        self.context: dict[str, Any] = {}
        self.last: Clip | None = None
        """The last clip said: what `repeat` says again between cues."""
        self.instruction: Clip | None = None
        """The last line this step said (not a question): what `repeat` says again during a
        countdown, and before the question at a question."""

    def begin_step(self, context: dict[str, Any]) -> None:
        """A new step: its context, and no instruction of its own yet."""
        self.context = context
        self.instruction = None

    async def say(self, clip: Clip, kind: str, prompt: Ask | None = None, **extra: object) -> None:
        """Say `clip` on its slot; with `prompt`, show the question's keys as it begins."""
        start = self.timeline.slot()
        await self.timeline.sleep_until(start - LEAD)
        self.hand_over(clip, start)
        if prompt is not None:
            self.display.prompt(prompt)
        self.record(kind, clip.spoken.line, clip.spoken.text, start, **extra)
        self.last = clip
        self.timeline.cursor = start + clip.duration
        self.heard_at(start, clip)
        await self.timeline.sleep_until(self.timeline.cursor)

    def hand_over(self, clip: Clip, at: float, show: bool = True) -> int | None:
        """Hand the clip to the output to start at game second `at`; returns its handle."""
        handle = self.output.start(clip.pcm, at) if clip.pcm is not None else None
        if show:
            self.show(clip)
        return handle

    def heard_at(self, start: float, clip: Clip) -> None:
        """Tell listeners (to mute) when the clip is heard, not when it is handed over ahead."""
        if clip.wav is None:
            return
        delay = (start - self.timeline.now()) * getattr(self.timeline.clock, "scale", 0.0)
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self.hub.speaking, clip.duration, clip.wav)
        else:
            self.hub.speaking(clip.duration, clip.wav)

    def show(self, clip: Clip) -> None:
        if clip.spoken.line == "tick":
            self.display.tick(clip.spoken.text)
        else:
            self.display.line(clip.spoken.text)

    def at_night(self) -> bool:
        return self.context.get("night", 0) > self.context.get("day", 0)

    def record(self, kind: str, line: str, text: str, t: float, **extra: object) -> None:
        self.transcript.write({"kind": kind, "line": line, "text": text, "t": round(t, 3), **self.context, **extra})

    def record_event(self, cue: Event) -> None:
        """A silent state change; its own night or day replaces the step's context."""
        context = {} if cue.night is not None or cue.day is not None else self.context
        self.transcript.write({"kind": "event", **context, **cue.record(), "t": round(self.timeline.slot(), 3)})
