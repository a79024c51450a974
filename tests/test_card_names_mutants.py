"""The names a table types for cards and roles, at the branches the mutation run over
`card_names.py` and `spoken_names.py` found no test for (bench/mutation.sh names): the words a
game's `[names]` adds (a string, a list, a table that is not one), what one of a vocabulary is
called when a language has no word, the two refusals' every line (source, key, word, kind, the
id), the forms a setting's names are written in, and a label line that is no name."""

from __future__ import annotations

import pytest

from narrator.errors import Refusal
from narrator.games.card_names import CardNames, Translator, fold, message, translate_value
from narrator.games.spoken_names import spoken_names

SAID = {  # the packs' label lines, as `spoken_names` gives them
    "cards": {"seer": {"ja": ("占い師", "うらないし"), "en": ("seer",)},
              "phantom_mage": {"ja": ("幻影魔導師", "げんえいまどうし"), "en": ("phantom mage",)}},
    "roles": {"citizen": {"ja": ("市民", "しみん"), "en": ("villager",)},
              "traitor": {"en": ("traitor",)},  # no Japanese line in the pack
              "beast": {"ja": ("魔獣", "まじゅう"), "en": ("beast",)}},
    "attributes": {"S": {"ja": ("ソーレ",), "en": ("Sole",)}},
}
EXTRA = {  # a definition.toml's [names]
    "cards": {"kind": {"en": "additional card", "ja": "アディショナルカード"},
              "seer": {"en": "fortune teller"},  # a string is one word
              "phantom_mage": {"ja": ["げんえい", "マドウシ"]}},
    "roles": {"kind": {"en": "role"},  # no Japanese word for a role: the English one
              "traitor": {"ja": ["裏切者", "うらぎりもの"], "en": ["minion"]}},
    # attributes: no [names.attributes] at all
}


@pytest.fixture
def names() -> CardNames:
    return CardNames.spoken(EXTRA, SAID)


def refused(call) -> Refusal:
    with pytest.raises(Refusal) as err:
        call()
    return err.value


# --- message: the English line where a language has none -------------------------------------

def test_a_language_without_lines_gets_the_english_one():
    assert message("fr", "did_you_mean", name="seer") == "did you mean seer? "
    assert message("ja", "did_you_mean", name="占い師") == "「占い師」のことですか？ "


# --- fold ---------------------------------------------------------------------------------------

def test_fold_takes_the_first_and_last_katakana_as_hiragana():
    assert fold("ァ") == fold("ぁ") == "ぁ"
    assert fold("ヶ") == "ゖ"
    assert fold("ウラナイシ") == fold("うらないし")


def test_fold_reads_hyphens_and_spaces_as_one_underscore():
    assert fold("phantom-mage") == fold("Phantom Mage") == fold("ＰＨＡＮＴＯＭ－ＭＡＧＥ") == "phantom_mage"
    assert fold(" phantom - mage ") == "phantom_mage"


# --- CardNames.spoken: the said name first, then the definition's words -----------------------

def test_the_definitions_words_name_the_id_beside_the_said_name(names):
    assert names.lookup("cards", "占い師") == names.lookup("cards", "ウラナイシ") == "seer"
    assert names.lookup("cards", "Fortune-Teller") == "seer"  # a string is one word, not its letters
    assert names.lookup("cards", "f") is None
    assert names.lookup("cards", "げんえい") == names.lookup("cards", "まどうし") == "phantom_mage"
    assert names.lookup("roles", "裏切者") == names.lookup("roles", "MINION") == "traitor"
    assert names.lookup("roles", "none") is None


def test_the_said_name_comes_first_and_a_word_fills_a_language_the_pack_lacks(names):
    assert names.name("cards", "phantom_mage", "ja") == "幻影魔導師"  # the pack's, before げんえい
    assert names.name("cards", "seer", "en") == "seer"
    assert names.name("roles", "traitor", "ja") == "裏切者"  # no ja line: the definition's first word
    assert names.name("roles", "traitor", "en") == "traitor"
    assert names.name("attributes", "S", "ja") == "ソーレ"  # a vocabulary the definition adds nothing to


