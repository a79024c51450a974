"""`narrator play`'s table-file flags, made from the declared settings (`narrator.settings.Setting`).

The shared keys come from narrator/settings.toml and each game's own keys from its contract
(`Game.settings`), so a new key or a new game brings its flags with it and no list here
names one. They are made when `play` is first parsed or shown, not when the CLI starts:
the registry imports a game only when asked, and `narrator games` stays quick.
"""

from __future__ import annotations

from functools import lru_cache
import click

from narrator.games import game_names, get_game
from narrator.settings import SETTINGS, Setting


@lru_cache(maxsize=1)
def table_flags() -> tuple[tuple[str, str, str], ...]:
    """(flag, key, help) in `--help` order: who plays, then every game's own keys (registry
    order), then how it is run and how it listens.

    A key several games declare is one flag: the first game's help line, then each other game's
    own help line where it says something else (what 0 means differs between games), else its
    value form where that differs, each named, games saying the same named together
    ("additional-werewolf: …; werewolf, tabula: …"). On/off switches (`--phones`) are declared
    by `play` itself; tests/test_settings_declared.py checks their help lines."""
    first_run = next(i for i, s in enumerate(SETTINGS) if s.kind == "run")
    shared = {s.key for s in SETTINGS}
    games: dict[str, tuple[str, str, dict[str, list[str]]]] = {}
    for name in game_names():
        for s in _settings_of(name):
            if not s.flag or s.switch or s.key in shared:
                continue
            help_text, form, said = games.setdefault(s.key, (s.help, s.form, {s.help.rstrip("."): []}))
            differs = s.help.rstrip(".") if s.help != help_text else s.form if s.form != form else help_text.rstrip(".")
            said.setdefault(differs, []).append(name)
    game_flags = [(f"--{key.replace('_', '-')}", key, _one_or_each(text, said))
                  for key, (text, _, said) in games.items()]
    return (*_flags_of(SETTINGS[:first_run]), *game_flags, *_flags_of(SETTINGS[first_run:]))


def _one_or_each(text: str, said: dict[str, list[str]]) -> str:
    """One help line when every game says the same; else each saying with the games it is
    theirs, so no game's line reads as another's."""
    if len(said) == 1:
        return text
    return "; ".join(f"{', '.join(names)}: {words}" for words, names in said.items()) + "."


def _settings_of(name: str) -> tuple[Setting, ...]:
    """A game's declared settings; a game that does not load brings no flags (`narrator play
    NAME` then says what is wrong with it), so one broken game never takes the others' away."""
    try:
        return tuple(get_game(name).settings)
    except Exception:
        return ()


def _flags_of(settings: tuple[Setting, ...]) -> list[tuple[str, str, str]]:
    return [(s.flag, s.key, s.help) for s in settings if s.flag and not s.switch]


class TableFlagsCommand(click.Command):
    """A command whose table-file flags (`table_flags`) join its own options on first use."""

    _flags_added: bool

    @property
    def params(self) -> list[click.Parameter]:
        if not self._flags_added:
            self._flags_added = True
            self._params += [click.Option([flag, key], default=None, help=text) for flag, key, text in table_flags()]
        return self._params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._params, self._flags_added = value, False

