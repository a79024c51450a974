"""A voice: a pack's words made into timed clips, by an engine, a recording, or as plain text.

The scheduler asks a voice for a `Clip` (words, audio, duration) before it plays it, so
timing is known ahead. Clips are rendered *ahead* (`prepare`, `narrator voices render`)
into the pack's git-ignored cache: each is synthesized once, trimmed of the engine's
padding, loudness-normalized and resampled (`narrator.sound.clips`), then kept in memory for the
game. A line that a person recorded (`recorded/` in the pack) is used instead of the
engine. `synthesized` counts engine runs, so a test and a benchmark can see that a game
synthesized nothing on its critical path.
"""

from __future__ import annotations

import hashlib
import json
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import AbstractSet as Set, Any, Callable, Iterable, Mapping, Protocol

from narrator import home
from narrator.sound import name_clips, parallel
from narrator.sound.name_clips import Piece
from narrator.sound.clips import RATE, WIDTH, process, read_pcm
from narrator.sound.engines import EngineUnavailable, TextToSpeech
from narrator.sound.voicepack import Spoken, VoicePack


OnReady = Callable[[int], object]
"""Called with how many more requests (or pieces) are ready: a progress bar's `update`."""

PROCESSING = "trim-norm-v2"
"""Part of every cache key: change it when clip processing changes, and the cache renews."""


@dataclass(frozen=True)
class Clip:
    """One line ready to play: its words, its audio (None in text mode), its length."""

    spoken: Spoken
    wav: Path | None
    duration: float
    pcm: bytes | None = None
    source: str = "text"
    """`cache` (rendered ahead), `synthesized` (rendered just now), `recorded`, or `text`."""


