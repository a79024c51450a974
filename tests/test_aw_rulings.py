"""Additional Werewolf's rulings as a table sees them, per step, per role card and per
additional card (issue 29): answers in, the lines said, the question asked (and which of its
answers end the game), the cards a phone shows, the choice refused and the winner out.

The rule text is /work/shared/rules/additional-werewolf.ja.txt (DIGEST.md section 2); each
test names the passage it holds the game to. The phone's view is read through the game's
contract (`GAME.phones`), as the phone page reads it.
"""

import re

import pytest

from narrator.cues import Ask, CountIn, Countdown, End, Say, Timer
from narrator.errors import AnswerError
from narrator.games import get_game
from tests.engine_driver import configure, lines

NAMES5 = "Aki,Ben,Chika,Dai,Emi"
NAMES7 = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen"
GAME = get_game("additional-werewolf")


class Table:
    """A game driven answer by answer; `answer` plays every step up to the next question."""

    def __init__(self, **options):
        self.rules, self.config = configure(**options)
        self.state = self.rules.new_state()
        self.cues = []
        self.last = self._run({"type": "start"})

    def _run(self, event):
        out = []
        for _ in range(500):  # a game that never asks again fails here instead of hanging
            self.state, cues = self.rules.advance(self.config, self.state, event)
            out += cues
            if self.state.finished or (cues and isinstance(cues[-1], Ask)):
                self.cues += out
                return out
            event = {"type": "continue"}
        raise AssertionError(f"no question asked in 500 steps (at {self.state.step})")

    @property
    def ask(self) -> Ask:
        return self.last[-1]

    def answer(self, value):
        self.last = self._run({"type": "answer", "value": value})
        return self.last

    def refused(self, value, match):
        with pytest.raises(AnswerError, match=match):
            self.rules.advance(self.config, self.state, {"type": "answer", "value": value})

    def to(self, line: str, answers=()):
        """Answer `answers` in turn, then `done` (a private question: its holder's first
        allowed choice) until the question `line` is asked."""
        answers = list(answers)
        for _ in range(200):
            if self.ask.line == line:
                return self
            default = self.may_pick(self.ask.player)[0] if self.ask.player else "done"
            self.answer(answers.pop(0) if answers else default)
        raise AssertionError(f"never asked {line}")

    # what one phone shows (digital cards)
    def view(self, name):
        return GAME.phones.private_view(self.config, self.state, name)

    def may_pick(self, name):
        return GAME.phones.private_choices(self.config, self.state, name, self.ask.choices)

    def role(self, name):
        return self.view(name)["role"]

    def holders(self, card):
        return [n for n in self.config.names if self.view(n)["card"] == card]


# --- the start: what to take out of the box, the deal --------------------------------------

def test_the_start_names_the_set_and_waits_for_the_cards_before_the_deal():
    t = Table(players=5, days=2, look=12)
    assert t.last == [Say("setup.welcome", {"players": 5, "days": 2}),
                      Say("setup.box_copies", {"roles": [["card.citizen", 3], ["card.traitor", 1], ["card.werewolf", 1]],
                                               "cards": [["card.seer", 1], ["card.peddler", 1],
                                                         ["card.phantom_mage", 2], ["card.strategist", 1]]}),
                      Ask("setup.ready", ("done",))]
    cues = t.answer("done")
    assert cues[:4] == [Say("setup.deal"), Say("setup.place"), Countdown(12), Say("night.begin", {"night": 1})]


def test_a_game_saved_before_the_wait_deals_at_once_as_it_was_played():
    _, config = configure(players=4, look=9)
    data = config.to_dict()
    del data["wait_for_cards"]
    config = GAME.config_from_dict(data)
    state, cues = GAME.advance(config, GAME.new_state(), {"type": "start"})
    assert cues == [Say("setup.welcome", {"players": 4, "days": 3}),
                    Say("setup.box", {"roles": [["card.citizen", 2], ["card.traitor", 1], ["card.werewolf", 1]],
                                      "cards": [["card.seer", 1], ["card.peddler", 1], ["card.phantom_mage", 1],
                                                ["card.strategist", 1]]}),
                    Say("setup.deal"), Countdown(9), Say("setup.place"), Ask("setup.ready", ("done",))]
    state, cues = GAME.advance(config, state, {"type": "answer", "value": "done"})
    assert cues == [Say("night.begin", {"night": 1})]


