"""The table's settings: a TOML table file, overridden key by key on the command line.

Each key is declared once, as a `Setting`: the shared ones in `settings.toml`, a game's own
in its definition.toml. The shared keys are fields of `TableSettings`; the game's own keys
(cards, timers, night order …) are kept raw in `options` and validated by the game's
`configure`, so that a typo anywhere is refused before a word is spoken, with one line
naming the fix. Most keys are also `narrator play` flags (`time_scale` is `--time-scale`).
This module declares the keys and builds `TableSettings` from them; one value is read by
`narrator.values.readers` (the readers every game's setup shares), the players' names by
`narrator.values.names`, the table file itself by `narrator.values.files`.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import Refusal, SetupError, worded
from narrator.values import readers
from narrator.values.names import parse_name_entries
from narrator.values.readers import boolean, integer, number, shown

DEFAULT_GAME = "additional-werewolf"
DEVICE_SECTIONS = ("appliance", "presets", "kept")
"""Table-file sections that are not the game's options: the device, the presets, and the other
games' setups kept aside by a switch of game (checked by `narrator.appliance.table`)."""


@dataclass(frozen=True)
class Setting:
    """One table-file key: the key lists below, `narrator play`'s flags, `RunOptions`, the host
    screen and the docs' key tables (written by `scripts/docs-settings`) derive from it or are
    checked against it (tests/test_settings_declared.py)."""

    key: str
    kind: str = "option"
    """common (what is played), run (how: `RunOptions`), listening, or option (a game's own)."""
    parse: str = ""
    """How `build_settings` reads it (see `read_value`); a game's options are read by its `configure`."""
    low: int | float | None = None
    high: int | float | None = None
    """Its bounds, for `read_value` (a listening key's are read by `listen_options`)."""
    choices: tuple[str, ...] = ()
    help: str = ""
    """Its `narrator play` flag's help line; empty: no flag of its own (table file only)."""
    switch: bool = False
    """An on/off flag `narrator play` declares itself (--phones/--no-phones), not a value flag."""
    form: str = ""
    flag_doc: str = ""
    default: str = "none"
    doc: str = ""
    page: str = "table-file.md"
    """The docs page whose key table has this key's row (form, flag_doc, default, doc and cites
    fill it), `page.md#name` for a page's second table: `scripts/docs-settings` writes the row."""
    form_ja: str = ""
    flag_doc_ja: str = ""
    default_ja: str = ""
    doc_ja: str = ""
    cites_ja: str = ""
    """The same row's words on the Japanese page (Japanese is the table's first language), each
    declared beside its English one: `doc_ja` always; `flag_doc_ja`, `default_ja`, `cites_ja`
    where the English one is words (`random`, not `1.0` or `` `auto` ``); `form_ja` where the
    Japanese example differs (`"市民=3,…"`). Empty: undeclared (`default_ja` is worked out from
    `value` like `default`, and `none` is なし); `scripts/docs-settings` refuses a Japanese row it
    lacks words for."""
    page_ja: str = "ja/table-file.md#shared"
    """The Japanese table that has its row (`ja/table-file.md#bestia-magica`): a Japanese page
    groups the keys by game, not by the English pages, so each game's `declare` fills it."""
    names: str = ""
    """The game's vocabulary its values name (`cards`, `roles`; `roles:attributes` when a
    second one follows a `:`, 魔獣:ソーレ): names there are read as ids
    (`narrator.games.card_names.translate`), so 占い師 is `seer`; empty: it names none."""
    names_at: str = ""
    """Where in the value those names are: `keys` ("占い師=1"), `items` ("占い師,霊能者") or
    `values` ("Aki=預言者:S")."""
    value: object = None
    """The real default, read by the game's `configure` (None: none, or one it works out, such
    as the recommended set for the count); the docs' default column is written from it unless
    `default` says more. One declaration, so the setup code holds no second copy."""
    heading: tuple[tuple[str, str], ...] = ()
    """Its heading on the host screen in each language, `heading = { ja = "…", en = "…" }`:
    (language, words) pairs, read as a dict by `headings`. Japanese is the table's first
    language: tests/test_settings_declared.py fails on a host-screen setting without it."""
    cites: str = ""
    """Where the rules say it (`P-BM-2`, `FAQ`): written after the key in its docs row."""

    @property
    def headings(self) -> dict[str, str]:
        """The heading by language ({"ja": "夜の順番", "en": "Night order"})."""
        return dict(self.heading)

    @property
    def flag(self) -> str | None:
        """`--time-scale` for `time_scale`; None for a key with no flag of its own."""
        return "--" + self.key.replace("_", "-") if self.help else None


