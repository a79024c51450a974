"""A GM the table can follow (issue 14): what to take out of the box, waiting while hands are
busy, resuming in the middle of a night, and the rule text's own steps and wording.

Pure engine and voice-pack tests; the whole game through the real CLI is in
test_aw_table_guide_cli.py.
"""

import asyncio

import pytest

from narrator.cues import Ask, Countdown, End, Say, Timer
from narrator.errors import SetupError
from narrator.games import game_over_message
from narrator.games.additional_werewolf.setup import definition
from narrator.sound.voicepack import load_pack
from tests.engine_driver import configure, lines, run_game

NAMES = "Aki,Ben,Chika,Dai,Emi"


def start(rules, config):
    return rules.advance(config, rules.new_state(), {"type": "start"})


def play_to(rules, config, answers, until):
    """Advance with `answers` until `until(state, cues)`; returns that state and step's cues."""
    answers = iter(answers)
    state, cues = start(rules, config)
    for _ in range(1000):
        if until(state, cues):
            return state, cues
        event = {"type": "answer", "value": next(answers)} if cues and isinstance(cues[-1], Ask) else {"type": "continue"}
        state, cues = rules.advance(config, state, event)
    raise AssertionError("never reached")


# --- 1. what to take out of the box ----------------------------------------------------------

def test_recommended_set_is_said_before_the_deal_with_its_counts():
    rules, config = configure(players=8)
    _, cues = start(rules, config)
    # the deal waits (issue 26); 2 seers: the list ends with which of them is 1人目
    assert lines(cues)[:3] == ["setup.welcome", "setup.box_copies", "setup.ready"]
    box = cues[1]
    assert box.params == {
        "roles": [["card.citizen", 4], ["card.traitor", 2], ["card.werewolf", 2]],
        "cards": [["card.seer", 2], ["card.medium", 1], ["card.peddler", 1], ["card.phantom_mage", 1],
                  ["card.lovers", 2], ["card.strategist", 1]],
    }
    said = load_pack("ja").speak(box.line, box.params)
    assert "役職カードは、市民4枚、裏切り者2枚、人狼2枚。" in said.text
    assert "アディショナルカードは、占い師2枚、霊能者1枚、香具師1枚、幻影魔導師1枚、恋人2枚、策士1枚。" in said.text
    assert "しみん4まい、うらぎりもの2まい、じんろう2まい" in said.reading and "やし1まい" in said.reading
    en = load_pack("en").speak(box.line, box.params).text
    assert "Role cards: 4 citizens, 2 traitors and 2 werewolves." in en
    assert "2 seers, 1 medium, 1 peddler, 1 phantom mage, 2 lovers cards and 1 strategist." in en


def test_a_tables_own_set_is_said_as_chosen():
    rules, config = configure(players=6, roles="citizen=3,traitor=2,werewolf=1",
                              cards="seer=1,peddler=2,strategist=1,on_break=2")
    _, cues = start(rules, config)
    box = next(c for c in cues if isinstance(c, Say) and c.line == "setup.box_copies")  # 2 peddlers
    text = load_pack("ja").speak(box.line, box.params).text
    assert "市民3枚、裏切り者2枚、人狼1枚。" in text
    assert "占い師1枚、香具師2枚、策士1枚、休憩中2枚。" in text
    assert "1 werewolf." in load_pack("en").speak(box.line, box.params).text  # one: no plural


def test_digital_cards_name_the_set_dealt_to_the_phones():
    rules, config = configure(names=NAMES, digital_cards=True, seed=3)
    _, cues = start(rules, config)
    assert lines(cues)[:3] == ["setup.welcome", "setup.box_digital", "setup.deal_digital"]


@pytest.mark.parametrize("pack_name", ["ja", "en"])
def test_every_card_and_role_has_its_counted_line(pack_name):
    pack = load_pack(pack_name)
    for name in [*definition()["roles"], *definition()["cards"]]:
        assert pack.placeholders(f"card.{name}") == {"n"}
    from narrator.games.bestia_magica.setup import definition as bm_definition
    for role in bm_definition()["roles"]:
        assert pack.placeholders(f"bm.card.{role}") == {"n"}


