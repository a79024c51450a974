"""Pagan's words at the hub (done beside reports, help, ja vocabulary) and the scheduler's
help and chess-clock turn timer, on the real scheduler with a text voice."""

import asyncio

import pytest

from narrator.sound.outputs import NullOutput
from narrator.table.clock import InstantClock, ManualClock
from narrator.cues import Ask, TurnClock
from narrator.table.display import ConsoleDisplay
from narrator.errors import AnswerError
from narrator.inputs.hub import ListenerHub, Vocabulary, parse_answer
from narrator.inputs.scripted import ScriptedListener
from narrator.table.scheduler import Scheduler
from narrator.sound.voice import TextVoice
from narrator.table.transcript import Transcript, read_transcript
from narrator.table.turn_clock import TurnClockState
from narrator.sound.voicepack import load_pack

HUNTER_ACTION = Ask("pagan.action.hunter", ("done", "innocent", "exonerated", "witch"), {"left": 3, "total": 3},
                    help=("pagan.help.general", "pagan.help.hunter_board"))


@pytest.mark.parametrize("lang,text,meaning", [
    ("ja", "", "done"), ("ja", "終わりました", "done"), ("ja", "無実", "innocent"), ("ja", "むざい", "exonerated"),
    ("ja", "魔女", "witch"), ("ja", "innocent", "innocent"), ("ja", "2", "innocent"),
    ("en", "", "done"), ("en", "next", "done"), ("en", "Innocent", "innocent"), ("en", "EXONERATED", "exonerated"),
    ("en", "witch", "witch"), ("en", "exonerate", "exonerated"),
])
def test_done_and_reports_are_answers_to_an_action(lang, text, meaning):
    vocabulary = Vocabulary(load_pack(lang).vocabulary)
    assert parse_answer(HUNTER_ACTION, text, vocabulary) == meaning


@pytest.mark.parametrize("text", ["ritual", "儀式", "yes", "Aki"])
def test_words_that_are_not_choices_are_refused_with_the_choices(text):
    vocabulary = Vocabulary(load_pack("ja").vocabulary)
    with pytest.raises(AnswerError, match=r"is not an answer here; choose from done \(Enter\), innocent, exonerated or witch"):
        parse_answer(HUNTER_ACTION, text, vocabulary)


def test_help_is_a_command_from_any_listener():
    async def go():
        hub = ListenerHub(Vocabulary(load_pack("ja").vocabulary))
        for word in ("h", "help", "ヘルプ", "たすけて"):
            assert hub.offer_text(word, "keyboard") is None
            assert hub.command_nowait().value == "help"
    asyncio.run(go())


def make_scheduler(tmp_path, clock, lang="en"):
    pack = load_pack(lang)
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    transcript = Transcript(tmp_path / "t.jsonl")
    scheduler = Scheduler(TextVoice(pack), NullOutput(), clock, hub, transcript, ConsoleDisplay(False))
    return scheduler, hub, transcript


def test_help_speaks_the_open_questions_action_list_and_the_question_stays_open(tmp_path):
    async def go():
        scheduler, hub, transcript = make_scheduler(tmp_path, InstantClock())
        hub.register("keyboard")
        task = asyncio.ensure_future(scheduler.play([HUNTER_ACTION], {}))
        await hub.next_ask(0)
        hub.offer_text("h", "keyboard")
        await hub.commands_taken()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done()
        hub.offer_text("witch", "keyboard")
        heard = await task
        transcript.close()
        return heard
    heard = asyncio.run(go())
    assert heard.value == "witch"
    records = read_transcript(tmp_path / "t.jsonl")
    assert [(r["kind"], r["line"]) for r in records] == [
        ("ask", "pagan.action.hunter"), ("say", "pagan.help.general"), ("say", "pagan.help.hunter_board"),
        ("answer", "pagan.action.hunter"),
    ]
    assert records[1]["text"].startswith("Board actions: gain 2 influence")


