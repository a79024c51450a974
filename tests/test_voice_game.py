"""Whole games driven by recognized speech, and the narrator never hearing itself.

A scripted microphone plays espeak-ng WAVs into the voice listener at the moments a table
would speak (when a question opens); the real Korean vosk model recognizes them through
the game's own wiring (`open_voice`, added to the sitting), and the transcript shows every answer and
every confirmation. A second test plays the narrator's own speech, and a word that would
be heard, into the microphone while the narrator speaks: nothing of it is heard.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from narrator.sound.outputs import NullOutput
from narrator.table.clock import ScaledClock, settle
from narrator.cues import Ask, Say
from narrator.table.display import ConsoleDisplay
from narrator.games import get_game
from narrator.inputs.hub import ListenerHub, Vocabulary
from narrator.inputs.voice.grammar import PhraseBook
from narrator.inputs.voice.setup import ListenOptions, open_voice
from narrator.inputs.voice.microphone import QueueSource
from narrator.inputs.voice.listener import VoiceListener
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.scheduler import Scheduler
from narrator.table.session import RunOptions, open_sitting
from narrator.settings import build_settings
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.voice import wav_duration, EngineVoice
from narrator.table.store import GameStore
from narrator.table.transcript import Transcript, read_transcript
from narrator.sound.voicepack import load_pack
from tests.voice_support import NAMES, ko_engine, make_ko_pack, say_wav

pytestmark = pytest.mark.slow


class ScriptedMicrophone:
    """Speaks the next scripted word for a question into the microphone when it opens."""

    def __init__(self, mic: QueueSource, script: dict[str, list[str]], default: dict[str, str]):
        self.mic, self.script, self.default = mic, script, default
        self.said: list[tuple[str, str]] = []

    def on_ask(self, ask: Ask | None) -> None:
        if ask is None:
            return
        words = self.script.get(ask.line)
        word = words.pop(0) if words else self.default.get(ask.line.split(".")[0])
        if word is None:
            return
        self.said.append((ask.line, word))
        # after every watcher has seen the question (the listener switches grammar first)
        asyncio.get_running_loop().call_soon(self.mic.push_wav, say_wav(word))


def play_by_voice(home: Path, tmp_path: Path, script: dict[str, list[str]]):
    make_ko_pack(home)
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": ",".join(NAMES), "days": 3, "seed": 7, "redeal": 15}, "test"))
    answers = tmp_path / "answers.txt"
    answers.write_text("done   # the keyboard-like script answers the first question, the voice the rest\n")
    transcript = tmp_path / "transcript.jsonl"
    run = RunOptions(lang="ko", voice="text", time_scale=0, keyboard=False, answers=str(answers),
                     transcript=str(transcript), listening={"listen": "off"})
    sitting = open_sitting(run, names=NAMES)
    mic = QueueSource(16000)
    listener = open_voice(ListenOptions(listen="on"), load_pack("ko"), NAMES, warn=pytest.fail,
                          source=mic, engine=ko_engine())
    sitting.add(listener)
    speaker = ScriptedMicrophone(mic, script, default={"confirm": "네", "strategist": "아니요", "end": "아니요"})
    store = GameStore.create(home, rules.name, config.to_dict(), run.to_dict())
    position = start_position(rules, config, store)

    async def game():
        sitting.start_listeners(asyncio.get_running_loop())
        sitting.hub.observe(on_ask=speaker.on_ask)
        return await asyncio.wait_for(play_loop(rules, config, store, sitting.scheduler, position), 120)

    try:
        state = asyncio.run(game())
    finally:
        mic.close()
        sitting.close()
    return state, read_transcript(transcript), listener, speaker


def dialogue(records):
    """The questions asked and the answers given, in order."""
    out = []
    for r in records:
        if r["kind"] == "ask":
            out.append(("ask", r["line"], r["text"]))
        elif r["kind"] == "answer":
            out.append(("answer", r["line"], r["value"], r["source"]))
    return out


def test_a_whole_game_played_by_voice_with_confirmations(narrator_home, tmp_path):
    script = {
        "nomination.who": ["영희", "민수 수박", "포도"],
        "confirm.name": ["아니요", "네", "네"],        # 영희 was misheard: the table says no
        "nomination.werewolf_found": ["아니요", "아니요", "네"],
        "strategist.question": ["취소", "아니요"],   # 취소 = undo: the werewolf answer is asked again
    }
    state, records, listener, speaker = play_by_voice(narrator_home, tmp_path, script)
    assert state.winner == "citizens"
    assert state.nominations == (("민수", "수박"), ("포도",))
    talk = dialogue(records)
    day1 = talk[talk.index(("ask", "nomination.who", next(t[2] for t in talk if t[1] == "nomination.who"))):]
    assert day1[:8] == [
        ("ask", "nomination.who", day1[0][2]),
        ("ask", "confirm.name", "영희, is that right?"),
        ("answer", "confirm.name", "no", "voice"),
        ("ask", "confirm.name", "민수 and 수박, is that right?"),
        ("answer", "confirm.name", "yes", "voice"),
        ("answer", "nomination.who", ["민수", "수박"], "voice"),
        ("ask", "nomination.werewolf_found", day1[6][2]),
        ("ask", "confirm.no", "No, is that right?"),
    ]
    assert ("answer", "setup.ready", "done", "script") in talk  # another listener answered alongside
    assert ("ask", "confirm.yes", "Yes, is that right?") in talk
    assert talk[-1] == ("answer", "nomination.werewolf_found", "yes", "voice")
    assert any(r["line"] == "confirm.again" for r in records)
    undo = talk.index(("answer", "strategist.question", "undo", "voice"))
    assert talk[undo + 1][:2] == ("ask", "nomination.werewolf_found")  # the last answer was taken back
    assert any(r["line"] == "control.undone" for r in records)
    used = [h for h in listener.hearings if h.outcome == "used"]
    assert len(used) == len(speaker.said)  # every word spoken was heard once and used
    assert records[-1]["kind"] == "end" and records[-1]["winner"] == "citizens"


def rendered(voice, line: str) -> Path:
    """A line's clip, rendered once into the test cache (pyttsx3 sometimes writes no audio
    when both cores are busy; that is the TTS engine's problem, not what is tested here)."""
    for attempt in range(3):
        try:
            return voice.clip(line).wav
        except EngineUnavailable:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def own_speech_run(home: Path, tmp_path: Path, mute: bool):
    """Narrate a line and a question at real speed while the microphone hears the narrator."""
    make_ko_pack(home)
    pack = load_pack("ko")
    clips = Path(__file__).resolve().parent / ".cache" / "own-speech-clips"
    clips.mkdir(parents=True, exist_ok=True)
    voice = EngineVoice(pack, load_tts("pyttsx3"), cache_dir=clips)
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    transcript = tmp_path / "own.jsonl"
    scheduler = Scheduler(voice, NullOutput(), ScaledClock(1.0), hub, Transcript(transcript), ConsoleDisplay(False))
    mic = QueueSource(16000)
    # the control (mute=False) is deaf to the hook and acts on nothing (confidence above 1), so
    # what it hears while the narrator talks is only recorded, never paused or answered on
    listener = VoiceListener(ko_engine(), mic, PhraseBook.from_pack(pack, NAMES), confidence=0.7 if mute else 1.01,
                             mute_tail=0.3)
    if not mute:
        listener._on_speech = lambda seconds, wav=None: None
    question = Ask("nomination.werewolf_found", ("yes", "no"))
    cues = [Say("confirm.again"), question] if mute else [Say("confirm.again"), Say(question.line)]
    own_clips = [rendered(voice, "confirm.again"), rendered(voice, question.line)]
    spoken_during = []

    def while_speaking(seconds: float, wav: Path | None = None) -> None:
        clip = own_clips[len(spoken_during) % 2]
        spoken_during.append(seconds)
        loop = asyncio.get_running_loop()
        loop.call_soon(mic.push_wav, clip)            # the narrator's own voice, through the air
        loop.call_soon(mic.push_wav, say_wav("네"))   # and a word that would be heard as "yes"

    def when_asked(ask: Ask | None) -> None:
        if ask is not None:  # the question opens as it starts to be said; the table answers
            # after the narrator (and the mute tail) ends
            asyncio.get_running_loop().call_later(0.5 + wav_duration(own_clips[1]), mic.push_wav, say_wav("아니요"))

    async def scene():
        listener.start(hub, asyncio.get_running_loop())
        hub.observe(on_ask=when_asked, on_speech=while_speaking)
        heard = await asyncio.wait_for(scheduler.play(cues, {}), 60)
        if not mute:  # let the recognizer finish what it was fed: the audio ends, its thread reads it all
            mic.close()
            await asyncio.to_thread(listener.thread.join, 60)
            assert not listener.thread.is_alive(), "the recognizer never finished"
            await settle()  # what it heard, handed to the loop, is noted
        return heard

    try:
        heard = asyncio.run(scene())
    finally:
        mic.close()
        scheduler.transcript.close()
    return heard, listener, spoken_during


def test_the_narrators_own_speech_changes_nothing(narrator_home, tmp_path):
    heard, listener, spoken = own_speech_run(narrator_home, tmp_path, mute=True)
    assert len(spoken) == 2 and listener.dropped_chunks > 0
    assert heard.value == "no" and heard.source == "voice"
    assert [(h.text, h.outcome) for h in listener.hearings] == [("아니요", "used")]


def test_without_the_mute_the_narrator_would_hear_itself(narrator_home, tmp_path):
    """The control for the test above: the same speech with the hook ignored is "heard"."""
    _, listener, spoken = own_speech_run(narrator_home, tmp_path, mute=False)
    assert len(spoken) == 2 and listener.dropped_chunks == 0
    assert listener.hearings  # words heard while only the narrator was talking
    assert {h.outcome for h in listener.hearings} <= {"low-confidence", "not-understood"}
