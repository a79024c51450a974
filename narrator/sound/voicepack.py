"""Voice packs: every word the narrator says, per language, outside the code.

A pack is a folder `voices/<name>/` with `voice.toml` (engines in order of preference, and
per engine its voice, rate, volume, pitch; language; how names and durations are written)
and `lines/*.toml`, one file per game plus `common.toml` (every line by id; a line is a
string or a table with `text`, an optional kana `reading` that kana-only engines speak, and
optional `variants`, other wordings said in turn; `{@<line id>}` in a line says that line's
words, resolved at load: `line_refs`). `sounds/` holds chimes, a tick, a gong
and an optional night ambience loop; `recorded/` holds lines recorded by a person
(`recorded/<line>.wav`, or `recorded/<line>/<value>.wav` for a line with one parameter,
e.g. `recorded/tick/5.wav`), which are played instead of the synthesized line.
Cues name a line and give parameters; the pack turns them into words.

A pack may `inherit = "<pack>"`: it then has that pack's settings, lines, sounds and
recordings, and its own `voice.toml` (and any `lines/` of its own) only says what differs,
e.g. `voices/ja-natural/` is the ja pack spoken by another engine. One copy of every line.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from narrator import home
from narrator.settings import TableMode
from narrator.errors import NarratorError, SetupError
from narrator.sound.engines import VoiceSettings
from narrator.sound.line_refs import resolved
from narrator.sound.pack_cache import PackCache, Reads, frozen
from narrator.sound.pack_line import Line
from narrator.sound.pack_format import PackFormatter

REPO_VOICES = home.bundled_voices()
"""The bundled packs (a source tree's `voices/`, or a wheel's installed data files)."""
WITHOUT_MICROPHONE = "without_microphone"
"""The table of `lines/common.toml` holding the wordings said when no microphone listens."""
PASS_DEVICE = "pass_device"
"""The table holding the wordings said when private answers go round one device, player by
player (no paper memo, no phones): 「端末を順番に回します」 instead of 「メモに記入してください」."""
KEYBOARD_ONLY = "keyboard_only"
"""The table holding the wordings said when a keyboard answers and no button does (a laptop):
「Enterキーを押してください」, not 「ボタンかEnterキー」 for a button the table does not have."""
BUTTON_ONLY = "button_only"
"""The table holding the wordings said when a button answers and no keyboard does (the
screenless appliance): 「ボタンを押してください」, never a key nobody can press."""
MODES = (WITHOUT_MICROPHONE, PASS_DEVICE, KEYBOARD_ONLY, BUTTON_ONLY)
"""The pack's table modes, each a flag of `VoicePack` and a table of other wordings. Modes
combine in this order: `without_microphone.button_only.setup.ready` is the wording when both
hold, and the wording of the most modes that hold wins."""


def _said_as(said: Mapping[str, str], number: re.Match[str]) -> str:
    """A number before a counter as the counter says it (ふつか for 2), or as written."""
    return said.get(number.group(1), number.group(0))


@dataclass(frozen=True)
class Spoken:
    """A line with its parameters filled in, ready to show or synthesize."""

    line: str
    text: str
    reading: str
    params: tuple[tuple[str, Any], ...] = ()
    variant: int = 0
    said: str = ""
    """The text as handed to an engine that reads kanji: players' names by their readings."""


