"""The game loop: event → `advance` → store → scheduler → next event, until the end.

Order matters for resume: a step's event is appended and the snapshot written *before*
its cues are played, so a kill at any moment resumes at the start of the step that was
playing, and an answer already recorded is never asked again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Generic

from narrator.cues import (
    Answer, Ask, Collect, Continue, Cue, cue_from_dict, event_from_dict, GameEvent, Say, Start, Undo,
)
from narrator.games.contract import C, S, Game, GameState
from narrator.table.scheduler import Scheduler
from narrator.errors import DamagedGame
from narrator.table.event_log import LOG_FILE, read_log
from narrator.table.quiet_rounds import QuietWatch, ask_table
from narrator.table.snapshot import SNAPSHOT_FILE, Snapshot
from narrator.table.store import GameStore


@dataclass
class Position(Generic[S]):
    """Where a game stands: its state and the step (cues) to play next."""

    state: S
    cues: list[Cue]
    event_count: int
    t: float = 0.0
    recovered: bool = False
    """Resumed from the log's last good event, its newer snapshot set aside (lying storage)."""


def start_position(game: Game[C, S], config: C, store: GameStore) -> Position[S]:
    """A new game: the `start` event played into a fresh state, saved before it is heard."""
    event = Start()
    state, cues = game.advance(config, game.new_state(), event)
    _save(store, event, state, cues, 1, 0.0)
    return Position(state, cues, 1)


def resume_position(game: Game[C, S], config: C, store: GameStore, recover: bool = False) -> Position[S]:
    """Rebuild a saved game: its snapshot, plus any events logged after it was taken.

    A missing or damaged snapshot is rebuilt from the log (said once: a new one is saved
    at once). A log that is empty, or older than its snapshot, is refused: starting the
    game again from its welcome would silently throw away what the table played. With
    `recover` (the appliance, which has no terminal to ask at: storage that lies about
    fsync loses the log's last events) the snapshot is set aside instead and the game goes
    on from the log's last good event (from its start, same deal, when the log is empty);
    the position says so, for the table to hear.
    """
    reading = store.read_log()
    events = reading.events if reading else []
    snapshot, _ = store.load_snapshot()
    ahead = snapshot is not None and snapshot.event_count > len(events)
    if recover and (ahead or not events and (store.folder / SNAPSHOT_FILE).exists()):
        store.cut_log(None)
        position = resume_position(game, config, store)
        position.recovered = True
        return position
    lines = reading.lines if reading else []
    snapshot, problem = store.load_snapshot()
    if not events:
        if (store.folder / SNAPSHOT_FILE).exists():
            raise DamagedGame(f"saved game {store.id}: {store.folder / LOG_FILE} holds no events but a snapshot "
                              "exists; put the log back from a backup, or start a new game")
        return start_position(game, config, store)
    if snapshot is not None and snapshot.event_count > len(events):
        raise DamagedGame(f"saved game {store.id}: {store.folder / LOG_FILE} holds {len(events)} events, older than "
                          f"its snapshot ({snapshot.event_count}); put the whole log back, or "
                          f"`narrator resume {store.id} --cut-log` to go on from the log alone")
    if snapshot is not None and not any(e["type"] == "undo" for e in events[snapshot.event_count:]):
        try:
            state = game.state_from_dict(snapshot.state)
            cues = [cue_from_dict(c) for c in snapshot.cues]
            if json.loads(json.dumps(state.to_dict())) != snapshot.state:
                raise ValueError("its state does not read back the same")
        except Exception as err:
            snapshot, problem = None, f"{store.folder / SNAPSHOT_FILE} does not fit the game ({_reason(err)})"
        else:
            for index in range(snapshot.event_count, len(events)):
                state, cues = _replay(game, config, state, events[index], store, lines[index])
            return Position(state, cues, len(events), snapshot.t)
    t = snapshot.t if snapshot is not None else 0.0
    state, cues = rebuild(game, config, events, lambda i: (store, lines[i]))
    if snapshot is None:
        store.warn(f"{problem}; the game is rebuilt from its log {store.folder / LOG_FILE}")
        store.save_snapshot(Snapshot(len(events), state.to_dict(), [c.to_dict() for c in cues], t))
    return Position(state, cues, len(events), t)


def cut_log(game: Game[C, S], config: C, store: GameStore) -> None:
    """`resume --cut-log`: go on from the events before the first damaged or unplayable
    line (the rest set aside), or from the log alone when it is older than its snapshot."""
    reading = read_log(store.folder / LOG_FILE)
    line = reading.damaged_line if reading else None
    if reading is not None and line is None:
        try:
            rebuild(game, config, reading.events, lambda i: (store, reading.lines[i]))
        except DamagedGame as err:
            line = getattr(err, "line", None)
    store.cut_log(line)


