"""Additional Werewolf's rulings as a table sees them, per step, per role card and per
additional card (issue 29): answers in, the lines said, the question asked (and which of its
answers end the game), the cards a phone shows, the choice refused and the winner out.

The rule text is /work/shared/rules/additional-werewolf.ja.txt (DIGEST.md section 2); each
test names the passage it holds the game to. The phone's view is read through the game's
contract (`GAME.phones`), as the phone page reads it.
"""

import pytest

from narrator.cues import Ask, Countdown, End, Say, Timer
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
        while True:
            self.state, cues = self.rules.advance(self.config, self.state, event)
            out += cues
            if self.state.finished or (cues and isinstance(cues[-1], Ask)):
                self.cues += out
                return out
            event = {"type": "continue"}

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
        """Answer `answers` in turn, then `done` until the question `line` is asked."""
        answers = list(answers)
        for _ in range(200):
            if self.ask.line == line:
                return self
            self.answer(answers.pop(0) if answers else "done")
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
        Say("peddler.wake"), Say("peddler.act"), Countdown(6), Say("night.sleep"),
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("phantom_mage.wake_numbered", {"n": 1}), Say("phantom_mage.act"), Countdown(6), Say("night.sleep"),
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("phantom_mage.wake_numbered", {"n": 2}), Say("phantom_mage.act"), Countdown(6), Say("night.sleep"),
        Say("night.check_role"), Countdown(3), Say("night.put_back"), Say("night.sleep"),
        Say("night.end", {"day": 1}),
        Say("day.discussion", {"day": 1, "seconds": 180, "days": 3}), Timer("discussion", 180, (60, 10)),
        Say("day.discussion_end"), Say("nomination.ready"), Say("nomination.count_in"), Timer("point", 5),
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
