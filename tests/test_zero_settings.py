"""What 0 means for `countdown` and `discussion`, game by game, is what `--help` says
(issue 40, item 4): a countdown is at least 1 in every game (a game file's typed 0 no longer
silently means "each step's own seconds"); a discussion of 0 is "no timer, the table says
done" where a game offers it (Additional Werewolf, Bestia Magica) and refused where not."""

from __future__ import annotations

import pytest

from narrator.errors import Refusal
from narrator.games import get_game
from narrator.settings import build_settings


def _configure(game, **options):
    return get_game(game).configure(build_settings({}, {"game": game, "lang": "en", "seed": 1, **options}, "test"))


@pytest.mark.parametrize("game", ["additional-werewolf", "werewolf", "one-night"])
def test_a_countdown_of_zero_is_refused_in_one_line_naming_the_least(game):
    with pytest.raises(Refusal) as refused:
        _configure(game, countdown=0)
    assert str(refused.value) == "test: countdown must be at least 1, not 0"


def test_a_game_file_without_a_countdown_keeps_each_steps_own_seconds():
    assert _configure("werewolf").countdown == 0
    assert _configure("werewolf", countdown=7).countdown == 7


@pytest.mark.parametrize("game", ["additional-werewolf", "bestia-magica"])
def test_a_discussion_of_zero_is_the_open_discussion(game):
    config = _configure(game, discussion=0)
    assert (config.discussion if game == "additional-werewolf" else config.timers["discussion"]) == 0


def test_a_game_file_refuses_a_discussion_of_zero():
    with pytest.raises(Refusal, match="discussion must be at least 1"):
        _configure("werewolf", discussion=0)
