"""The game loop (`runner.play`) under a scripted scheduler: what it logs and snapshots at each
step, what it tells the phone server, and how an undo is recorded. The scheduler here plays
nothing and answers each question from a script, as the hub would hand answers over."""

import asyncio
import json

import pytest

from narrator.cues import Ask, Collect
from narrator.games import get_game
from narrator.inputs.hub import Heard
from narrator.settings import build_settings
from narrator.table.runner import play, resume_position, start_position
from narrator.table.store import GameStore

ANSWERS = ["done", ["Ben", "Dai"], "no", "no", "done", ["Emi"], "no", "no", "done", ["Fumi"], "yes"]
"""The whole game of tests/test_process.py (seed 7): the citizens win on day 3."""


class ScriptRanDry(Exception):
    """The scripted table stopped answering: the narrator is killed there."""


class ScriptedScheduler:
    """Answers each step that asks something with the next scripted `Heard`; 1.5 s a step."""

    def __init__(self, heard):
        self.heard = list(heard)
        self.cursor = 0.0
        self.played = []

    async def play(self, cues, context):
        self.played.append((list(cues), dict(context)))
        self.cursor += 1.5
        if not any(isinstance(cue, (Ask, Collect)) for cue in cues):
            return None
        if not self.heard:
            raise ScriptRanDry
        return self.heard.pop(0)


@pytest.fixture
def table(tmp_path):
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi,Fumi", "seed": 7}, "test"))
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    return rules, config, store


def snapshot(store):
    return json.loads((store.folder / "snapshot.json").read_text(encoding="utf-8"))


def events(store):
    return [json.loads(line) for line in (store.folder / "events.jsonl").read_text().splitlines()[1:]]


def test_a_whole_game_logs_every_step_and_records_its_outcome(table):
    rules, config, store = table
    position = start_position(rules, config, store)
    scheduler = ScriptedScheduler(Heard("answer", value, "script") for value in ANSWERS)
    seen = []

    def on_state(state):
        seen.append((state, snapshot(store)))

    final = asyncio.run(play(rules, config, store, scheduler, position, on_state=on_state))
    assert final.finished and final.winner == "citizens"
    assert store.meta["finished"] is True and store.meta["outcome"] == {"winner": "citizens", "lovers_lose": False}
    logged = events(store)
    assert [e["value"] for e in logged if e["type"] == "answer"] == ANSWERS
    assert {e["source"] for e in logged if e["type"] == "answer"} == {"script"}
    # the phone server saw the start and then every new state, each after its step was saved
    assert seen[0][0] == position.state and len(seen) == len(logged)
    for number, (state, saved) in enumerate(seen[1:], start=2):
        assert saved["event_count"] == number and saved["state"] == json.loads(json.dumps(state.to_dict()))
    assert snapshot(store)["t"] == scheduler.cursor - 1.5  # the clock when the last step began
    # every step was played in its night and day, the first one being the start's
    assert scheduler.played[0][0] == position.cues and scheduler.played[0][1] == {"night": 0, "day": 0}
    assert scheduler.played[-1][1] == {"night": final.night, "day": final.day} and final.day == 3


def test_a_resumed_game_can_begin_with_a_recap_in_its_night_and_day(table):
    rules, config, store = table
    position = start_position(rules, config, store)
    scheduler = ScriptedScheduler(Heard("answer", value, "script") for value in ANSWERS[:2])
    with pytest.raises(ScriptRanDry):
        asyncio.run(play(rules, config, store, scheduler, position))
    position = resume_position(rules, config, store)
    scheduler = ScriptedScheduler([])
    with pytest.raises(ScriptRanDry):
        asyncio.run(play(rules, config, store, scheduler, position, recap=True))
    assert scheduler.played[0] == (rules.recap(config, position.state),
                                   {"night": position.state.night, "day": position.state.day})
    assert position.state.night == 1 and scheduler.played[1][0] == position.cues


def test_an_undo_is_logged_with_its_source_and_snapshotted_before_the_question_is_asked_again(table):
    # The undo takes back the nomination (an answer after the night: the night is never replayed, issue 26).
    rules, config, store = table
    position = start_position(rules, config, store)
    scheduler = ScriptedScheduler([Heard("answer", "done", "script"), Heard("answer", ["Aki"], "script"),
                                   Heard("command", "undo", "keyboard"), Heard("answer", ["Ben"], "voice")])
    seen = []
    with pytest.raises(ScriptRanDry):
        asyncio.run(play(rules, config, store, scheduler, position,
                         on_state=lambda state: seen.append((state, snapshot(store), scheduler.cursor))))
    logged = events(store)
    assert [e for e in logged if e["type"] != "continue"] == [
        {"type": "start"}, {"type": "answer", "value": "done", "source": "script"},
        {"type": "answer", "value": ["Aki"], "source": "script"},
        {"type": "undo", "source": "keyboard"}, {"type": "answer", "value": ["Ben"], "source": "voice"}]
    undo_count = next(number for number, e in enumerate(logged, start=1) if e["type"] == "undo")
    [(asked, asked_snapshot, _)] = [s for s in seen if s[1]["event_count"] == undo_count - 2]
    [(undone_state, undone, cursor)] = [s for s in seen if s[1]["event_count"] == undo_count]
    assert undone_state == asked and undone_state.step == "ask_nominated"  # back before the nomination
    assert undone == {"game_id": store.id, "event_count": undo_count,
                      "state": asked_snapshot["state"],
                      "cues": [{"kind": "say", "line": "control.undone", "params": {}},
                               asked_snapshot["cues"][-1]], "t": cursor}
    [(again, _, _)] = [s for s in seen if s[1]["event_count"] == undo_count + 1]
    assert again.nominations == (("Ben",),)
    resumed = resume_position(rules, config, store)
    assert resumed.state == seen[-1][0] and resumed.event_count == len(events(store))


def test_a_game_without_lovers_records_only_its_winner_and_recaps_with_its_setup(tmp_path):
    import dataclasses

    from narrator.table.runner import Position

    rules = get_game("pagan")
    config = rules.configure(build_settings({}, {"game": "pagan"}, "test"))
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    over = dataclasses.replace(rules.new_state(), step="over", winner="witch", ending="witch")
    scheduler = ScriptedScheduler([])
    asyncio.run(play(rules, config, store, scheduler, Position(over, [], 1), recap=True))
    assert store.meta["finished"] is True and store.meta["outcome"] == {"winner": "witch"}
    assert scheduler.played[0][0] == rules.recap(config, over)  # Pagan's recap restarts the turn clock
