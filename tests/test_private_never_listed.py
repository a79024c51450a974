"""A private question's choices tell whose it is (a seer's list leaves the seer out, an attack's
the wolves): they never reach the shared transcript, the terminal's prompt or a refusal the
whole table reads (issue 36). Seen failing on the old scheduler: the transcript's `ask` record
carried `choices` ["Aki", "Chika", "Dai"] and the terminal printed 1=Aki, 2=Chika, 3=Dai.
"""

from __future__ import annotations

import asyncio
import io

from narrator.cues import Ask
from narrator.inputs.hub import ListenerHub
from narrator.inputs.words import Vocabulary
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript, read_transcript

SEER = Ask("wolf.call.seer.choose", ("Aki", "Chika", "Dai"), player="Ben")  # Ben, the seer, is left out


def _scheduler(tmp_path):
    pack = load_pack("en")
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    hub.register("script")
    screen = io.StringIO()
    transcript = Transcript(tmp_path / "t.jsonl")
    display = ConsoleDisplay(True, screen)
    return Scheduler(TextVoice(pack), NullOutput(), InstantClock(), hub, transcript, display), hub, screen, transcript


async def _once_open(hub) -> None:
    """Until the scheduler has opened its question (a bounded number of turns of the loop)."""
    for _ in range(100):
        await asyncio.sleep(0)
        if hub.open_ask is not None:
            return


def test_a_private_question_on_the_phones_writes_and_shows_no_choices(tmp_path):
    scheduler, hub, screen, transcript = _scheduler(tmp_path)

    async def run():
        async def answer():
            await _once_open(hub)
            assert hub.offer_text("Zed", "script") == "that is not one of this private question's choices"
            assert hub.offer_text("Dai", "script") is None
        answering = asyncio.ensure_future(answer())
        playing = asyncio.ensure_future(scheduler.play([SEER], {"night": 1, "day": 0}))
        await asyncio.wait({answering, playing}, return_when=asyncio.FIRST_EXCEPTION, timeout=30)
        playing.cancel()
        answering.result()  # its refusal named the choices: fails here
        return await playing

    heard = asyncio.run(run())
    transcript.close()
    assert heard.value == "Dai"
    records = read_transcript(tmp_path / "t.jsonl")
    asked = [r for r in records if r["kind"] == "ask"]
    assert asked and all("choices" not in r for r in asked)
    answered = [r for r in records if r["kind"] == "answer"]
    assert answered and all(r.get("private") is True and "value" not in r for r in answered)
    shown = screen.getvalue()
    assert "Chika" not in shown and "1=" not in shown


def test_a_public_question_still_lists_its_choices(tmp_path):
    """The control: the vote is public, and its choices are the table's to see."""
    scheduler, hub, screen, transcript = _scheduler(tmp_path)
    vote = Ask("wolf.vote", ("Aki", "Ben"), multiple=True)

    async def run():
        async def answer():
            await _once_open(hub)
            hub.offer_text("Ben", "script")
        answering = asyncio.ensure_future(answer())
        await scheduler.play([vote], {"night": 1, "day": 1})
        await answering

    asyncio.run(run())
    transcript.close()
    asked = [r for r in read_transcript(tmp_path / "t.jsonl") if r["kind"] == "ask"]
    assert asked[0]["choices"] == ["Aki", "Ben"] and "1=Aki" in screen.getvalue()
