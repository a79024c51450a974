"""A game file's own lines a table can trust (issue 36): a placeholder the narrator does not
fill in a line is refused at load time in one line (it used to pass `narrator games check`
and stop the game with a KeyError traceback mid-game); a file's lines are needed in the
languages the table plays only (one language at least at load time; the table's at play),
a new team's win line named in the refusal; `--dry-run` says a file's own lines.
"""

from __future__ import annotations

import pytest

from narrator.cues import Ask, End, Private, Say
from narrator.errors import Refusal, SetupError
from narrator.games import get_game
from narrator.games.kernel import files as kernel
from narrator.games.kernel import lines
from narrator.games.kernel.parse import read_game_file
from narrator.settings import build_settings
from tests.test_kernel_cli import NAMES as CLI_NAMES
from tests.test_kernel_cli import _narrator, _simple_table, play_in_process

NAMES = "Aki,Ben,Chika,Dai,Emi"
GAME = '''
[game]
name = "bard-wolf"
players = [5, 5]
cards = ["device"]
lines = "bard"

[roles.villager]
team = "village"

[roles.werewolf]
team = "werewolves"
seen_as = "werewolf"
counts_as = "werewolf"

[roles.bard]
team = "village"

[deal]
5 = { villager = 2, werewolf = 1, bard = 2 }

[[steps]]
id = "bard_song"
role = "bard"
action = "guard"

[[steps]]
id = "werewolves"
role = "werewolf"
action = "attack"
from_night = 2

[[wins]]
kind = "eliminated"
role = "werewolf"
winner = "village"

[[wins]]
kind = "parity"
role = "werewolf"
winner = "werewolves"

[[wins]]
kind = "otherwise"
winner = "village"
'''
EN = {"welcome.bard": '"Welcome to the bard wolf, for {players} players."', "role.bard": '"bard"',
      "card.bard": '"{n} {n:bard|bards}"', "call.bard_song.wake": '"Bard, wake up."',
      "call.bard_song.act": '"Sing for one player."', "call.bard_song.choose": '"For whom do you sing tonight?"'}
JA = {"welcome.bard": '{ text = "吟遊詩人の人狼へようこそ。{players}人です。", reading = "ぎんゆうしじんの、じんろうへ、ようこそ。'
                      '{players}にんです。" }',
      "role.bard": '{ text = "吟遊詩人", reading = "ぎんゆうしじん" }',
      "card.bard": '{ text = "吟遊詩人{n}枚", reading = "ぎんゆうしじん{n}まい" }',
      "call.bard_song.wake": '{ text = "吟遊詩人の人は、目を開けてください。", reading = "ぎんゆうしじんのひとは、めを、あけてください。" }',
      "call.bard_song.act": '{ text = "歌う相手を指さしてください。", reading = "うたうあいてを、ゆびさしてください。" }',
      "call.bard_song.choose": '{ text = "今夜は誰のために歌いますか？", reading = "こんやは、だれのために、うたいますか？" }'}


def _file(tmp_path, en=EN, ja=JA, extra="", name="bard-wolf.toml"):
    """The bard file with its own lines in the languages given (a line's value in TOML)."""
    own = "".join(f"\n[lines.{lang}.wolf]\n" + "".join(f"{k} = {v}\n" for k, v in lines.items())
                  for lang, lines in (("en", en), ("ja", ja)) if lines)
    path = tmp_path / name
    path.write_text(GAME + extra + own, encoding="utf-8")
    kernel.load.cache_clear()
    return path