def as_written(value: object) -> str:
    """A declared default as the docs write it: `60, 10`, `true`, `20`."""
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def declared_values(settings: tuple[Setting, ...]) -> dict[str, Any]:
    """The real defaults of these declarations, by key (those that have one)."""
    return {s.key: s.value for s in settings if s.value is not None}


def declare(table: Mapping[str, object], **fill: object) -> tuple[Setting, ...]:
    """`Setting`s from TOML tables `{key: {field: value}}` (`fill`: fields a table leaves out); a
    bound may name a `MAX_` constant of `narrator.values.readers` (TOML has no 2**256). The
    tables are read as untrusted TOML: a field of the wrong type is one `SetupError` line naming it."""
    out = []
    for key, spec in table.items():
        if not isinstance(spec, Mapping):
            raise SetupError(f"setting {key}: declare it as a table of fields, [settings.{key}]")
        out.append(_setting(key, {**fill, **spec}))
    return tuple(out)


_TEXT_FIELDS = ("kind", "parse", "help", "form", "flag_doc", "default", "doc", "page", "names", "names_at",
                "cites", "form_ja", "flag_doc_ja", "default_ja", "doc_ja", "cites_ja", "page_ja")
_FIELDS = frozenset((*_TEXT_FIELDS, "low", "high", "choices", "switch", "value", "heading"))


def _setting(key: str, spec: Mapping[str, object]) -> Setting:
    """One declaration, each field checked for its type."""
    unknown = sorted(set(spec) - _FIELDS)
    if unknown:
        raise SetupError(f"setting {key}: unknown field {unknown[0]}; a setting's fields are {sorted(_FIELDS)}")
    text = {name: _declared_text(key, name, spec[name]) for name in _TEXT_FIELDS if name in spec}
    value = spec.get("value")
    value = tuple(value) if isinstance(value, list) else value
    if value is not None and "default" not in text:
        text["default"] = as_written(value)
        if "default_ja" not in text and not _names_text(value):  # a number or true/false reads alike
            text["default_ja"] = text["default"]
    switch = spec.get("switch", False)
    if not isinstance(switch, bool):
        raise SetupError(f"setting {key}: switch is true or false")
    heading = spec.get("heading", {})
    if not isinstance(heading, Mapping):
        raise SetupError(f"setting {key}: heading is a table, {{ ja = \"…\", en = \"…\" }}")
    return replace(Setting(key), **text, value=value, switch=switch,
                   low=_bound(key, "low", spec.get("low")), high=_bound(key, "high", spec.get("high")),
                   choices=_texts(key, "choices", spec.get("choices", ())),
                   heading=tuple(sorted((str(lang), _declared_text(key, "heading", words))
                                        for lang, words in heading.items())))


def _names_text(value: object) -> bool:
    """Whether a declared value holds words (`["seer", "medium"]`), which the Japanese page writes its way."""
    return isinstance(value, tuple) and any(isinstance(item, str) for item in value)


