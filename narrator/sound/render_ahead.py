"""What to render ahead: every line, with its parameters, that a game can say.

A game's engine is pure, so the lines it can say are found by playing it: starting from
`start`, every answer an `Ask` allows is tried (yes and no, each single player name and,
for a small table, each pair of names, the first time such a question comes; after that,
the first answer the game takes — a card holder's private choice too, or the cards on the
device would multiply each night's choices past the budget before the last day), breadth-first, until every reachable step has been
seen or a budget runs out. The cues met on the way give the exact (line, params) pairs, the
numbers each `Countdown` counts and the warnings each `Timer` gives. A game whose rounds of
private answers (`Collect`) have too many answers to walk lists its lines from its config
instead (`Game.sayable`), and a game with private lines also renders each player's
pass-the-device call. `narrator voices
render` and the start of every game use this, so nothing is synthesized during play.

A game's start needs only its opening (`opening_requests`: what is said before the table first
answers); the rest renders in the background in `game_requests`' order, which is the order
the game comes to its lines (breadth-first: every line of the first night before the second).
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Generic, Iterable, Mapping, Protocol, TypeVar

from narrator.cues import Answer, Ask, Collect, Continue, Cue, GameEvent, Private, Start, said_lines
from narrator.errors import AnswerError
from narrator.sound.voicepack import VoicePack

COMMON_LINES = ("control.paused", "control.resumed", "control.undone", "confirm.yes", "confirm.no", "confirm.again")
"""Said by the table's loop, whatever the game: pause, undo, and the confirmation of an answer
that ends the game (asked at the keyboard too)."""
MAX_STATES = 4000
"""Steps explored at most per game (the default 5-player game has a few hundred)."""
PAIRS_UP_TO = 8
"""Pairs of nominees are rendered for tables of at most this many named players."""
TICKS_UP_TO = 60
"""`voices render` without a table renders countdown numbers 0 … this."""


class Walked(Protocol):
    """A game's state as the walk reads it (`narrator.games.contract.GameState`, a floor above)."""

    @property
    def finished(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]: ...


_C = TypeVar("_C", contravariant=True)
_S = TypeVar("_S", bound=Walked)
Config = TypeVar("Config")
State = TypeVar("State", bound=Walked)


class Walkable(Protocol, Generic[_C, _S]):
    """The rules as the walk plays them (`narrator.games.contract.Game`, a floor above): its
    functions of a config and a state, read-only."""

    @property
    def sayable(self) -> Callable[[_C], list[Cue]] | None: ...

    @property
    def new_state(self) -> Callable[[], _S]: ...

    @property
    def advance(self) -> Callable[[_C, _S, GameEvent], tuple[_S, list[Cue]]]: ...

    @property
    def recap(self) -> Callable[[_C, _S], list[Cue]]: ...

    @property
    def undo_barrier(self) -> Callable[[_C, _S], Cue | None]: ...

    @property
    def names(self) -> Callable[[_C], tuple[str, ...]]: ...


def cue_requests(cues: Iterable[Cue]) -> list[tuple[str, dict[str, Any]]]:
    """The (line, params) pairs a list of cues will say (`narrator.cues.said_lines`: one answer)."""
    return [request for cue in cues for request in said_lines(cue)]


def _answers(ask: Ask) -> list[str | list[str]]:
    if ask.multiple:
        singles: list[str | list[str]] = [[name] for name in ask.choices]
        pairs = [list(p) for p in itertools.combinations(ask.choices, 2)] if len(ask.choices) <= PAIRS_UP_TO else []
        return singles + pairs
    return list(ask.choices)


