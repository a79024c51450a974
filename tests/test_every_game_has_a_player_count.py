"""Every game's config says how many play (`GameConfig.players`), because the appliance reads it.

Why: typing the registry as "some game" (`contract.SomeGame`) showed that `narrator serve` and
`narrator config show` read `config.players` of whichever game the table file names, and Pagan's
config had none: a Pagan table file with no `players` line crashed the service's menu, and
`config show`, with an `AttributeError` traceback instead of playing its two seats.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from narrator.appliance.serve import Appliance
from narrator.cli import main
from narrator.errors import NarratorError
from narrator.games import game_names, get_game
from narrator.settings import build_settings


def test_pagan_says_it_is_played_by_two():
    settings = build_settings({"game": "pagan"}, {}, "test")
    assert get_game("pagan").configure(settings).players == 2


def test_the_service_fills_in_pagans_two_players_when_the_file_names_none():
    host = SimpleNamespace(options=SimpleNamespace(overrides={}), path=Path("table.toml"))
    settings = Appliance._settings(host, {"game": "pagan"})
    assert settings is not None and settings.players == 2


def test_config_show_names_pagans_two_players(narrator_home):
    narrator_home.mkdir(parents=True, exist_ok=True)
    (narrator_home / "table.toml").write_text('game = "pagan"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["config", "show"])
    assert result.exit_code == 0, result.output
    assert "valid: pagan for 2 players" in result.stderr


def test_every_shipped_game_configures_a_player_count():
    for name in game_names():
        game = get_game(name)
        table = {"game": name}
        try:
            config = game.configure(build_settings(table, {}, "test"))
        except NarratorError:  # a game that needs more than its name (names, a count) to be set up
            continue
        assert isinstance(config.players, int) and config.players > 0, name
