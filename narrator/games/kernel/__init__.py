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
    check_lines(spec)
    return build(spec)


PACKS = ("ja", "en")
"""The bundled packs every game file's lines must be in (a table's pack inherits one of them)."""


def needed_lines(spec) -> list[tuple[str, str]]:
    """(entry, line id) of every line of its own a file needs (the shared `wolf.*` lines aside)."""
    from narrator.games.kernel.engine import line
    from narrator.games.kernel.model import CHOOSING

    needed = [("[game] lines", f"wolf.welcome.{spec.lines}")]
    needed += [(f"[roles.{r}]", f"wolf.{kind}.{r}") for r in spec.roles for kind in ("role", "card")]
    needed += [(f"[[steps]] '{s.id}'", line(spec, s, part)) for s in spec.steps
               for part in ("wake", "act") + (("choose",) if s.action in CHOOSING else ())]
    return needed + [(f"[[wins]] winner '{w.winner}'", f"wolf.win.{w.winner}") for w in spec.wins]


def unreviewed(spec) -> list[str]:
    """The file's Japanese lines with kanji whose reading nobody has reviewed yet (a warning at
    the start of play: `scripts/review-readings` prints them, ready to check and add)."""
    from narrator.sound.readings import KANJI, SAMPLES, reviewed
    from narrator.sound.voicepack import load_pack

    pack = load_pack("ja")
    kept = reviewed(pack)
    out = []
    for _, line_id in needed_lines(spec):
        params = {p: SAMPLES.get(p, 2) for p in pack.placeholders(line_id)}
        spoken = pack.speak(line_id, params)
        if KANJI.search(pack.kanji_words(spoken.said or spoken.text)) and line_id not in kept:
            out.append(line_id)
    return out


def check_lines(spec) -> None:
    """An unknown line is refused at load time too: each line the file needs, in each bundled pack."""
    from narrator.sound.voicepack import load_pack

    needed = needed_lines(spec)
    for name in PACKS:
        pack = load_pack(name)
        for entry, line_id in needed:
            if not pack.has(line_id):
                raise SetupError(f"game file {spec.path}: {entry}: the {name} pack has no line '{line_id}'; add it to "
                                 f"voices/{name}/lines/wolf.toml (or a pack of your own, docs/game-files.md)")
