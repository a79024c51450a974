"""The default table file in the app's home: what the service plays, checked on every save.

`narrator serve` and `narrator play` read `<app home>/table.toml` (created with commented
defaults on first use). Every change goes through `update_table` (`narrator config set KEY
VALUE`, `unset KEY`, the host screen, the service's menu) or `edit`: the new text is parsed
and validated with the same `build_settings` and game `configure` that `narrator play` uses,
plus the `[appliance]` section's own checks, and only then replaces the file atomically (a
unique temp file, fsynced, renamed over). A bad value is refused with the usual one-line
error and the file is left exactly as it was. The text is edited with tomlkit, so comments
and a value written over several lines (`names = [` … `]`) survive an edit of another key,
and each read-change-write holds a lock beside the file (`locked`), so two writers at once
(a phone, `config set`, the service) never lose one's change. A card's key may be typed in
the table's language (`cards.占い師`): the entry already there for that card is the one edited.
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import subprocess
import tempfile
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping


from narrator import home
from narrator.appliance import table_text
from narrator.appliance.table_text import format_value, parse_value  # noqa: F401 - `narrator config`'s
from narrator.appliance import game_switch, presets, seat_fill
from narrator.errors import Refusal, SaveError, SetupError, worded
from narrator.games import get_game
from narrator.games.contract import GameConfig
from narrator.settings import DEFAULT_GAME, TableSettings, build_settings
from narrator.values.files import read_text_bounded

TABLE_NAME = "table.toml"
DEFAULT_TABLE = f"""\
# The table file of the narrator appliance (`narrator serve`, the systemd service).
# Change it with `narrator config set KEY VALUE` or `narrator config edit`: every change is
# checked before it is saved. Any `narrator play` flag is a key here (--time-scale = time_scale).
game = "{DEFAULT_GAME}"
players = 5
lang = "ja"
# names = ["Aki", "Ben", "Chika", "Dai", "Emi"]
# The host screen and the players' phones (a page at the address the narrator says) are on
# while this file does not say `phones`; `phones = false` turns them off.
# phones = false

[appliance]
# GPIO (BCM) pin of the main button, wired to ground: short press = done / next / yes,
# long press = repeat, double press = pause, triple press = no. "none" turns it off.
button_pin = 17
# An optional second button: short press = no. "none" = no second button.
button2_pin = "none"
# Seconds a press must last to count as long; seconds to wait for a second press.
hold_time = 1.0
multi_press = 0.4
# Seconds the narrator waits for an answer to "resume the unfinished game?" before resuming.
resume_timeout = 15
# Seconds of silence after which the narrator says the open question again (0 = never).
remind_after = 60
"""


@dataclass(frozen=True)
class ApplianceConfig:
    """The `[appliance]` section: how the headless device is controlled."""

    button_pin: int | str | None = 17
    """BCM number (or a gpiozero pin name such as "GPIO17" or "BOARD11"); None = no button."""
    button2_pin: int | str | None = None
    """A second button answering `no`; None = one button (triple press answers no)."""
    hold_time: float = 1.0
    """Seconds held for a long press (repeat)."""
    multi_press: float = 0.4
    """Seconds after a release in which another press makes it a double (pause) or triple (no)."""
    resume_timeout: float = 15.0
    """Seconds to wait for yes/no to "resume?" after asking; silence resumes."""
    remind_after: float | None = 60.0
    """Seconds of silence after which an open question is said again; None = never."""

    @property
    def pins(self) -> list[int | str]:
        return [p for p in (self.button_pin, self.button2_pin) if p is not None]


APPLIANCE_KEYS = tuple(ApplianceConfig.__dataclass_fields__)
_PIN_NAME = re.compile(r"^(GPIO|BCM|BOARD|WPI|J8:|P1:)?\d{1,2}$", re.IGNORECASE)


def table_path() -> Path:
    return home.app_home() / TABLE_NAME


def ensure_table() -> Path:
    """The default table file, written with commented defaults if there is none yet."""
    path = table_path()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path):  # another writer may have made it (and changed it) meanwhile
            if not path.exists():
                _write_atomic(path, DEFAULT_TABLE)
    return path


def lock_path(path: Path) -> Path:
    """The lock file beside a table file (kept: removing it would let two writers in)."""
    return path.with_name(f".{path.name}.lock")


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the table file's lock (flock on the lock file beside it) for one read-change-write.

    The kernel drops the lock when its holder closes the file or dies, so a crashed writer
    never leaves the table locked."""
    try:
        fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise SaveError(f"cannot lock the table file {path} ({err.strerror}); make its folder writable "
                        "(what it holds is kept)") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def parse_appliance(section: object, source: str) -> ApplianceConfig:
    """Check the `[appliance]` section; one line naming the key and the fix on any problem."""
    if not isinstance(section, Mapping):
        raise Refusal("appliance_form", source=source)
    unknown = sorted(set(section) - set(APPLIANCE_KEYS))
    if unknown:
        raise Refusal("appliance_unknown_key", source=source, option=unknown[0], known=APPLIANCE_KEYS)
    values: dict[str, Any] = {}
    for key in ("button_pin", "button2_pin"):
        if key in section:
            values[key] = _pin(section[key], f"appliance.{key}", source)
    for key in ("hold_time", "multi_press", "resume_timeout"):
        if key in section:
            values[key] = _seconds(section[key], f"appliance.{key}", source)
    if "remind_after" in section:
        off = section["remind_after"] in (0, False) or str(section["remind_after"]).lower() == "none"
        values["remind_after"] = None if off else _seconds(section["remind_after"], "appliance.remind_after", source)
    config = ApplianceConfig(**values)
    if config.button_pin is not None and config.button_pin == config.button2_pin:
        raise Refusal("appliance_same_pins", source=source, pin=config.button_pin)
    return config


