"""The games the narrator can run, each behind one contract (`contract.Game`).

Owns: the registry, the contract every game hands the rest of the narrator, what the
werewolf-family games share (`steps`, `seating`, `deal`, `scenarios`), and the one normaliser of the names a table
types for cards and roles (`card_names`, 占い師 = `seer`). A game lives in a folder of its own:
`narrator/games/<name>/` with a `definition.toml` is found by its folder alone (the folder
`bestia_magica` is the game `bestia-magica`), and an installed package can add a game with
an entry point in the group `narrator.games` (`name = "package:GAME"`), and a game file (the
rules kernel's TOML, `narrator/games/kernel/games/` and `<home>/game-files/`) is a game too. Nothing outside a
game's folder changes when a game is added: its lines go in the voice packs, its page in docs/.

A game supplies: `configure(settings) -> config` (validate the table), `new_state()`,
`advance(config, state, event) -> (state, cues)` (pure), `recap(config, state)` (what
to say on resume), how its config and state round-trip through JSON for the store, and
what the phones, the runner and the CLI ask of it (see `contract.Game`).
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache, partial
from importlib import metadata
from pathlib import Path
from typing import Callable

from narrator.errors import SetupError
from narrator.games.contract import SomeGame, Game

ENTRY_POINTS = "narrator.games"
"""The entry-point group of games installed from outside this package."""
GAME_FILE = "definition.toml"
"""A folder under `narrator/games/` that holds this file is a game (the others are shared code)."""


@lru_cache(maxsize=1)
def _registry() -> dict[str, Callable[[], SomeGame]]:
    """Every game's name and how to load it: the folders here in name order, then entry points.

    Loading is deferred (a game is imported when it is asked for), so `narrator games`
    and the CLI's start stay fast."""
    found: dict[str, Callable[[], SomeGame]] = {}
    for folder in sorted(Path(__file__).parent.iterdir()):
        if (folder / GAME_FILE).is_file() and (folder / "__init__.py").is_file():
            module = f"{__name__}.{folder.name}"
            found[folder.name.replace("_", "-")] = partial(_game_of_module, module)
    for entry in metadata.entry_points(group=ENTRY_POINTS):
        found.setdefault(entry.name, entry.load)
    from narrator.games.kernel import files  # game files: the shipped ones, then the table's own

    for listed in (files.shipped_files(), files.home_files()):
        for name in sorted(listed, key=_by_number):
            found.setdefault(name, partial(files.load, listed[name]))
    return found


def _game_of_module(module: str) -> SomeGame:
    """The `GAME` of a game's package, imported when the game is first asked for."""
    game: SomeGame = importlib.import_module(module).GAME
    return game


def _by_number(name: str) -> tuple[int | str, ...]:
    """A game file's place in the menu: its name with whole numbers compared as numbers, so the
    villages come as a host counts them (village-9, village-11 … village-16), not as text sorts."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def load_game_file(path: Path) -> SomeGame:
    """The game of a game file given by its path (`narrator play --game-file FILE`)."""
    from narrator.games.kernel import files

    return files.load(Path(path).resolve())


def broken_game_files() -> dict[str, str]:
    """The table's own game files that loading refuses, each with its one-line reason
    (`narrator games` lists them as broken, not as games)."""
    from narrator.games.kernel import files

    return files.broken_home_files()


def game_from_text(text: str, origin: Path) -> SomeGame:
    """The game of a game file's text: a saved game's copy of the file it was started with
    (`Game.source`), so a resume needs neither the file nor the registry (`origin` names it)."""
    from narrator.games.kernel import files

    return files.from_text(text, Path(origin))


def game_over_message(winner: str | None) -> str:
    """The log's last line of a game, in English grammar: "citizens win", "town wins", "witch wins".

    Team names (citizens, werewolves, beasts, demons) are plural; a side (town, witch, hunter) is one.
    """
    if not winner:
        return "game over"
    return f"game over: {winner} {'win' if winner.endswith('s') else 'wins'}"


def game_names() -> list[str]:
    return list(_registry())


def get_game(name: str) -> SomeGame:
    """The game called `name`; an unknown name is one line listing the known ones.

    A game whose contract gives another name, or no `Game`, is refused in one line too:
    the saved games and the table files know a game by this name."""
    registry = _registry()
    if name not in registry:
        raise SetupError(f"unknown game '{name}'; known games: {', '.join(registry)}")
    game = registry[name]()
    if not isinstance(game, Game) or game.name != name:
        raise SetupError(f"game '{name}' does not hand over its contract (a `Game` named '{name}'); "
                         "fix GAME in its package")
    return game
