"""The spoken setup (issue 23), driven by scripted answers on the instant clock (time scale 0):
number of players → a preset by number → the settings read back in one breath → はい / いいえ."""

import tomllib

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE, update_table
from narrator.errors import NoMoreAnswers
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript

FRIDAY = "金曜の6人卓"


def served(home, tmp_path, *answers):
    home.mkdir(parents=True, exist_ok=True)
    table_file = home / "table.toml"
    if not table_file.exists():
        table_file.write_text(DEFAULT_TABLE, encoding="utf-8")
        update_table(table_file, {"presets": {FRIDAY: {
            "game": "additional-werewolf", "players": 6, "discussion": 120, "countdowns": {"seer": 20},
            "night_order": ["peddler", "seer", "medium", "phantom_mage", "lovers"]}}})
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    overrides = {"voice": "text", "time_scale": "0", "answers": str(script), "transcript": str(transcript)}
    assert serve(ServeOptions(once=True, keyboard=False, buttons=False, overrides=overrides), log=lambda m: None) == 1
    said = [r for r in read_transcript(transcript) if r["kind"] in ("say", "ask")]
    return said, tomllib.loads(table_file.read_text(encoding="utf-8"))


def test_a_preset_picked_by_number_is_read_back_in_one_breath_and_played(narrator_home, tmp_path):
    # no to 5 players → this game → 5? no, 6? yes → preset 1 (recommended)? no, 2? yes → read back → yes
    said, table = served(narrator_home, tmp_path, "no", "yes", "no", "yes", "no", "yes", "yes", "done", "yes")
    lines = [r["line"] for r in said]
    at = lines.index("appliance.choose_preset")
    assert lines[at:at + 8] == ["appliance.choose_preset", "appliance.preset_recommended", "appliance.preset_option",
                                "setup.readback_cards", "setup.readback_order", "setup.readback_countdowns",
                                "setup.readback_discussion", "appliance.confirm"]
    texts = [r["text"] for r in said[at + 2:at + 7]]
    assert texts == [f"2番、{FRIDAY}ですか？",
                     "役職カードは市民3枚、裏切り者2枚、人狼1枚、アディショナルカードは占い師1枚、霊能者1枚、香具師1枚、幻影魔導師2枚、策士1枚。",
                     "夜は香具師、占い師、霊能者、幻影魔導師の順に、それぞれ10秒。",
                     "ただし、占い師は20秒。",
                     "話し合いは2分、3日間です。"]
    assert lines[at + 8] == "setup.welcome"
    [game] = saved_games(narrator_home)
    config = game.meta["config"]
    assert (config["players"], config["discussion"], config["countdowns"], config["night_order"][0]) == (6, 120, {"seer": 20}, "peddler")
    assert table["players"] == 6 and table["discussion"] == 120  # the preset is the table's setup now


def test_no_after_the_read_back_goes_back_to_the_offer_with_the_choice_kept(narrator_home, tmp_path):
    # ... 6 players → the recommended set → read back → no → "6 players?" → yes
    said, table = served(narrator_home, tmp_path, "no", "yes", "no", "yes", "yes", "no", "yes", "done", "yes")
    lines = [r["line"] for r in said]
    at = lines.index("appliance.confirm")
    assert lines[at + 1:at + 3] == ["title.additional_werewolf", "appliance.offer"]
    assert said[at + 2]["text"].startswith("6人で遊びますか？")
    assert "setup.readback_countdowns" not in lines and "discussion" not in table  # the recommended set
    [game] = saved_games(narrator_home)
    assert game.meta["config"]["players"] == 6 and game.meta["config"]["discussion"] == 180


def test_without_saved_presets_the_count_goes_straight_to_the_read_back(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text(DEFAULT_TABLE, encoding="utf-8")
    said, _ = served(narrator_home, tmp_path, "no", "yes", "yes", "yes", "done", "yes")
    lines = [r["line"] for r in said]
    assert "appliance.choose_preset" not in lines
    at = lines.index("appliance.players_option")
    assert lines[at + 1:at + 5] == ["setup.readback_cards", "setup.readback_order", "setup.readback_discussion",
                                    "appliance.confirm"]


def test_mou_ikkai_after_a_game_plays_the_same_settings_again_dealt_anew(narrator_home, tmp_path):
    """「もう一回」 (the pack's `replay` words) answers "play again?" and the next game starts at
    once, with no second question; it reshuffles."""
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text(DEFAULT_TABLE, encoding="utf-8")
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(["yes", "done", "yes", "もう一回", "done", "yes"]) + "\n", encoding="utf-8")
    messages = []
    overrides = {"voice": "text", "time_scale": "0", "answers": str(script), "history": "false"}
    with pytest.raises(NoMoreAnswers):  # no --once: after the second game it asks again, and the script is spent
        serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides), log=messages.append)
    assert "appliance.again: replay (script)" in messages
    assert [m for m in messages if m.startswith("appliance.offer:")] == ["appliance.offer: yes (script)"]
    first, second = saved_games(narrator_home)
    assert first.meta["config"]["seed"] != second.meta["config"]["seed"]
    assert first.meta["config"]["cards"] == second.meta["config"]["cards"]