def check_table(table: Mapping[str, Any], source: str,
                overrides: Mapping[str, Any] | None = None) -> tuple[TableSettings, GameConfig, ApplianceConfig]:
    """Validate a whole table file: settings, the game's own options, and the appliance."""
    settings = build_settings(table, dict(overrides or {}), source)
    config = get_game(settings.game).configure(settings)
    with worded(settings.stated_lang):
        appliance = parse_appliance(table.get("appliance", {}), source)
        presets.check_presets(table, source, lambda preset, where: check_table(preset, where))
        game_switch.check_kept(table, source)
    return settings, config, appliance


class UnreadableTable(SetupError):
    """The table file is not a TOML text at all (not UTF-8, too big, endless, nested too
    deeply): the service sets it aside rather than stumble on it at every start."""


def read_table_text(path: Path) -> str:
    """The table file's text, read with a size bound (a FIFO refused): one line on any problem."""
    try:
        return read_text_bounded(path, "table file", "`narrator config show` writes a new one")
    except SetupError as err:
        raise (err if "not found" in str(err) else UnreadableTable(str(err))) from None


def load_table(path: Path) -> dict[str, Any]:
    text = read_table_text(path)
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as err:  # ValueError: an integer over 4300 digits
        raise UnreadableTable(f"table file {path} is not valid TOML: {err}; "
                              "fix it with `narrator config edit`") from None
    except RecursionError:
        raise UnreadableTable(f"table file {path} nests tables or lists too deeply; "
                              "fix it with `narrator config edit`") from None


def save_checked(path: Path, text: str) -> dict[str, Any]:
    """Replace the table file by `text` only if it parses and validates; returns the table."""
    try:
        table = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as err:
        raise Refusal("table_not_toml", path=path, problem=err) from None
    check_table(table, f"table file {path}")
    _write_atomic(path, text)
    return table