def test_digital_cards_are_dealt_to_the_phones_one_role_and_one_card_each():
    t = Table(names=NAMES5, digital_cards="true", seed=7, look=8)
    assert t.last[0] == Say("setup.welcome", {"players": 5, "days": 3})
    assert t.last[1].line == "setup.box_digital"
    assert t.last[2:] == [Say("setup.deal_digital"), Countdown(8), Ask("setup.ready", ("done",))]
    roles = sorted(t.role(n) for n in t.config.names)
    assert roles == ["citizen"] * 3 + ["traitor", "werewolf"]
    assert sorted(t.view(n)["card"] for n in t.config.names) == sorted(
        ["seer", "peddler", "phantom_mage", "phantom_mage", "strategist"])
    assert all(t.view(n)["memos"] == [] for n in t.config.names)
    assert t.view("Nobody") == {}
    cues = t.answer("done")
    assert cues[0] == Say("night.begin", {"night": 1})


# --- the night: 「占い師→霊能者(2日目の夜から)→香具師→幻影魔導師→恋人」 -------------------------------

def test_the_first_night_calls_each_card_then_the_check_after_each_swap():
    t = Table(players=5, countdown=6, check_role=3)
    cues = t.answer("done")
    assert cues == [
        Say("setup.deal"), Say("setup.place"), Countdown(10),
        Say("night.begin", {"night": 1}),
        Say("seer.wake"), Say("seer.act"), Countdown(6), Say("night.sleep"),
        Say("peddler.wake"), Say("peddler.act"), Countdown(6),  # no 顔を下ろして: the check raises everyone's
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("phantom_mage.wake_numbered", {"n": 1}), Say("phantom_mage.act"), Countdown(6),
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("phantom_mage.wake_numbered", {"n": 2}), Say("phantom_mage.act"), Countdown(6),
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("night.end", {"day": 1}),
        Say("day.discussion", {"day": 1, "seconds": 180, "days": 3}), Timer("discussion", 180, (60, 10)),
        Say("day.discussion_end"), Say("nomination.ready"), CountIn("nomination.count_in"), Timer("point", 5),
        Say("nomination.declare"), Ask("nomination.werewolf_found", ("yes", "no"), ends_game=("yes",)),
    ]


def test_a_night_with_no_card_to_call_goes_straight_to_the_morning():
    t = Table(players=4, cards="strategist=1,on_break=3", days=2)
    cues = t.answer("done")
    assert lines(cues)[2:5] == ["night.begin", "night.end", "day.discussion"]


def test_the_medium_wakes_from_the_second_night_and_is_told_yesterdays_nominees():
    t = Table(players=6, names="Aki,Ben,Chika,Dai,Emi,Fumi", countdowns="medium=4")
    night1 = t.answer("done")
    assert "medium.wake" not in lines(night1)
    t.to("nomination.who").answer(["Ben", "Emi"])
    t.to("strategist.question", ["no"]).answer("no")
    cues = t.answer("done")  # redealt: night 2
    k = lines(cues).index("medium.wake")
    assert lines(cues)[k:k + 3] == ["medium.wake", "medium.act_names", "night.sleep"]
    assert Say("medium.act_names", {"names": ["Ben", "Emi"]}) in cues and Countdown(4) in cues


def test_the_medium_without_names_says_the_generic_line():
    t = Table(players=6)
    t.to("nomination.werewolf_found", ["done"]).answer("no")
    t.answer("no")  # the strategist question
    cues = t.answer("done")
    assert "medium.act" in lines(cues) and "medium.act_names" not in lines(cues)


def test_a_discussion_until_the_table_is_done_on_the_last_day_says_so():
    t = Table(players=5, discussion=0, days=1)
    t.answer("done")
    assert t.last[-2:] == [Say("day.discussion_open_last", {"day": 1}), Ask("setup.ready", ("done",))]


def test_the_timed_discussion_of_the_last_day_says_it_is_the_last():
    t = Table(players=5, days=1, discussion=90, warnings="60,90,120")
    cues = t.answer("done")
    k = cues.index(Say("day.discussion_last", {"day": 1, "seconds": 90}))
    assert cues[k:k + 2] == [Say("day.discussion_last", {"day": 1, "seconds": 90}), Timer("discussion", 90, (60,))]


# --- the nomination and its answers: which answers end the game (confirmed before they count) -

