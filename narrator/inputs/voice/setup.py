"""Listening at the table: the table-file keys, and opening the table's voice.

`listen = "auto"` (the default) listens when a recognition engine, a model and a
microphone are all there; a missing model or microphone is one warning line naming the
fix, and the game goes on with the keyboard. `listen = "on"` makes them errors, `"off"`
never listens. A grammar word the model lacks is always an error naming the word: a
voice that silently cannot hear "はい" is worse than none. Models are only looked up here,
never downloaded.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from narrator.errors import NarratorError, SetupError
from narrator.inputs.voice.grammar import PhraseBook
from narrator.inputs.voice.models import ModelError, find_model
from narrator.inputs.voice.microphone import InputUnavailable, Microphone
from narrator.inputs.hub import ListenerHub
from narrator.inputs.voice.listener import AudioSource, VoiceListener, describe
from narrator.settings import SETTINGS
from narrator.sound.engines import EngineUnavailable, SpeechToText, load_stt, stt_engine_names
from narrator.sound.names import heard_forms
from narrator.sound.voicepack import VoicePack

LISTEN_BOUNDS = {s.key: (float(s.low), float(s.high)) for s in SETTINGS
                 if s.kind == "listening" and s.low is not None and s.high is not None}
"""The listening keys that are numbers, with their bounds as narrator/settings.toml declares them."""
LISTEN_CHOICES = next(s.choices for s in SETTINGS if s.key == "listen")


@dataclass(frozen=True)
class ListenOptions:
    """The table's listening keys (declared in narrator/settings.toml; most are also `narrator play` flags)."""

    listen: str = "auto"
    """auto (voice when engine, model and microphone are there), on (required) or off."""
    model: str | None = None
    """A model folder; default: the installed model for the table's language."""
    input_device: str | None = None
    """Microphone name or index (see `narrator doctor`); default: the system's."""
    confidence: float = 0.7
    """Results less sure than this (0–1) are ignored."""
    mute_tail: float = 0.3
    """Seconds the microphone stays muted after the narrator's last sound."""
    answer_timeout: float = 0.0
    """Seconds a 'say done when ready' step waits before going on by itself; 0 waits."""
    confirm: bool = True
    """Repeat heard answers back (「〇〇さんですね？」) before they count."""
    stt_engine: str = "vosk"
    name_readings: Mapping[str, Any] | None = None
    """How each player's name is read, by the voice and by the recognizer: {Aki = "あき"}.
    Filled from `names` entries ("心愛:ここあ"); the table key `name_readings` is kept as an
    alias (a list of readings gives the recognizer several forms; the first is spoken)."""

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def listen_options(raw: Mapping[str, Any], source: str = "table file") -> ListenOptions:
    """Validate the listening keys into options; a bad value is one line naming the key."""
    values = dict(raw)
    listen = str(values.get("listen", "auto"))
    if listen not in LISTEN_CHOICES:
        raise SetupError(f"{source}: listen must be {', '.join(LISTEN_CHOICES[:-1])} or {LISTEN_CHOICES[-1]}, "
                         f"not '{listen}'")
    numbers = {}
    for key, (low, high) in LISTEN_BOUNDS.items():
        if key in values:
            try:
                if isinstance(values[key], bool):  # TOML's `true` is not 1.0
                    raise TypeError
                number = float(values[key])
            except (TypeError, ValueError):
                raise SetupError(f"{source}: {key} must be a number, not '{values[key]}'") from None
            if not low <= number <= high:
                raise SetupError(f"{source}: {key} must be between {low:g} and {high:g}, not {number:g}")
            numbers[key] = number
    confirm = values.get("confirm", True)
    written = isinstance(confirm, str) and confirm.lower() in ("true", "false", "yes", "no", "1", "0")
    if not isinstance(confirm, bool) and not written:
        raise SetupError(f"{source}: confirm must be true or false, not '{confirm}'")
    if written:
        confirm = confirm.lower() in ("true", "yes", "1")
    readings = values.get("name_readings")
    if readings is not None and not isinstance(readings, Mapping):
        raise SetupError.said("name_readings_not_table", source=source)
    return ListenOptions(
        listen=listen, model=_opt(values.get("model")), input_device=_opt(values.get("input_device")),
        confirm=bool(confirm), stt_engine=str(values.get("stt_engine", "vosk")), name_readings=readings, **numbers,
    )


