"""Wiring for one sitting at the table: voice, audio output, clock, listeners, transcript.

Everything that can be missing on a given machine (an engine, PortAudio, a speaker) is
tried here, and each missing piece falls back to the next best with one warning line,
so `narrator play` always gets a game going.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from narrator.games.contract import C, S, Game
from narrator.sound.outputs import AudioOutput, AudioUnavailable, NullOutput, open_output
from narrator.table.clock import Clock, make_clock
from narrator.table.display import ConsoleDisplay
from narrator.inputs.hints import Hints
from narrator.inputs.hub import Listener, ListenerHub, Vocabulary
from narrator.inputs.keyboard import KeyboardListener
from narrator.inputs.private_script import PrivateScriptListener, is_json_lines
from narrator.inputs.scripted import ScriptedListener
from narrator.inputs.voice.setup import TimeoutListener, listen_options, open_voice
from narrator.settings import TableMode
from narrator.settings import RunSettings, TableSettings
from narrator.table.scheduler import NightOptions, Scheduler
from narrator.sound.names import with_readings
from narrator.sound.voicepack import merged_under
from narrator.sound.voice import Clip, EngineVoice, TextVoice, Voice, open_engine
from narrator.sound.fill_in import FillInVoice
from narrator.sound.background_render import BackgroundRender
from narrator.table.transcript import Transcript
from narrator.sound.voicepack import load_pack
from narrator.terminal import said

TableVoice = TextVoice | EngineVoice | FillInVoice
"""The voices a sitting speaks with: plain text, one engine, or a slow natural voice filled in."""
Request = tuple[str, dict[str, Any]]
"""A line to render ahead and its parameters (`narrator.sound.render_ahead`)."""


PATH_KEYS = ("answers", "transcript", "audio_out")
"""Run settings that are paths: made absolute and saved as strings, so a resume from another folder finds them."""


@dataclass(frozen=True)
class RunOptions(RunSettings):
    """How a game is run (not what is played): kept with the saved game (meta.json `run`) for resume.

    The run settings are `RunSettings`' fields, shared with `TableSettings`, so the two never
    drift apart; here the listening keys are validated, and `keyboard` is the only field of its own."""

    listening: dict[str, Any] = field(default_factory=dict)
    keyboard: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The JSON of meta.json's `run` (paths as strings)."""
        return {k: str(v) if isinstance(v, Path) else v for k, v in self.__dict__.items()}

    @classmethod
    def from_settings(cls, settings: TableSettings, keyboard: bool) -> RunOptions:
        """How to run, from the table's settings: paths made absolute, listening keys validated."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "keyboard":
                continue
            value = getattr(settings, f.name)
            if f.name in PATH_KEYS:
                value = Path(value).resolve() if value else None
            elif f.name == "listening":
                value = listen_options(value, settings.source).to_dict()
            values[f.name] = value
        return cls(keyboard=keyboard, **values)


@dataclass
class Sitting:
    scheduler: Scheduler
    hub: ListenerHub
    output: AudioOutput
    transcript: Transcript
    starters: list[Callable[[asyncio.AbstractEventLoop], object]] = field(default_factory=list)
    mode: TableMode = field(default_factory=TableMode)
    """The table's mode, chosen as the sitting opened and handed to the hub, the pack and the scheduler."""
    ahead: BackgroundRender | None = None
    """The background render of the game's later lines (`prepare_voice`), stopped on close."""

    def add(self, listener: Listener) -> None:
        """One more input, started with the others (`start_listeners`): the appliance's buttons, a test's voice."""
        self.starters.append(lambda loop: listener.start(self.hub, loop))

    def start_listeners(self, loop: asyncio.AbstractEventLoop) -> None:
        for start in self.starters:
            start(loop)
        self.hub.table_started()  # what listens at the table now listens

    def read_names(self, names: Sequence[str], readings: Mapping[str, Any] | None) -> None:
        """The game's names with their readings as the table file gives them now (the appliance,
        before each game: the host screen may have named the players since the sitting opened):
        the voice says them so, and a reading typed or said names its player."""
        voice = self.scheduler.voice
        voice.pack = with_readings(voice.pack, names, readings)
        self.hub.vocabulary.readings.update(voice.pack.name_readings)

    def play_on(self, output: AudioOutput) -> None:
        """Play every clip on `output` from now on (a speaker that answers now), the old one closed."""
        old, self.output = self.output, output
        self.scheduler.play_on(output)
        old.close()

    def hush(self) -> None:
        """Ctrl-C: drop what is still to be heard, so `close` stops at once instead of draining."""
        if hasattr(self.output, "hush"):
            self.output.hush()

    def close(self) -> None:
        if self.ahead is not None:
            self.ahead.stop()
        self._say_late_lines()
        self.output.close()
        self.transcript.close()


    def _say_late_lines(self) -> None:
        """A machine too slow for its background render: how many lines the game waited for,
        or synthesized itself (nothing printed when none: the render kept ahead)."""
        voice = self.scheduler.voice
        waited = self.ahead.waited if self.ahead is not None else 0
        made = getattr(voice, "on_demand", 0)
        if waited or made:
            print(voice.pack.speak("hint.render_late", {"waited": waited, "made": made}).text,
                  file=sys.stderr, flush=True)


