"""The program's own terminal lines (setup, warnings, Ctrl-C, resume, doctor, the speech-model
errors) in the table's language, from one file: narrator/terminal/lines.toml.

Why a file of keys and not sentences in the code: a Japanese table reads the game in Japanese,
and the lines the program itself prints must not fall back to English; a key that has no
Japanese is caught by tests/test_terminal_lines.py, which walks every key in both languages.

The language is the table's (`choose`, called where the table is known: `play` and `serve` by
their table file or flags, `resume` by what the saved game remembers of it), else the `lang` of
the narrator home's table file, else the locale (LC_ALL, LC_MESSAGES, LANG, the first one set:
`ja…` is Japanese), else English.

Stdlib only, and runnable as a script (`python3 -I narrator/terminal/lines.py KEY name=value …`),
so scripts/setup prints its lines through it before narrator is installed.
"""

from __future__ import annotations

import os
import sys
import tomllib
from functools import cache
from pathlib import Path

LINES_FILE = Path(__file__).with_name("lines.toml")
LANGS = ("en", "ja")
TABLE_NAME = "table.toml"
"""The narrator home's table file (narrator.appliance.table.TABLE_NAME: not imported, see above)."""

_chosen: str | None = None


@cache
def lines() -> dict[str, dict[str, str]]:
    """Every language's lines by key."""
    return tomllib.loads(LINES_FILE.read_text(encoding="utf-8"))


def choose(lang: object) -> None:
    """The table's language is known (a table file's or a flag's `lang`, a saved game's):
    every later line is in it. A language the lines lack (or none) leaves the choice as it was."""
    global _chosen
    if isinstance(lang, str) and lang in LANGS:
        _chosen = lang


SAVED_KEY = "terminal_lang"
"""The saved game's run options keep the language its table chose (`remembered`), so that
`narrator resume` speaks it too, whatever the locale of the shell that resumes."""


def remembered(run: dict[str, object]) -> dict[str, object]:
    """A game's run options to save, with the table's chosen language (when one was)."""
    return {**run, SAVED_KEY: _chosen} if _chosen else dict(run)


def recall(run: object) -> None:
    """A saved game's run options: its table's language, if it chose one, is chosen again."""
    if isinstance(run, dict):
        choose(run.get(SAVED_KEY))


def forget() -> None:
    """Back to the home table file and the locale (tests; a new command in the same process)."""
    global _chosen
    _chosen = None


def locale_lang(env: dict[str, str] | os._Environ[str] | None = None) -> str | None:
    """`ja` when the locale that words messages starts with `ja`, `en` for another one set, else None."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return None


def home_table_lang() -> str | None:
    """The `lang` of the narrator home's table file (the one `narrator serve` plays), if it says one.
    A missing or unreadable file says none: its own error is for the command that reads it."""
    if os.environ.get("NARRATOR_HOME"):
        home = Path(os.environ["NARRATOR_HOME"]).expanduser()
    else:
        home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "narrator"
    return file_lang(home / TABLE_NAME)


def file_lang(path: Path) -> str | None:
    """The `lang` a table file states, if it is readable and states one the lines have."""
    try:
        lang = tomllib.loads(path.read_text(encoding="utf-8")).get("lang")
    except (OSError, ValueError, RecursionError):
        return None
    return lang if lang in LANGS else None


def terminal_lang() -> str:
    """The language of the program's own lines now (see the module's docstring)."""
    return _chosen or home_table_lang() or locale_lang() or "en"


def said(key: str, /, **params: object) -> str:
    """The line `key` in the terminal's language now (`terminal_lang()`), its `{params}` filled in."""
    return said_in(terminal_lang(), key, **params)


def said_in(lang: str, key: str, /, **params: object) -> str:
    """The line `key` in `lang` (English where that language lacks it), its `{params}` filled in."""
    table = lines()
    text = table.get(lang, {}).get(key) or table["en"][key]
    return text.format(**params)


def main(argv: list[str]) -> int:
    """`lines.py KEY [name=value …]`: print the line (scripts/setup's printer)."""
    if not argv:
        print("usage: lines.py KEY [name=value ...]", file=sys.stderr)
        return 2
    params = dict(arg.split("=", 1) for arg in argv[1:] if "=" in arg)
    print(said(argv[0], **params))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
