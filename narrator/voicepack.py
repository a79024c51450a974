"""Voice packs: every word the narrator says, per language, outside the code.

A pack is a folder `voices/<name>/` with `voice.toml` (engine, voice, rate, language,
how names and durations are written) and `lines/*.toml`, one file per game plus
`common.toml` (every line by id; a line is a string or a table with `text` and an optional
kana `reading` that kana-only engines speak).
Cues name a line and give parameters; the pack turns them into words.
"""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from narrator import home
from narrator.errors import NarratorError

REPO_VOICES = Path(__file__).resolve().parent.parent / "voices"


@dataclass(frozen=True)
class Line:
    """One line of a pack: the words as written and, optionally, as read."""

    id: str
    text: str
    reading: str | None = None


@dataclass(frozen=True)
class Spoken:
    """A line with its parameters filled in, ready to show or synthesize."""

    line: str
    text: str
    reading: str


@dataclass(frozen=True)
class VoicePack:
    """A loaded voice pack; `speak(line, params)` gives the words for a cue."""

    name: str
    path: Path
    lang: str
    engine: str
    voice: str | None
    rate: int | None
    volume: float | None
    pitch: int | None
    chars_per_second: float
    formats: Mapping[str, Any]
    lines: Mapping[str, Line] = field(repr=False)
    vocabulary: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Words a listener may hear for each meaning (yes, no, done, repeat, pause, undo)."""

    def has(self, line_id: str) -> bool:
        return line_id in self.lines

    def speak(self, line_id: str, params: Mapping[str, Any] | None = None) -> Spoken:
        """The words of `line_id` with `params` filled in, as text and as reading."""
        line = self.lines.get(line_id)
        if line is None:
            raise NarratorError(
                f"voice pack '{self.name}' has no line '{line_id}'; add it to a file in {self.path / 'lines'}"
            )
        params = params or {}
        text = _PackFormatter(self, reading=False).format(line.text, **params)
        reading_template = line.reading if line.reading is not None else line.text
        reading = _PackFormatter(self, reading=True).format(reading_template, **params)
        return Spoken(line_id, text, reading)

    def placeholders(self, line_id: str) -> set[str]:
        """The parameter names a line uses (text and reading together)."""
        line = self.lines[line_id]
        found = set()
        for template in (line.text, line.reading or ""):
            found |= {name for _, name, _, _ in string.Formatter().parse(template) if name}
        return found

    def seconds_for(self, text: str) -> float:
        """How long a line takes to say when nothing measures it (text mode)."""
        return round(max(0.5, len(text) / self.chars_per_second), 2)


class _PackFormatter(string.Formatter):
    """Formats names lists and `:duration` fields the way the pack's language writes them."""

    def __init__(self, pack: VoicePack, reading: bool):
        self.pack, self.reading = pack, reading

    def format_field(self, value: Any, format_spec: str) -> str:
        formats = self.pack.formats
        if format_spec == "duration":
            return self._duration(int(value))
        if isinstance(value, (list, tuple)):
            names = [formats.get("name", "{name}").format(name=v) for v in value]
            if len(names) > 1 and "join_last" in formats:
                return formats.get("join", ", ").join(names[:-1]) + formats["join_last"] + names[-1]
            return formats.get("join", ", ").join(names)
        return super().format_field(value, format_spec)

    def _duration(self, seconds: int) -> str:
        formats = self.pack.formats
        minutes, rest = divmod(seconds, 60)
        parts = []
        if minutes:
            readings = formats.get("minute_readings", {}) if self.reading else {}
            parts.append(readings.get(str(minutes)) or self._unit("minutes", minutes))
        if rest or not minutes:
            parts.append(self._unit("seconds", rest))
        return formats.get("duration_join", "").join(parts)

    def _unit(self, unit: str, n: int) -> str:
        """`{n} seconds`, or the pack's `seconds_one` / `seconds_reading` where it has them."""
        formats = self.pack.formats
        key = unit
        if n == 1 and f"{unit}_one" in formats:
            key = f"{unit}_one"
        if self.reading and f"{key}_reading" in formats:
            key = f"{key}_reading"
        return formats[key].format(n=n)


def pack_dirs() -> list[Path]:
    """Where packs are looked for: the user's own packs first, then the bundled ones."""
    return [home.app_home() / "voices", REPO_VOICES]


def list_packs() -> list[str]:
    names: list[str] = []
    for folder in pack_dirs():
        if folder.is_dir():
            names += [p.name for p in sorted(folder.iterdir()) if (p / "voice.toml").is_file() and p.name not in names]
    return names


def find_pack(name: str) -> Path:
    """The folder of pack `name` (or a path to a pack folder)."""
    candidate = Path(name)
    if (candidate / "voice.toml").is_file():
        return candidate
    for folder in pack_dirs():
        if (folder / name / "voice.toml").is_file():
            return folder / name
    raise NarratorError(f"no voice pack '{name}'; known packs: {', '.join(list_packs()) or 'none'}")


def load_pack(name: str) -> VoicePack:
    """Load a pack by name or path; a broken file is one line naming it."""
    path = find_pack(name)
    voice = _read_toml(path / "voice.toml")
    lines: dict[str, Line] = {}
    for lines_file in sorted((path / "lines").glob("*.toml")):
        lines.update(_flatten_lines(_read_toml(lines_file)))
    return VoicePack(
        name=voice.get("name", path.name),
        path=path,
        lang=voice["lang"],
        engine=voice.get("engine", "pyttsx3"),
        voice=voice.get("voice"),
        rate=voice.get("rate"),
        volume=voice.get("volume"),
        pitch=voice.get("pitch"),
        chars_per_second=float(voice.get("chars_per_second", 12)),
        formats=voice.get("format", {}),
        lines=lines,
        vocabulary=voice.get("vocabulary", {}),
    )


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise NarratorError(f"voice pack file {path} is missing") from None
    except tomllib.TOMLDecodeError as err:
        raise NarratorError(f"voice pack file {path} is not valid TOML: {err}") from None


def _flatten_lines(tree: Mapping[str, Any], prefix: str = "") -> dict[str, Line]:
    """`[seer] wake = …` becomes line id `seer.wake`; a table with `text` is one line."""
    lines: dict[str, Line] = {}
    for key, value in tree.items():
        line_id = f"{prefix}{key}"
        if isinstance(value, str):
            lines[line_id] = Line(line_id, value)
        elif isinstance(value, Mapping) and "text" in value:
            lines[line_id] = Line(line_id, value["text"], value.get("reading"))
        elif isinstance(value, Mapping):
            lines.update(_flatten_lines(value, f"{line_id}."))
    return lines