def open_sitting(run: RunOptions, start_at: float = 0.0, answers_used: int = 0,
                 warn: Callable[[str], None] | None = None, names: Sequence[str] = (),
                 game: Game[C, S] | None = None, config: C | None = None, clock: Clock | None = None,
                 fill_in: bool = False, new_game: bool = False, button: bool = False) -> Sitting:
    """Build the scheduler and listeners for `run`; `answers_used` skips scripted answers.

    With `game` and `config`, every line the game can say is rendered before the clock
    starts (`narrator.sound.render_ahead`), so nothing is synthesized while the table waits.
    `clock` replaces the one `run.time_scale` makes (a test's `ManualClock`; it keeps its own time).
    With `fill_in` (the appliance), a slow natural voice says only what is rendered and its
    fallback engine the rest (`narrator.sound.fill_in`), so nothing waits for it.
    With `new_game` (`narrator play`), the transcript file starts afresh; else it is appended to
    (a resume, and the appliance, whose one transcript holds every game of the service's run).
    `button`: a button the prompts name answers too (the appliance's GPIO button or host screen).

    The table's mode (`narrator.settings.TableMode`: its inputs, where private answers go, the language) is
    chosen here, once, and handed to the hub, the voice pack and the scheduler as they are made.
    """
    warn = warn or (lambda message: print(said("warning", message=message), file=sys.stderr, flush=True))
    voice: TableVoice = _voice(run, warn)
    if fill_in:
        from narrator.sound.fill_in import filled_in

        voice = filled_in(voice)
    voice.pack = with_readings(voice.pack, names, run.listening.get("name_readings"))
    if game is not None and game.lines is not None:  # a game file's own lines, under the pack's
        voice.pack = merged_under(voice.pack, game.lines(voice.pack.lang))
    if game is not None and config is not None:
        play_notice, close_notice = _notice_player(run)
        try:
            prepare_voice(voice, game, config, play_notice, background=True)
        finally:
            close_notice()
    clock = clock or make_clock(run.time_scale, start_at)
    output, show_lines = _output(run, voice, clock, warn)
    if isinstance(output, NullOutput) and not isinstance(voice, TextVoice) and run.audio_out is None:
        show_lines = True
    pack = voice.pack
    listening = listen_options(run.listening)
    private_script = run.answers is not None and is_json_lines(Path(run.answers))
    heard = open_voice(listening, pack, names, warn)
    mode = TableMode(keyboard=run.keyboard, button=button, microphone=heard is not None, phones=run.phones,
                     answers=bool(run.answers), private_script=private_script, lang=pack.lang,
                     confirm_heard=listening.confirm)
    voice.pack = voice.pack.for_table(mode)  # prompts name the inputs there are: chosen here, once
    hints = Hints(pack)
    # A keyboard, a microphone (or the answer timeout) is still to start: a phone's claim waits for it.
    to_come = run.keyboard or listening.answer_timeout > 0 or heard is not None
    hub = ListenerHub(Vocabulary(pack.vocabulary), hints, mode, table_to_come=to_come)
    hub.vocabulary.readings.update(pack.name_readings)  # a typed reading names its player
    transcript = Transcript(Path(run.transcript) if run.transcript else None,
                            private=run.transcript_private, fresh=new_game)
    display = ConsoleDisplay(show_lines=show_lines, hints=hints)
    night = NightOptions(night_done=run.night_done, ambience=run.ambience)
    # Every sitting confirms: answers that end the game at the keyboard too (`confirm` says
    # whether every heard answer is: the mode's `confirm_heard`).
    scheduler = Scheduler(voice, output, clock, hub, transcript, display, night, confirm=True)
    sitting = Sitting(scheduler, hub, output, transcript, mode=mode, ahead=getattr(voice, "ahead", None))
    if private_script and run.answers is not None:
        sitting.add(PrivateScriptListener(Path(run.answers)))
    elif run.answers:
        sitting.add(ScriptedListener(Path(run.answers), skip=answers_used))
    if run.keyboard:  # a GPIO button is attached by the appliance (serve), a phone by its server
        sitting.add(KeyboardListener())
    if listening.answer_timeout > 0:
        sitting.add(TimeoutListener(scheduler.clock, listening.answer_timeout))
    if heard is not None:
        sitting.add(heard)
    return sitting