def _declared_text(key: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise SetupError(f"setting {key}: {name} is text, in quotes")
    return value


def _texts(key: str, name: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"setting {key}: {name} is a list of text")
    return tuple(_declared_text(key, name, item) for item in value)


def _bound(key: str, name: str, value: object) -> int | float | None:
    """A declared bound: a number, or the name of a `MAX_` constant of `narrator.values.readers`."""
    if isinstance(value, str) and value.startswith("MAX_"):
        value = getattr(readers, value, None)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise SetupError(f"setting {key}: {name} is a number or a MAX_ constant of narrator/values/readers.py")
    return value


SETTINGS = declare(tomllib.loads(Path(__file__).with_name("settings.toml").read_text(encoding="utf-8")))
"""Every key the games share, in `narrator play --help` order."""
COMMON_SETTINGS = tuple(s for s in SETTINGS if s.kind in ("common", "run"))
COMMON_KEYS = tuple(s.key for s in COMMON_SETTINGS)
LISTEN_KEYS = tuple(s.key for s in SETTINGS if s.kind == "listening")
"""Listening keys: kept raw in `TableSettings.listening`, validated by `narrator.inputs.voice.setup`."""
RUN_KEYS = tuple(s.key for s in SETTINGS if s.kind == "run") + ("listening",)
"""The fields of `RunSettings`: how a game is run, not what is played (`table.session.RunOptions`)."""


@dataclass(frozen=True)
class RunSettings:
    """The shared keys that say how a game is run, not what is played (`kind = "run"` in
    settings.toml): fields of `TableSettings`, and of `table.session.RunOptions`, which keeps them
    with a saved game for resume. tests/test_settings_declared.py holds them to the declarations."""

    lang: str = "ja"
    voice: str = "auto"
    """A voice-pack name, `text` (print instead of speak) or `auto` (the language's pack)."""
    time_scale: float = 1.0
    """1 is real time; 0 runs every wait instantly (tests, rehearsal); 0.1 is ten times faster."""
    answers: Path | None = None
    transcript: Path | None = None
    transcript_private: bool = False
    """Also write private records (lines to one player, memos, votes) to the transcript."""
    audio: str = "auto"
    """`auto` (speaker, else text), `null` (a clocked silent sink) or `device`."""
    audio_device: str | None = None
    audio_out: Path | None = None
    """Write the whole session, as heard, to this WAV file (works with time_scale 0 too)."""
    volume: float = 1.0
    """Master volume, 0 … 2 (1 = the clips' normalized level)."""
    speech_rate: float = 1.0
    """Speech rate as a factor on the pack's own rate, 0.5 … 2."""
    night_done: bool = False
    """Whether `done` ends a night countdown early (off: every night call lasts the same)."""
    ambience: bool = True
    """Loop the pack's night ambience under the night, ducked under speech."""
    phones: bool = False
    """Serve the phone page (narrator/phones) beside the narration."""
    host: str | None = None
    """Where the phone page listens: None = the local network interface; 127.0.0.1 = this machine only."""
    port: int = 8080
    history: bool = True  # keep the finished game in the table's history (narrator/table/history.py)
    listening: Mapping[str, Any] = field(default_factory=dict)
    """The listening keys (listen, model, confidence …): raw here, validated by narrator.inputs.voice."""


@dataclass(frozen=True)
class TableSettings(RunSettings):
    """What one table chose: shared keys as fields, the game's own keys in `options`."""

    game: str = DEFAULT_GAME
    players: int | None = None
    """How many play; `None` means: take it from `names`, else the game's default."""
    names: tuple[str, ...] = ()
    """Seat order; with names the narrator can ask who was nominated and name them."""
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    source: str = "defaults"
    """Where the settings came from, for error messages."""
    stated_lang: str | None = None
    """The `lang` the table file or a flag states, None when neither does: the language its
    refusals are worded in (`narrator.errors.Refusal`); a table that states none reads English."""


def build_settings(table: Mapping[str, Any], overrides: Mapping[str, Any], source: str) -> TableSettings:
    """Merge the table file's keys with CLI overrides (None = not given) into settings; a
    refusal is worded in the table's language (`lang`, when it names a known one)."""
    lang = overrides.get("lang") or table.get("lang")
    stated = lang if isinstance(lang, str) and lang in _languages() else None
    with worded(stated):
        return replace(_build_settings(table, overrides, source), stated_lang=stated)


def _languages() -> tuple[str, ...]:
    return next(s.choices for s in COMMON_SETTINGS if s.key == "lang")


def _build_settings(table: Mapping[str, Any], overrides: Mapping[str, Any], source: str) -> TableSettings:
    merged = {k.replace("-", "_"): v for k, v in table.items()}
    merged.update({k: v for k, v in overrides.items() if v is not None})
    for section in DEVICE_SECTIONS:
        merged.pop(section, None)
    common = {k: merged.pop(k) for k in COMMON_KEYS if k in merged}
    listening = {k: merged.pop(k) for k in LISTEN_KEYS if k in merged}
    # A field per declared key, each value of its parser's type (`read_value`); which field a key
    # is, only the declarations say, so the checker sees them as one mapping: the parsers are held
    # to the fields' types by tests/test_settings_declared.py (every default read back).
    values: dict[str, Any] = {s.key: read_value(s, common[s.key], source)
                              for s in COMMON_SETTINGS if s.key in common and s.parse != "names"}
    if "audio_device" in values:  # naming a device means playing on it
        values["audio"] = "device"
    settings = TableSettings(source=source, options=merged, listening=listening, **values)
    names, readings = parse_name_entries(common.get("names", ()), source)
    if readings:  # one key for voice and recognition: `name_readings` is its alias
        alias = listening.get("name_readings")
        merged_readings = {**(alias if isinstance(alias, Mapping) else {}), **readings}
        settings = replace(settings, listening={**settings.listening, "name_readings": merged_readings})
    players = settings.players
    if names and players is not None and players != len(names):
        raise Refusal("players_vs_names", source=source, players=players, names=len(names))
    return replace(settings, names=names, players=players if players is not None else (len(names) or None))


def _text(value: object, key: str, source: str) -> str:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise Refusal("not_text", source=source, key=key)
    return str(value)


def read_value(setting: Setting, value: object, source: str) -> int | float | str | Path:
    """One shared key's value, read by its declared parser and bounds; a bad one is one line."""
    key, kind, low, high, choices = setting.key, setting.parse, setting.low, setting.high, setting.choices
    if kind in ("whole", "range"):
        whole = integer(value, key, source, minimum=low, maximum=high if kind == "whole" else None)
        if kind == "range" and high is not None and whole > high:
            raise Refusal("out_of_range", source=source, key=key, low=low, high=high, value=shown(whole))
        return whole
    if kind == "number":
        return number(value, key, source, -math.inf if low is None else low, math.inf if high is None else high)
    if kind == "boolean":
        return boolean(value, key, source)
    if kind == "device":  # a device index is a number in TOML
        return str(value)
    text = _text(value, key, source)
    if kind == "language" and text not in choices:
        raise Refusal("unknown_language", source=source, value=text, known=choices)
    if kind == "choice" and text not in choices:
        raise Refusal("not_a_choice", source=source, key=key, known=choices, value=text)
    return Path(text) if kind == "path" else text


def check_options(options: Mapping[str, Any], settings: tuple[Setting, ...], game: str, source: str) -> None:
    """A game's `unknown option` line: every option must be one of its declared settings."""
    keys = [s.key for s in settings]
    unknown = sorted(set(options) - set(keys))
    if unknown:
        raise Refusal("unknown_option", source=source, option=unknown[0], game=game, known=keys)


# --- the table's mode ----------------------------------------------------------------------
# The table's mode: which inputs are present, where private answers go (phones, the device
# passed round, a script), the language.
#
# Chosen once, when a sitting opens (`narrator.table.session.open_sitting`), and handed down
# at construction to whatever behaves differently by it: the hub (pass-the-device, which
# answers are asked back), the voice pack (prompts that name only the inputs there are) and
# the scheduler. Nothing sets another room's mode flags afterwards; what changes during a
# service (the appliance's phones, game by game) is attached through the owner's own method
# (`ListenerHub.attach_phones`). It lives here, on the ground floor, so every room can read it.


@dataclass(frozen=True)
class TableMode:
    """One table's inputs, where its private answers go and its language, as the sitting opened them."""

    keyboard: bool = False
    """A terminal at the table answers (`narrator play`; the appliance when stdin is one)."""
    button: bool = False
    """A button the prompts name answers: the appliance's GPIO button, or its host screen's."""
    microphone: bool = False
    """A voice listens (an engine, a model and a microphone were all there)."""
    phones: bool = False
    """Phones are the private channel (and a host screen can be claimed)."""
    answers: bool = False
    """A file answers the table's questions (scripted play)."""
    private_script: bool = False
    """That file is a private script (JSON lines): it answers private questions too."""
    lang: str = "ja"
    """The table's language (the voice pack's)."""
    confirm_heard: bool = True
    """Every heard (voice) answer is repeated back before it counts (the table key `confirm`)."""

    @property
    def pass_device(self) -> bool:
        """Private rounds go round this terminal, one player at a time: a keyboard, and
        neither phones nor a private script to answer them."""
        return self.keyboard and not self.private_script and not self.phones

    @property
    def private_asks_on_device(self) -> bool:
        """Pass-the-device with nobody scripting the answers: a private question is put on the
        device for its player, and the keyboard (in their hands) answers it."""
        return self.pass_device and not self.answers

    @property
    def keyboard_only(self) -> bool:
        """Prompts name only the keys: a keyboard, and no button nor phones' host screen."""
        return self.keyboard and not self.button and not self.phones

    @property
    def button_only(self) -> bool:
        """Prompts name only the button: a button and no keyboard."""
        return self.button and not self.keyboard
