"""Private cues and rounds through the real scheduler and hub: pass-the-device and scripts."""

import asyncio
import io
import json
import re

import pytest

from narrator.sound.outputs import NullOutput
from narrator.table.clock import InstantClock
from narrator.cues import Collect, Event, Private, Request, Say, cue_from_dict
from narrator.table.display import ConsoleDisplay
from narrator.errors import AnswerError, SetupError
from narrator.inputs.hub import ListenerHub, Vocabulary
from narrator.inputs.private_script import PrivateScriptListener, is_json_lines
from narrator.table.scheduler import Scheduler
from narrator.sound.voice import TextVoice
from narrator.table.transcript import Transcript, read_transcript
from narrator.sound.voicepack import load_pack

ROUND = Collect("night", 1, (
    Request("Aki", "bm.memo.protect", ("Ben", "Chika"), {"night": 1}, ability=True),
    Request("Ben", "bm.memo.suspect", ("Aki", "Chika"), {"night": 1}, ability=True),
))
CUES = [
    Say("bm.night.results"),
    Private("Aki", "bm.private.prophet.B", {"target": "Chika"}),
    Private("Aki", "bm.private.attr.S"),
    Private("Ben", "bm.private.nothing"),
    Event("death", "Chika", "attack", night=1),
    ROUND,
]


def make_scheduler(tmp_path, sequential: bool):
    pack = load_pack("en")
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    hub.sequential_private = sequential
    screen = io.StringIO()
    transcript = Transcript(tmp_path / "t.jsonl", private=True)  # private records only when asked for
    scheduler = Scheduler(TextVoice(pack), NullOutput(), InstantClock(), hub, transcript, ConsoleDisplay(False, screen))
    return scheduler, hub, screen, transcript


async def typist(hub: ListenerHub, typed: list[str], hints: list[str]):
    """A player at the terminal: Enter on every hand-over, then a memo line for the open request."""
    wrong_once = False
    while True:
        await asyncio.sleep(0)
        if hub._ask is not None and hub._answer is not None and not hub._answer.done():
            typed.append("")
            hub.offer_text("", "keyboard")
        elif hub._collect is not None and hub._collect.pending():
            request = hub._collect.pending()[0]
            if not wrong_once:
                wrong_once = True
                hints.append(hub.offer_text("Zed y", "keyboard"))
                continue
            text = f"{len(request.choices)} {'y' if request.player == 'Aki' else 'n'}"
            typed.append(text)
            hub.offer_text(text, "keyboard")


def test_pass_the_device_shows_each_screen_to_one_player_then_clears(tmp_path):
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=True)
    hub.register("keyboard")
    typed, hints = [], []

    async def run():
        task = asyncio.ensure_future(typist(hub, typed, hints))
        try:
            return await scheduler.play(CUES, {"night": 1, "day": 0})
        finally:
            task.cancel()

    heard = asyncio.run(run())
    transcript.close()
    assert heard.value == {"Aki": {"target": "Chika", "ability": True}, "Ben": {"target": "Chika", "ability": False}}
    assert hints and "'Zed' is not a player here" in hints[0]
    screens = [s for s in screen.getvalue().split("---- screen cleared ----") if s.strip()]
    assert len(screens) == 4  # Aki's results, Ben's results, Aki's memo, Ben's memo
    owners = [set(re.findall(r"==== (\w+) ====", text)) for text in screens]
    assert owners == [{"Aki"}, {"Ben"}, {"Aki"}, {"Ben"}]  # one player per screen, then cleared
    assert "Prophecy: Chika is a beast." in screens[0] and "Your attribute is S" in screens[0]
    assert "Ben" not in screens[0].replace("==== Aki ====", "")
    assert "choose one player to protect" in screens[2] and "1=Ben, 2=Chika" in screens[2]
    records = read_transcript(tmp_path / "t.jsonl")
    calls = [r["text"] for r in records if r["kind"] == "say" and r["line"] == "private.call"]
    assert calls == ["Aki, please take the device.", "Ben, please take the device.",
                     "Aki, please take the device.", "Ben, please take the device."]
    assert [r["to"] for r in records if r["kind"] == "private"] == ["Aki", "Aki", "Ben"]
    event = next(r for r in records if r["kind"] == "event")
    assert event == {"kind": "event", "type": "death", "player": "Chika", "cause": "attack", "night": 1,
                     "t": event["t"]}


