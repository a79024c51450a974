"""Where game files are and how one becomes a `Game`: the shipped ones beside this module, a
table's own in the home folder, each read, checked (its lines too) and built once.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from narrator import home
from narrator.errors import SetupError

SHIPPED = Path(__file__).with_name("games")
HOME_FOLDER = "game-files"


def shipped_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(SHIPPED.glob("*.toml"))}


def home_files() -> dict[str, Path]:
    """The table's own game files: `<home>/game-files/<name>.toml`."""
    folder = home.app_home() / HOME_FOLDER
    return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


@lru_cache(maxsize=32)
def load(path: Path):
    """The `Game` of one file, read and checked once (one line naming the file and the fix)."""
    from narrator.games.kernel.game import build
    from narrator.games.kernel.parse import read_game_file

    spec = read_game_file(Path(path))
    if spec.name != Path(path).stem and Path(path).parent in (SHIPPED, home.app_home() / HOME_FOLDER):
        raise SetupError(f"game file {path}: [game] name '{spec.name}' differs from the file's name; "
                         f"rename the file {spec.name}.toml")
    from narrator.games.kernel.lines import check_lines

    return build(check_lines(spec))


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