@pytest.mark.parametrize("options, found_ends", [
    ({"players": 5}, ("yes",)),                                        # strategist, no lovers
    ({"players": 5, "days": 1}, ("yes",)),                             # the last day: a strategist may still be asked
    ({"players": 4, "cards": "seer=1,peddler=1,phantom_mage=1,on_break=1"}, ("yes",)),
    ({"players": 4, "cards": "seer=1,peddler=1,phantom_mage=1,on_break=1", "days": 1}, ("yes", "no")),
    ({"players": 7}, ()),                                              # lovers asked next: yes does not end it
    ({"players": 7, "days": 1}, ()),
    ({"players": 6, "roles": "citizen=3,traitor=2,werewolf=1", "cards": "seer=2,peddler=1,lovers=2,on_break=1",
      "days": 1}, ("no",)),
])
def test_the_werewolf_question_ends_the_game_only_on_the_answers_that_do(options, found_ends):
    t = Table(**options).to("nomination.werewolf_found")
    assert t.ask == Ask("nomination.werewolf_found", ("yes", "no"), ends_game=found_ends)


def test_the_strategist_question_ends_the_game_on_no_only_on_the_last_day():
    t = Table(players=5, days=2).to("nomination.werewolf_found")
    t.answer("no")
    assert t.ask == Ask("strategist.question", ("yes", "no"), ends_game=())
    t.answer("no")
    t.to("nomination.werewolf_found").answer("no")
    assert t.ask == Ask("strategist.question", ("yes", "no"), ends_game=("no",))
    cues = t.answer("no")
    assert cues == [Say("end.no_werewolf", {"days": 2}), Say("end.reveal_cards"),
                    End("end.werewolves_win", "werewolves", outcome={"lovers_lose": False})]


def test_a_found_werewolf_with_lovers_in_play_asks_whether_it_was_a_lover():
    t = Table(players=7).to("nomination.werewolf_found")
    cues = t.answer("yes")
    assert cues == [Say("nomination.flip"), Ask("end.lovers_question", ("yes", "no"), ends_game=("yes", "no"))]
    cues = t.answer("yes")
    assert cues == [End("end.citizens_win_lovers_lose", "citizens", outcome={"lovers_lose": True})]
    assert t.state.winner == "citizens"


def test_the_werewolf_question_takes_only_yes_or_no():
    t = Table(players=5).to("nomination.werewolf_found")
    t.refused("maybe", "expected yes or no, got 'maybe'")


def test_named_nominees_are_declared_and_an_unknown_name_is_refused():
    t = Table(names=NAMES5).to("nomination.who")
    assert t.ask == Ask("nomination.who", tuple(NAMES5.split(",")), multiple=True)
    t.refused(["Aki", "Zed"], r"unknown player 'Zed'; players: Aki, Ben, Chika, Dai, Emi")
    t.refused([], r"unknown player ''")
    cues = t.answer("Chika")
    assert cues == [Say("nomination.declare_names", {"names": ["Chika"]}),
                    Ask("nomination.werewolf_found", ("yes", "no"), ends_game=("yes",))]


def test_without_names_and_without_a_pointing_pause_the_nominees_declare_at_once():
    t = Table(players=5, point=0).to("nomination.werewolf_found")
    assert lines(t.last)[-3:] == ["nomination.count_in", "nomination.declare", "nomination.werewolf_found"]


# --- 策士: 「他のプレイヤー2人を選び … それぞれのプレイヤーに1枚ずつ役職カードを返す」 ---------------------

def test_the_strategist_exchange_with_a_fixed_time_then_the_redeal():
    t = Table(players=5, strategist=15, check_role=4, redeal=20).to("nomination.werewolf_found")
    t.answer("no")
    cues = t.answer("yes")
    assert cues == [Say("strategist.reveal"), Say("strategist.exchange"), Countdown(15),
                    Say("strategist.check"), Countdown(4), Say("strategist.place"), Say("strategist.done"),
                    Say("redeal.collect"), Countdown(20), Say("redeal.look"), Say("night.begin", {"night": 2}),
                    *cues[11:]]


def test_two_named_strategists_each_exchange_and_a_third_is_never_asked():
    t = Table(names=NAMES5, cards="seer=1,peddler=1,strategist=2,on_break=1").to("nomination.who")
    t.answer(["Aki", "Ben", "Chika"])
    t.answer("no")
    t.answer("yes")
    cues = t.answer("done")
    assert cues[-1] == Ask("strategist.another", ("yes", "no"), ends_game=())
    t.answer("yes")
    cues = t.answer("done")
    assert "strategist.another" not in lines(cues) and "redeal.collect" in lines(cues)


