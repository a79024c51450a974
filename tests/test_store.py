"""The store survives kills at any instant: torn logs, missing snapshots, undo in the log."""

import json

from narrator.games import get_game
from narrator.table.runner import effective_events, resume_position, start_position
from narrator.settings import build_settings
from narrator.table.store import GameStore, Snapshot, find_game

import pytest

from narrator.errors import NarratorError


@pytest.fixture
def game(tmp_path):
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi"}, "test"))
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    return rules, config, store


def advance_and_save(rules, config, store, position, event):
    state, cues = rules.advance(config, position.state, event)
    store.append_event(event)
    count = position.event_count + 1
    store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], 12.5))
    return type(position)(state, cues, count, 12.5)


def test_snapshot_and_events_round_trip(game):
    rules, config, store = game
    pos = start_position(rules, config, store)
    pos = advance_and_save(rules, config, store, pos, {"type": "answer", "value": "done"})
    again = resume_position(rules, config, store)
    assert again.state == pos.state and again.cues == pos.cues and again.t == 12.5
    assert again.event_count == 2


def test_events_logged_after_the_snapshot_are_replayed(game):
    """A kill between appending an event and writing the snapshot loses nothing."""
    rules, config, store = game
    pos = start_position(rules, config, store)
    state, cues = rules.advance(config, pos.state, {"type": "answer", "value": "done"})
    store.append_event({"type": "answer", "value": "done"})  # ... and the process dies here
    again = resume_position(rules, config, store)
    assert again.state == state and again.cues == cues and again.event_count == 2


def test_a_torn_last_event_line_is_dropped(game):
    rules, config, store = game
    start_position(rules, config, store)
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"type": "ans')
    assert store.events() == [{"type": "start"}]
    assert resume_position(rules, config, store).state.step == "ask_ready"


def test_snapshot_is_replaced_atomically(game):
    rules, config, store = game
    start_position(rules, config, store)
    assert not list(store.folder.glob("*.tmp"))
    data = json.loads((store.folder / "snapshot.json").read_text())
    assert data["event_count"] == 1 and data["state"]["step"] == "ask_ready"


def test_effective_events_undo_the_latest_answer_and_the_steps_after_it():
    events = [{"type": "start"}, {"type": "answer", "value": "done"}, {"type": "continue"},
              {"type": "answer", "value": ["Aki"]}, {"type": "undo"}]
    assert effective_events(events) == events[:3]
    assert effective_events(events + [{"type": "undo"}]) == events[:1]
    assert effective_events([{"type": "start"}, {"type": "undo"}]) == [{"type": "start"}]


def test_damaged_meta_is_a_clear_error(game, tmp_path):
    _, _, store = game
    (store.folder / "meta.json").write_text("{")
    with pytest.raises(NarratorError, match="damaged"):
        find_game(tmp_path, None)