def test_an_id_without_a_name_is_named_by_itself(names):
    assert names.name("roles", "traitor", "fr") == "traitor"
    assert names.name("cards", "lovers", "ja") == "lovers"
    assert names.name("colours", "seer", "ja") == "seer"
    assert names.ids("colours") == ()
    assert names.ids("cards") == ("seer", "phantom_mage")


def test_what_one_of_a_vocabulary_is_called_per_language(names):
    assert names.kind("cards", "ja") == "アディショナルカード"
    assert names.kind("cards", "en") == "additional card"
    assert names.kind("roles", "ja") == "role"  # no Japanese word: the English one
    assert names.kind("attributes", "ja") == names.kind("attributes", "en") == "attributes"  # no kind: the vocabulary
    assert names.kind("colours", "en") == "colours"


def test_a_names_entry_that_is_not_a_table_is_left_out():
    names = CardNames.spoken({"cards": ["seer"], "roles": {"kind": "role", "citizen": "市民"}},
                             {"cards": SAID["cards"], "roles": SAID["roles"]})
    assert names.lookup("cards", "占い師") == "seer" and names.kind("cards", "ja") == "cards"
    assert names.kind("roles", "ja") == "roles"  # a kind that is no table of languages
    assert names.lookup("roles", "しみん") == "citizen" and names.name("roles", "citizen", "ja") == "市民"


# --- Translator.word: an unknown word ----------------------------------------------------------

def test_an_unknown_japanese_word_is_refused_in_every_language_with_its_source(names):
    err = refused(lambda: Translator(names, "ja", "command line").word("cards", "占い", "cards"))
    assert err.key == "unknown_name"
    ja = "コマンドライン: カードの「占い」というアディショナルカードはありません。「占い師」のことですか？ 使える名前: 占い師、幻影魔導師"
    en = ("command line: unknown additional card '占い' in cards; did you mean seer (占い師)? "
          "known: seer (占い師), phantom_mage (幻影魔導師)")
    assert err.lines() == {"en": en, "ja": ja}
    assert str(err) == ja
    assert err.page_lines() == {"en": en.removeprefix("command line: "), "ja": ja.removeprefix("コマンドライン: ")}


def test_an_id_of_another_list_is_shown_by_its_name_in_the_japanese_line(names):
    """`citizen` typed where a card goes: the Japanese line names it 市民, the English line as typed
    (not by its English name), and the ASCII word gets the English line."""
    err = refused(lambda: Translator(names, "ja", "table file").word("cards", "citizen", "countdowns"))
    assert err.lines()["ja"].startswith("テーブルファイル: カウントダウンの「市民」というアディショナルカードはありません。")
    assert err.lines()["en"].startswith("table file: unknown additional card 'citizen' in countdowns; ")
    assert str(err) == err.lines()["en"]


# --- Translator.unique: one id named twice ------------------------------------------------------

def test_a_card_named_twice_is_one_line_in_each_language(names):
    translator = Translator(names, "ja", "command line")
    err = refused(lambda: translate_value("幻影魔導師=1,phantom_mage=2", "cards", "keys", "cards", translator))
    assert err.key == "named_twice"
    en = ("command line: cards names the additional card phantom_mage twice ('幻影魔導師' and 'phantom_mage'); "
          "keep one of them")
    ja = "コマンドライン: カードに同じアディショナルカードが2回あります（「幻影魔導師」と「phantom_mage」）。どちらか1つにしてください"
    assert err.lines() == {"en": en, "ja": ja}
    assert str(err) == ja  # a Japanese spelling: the table's language
    assert err.page_lines()["ja"] == ja.removeprefix("コマンドライン: ")


