"""An answer given early counts; `r` repeats the instruction; answers that end the game are
confirmed at the keyboard too (#14 items 4 and 5)."""

from __future__ import annotations

import asyncio

import pytest

from narrator.cues import Ask, Countdown, Say
from narrator.inputs.hub import ListenerHub
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import ManualClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript, read_transcript

def build(tmp_path, confirm=False):
    """A scheduler on a `ManualClock`: the scenes say at which game second the table types."""
    hub = ListenerHub()
    hub.register("keyboard")
    path = tmp_path / "t.jsonl"
    scheduler = Scheduler(TextVoice(load_pack("ja")), NullOutput(), ManualClock(), hub,
                          Transcript(path), ConsoleDisplay(False), confirm=confirm)
    return scheduler, hub, path


async def _finish(scheduler, task):
    """Move the clock on until the scene's `play` returns (an error if it waits for an answer)."""
    await scheduler.clock.run_until(task.done)
    return task.result()


async def _while_speaking(scheduler, cues, typed, at=0.5):
    """Play `cues`; type each of `typed` `at` game seconds into the last line (the question)."""
    clock = scheduler.clock
    task = asyncio.ensure_future(scheduler.play(cues, {"day": 1}))
    await clock.run_until(lambda: any(r for r in scheduler.transcript_records() if r["kind"] == "ask"))
    hints = []
    for text in typed:
        await clock.advance(at)
        hints.append((scheduler.hub.offer_text(text, "keyboard"), clock.now()))
    return await _finish(scheduler, task), hints


@pytest.fixture(autouse=True)
def _records(monkeypatch, tmp_path):
    """Let a scenario see what the scheduler has written so far."""
    monkeypatch.setattr(Scheduler, "transcript_records",
                        lambda self: read_transcript(self.transcript.path) if self.transcript.path.exists() else [],
                        raising=False)


def test_an_answer_typed_while_the_question_is_said_is_the_answer(tmp_path):
    scheduler, hub, path = build(tmp_path)
    question = Ask("nomination.werewolf_found", ("yes", "no"))
    heard, hints = asyncio.run(_while_speaking(scheduler, [Say("nomination.declare"), question], ["n"]))
    (hint, typed_at), = hints
    assert hint is None
    assert heard.value == "no" and heard.source == "keyboard"
    records = read_transcript(path)
    asked = next(r for r in records if r["kind"] == "ask")
    answered = next(r for r in records if r["kind"] == "answer")
    said = load_pack("ja").seconds_for(asked["text"])
    assert asked["t"] <= typed_at < asked["t"] + said  # typed while the question was being said
    assert answered["t"] >= asked["t"] + said - 0.01  # and taken once it had been said


def test_the_old_way_dropped_the_early_answer(tmp_path, monkeypatch):
    """Control: opening the question only after it was said drops the same early `n`."""

    def late_open(hub, ask):
        async def after_saying():
            while scheduler.cursor > scheduler.clock.now():
                await scheduler.clock.sleep_until(scheduler.cursor)
            return await hub._first_answer(ask)
        return asyncio.ensure_future(after_saying())

    scheduler, hub, path = build(tmp_path)
    monkeypatch.setattr(ListenerHub, "first_answer", late_open)
    question = Ask("nomination.werewolf_found", ("yes", "no"))

    async def scene():
        task = asyncio.ensure_future(scheduler.play([question], {"day": 1}))
        await scheduler.clock.advance_to(0.5)
        hint = hub.offer_text("n", "keyboard")
        await scheduler.clock.advance(10)
        task.cancel()
        return hint

    assert asyncio.run(scene()) == "nothing is being asked right now"


def test_r_at_a_question_repeats_the_instruction_before_it(tmp_path):
    scheduler, hub, path = build(tmp_path)
    question = Ask("nomination.werewolf_found", ("yes", "no"))

    async def scene():
        task = asyncio.ensure_future(scheduler.play([Say("nomination.declare"), question], {"day": 1}))
        await scheduler.clock.advance_to(30)  # the question has been said
        hub.offer_text("r", "keyboard")
        await scheduler.clock.advance_to(60)
        hub.offer_text("y", "keyboard")
        return await _finish(scheduler, task)

    asyncio.run(scene())
    said = [(r["kind"], r["line"], bool(r.get("repeat"))) for r in read_transcript(path) if r["kind"] in ("say", "ask")]
    assert said == [("say", "nomination.declare", False), ("ask", "nomination.werewolf_found", False),
                    ("say", "nomination.declare", True), ("ask", "nomination.werewolf_found", True)]


def test_r_during_a_countdown_repeats_the_calls_instruction_and_holds_the_count(tmp_path):
    scheduler, hub, path = build(tmp_path)

    async def scene():
        task = asyncio.ensure_future(scheduler.play([Say("seer.act"), Countdown(5), Say("night.sleep")], {"night": 1}))
        await scheduler.clock.run_until(lambda: path.exists() and any(r["kind"] == "tick" for r in read_transcript(path)))
        hub.offer_text("r", "keyboard")
        await _finish(scheduler, task)

    asyncio.run(scene())
    records = read_transcript(path)
    kinds = [(r["kind"], r["line"], bool(r.get("repeat"))) for r in records if r["kind"] != "tick"]
    assert kinds == [("say", "seer.act", False), ("say", "seer.act", True), ("say", "night.sleep", False)]
    ticks = [r for r in records if r["kind"] == "tick"]
    assert [r["n"] for r in ticks] == [5, 4, 3, 2, 1, 0]  # every number still said, once
    repeat = records[[r.get("repeat") for r in records].index(True)]
    after = [r for r in ticks if r["t"] > repeat["t"]]
    assert after and after[0]["t"] >= repeat["t"] + load_pack("ja").seconds_for(repeat["text"]) - 0.01