@dataclass(frozen=True)
class VoicePack:
    """A loaded voice pack; `speak(line, params)` gives the words for a cue."""

    name: str
    path: Path
    lang: str
    engine: str
    """The preferred engine; `engines` lists it first, then the fallbacks."""
    voice: str | None
    rate: int | None
    volume: float | None
    pitch: int | None
    chars_per_second: float
    formats: Mapping[str, Any]
    lines: Mapping[str, Line] = field(repr=False)
    vocabulary: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Words a listener may hear for each meaning (yes, no, done, repeat, pause, undo)."""
    engines: tuple[str, ...] = ()
    engine_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)
    pronounce: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Fixes applied to `text` for engines that read kanji (「の方」 → 「のかた」)."""
    counter_readings: Mapping[str, Mapping[str, str]] = field(default_factory=dict, repr=False)
    """counter → {number: kana} for the kana `reading` (2にちめ → ふつかめ): kana-only engines
    read a number before a counter digit by digit."""
    sounds: Mapping[str, str] = field(default_factory=dict)
    """Sound names (chime, tick, gong, ambience …) → file names in `sounds/`."""
    name_readings: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Each player's name → how it is read (`narrator.sound.names`): said, never spelled out."""
    without_microphone: bool = False
    """No microphone listens: a line with a `without_microphone.<line>` wording says that one
    (「ボタンかEnterキーを押してください」 instead of 「「終わりました」と言ってください」)."""
    pass_device: bool = False
    """Private answers go round one device: a line with a `pass_device.<line>` wording says that one."""
    keyboard_only: bool = False
    """A keyboard answers and no button: `keyboard_only.<line>` wordings name only the keys."""
    button_only: bool = False
    """A button answers and no keyboard: `button_only.<line>` wordings name only the button."""
    folders: tuple[Path, ...] = ()
    """Where its files are: its own folder, then the folders of the pack it inherits."""

    def settings_for(self, engine: str, speed: float = 1.0) -> VoiceSettings:
        """The voice settings for `engine`: `[engines.<engine>]` over the pack's top-level ones."""

        own = dict(self.engine_options.get(engine, {}))
        base = self.engine_options and engine != self.engine
        return VoiceSettings(
            self.lang,
            own.get("voice", None if base else self.voice),
            own.get("rate", None if base else self.rate),
            own.get("volume", None if base else self.volume),
            own.get("pitch", None if base else self.pitch),
            speed,
        )

    def kanji_words(self, text: str) -> str:
        """`text` as handed to an engine that reads kanji, with the pack's `[pronounce]` fixes."""
        for written, said in self.pronounce.items():
            text = text.replace(written, said)
        return text

    def counted(self, reading: str) -> str:
        """`reading` with each number before a counter said the counter's way (2にちめ → ふつかめ)."""
        for counter in sorted(self.counter_readings, key=len, reverse=True):
            reading = re.sub(rf"(?<![0-9])([0-9]+){re.escape(counter)}",
                             partial(_said_as, self.counter_readings[counter]), reading)
        return reading

    def sound_path(self, name: str) -> Path | None:
        """The WAV file of sound `name` (e.g. `ambience`), or None if the pack has none."""
        file = self.sounds.get(name)
        paths = [folder / "sounds" / file for folder in self.folders or (self.path,)] if file else []
        return next((path for path in paths if path.is_file()), None)

    def recording(self, spoken: "Spoken") -> Path | None:
        """A person's recording of this line with these parameters, if the pack has one."""
        if not spoken.params:
            name = f"{spoken.line}.wav"
        elif len(spoken.params) == 1 and not isinstance(spoken.params[0][1], (list, tuple)):
            name = f"{spoken.line}/{spoken.params[0][1]}.wav"
        else:
            return None
        paths = [folder / "recorded" / name for folder in self.folders or (self.path,)]
        return None if spoken.variant else next((path for path in paths if path.is_file()), None)

    def has(self, line_id: str) -> bool:
        return line_id in self.lines

    def mode_wordings(self, line_id: str) -> list[tuple[str, ...]]:
        """The sets of modes that have a wording of their own for `line_id` (for rendering ahead)."""
        return [combo for size in range(1, len(MODES) + 1) for combo in combinations(MODES, size)
                if ".".join((*combo, line_id)) in self.lines]

    def for_table(self, mode: TableMode) -> "VoicePack":
        """This pack worded for the table's inputs (`narrator.settings.TableMode`, chosen once as a sitting
        opens): prompts name only the inputs there are, and say when the device goes round."""
        return replace(self, without_microphone=not mode.microphone, pass_device=mode.pass_device,
                       keyboard_only=mode.keyboard_only, button_only=mode.button_only)

    def in_modes(self, modes: tuple[str, ...]) -> "VoicePack":
        """This pack with exactly `modes` holding: the wording a table with those inputs hears."""
        return replace(self, **{mode: mode in modes for mode in MODES})  # type: ignore[arg-type]  # MODES are bool fields

    @staticmethod
    def is_spoken(line_id: str) -> bool:
        """False for lines only shown at the terminal (`hint.*`): never rendered, never reviewed."""
        return not line_id.startswith("hint.")

    def speak(self, line_id: str, params: Mapping[str, Any] | None = None, variant: int = 0) -> Spoken:
        """The words of `line_id` (wording `variant`) with `params` filled in, as text and as reading."""
        line = self.lines.get(line_id)
        active = [mode for mode in MODES if getattr(self, mode)]
        for size in range(1, len(active) + 1):
            for combo in combinations(active, size):
                line = self.lines.get(".".join((*combo, line_id)), line)
        if line is None:
            raise NarratorError(
                f"voice pack '{self.name}' has no line '{line_id}'; add it to a file in {self.path / 'lines'}"
            )
        params = params or {}
        variant = variant % len(line.wordings())
        text_template, reading_template = line.wordings()[variant]
        text = PackFormatter(self, reading=False).format(text_template, **params)
        said = PackFormatter(self, reading=False, names=True).format(text_template, **params)
        reading_template = reading_template if reading_template is not None else text_template
        reading = self.counted(PackFormatter(self, reading=True, names=True).format(reading_template, **params))
        frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
        return Spoken(line_id, text, reading, frozen, variant, said)

    def format_value(self, value: object, spec: str = "", reading: bool = False) -> str:
        """One parameter as the pack writes it (names joined, `:duration` …), for a line said in pieces."""
        return PackFormatter(self, reading=reading).format_field(value, spec)

    def placeholders(self, line_id: str) -> set[str]:
        """The parameter names a line uses (text and reading together)."""
        line = self.lines[line_id]
        found = set()
        for template in [t for pair in line.wordings() for t in pair if t]:
            found |= {name for _, name, _, _ in string.Formatter().parse(template) if name}
        return found

    def seconds_for(self, text: str) -> float:
        """How long a line takes to say when nothing measures it (text mode)."""
        return round(max(0.5, len(text) / self.chars_per_second), 2)