@pytest.mark.parametrize("line,value,message", [
    ("card.bard", '"{count} bards"', "[roles.bard]: the en line 'wolf.card.bard' in the file's [lines.en] has {count}, "
                                     "which the narrator does not fill; write {n} (the number of cards) instead"),
    ("welcome.bard", '"Welcome, {n} players."', "[game] lines: the en line 'wolf.welcome.bard' in the file's "
                                               "[lines.en] has {n}, which the narrator does not fill; write {players} "
                                               "(the number of players) instead"),
    ("role.bard", '"{n:bard|bards}"', "[roles.bard]: the en line 'wolf.role.bard' in the file's [lines.en] has {n}, "
                                      "which the narrator does not fill; drop it: this line is said with none"),
    ("call.bard_song.wake", '"{name}, wake up."', "[[steps]] 'bard_song': the en line 'wolf.call.bard_song.wake' in "
                                                  "the file's [lines.en] has {name}, which the narrator does not fill; "
                                                  "drop it: this line is said with none"),
    ("card.bard", '"{} bards"', "[roles.bard]: the en line 'wolf.card.bard' in the file's [lines.en] has {}, which "
                                "the narrator does not fill; write {n} (the number of cards) instead"),
    ("card.bard", '"{n:>bard} bards"', "[roles.bard]: the en line 'wolf.card.bard' in the file's [lines.en] cannot be "
                                       "filled (ValueError: "),
])
def test_a_placeholder_the_narrator_does_not_fill_is_refused_at_load_time(tmp_path, line, value, message):
    path = _file(tmp_path, en={**EN, line: value})
    with pytest.raises(SetupError) as err:
        kernel.load(path)
    assert str(err.value).startswith(f"game file {path}: {message}") and "\n" not in str(err.value)


def test_games_check_and_play_refuse_the_placeholder_in_one_line_before_anything_is_said(tmp_path):
    """It used to pass the check ("no scenarios"), then stop the game at the box with a KeyError traceback."""
    path = _file(tmp_path, en={**EN, "card.bard": '"{count} bards"'})
    line = (f"error: game file {path}: [roles.bard]: the en line 'wolf.card.bard' in the file's [lines.en] has "
            "{count}, which the narrator does not fill; write {n} (the number of cards) instead")
    checked = _narrator(tmp_path, "games", "check", str(path))
    assert (checked.returncode, checked.stderr.strip().splitlines()) == (2, [line])
    answers = tmp_path / "a.txt"
    answers.write_text("done\n", encoding="utf-8")
    played = _narrator(tmp_path, "play", "--game-file", str(path), "--names", NAMES, "--lang", "en", "--voice", "text",
                       "--time-scale", "0", "--no-keyboard", "--answers", str(answers))
    assert (played.returncode, played.stderr.strip().splitlines()) == (2, [line])
    assert played.stdout == "" and not (tmp_path / "home" / "games").exists()


class Recording:
    """A game whose every cue is kept, as `play_in_process` plays it."""

    def __init__(self, game):
        self.game, self.said, self.new_state, self.configure = game, [], game.new_state, game.configure

    def advance(self, config, state, event):
        state, cues = self.game.advance(config, state, event)
        self.said += cues
        return state, cues


@pytest.mark.parametrize("name", list(kernel.shipped_files()))
def test_the_placeholders_allowed_are_what_the_engine_fills(name):
    """Each of a file's own lines, said in a whole game, is given at least what it may use, and
    each card line inside the box's `:counted` its count; a role's name is said bare in the
    history and the host screen (`Game.label`), so it may use none."""
    spec = read_game_file(kernel.shipped_files()[name])
    allowed = {n.line: set(n.params) for n in lines.needed_lines(spec)}
    game = Recording(get_game(name))
    flags = {"names": CLI_NAMES[name], "seed": "3", "digital_cards": "true"}
    play_in_process(game, game.configure(build_settings({}, flags, "test")), _simple_table)
    seen = set()
    for cue in game.said:
        if isinstance(cue, (Say, Ask, End, Private)) and cue.line in allowed:
            assert allowed[cue.line] <= set(cue.params), cue
            seen.add(cue.line)
        for value in getattr(cue, "params", {}).values():  # `:counted` items: [[line, n], …]
            if isinstance(value, list) and value and isinstance(value[0], list):
                for line_id, _ in value:
                    assert allowed.get(line_id, set()) <= {"n"}, line_id
    assert f"wolf.welcome.{spec.lines}" in seen and any(line.startswith("wolf.win.") for line in seen)
    assert lines.FILLED == {"welcome": ("players",), "card": ("n",)}


