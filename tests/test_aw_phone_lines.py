"""Additional Werewolf's phone view speaks through the game's own lines, as the kernel games do
(issue 40, item 2): the server words them in the page's languages, and the phone page
(phones/static/strings.json) holds none of this game's card names or memo kinds, so a new card
is its definition and its pack lines, never the page."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from narrator.games.additional_werewolf import cards
from narrator.games.additional_werewolf.setup import definition
from narrator.sound.voicepack import load_pack
from tests.test_aw_digital_cards import digital, step

KINDS = ("seer", "medium", "lovers", "strategist")
"""The memos a digital-cards game writes (`cards._memo`)."""
STRINGS = Path(__file__).resolve().parent.parent / "narrator" / "phones" / "static" / "strings.json"


@pytest.fixture(scope="module")
def packs():
    return {lang: load_pack(lang) for lang in ("ja", "en")}


def worded(view, packs):
    """The view as the phone server sends it: each `…lines` key's lines in every language."""
    out = dict(view)
    for key in [k for k in view if k.endswith("lines")]:
        out[key] = [{lang: p.speak(line, params).text for lang, p in packs.items()} for line, params in view[key]]
    return out


def dealt():
    rules, config = digital()
    state, _ = step(rules, config, rules.new_state(), {"type": "start"})
    return config, state


def test_the_cards_and_memos_come_worded_in_the_games_own_lines(packs):
    config, state = dealt()
    aki, ben, chika = config.names[:3]
    memos = ({"player": aki, "kind": "seer", "night": 1, "target": ben, "role": "werewolf"},
             {"player": aki, "kind": "medium", "night": 2, "target": chika, "role": "citizen"},
             {"player": aki, "kind": "lovers", "night": 1, "partner": ben},
             {"player": aki, "kind": "strategist", "day": 2, "cards": {aki: "traitor", ben: "werewolf"}})
    state = replace(state, roles_of=("citizen", *state.roles_of[1:]), extras_of=("seer", *state.extras_of[1:]),
                    memos=memos)
    view = worded(cards.private_view(config, state, aki), packs)
    assert (view["role"], view["card"]) == ("citizen", "seer")  # the ids stay, for the page's data
    assert view["lines"] == [{"ja": "役職カード：市民", "en": "Role card: citizen"},
                             {"ja": "アディショナルカード：占い師", "en": "Additional card: seer"}]
    assert [m["ja"] for m in view["memo_lines"]] == [
        f"1日目の夜 占い：{ben} は 人狼", f"2日目の夜 霊能：{chika} は 市民", f"1日目の夜 恋人：相手は {ben}",
        f"2日目 策士：{aki}さんと{ben}さんの順に 裏切り者、人狼"]
    assert view["memo_lines"][0]["en"] == f"Night 1, seer: {ben} is a werewolf"
    assert [m["kind"] for m in view["memos"]] == ["seer", "medium", "lovers", "strategist"]


def test_the_strategists_hand_and_the_cards_to_give_are_named_by_the_game(packs):
    config, state = dealt()
    name, a, b = config.names[:3]
    state = replace(state, roles_of=("werewolf", "citizen", "citizen", *state.roles_of[3:]),
                    step="ask_strat_give_1", strategist_queue=(name,), picks=(a, b))
    view = worded(cards.private_view(config, state, name), packs)
    assert view["hand_lines"] == [{"ja": "手元の3枚：人狼、市民、市民", "en": "Your three cards: werewolf, citizen and citizen"}]
    assert view["labels"] == ["citizen", "werewolf"]
    assert view["label_lines"] == [{"ja": "市民", "en": "citizen"}, {"ja": "人狼", "en": "werewolf"}]


def test_the_phone_page_holds_none_of_the_games_card_names_or_memo_kinds(packs):
    strings = json.loads(STRINGS.read_text(encoding="utf-8"))
    ids = [*definition()["roles"], *definition()["cards"]]
    for lang, page in strings.items():
        names = {packs[lang].speak(f"label.{i}").text for i in ids}
        texts = json.dumps(page, ensure_ascii=False)
        assert not [n for n in names if f'"{n}"' in texts], lang
        assert not {"role", "card"} & set(page) and not {f"memo_{k}" for k in KINDS} & set(page), lang
