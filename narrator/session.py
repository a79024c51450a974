"""Wiring for one sitting at the table: voice, audio output, clock, listeners, transcript.

Everything that can be missing on a given machine (an engine, PortAudio, a speaker) is
tried here, and each missing piece falls back to the next best with one warning line,
so `narrator play` always gets a game going.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from narrator.audio import AudioOutput, AudioUnavailable, NullOutput, open_output
from narrator.clock import make_clock
from narrator.display import ConsoleDisplay
from narrator.errors import NarratorError
from narrator.listeners import ListenerHub, Vocabulary
from narrator.listeners.keyboard import KeyboardListener
from narrator.listeners.private_script import PrivateScriptListener, is_json_lines
from narrator.listeners.scripted import ScriptedListener
from narrator.scheduler import Scheduler
from narrator.speech import load_tts
from narrator.speech.voice import EngineVoice, TextVoice
from narrator.transcript import Transcript
from narrator.voicepack import load_pack


@dataclass
class RunOptions:
    """How a game is run (not what is played): kept with the saved game for resume."""

    lang: str = "ja"
    voice: str = "auto"
    time_scale: float = 1.0
    audio: str = "auto"
    audio_device: str | None = None
    answers: str | None = None
    transcript: str | None = None
    keyboard: bool = True
    phones: bool = False
    host: str | None = None
    port: int = 8080

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Sitting:
    scheduler: Scheduler
    hub: ListenerHub
    output: AudioOutput
    transcript: Transcript
    starters: list[Callable[[asyncio.AbstractEventLoop], Any]] = field(default_factory=list)

    def start_listeners(self, loop: asyncio.AbstractEventLoop) -> None:
        for start in self.starters:
            start(loop)

    def close(self) -> None:
        self.output.close()
        self.transcript.close()


def open_sitting(run: RunOptions, start_at: float = 0.0, answers_used: int = 0,
                 warn: Callable[[str], None] | None = None) -> Sitting:
    """Build the scheduler and listeners for `run`; `answers_used` skips scripted answers."""
    warn = warn or (lambda message: print(f"warning: {message}", file=sys.stderr, flush=True))
    voice, output, show_lines = _voice_and_output(run, warn)
    pack = voice.pack
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    transcript = Transcript(Path(run.transcript) if run.transcript else None)
    display = ConsoleDisplay(show_lines=show_lines)
    scheduler = Scheduler(voice, output, make_clock(run.time_scale, start_at), hub, transcript, display)
    sitting = Sitting(scheduler, hub, output, transcript)
    private_script = bool(run.answers) and is_json_lines(Path(run.answers))
    if private_script:
        script = PrivateScriptListener(Path(run.answers))
        sitting.starters.append(lambda loop: script.start(hub, loop))
    elif run.answers:
        scripted = ScriptedListener(Path(run.answers), skip=answers_used)
        sitting.starters.append(lambda loop: scripted.start(hub, loop))
    # Pass-the-device: with a keyboard and no scripted private answers, private rounds are
    # played one player at a time on this terminal.
    hub.sequential_private = run.keyboard and not private_script and not run.phones
    if run.keyboard:
        sitting.starters.append(lambda loop: KeyboardListener().start(hub, loop))
    return sitting


def _voice_and_output(run: RunOptions, warn: Callable[[str], None]) -> tuple[Any, AudioOutput, bool]:
    pack_name = run.lang if run.voice in ("auto", "text") else run.voice
    pack = load_pack(pack_name)
    if run.voice == "text":
        return TextVoice(pack), NullOutput(), True
    try:
        output = NullOutput() if run.audio == "null" or run.time_scale == 0 else open_output(run.audio, run.audio_device)
    except AudioUnavailable as err:
        if run.audio == "device":
            raise
        warn(f"{err}; printing the lines instead")
        return TextVoice(pack), NullOutput(), True
    try:
        engine = load_tts(pack.engine)
    except NarratorError as err:
        warn(f"{err}; printing the lines instead")
        return TextVoice(pack), NullOutput(), True
    return EngineVoice(pack, engine), output, sys.stdout.isatty()