def test_a_file_with_its_lines_in_english_only_loads_and_plays_in_english_and_is_refused_in_japanese(tmp_path):
    path = _file(tmp_path, ja={})
    game = kernel.load(path)
    config = game.configure(build_settings({}, {"names": NAMES, "seed": "2", "lang": "en"}, "test"))
    assert play_in_process(game, config, _simple_table)[1] in ("village", "werewolves")
    with pytest.raises(Refusal) as err:
        game.configure(build_settings({}, {"names": NAMES, "lang": "ja"}, "command line"))
    assert err.value.line("en") == (f"command line: bard-wolf has no ja line 'wolf.welcome.bard' ([game] lines in "
                                    f"{path}); play it in en (--lang en), or add the line to the file's [lines.ja]")
    checked = _narrator(tmp_path, "games", "check", str(path))
    assert checked.returncode == 0, checked.stderr
    refused = _narrator(tmp_path, "play", "--game-file", str(path), "--names", NAMES, "--lang", "ja", "--dry-run")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "ファイルの [lines.ja] にその行を足してください" in refused.stderr


def test_a_file_without_a_line_in_any_language_is_refused_naming_the_nearest_language(tmp_path):
    path = _file(tmp_path, en={k: v for k, v in EN.items() if k != "call.bard_song.act"}, ja={"role.bard": JA["role.bard"]})
    with pytest.raises(SetupError, match=r"^game file .*: \[\[steps\]\] 'bard_song': the en pack has no line "
                                         r"'wolf.call.bard_song.act'; add it to the file's \[lines.en\] \(or "
                                         r"voices/en/lines/wolf.toml; a file needs all its lines in ja or en at least"):
        kernel.load(path)


def test_a_new_team_needs_its_win_line_and_the_refusal_names_it(tmp_path):
    extra = '\n[roles.cultist]\nteam = "cult"\n'
    text = GAME.replace("bard = 2 }", "bard = 1, cultist = 1 }")
    path = tmp_path / "bard-wolf.toml"
    wins = '\n[[wins]]\nkind = "survives"\nteam = "cult"\nwinner = "cult"\n'
    own = {**EN, "role.cultist": '"cultist"', "card.cultist": '"{n} {n:cultist|cultists}"'}
    text = text.replace('[[wins]]\nkind = "otherwise"', wins.strip() + '\n\n[[wins]]\nkind = "otherwise"', 1)
    path.write_text(text + extra + "\n[lines.en.wolf]\n" + "".join(f"{k} = {v}\n" for k, v in own.items()),
                    encoding="utf-8")
    with pytest.raises(SetupError) as err:
        read = read_game_file(path)
        kernel.load(path)
    assert str(err.value) == (f"game file {path}: [[wins]] winner 'cult': the en pack has no line 'wolf.win.cult', "
                              "the line a new team's win is said with; add it to the file's [lines.en] (or "
                              "voices/en/lines/wolf.toml; a file needs all its lines in ja or en at least, "
                              "docs/game-files.md)")
    assert read.teams == ("village", "werewolves", "cult")


@pytest.mark.parametrize("lang,box", [("en", "The cards this game: 2 villagers, 1 werewolf and 2 bards."),
                                      ("ja", "今回使うカードは、村人2枚、人狼1枚、吟遊詩人2枚です。")])
def test_the_dry_run_says_a_files_own_lines(tmp_path, lang, box):
    """It used to stop with exit 1: "voice pack 'ja' has no line 'wolf.card.bard'"."""
    done = _narrator(tmp_path, "play", "--game-file", str(_file(tmp_path)), "--names", NAMES, "--lang", lang,
                     "--dry-run")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == box