def _voice(run: RunOptions, warn: Callable[[str], None]) -> TextVoice | EngineVoice:
    """The pack's first engine that runs here, else the next, else text (one warning)."""
    pack_name = run.lang if run.voice in ("auto", "text") else run.voice
    pack = load_pack(pack_name)
    if run.voice == "text":
        return TextVoice(pack)
    engine = open_engine(pack, warn)
    if engine is None:
        return TextVoice(pack)
    return EngineVoice(pack, engine, speed=run.speech_rate)


def _output(run: RunOptions, voice: Voice, clock: Clock, warn: Callable[[str], None]) -> tuple[AudioOutput, bool]:
    """Where the clips go; a missing speaker falls back to printing, with one warning."""
    record = Path(run.audio_out) if run.audio_out else None
    if isinstance(voice, TextVoice):
        return open_output("none", clock, record=record, volume=run.volume), True
    if run.time_scale == 0:
        return open_output("none", clock, record=record, volume=run.volume), sys.stdout.isatty()
    try:
        kind = "null" if run.audio == "null" else "device"
        return open_output(kind, clock, run.audio_device, run.volume, record), sys.stdout.isatty()
    except AudioUnavailable as err:
        if run.audio == "device":
            raise
        warn(f"{err}; printing the lines instead")
        return open_output("null", clock, volume=run.volume, record=record), True


def open_audio(run: RunOptions, voice: Voice, clock: Clock, warn: Callable[[str], None]) -> AudioOutput:
    """The output `run` asks for, as a sitting opens it (the appliance's speaker, back between games)."""
    return _output(run, voice, clock, warn)[0]


def _notice_player(run: RunOptions) -> tuple[Callable[[Clip], None], Callable[[], None]]:
    """Plays a clip at once on an output of its own (the game's clock has not started) and,
    when closed, waits until it has been heard: how the rendering notice is said."""
    opened: list[AudioOutput] = []

    def play(clip: Clip) -> None:
        if clip.pcm is None or run.audio == "null" or run.time_scale == 0:
            return
        clock = make_clock(1.0)
        try:
            output = open_output("device", clock, run.audio_device, run.volume)
        except AudioUnavailable:
            return  # the game's own output says what is missing
        output.start(clip.pcm, clock.now() + 0.05)
        output.extend(clock.now() + 0.05 + clip.duration)
        opened.append(output)

    def close() -> None:
        for output in opened:
            output.close()

    return play, close