def test_bestia_magica_says_its_role_set_before_the_deal():
    rules, config = configure("bestia-magica", players=8, seed=5)
    _, cues = start(rules, config)
    assert lines(cues)[:3] == ["bm.setup.welcome", "bm.setup.box", "bm.setup.deal"]
    box = cues[1]
    counted = dict(box.params["roles"])
    assert sum(counted.values()) == 8 and counted["bm.card.beast"] == 2
    assert counted == {f"bm.card.{card.role}": sum(c.role == card.role for c in config.deal) for card in config.deal}
    text = load_pack("ja").speak(box.line, box.params).text
    assert text == "このゲームで使う役職カードは、町民1枚、魔獣2枚、預言者1枚、葬儀屋1枚、護衛1枚、聖女1枚、殺人鬼1枚です。"
    assert "2 beasts, 1 prophet" in load_pack("en").speak(box.line, box.params).text


# --- 3. wait while hands are busy ------------------------------------------------------------

def test_redeal_waits_for_done_instead_of_a_countdown():
    rules, config = configure(players=5)
    state, cues = play_to(rules, config, ["done", "no", "no"], lambda s, c: "redeal.collect" in lines(c))
    assert cues == [Say("redeal.collect"), Say("redeal.look"), Ask("setup.ready", ("done",))]
    state, cues = rules.advance(config, state, {"type": "answer", "value": "done"})
    assert cues[0] == Say("night.begin", {"night": 2})


def test_a_table_key_keeps_a_fixed_redeal_time():
    rules, config = configure(players=5, redeal=15)
    _, cues = play_to(rules, config, ["done", "no", "no"], lambda s, c: "redeal.collect" in lines(c))
    assert cues == [Say("redeal.collect"), Countdown(15), Say("redeal.look")]


def test_strategist_exchange_waits_for_done_then_the_three_place_their_cards_again():
    rules, config = configure(players=5)
    state, cues = play_to(rules, config, ["done", "no", "yes"], lambda s, c: "strategist.reveal" in lines(c))
    assert cues == [Say("strategist.reveal"), Say("strategist.exchange"), Ask("setup.ready", ("done",))]
    assert not any(isinstance(c, Countdown) for c in cues)
    state, cues = rules.advance(config, state, {"type": "answer", "value": "done"})
    assert cues[:4] == [Say("strategist.check"), Countdown(config.check_role), Say("strategist.place"),
                        Say("strategist.done")]


def test_a_table_key_keeps_a_fixed_strategist_time():
    rules, config = configure(players=5, strategist=20)
    _, cues = play_to(rules, config, ["done", "no", "yes"], lambda s, c: "strategist.reveal" in lines(c))
    assert cues[2] == Countdown(20) and cues[3] == Say("strategist.check")


def test_discussion_zero_talks_until_the_table_is_satisfied():
    rules, config = configure(players=5, discussion=0)
    state, cues = play_to(rules, config, ["done"], lambda s, c: s.step == "ask_discussed")
    assert cues == [Say("day.discussion_open", {"day": 1, "days": 3}), Ask("setup.ready", ("done",))]
    assert not any(isinstance(c, Timer) for c in cues)
    assert "納得がいくまで" in load_pack("ja").speak("day.discussion_open", {"day": 1, "days": 3}).text
    state, cues = rules.advance(config, state, {"type": "answer", "value": "done"})
    assert lines(cues)[:2] == ["nomination.ready", "nomination.count_in"]
    with pytest.raises(SetupError, match="discussion must be at least 0"):
        configure(players=5, discussion=-1)


def test_the_answer_timeout_ends_the_redeal_wait():
    """The redeal's question is a 'done when ready' one, so the answer timeout answers it."""
    from narrator.inputs.hub import ListenerHub, Vocabulary
    from narrator.inputs.voice.setup import TimeoutListener
    from narrator.table.clock import ManualClock

    rules, config = configure(players=5)
    _, cues = play_to(rules, config, ["done", "no", "no"], lambda s, c: "redeal.collect" in lines(c))

    async def scene():
        hub = ListenerHub(Vocabulary())
        hub.register("keyboard")
        clock = ManualClock()  # moved deadline by deadline: the 40 s timeout is the next one
        TimeoutListener(clock, 40).start(hub, asyncio.get_running_loop())
        started = clock.now()
        answer = asyncio.ensure_future(hub.answer(cues[-1]))
        await clock.run_until(answer.done, limit=1000)
        return answer.result(), clock.now() - started

    heard, waited = asyncio.run(scene())
    assert heard.value == "done" and heard.source == "timeout" and 40 <= waited < 55