def wav_duration(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


class _Variants:
    """Says a line's wordings in turn (deterministic, so a replay sounds the same)."""

    def __init__(self) -> None:
        self._turn: dict[str, int] = {}

    def next(self, pack: VoicePack, line: str) -> int:
        count = len(pack.lines[line].wordings()) if line in pack.lines else 1
        turn = self._turn.get(line, 0)
        self._turn[line] = turn + 1
        return turn % count


class Voice(Protocol):
    """What the table plays from (`TextVoice`, `EngineVoice`, `fill_in.FillInVoice`, tests' fakes):
    a line's clip, a sound's PCM, and the pack it speaks (the table may swap it for its wording)."""

    pack: VoicePack

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip: ...

    def sound(self, name: str) -> bytes | None: ...


class RendersAhead(Protocol):
    """A game's background render (`background_render.BackgroundRender`, which imports this
    module): a clip it has queued is waited for, not synthesized twice."""

    def wait_for(self, wav: Path) -> bool: ...


class TextVoice:
    """Speaks nothing: the words are shown, and last as long as reading them aloud would."""

    engine_name = "text"
    synthesized = 0

    def __init__(self, pack: VoicePack):
        self.pack = pack
        self._variants = _Variants()

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip:
        spoken = self.pack.speak(line, params, self._variants.next(self.pack, line))
        return Clip(spoken, None, self.pack.seconds_for(spoken.text))

    def prepare(self, requests: Iterable[tuple[str, Mapping[str, Any]]], progress: OnReady | None = None) -> int:
        return 0

    def sound(self, name: str) -> bytes | None:
        return None


class EngineVoice:
    """Speaks with a TTS engine; every distinct wording is rendered once into the pack's cache."""

    def __init__(self, pack: VoicePack, engine: TextToSpeech, cache_dir: Path | None = None, speed: float = 1.0):
        self.pack = pack
        self.engine = engine
        self.engine_name = engine.name
        self.settings = pack.settings_for(engine.name, speed)
        self.cache_dir = cache_dir or cache_dir_for(pack)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.synthesized = 0
        """Engine runs by this voice so far (a game rendered ahead adds none while it plays; the
        clips of its background render are counted there, `BackgroundRender.rendered`)."""
        self.on_demand = 0
        """Clips synthesized by `ensure` because nothing rendered them ahead (goal: none in a game)."""
        self.ahead: RendersAhead | None = None
        """The game's background render (`narrator.sound.background_render`), if one runs: a clip
        it has queued is waited for, not synthesized here."""
        self._memory: dict[Path, bytes] = {}
        self._variants = _Variants()

    # --- the scheduler's side --------------------------------------------------------------

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip:
        spoken = self.pack.speak(line, params, self._variants.next(self.pack, line))
        return self.clip_for(spoken)

    def clip_for(self, spoken: Spoken) -> Clip:
        wav, source = self.ensure(spoken)
        pcm = self._memory.get(wav)
        if pcm is None:
            pcm = self._memory[wav] = read_pcm(wav)
        return Clip(spoken, wav, len(pcm) / (WIDTH * RATE), pcm, source)

    # --- rendering ahead -------------------------------------------------------------------

    def prepare(self, requests: Iterable[tuple[str, Mapping[str, Any]]], progress: OnReady | None = None,
                jobs: int | None = None, load: bool = True) -> int:
        """Render (if needed) and load every wording of every request; returns how many were new.

        The clips not in the cache are rendered first by `jobs` worker processes (default one
        per core, `narrator.sound.parallel`); `progress`, if given, is called once per request
        made ready (a progress bar's `update(1)`). Without `load` (`voices render`: files only)
        the clips are not read into memory, which a game start needs and a render does not.
        """
        requests = list(requests)
        before = self.synthesized
        here = self._said_in_pieces(requests)  # rendered below, piece by piece, not by the pool
        self.render_missing(requests, progress, jobs, reported=here)
        for index, (line, params) in enumerate(requests):
            if not load and index not in here:
                continue  # its clips are in the cache now
            for spoken in self.wordings(line, params):
                self.clip_for(spoken)
            if index in here and progress is not None:
                progress(1)
        return self.synthesized - before

    def _said_in_pieces(self, requests: list[tuple[str, Mapping[str, Any]]]) -> set[int]:
        """The requests with a names-apart wording whose pieces are not all rendered yet."""
        out = set()
        for index, (line, params) in enumerate(requests):
            for spoken in self.wordings(line, params):
                parts = name_clips.pieces(self, spoken)
                if parts is not None and not name_clips.is_cached(self, parts):
                    out.add(index)
                    break
        return out

    def wordings(self, line: str, params: Mapping[str, Any]) -> list[Spoken]:
        """Every way `line` may be said: each variant, and the other inputs' (or private channel's) wording."""
        wordings = len(self.pack.lines[line].wordings()) if line in self.pack.lines else 1
        out = [self.pack.speak(line, params, variant) for variant in range(wordings)]
        other_modes = self.pack.mode_wordings(line)
        for modes in [(), *other_modes] if other_modes else ():
            out.append(self.pack.in_modes(modes).speak(line, params))
        return out

    def missing_jobs(self, requests: Iterable[tuple[str, Mapping[str, Any]]]) -> list[tuple[int, parallel.Job]]:
        """The whole-line clips the requests lack, each with the index of a request it is for
        (a clip two requests share is listed once per request, rendered once)."""
        out: dict[tuple[Path, int], tuple[int, parallel.Job]] = {}
        for index, (line, params) in enumerate(requests):
            for spoken in self.wordings(line, params):
                if self.pack.recording(spoken) is not None or name_clips.pieces(self, spoken) is not None:
                    continue  # recordings are only processed; names-apart lines are pieces
                wav = self._cached(spoken)
                if (wav, index) not in out and not wav.is_file():
                    out[(wav, index)] = (index, parallel.Job(self._words(spoken), wav, _on_second(spoken)))
        return list(out.values())

    def render_missing(self, requests: list[tuple[str, Mapping[str, Any]]], progress: OnReady | None = None,
                       jobs: int | None = None, reported: Set[int] = frozenset()) -> int:
        """Render the clips the requests lack with the pool; `progress(1)` per request made ready
        (except those in `reported`, which the caller reports)."""
        todo = self.missing_jobs(requests)
        left: dict[int, int] = {}
        for index, _ in todo:
            left[index] = left.get(index, 0) + 1
        ready = len(requests) - len(set(left) | set(reported))
        if progress is not None and ready:
            progress(ready)  # already ready
        indices: dict[Path, list[int]] = {}
        jobs_once: dict[Path, parallel.Job] = {}
        for index, job in todo:
            indices.setdefault(job.wav, []).append(index)
            jobs_once.setdefault(job.wav, job)

        def done(job: parallel.Job) -> None:
            self.synthesized += 1
            for index in indices[job.wav]:
                left[index] -= 1
                if not left[index] and progress is not None and index not in reported:
                    progress(1)

        return parallel.render_all(self.engine, list(jobs_once.values()), self.settings, jobs, done)

    def ensure(self, spoken: Spoken) -> tuple[Path, str]:
        """The processed WAV for `spoken`: recorded, cached, or synthesized now."""
        recorded = self.pack.recording(spoken)
        if recorded is not None:
            stat = recorded.stat()
            wav = self.cache_dir / f"rec-{self._key(str(recorded), stat.st_size, stat.st_mtime_ns, *_mode(spoken))}.wav"
            if not wav.is_file():
                self._process(recorded, wav, onset=_on_second(spoken))
            return wav, "recorded"
        parts = name_clips.pieces(self, spoken)
        if parts is not None:  # a slow engine says names apart, each cached by name
            return name_clips.joined(self, parts)
        wav = self._cached(spoken)
        words = self._words(spoken)
        if wav.is_file():
            return wav, "cache"
        if self.ahead is not None and self.ahead.wait_for(wav):
            return wav, "cache"
        parallel.render_clip(self.engine, parallel.Job(words, wav, _on_second(spoken)), self.settings)
        self.synthesized += 1
        self.on_demand += 1
        return wav, "synthesized"

    def is_cached(self, spoken: Spoken) -> bool:
        if self.pack.recording(spoken) is not None:
            return True
        parts = name_clips.pieces(self, spoken)
        if parts is not None:
            return name_clips.is_cached(self, parts)
        return self._cached(spoken).is_file()

    def prepare_pieces(self, parts: list[Piece], progress: OnReady | None = None) -> int:
        """Render the pieces a slow engine says lines in (`name_clips`): names, fixed words."""
        new = 0
        for piece in parts:
            new += name_clips.render_piece(self, piece)
            if progress is not None:
                progress(1)
        return new

    def _words(self, spoken: Spoken) -> str:
        """What the engine is given: the text (with `[pronounce]` fixes) or the kana reading."""
        return self.pack.kanji_words(spoken.said or spoken.text) if self.engine.reads_kanji else spoken.reading

    def _cached(self, spoken: Spoken) -> Path:
        return self.cache_dir / f"{self._key(self.engine.name, self.settings.__dict__, self._words(spoken), *_mode(spoken))}.wav"

    def sound(self, name: str) -> bytes | None:
        """A pack sound (chime, tick, gong, ambience) as mixer-ready PCM, or None."""
        path = self.pack.sound_path(name)
        if path is None:
            return None
        wav = self.cache_dir / f"snd-{self._key(str(path), path.stat().st_mtime_ns)}.wav"
        if not wav.is_file():
            self._process(path, wav, trim=False, normalize=False)
        if wav not in self._memory:
            self._memory[wav] = read_pcm(wav)
        return self._memory[wav]

    @staticmethod
    def _process(source: Path, wav: Path, trim: bool = True, normalize: bool = True, onset: bool = False) -> None:
        tmp = wav.with_suffix(".part.wav")
        process(source, tmp, trim=trim, normalize=normalize, onset=onset)
        tmp.replace(wav)

    @staticmethod
    def _key(*parts: object) -> str:
        ident = json.dumps([PROCESSING, *parts], ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.sha256(ident.encode()).hexdigest()[:24]


ON_SECOND_LINES = ("tick",)
"""Lines heard on a deadline (countdown numbers): their lead is trimmed to the audible onset."""


def _on_second(spoken: Spoken) -> bool:
    return spoken.line in ON_SECOND_LINES


def _mode(spoken: Spoken) -> tuple[str, ...]:
    """Extra cache-key parts: onset-trimmed clips are cached apart from plain ones."""
    return ("onset",) if _on_second(spoken) else ()


def open_engine(pack: VoicePack, warn: Callable[[str], None] | None = None, names: Iterable[str] | None = None) -> TextToSpeech | None:
    """The first of the pack's engines that runs here; one warning if a preferred one does not."""
    from narrator.sound.engines import load_tts

    problems = []
    for name in names or pack.engines:
        try:
            engine = load_tts(name)
        except EngineUnavailable as err:
            problems.append(str(err))
            continue
        if problems and warn is not None:
            warn(f"{problems[0]}; speaking with {engine.name} instead")
        return engine
    if warn is not None and problems:
        warn(f"{problems[0]}; printing the lines instead")
    return None


def cache_dir_for(pack: VoicePack) -> Path:
    """`voices/<pack>/cache/` (git-ignored), or the app home when the pack is read-only."""
    for folder in (pack.path / "cache", home.app_home() / "cache" / pack.name):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / ".write-test"
            probe.touch()
            probe.unlink()
            return folder
        except OSError:
            continue
    raise OSError(f"no writable cache folder for voice pack {pack.name}")
