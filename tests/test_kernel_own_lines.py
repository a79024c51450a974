"""Lines travel with the game: a game file's own `[lines.ja]` and `[lines.en]` are merged
under the voice pack (the pack's lines win), checked at load time like the packs', said in
play, and its Japanese ones not yet reviewed are listed for one warning.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.errors import SetupError
from narrator.games.kernel import files as kernel
from narrator.games.kernel.lines import unreviewed
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack, merged_under
from tests.test_kernel_cli import play_in_process, _simple_table

ROOT = Path(__file__).resolve().parents[1]
NAMES = "Aki,Ben,Chika,Dai,Emi"
OWN = '''
[lines.en.wolf.welcome]
house = "Welcome to the house wolf, for {players} players."

[lines.ja.wolf.welcome]
house = { text = "我が家の人狼へようこそ。{players}人で遊びます。", reading = "わがやの、じんろうへ、ようこそ。{players}にんで、あそびます。" }

[lines.en.wolf.call.bodyguard]
wake = "Bodyguard of the house, wake up."
act = "Point at the one you shield tonight."
choose = "Whom does the bodyguard shield tonight?"

[lines.ja.wolf.call.bodyguard]
wake = { text = "用心棒さん、起きてください。", reading = "ようじんぼうさん、おきてください。" }
act = { text = "今夜守る人を指さしてください。", reading = "こんや、まもるひとを、ゆびさしてください。" }
choose = { text = "用心棒さん、今夜は誰を守りますか？", reading = "ようじんぼうさん、こんやは、だれを、まもりますか？" }
'''


def _house_file(tmp_path: Path, own: str = OWN) -> Path:
    text = kernel.shipped_files()["werewolf"].read_text(encoding="utf-8").replace('id = "knight"', 'id = "bodyguard"')
    text = text.replace('after = ["knight"]', 'after = ["bodyguard"]').replace('name = "werewolf"', 'name = "house-wolf"')
    text = text.replace('lines = "werewolf"', 'lines = "house"')
    path = tmp_path / "house-wolf.toml"
    path.write_text(text + own, encoding="utf-8")
    return path


def test_a_files_own_lines_let_it_load_and_its_unreviewed_ones_are_listed(tmp_path):
    with pytest.raises(SetupError, match=r"the ja pack has no line 'wolf.welcome.house'; add it to the file's "
                                         r"\[lines.ja\]"):
        kernel.load(_house_file(tmp_path, own=""))
    kernel.load.cache_clear()
    game = kernel.load(_house_file(tmp_path))
    spec_lines = game.lines("en")
    assert spec_lines["wolf"]["call"]["bodyguard"]["wake"] == "Bodyguard of the house, wake up."
    from narrator.games.kernel.parse import read_game_file

    listed = unreviewed(read_game_file(_house_file(tmp_path)))
    assert set(listed) == {"wolf.welcome.house", "wolf.call.bodyguard.wake", "wolf.call.bodyguard.act",
                           "wolf.call.bodyguard.choose"}


def test_the_pack_rewords_a_line_the_file_also_gives():
    pack = load_pack("en")
    merged = merged_under(pack, {"wolf": {"sleep": "Snore.", "my_line": "Only mine."}})
    assert merged.speak("wolf.sleep", {}).text == pack.speak("wolf.sleep", {}).text  # the pack's wins
    assert merged.speak("wolf.my_line", {}).text == "Only mine."


def test_a_bad_line_in_a_file_is_refused_in_one_line(tmp_path):
    from narrator.games.kernel.parse import read_game_file

    with pytest.raises(SetupError, match=r"\[lines.en.wolf\] sleep: '3' is not a line; give a text"):
        read_game_file(_house_file(tmp_path, '\n[lines.en.wolf]\nsleep = 3\n'))
    with pytest.raises(SetupError, match=r"\[lines\]: unknown key 'fr'"):
        read_game_file(_house_file(tmp_path, '\n[lines.fr.wolf]\nsleep = "Dors."\n'))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_files_own_lines_are_said_in_play(tmp_path, lang):
    path = _house_file(tmp_path)
    game = kernel.load(path)
    config = game.configure(build_settings({}, {"names": NAMES, "seed": "2"}, "test"))
    answers, winner = play_in_process(game, config, _simple_table)
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "narrator", "play", "--game-file", str(path), "--names", NAMES,
                           "--seed", "2", "--answers", str(script), "--voice", "text", "--lang", lang,
                           "--time-scale", "0", "--no-keyboard", "--transcript", str(tmp_path / "t.jsonl"),
                           "--transcript-private"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.strip().splitlines()[-1].startswith(f"game over: {winner}")
    records = (tmp_path / "t.jsonl").read_text(encoding="utf-8")
    said = "Welcome to the house wolf, for 5 players." if lang == "en" else "我が家の人狼へようこそ。5人で遊びます。"
    assert said in records and said in done.stdout  # the file's own line, said in play
    if lang == "ja":
        assert "読みを確認していない日本語のセリフが4行あります（wolf.welcome.house, wolf.call.bodyguard" in done.stderr  # the table's language