# --- 7. resume in the middle of a night ------------------------------------------------------

def test_resume_at_night_tells_everyone_to_lower_their_head():
    rules, config = configure(players=5)
    state, _ = play_to(rules, config, ["done"], lambda s, c: s.step == "night_call" and s.call_index == 1)
    recap = rules.recap(config, state)
    assert recap == [Say("resume.recap_night", {"night": 1})]
    for lang, words in (("ja", "全員、顔を伏せてください"), ("en", "close your eyes")):
        assert words in load_pack(lang).speak(recap[0].line, recap[0].params).text


@pytest.mark.parametrize("card", ["peddler", "phantom_mage"])
def test_a_swap_call_cut_off_is_not_swapped_twice(card):
    """The snapshot's step is the one *after* the cues it replays: at `night_check` the cues
    replayed are the swap call itself, so the holder is told not to swap again; once the
    check has begun, the swap is never called again."""
    rules, config = configure(players=5)
    state, cues = play_to(rules, config, ["done"], lambda s, c: f"{card}.act" in lines(c))
    assert state.step == "night_check"
    recap = rules.recap(config, state)
    assert recap == [Say("resume.recap_night", {"night": 1}), Say(f"{card}.resume_once")]
    assert "もう一度交換しないでください" in load_pack("ja").speak(f"{card}.resume_once").text
    state, check = rules.advance(config, state, {"type": "continue"})  # the role check: its own step
    assert f"{card}.act" not in lines(check) and "night.check_role" in lines(check)
    # the check again says so, not 「顔を伏せてください」 before 「顔を上げて」 (issue 26)
    assert rules.recap(config, state) == [Say("resume.recap_check", {"night": 1})]


def test_digital_swaps_need_no_warning_on_resume():
    rules, config = configure(names=NAMES, digital_cards=True, seed=3)
    state, _ = start(rules, config)
    state, _ = rules.advance(config, state, {"type": "answer", "value": "done"})
    state, _ = rules.advance(config, state, {"type": "continue"})  # seer
    state, _ = rules.advance(config, state, {"type": "answer", "value": "Aki"})
    state, cues = rules.advance(config, state, {"type": "continue"})  # peddler asks on the phone
    target = next(n for n in config.names if n != cues[-1].player)
    state, _ = rules.advance(config, state, {"type": "answer", "value": target})
    assert state.step == "night_check"
    assert rules.recap(config, state) == [Say("resume.recap_night", {"night": 1})]


# --- 10. rule-text steps and wording ---------------------------------------------------------

def test_every_role_check_ends_by_putting_the_card_back():
    rules, config = configure(players=5)
    _, cues = run_game(rules, config, ["done", "no", "no", "done", "yes"])
    said = lines(cues)
    assert said.count("night.check_role") == said.count("night.put_back") == 6
    for k, line in enumerate(said):
        if line == "night.check_role":
            assert said[k + 1:k + 3] == ["night.put_back", "night.sleep"]
    assert "元に戻して" in load_pack("ja").speak("night.put_back").text


@pytest.mark.parametrize("players, tail", [(5, ["nomination.flip", "end.citizens_win"]),
                                           (7, ["nomination.flip", "end.lovers_question"])])
def test_a_found_werewolf_turns_the_card_face_up(players, tail):
    rules, config = configure(players=players)
    state, cues = play_to(rules, config, ["done", "yes"], lambda s, c: s.step in ("over", "ask_lovers"))
    assert lines(cues) == tail
    assert "表向き" in load_pack("ja").speak("nomination.flip").text