def test_scripted_records_answer_a_round_in_any_order(tmp_path):
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=False)
    path = tmp_path / "a.jsonl"
    path.write_text("# memos\n"
                    '{"night": 1, "player": "Ben", "target": "Aki", "ability": false}\n'
                    '{"night": 1, "player": "Aki", "target": "Ben", "ability": true}\n', encoding="utf-8")
    assert is_json_lines(path)

    async def run():
        PrivateScriptListener(path).start(hub, asyncio.get_running_loop())
        return await scheduler.play(CUES, {"night": 1, "day": 0})

    mail = []
    hub.subscribe_private(lambda to, line, text: mail.append((to, text)))
    heard = asyncio.run(run())
    assert heard.value == {"Aki": {"target": "Ben", "ability": True}, "Ben": {"target": "Aki", "ability": False}}
    assert screen.getvalue() == ""  # nothing private reaches a shared screen in script mode
    assert mail == [("Aki", "Prophecy: Chika is a beast."), ("Aki", "Your attribute is S (Sole)."),
                    ("Ben", "Nothing for you tonight.")]


@pytest.mark.parametrize("records,message", [
    (['{"night": 1, "player": "Aki", "target": "Dai", "ability": true}',
      '{"night": 1, "player": "Ben", "target": "Aki", "ability": false}'], "line 1: target 'Dai' is not allowed for Aki"),
    (['{"night": 1, "player": "Aki", "target": "Ben", "ability": "yes"}',
      '{"night": 1, "player": "Ben", "target": "Aki", "ability": false}'], "line 1: 'ability' for Aki must be true or false"),
    (['{"night": 1, "player": "Aki", "target": "Ben", "ability": true}'], "no night 1 record for Ben"),
    (['{"night": 1, "player": "Aki", "target": "Ben", "ability": true}',
      '{"night": 1, "player": "Ben", "target": "Aki", "ability": false}',
      '{"night": 1, "player": "Zed", "target": "Aki", "ability": false}'], "line 3: Zed may not answer the night 1"),
])
def test_bad_scripted_records_name_the_record(tmp_path, records, message):
    scheduler, hub, _, _ = make_scheduler(tmp_path, sequential=False)
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")

    async def run():
        PrivateScriptListener(path).start(hub, asyncio.get_running_loop())
        return await scheduler.play([ROUND], {})

    with pytest.raises(AnswerError, match=message):
        asyncio.run(run())


@pytest.mark.parametrize("line,message", [
    ('{"night": 1, "player": "Aki", "target": "Ben", "abilty": true}', "unknown key 'abilty'"),
    ('{"night": 1, "day": 1, "player": "Aki"}', "either \"night\" or \"day\""),
    ('{"night": 0, "player": "Aki", "target": "Ben", "ability": true}', "whole number from 1"),
    ('not json', "not valid JSON"),
])
def test_malformed_records_are_refused_at_load(tmp_path, line, message):
    path = tmp_path / "a.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(SetupError, match=message):
        PrivateScriptListener(path)


def test_new_cues_round_trip_through_json():
    for cue in CUES:
        assert cue_from_dict(json.loads(json.dumps(cue.to_dict()))) == cue


def test_undo_during_a_private_round_returns_the_command(tmp_path):
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=False)
    hub.register("keyboard")

    async def run():
        task = asyncio.ensure_future(scheduler.play([ROUND], {}))
        while hub._collect is None:
            await asyncio.sleep(0)
        hub.offer_text("u", "keyboard")
        return await task

    heard = asyncio.run(run())
    assert (heard.kind, heard.value) == ("command", "undo")
    assert hub._collect is None  # the round was closed


def test_undo_after_a_round_asks_that_round_again():
    from narrator.games import get_game
    from narrator.table.runner import rebuild
    from tests.bm_driver import configure

    game = get_game("bestia-magica")
    config = configure(players=5, seed=3)
    state, cues = game.advance(config, game.new_state(), {"type": "start"})
    events = [{"type": "start"}, {"type": "continue"}]
    state, cues = game.advance(config, state, {"type": "continue"})
    memos = {r.player: {"target": r.choices[0], "ability": False} for r in cues[-1].requests}
    events += [{"type": "answer", "value": memos}, {"type": "continue"}, {"type": "continue"}, {"type": "undo"}]
    state, cues = rebuild(game, config, events)
    assert state.step == "ask_memos" and state.night == 1
    assert [c.kind for c in cues] == ["say", "collect"] and cues[0].line == "control.undone"
