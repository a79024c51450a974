"""Pass-the-device with Bestia Magica's own cues, through the real scheduler and hub (issue 15).

The tally line comes before the device goes round, no reading countdown follows it (each player
read alone), numbers are seats on every screen, a choice is shown and confirmed before the
screen clears, and `u` takes back only the holder's own choice.
"""

import asyncio
import io
import re

from narrator.cues import Collect
from narrator.inputs.hub import ListenerHub, Vocabulary
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript, read_transcript
from tests.bm_driver import RULES
from tests.bm_table import Table

DEAL = "Aki=prophet:S,Ben=beast:M,Chika=townsperson:N,Dai=guard:S,Emi=townsperson:M"


def make_scheduler(tmp_path, sequential: bool):
    pack = load_pack("en")
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    hub.sequential_private = sequential
    hub.register("keyboard")
    screen = io.StringIO()
    transcript = Transcript(tmp_path / "t.jsonl")
    scheduler = Scheduler(TextVoice(pack), NullOutput(), InstantClock(), hub, transcript, ConsoleDisplay(False, screen))
    return scheduler, hub, screen, transcript


def results_step(t: Table):
    """The cues of the step that resolves night 1 (results, then the morning)."""
    answers = {r.player: {"target": r.choices[0], "ability": False} for r in t.collect.requests}
    answers["Ben"] = {"target": "Chika", "ability": False}
    answers["Aki"] = {"target": "Ben", "ability": False}
    _, cues = RULES.advance(t.config, t.state, {"type": "answer", "value": answers})
    return cues


async def holder(hub: ListenerHub, script: list[str], typed: list[str]):
    """The player holding the device: Enter on every question; on each memo screen the next
    scripted line (a choice, or "u"); on a confirmation a scripted "u", else Enter. One line
    per screen, as a person reads the screen before typing."""
    answered_ask = answered_collect = 0
    while True:
        await asyncio.sleep(0)
        if hub._ask is not None and hub._answer is not None and not hub._answer.done():
            if hub._ask_serial == answered_ask:
                continue
            answered_ask = hub._ask_serial
            text = script.pop(0) if hub._ask.line == "private.confirm" and script and script[0] == "u" else ""
        elif hub._collect is not None and hub._collect.pending() and script:
            if hub._collect_serial == answered_collect:
                continue
            answered_collect = hub._collect_serial
            text = script.pop(0)
        else:
            continue
        typed.append(text)
        hub.offer_text(text, "keyboard")


def play(tmp_path, cues, sequential: bool, script=()):
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential)
    typed: list[str] = []

    async def run():
        task = asyncio.ensure_future(holder(hub, list(script), typed))
        try:
            return await scheduler.play(cues, {"night": 1, "day": 0})
        finally:
            task.cancel()

    heard = asyncio.run(run())
    transcript.close()
    return heard, screen.getvalue(), read_transcript(tmp_path / "t.jsonl"), typed


def test_the_tally_is_said_first_and_no_countdown_follows_the_device(tmp_path):
    cues = results_step(Table(DEAL))
    _, _, records, _ = play(tmp_path, cues, sequential=True)
    lines = [r.get("line") for r in records if r["kind"] in ("say", "tick")]
    tally = lines.index("bm.night.results")
    calls = [i for i, line in enumerate(lines) if line == "private.call"]
    assert calls and tally < calls[0]  # 「集計が終わりました…」 before anyone is handed the device
    morning = lines.index("bm.morning.begin")
    assert "tick" not in lines[calls[-1]:morning]  # no reading countdown after everyone has read


def test_with_phones_the_reading_countdown_is_played(tmp_path):
    cues = results_step(Table(DEAL))
    _, _, records, _ = play(tmp_path, cues, sequential=False)
    lines = [r.get("line") for r in records if r["kind"] in ("say", "tick")]
    between = lines[lines.index("bm.night.results"):lines.index("bm.morning.begin")]
    assert between.count("tick") == 11  # results = 10: 10 … 0


def test_choices_are_numbered_by_seat_and_confirmed_before_the_screen_clears(tmp_path):
    t = Table(DEAL)
    memo = t.collect
    assert memo.seats == ("Aki", "Ben", "Chika", "Dai", "Emi")
    # Aki (seat 1) picks seat 5, Ben (seat 2) seat 3, Chika seat 1, Dai seat 2, Emi seat 4
    heard, screen, _, _ = play(tmp_path, [memo], sequential=True, script=["5 n", "3 n", "1 y", "2 n", "4 n"])
    assert {p: a["target"] for p, a in heard.value.items()} == {
        "Aki": "Emi", "Ben": "Chika", "Chika": "Aki", "Dai": "Ben", "Emi": "Dai"}
    screens = [s for s in screen.split("---- screen cleared ----") if "====" in s]
    ben = next(s for s in screens if "==== Ben ====" in s and "memo" in s)
    # Ben may not attack himself or a beast: his list skips seat 2, and Chika is still 3
    assert re.search(r"^\s+1=Aki, 3=Chika, 4=Dai, 5=Emi\s*$", ben, re.M), ben
    assert "Your choice: 3, Chika." in ben and "Attribute ability: no." in ben
    assert ben.index("Your choice") > ben.index("3=Chika")  # shown after choosing, before the clear


def test_u_chooses_again_without_leaving_the_round(tmp_path):
    t = Table(DEAL)
    # Aki types u before choosing (nothing to take back), chooses 5, takes it back, chooses 3
    heard, screen, records, typed = play(tmp_path, [t.collect], sequential=True,
                                         script=["u", "5 n", "u", "3 y", "1 n", "2 n", "1 n", "1 n"])
    assert heard.kind == "answer"  # not an undo handed to the runner (that restarted the game)
    assert heard.value["Aki"] == {"target": "Chika", "ability": True}
    assert "Your choice: 5, Emi." in screen and "Your choice: 3, Chika." in screen
    calls = [r["text"] for r in records if r["kind"] == "say" and r["line"] == "private.call"]
    assert calls.count("Aki, please take the device.") == 1  # the round went on, not back
    assert isinstance(t.collect, Collect)


class InstantTypist(ConsoleDisplay):
    """A player who types the moment a screen appears: Enter on "Press Enter" screens, else the
    first seat listed (with "n" on a memo). The keyboard is read on its own thread, which hands
    a line to the loop with `call_soon_threadsafe`; a line typed the instant the screen is
    printed is queued then, before anything the game does after printing: `call_soon` here."""

    def __init__(self, hub, stream):
        super().__init__(False, stream)
        self.hub, self.hints = hub, []

    def private(self, player, lines):
        super().private(player, lines)
        last = lines[-1]
        if "Press Enter" in last:
            text = ""
        else:
            seat = re.match(r"\s+(\d+)=", last).group(1)
            text = f"{seat} n" if any("memo" in line for line in lines) else seat
        asyncio.get_running_loop().call_soon(lambda: self.hints.append(self.hub.offer_text(text, "keyboard")))


def test_an_answer_typed_the_instant_its_screen_shows_is_not_lost(tmp_path):
    """Each question opens before its screen is shown; before, the line reached the hub first,
    was refused ("nothing is being asked") and the game waited for ever (seen under load)."""
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=True)
    scheduler.display = typist = InstantTypist(hub, screen)

    async def run():
        return await asyncio.wait_for(scheduler.play([Table(DEAL).collect], {"night": 1, "day": 0}), 10)

    heard = asyncio.run(run())
    transcript.close()
    assert set(heard.value) == {"Aki", "Ben", "Chika", "Dai", "Emi"}
    assert [h for h in typist.hints if h is not None and "nothing is being asked" in h] == []
