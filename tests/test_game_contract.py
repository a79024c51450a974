"""The game contract and the typed events: what every room may ask of a game, and the saved
game's log written byte for byte as before events were typed (old games still resume)."""

import asyncio
import json

import pytest

from narrator.cues import Answer, Continue, Start, Undo, as_event, event_from_dict
from narrator.errors import SetupError
from narrator.games import game_names, get_game
from narrator.games.contract import Game
from narrator.inputs.hub import Heard
from narrator.phones.table import check_game
from narrator.settings import build_settings
from narrator.table.runner import play, resume_position, start_position
from narrator.table.store import GameStore
from tests.test_runner_loop import ANSWERS, ScriptedScheduler

NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"


def _configured(game, **options):
    rules = get_game(game)
    return rules, rules.configure(build_settings({}, {"game": game, **options}, "test"))


def test_each_event_is_its_log_record_exactly():
    assert Start().to_dict() == {"type": "start"}
    assert Continue().to_dict() == {"type": "continue"}
    assert Answer(["Ben", "Dai"], "keyboard").to_dict() == {"type": "answer", "value": ["Ben", "Dai"],
                                                              "source": "keyboard"}
    assert Answer("no").to_dict() == {"type": "answer", "value": "no"}
    assert Undo("button").to_dict() == {"type": "undo", "source": "button"}
    assert json.dumps(Answer("はい", "voice").to_dict(), ensure_ascii=False) == \
        '{"type": "answer", "value": "はい", "source": "voice"}'
    for event in (Start(), Continue(), Answer({"Aki": {"target": "Ben"}}, "phones"), Undo("keyboard"), Undo()):
        assert event_from_dict(event.to_dict()) == event
        assert as_event(event) is event and as_event(event.to_dict()) == event
    assert event_from_dict({"type": "answer", "value": None, "source": None}) == Answer(None)
    with pytest.raises(ValueError, match="unknown event type 'log'"):
        event_from_dict({"type": "log"})


def test_a_game_advances_the_same_by_a_typed_event_or_its_record():
    for game in ("additional-werewolf", "bestia-magica", "pagan"):
        rules, config = _configured(game, **({"names": NAMES} if game != "pagan" else {}), seed=3)
        typed = dicts = rules.new_state()
        for event in (Start(), Continue(), Answer("done"), Continue()):
            try:
                typed, typed_cues = rules.advance(config, typed, event)
            except Exception as err:
                with pytest.raises(type(err)):
                    rules.advance(config, dicts, event.to_dict())
                break
            dicts, dict_cues = rules.advance(config, dicts, event.to_dict())
            assert typed == dicts and typed_cues == dict_cues


