"""What one phone shows, unit by unit: the phase, the Bestia Magica card and result, a
private round's request, and the private lines file (fast; the mutation tests' floor)."""

import json
import os
import stat
from types import SimpleNamespace

from narrator.cues import Ask, Request
from narrator.games import get_game, seating
from narrator.games.bestia_magica import phone as bm_phone
from narrator.games.bestia_magica.state import BMState, Player
from narrator.games.contract import Game, PhonePlay
from narrator.inputs.hub import OpenCollect
from narrator.phones import views
from narrator.phones.private import PrivateLines, request_view
from narrator.settings import build_settings

SOME_GAME = Game("some-game", None, None, None, None, None, None, phones=PhonePlay())
"""A game that shows nothing private: the view's public facts and question alone."""
REFORM_LAST = "Aki=saint:M,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"


def _bestia_config(**rules):
    settings = build_settings({}, {"game": "bestia-magica", "seed": 1, "deal": REFORM_LAST, **rules}, "test")
    return get_game(settings.game).configure(settings)


def _players(reform_pending=True):
    """The deal's players; Ben, the murderer, reformed by the saint tonight (`reform_pending`)."""
    players = []
    for card in REFORM_LAST.split(","):
        name, role_attribute = card.split("=")
        role, attribute = role_attribute.split(":")
        players.append(Player(name, role, attribute, reform_pending=reform_pending and name == "Ben"))
    return tuple(players)


def test_the_phase_is_setup_until_the_first_night_and_over_once_finished():
    assert seating.phase(None) == "setup"
    assert seating.phase(SimpleNamespace(night=0, day=0, finished=False)) == "setup"
    assert seating.phase(SimpleNamespace(night=0, day=0, finished=True)) == "over"
    assert seating.phase(SimpleNamespace(night=1, day=0, finished=False)) == "night"
    assert seating.phase(SimpleNamespace(night=1, day=1, finished=False)) == "day"
    assert seating.phase(SimpleNamespace(night=2, day=1, finished=True)) == "over"
    assert seating.phase(SimpleNamespace(finished=False)) == "setup"  # a state that counts no nights yet


def test_a_view_holds_the_tables_public_facts_and_nothing_asked_of_others():
    config = SimpleNamespace(names=("Aki", "Ben", "Chika"))
    public = {"game": "some-game", "seat": "Aki", "names": ["Aki", "Ben", "Chika"], "winner": None,
              "alive": ["Aki", "Ben", "Chika"], "private": {}, "ask": None}
    assert views.build_view(SOME_GAME, config, None, None, "Aki", None, _text) == {
        **public, "phase": "setup", "night": 0, "day": 0}
    shown = SimpleNamespace(night=2, day=1, finished=True, winner="town")
    ask = Ask("seer.act_phone", ("Ben", "Chika"), player="Ben")
    assert views.build_view(SOME_GAME, config, shown, shown, "Aki", (4, ask), _text) == {
        **public, "phase": "over", "night": 2, "day": 1, "winner": "town"}


def test_a_bestia_magica_card_is_shown_only_for_a_player_of_the_game():
    card = bm_phone.private_view
    config = _bestia_config()
    state = BMState(night=1, players=_players(False))
    assert card(config, state, "Ben") == {
        "role": "murderer", "attribute": "N", "alive": True,
        "lines": [("bm.private.card.murderer", {"name": "Ben"}), ("bm.private.attr.N", {})]}
    assert card(config, state, "Zed") == {}  # a seat that holds no player
    assert card(config, BMState(), "Ben") == {}  # before the deal
    assert card(config, SimpleNamespace(night=0), "Ben") == {}  # a state without players


def test_a_murderer_reformed_on_the_last_night_wins_with_the_beasts_unless_the_house_rule_says_town():
    state = BMState(night=2, day=1, players=_players(), winner="beasts")
    card = bm_phone.private_view
    assert card(_bestia_config(), state, "Ben")["won"] is True
    assert card(_bestia_config(reform_counts_at_end="true"), state, "Ben")["won"] is False
    assert card(_bestia_config(), state, "Chika")["won"] is True and card(_bestia_config(), state, "Aki")["won"] is False


def test_a_game_without_phone_hooks_shows_no_card_and_every_choice():
    ask = Ask("seer.act_phone", ("Ben", "Chika"), player="Aki")
    assert views.valid_choices(SOME_GAME, None, None, "Aki", ask) == ("Ben", "Chika")
    night = SimpleNamespace(night=1, day=0, finished=False)
    view = views.build_view(SOME_GAME, SimpleNamespace(names=("Aki", "Ben")), night, None, "Aki", (3, ask),
                            lambda a: {"en": a.line})
    assert view["private"] == {} and view["ask"]["choices"] == ["Ben", "Chika"]


def _text(line, params):
    return {"en": f"{line} {params}"}


