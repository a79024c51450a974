"""What the seed games have, for the kernel's games: a game killed at any step resumes from
its log to the same end; an undo takes back the last answer and the game goes on as if it
had never been given; `repeat` and `pause` during a game file's question (the vote, and a
private choice on the passed device) through the real scheduler.
"""

from __future__ import annotations

import asyncio
import io

import pytest

from narrator.cues import Answer, Ask, Collect, Continue, Say, Start
from narrator.games import get_game
from narrator.inputs.hub import Heard, ListenerHub
from narrator.inputs.words import Vocabulary
from narrator.settings import build_settings
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock
from narrator.table.display import ConsoleDisplay
from narrator.table.runner import play, resume_position, start_position
from narrator.table.scheduler import Scheduler
from narrator.table.store import GameStore
from narrator.table.transcript import Transcript, read_transcript
from tests.kernel_table import StepBudget

GAMES = {"one-night": ("Aki,Ben,Chika,Dai", {}), "one-night-device": ("Aki,Ben,Chika,Dai", {"digital_cards": "true",
                                                                                           "phones": True}),
         "werewolf": ("Aki,Ben,Chika,Dai,Emi,Fumi", {}), "tabula": ("Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana", {})}


class Killed(Exception):
    """The narrator is killed here: in the middle of a step, before its answer is logged."""


class ScriptedScheduler:
    """Answers each question from the script; raises `Killed` when asked to play step `kill_at`."""

    def __init__(self, heard, kill_at: int | None = None):
        self.heard, self.kill_at, self.steps, self.cursor = list(heard), kill_at, 0, 0.0

    async def play(self, cues, context):
        self.steps += 1
        if self.steps == self.kill_at:
            raise Killed
        self.cursor += 1.0
        if not any(isinstance(c, (Ask, Collect)) for c in cues):
            return None
        return self.heard.pop(0)


def _setup(name: str, tmp_path, tag: str):
    names, flags = GAMES[name]
    rules = get_game(name.replace("-device", ""))
    config = rules.configure(build_settings({}, {"names": names, "seed": "3", **flags}, "test"))
    store = GameStore.create(tmp_path / tag, rules.name, config.to_dict(), {})
    return rules, config, store


def _answers(rules, config) -> tuple[list, list]:
    """A whole game's answers (every choice the first allowed, the vote a human, so the game
    lasts), and for each another answer its question allows (or None: a night choice made in
    private, which no undo takes back, `test_an_undo_never_takes_back_a_private_night_choice`)."""
    state, event, answers, others, budget = rules.new_state(), Start(), [], [], StepBudget()
    while not state.finished:
        budget.tick()
        state, cues = rules.advance(config, state, event)
        if cues and isinstance(cues[-1], Collect):  # a game file's night call: every holder's first choice
            value = {r.player: {r.key: r.choices[0]} for r in cues[-1].requests}
            answers.append(value)
            others.append(None)
            event = Answer(value)
            continue
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is None:
            event = Continue()
            continue
        if ask.player is not None:  # the device passed round: a holder's private choice
            answers.append(ask.choices[0])
            others.append(None)
            event = Answer(ask.choices[0])
            continue
        if ask.multiple:
            humans = [n for n in ask.choices if not state.cards or state.cards[config.names.index(n)] != "werewolf"]
            value = (humans or list(ask.choices))[:1]
            other = [n for n in ask.choices if n not in value][:1] or None
        else:
            value = "yes" if "yes" in ask.choices else ask.choices[0]
            other = next((c for c in ask.choices if c != value), None)
        answers.append(value)
        others.append(other)
        event = Answer(value)
    return answers, others


