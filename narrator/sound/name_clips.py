"""Names apart: lines that name players, for an engine too slow to render each such line.

A neural engine (Kokoro) takes about a second per second of speech on a PC, far more on a
Pi. Rendering every line that names someone, for every name and pair of names of a new
table, would take many minutes at each game start. So an engine with `names_apart` says
such a line as pieces: the line's own words around each name, rendered once (ahead, by
`narrator voices render`), and each name, rendered once and cached *by the name* (a table
reuses its names, so a second game costs nothing). The clip is the pieces joined with the
pause their punctuation asks for (「、」 a short one, 「。」 a longer one).

A parameter "names someone" when its value is text or a list of texts (`name`, `names`,
`target` …); numbers stay inside the line's own words (「2日目」 is read as one word). A
single name followed by the pack's honorific (the `{name}さん` of `[format] name`) keeps
it, so 「太郎さん」 is one cached clip whether it comes alone or in a list.

How long rendering will take is estimated from the engine's measured speed, kept beside
the cache (`render-speed.json`), so the narrator can say so before it starts.
"""

from __future__ import annotations

import json
import string
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Protocol

from narrator import home
from narrator.sound.clips import RATE, WIDTH, read_pcm, write_pcm
from narrator.sound.engines import TextToSpeech, VoiceSettings
from narrator.sound.voicepack import Spoken, VoicePack

PAUSES = {"、": 0.15, ",": 0.15, "，": 0.15, "。": 0.3, ".": 0.3, "？": 0.3, "?": 0.3, "！": 0.3, "!": 0.3}
"""Seconds of silence a piece's edge punctuation becomes (the engine never sees it alone)."""
FINAL = "。.？?！!"
"""Sentence ends, kept at the end of a piece's words: they shape how it is said."""
GAP = 0.04
"""Seconds between two pieces with no punctuation between them (「太郎さん」「が処刑されます」)."""
SAMPLE_NAME = "\x00name\x00"
"""Stands for a player while finding a line's fixed pieces (never rendered)."""
SECONDS_PER_CHAR = 0.5
SECONDS_PER_NAME = 5.0
"""Estimates before anything was measured here: engine seconds per character of a line's
words, and per name (a short piece costs the engine's fixed time per render). Kokoro on a
2-core PC under other load: ~0.5 s/char, 5-10 s a name; renders measure the real figures."""
NOTICES = ((30, "names_ahead.half_minute"), (60, "names_ahead.one_minute"), (120, "names_ahead.two_minutes"),
           (300, "names_ahead.five_minutes"), (600, "names_ahead.ten_minutes"))
"""The pack line that says how long rendering takes: the first whose bound covers the estimate."""
LONGER_NOTICE = "names_ahead.longer"


class Speaking(Protocol):
    """What finding a line's pieces reads of a voice (`EngineVoice`, `FillInVoice`): the engine
    (does it say names apart? read kanji?), the pack, and the cache its speed is kept beside."""

    @property
    def engine(self) -> TextToSpeech: ...

    @property
    def pack(self) -> VoicePack: ...

    @property
    def cache_dir(self) -> Path: ...


class RendersPieces(Speaking, Protocol):
    """What rendering pieces uses of a voice (`voice.EngineVoice`, which imports this module):
    its engine's settings, its cache key and clip processing, and its count of engine runs."""

    synthesized: int

    @property
    def settings(self) -> VoiceSettings: ...

    def _key(self, *parts: object) -> str: ...

    def _process(self, source: Path, wav: Path) -> None: ...


@dataclass(frozen=True)
class Piece:
    words: str
    """What the engine is given (the pack's `[pronounce]` applied to a line's own words)."""
    pause: float
    """Seconds of silence after it."""
    name: bool = False