def test_a_keyboard_yes_that_ends_the_game_is_confirmed(tmp_path):
    scheduler, hub, path = build(tmp_path, confirm=True)
    question = Ask("nomination.werewolf_found", ("yes", "no"), ends_game=("yes",))

    async def scene():
        task = asyncio.ensure_future(scheduler.play([question], {"day": 1}))
        await scheduler.clock.advance_to(30)
        hub.offer_text("y", "keyboard")      # a stray y …
        await scheduler.clock.advance_to(60)
        hub.offer_text("n", "keyboard")      # … is not confirmed: the question is asked again
        await scheduler.clock.advance_to(90)
        hub.offer_text("n", "keyboard")
        return await _finish(scheduler, task)

    heard = asyncio.run(scene())
    assert heard.value == "no"
    lines = [(r["kind"], r["line"]) for r in read_transcript(path) if r["kind"] in ("ask", "say")]
    # after the n, the question itself is said again (issue 26), not only 「もう一度答えてください」
    assert lines == [("ask", "nomination.werewolf_found"), ("ask", "confirm.yes"), ("say", "confirm.again"),
                     ("say", "nomination.werewolf_found")]
    answers = [r["value"] for r in read_transcript(path) if r["kind"] == "answer"]
    assert answers == ["no", "no"]  # 「「はい」ですね？」 no; then the question, reopened: no


def test_an_answer_that_does_not_end_the_game_is_not_confirmed(tmp_path):
    scheduler, hub, path = build(tmp_path, confirm=True)
    question = Ask("nomination.werewolf_found", ("yes", "no"), ends_game=("yes",))

    async def scene():
        task = asyncio.ensure_future(scheduler.play([question], {"day": 1}))
        await scheduler.clock.advance_to(30)
        hub.offer_text("n", "keyboard")
        return await _finish(scheduler, task)

    assert asyncio.run(scene()).value == "no"
    assert [r["line"] for r in read_transcript(path) if r["kind"] == "ask"] == ["nomination.werewolf_found"]


def test_undo_at_the_confirmation_takes_the_ending_answer_back(tmp_path):
    scheduler, hub, path = build(tmp_path, confirm=True)
    question = Ask("nomination.werewolf_found", ("yes", "no"), ends_game=("yes",))

    async def scene():
        task = asyncio.ensure_future(scheduler.play([question], {"day": 1}))
        await scheduler.clock.advance_to(30)
        hub.offer_text("y", "keyboard")
        await scheduler.clock.advance_to(60)
        hub.offer_text("u", "keyboard")      # at 「「はい」ですね？」
        await scheduler.clock.advance_to(90)
        hub.offer_text("u", "keyboard")      # and at the question asked again: undo as usual
        return await _finish(scheduler, task)

    heard = asyncio.run(scene())
    assert heard.kind == "command" and heard.value == "undo"
    asks = [r["line"] for r in read_transcript(path) if r["kind"] == "ask"]
    assert asks == ["nomination.werewolf_found", "confirm.yes"]
    answers = [r["value"] for r in read_transcript(path) if r["kind"] == "answer"]
    assert answers == ["no", "undo"]  # the confirmation's undo is a no; the reopened question's an undo


def _asks(cues, line):
    return [c for c in cues if isinstance(c, Ask) and c.line == line]


def _play(rules, config, replies):
    """Play to the end: a `done` question is answered done, any other by `replies[line]`."""
    state, event, asks = rules.new_state(), {"type": "start"}, []
    for _ in range(10_000):
        state, cues = rules.advance(config, state, event)
        if state.finished:
            return asks
        if cues and isinstance(cues[-1], Ask):
            asks.append(cues[-1])
            event = {"type": "answer", "value": "done" if cues[-1].choices == ("done",) else replies[cues[-1].line]}
        else:
            event = {"type": "continue"}
    raise AssertionError("game did not end")


def test_additional_werewolf_marks_the_answers_that_end_the_game():
    from tests.engine_driver import configure

    rules, config = configure(players=5, cards="seer=1,on_break=4", days=2)
    asks = _play(rules, config, {"nomination.werewolf_found": "no"})
    found = [a for a in asks if a.line == "nomination.werewolf_found"]
    assert [a.ends_game for a in found] == [("yes",), ("yes", "no")]  # day 1, then the last day
    rules, config = configure(players=6, cards="seer=1,lovers=2,strategist=1,on_break=2", days=2)
    asks = _play(rules, config, {"nomination.werewolf_found": "yes", "end.lovers_question": "no"})
    assert _asks(asks, "nomination.werewolf_found")[0].ends_game == ()  # lovers are asked next
    assert _asks(asks, "end.lovers_question")[0].ends_game == ("yes", "no")