def pack_dirs() -> list[Path]:
    """Where packs are looked for: the user's own packs first, then the bundled ones."""
    return [home.app_home() / "voices", home.bundled_voices()]


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
    raise SetupError(f"no voice pack '{name}'; known packs: {', '.join(list_packs()) or 'none'}")


def load_pack(name: str) -> VoicePack:
    """Load a pack by name or path; a broken file is one line naming it.

    Read once per process while its files are unchanged (`pack_cache`): the pack returned is
    shared, its mappings read-only; an edited, added or removed file, or another
    `NARRATOR_HOME`, is read again at the next load."""
    return _PACKS.get(name, find_pack, partial(read_pack, name))


def read_pack(name: str, reads: Reads | None = None) -> VoicePack:
    """Read and build pack `name` from its files, noting each file read in `reads`."""
    reads = reads if reads is not None else Reads()
    path = find_pack(name)
    reads.lookup(name, path)
    voice, folders = _inherited(path, reads)
    engine = voice.get("engine", "pyttsx3")
    engines = tuple(dict.fromkeys([engine, *voice.get("fallback", [])]))
    lines: dict[str, Line] = {}
    for folder in reversed(folders):  # the inherited lines first, then the pack's own
        for lines_file in reads.listing(folder / "lines"):
            lines.update(_flatten_lines(_read_toml(lines_file, reads)))
    name = voice.get("name", path.name)
    lines = resolved(lines, name, str(path / "lines"))  # after inheritance: a child's label is the one said
    return VoicePack(
        name=name,
        path=path,
        lang=voice["lang"],
        engine=engine,
        voice=voice.get("voice"),
        rate=voice.get("rate"),
        volume=voice.get("volume"),
        pitch=voice.get("pitch"),
        chars_per_second=float(voice.get("chars_per_second", 12)),
        formats=frozen(voice.get("format", {})),
        lines=MappingProxyType(lines),
        vocabulary=frozen(voice.get("vocabulary", {})),
        engines=engines,
        engine_options=frozen(voice.get("engines", {})),
        sounds=frozen(voice.get("sounds", {})),
        pronounce=frozen(voice.get("pronounce", {})),
        counter_readings=frozen(voice.get("counter_readings", {})),
        folders=tuple(folders),
    )