def test_the_log_is_written_as_before_events_were_typed(tmp_path):
    rules, config = _configured("additional-werewolf", names=NAMES, seed=7)
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    heard = [Heard("answer", a, "keyboard") for a in ANSWERS]
    state = asyncio.run(play(rules, config, store, ScriptedScheduler(heard), start_position(rules, config, store)))
    raw = (store.folder / "events.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    assert raw == [json.dumps(e, ensure_ascii=False) for e in _old_log(rules, config, ANSWERS)]
    assert store.meta["outcome"] == {"winner": "citizens", "lovers_lose": False} and state.winner == "citizens"
    (store.folder / "snapshot.json").unlink()  # a game saved so resumes from its log alone
    assert resume_position(rules, config, store).state == state


def test_an_undo_is_logged_as_before_and_replays(tmp_path):
    rules, config = _configured("additional-werewolf", names=NAMES, seed=7)
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    heard = [Heard("answer", a, "keyboard") for a in ANSWERS[:2]] + [Heard("command", "undo", "button")]
    heard += [Heard("answer", a, "keyboard") for a in ANSWERS[1:]]
    state = asyncio.run(play(rules, config, store, ScriptedScheduler(heard), start_position(rules, config, store)))
    raw = (store.folder / "events.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    assert '{"type": "undo", "source": "button"}' in raw
    assert raw.count('{"type": "answer", "value": ["Ben", "Dai"], "source": "keyboard"}') == 2
    assert state.winner == "citizens"


def _old_log(rules, config, answers):
    """The log the narrator wrote before events were typed: each step's event as a dict,
    played through the rules as dicts (the old callers' way)."""
    answers = list(answers)
    log = [{"type": "start"}]
    state, cues = rules.advance(config, rules.new_state(), log[0])
    while not state.finished:
        asks = any(type(c).__name__ in ("Ask", "Collect") for c in cues)
        event = {"type": "answer", "value": answers.pop(0), "source": "keyboard"} if asks else {"type": "continue"}
        state, cues = rules.advance(config, state, event)
        log.append(event)
    return log


def test_every_registered_game_hands_its_contract_under_its_own_name():
    assert game_names() == ["additional-werewolf", "bestia-magica", "pagan", "one-night", "tabula", "village-9",
                            "village-11", "village-13", "village-16", "werewolf"]  # the villages as a host counts them
    for name in game_names():
        game = get_game(name)
        assert isinstance(game, Game) and game.name == name


def test_what_the_rooms_ask_of_each_game():
    aw, aw_config = _configured("additional-werewolf", names=NAMES, seed=1)
    _, digital = _configured("additional-werewolf", names=NAMES, seed=1, digital_cards="true")
    bm, bm_config = _configured("bestia-magica", seed=1, players=6)
    pagan, pagan_config = _configured("pagan")
    assert aw.names(aw_config) == tuple(NAMES.split(",")) and pagan.names(pagan_config) == ()
    assert aw.phones_required(aw_config) is None and bm.phones_required(bm_config) is None
    assert aw.phones_required(digital) == "digital cards are shown on the players' phones"
    assert pagan.phones is None and pagan.phones_required(pagan_config) is None
    state, _ = aw.advance(aw_config, aw.new_state(), Start())
    assert aw.context(state) == {"night": state.night, "day": state.day}
    assert pagan.context(pagan.advance(pagan_config, pagan.new_state(), Start())[0]) == {}
    assert bm.outcome(bm_config, bm.new_state()) == {"winner": None}
    assert aw.outcome(aw_config, aw.new_state()) == {"winner": None, "lovers_lose": False}


def test_the_phone_page_is_refused_for_a_game_without_one_naming_those_with_one():
    check_game(get_game("bestia-magica"))
    with pytest.raises(SetupError, match=r"^the phone page serves additional-werewolf, bestia-magica, one-night, tabula, village-9, village-11, "
                                         r"village-13, village-16, werewolf, not pagan; "
                                         r"drop --phones$"):
        check_game(get_game("pagan"))


def test_an_unknown_game_or_a_package_without_its_contract_is_one_line(monkeypatch):
    with pytest.raises(SetupError, match="^unknown game 'chess'; known games: additional-werewolf, bestia-magica, pagan, one-night, "
                                         "tabula, village-9, village-11, village-13, village-16, werewolf$"):
        get_game("chess")
    import narrator.games as registry

    monkeypatch.setitem(registry._registry(), "broken", lambda: object())
    with pytest.raises(SetupError, match="^game 'broken' does not hand over its contract"):
        get_game("broken")


def test_an_undo_without_a_source_and_a_long_unknown_type_read_as_logged():
    assert Undo().to_dict() == {"type": "undo"}
    with pytest.raises(ValueError) as refused:
        event_from_dict({"type": "x" * 30})
    assert str(refused.value) == f"unknown event type {'x' * 20!r}"


def test_the_last_line_of_a_game_names_its_winners_in_english_grammar():
    from narrator.games import game_over_message

    assert game_over_message(None) == "game over" and game_over_message("") == "game over"
    assert game_over_message("citizens") == "game over: citizens win"
    assert game_over_message("witch") == "game over: witch wins"


def test_a_package_without_its_contract_is_told_how_to_fix_it(monkeypatch):
    import narrator.games as registry

    monkeypatch.setitem(registry._registry(), "broken", lambda: get_game("pagan"))
    with pytest.raises(SetupError) as refused:
        get_game("broken")
    assert str(refused.value) == ("game 'broken' does not hand over its contract (a `Game` named 'broken'); "
                                  "fix GAME in its package")


def test_every_cue_reads_back_from_its_snapshot_record():
    from narrator.cues import Ask, Collect, Countdown, End, Event, Private, Request, Say, Timer, TurnClock, cue_from_dict

    cues = [Say("a.b", {"n": 1}), Countdown(10), Timer("discussion", 180, (60, 10)),
            Ask("q", ("yes", "no"), {"x": 1}, player="Aki", multiple=True, help=("h.1",), ends_game=("yes",)),
            End("end.x", "citizens", {"n": 2}, {"lovers_lose": False}), Private("Aki", "p.line", {"k": "v"}),
            Collect("night", 2, (Request("Aki", "bm.memo", ("Ben", "Chika"), {"night": 2}, ability=True),)),
            Event("death", "Ben", "beast", night=1), TurnClock(60, (10,))]
    for cue in cues:
        record = json.loads(json.dumps(cue.to_dict()))  # through JSON, as a snapshot keeps it
        assert cue_from_dict(record) == cue, cue