def test_turn_clock_speaks_its_warnings_while_a_question_waits(tmp_path):
    """A 20 s turn on a manual clock, moved deadline by deadline while the question waits;
    the answer comes once time is up."""
    async def go():
        clock = ManualClock()
        scheduler, hub, transcript = make_scheduler(tmp_path, clock)
        hub.register("keyboard")
        cues = [TurnClock("turn", 20, (15, 5), "timer.warning", "pagan.clock.time_up"), HUNTER_ACTION]
        task = asyncio.ensure_future(scheduler.play(cues, {}))
        await clock.run_until(lambda: "pagan.clock.time_up" in (tmp_path / "t.jsonl").read_text(encoding="utf-8"),
                              limit=400)
        hub.offer_text("done", "keyboard")
        await clock.run_until(task.done)
        task.result()
        transcript.close()
    asyncio.run(go())
    records = read_transcript(tmp_path / "t.jsonl")
    said = [(r["line"], r.get("turn_clock")) for r in records if r["kind"] == "say"]
    assert said == [("timer.warning", 15), ("timer.warning", 5), ("pagan.clock.time_up", 0)]
    starts = {r.get("turn_clock"): r["t"] for r in records if r["kind"] == "say"}
    clock_start = next(r["t"] for r in records if r["kind"] == "turn_clock")
    # each alert at its slot or just after the clip in progress ends (never over a line)
    ask_end = next(r["t"] for r in records if r["kind"] == "ask") + load_pack("en").seconds_for(
        next(r["text"] for r in records if r["kind"] == "ask"))
    assert max(clock_start + 5, ask_end) <= starts[15] < max(clock_start + 5, ask_end) + 1.5
    assert clock_start + 20 <= starts[0] < clock_start + 22
    assert records[-1]["kind"] == "answer" and records[-1]["value"] == "done"


def test_a_new_turn_clock_replaces_the_running_one_and_an_end_stops_it():
    clock = TurnClockState()
    clock.start(0.0, TurnClock("turn", 60, (30, 10), end_line="up"))
    assert clock.next_deadline() == 30.0
    clock.start(40.0, TurnClock("turn", 60, (30,), end_line="up"))
    assert clock.next_deadline() == 70.0
    assert clock.due(69.9) is None
    assert clock.due(70.0).params == {"seconds": 30}
    clock.shift(5.0)  # a pause: the deadline moves on
    assert clock.due(100.0) is None and clock.next_deadline() == 105.0
    clock.start(0.0, TurnClock("turn", 0))
    assert not clock.running


def test_only_the_latest_overdue_alert_is_spoken():
    clock = TurnClockState()
    clock.start(0.0, TurnClock("turn", 60, (30, 10), end_line="up"))
    alert = clock.due(55.0)
    assert alert.seconds_left == 10 and clock.next_deadline() == 60.0
    assert clock.due(61.0).line == "up" and not clock.running


def test_scripted_resume_skip_does_not_count_same_question_commands(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("done\nhelp\ndone\nrepeat\ninnocent\ndone\n")
    hub = ListenerHub(Vocabulary(load_pack("en").vocabulary))
    lines = ScriptedListener(path).answers
    assert ScriptedListener._unused(hub, lines, 2) == lines[3:]
    assert ScriptedListener._unused(hub, lines, 3) == lines[5:]
    assert ScriptedListener._unused(hub, lines, 4) == []


def test_pause_during_a_question_holds_the_turn_clock(tmp_path):
    """A 40 s turn on a manual clock: ~60 game s pass before the answer, 40 of them paused,
    so the clock (never more than ~22 s used) does not run out."""
    async def go():
        clock = ManualClock()
        scheduler, hub, transcript = make_scheduler(tmp_path, clock)
        hub.register("keyboard")
        cues = [TurnClock("turn", 40, (), "timer.warning", "pagan.clock.time_up"), HUNTER_ACTION]
        task = asyncio.ensure_future(scheduler.play(cues, {}))
        await hub.next_ask(0)
        await clock.advance(6)
        hub.offer_text("p", "keyboard")
        await clock.advance(40)
        hub.offer_text("p", "keyboard")
        await clock.advance(10)
        hub.offer_text("done", "keyboard")
        await clock.run_until(task.done)
        task.result()
        transcript.close()
        return scheduler.clock.now()
    finished = asyncio.run(go())
    records = read_transcript(tmp_path / "t.jsonl")
    assert finished > 50  # past the unpaused deadline of 40
    said = [r["line"] for r in records if r["kind"] == "say"]
    assert said == ["control.paused", "control.resumed"]
    assert records[-1]["kind"] == "answer" and records[-1]["value"] == "done"