def prepare_voice(voice: TableVoice, game: Game[C, S], config: C, notice: Callable[[Clip], None] | None = None,
                  clock: Callable[[], float] | None = None, background: bool = False) -> int:
    """Render ahead every line `game` can say with `config`; a progress bar if it takes a while.

    A slow engine says player names apart (`narrator.sound.name_clips`): the table's names
    (and any words not rendered yet) are rendered first, after a pack line that says how
    long that will take, printed and handed to `notice` to be heard. Any other render says
    its estimate the same way once it knows its rate, if it takes more than a few seconds
    (`narrator.sound.wait_notice`; `clock` is a test's stand-in for the monotonic clock).

    With `background` (a game about to start), only the game's opening is rendered here
    (`render_ahead.opening_requests`: what is said before the table's first answer); the rest
    goes to `voice.ahead`, a `BackgroundRender` that renders it on the pool in the game's order
    while the game plays. The first game on a fresh machine then starts in seconds, not after
    the whole pack. An engine that says names apart, or a voice of two engines, renders all first.
    """
    import time

    from narrator.sound import name_clips
    from narrator.sound.progress import Progress
    from narrator.sound.render_ahead import game_requests
    from narrator.sound.wait_notice import WaitNotice

    if isinstance(voice, TextVoice):  # text: nothing to render
        return 0
    requests = game_requests(game, config)
    todo = [r for r in requests if not voice.is_cached(voice.pack.speak(r[0], r[1]))]
    # names apart: only a voice of one slow engine (a filled-in voice says lines whole)
    pieces = name_clips.missing(voice, todo, game.names(config)) if isinstance(voice, EngineVoice) else []
    if pieces and isinstance(voice, EngineVoice):
        import click

        clip = voice.clip(name_clips.notice_line(name_clips.estimate_seconds(voice, pieces)))
        click.echo(clip.spoken.text, err=True)
        if notice is not None:
            notice(clip)
        with Progress(len(pieces), f"rendering {len(pieces)} names and words", unit="words") as bar:
            voice.prepare_pieces(pieces, progress=bar.update)
        todo = [r for r in todo if not voice.is_cached(voice.pack.speak(r[0], r[1]))]
    if not todo:
        return voice.prepare(requests)
    import click

    later: list[tuple[str, dict[str, Any]]] = []
    if background and not pieces and _renders_behind(voice):
        todo, later = _opening_first(game, config, requests, todo)
        if later:
            requests = [r for r in requests if r not in later]

    def say(line: str, seconds: float) -> None:
        if pieces:  # the table was told how long already
            return
        clip = voice.clip(line)
        click.echo(f"\n{clip.spoken.text}", err=True)
        if notice is not None:
            notice(clip)

    if todo:
        with Progress(len(todo), f"rendering {len(todo)} lines ahead") as bar:
            waiting = WaitNotice(len(todo), say, clock or time.monotonic, bar.update)
            voice.prepare(todo, progress=waiting.update)
    new = voice.prepare(requests)
    if isinstance(voice, EngineVoice):  # the wait notice was made here, before the game: not late
        voice.on_demand = 0
    if later and isinstance(voice, EngineVoice):  # `_renders_behind`: one engine
        voice.ahead = BackgroundRender(voice, later).start()
        click.echo(voice.pack.speak("hint.render_behind", {"count": len(later)}).text, err=True)
    return new


def _renders_behind(voice: TableVoice) -> bool:
    """Whether a voice can render while its game plays: one engine, saying every line whole."""
    return isinstance(voice, EngineVoice) and not getattr(voice.engine, "names_apart", False)


def _opening_first(game: Game[C, S], config: C, requests: list[Request],
                   todo: list[Request]) -> tuple[list[Request], list[Request]]:
    """`todo` split in two: what the game's opening says (rendered before it starts) and the
    rest, in the game's order (rendered while it plays)."""
    from narrator.sound.render_ahead import opening_requests

    opening = opening_requests(game, config)
    return [r for r in todo if r in opening], [r for r in todo if r not in opening]