def test_a_card_named_twice_in_ascii_gets_the_english_line(names):
    err = refused(lambda: translate_value("seer=1,SEER=1", "cards", "keys", "cards",
                                          Translator(names, "ja", "command line")))
    assert str(err) == "command line: cards names the additional card seer twice ('seer' and 'SEER'); keep one of them"


def test_a_wording_that_names_the_id_gets_its_name_in_the_lines_language(names, monkeypatch):
    """The shipped Japanese line names the two spellings only; one that also names the card
    ({id}) names it 幻影魔導師, where the English line names the id."""
    from narrator.games import card_names

    wording = {lang: dict(lines) for lang, lines in card_names.messages().items()}
    wording["ja"]["named_twice"] = "{id}が2回あります（{first}、{second}）"
    monkeypatch.setattr(card_names, "messages", lambda: wording)
    err = refused(lambda: Translator(names, "ja", "command line").unique(
        "cards", [("げんえい", "phantom_mage"), ("phantom mage", "phantom_mage")], "cards"))
    assert err.lines()["ja"] == "幻影魔導師が2回あります（げんえい、phantom mage）"
    assert "the additional card phantom_mage twice" in err.lines()["en"]


# --- the forms a setting's names are written in -------------------------------------------------

def test_a_role_and_attribute_with_a_full_width_colon(names):
    translator = Translator(names, "ja", "table file")
    assert translate_value(["魔獣：ソーレ", "市民"], "roles:attributes", "items", "cards", translator) == [
        "beast:S", "citizen"]
    assert translate_value("魔獣：ソーレ,市民:", "roles:attributes", "items", "cards", translator) == "beast:S,citizen:"


def test_what_follows_a_colon_is_kept_where_the_vocabulary_names_no_second_list(names):
    translator = Translator(names, "ja", "table file")
    assert translate_value("占い師:20,幻影魔導師", "cards", "items", "night_order", translator) == "seer:20,phantom_mage"


def test_an_item_without_a_name_is_left_for_the_games_own_check(names):
    translator = Translator(names, "ja", "table file")
    assert translate_value([":S", 3, "魔獣"], "roles:attributes", "items", "cards", translator) == [":S", 3, "beast"]


def test_a_count_after_the_first_equals_sign_is_left_for_the_games_own_check(names):
    translator = Translator(names, "ja", "table file")
    assert translate_value("占い師=1=2", "cards", "keys", "cards", translator) == "seer=1=2"


def test_a_deals_card_is_what_follows_the_players_name(names):
    translator = Translator(names, "en", "table file")
    assert translate_value("Aki=魔獣:ソーレ,Ben", "roles:attributes", "values", "deal", translator) == "Aki=beast:S,Ben"
    err = refused(lambda: translate_value("Aki=魔獣=S", "roles:attributes", "values", "deal", translator))
    assert "unknown role '魔獣=S' in deal.Aki;" in err.lines()["en"]


# --- spoken_names: the packs' label lines -------------------------------------------------------

def test_a_label_line_with_a_placeholder_is_no_name():
    own = {"ja": {"wolf": {"role": {"bard": {"text": "吟遊詩人{n}", "reading": "ぎんゆうしじん"},
                                    "skald": "詩人{n}人"}}}}
    said = spoken_names(lambda ident: f"wolf.role.{ident}", ["bard", "skald"], own)
    assert said == {"bard": {"ja": ("ぎんゆうしじん",)}, "skald": {}}


def test_a_broken_pack_of_one_language_leaves_the_other_languages_names(tmp_path, monkeypatch):
    """The table's own `ja` pack (read first) cannot be read: the English pack still names the cards."""
    pack = tmp_path / "voices" / "ja"
    (pack / "lines").mkdir(parents=True)
    (pack / "voice.toml").write_text('name = "ja"\nlang = "ja"\n', encoding="utf-8")
    (pack / "lines" / "broken.toml").write_text("bad = [\n", encoding="utf-8")
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    assert spoken_names(lambda ident: f"label.{ident}", ["seer"]) == {"seer": {"en": ("seer",)}}
