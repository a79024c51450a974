"""The game loop: event → `advance` → store → scheduler → next event, until the end.

Order matters for resume: a step's event is appended and the snapshot written *before*
its cues are played, so a kill at any moment resumes at the start of the step that was
playing, and an answer already recorded is never asked again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from narrator.cues import Ask, Collect, Cue, Say, cue_from_dict
from narrator.games.contract import Game
from narrator.table.scheduler import Scheduler
from narrator.table.store import GameStore, Snapshot


@dataclass
class Position:
    """Where a game stands: its state and the step (cues) to play next."""

    state: Any
    cues: list[Cue]
    event_count: int
    t: float = 0.0


def start_position(game: Game, config: Any, store: GameStore) -> Position:
    """A new game: the `start` event played into a fresh state, saved before it is heard."""
    event = {"type": "start"}
    state, cues = game.advance(config, game.new_state(), event)
    _save(store, event, state, cues, 1, 0.0)
    return Position(state, cues, 1)


def resume_position(game: Game, config: Any, store: GameStore) -> Position:
    """Rebuild a saved game: its snapshot, plus any events logged after it was taken."""
    snapshot = store.load_snapshot()
    events = store.events()
    if not events:
        return start_position(game, config, store)
    t = snapshot.t if snapshot else 0.0
    if snapshot is None or any(e["type"] == "undo" for e in events[snapshot.event_count:]):
        state, cues = rebuild(game, config, events)
        return Position(state, cues, len(events), t)
    state = game.state_from_dict(snapshot.state)
    cues = [cue_from_dict(c) for c in snapshot.cues]
    for event in events[snapshot.event_count:]:
        state, cues = game.advance(config, state, event)
    return Position(state, cues, len(events), t)


def effective_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that still count: each `undo` cancels the latest answer still standing
    (and the steps that merely followed it)."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event["type"] != "undo":
            kept.append(event)
            continue
        while kept and kept[-1]["type"] == "continue":
            kept.pop()
        if kept and kept[-1]["type"] == "answer":
            kept.pop()
    return kept


def rebuild(game: Game, config: Any, events: list[dict[str, Any]]) -> tuple[Any, list[Cue]]:
    """Replay the log from a fresh state. After an undo, only the question is asked again."""
    state, cues = game.new_state(), []
    for event in effective_events(events):
        state, cues = game.advance(config, state, event)
    if events and events[-1]["type"] == "undo" and cues and isinstance(cues[-1], (Ask, Collect)):
        cues = [Say("control.undone"), cues[-1]]
    return state, cues


async def play(game: Game, config: Any, store: GameStore, scheduler: Scheduler, position: Position,
               recap: bool = False, on_state: Callable[[Any], None] | None = None) -> Any:
    """Play from `position` to the end; returns the final state.

    `on_state` sees every new state before its step is played (the phone server's views).
    """
    on_state = on_state or (lambda state: None)
    state, cues, count = position.state, position.cues, position.event_count
    on_state(state)
    if recap:
        await scheduler.play(game.recap(config, state), _context(state))
    while True:
        heard = await scheduler.play(cues, _context(state))
        if state.finished:
            break
        if heard is not None and heard.kind == "command" and heard.value == "undo":
            store.append_event({"type": "undo", "source": heard.source})
            count += 1
            state, cues = rebuild(game, config, store.events())
            store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], scheduler.cursor))
            on_state(state)
            continue
        if heard is not None:
            event = {"type": "answer", "value": heard.value, "source": heard.source}
        else:
            event = {"type": "continue"}
        state, cues = game.advance(config, state, event)
        count += 1
        _save(store, event, state, cues, count, scheduler.cursor)
        on_state(state)
    store.mark_finished({"winner": state.winner, **_outcome(state)})
    return state


def _save(store: GameStore, event: dict[str, Any], state: Any, cues: list[Cue], count: int, t: float) -> None:
    store.append_event(event)
    store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], t))


def _context(state: Any) -> dict[str, Any]:
    return {key: getattr(state, key) for key in ("night", "day") if hasattr(state, key)}


def _outcome(state: Any) -> dict[str, Any]:
    return {"lovers_lose": state.lovers_lose} if hasattr(state, "lovers_lose") else {}