def test_one_named_nominee_holds_at_most_one_strategist_card():
    t = Table(names=NAMES5, cards="seer=1,peddler=1,strategist=2,on_break=1").to("nomination.who")
    t.answer(["Aki"])
    t.answer("no")
    t.answer("yes")
    cues = t.answer("done")
    assert "strategist.another" not in lines(cues) and lines(cues)[-3:] == ["redeal.collect", "redeal.look", "setup.ready"]


# --- resume ----------------------------------------------------------------------------------

def test_resume_says_where_the_game_picks_up():
    t = Table(players=5)
    assert GAME.recap(t.config, t.state) == [Say("resume.recap_start")]
    t.to("nomination.werewolf_found")
    assert GAME.recap(t.config, t.state) == [Say("resume.recap_day", {"day": 1})]
    t.answer("no")
    t.answer("no")
    t.answer("done")
    t.to("nomination.werewolf_found")
    assert GAME.recap(t.config, t.state) == [Say("resume.recap_day", {"day": 2})]


def test_resume_after_the_last_call_of_a_night_without_a_swap_lowers_heads():
    rules, config = configure(players=4, cards="seer=1,strategist=1,on_break=2")
    state, _ = rules.advance(config, rules.new_state(), {"type": "start"})
    state, _ = rules.advance(config, state, {"type": "answer", "value": "done"})  # deal
    state, _ = rules.advance(config, state, {"type": "continue"})  # night begins
    state, _ = rules.advance(config, state, {"type": "continue"})  # the seer: the last call
    assert rules.recap(config, state) == [Say("resume.recap_night", {"night": 1})]


# --- digital cards: the phones hold the cards, the narrator performs each ability ------------

def digital(predicate=lambda t: True, names=NAMES5, **options):
    """The first seeded deal for which `predicate(table)` holds (deterministic)."""
    for seed in range(300):
        t = Table(names=names, digital_cards="true", seed=seed, **options)
        if predicate(t):
            return t
    raise AssertionError("no seed dealt that")


def roles(t):
    return {n: t.role(n) for n in t.config.names}


def test_the_seer_looks_at_another_players_card_on_the_phone_and_never_at_his_own():
    t = digital()
    t.answer("done")
    seer = t.holders("seer")[0]
    assert t.ask == Ask("seer.act_phone", tuple(t.config.names), player=seer)
    assert t.may_pick(seer) == tuple(n for n in t.config.names if n != seer)
    t.refused(seer, f"the card does not let {seer} choose '{seer}'")
    t.refused("Zed", r"unknown player 'Zed'; players: Aki, Ben, Chika, Dai, Emi$")
    others = [n for n in t.config.names if n != seer]
    t.refused(others[:2], "unknown player")  # one card is looked at, not two
    target = others[0]
    before = roles(t)
    cues = t.answer([target])
    assert cues[0] == Say("night.sleep")
    assert t.view(seer)["memos"] == [{"kind": "seer", "night": 1, "target": target, "role": before[target]}]
    assert roles(t) == before


def test_the_peddler_swaps_his_own_card_with_one_other_and_may_not_name_himself():
    t = digital()
    t.answer("done")
    t.answer(t.may_pick(t.ask.player)[0])  # the seer
    peddler = t.holders("peddler")[0]
    assert t.ask == Ask("peddler.act_phone", tuple(t.config.names), player=peddler)
    assert peddler not in t.may_pick(peddler)
    t.refused(peddler, "does not let")
    target = next(n for n in t.config.names if n != peddler)
    before = roles(t)
    cues = t.answer(target)
    assert cues[:3] == [Say("night.check_phone"), Countdown(5), Say("night.sleep")]  # one 顔を下ろして
    assert roles(t) == before | {peddler: before[target], target: before[peddler]}


