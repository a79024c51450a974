"""The werewolf-family rules kernel: any game of the family narrated from a game file.

A game file (TOML) names roles, the deal by player count, the night's calls with their
conditions, the day and the win rules, all from a closed vocabulary implemented once here
(`model` reads and checks a file, `engine` plays it, `judge` decides deaths and wins,
`plans` prints the night plan and the graph and checks a file's scenarios, `game` hands it
over as a `Game`). The shipped games are files in `games/`; a table's own are in the
folder `game-files` of the narrator's home.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from narrator import home
from narrator.errors import SetupError

SHIPPED = Path(__file__).with_name("games")
HOME_FOLDER = "game-files"
SCHEMA = Path(__file__).with_name("game-file.schema.json")


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
    from narrator.games.kernel.model import read_game_file

    spec = read_game_file(Path(path))
    if spec.name != Path(path).stem and Path(path).parent in (SHIPPED, home.app_home() / HOME_FOLDER):
        raise SetupError(f"game file {path}: [game] name '{spec.name}' differs from the file's name; "
                         f"rename the file {spec.name}.toml")
    return build(spec)
