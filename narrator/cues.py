"""The vocabulary between the game loop and a game: the events it is advanced by, and
the cues it emits (what to say and when, never how it sounds).

A game's `advance(config, state, event)` returns a list of cues; the scheduler plays them.
Cues are plain, JSON-serialisable data so the store can snapshot the step in progress and
`resume` can play it again exactly. Events (start, answer, continue, undo) are small frozen
data too: the runner appends `event.to_dict()` to the saved game's log and reads it back with
`event_from_dict`; those dicts are the log's format, unchanged from the games saved before
events were typed (`{"type": "answer", "value": "no", "source": "keyboard"}`), so every
saved game still resumes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Mapping, Union


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
class CountIn(Say):
    """A count-in the table acts on at once (「せーの。」): said like any line, but it ends the
    step's instruction, so a `repeat` of the question after it says the question alone. The
    pointing it started is over: saying it again would ask the table to point again."""

    kind: ClassVar[str] = "count_in"


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
    help: tuple[str, ...] = ()
    """Line ids spoken (in order) when a listener asks for `help` while this question is open."""
    ends_game: tuple[str, ...] = ()
    """The answers that end the game (set by the rules): repeated back and confirmed before
    they count, at the keyboard too, since no undo can take them back once the game is over."""
    most: int = 0
    """With `multiple`: at most this many names (0: any number), refused as it is typed or said,
    like any answer that does not fit (one-night's pointing: at most half the table)."""
    silent: bool = False
    """A private question for its player's screen alone (`player`), never said aloud nor
    written to the shared transcript, whoever answers it: passing one device, a script in the
    holder's place answers it unheard (the turn would tell the table whose it is)."""

    def ends_with(self, value: object) -> bool:
        """Whether the answer `value` (a word, or names) is one that ends the game."""
        return any(v in self.ends_game for v in (value if isinstance(value, (list, tuple)) else [value]))


@dataclass(frozen=True)
class End(Cue):
    """The game is over: speak `line` and record the outcome."""

    kind: ClassVar[str] = "end"
    line: str
    winner: str
    params: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Private(Cue):
    """A line for one player's eyes only (`to`): a role card, the prophet's result …

    Never spoken. The scheduler writes it to the transcript as `kind: "private"` and hands
    it to the private channel (a pass-the-device screen now, phones later).
    """

    kind: ClassVar[str] = "private"
    to: str
    line: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    """What one player is asked privately inside a `Collect`.

    `line` is the prompt (a voice-pack line shown, not spoken), `choices` the player names
    the answer may name. With `ability`, the answer also carries the yes/no questionnaire.
    The answer is `{"target": name, "ability": bool}` (night memo) or `{"vote": name}`.
    """

    player: str
    line: str
    choices: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    ability: bool = False
    key: str = "target"
    """The answer's field naming the chosen player: "target" (memo) or "vote"."""

    def check(self, answer: object) -> dict[str, Any]:
        """The answer in canonical form, or raise ValueError saying what would fit."""
        if not isinstance(answer, dict):
            raise ValueError(f"the answer for {self.player} must be an object, not {answer!r}")
        value = answer.get(self.key)
        if value not in self.choices:
            raise ValueError(
                f"{self.key} '{value}' is not allowed for {self.player}; choose from {', '.join(self.choices)}"
            )
        out: dict[str, Any] = {self.key: value}
        if self.ability:
            ability = answer.get("ability")
            if not isinstance(ability, bool):
                raise ValueError(f"'ability' for {self.player} must be true or false, not {ability!r}")
            out["ability"] = ability
        return out


@dataclass(frozen=True)
class Collect(Cue):
    """Collect one private answer from each player in `requests`, in any order.

    `phase` ("night", "vote", "revote") and `number` (night or day) name the round, so a
    scripted answers file can be keyed by it. The scheduler returns every answer at once as
    `{player: answer}`; the game's next event carries that mapping as its `value`.
    """

    kind: ClassVar[str] = "collect"
    phase: str
    number: int
    requests: tuple[Request, ...]
    closes_with_timer: bool = False
    """When the round runs beside the timer before it (phones), the timer's end closes it:
    the answers given so far count and the missing ones are left out (a house rule)."""
    seats: tuple[str, ...] = ()
    """The table's players in seat order (dead ones too), so every screen numbers a choice by
    its seat (position + 1), the same number for the same player; empty: number each list."""
    call: bool = False
    """A night call's private round (a game file's choosing call): it opens as the `Countdown`
    before it starts and that countdown's end closes it, which always runs its whole length
    (never ended by the answers), and it is open even when nobody is asked (a role in the
    centre or dead), so the call sounds, lasts and looks on the wire the same whoever holds
    the card. A plain answers file answers its requests in order, one line each."""


@dataclass(frozen=True)
class Event(Cue):
    """A change of state worth a transcript record (death, revival, reform …). Silent.

    Written as `kind: "event"` with `type`, `player`, `cause`, and `night` or `day`.
    """

    kind: ClassVar[str] = "event"
    type: str
    player: str | None = None
    cause: str | None = None
    night: int | None = None
    day: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """The transcript fields of this event (None fields left out)."""
        out: dict[str, Any] = {"type": self.type}
        for key in ("player", "cause", "night", "day"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return {**out, **self.data}


@dataclass(frozen=True)
class TurnClock(Cue):
    """Start (or, with `seconds` 0, stop) a chess-clock turn timer that runs across the
    following cues and questions without blocking them: it speaks `warning_line` at each
    of `warnings` seconds left and `end_line` when the time is up. A new one replaces it.
    """

    kind: ClassVar[str] = "turn_clock"
    line: str
    seconds: int
    warnings: tuple[int, ...] = ()
    warning_line: str = "timer.warning"
    end_line: str = ""


CUE_TYPES: dict[str, type[Cue]] = {c.kind: c for c in (Say, CountIn, Countdown, Timer, Ask, End, TurnClock, Private, Collect, Event)}


def cue_from_dict(data: dict[str, Any]) -> Cue:
    """Rebuild a cue from `Cue.to_dict` output (tuples come back from JSON lists)."""
    cls = CUE_TYPES[data["kind"]]
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            if f.name == "requests":
                value = [_request_from_dict(r) for r in value]
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**kwargs)


def _request_from_dict(data: dict[str, Any]) -> Request:
    return Request(**{**data, "choices": tuple(data["choices"])})


def said_lines(cue: Cue) -> list[tuple[str, dict[str, Any]]]:
    """What the narrator may be asked to say for `cue`, as (line id, params): the one answer
    to "what does this say", shared by render-ahead (`narrator.sound.render_ahead`) and the
    packs' completeness check (`spoken_lines`). A question's help lines, a countdown's
    numbers, a timer's warnings and a turn clock's warnings (at the table's own seconds)
    and its end line count, as the scheduler says them."""
    if isinstance(cue, Ask):
        return [(cue.line, dict(cue.params)), *((line, {}) for line in cue.help)]
    if isinstance(cue, (Say, End)):
        return [(cue.line, dict(cue.params))]
    if isinstance(cue, Countdown):
        return [("tick", {"n": n}) for n in range(cue.seconds, -1, -1)]
    if isinstance(cue, Timer):
        return [("timer.warning", {"seconds": w}) for w in cue.warnings if w < cue.seconds]
    if isinstance(cue, TurnClock) and cue.seconds > 0:
        warnings = sorted({w for w in cue.warnings if 0 < w < cue.seconds}, reverse=True)
        return [(cue.warning_line, {"seconds": w}) for w in warnings] + ([(cue.end_line, {})] if cue.end_line else [])
    return []


def spoken_lines(cues: list[Cue]) -> list[str]:
    """Every line id a list of cues may speak or show (for the voice-pack completeness test):
    what they say (`said_lines`) and the private lines and requests shown on one screen."""
    spoken = []
    for c in cues:
        spoken += [line for line, _ in said_lines(c)]
        if isinstance(c, Private):
            spoken.append(c.line)
        if isinstance(c, Collect):
            spoken += [r.line for r in c.requests]
    return spoken


# --- events: what happened at the table -------------------------------------------------

@dataclass(frozen=True)
class Start:
    """A new game: the first step (welcome, deal) is played from a fresh state."""

    type: ClassVar[str] = "start"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class Continue:
    """The step's cues were all played and nothing was asked: go on to the next step."""

    type: ClassVar[str] = "continue"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class Answer:
    """The table answered the open question: a word, a name, a list of names or a round's
    collected answers (`value` is whatever the question's parser made of it, or a log's JSON:
    an `object` the game's step checks with isinstance before it uses it)."""

    type: ClassVar[str] = "answer"
    value: object
    source: str | None = None
    """Which listener it came from (keyboard, voice, button, phones, script); None in a replay."""

    def to_dict(self) -> dict[str, Any]:
        data = {"type": self.type, "value": self.value}
        if self.source is not None:
            data["source"] = self.source
        return data


@dataclass(frozen=True)
class Undo:
    """The table took the latest answer back; the runner rebuilds the game without it."""

    type: ClassVar[str] = "undo"
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type} if self.source is None else {"type": self.type, "source": self.source}


GameEvent = Union[Start, Continue, Answer, Undo]
EVENT_TYPES = ("start", "answer", "continue", "undo")
"""The log's event types, in the order the log reader names them."""


def answered(event: GameEvent) -> object:
    """The value of the answer a step that asked is handed. `run_step` gives an `ask_` step
    nothing but an `Answer`, so any other event here is a bug in the game's step table."""
    if not isinstance(event, Answer):
        raise TypeError(f"a '{event.type}' event where an answer was awaited")
    return event.value


def event_from_dict(data: Mapping[str, Any]) -> GameEvent:
    """One log record as its event; a record of another type is a ValueError naming it."""
    kind = data.get("type")
    if kind == "answer":
        return Answer(data.get("value"), data.get("source"))
    if kind == "continue":
        return Continue()
    if kind == "start":
        return Start()
    if kind == "undo":
        return Undo(data.get("source"))
    raise ValueError(f"unknown event type {str(kind)[:20]!r}")


def as_event(event: GameEvent | Mapping[str, Any]) -> GameEvent:
    """An event, whether given typed or as its log record (tests and old callers pass dicts)."""
    return event if isinstance(event, (Start, Continue, Answer, Undo)) else event_from_dict(event)
