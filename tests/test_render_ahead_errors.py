"""Render-ahead walks a game by trying answers: a refused answer (`AnswerError`) is a path
the table cannot take, but any other exception is a bug in a rule and must surface
(issue 40, item 4: a `KeyError` in a rule was silently skipped, so the lines after it were
never rendered and nobody learned why)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from narrator.cues import Answer
from narrator.errors import AnswerError
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.sound.render_ahead import game_requests


def _werewolf():
    game = get_game("additional-werewolf")
    config = game.configure(build_settings({}, {"game": game.name, "lang": "ja", "seed": 5}, "test"))
    return game, config


def _breaking_on_answers(game, error):
    """The same game, except that its rules raise `error` for any answer."""
    real = game.advance

    def advance(config, state, event):
        if isinstance(event, Answer):
            raise error
        return real(config, state, event)
    return replace(game, advance=advance)


def test_a_bug_in_a_rule_surfaces_instead_of_being_taken_for_a_refusal():
    game, config = _werewolf()
    with pytest.raises(KeyError, match="seer"):
        game_requests(_breaking_on_answers(game, KeyError("seer")), config)


def test_a_refused_answer_is_still_a_path_not_taken():
    game, config = _werewolf()
    whole = game_requests(game, config)
    refused = game_requests(_breaking_on_answers(game, AnswerError("no such answer")), config)
    assert 0 < len(refused) < len(whole)