def _names(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def pieces(voice: Speaking, spoken: Spoken) -> list[Piece] | None:
    """The pieces `spoken` is said in, or None when it names nobody (it is rendered whole)."""
    if not getattr(voice.engine, "names_apart", False):
        return None
    params = dict(spoken.params)
    if not any(_names(v) is not None for v in params.values()) or spoken.line not in voice.pack.lines:
        return None
    return _split(voice, spoken.line, spoken.variant, params)


def _split(voice: Speaking, line: str, variant: int, params: Mapping[str, Any]) -> list[Piece]:
    pack, kanji = voice.pack, voice.engine.reads_kanji
    text, reading = pack.lines[line].wordings()[variant]
    template = text if kanji or reading is None else reading
    formats = pack.formats
    name_form = formats.get("name", "{name}")
    honorific = name_form.replace("{name}", "") if name_form.startswith("{name}") else ""
    parts: list[tuple[str, bool]] = []
    literal = ""
    for before, field, spec, _conversion in string.Formatter().parse(template):
        literal += before
        if field is None:
            continue
        value = params.get(field)
        names = None if spec else _names(value)  # `{address:address}` … are the pack's to format
        if names is None:
            literal += pack.format_value(value, spec or "", reading=not kanji)
            continue
        parts.append((literal, False))
        literal = ""
        names = [pack.name_readings.get(name, name) for name in names]  # said by their readings
        if len(names) == 1 and not isinstance(value, (list, tuple)):
            parts.append((names[0], True))
            continue
        for i, name in enumerate(names):
            if i:
                last = i == len(names) - 1 and "join_last" in formats
                parts.append((formats["join_last"] if last else formats.get("join", ", "), False))
            parts.append((name_form.format(name=name), True))
    parts.append((literal, False))
    out: list[Piece] = []
    for i, (words, is_name) in enumerate(parts):
        if is_name and honorific and i + 1 < len(parts) and parts[i + 1][0].startswith(honorific) \
                and not words.endswith(honorific):
            words += honorific
            parts[i + 1] = (parts[i + 1][0][len(honorific):], False)
        _add(out, words if is_name else (pack.kanji_words(words) if kanji else words), is_name)
    return out


def _add(out: list[Piece], words: str, is_name: bool) -> None:
    """Append `words`, its edge punctuation and spaces turned into pauses."""
    core = words.strip(" \u3000")
    lead = 0.0
    while core and core[0] in PAUSES:
        lead = max(lead, PAUSES[core[0]])
        core = core[1:].lstrip(" \u3000")
    trail = 0.0
    while core and core[-1] in PAUSES:
        trail = max(trail, PAUSES[core[-1]])
        if core[-1] in FINAL and core[:-1].strip(" \u3000"):
            break  # 「ですね？」 keeps its question's rise; only commas become bare pauses
        core = core[:-1].rstrip(" \u3000")
    if out and lead:
        out[-1] = Piece(out[-1].words, max(out[-1].pause, lead), out[-1].name)
    if core:
        out.append(Piece(core, trail or GAP, is_name))
    elif out and trail:
        out[-1] = Piece(out[-1].words, max(out[-1].pause, trail), out[-1].name)


# --- rendering ------------------------------------------------------------------------------


def piece_wav(voice: RendersPieces, piece: Piece) -> Path:
    return voice.cache_dir / f"piece-{voice._key(voice.engine.name, voice.settings.__dict__, piece.words)}.wav"


def render_piece(voice: RendersPieces, piece: Piece) -> bool:
    """Render one piece into the cache unless it is there; True if the engine ran."""
    wav = piece_wav(voice, piece)
    if wav.is_file():
        return False
    raw = wav.with_suffix(".raw.wav")
    loaded = getattr(voice.engine, "loaded", True)
    started = time.monotonic()
    voice.engine.render(piece.words, raw, voice.settings)
    _learn(voice, time.monotonic() - started, piece, loaded)
    voice.synthesized += 1
    voice._process(raw, wav)
    raw.unlink(missing_ok=True)
    return True


def joined(voice: RendersPieces, parts: list[Piece]) -> tuple[Path, str]:
    """The clip of a line said in pieces: each piece from the cache (rendered if missing), joined."""
    wavs = [piece_wav(voice, p) for p in parts]
    key = voice._key("joined", [(w.name, p.pause) for w, p in zip(wavs, parts)])
    out = voice.cache_dir / f"joined-{key}.wav"
    if out.is_file():
        return out, "cache"
    fresh = [render_piece(voice, p) for p in parts]
    frames = b"".join(read_pcm(w) + bytes(WIDTH * round(RATE * p.pause)) for w, p in zip(wavs, parts[:-1]))
    write_pcm(out, frames + read_pcm(wavs[-1]))
    return out, "synthesized" if any(fresh) else "cache"


def is_cached(voice: RendersPieces, parts: list[Piece]) -> bool:
    return all(piece_wav(voice, p).is_file() for p in parts)


def name_pieces(voice: Speaking, names: Iterable[str]) -> list[Piece]:
    """Every form a line may say a name in: bare (「太郎が」) and with the pack's honorific."""
    form = voice.pack.formats.get("name", "{name}")
    out: dict[str, Piece] = {}
    for name in names:
        name = voice.pack.name_readings.get(name, name)
        for words in dict.fromkeys([name, form.format(name=name)]):
            out.setdefault(words, Piece(words, GAP, True))
    return list(out.values())


def fixed_pieces(voice: Speaking) -> list[Piece]:
    """The words of every line that names players, apart from the names: rendered ahead.

    Lines that also take numbers (「{day}日目の…」) are left to the game that says them.
    """
    pack = voice.pack
    out: dict[str, Piece] = {}
    for line_id in sorted(pack.lines):
        fields = pack.placeholders(line_id)
        if not fields or not fields <= set(NAME_FIELDS):
            continue
        for variant in range(len(pack.lines[line_id].wordings())):
            for params in ({f: SAMPLE_NAME for f in fields}, {f: [SAMPLE_NAME, SAMPLE_NAME] for f in fields}):
                for piece in _split(voice, line_id, variant, params):
                    if SAMPLE_NAME not in piece.words:
                        out.setdefault(piece.words, piece)
    return list(out.values())


NAME_FIELDS = ("name", "names", "target")
"""Placeholders the games fill with player names (used only to find the fixed pieces ahead)."""


def missing(voice: RendersPieces, requests: Iterable[tuple[str, Mapping[str, Any]]], names: Iterable[str] = ()) -> list[Piece]:
    """The pieces the requests (every wording) and the table's names still need rendered."""
    if not getattr(voice.engine, "names_apart", False):
        return []
    out: dict[str, Piece] = {}
    for line, params in requests:
        wordings = len(voice.pack.lines[line].wordings()) if line in voice.pack.lines else 1
        for variant in range(wordings):
            for piece in pieces(voice, voice.pack.speak(line, params, variant)) or ():
                out.setdefault(piece.words, piece)
    for piece in name_pieces(voice, names):
        out.setdefault(piece.words, piece)
    return [p for p in out.values() if not piece_wav(voice, p).is_file()]


# --- how long it takes ----------------------------------------------------------------------


def _speed_file(voice: Speaking) -> Path:
    return voice.cache_dir / "render-speed.json"


def _speeds(voice: Speaking) -> dict[str, dict[str, float]]:
    try:
        data = home.read_json(_speed_file(voice))
    except (OSError, ValueError):  # a damaged record is only a worse first estimate
        return {}
    return data if isinstance(data, dict) else {}


def _speed(voice: Speaking) -> dict[str, float]:
    return _speeds(voice).get(voice.engine.name, {})


def _learn(voice: RendersPieces, seconds: float, piece: Piece, loaded: bool) -> None:
    """Keep the engine's speed here: seconds per name (short pieces, where each render's fixed
    cost dominates) and per character of a line's words, as running means, and its load time."""
    data = _speeds(voice)
    known = data.get(voice.engine.name, {})
    if not loaded:
        known["load_s"] = getattr(voice.engine, "load_seconds", None) or known.get("load_s", 0.0)
        seconds -= known["load_s"]
    key, value = ("seconds_per_name", seconds) if piece.name else ("seconds_per_char", seconds / max(len(piece.words), 1))
    old = known.get(key)
    known[key] = max(value, 0.0) if old is None else 0.7 * old + 0.3 * max(value, 0.0)
    data[voice.engine.name] = known
    try:
        home.write_atomic(_speed_file(voice), json.dumps(data), mode=0o644)
    except OSError:  # a full card: the next estimate is simply less sure
        pass


def estimate_seconds(voice: Speaking, todo: list[Piece]) -> float:
    """How long rendering `todo` will take here, from the speed measured so far."""
    if not todo:
        return 0.0
    known = _speed(voice)
    per_char = known.get("seconds_per_char", SECONDS_PER_CHAR)
    per_name = known.get("seconds_per_name", SECONDS_PER_NAME)
    load = 0.0 if getattr(voice.engine, "loaded", True) else known.get("load_s", 10.0)
    return load + sum(per_name if p.name else per_char * len(p.words) for p in todo)


def notice_line(seconds: float) -> str:
    """The pack line that says how long: 「30秒ほど」 … 「10分以上」."""
    return next((line for bound, line in NOTICES if seconds <= bound), LONGER_NOTICE)