def update_table(path: Path, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Apply `{dotted key: value}` (None unsets) as one checked save; the one door for edits.

    Every writer of the table file (`narrator config`, the host screen, the spoken setup,
    the service's game menu) goes through here, so they all get the same checks and the
    same refusal lines, and none of them edits the text on its own. The read, the changes
    and the write happen under the file's lock, so a change made meanwhile is never lost.
    """
    with locked(path):
        text = read_table_text(path)
        document = table_text.parse(text, path)
        with worded(table_text.stated_lang(document)):
            *better, last = game_switch.plans(document.unwrap(), changes)  # a switch of game keeps the old setup
            for plan in better:
                try:
                    return _save_plan(path, text, plan)
                except SetupError:  # the new game's kept setup does not fit (another count): without it
                    continue
            return _save_plan(path, text, last)


def _save_plan(path: Path, text: str, plan: Mapping[str, Any]) -> dict[str, Any]:
    document = table_text.parse(text, path)
    for dotted, value in sorted(plan.items(), key=lambda change: "." in change[0]):
        table_text.apply(document, dotted, value, plan)  # `players` first: it sets the counts
    if isinstance(plan.get("players"), int):  # a new count keeps the names: grown or cut (seat_fill)
        names = seat_fill.fit(document.unwrap(), plan["players"])
        if names is not None:
            table_text.apply(document, "names", names, plan)
    elif plan.get("names") and "players" not in plan:  # new names alone: the count follows them
        count = seat_fill.count_for(document.unwrap())
        if count is not None:
            table_text.apply(document, "players", count, plan)
    return save_checked(path, document.as_string())


def set_key(text: str, dotted: str, value: object) -> str:
    """`text` with `KEY = value` set: the value replaced where it is, or added to its section."""
    document = table_text.parse(text, Path("(text)"))
    table_text.apply(document, dotted, value, {})
    return document.as_string()


def edit(path: Path, editor: str | None = None) -> dict[str, Any]:
    """Open a copy in the editor; save it back only if it validates (else the file is unchanged).

    The editor runs without the lock (it may stay open for minutes); if another writer changed
    the file meanwhile, the draft is kept beside it and nothing is overwritten."""
    editor = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "nano"
    fd, name = tempfile.mkstemp(prefix="table-", suffix=".toml", dir=path.parent)
    os.close(fd)
    draft = Path(name)
    keep = False
    try:
        base = read_table_text(path)
        draft.write_text(base, encoding="utf-8")
        try:
            status = subprocess.call([*shlex.split(editor), str(draft)])
        except FileNotFoundError:
            raise SetupError(f"editor '{editor}' not found; set EDITOR, or use `narrator config set KEY VALUE`") from None
        if status != 0:
            raise SetupError(f"the editor exited with status {status}; the table file is unchanged")
        with locked(path):
            if read_table_text(path) != base:
                keep = True
                raise SetupError(f"the table file changed while you edited it (a phone or `narrator config set`); "
                                 f"your edit is kept in {draft}: run `narrator config edit` again and copy it in")
            return save_checked(path, draft.read_text(encoding="utf-8"))
    finally:
        if not keep:
            draft.unlink(missing_ok=True)


# --- helpers ---------------------------------------------------------------------------------

def _pin(value: object, key: str, source: str) -> int | str | None:
    if value is False or (isinstance(value, str) and value.strip().lower() in ("none", "off", "")):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 53:
        return value
    if isinstance(value, str) and _PIN_NAME.match(value.strip()):
        text = value.strip()
        return int(text) if text.isdigit() else text
    raise Refusal("appliance_pin", source=source, key=key, value=value)


def _seconds(value: object, key: str, source: str) -> float:
    if not isinstance(value, (int, float, str)):  # a list, a table, a date: no number of seconds
        raise Refusal("appliance_seconds", source=source, key=key, value=value)
    try:
        seconds = float(value)
    except OverflowError:  # a whole number too big for a float: out of range, not a traceback
        raise Refusal("appliance_seconds_range", source=source, key=key, value=_short(value)) from None
    except (TypeError, ValueError):
        raise Refusal("appliance_seconds", source=source, key=key, value=value) from None
    if isinstance(value, bool) or not 0 < seconds <= 3600:
        raise Refusal("appliance_seconds_range", source=source, key=key, value=value)
    return seconds


def _short(value: object) -> str:
    """A value as a refusal shows it: a number of hundreds of digits cut to its head."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:20]}…({len(text)} digits)"


def _write_atomic(path: Path, text: str) -> None:
    try:
        home.write_atomic(path, text, mode=0o644)
    except OSError as err:
        raise SaveError(f"cannot write the table file {path} ({err.strerror}); free some space or make it "
                        "writable (what it held is kept)") from None