def _opt(value: object) -> str | None:
    return None if value in (None, "") else str(value)


def open_voice(options: ListenOptions, pack: VoicePack, names: Sequence[str], warn: Callable[[str], None],
               source: AudioSource | None = None, engine: SpeechToText | None = None) -> VoiceListener | None:
    """The table's voice, ready to start, or None when this table does not listen.

    Only the listener is made here: the sitting (`narrator.table.session`) decides the table's
    mode from whether there is one, and starts it with the others; nothing here reaches into
    the sitting. `source` and `engine` stand in for the microphone and the model (tests).
    """
    if options.listen == "off":
        return None
    try:
        if engine is None:
            if options.stt_engine not in stt_engine_names() and options.listen == "auto":
                return None  # no recognition engine installed: this table plays by keyboard
            model = find_model(pack.lang, options.model)
            if source is None:
                source = Microphone(16000, options.input_device)
            engine = load_stt(options.stt_engine, model)
        elif source is None:  # a given engine hears the microphone too
            source = Microphone(16000, options.input_device)
    except (ModelError, InputUnavailable, EngineUnavailable) as err:
        if options.listen == "on":
            raise
        warn(f"{err}; answering by keyboard only")
        return None
    phrases = PhraseBook.from_pack(pack, names, heard_readings(pack, names, options.name_readings))
    check_vocabulary(engine, phrases, pack)
    return VoiceListener(engine, source, phrases, options.confidence, options.mute_tail,
                         report=lambda hearing: print(f"  {describe(hearing)}", file=sys.stderr, flush=True))


def heard_readings(pack: VoicePack, names: Sequence[str], given: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """What the recognizer listens for, per player: the readings given (`names` entries or
    `name_readings`, several allowed), else the name's reading in the pack (Japanese: its
    hiragana, so a romaji 'Aki' is heard as あき), else the name as written."""
    japanese = getattr(pack, "lang", None) == "ja"
    out: dict[str, list[str]] = {}
    for name in names:
        forms = (given or {}).get(name) or getattr(pack, "name_readings", {}).get(name)
        if forms:
            forms = [forms] if isinstance(forms, str) else list(forms)
            out[name] = [heard_forms(f) for f in forms] if japanese else forms
    return out


def check_vocabulary(engine: SpeechToText, phrases: PhraseBook, pack: VoicePack) -> None:
    """Every word any grammar of this game may use must be known to the model."""
    missing = engine.missing_words(phrases.every_phrase())
    if missing:
        raise NarratorError(
            f"the speech model lacks the word{'s' if len(missing) > 1 else ''} {', '.join(missing)}; change "
            f"[listening.phrases] in {pack.path / 'voice.toml'} or set name_readings in the table file"
        )


class _WaitingClock(Protocol):
    """The game clock as the timeout reads it (`narrator.table.clock.Clock`, a floor above)."""

    def now(self) -> float: ...

    async def sleep_until(self, t: float) -> None: ...


class TimeoutListener:
    """Answers `done` for a step that waits for done, when nobody has after `seconds`."""

    SOURCE = "timeout"

    def __init__(self, clock: _WaitingClock, seconds: float):
        self.clock, self.seconds = clock, seconds

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> asyncio.Task[None]:
        return loop.create_task(self._run(hub))

    async def _run(self, hub: ListenerHub) -> None:
        serial, ask = await hub.next_ask(0)
        while True:
            newer = asyncio.ensure_future(hub.next_ask(serial))
            if ask.choices == ("done",):
                sleeper = asyncio.ensure_future(self.clock.sleep_until(self.clock.now() + self.seconds))
                await asyncio.wait({sleeper, newer}, return_when=asyncio.FIRST_COMPLETED)
                if sleeper.done() and not newer.done() and hub.current_ask is ask:
                    hub.offer_text("done", self.SOURCE)
                sleeper.cancel()
            serial, ask = await newer