def test_the_phantom_mage_swaps_two_players_himself_allowed_but_not_one_player_twice():
    t = digital()
    t.answer("done")
    t.answer(t.may_pick(t.ask.player)[0])
    t.answer(t.may_pick(t.ask.player)[0])
    mage = t.holders("phantom_mage")[0]
    assert t.ask == Ask("phantom_mage.act_phone", tuple(t.config.names), player=mage)
    assert mage in t.may_pick(mage)  # 「誰かと誰か(自分含んでもいいです)」
    before = roles(t)
    other = next(n for n in t.config.names if n != mage)
    assert t.answer(mage) == [Ask("phantom_mage.act_phone_second", tuple(t.config.names), player=mage)]
    assert t.may_pick(mage) == tuple(n for n in t.config.names if n != mage)
    t.refused(mage, "does not let")
    assert roles(t) == before  # nothing moves until both are chosen
    t.answer(other)
    assert roles(t) == before | {mage: before[other], other: before[mage]}


def test_the_medium_looks_only_at_one_of_yesterdays_nominees():
    t = digital(names="Aki,Ben,Chika,Dai,Emi,Fumi",
                predicate=lambda t: not {"Ben", "Emi"} & {n for n in t.config.names if t.role(n) == "werewolf"})
    t.to("nomination.who")
    t.answer(["Ben", "Emi"])
    t.to("medium.act_phone")
    medium = t.holders("medium")[0]
    assert t.ask == Ask("medium.act_phone", ("Ben", "Emi"), player=medium)
    outsider = next(n for n in t.config.names if n not in ("Ben", "Emi") and n != medium)
    t.refused(outsider, f"the medium looks at one of yesterday's nominees, not '{outsider}'")
    before = roles(t)
    t.answer("Emi")
    assert t.view(medium)["memos"][-1] == {"kind": "medium", "night": 2, "target": "Emi", "role": before["Emi"]}


def test_the_lovers_see_each_other_and_each_pair_is_kept_apart():
    names = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"
    t = digital(names=names, roles="citizen=4,traitor=2,werewolf=2", cards="seer=2,medium=1,lovers=4,on_break=1",
                countdowns="lovers=6")
    cues = t.answer("done")
    while not any(isinstance(c, Say) and c.line == "night.end" for c in cues):
        cues = t.answer(t.may_pick(t.ask.player)[0])
    lovers = t.holders("lovers")
    first, second = tuple(lovers[:2]), tuple(lovers[2:])
    k = cues.index(Say("lovers.wake_numbered", {"n": 1}))
    assert cues[k:k + 4] == [Say("lovers.wake_numbered", {"n": 1}), Say("lovers.act_phone"), Countdown(6),
                             Say("night.sleep")]
    assert Say("lovers.wake_numbered", {"n": 2}) in cues
    for a, b in (first, second):
        assert t.view(a)["memos"][-1] == {"kind": "lovers", "night": 1, "partner": b}
        assert t.view(b)["memos"][-1] == {"kind": "lovers", "night": 1, "partner": a}


def _wolf(t):
    return next(n for n in t.config.names if t.role(n) == "werewolf")


def test_a_nominated_werewolf_is_found_by_the_narrator_and_the_citizens_win():
    t = digital(cards="seer=1,medium=1,strategist=1,on_break=2")
    t.to("nomination.who")
    wolf = _wolf(t)
    innocent = next(n for n in t.config.names if t.role(n) == "citizen")
    cues = t.answer([innocent, wolf])
    assert cues == [Say("nomination.found_digital", {"names": [wolf]}),
                    End("end.citizens_win", "citizens", outcome={"lovers_lose": False})]
    assert t.view(wolf)["won"] is False and t.view(innocent)["won"] is True
    traitor = next(n for n in t.config.names if t.role(n) == "traitor")
    assert t.view(traitor)["won"] is False


# (a werewolf strategist nominated: a scenario, narrator/games/additional_werewolf/scenarios.toml)


def test_nobody_found_the_additional_cards_are_redealt_and_after_the_last_day_the_werewolves_win():
    t = digital(cards="seer=1,medium=1,on_break=3", days=2, look=7)
    t.to("nomination.who")
    innocent = [n for n in t.config.names if t.role(n) == "citizen"][:2]
    cues = t.answer(innocent)
    assert cues[:3] == [Say("nomination.none_digital", {"names": innocent}), Say("redeal.digital"), Countdown(7)]
    t.to("nomination.who")
    innocent = [n for n in t.config.names if t.role(n) == "citizen"][:1]
    cues = t.answer(innocent)
    assert cues == [Say("nomination.none_digital", {"names": innocent}), Say("end.no_werewolf", {"days": 2}),
                    End("end.werewolves_win", "werewolves", outcome={"lovers_lose": False})]
    wolf = _wolf(t)
    assert t.view(wolf)["won"] is True and t.view(innocent[0])["won"] is False