def game_requests(game: Walkable[Config, State], config: Config, max_states: int = MAX_STATES) -> list[tuple[str, dict[str, Any]]]:
    """Every (line, params) the game with this config can say, found by playing every branch."""
    seen_requests: dict[str, tuple[str, dict[str, Any]]] = {}

    def add(requests: Iterable[tuple[str, dict[str, Any]]]) -> None:
        for line, params in requests:
            seen_requests.setdefault(_key(line, params), (line, params))

    add((line, {}) for line in COMMON_LINES)
    if game.sayable is not None:
        add(cue_requests(game.sayable(config)))
    private = False
    # Each entry: a state and the events to try on it in turn; the first the game takes is
    # the path followed (an answer this step refuses is not a path a table can take).
    frontier: list[tuple[State, list[GameEvent]]] = [(game.new_state(), [Start()])]
    seen_states: set[str] = set()
    fanned_out: set[str] = set()
    while frontier and len(seen_states) < max_states:
        before, events = frontier.pop(0)
        for event in events:
            try:
                state, cues = game.advance(config, before, event)
                break
            except AnswerError:  # refused: the next answer, if any (a bug in a rule is not)
                continue
        else:
            continue
        add(cue_requests(cues))
        private = private or any(isinstance(c, (Private, Collect)) for c in cues)
        key = json.dumps(state.to_dict(), sort_keys=True, default=str)
        if key in seen_states or state.finished:
            continue
        seen_states.add(key)
        add(cue_requests(game.recap(config, state)))
        barrier = game.undo_barrier(config, state)  # what an undo that stops here says
        add(cue_requests([barrier] if barrier is not None else []))
        if cues and isinstance(cues[-1], Ask):
            ask = cues[-1]
            answers = _answers(ask)
            if (ask.multiple or ask.player is not None) and ask.line in fanned_out:
                # every name set (or a card holder's every choice) was met the first time: keep
                # the walk small (the cards on the device would multiply each night's choices
                # and spend the budget before the last day), following the first answer taken
                frontier.append((state, [Answer(a) for a in answers]))
            else:
                frontier += [(state, [Answer(a)]) for a in answers]
            fanned_out.add(ask.line)
        elif cues and isinstance(cues[-1], Collect) and cues[-1].call:
            # a night call's round: its holders' first choices, else nobody's (time ran out)
            first = {r.player: {r.key: r.choices[0]} for r in cues[-1].requests if r.choices}
            frontier.append((state, [Answer(first), Answer({})]))
        else:
            frontier.append((state, [Continue()]))
    if private:  # pass-the-device calls each player by name
        add(("private.call", {"name": name}) for name in game.names(config))
    return list(seen_requests.values())


def opening_requests(game: Walkable[Config, State], config: Config) -> list[tuple[str, dict[str, Any]]]:
    """What the game says before the table can first answer: its start, up to and with its first
    question (or round of private answers), and the table loop's own lines.

    A game can start once these are rendered: the table takes seconds to answer the first
    question, and the rest renders meanwhile (`narrator.sound.ahead`)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}

    def add(requests: Iterable[tuple[str, dict[str, Any]]]) -> None:
        for line, params in requests:
            out.setdefault(_key(line, params), (line, params))

    add((line, {}) for line in COMMON_LINES)
    state = game.new_state()
    event: GameEvent = Start()
    for _ in range(MAX_STATES):
        state, cues = game.advance(config, state, event)
        add(cue_requests(cues))
        if state.finished or (cues and isinstance(cues[-1], (Ask, Collect))):
            break
        event = Continue()
    return list(out.values())


def pack_requests(pack: VoicePack, extra: Iterable[tuple[str, Mapping[str, Any]]] = ()) -> list[tuple[str, dict[str, Any]]]:
    """Every fixed line of a pack (no placeholders), countdown numbers 0 … 60, plus `extra`."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for line_id in sorted(pack.lines):
        if pack.is_spoken(line_id) and not pack.placeholders(line_id):
            out.setdefault(_key(line_id, {}), (line_id, {}))
    for n in range(TICKS_UP_TO, -1, -1):
        out.setdefault(_key("tick", {"n": n}), ("tick", {"n": n}))
    for line, params in extra:
        if line in pack.lines:
            out.setdefault(_key(line, params), (line, dict(params)))
    return list(out.values())


def _key(line: str, params: Mapping[str, Any]) -> str:
    return json.dumps([line, params], sort_keys=True, ensure_ascii=False, default=str)