def test_a_private_request_shows_the_players_own_prompt_and_what_they_sent():
    memo = Request("Aki", "bm.memo.attack", ("Ben", "Chika"), {"night": 2}, ability=True)
    vote = Request("Ben", "bm.vote.prompt", ("Aki", "Chika"), key="vote")
    round_ = OpenCollect("night", 2, {"Aki": memo, "Ben": vote}, None, {})
    assert request_view(None, "Aki", _text) is None
    assert request_view((7, round_), "Chika", _text) is None  # not asked
    assert request_view((7, round_), "Aki", _text) == {
        "serial": 7, "phase": "night", "number": 2, "line": "bm.memo.attack",
        "text": {"en": "bm.memo.attack {'night': 2}"}, "choices": ["Ben", "Chika"], "ability": True,
        "key": "target", "answered": False, "sent": None}
    round_.answers["Ben"] = {"vote": "Chika"}
    assert request_view((7, round_), "Ben", _text) == {
        "serial": 7, "phase": "night", "number": 2, "line": "bm.vote.prompt", "text": {"en": "bm.vote.prompt {}"},
        "choices": ["Aki", "Chika"], "ability": False, "key": "vote", "answered": True, "sent": {"vote": "Chika"}}


def test_the_private_lines_file_is_readable_utf8_json_for_its_owner_only(tmp_path):
    path = tmp_path / "phones-private.json"
    lines = PrivateLines(path)
    assert lines.add("Emi", "bm.private.nothing", {"ja": "ニュースなし"}, (1, 0)) is True
    assert lines.add("Ben", "bm.private.prophet.B", {"en": "Aki is a beast."}, (2, 1)) is True
    assert path.read_bytes().decode("utf-8") == json.dumps([
        {"to": "Emi", "line": "bm.private.nothing", "text": {"ja": "ニュースなし"}, "when": [1, 0]},
        {"to": "Ben", "line": "bm.private.prophet.B", "text": {"en": "Aki is a beast."}, "when": [2, 1]},
    ], ensure_ascii=False)
    assert "ニュースなし" in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["phones-private.json"]  # no temporary file left


def test_seats_are_the_tables_names_else_numbered_from_one():
    assert seating.seats_of(SimpleNamespace(names=("Aki", "Ben"), players=2)) == ("Aki", "Ben")
    assert seating.seats_of(SimpleNamespace(names=(), players=4)) == ("1", "2", "3", "4")
    assert seating.seats_of(SimpleNamespace(players=3)) == ("1", "2", "3")


def test_before_the_first_state_a_player_sees_no_cards_and_a_question_is_shown_whole():
    settings = build_settings({}, {"game": "additional-werewolf", "seed": 1, "names": "Aki,Ben,Chika,Dai,Emi",
                                   "digital_cards": "true"}, "test")
    config = get_game(settings.game).configure(settings)
    view = views.build_view(get_game("additional-werewolf"), config, None, None, "Aki", None, lambda a: {"en": a.line})
    assert view["private"] == {} and view["phase"] == "setup" and view["ask"] is None
    ask = Ask("seer.act_phone", ("Ben", "Chika"), player="Aki")
    view = views.build_view(SOME_GAME, config, None, None, "Aki", (4, ask), lambda a: {"en": a.line})
    assert view["ask"] == {"serial": 4, "line": "seer.act_phone", "text": {"en": "seer.act_phone"},
                           "choices": ["Ben", "Chika"], "multiple": False, "private": True}
    nominees = Ask("nomination.who", ("Aki", "Ben", "Chika"), multiple=True)
    view = views.build_view(SOME_GAME, config, None, None, "Ben", (5, nominees), lambda a: {"en": "?"})
    assert view["ask"] == {"serial": 5, "line": "nomination.who", "text": {"en": "?"},
                           "choices": ["Aki", "Ben", "Chika"], "multiple": True, "private": False}


def test_a_view_asks_the_game_with_its_config_the_state_and_the_seat():
    """What the page shows comes from the game's own answers to (config, state, seat): a
    private question's choices from the state now, the facts and the living from the state shown."""
    asked = []

    def facts(config, state):
        asked.append(("facts", config, state))
        return {"phase": "night", "night": 1, "day": 0, "winner": None}

    def alive(config, state):
        asked.append(("alive", config, state))
        return ["Ben"]

    def choices(config, state, name, offered):
        asked.append(("choices", config, state, name, offered))
        return offered[1:]

    game = Game("some-game", None, None, None, None, None, None,
                phones=PhonePlay(table_facts=facts, alive=alive, private_choices=choices))
    config, shown, now = SimpleNamespace(names=("Aki", "Ben")), SimpleNamespace(n="shown"), SimpleNamespace(n="now")
    ask = Ask("seer.act_phone", ("Aki", "Ben"), player="Aki")
    view = views.build_view(game, config, shown, now, "Aki", (3, ask), lambda a: {"en": a.line})
    assert view["ask"]["choices"] == ["Ben"] and view["alive"] == ["Ben"] and view["phase"] == "night"
    assert asked == [("facts", config, shown), ("alive", config, shown),
                     ("choices", config, now, "Aki", ("Aki", "Ben"))]
    public = Ask("nomination.who", ("Aki", "Ben"))
    assert views.valid_choices(game, config, now, "Aki", public) == ("Aki", "Ben")  # a public question: all
    assert len(asked) == 3  # and the game was not asked