def test_a_werewolf_lover_found_makes_his_pair_lose_and_the_other_pair_win_by_their_cards():
    names = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"

    def wolf_lover_and_citizen_pair(t):
        pairs = [t.holders("lovers")[:2], t.holders("lovers")[2:]]
        return (any(t.role(n) == "werewolf" for n in pairs[0]) and all(t.role(n) == "citizen" for n in pairs[1])
                and [t.role(n) for n in pairs[0]].count("werewolf") == 1
                and any(t.role(n) == "citizen" for n in pairs[0]))

    t = digital(wolf_lover_and_citizen_pair, names=names, roles="citizen=4,traitor=2,werewolf=2",
                cards="seer=2,medium=1,lovers=4,on_break=1")
    pairs = [t.holders("lovers")[:2], t.holders("lovers")[2:]]
    wolf = next(n for n in pairs[0] if t.role(n) == "werewolf")
    citizen_lover = next(n for n in pairs[0] if t.role(n) == "citizen")
    t.to("nomination.who")
    cues = t.answer([wolf])
    assert cues == [Say("nomination.found_digital", {"names": [wolf]}),
                    End("end.citizens_win_lovers_lose", "citizens", outcome={"lovers_lose": True})]
    assert t.view(citizen_lover)["won"] is False  # 「恋人プレイヤーは役職に関わらず負け」
    assert all(t.view(n)["won"] is True for n in pairs[1])  # the other pair: citizens, they win


def test_the_strategist_takes_two_other_cards_looks_and_hands_one_back_to_each():
    t = digital(cards="seer=1,medium=1,strategist=1,on_break=2", check_role=6,
                predicate=lambda t: t.role(t.holders("strategist")[0]) == "citizen")
    t.to("nomination.who")
    me = t.holders("strategist")[0]
    others = tuple(n for n in t.config.names if n != me)
    cues = t.answer([me])
    assert cues == [Say("nomination.none_digital", {"names": [me]}), Say("strategist.reveal_name", {"name": me}),
                    Ask("strategist.pick_phone", others, player=me)]
    t.refused(me, f"the strategist takes the cards of two other players, not '{me}'")
    a, b = others[0], others[2]
    assert t.answer(a) == [Ask("strategist.pick_second", others, player=me)]
    assert t.may_pick(me) == tuple(n for n in others if n != a)
    t.refused(a, f"not '{a}'")
    before = roles(t)
    types = tuple(t.config.roles)
    assert t.answer(b) == [Ask("strategist.give_phone", types, {"name": a}, player=me)]
    assert t.view(me)["memos"][-1] == {"kind": "strategist", "day": 1,
                                       "cards": {me: before[me], a: before[a], b: before[b]}}
    hand = sorted([before[me], before[a], before[b]])
    assert sorted(t.view(me)["hand"]) == hand and "hand" not in t.view(a)
    assert t.may_pick(me) == tuple(r for r in types if r in hand)
    missing = next((r for r in types if r not in hand), None)
    if missing:
        t.refused(missing, re.escape(f"'{missing}' is not among the strategist's three cards: "
                                     f"{', '.join(t.view(me)['hand'])}") + "$")
    give_a = hand[-1]
    assert t.answer(give_a) == [Ask("strategist.give_phone", types, {"name": b}, player=me)]
    rest = list(hand)
    rest.remove(give_a)
    assert sorted(t.view(me)["hand"]) == sorted(rest)
    assert t.may_pick(me) == tuple(r for r in types if r in rest)
    cues = t.answer(rest[0])
    assert cues[:4] == [Say("strategist.check_phone"), Countdown(6), Say("strategist.done"), Say("redeal.digital")]
    assert (t.role(a), t.role(b), t.role(me)) == (give_a, rest[0], rest[1])
    assert "hand" not in t.view(me)


def test_two_nominated_strategists_exchange_in_seat_order():
    t = digital(cards="seer=1,strategist=2,on_break=2",
                predicate=lambda t: all(t.role(n) != "werewolf" for n in t.holders("strategist")))
    t.to("nomination.who")
    first, second = t.holders("strategist")
    cues = t.answer([second, first])
    assert cues[-2:] == [Say("strategist.reveal_name", {"name": first}),
                         Ask("strategist.pick_phone", tuple(n for n in t.config.names if n != first), player=first)]
    for k in range(4):
        assert ("hand" in t.view(first)) is (k >= 2)  # the first of two queued sees his three cards
        cues = t.answer(t.may_pick(first)[0])
    assert cues[-2:] == [Say("strategist.reveal_name", {"name": second}),
                         Ask("strategist.pick_phone", tuple(n for n in t.config.names if n != second), player=second)]