def _private_answers(rules, config, answers) -> list[int]:
    """Which of a game's answers were night choices made in private (a call's round, or a
    holder's question on the passed device), but the last (no question follows it to undo at)."""
    state, event, k, private = rules.new_state(), Start(), 0, []
    while not state.finished:
        state, cues = rules.advance(config, state, event)
        last = cues[-1] if cues else None
        if isinstance(last, Collect) or (isinstance(last, Ask) and last.player is not None):
            private.append(k)
        if isinstance(last, (Ask, Collect)):
            event, k = Answer(answers[k]), k + 1
        else:
            event = Continue()
    return [i for i in private if i < len(answers) - 1]


def _logged_answers(store) -> int:
    lines = (store.folder / "events.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return sum('"type": "answer"' in line for line in lines)


def _heard(values):
    return [Heard("answer", v, "script") for v in values]


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "tabula" else n for n in GAMES])
def test_a_game_killed_at_any_step_resumes_to_the_same_end(tmp_path, name):
    rules, config, store = _setup(name, tmp_path, "reference")
    answers, _ = _answers(rules, config)
    reference = ScriptedScheduler(_heard(answers))
    final = asyncio.run(play(rules, config, store, reference, start_position(rules, config, store)))
    assert final.finished and not reference.heard
    for kill_at in range(2, reference.steps + 1):
        rules, config, store = _setup(name, tmp_path, f"kill{kill_at}")
        with pytest.raises(Killed):
            asyncio.run(play(rules, config, store, ScriptedScheduler(_heard(answers), kill_at=kill_at),
                             start_position(rules, config, store)))
        position = resume_position(rules, config, store)  # what `narrator resume` plays from
        again = ScriptedScheduler(_heard(answers[_logged_answers(store):]))
        resumed = asyncio.run(play(rules, config, store, again, position, recap=True))
        assert resumed.to_dict() == final.to_dict(), f"killed at step {kill_at}"
        assert not again.heard


@pytest.mark.parametrize("name", ["werewolf", "one-night"])
def test_an_undo_takes_back_the_last_answer_and_the_game_goes_on_the_same(tmp_path, name):
    rules, config, store = _setup(name, tmp_path, "reference")
    answers, others = _answers(rules, config)
    final = asyncio.run(play(rules, config, store, ScriptedScheduler(_heard(answers)),
                             start_position(rules, config, store)))
    undone = 0
    for k, other in enumerate(others):
        if other is None:
            continue
        rules, config, store = _setup(name, tmp_path, f"undo{k}")
        script = _heard(answers[:k]) + [Heard("answer", other, "script"), Heard("command", "undo", "keyboard")]
        scheduler = ScriptedScheduler(script + _heard(answers[k:]))
        state = asyncio.run(play(rules, config, store, scheduler, start_position(rules, config, store)))
        if len(scheduler.heard) == len(answers) - k + 1:  # the other answer ended the game: no undo takes it back
            continue
        assert state.to_dict() == final.to_dict(), f"undo of answer {k + 1}"
        undone += 1
    assert undone >= sum(o is not None for o in others) // 2


@pytest.mark.parametrize("name", ["werewolf", "one-night-device"])
def test_an_undo_never_takes_back_a_private_night_choice(tmp_path, name):
    """A seer who saw a result must not look again: an undo after a night choice made in
    private (on the passed device, or in a call's round on the phones) takes nothing back; the
    narrator says so aloud and asks the open question again, and the game goes on as without it.
    On the old runner the undo took the choice back and the holder chose (and saw) again."""
    from narrator.table.runner import rebuild

    rules, config, store = _setup(name, tmp_path, "reference")
    answers, others = _answers(rules, config)
    final = asyncio.run(play(rules, config, store, ScriptedScheduler(_heard(answers)),
                             start_position(rules, config, store)))
    private = _private_answers(rules, config, answers)
    assert private
    for k in private:
        rules, config, store = _setup(name, tmp_path, f"kept{k}")
        script = _heard(answers[:k + 1]) + [Heard("command", "undo", "keyboard")] + _heard(answers[k + 1:])
        scheduler = ScriptedScheduler(script)
        state = asyncio.run(play(rules, config, store, scheduler, start_position(rules, config, store)))
        assert state.to_dict() == final.to_dict(), f"undo after the private answer {k + 1}"
        events = store.events()
        undo = next(i for i, e in enumerate(events) if e["type"] == "undo")
        _, cues = rebuild(rules, config, events[:undo + 1])
        assert cues[0] == Say("wolf.undo_kept"), f"the undo after answer {k + 1} was not refused aloud"