def _undo_to(events: list[dict[str, Any]], kept: list[int], kept_step: Callable[[int], bool]) -> int | None:
    """How many of `kept` still stand after an undo: the latest answer and the steps that
    merely followed it are taken back; None when a step the table did with its hands (a
    night call with physical cards, `kept_step`) lies between, or the answer is one whose
    result was shown privately (`kept_step` of the question's step): the undo then takes nothing."""
    standing = len(kept)
    while standing and events[kept[standing - 1]]["type"] == "continue":
        if kept_step(standing - 1):
            return None
        standing -= 1
    if standing and events[kept[standing - 1]]["type"] == "answer":
        if kept_step(standing - 1):  # an answer whose result was shown privately (a seer's divination)
            return None
        standing -= 1
    return standing


def effective_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that still count: each `undo` cancels the latest answer still standing
    (and the steps that merely followed it). Games whose steps all may be taken back."""
    kept: list[int] = []
    for index, event in enumerate(events):
        if event["type"] != "undo":
            kept.append(index)
            continue
        kept = kept[:_undo_to(events, kept, lambda i: False)]
    return [events[i] for i in kept]


def rebuild(game: Game[C, S], config: C, events: list[dict[str, Any]],
            where: Callable[[int], tuple[GameStore, int]] | None = None) -> tuple[S, list[Cue]]:
    """Replay the log from a fresh state. After an undo, only the question is asked again.

    An undo never crosses a step the table has already done with its hands
    (`Game.undo_barrier`, e.g. a night's swap calls): that step is not called again; the
    narrator says why nothing was taken back and asks the open question again.
    `where(i)` names the store and file line of event i, for the error when it does not replay.
    """
    state, cues = game.new_state(), list[Cue]()
    kept: list[int] = []
    before: list[tuple[S, list[Cue]]] = []  # the state and cues each kept event was played from
    held: Cue | None = None
    for index, event in enumerate(events):
        if event["type"] == "undo":
            barrier: dict[str, Cue | None] = {}

            # called by _undo_to before this iteration ends: the defaults bind this turn's lists
            def kept_step(k: int, barrier: dict[str, Cue | None] = barrier,
                          before: list[tuple[S, list[Cue]]] = before) -> bool:
                barrier["cue"] = game.undo_barrier(config, before[k][0])
                return barrier["cue"] is not None

            standing = _undo_to(events, kept, kept_step)
            held = barrier.get("cue") if standing is None else None
            if standing is not None and standing < len(kept):
                state, cues = before[standing]
                kept, before = kept[:standing], before[:standing]
            continue
        store, line = where(index) if where else (None, index + 1)
        kept.append(index)
        before.append((state, cues))
        state, cues = _replay(game, config, state, event, store, line)
    if events and events[-1]["type"] == "undo" and cues and isinstance(cues[-1], (Ask, Collect)):
        cues = [held or Say("control.undone"), cues[-1]]
    return state, cues


def _replay(game: Game[C, S], config: C, state: S, event: dict[str, Any], store: GameStore | None,
            line: int) -> tuple[S, list[Cue]]:
    """One logged event played again; one that the rules cannot take is a damaged log line."""
    try:
        return game.advance(config, state, event_from_dict(event))
    except Exception as err:
        if store is None:
            raise
        damaged = DamagedGame(f"saved game {store.id}: {store.folder / LOG_FILE} line {line} does not replay into "
                              f"{game.name} ({_reason(err)}); `narrator resume {store.id} --cut-log` resumes "
                              "from the events before it")
        damaged.line = line  # type: ignore[attr-defined]
        raise damaged from None


def _reason(err: Exception) -> str:
    return f"{err.__class__.__name__}: {str(err)[:80]}"


async def play(game: Game[C, S], config: C, store: GameStore, scheduler: Scheduler, position: Position[S],
               recap: bool = False, on_state: Callable[[S], None] | None = None) -> S:
    """Play from `position` to the end; returns the final state.

    `on_state` sees every new state before its step is played (the phone server's views).
    After `game.quiet_rounds(config)` private rounds in a row closed by their timers with no answer,
    the table is asked whether to go on before the game does (quiet_rounds.py).
    """
    on_state = on_state or (lambda state: None)
    state, cues, count = position.state, position.cues, position.event_count
    quiet = QuietWatch(game.quiet_rounds(config))
    on_state(state)
    if recap:
        await scheduler.play(game.recap(config, state), game.context(state))
    while True:
        heard = await scheduler.play(cues, game.context(state))
        if state.finished:
            break
        if quiet.heard(cues, heard):
            await ask_table(scheduler, quiet.rounds, game.context(state))
        if heard is not None and heard.kind == "command" and heard.value == "undo":
            store.append_event(Undo(heard.source).to_dict())
            count += 1
            state, cues = rebuild(game, config, store.events())
            store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], scheduler.cursor))
            on_state(state)
            continue
        event: GameEvent = Answer(heard.value, heard.source) if heard is not None else Continue()
        state, cues = game.advance(config, state, event)
        count += 1
        _save(store, event, state, cues, count, scheduler.cursor)
        on_state(state)
    store.mark_finished(game.outcome(config, state))
    return state


def _save(store: GameStore, event: GameEvent, state: GameState, cues: list[Cue], count: int, t: float) -> None:
    store.append_event(event.to_dict())
    store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], t))