@pytest.mark.parametrize("options", [{"players": 5}, {"players": 5, "night_order": "peddler,seer,phantom_mage"}])
def test_resume_right_after_a_role_check_says_the_check_again_not_lower_your_heads(options):
    """The last call of the 5-player night is a phantom mage (its check leads to the morning);
    with the peddler called first, its check is the night's first step after a call."""
    rules, config = configure(**options)
    state, _ = rules.advance(config, rules.new_state(), {"type": "start"})
    state, _ = rules.advance(config, state, {"type": "answer", "value": "done"})
    state, _ = rules.advance(config, state, {"type": "continue"})  # night 1 begins
    first_check = None
    while state.step != "discussion":
        before = state.step
        state, cues = rules.advance(config, state, {"type": "continue"})
        if before == "night_check":
            first_check = first_check or state
            assert rules.recap(config, state) == [Say("resume.recap_check", {"night": 1})]
        elif state.step != "discussion":
            assert rules.recap(config, state)[0] == Say("resume.recap_night", {"night": 1})
    assert first_check is not None


def test_the_redeal_moves_the_additional_cards_the_same_way_on_every_replay():
    moved = False
    for seed in range(6):
        cards_seen = []
        for _ in range(2):  # the same seed twice: a resumed game is dealt the same cards
            t = digital(lambda t, seed=seed: t.config.seed == seed, cards="seer=1,medium=1,on_break=3")
            t.to("nomination.who")
            before = [t.view(n)["card"] for n in t.config.names]
            t.answer([next(n for n in t.config.names if t.role(n) != "werewolf")])
            cards_seen.append([t.view(n)["card"] for n in t.config.names])
        assert cards_seen[0] == cards_seen[1] and sorted(cards_seen[0]) == sorted(before)
        moved |= cards_seen[0] != before
    assert moved


def test_on_the_last_day_another_strategist_question_ends_the_game_on_no():
    t = Table(names=NAMES5, cards="seer=1,peddler=1,strategist=2,on_break=1", days=1).to("nomination.who")
    t.answer(["Aki", "Ben"])
    t.answer("no")
    t.answer("yes")
    cues = t.answer("done")
    assert cues[-1] == Ask("strategist.another", ("yes", "no"), ends_game=("no",))


def test_only_last_nights_lovers_lose_with_a_werewolf_found():
    """P-AW-4: 「恋人」 are the holders of the lovers cards on the night they saw each other, the
    last night: a werewolf who was a lover on night 1 but not on night 2 loses alone on day 2."""
    names = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen"

    def wolf_lover_then_not(t):
        wolf = _wolf(t)
        if wolf not in t.holders("lovers"):
            return False
        t.to("nomination.who")
        t.answer([next(n for n in t.config.names if t.role(n) == "citizen")])
        return wolf not in t.holders("lovers")  # the redeal took his lovers card

    t = digital(wolf_lover_then_not, names=names, cards="seer=2,medium=1,lovers=2,on_break=2")
    first_pair = [m["partner"] for m in t.view(_wolf(t))["memos"] if m["kind"] == "lovers"]
    t.to("nomination.who")
    cues = t.answer([_wolf(t)])
    assert cues[-1] == End("end.citizens_win", "citizens", outcome={"lovers_lose": False})
    assert all(t.view(n)["won"] is (t.role(n) == "citizen") for n in first_pair)


def test_each_day_counts_its_own_strategists():
    """Two strategist cards: the question 「もう1人の策士は？」 comes again on day 2, even when
    day 1 had one exchange."""
    t = Table(players=5, cards="seer=1,peddler=1,strategist=2,on_break=1").to("nomination.werewolf_found")
    t.answer("no")
    t.answer("yes")
    assert t.answer("done")[-1].line == "strategist.another"
    t.answer("no")
    t.to("nomination.werewolf_found").answer("no")
    t.answer("yes")
    assert t.answer("done")[-1] == Ask("strategist.another", ("yes", "no"), ends_game=())
