"""The natural voice as far as it is rendered, and Open JTalk for the rest, line by line.

On a Raspberry Pi the natural voice (Kokoro) takes hours to render its whole pack, so the
appliance renders it in the background while no game is running (`narrator.appliance.
natural_fill`). Meanwhile a game must not wait for it, nor hear a line half in one voice:
`FillInVoice` says each line in the natural voice when every clip of it (the whole line,
or each piece of a line that names players) is in the natural voice's cache, and otherwise
the whole line with the fallback engine, which renders in a fraction of a second. The
natural voice never renders here; the fallback's clips come from the base pack's cache
(`ja`), which setup has filled already.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from narrator.sound.engines import TextToSpeech
from narrator.sound.voice import Clip, EngineVoice, OnReady, TextVoice, _Variants, cache_dir_for
from narrator.sound.voicepack import Spoken, VoicePack, load_pack


class FillInVoice:
    """A voice with `EngineVoice`'s side the scheduler uses; every clip from one of two voices."""

    def __init__(self, natural: EngineVoice, fallback: EngineVoice):
        self.natural, self.fallback = natural, fallback
        self.engine_name = natural.engine_name
        self._variants = _Variants()

    @property
    def pack(self) -> VoicePack:
        return self.natural.pack

    @pack.setter
    def pack(self, pack: VoicePack) -> None:  # the table's readings, pass-the-device … go to both
        self.natural.pack = self.fallback.pack = pack

    @property
    def engine(self) -> TextToSpeech:
        """What renders here: the fallback (it says lines whole, never names apart)."""
        return self.fallback.engine

    @property
    def cache_dir(self) -> Path:
        return self.fallback.cache_dir

    @property
    def synthesized(self) -> int:
        return self.natural.synthesized + self.fallback.synthesized

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip:
        return self.clip_for(self.pack.speak(line, params, self._variants.next(self.pack, line)))

    def clip_for(self, spoken: Spoken) -> Clip:
        if self.natural.is_cached(spoken):
            return self.natural.clip_for(spoken)
        return self.fallback.clip_for(spoken)

    def is_cached(self, spoken: Spoken) -> bool:
        return self.natural.is_cached(spoken) or self.fallback.is_cached(spoken)

    def wordings(self, line: str, params: Mapping[str, Any]) -> list[Spoken]:
        return self.natural.wordings(line, params)

    def prepare(self, requests: Iterable[tuple[str, Mapping[str, Any]]], progress: OnReady | None = None,
                jobs: int | None = None) -> int:
        """Render ahead with the fallback what the natural voice lacks; load every clip."""
        requests = list(requests)
        lacking = [r for r in requests if not all(self.natural.is_cached(s) for s in self.wordings(*r))]
        if progress is not None and len(requests) > len(lacking):
            progress(len(requests) - len(lacking))
        new = self.fallback.prepare(lacking, progress, jobs)
        for line, params in requests:
            for spoken in self.wordings(line, params):
                self.clip_for(spoken)
        return new

    def sound(self, name: str) -> bytes | None:
        return self.natural.sound(name)


def slow(voice: object) -> bool:
    """A voice whose engine takes hours for a pack on a Pi (it says names apart: Kokoro)."""
    return bool(getattr(getattr(voice, "engine", None), "names_apart", False))


def filled_in(voice: TextVoice | EngineVoice | FillInVoice) -> TextVoice | EngineVoice | FillInVoice:
    """`voice` filled in by its pack's first fallback engine that runs, if it is slow; else `voice`."""
    from narrator.sound.engines import EngineUnavailable, load_tts

    if not isinstance(voice, EngineVoice) or not slow(voice):
        return voice
    for name in voice.pack.engines:
        if name == voice.engine.name:
            continue
        try:
            return fill_in(voice, load_tts(name))
        except EngineUnavailable:
            continue
    return voice


def fill_in(voice: EngineVoice, fallback_engine: TextToSpeech) -> FillInVoice:
    """`voice` (the natural one) filled in by `fallback_engine`, whose clips go in the base pack's cache."""
    pack = voice.pack
    base = load_pack(str(pack.folders[-1])) if len(pack.folders) > 1 else pack
    fallback = EngineVoice(pack, fallback_engine, cache_dir=cache_dir_for(base),
                           speed=voice.settings.speed)
    return FillInVoice(voice, fallback)
