"""Where game files are and how one becomes a `Game`: the shipped ones beside this module, a
table's own in the home folder, each read, checked (its lines too) and built once; and a
saved game's copy of its file, rebuilt from the text alone (`from_text`).

The file is read once and its exact text handed over with the game (`Game.source`): that text,
not the file read again later, is what the saved game keeps, so what is resumed is what was played.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from narrator import home
from narrator.errors import SetupError
from narrator.values.files import read_text_bounded

if TYPE_CHECKING:  # the game is built where a file is read: the registry lists files without parsing them
    from narrator.games.contract import Game
    from narrator.games.kernel.state import KConfig, KState

SHIPPED = Path(__file__).with_name("games")
HOME_FOLDER = "game-files"


def shipped_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(SHIPPED.glob("*.toml"))}


def home_files() -> dict[str, Path]:
    """The table's own game files: `<home>/game-files/<name>.toml`."""
    folder = home.app_home() / HOME_FOLDER
    return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


@lru_cache(maxsize=32)
def load(path: Path) -> Game[KConfig, KState]:
    """The `Game` of one file, read and checked once (one line naming the file and the fix);
    a file in the shipped folder or the home's must be called by its game's name."""
    text = read_text_bounded(Path(path), "game file", "check the path of the game file")
    named = Path(path).parent in (SHIPPED, home.app_home() / HOME_FOLDER)
    return from_text(text, Path(path), Path(path).stem if named else None)


@lru_cache(maxsize=8)
def from_text(text: str, origin: Path, stem: str | None = None) -> Game[KConfig, KState]:
    """The `Game` of a game file's text (`origin` names it in errors), carrying that text;
    with `stem`, the file's name its game must have."""
    from narrator.games.kernel.game import build
    from narrator.games.kernel.lines import check_lines
    from narrator.games.kernel.parse import parse_game

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as err:  # ValueError: an integer over 4300 digits
        raise SetupError(f"game file {origin}: not valid TOML ({err}); fix that line") from None
    spec = parse_game(data, str(origin))
    if stem is not None and spec.name != stem:
        raise SetupError(f"game file {origin}: [game] name '{spec.name}' differs from the file's name; "
                         f"rename the file {spec.name}.toml")
    return replace(build(check_lines(spec)), source=text)


def broken_home_files() -> dict[str, str]:
    """The table's own files that `load` refuses (a file `x.toml` whose `[game] name` is `y`, an
    unknown action …), each with its one-line reason: `narrator games` lists them as broken,
    not as games a table could pick and then be refused."""
    broken = {}
    for name, path in home_files().items():
        try:
            load(path)
        except SetupError as err:
            broken[name] = str(err)
    return broken
