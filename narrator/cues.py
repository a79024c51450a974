"""The cue types a game emits: what to say and when, never how it sounds.

A game's `advance` returns a list of cues; the scheduler plays them. Cues are plain,
JSON-serialisable data so the store can snapshot the step in progress and `resume`
can play it again exactly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Cue:
    """Base of all cues; `kind` names the type in snapshots and transcripts."""

    kind: ClassVar[str] = "cue"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class Say(Cue):
    """Speak the voice-pack line `line`, filling its placeholders from `params`."""

    kind: ClassVar[str] = "say"
    line: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Countdown(Cue):
    """Count aloud from `seconds` down to 0, one number on each second.

    A `done` from any listener ends it early (the table has finished).
    """

    kind: ClassVar[str] = "countdown"
    seconds: int


@dataclass(frozen=True)
class Timer(Cue):
    """A silent timer of `seconds` with spoken warnings at the given seconds left.

    `line` names the timer (e.g. "discussion") for the transcript; `done` ends it early.
    """

    kind: ClassVar[str] = "timer"
    line: str
    seconds: int
    warnings: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ask(Cue):
    """Speak the question `line` and wait for one answer from the listeners.

    `choices` are the allowed answers: "yes"/"no", "done", or player names. With
    `multiple`, a comma-separated list of names is one answer. With `player`, the answer
    is private: only that player's phone (or a script) may give it, and the transcript
    records neither who was asked nor what was answered.
    """

    kind: ClassVar[str] = "ask"
    line: str
    choices: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    multiple: bool = False
    player: str | None = None


@dataclass(frozen=True)
class End(Cue):
    """The game is over: speak `line` and record the outcome."""

    kind: ClassVar[str] = "end"
    line: str
    winner: str
    params: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)


CUE_TYPES: dict[str, type[Cue]] = {c.kind: c for c in (Say, Countdown, Timer, Ask, End)}


def cue_from_dict(data: dict[str, Any]) -> Cue:
    """Rebuild a cue from `Cue.to_dict` output (tuples come back from JSON lists)."""
    cls = CUE_TYPES[data["kind"]]
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**kwargs)


def spoken_lines(cues: list[Cue]) -> list[str]:
    """Every line id a list of cues may speak (for the voice-pack completeness test)."""
    return [c.line for c in cues if isinstance(c, (Say, Ask, End))]
