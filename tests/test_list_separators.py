"""One rule for every list a table types (issue 40, item 4): the Japanese 「、」 and the
full-width 「，」 split card counts (`--roles`, `--cards`) exactly as they split names and
lists; before, 「、」 was accepted in a list but refused in a count."""

from __future__ import annotations

import pytest

from narrator.games import get_game
from narrator.settings import build_settings
from narrator.values.readers import split_items


def _config(game, **options):
    return get_game(game).configure(build_settings({}, {"game": game, "lang": "ja", "seed": 5, **options}, "test"))


@pytest.mark.parametrize("separator", ["、", "，"])
def test_japanese_commas_split_role_counts_as_commas_do(separator):
    written = separator.join(["市民=3", "裏切り者=1", "人狼=1"])
    assert _config("additional-werewolf", roles=written) == _config("additional-werewolf", roles="citizen=3,traitor=1,werewolf=1")


@pytest.mark.parametrize("separator", ["、", "，"])
def test_japanese_commas_split_english_counts_and_names(separator):
    by_comma = _config("additional-werewolf", roles="citizen=3,traitor=1,werewolf=1", names="あき,べん,ちえ,だい,えみ")
    by_other = _config("additional-werewolf", roles=separator.join(["citizen=3", "traitor=1", "werewolf=1"]),
                       names=separator.join(["あき", "べん", "ちえ", "だい", "えみ"]))
    assert by_other == by_comma


def test_full_width_equals_reads_as_equals():
    assert _config("additional-werewolf", roles="citizen＝3、traitor＝1、werewolf＝1") == \
        _config("additional-werewolf", roles="citizen=3,traitor=1,werewolf=1")


def test_split_items_keeps_words_and_drops_empty_items():
    assert split_items(" 占い師 、,魔女，  ,狩人 ") == ["占い師", "魔女", "狩人"]