_PACKS: PackCache[VoicePack] = PackCache()
"""The packs read in this process (`pack_cache`)."""


def _inherited(path: Path, reads: Reads, seen: tuple[Path, ...] = ()) -> tuple[dict[str, Any], list[Path]]:
    """A pack's `voice.toml` over the one it inherits (tables merged key by key), and its folders."""
    voice = _read_toml(path / "voice.toml", reads)
    parent_name = voice.pop("inherit", None)
    if parent_name is None:
        return voice, [path]
    parent_path = find_pack(parent_name)
    reads.lookup(parent_name, parent_path)
    if parent_path.resolve() == path.resolve():
        raise NarratorError(f"voice pack {path} inherits itself; set `inherit` in {path / 'voice.toml'} to another pack")
    if parent_path.resolve() in seen:
        raise NarratorError(f"voice packs inherit in a circle through {path}; fix `inherit` in {path / 'voice.toml'}")
    parent, folders = _inherited(parent_path, reads, (*seen, path.resolve()))
    parent.pop("name", None)
    return _merged(parent, voice), [path, *folders]


def _merged(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, Mapping) and isinstance(out.get(key), Mapping) else value
    return out


def _read_toml(path: Path, reads: Reads) -> dict[str, Any]:
    """One file of a pack, freshly parsed (the caller's own dict), noted in `reads` first."""
    reads.file(path)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise NarratorError(f"voice pack file {path} is missing") from None
    except tomllib.TOMLDecodeError as err:
        raise NarratorError(f"voice pack file {path} is not valid TOML: {err}") from None


def merged_under(pack: VoicePack, tree: Mapping[str, Any]) -> VoicePack:
    """`pack` with a game's own lines (a game file's `[lines.<lang>]`, the pack files' form)
    beneath its own: a line the pack has is the pack's, so a pack of the table's still rewords it."""
    if not tree:
        return pack
    own = _flatten_lines(tree)
    lines = {**own, **pack.lines}  # the game's own lines may refer to the pack's labels (and to each other)
    where = f"{pack.path / 'lines'} or the game file's [lines.{pack.lang}]"
    return replace(pack, lines=resolved(lines, pack.name, where, ids=set(own) - set(pack.lines)))


def _flatten_lines(tree: Mapping[str, Any], prefix: str = "") -> dict[str, Line]:
    """`[seer] wake = …` becomes line id `seer.wake`; a table with `text` is one line."""
    lines: dict[str, Line] = {}
    for key, value in tree.items():
        line_id = f"{prefix}{key}"
        if isinstance(value, str):
            lines[line_id] = Line(line_id, value)
        elif isinstance(value, Mapping) and "text" in value:
            variants = tuple(
                (v, None) if isinstance(v, str) else (v["text"], v.get("reading"))
                for v in value.get("variants", ())
            )
            lines[line_id] = Line(line_id, value["text"], value.get("reading"), variants)
        elif isinstance(value, Mapping):
            lines.update(_flatten_lines(value, f"{line_id}."))
    return lines
