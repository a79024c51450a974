"""A game's card names in one place (issue 40): a card's name is its label line in the voice pack
(`label.<id>`, `bm.label.<id>`, `wolf.role.<id>`: what the narrator says, text and reading), and
a game's data holds only the other words a table may also type. Renaming a card in the pack
renames what the table types; a name only the pack has is accepted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.errors import SetupError
from narrator.games import load_game_file
from narrator.games.additional_werewolf.setup import definition as aw_definition
from narrator.games.kernel import files as kernel
from narrator.settings import build_settings

ROOT = Path(__file__).resolve().parents[1]
NAMES = "Aki,Ben,Chika,Dai,Emi"


def renamed_ja_pack(home: Path, file: str, old: str, new: str) -> None:
    """A copy of the bundled ja pack in the table's home (looked at before the bundled one),
    with one label line's words replaced."""
    shutil.copytree(ROOT / "voices" / "ja", home / "voices" / "ja")
    lines = home / "voices" / "ja" / "lines" / file
    text = lines.read_text(encoding="utf-8")
    assert old in text
    lines.write_text(text.replace(old, new, 1), encoding="utf-8")


def narrator(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"NARRATOR_HOME": str(home), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "narrator", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_card_renamed_in_the_pack_is_typed_by_its_new_name(tmp_path):
    """The seer's label renamed 予知者 (よちしゃ) in the pack: the table types 予知者 and its
    reading; the definition never names it."""
    home = tmp_path / "home"
    renamed_ja_pack(home, "additional_werewolf.toml", 'seer = { text = "占い師", reading = "うらないし" }',
                    'seer = { text = "予知者", reading = "よちしゃ" }')
    assert "予知者" not in (ROOT / "narrator/games/additional_werewolf/definition.toml").read_text(encoding="utf-8")
    for typed in ("予知者", "ヨチシャ"):
        played = narrator(home, "play", "--lang", "ja", "--cards", f"{typed}=1,香具師=1,幻影魔導師=2,策士=1", "--dry-run")
        assert played.returncode == 0, played.stderr
        assert "seer (10 s)" in played.stdout  # the dry run's night plan: the card dealt is the seer
    refused = narrator(home, "play", "--lang", "ja", "--cards", "占い師=1,香具師=1,幻影魔導師=2,策士=1", "--dry-run")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "「占い師」というアディショナルカードはありません" in refused.stderr, refused.stderr


def test_a_seed_games_definition_holds_only_the_other_words():
    """Additional Werewolf's `[names]` gives no card the name its pack line gives it (that is the
    pack's), yet 占い師 (the pack's), 裏切者 and こうぐし (the definition's) all name a card."""
    names = aw_definition()["names"]
    assert "seer" not in names["cards"] and names["roles"]["traitor"] == {"ja": ["裏切者"]}
    settings = build_settings({"lang": "ja", "seed": 7}, {"cards": "占い師=1,こうぐし=1,幻影魔導師=2,策士=1",
                                                          "roles": "市民=3,裏切者=1,じんろう=1"}, "test")
    from narrator.games import get_game

    config = get_game("additional-werewolf").configure(settings)
    assert dict(config.cards) == {"seer": 1, "peddler": 1, "phantom_mage": 2, "strategist": 1}
    assert dict(config.roles) == {"citizen": 3, "traitor": 1, "werewolf": 1}


BARD = """
[roles.bard]
team = "village"

[lines.ja.wolf.role]
bard = { text = "吟遊詩人", reading = "ぎんゆうしじん" }

[lines.ja.wolf.card]
bard = { text = "吟遊詩人{n}枚", reading = "ぎんゆうしじん{n}まい" }

[lines.en.wolf.role]
bard = "bard"

[lines.en.wolf.card]
bard = "{n} {n:bard|bards}"
"""


def game_file(home: Path, name: str, text: str) -> Path:
    werewolf = kernel.shipped_files()["werewolf"].read_text(encoding="utf-8")
    path = home / "game-files" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(werewolf.replace('name = "werewolf"', f'name = "{name}"') + text, encoding="utf-8")
    return path


def roles_of(path: Path, roles: str, lang: str = "ja") -> dict[str, int]:
    game = load_game_file(path)
    return dict(game.configure(build_settings({"lang": lang}, {"names": NAMES, "roles": roles}, "test")).roles)


def test_a_game_files_role_is_named_by_its_own_line_with_no_aliases(tmp_path):
    """A game file from outside brings its role's name in its own `[lines.ja]`, and no `aliases`:
    the table types that name, or its reading, and the file's deal may use it too."""
    path = game_file(tmp_path, "bards", BARD)
    assert roles_of(path, "村人=1,人狼=1,占い師=1,騎士=1,吟遊詩人=1") == {
        "villager": 1, "werewolf": 1, "seer": 1, "knight": 1, "bard": 1}
    assert roles_of(path, "村人=1,人狼=1,占い師=1,騎士=1,ギンユウシジン=1")["bard"] == 1
    dealt = game_file(tmp_path, "bards2", BARD.replace("[roles.bard]", "[roles.bard]\n# dealt by name"))
    text = dealt.read_text(encoding="utf-8").replace("5 = { villager = 2,", '5 = { "吟遊詩人" = 1, villager = 1,')
    dealt.write_text(text, encoding="utf-8")
    assert load_game_file(dealt).configure(build_settings({}, {"names": NAMES}, "test")).roles["bard"] == 1


def test_a_role_without_a_line_in_a_language_keeps_its_id_and_aliases(tmp_path):
    """A file whose bard has English lines only (the table plays in English) still names it by
    its id and its `aliases`, in both languages; a Japanese word it never gave is refused."""
    english = BARD.split("[lines.ja.wolf.role]")[0] + 'aliases = { ja = ["詩人"], en = ["minstrel"] }\n' \
        + "[lines.en.wolf.role]" + BARD.split("[lines.en.wolf.role]")[1]
    path = game_file(tmp_path, "minstrels", english)
    for typed in ("bard", "minstrel", "詩人"):
        assert roles_of(path, f"villager=1,werewolf=1,seer=1,knight=1,{typed}=1", "en")["bard"] == 1
    with pytest.raises(SetupError, match="unknown role '吟遊詩人'"):
        roles_of(path, "villager=1,werewolf=1,seer=1,knight=1,吟遊詩人=1", "en")


def test_a_role_renamed_in_the_pack_is_typed_by_its_new_name(tmp_path, monkeypatch):
    """The shipped werewolf file's knight renamed 守護者 in the table's ja pack: the table types it."""
    home = tmp_path / "home"
    monkeypatch.setenv("NARRATOR_HOME", str(home))
    renamed_ja_pack(home, "wolf.toml", 'knight = { text = "騎士", reading = "きし" }',
                    'knight = { text = "守護者", reading = "しゅごしゃ" }')
    path = game_file(home, "guarded", "")  # the shipped file under another name: read afresh, with this pack
    assert roles_of(path, "村人=2,人狼=1,占い師=1,守護者=1")["knight"] == 1


def test_a_word_for_a_card_the_game_lacks_is_a_slip_in_its_data():
    from narrator.games.card_names import CardNames

    with pytest.raises(SetupError) as err:
        CardNames.spoken({"cards": {"pedler": {"ja": ["こうぐし"]}}}, {"cards": {"seer": {}, "peddler": {}}})
    assert str(err.value) == "definition.toml [names.cards] pedler: the game has no such id; use one of seer, peddler"
    assert err.value.lines()["ja"].endswith("「pedler」というidはゲームにありません。使えるid: seer、peddler")


def test_an_english_line_names_an_id_alone_where_its_english_name_is_the_same_words():
    """The packs' English names (`phantom mage`) are the ids' words: an English table's line
    gives the id alone, as before; an English name of other words is still shown (`S (Sole)`)."""
    settings = build_settings({"lang": "en", "seed": 7}, {"cards": "seer=1,peddler=1,phantom_mag=2,strategist=1"}, "test")
    from narrator.games import get_game

    with pytest.raises(SetupError) as err:
        get_game("additional-werewolf").configure(settings)
    assert "did you mean phantom_mage? known: seer, medium, peddler, phantom_mage, lovers" in str(err.value)
    settings = build_settings({"lang": "en", "seed": 7}, {"players": 4, "cards": "beast:Sol,prophet,townsperson,townsperson"},
                              "test")
    with pytest.raises(SetupError, match=r"did you mean S \(Sole\)\?"):
        get_game("bestia-magica").configure(settings)


def test_a_broken_pack_of_one_language_does_not_stop_a_game_played_in_the_other(tmp_path):
    """A table's own `ja` pack that cannot be read: an English game still starts (the names a
    table types in English need no Japanese pack); a Japanese one gets the pack's one line."""
    home = tmp_path / "home"
    (home / "voices" / "ja" / "lines").mkdir(parents=True)
    (home / "voices" / "ja" / "voice.toml").write_text('name = "ja"\nlang = "ja"\n', encoding="utf-8")
    (home / "voices" / "ja" / "lines" / "broken.toml").write_text("bad = [\n", encoding="utf-8")
    english = narrator(home, "play", "--lang", "en", "--voice", "text", "--cards", "seer=1,peddler=1,phantom mage=2,"
                       "strategist=1", "--dry-run")
    assert english.returncode == 0, english.stderr
    japanese = narrator(home, "play", "--lang", "ja", "--voice", "ja", "--dry-run")
    assert japanese.returncode != 0 and "broken.toml is not valid TOML" in japanese.stderr
    assert japanese.stderr.count("\n") == 1 and "Traceback" not in japanese.stderr
