"""A game file's winner on the phones, in the game's own words: the `wolf.win.<team>` line the
narrator says at the end (a file's own team's from its `[lines.ja]`/`[lines.en]`, merged under
the pack as when it speaks), worded in both page languages, so a new team (a cult) shows on
every result card, not nothing; a shipped file's team shows its pack line.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

from narrator import games, home
from narrator.games.kernel import files as kernel_files
from narrator.games.kernel.files import HOME_FOLDER
from narrator.games.kernel.parse import read_game_file
from narrator.sound.voicepack import load_pack
from tests.phones_harness import Phone, open_table
from tests.test_kernel_phones import _pick, _play

NAMES = "Aki,Ben,Chika,Dai"
SEED = 4
"""Deals the cultist to a player's hand, not to the centre."""
CULT = {"ja": "教団の勝利です！", "en": "The cult wins!"}
OWN = '''
[lines.ja.wolf.role]
cultist = { text = "教団員", reading = "きょうだんいん" }

[lines.ja.wolf.card]
cultist = { text = "教団員{n}枚", reading = "きょうだんいん{n}まい" }

[lines.ja.wolf.win]
cult = { text = "教団の勝利です！", reading = "きょうだんの、しょうりです！" }

[lines.en.wolf.role]
cultist = "cultist"

[lines.en.wolf.card]
cultist = "{n:cultist|cultists}"

[lines.en.wolf.win]
cult = "The cult wins!"
'''


def cult_file(monkeypatch) -> Path:
    """One-night with a third team of the table's own, in the home's game files (listed for this
    test: the registry is read once per process): a cultist executed makes the cult win."""
    text = kernel_files.shipped_files()["one-night"].read_text(encoding="utf-8")
    text = text.replace('name = "one-night"', 'name = "cult-night"')
    text = text.replace("[roles.tanner]", '[roles.cultist]\nteam = "cult"\n\n[roles.tanner]')
    text = text.replace("4 = { werewolf = 2, seer = 1, thief = 1, villager = 2 }",
                        "4 = { werewolf = 2, seer = 1, thief = 1, villager = 1, cultist = 1 }")
    text = text.replace("[[wins]]", '[[wins]]\nkind = "found"\nrole = "cultist"\nwinner = "cult"\n\n[[wins]]', 1)
    folder = home.app_home() / HOME_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cult-night.toml"
    path.write_text(text + OWN, encoding="utf-8")
    monkeypatch.setitem(games._registry(), "cult-night", partial(kernel_files.load, path))
    return path


def execute_the_cultist(table):
    """The vote points at whoever holds the cultist now; every other question as `_pick`."""
    def pick(ask):
        if ask.get("line") == "wolf.who_executed":
            names = table.config.names
            held = [n for n, card in zip(names, table.server.state.cards) if card == "cultist"]
            assert held, "the seed put the cultist in the centre"
            return held
        return _pick(ask)
    return pick


def test_a_game_files_new_team_wins_on_every_phone_in_its_own_words(monkeypatch):
    async def main():
        assert {w.winner for w in read_game_file(cult_file(monkeypatch)).wins} >= {"cult"}
        table = await open_table(NAMES, seed=SEED, game="cult-night", digital_cards="true")
        phones = [Phone(table.base, n) for n in NAMES.split(",")]
        try:
            assert [await p.join() for p in phones] == [200] * 4
            await _play(table, phones, execute_the_cultist(table))
            state = await table.task
            assert state.winner == "cult"
            for phone in phones:
                _, view = await phone.view()
                assert view["phase"] == "over" and view["winner"] == "cult"
                assert view["winner_line"] == CULT  # the file's own line, in both languages
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())


def test_a_shipped_files_winner_is_its_pack_line_in_both_languages():
    async def main():
        table = await open_table("Aki,Ben,Chika,Dai,Emi", seed=3, game="werewolf")
        phones = [Phone(table.base, n) for n in "Aki,Ben,Chika,Dai,Emi".split(",")]
        try:
            assert [await p.join() for p in phones] == [200] * 5
            await _play(table, phones, _pick)
            state = await table.task
            _, view = await phones[0].view()
            line = f"wolf.win.{state.winner}"
            assert view["winner_line"] == {lang: load_pack(lang).speak(line, {}).text for lang in ("ja", "en")}
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())