def _scheduler(tmp_path, sequential: bool):
    pack = load_pack("en")
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    hub.sequential_private = hub.private_asks_on_device = sequential
    hub.register("keyboard")
    screen = io.StringIO()
    transcript = Transcript(tmp_path / "t.jsonl")
    scheduler = Scheduler(TextVoice(pack), NullOutput(), InstantClock(), hub, transcript, ConsoleDisplay(False, screen))
    return scheduler, hub, screen, transcript


async def _type(hub: ListenerHub, words: list[str]) -> None:
    """Type each word once a question is open (a new one each time, or the same after a command)."""
    for word in words:
        for _ in range(200):
            await asyncio.sleep(0)
            if hub.open_ask is not None or hub._answer is not None:
                break
        hub.offer_text(word, "keyboard")
        for _ in range(5):
            await asyncio.sleep(0)


def _cues_until(name: str, line: str):
    """The config, and the cues of the first step of a werewolf game that asks `line`."""
    rules = get_game(name)
    config = rules.configure(build_settings({}, {"names": GAMES[name][0], "seed": "3"}, "test"))
    state, event, budget = rules.new_state(), Start(), StepBudget()
    while True:
        budget.tick()
        state, cues = rules.advance(config, state, event)
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is not None and ask.line == line:
            return config, cues
        event = Continue() if ask is None else Answer(ask.choices[:1] if ask.multiple else
                                                      ("yes" if "yes" in ask.choices else ask.choices[0]))


def test_repeat_and_pause_during_the_vote_of_a_game_file(tmp_path):
    _, cues = _cues_until("werewolf", "wolf.vote")
    scheduler, hub, _, transcript = _scheduler(tmp_path, sequential=False)
    vote = cues[-1]

    async def run():
        typing = asyncio.ensure_future(_type(hub, ["r", "p", "p", "1"]))
        heard = await scheduler.play([vote], {"night": 1, "day": 1})
        typing.cancel()
        return heard

    heard = asyncio.run(run())
    transcript.close()
    records = read_transcript(tmp_path / "t.jsonl")
    asks = [r for r in records if r["kind"] == "ask" and r["line"] == "wolf.vote"]
    assert len(asks) == 2 and asks[1].get("repeat") is True  # said again on `r`
    said = [r["line"] for r in records if r["kind"] == "say"]
    assert "control.paused" in said and "control.resumed" in said
    assert heard.value == [vote.choices[0]]


def test_pause_during_a_private_choice_on_the_passed_device_holds_the_table(tmp_path):
    _, cues = _cues_until("werewolf", "wolf.call.seer.choose")
    choice = cues[-1]
    assert choice.player is not None
    scheduler, hub, screen, transcript = _scheduler(tmp_path, sequential=True)

    async def run():
        typing = asyncio.ensure_future(_type(hub, ["", "p", "p", "1", "", ""]))
        heard = await scheduler.play([choice], {"night": 1, "day": 0})
        typing.cancel()
        return heard

    heard = asyncio.run(run())
    transcript.close()
    records = read_transcript(tmp_path / "t.jsonl")
    said = [r["line"] for r in records if r["kind"] == "say"]
    assert said[0] == "private.call" and "control.paused" in said and "control.resumed" in said
    assert heard.value == choice.choices[0]
    assert "wolf.call.seer.choose" not in [r.get("line") for r in records]  # never said, nor its answer written
    assert f"==== {choice.player} ====" in screen.getvalue() and "Whom do you divine tonight?" in screen.getvalue()