def test_strategist_on_the_last_day_says_the_cards_now_decide():
    rules, config = configure(players=5, days=1)
    state, cues = play_to(rules, config, ["done", "no", "yes"], lambda s, c: s.step == "ask_exchanged")
    state, cues = rules.advance(config, state, {"type": "answer", "value": "done"})
    assert "strategist.done_last" in lines(cues) and "strategist.done" not in lines(cues)
    assert "次の議論" not in load_pack("ja").speak("strategist.done_last").text
    assert state.winner == "werewolves"


def test_seeno_is_called_before_anyone_points():
    rules, config = configure(players=5)
    _, cues = play_to(rules, config, ["done"], lambda s, c: "nomination.ready" in lines(c))
    assert lines(cues)[:2] == ["nomination.ready", "nomination.count_in"]
    ready = load_pack("ja").speak("nomination.ready").text
    assert ready.index("せーの") < ready.index("指差して")
    assert load_pack("ja").speak("nomination.count_in").text == "せーの。"


def test_medium_with_one_nominee_looks_at_that_card():
    rules, config = configure(players=6, names="Aki,Ben,Chika,Dai,Emi,Fumi")
    _, cues = play_to(rules, config, ["done", ["Ben"], "no", "no", "done"],
                      lambda s, c: any(l.startswith("medium.act") for l in lines(c)))
    said = next(c for c in cues if isinstance(c, Say) and c.line.startswith("medium.act"))
    assert said == Say("medium.act_name", {"names": ["Ben"]})
    assert "の中から" not in load_pack("ja").speak(said.line, said.params).text


def test_lovers_come_as_one_pair_unless_the_phones_tell_pairs_apart():
    with pytest.raises(SetupError, match="lovers=2") as err:
        configure(players=8, roles="citizen=4,traitor=2,werewolf=2", cards="seer=2,peddler=1,lovers=4,on_break=1")
    assert "\n" not in str(err.value)
    _, config = configure(names="Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana", roles="citizen=4,traitor=2,werewolf=2",
                          cards="seer=2,peddler=1,lovers=4,on_break=1", digital_cards=True, seed=1)
    assert config.cards["lovers"] == 4


@pytest.mark.parametrize("lang, dot, port", [("ja", "ドット", "ポート"), ("en", "dot", "port")])
def test_the_phone_address_is_read_as_words(lang, dot, port):
    pack = load_pack(lang)
    said = pack.speak("phones.join", {"address": "192.168.1.23:8080", "code": 2})
    assert f"192 {dot} 168 {dot} 1 {dot} 23" in said.text and f"{port} 8080" in said.text
    assert "192.168" not in said.text and "192.168" not in said.reading
    host = pack.speak("phones.join", {"address": "narrator.local:8080", "code": 2}).text
    assert f"narrator {dot} local" in host


# --- 11. the terminal's grammar --------------------------------------------------------------

@pytest.mark.parametrize("winner, line", [("town", "game over: town wins"), ("witch", "game over: witch wins"),
                                          ("hunter", "game over: hunter wins"),
                                          ("citizens", "game over: citizens win"),
                                          ("werewolves", "game over: werewolves win"), ("beasts", "game over: beasts win")])
def test_game_over_line_agrees_with_its_winner(winner, line):
    assert game_over_message(winner) == line


def test_every_end_line_still_fits_its_game():
    rules, config = configure(players=5)
    state, cues = run_game(rules, config, ["done", "yes"])
    assert isinstance(cues[-1], End) and game_over_message(state.winner) == "game over: citizens win"


@pytest.mark.parametrize("days, line", [(1, "strategist.done_last"), (3, "strategist.done")])
def test_digital_strategist_on_the_last_day_says_the_cards_now_decide(days, line):
    from dataclasses import replace

    from narrator.games.additional_werewolf import cards

    rules, config = configure(names=NAMES, digital_cards=True, seed=3, days=days)
    state = replace(rules.new_state(), day=1, step="ask_strat_give_2", strategist_queue=("Aki",),
                    roles_of=("citizen", "werewolf", "traitor", "citizen", "citizen"),
                    extras_of=("strategist", "seer", "peddler", "phantom_mage", "phantom_mage"),
                    picks=("Ben", "Chika", "traitor"))
    state, cues, finished = cards.strategist_answer(config, state, "citizen")
    assert finished and cues[-1] == Say(line)
    assert state.roles_of[:3] == ("werewolf", "traitor", "citizen")
