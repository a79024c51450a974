"""Bestia Magica's rulings as a table sees them, per step, per role and per house rule
(issue 29): memos and votes in; the lines said, the private results, the deaths, the
executions and the winners out.

The rule text is /work/shared/rules/bestia-magica.ja.txt; the house rules are the digest's
proposals (DIGEST.md 1c), each a named setting of definition.toml's [house_rules].
"""

import pytest

from narrator.cues import Collect, Countdown, End, Event, Private, Say, Timer
from tests.bm_driver import RULES
from tests.bm_table import Table, deaths, events, privates, said

SMALL = "Aki=beast:S,Ben=townsperson:M,Chika=townsperson:S,Dai=townsperson:N,Emi=townsperson:S"


def executed(cues):
    return [(e.player, e.cause) for e in events(cues, "execution")]


def suspected(cues):
    return [s.params["names"] for s in said(cues, "bm.morning.suspected")]


# --- the start and the night's narration -----------------------------------------------------

def test_the_deal_tells_each_player_his_card_and_attribute_privately():
    t = Table("Aki=prophet:M,Ben=beast:S,Chika=townsperson:N,Dai=townsperson:S", look=7)
    assert t.cues[0] == Say("bm.setup.welcome", {"players": 4})
    k = t.cues.index(Say("bm.setup.deal"))
    assert t.cues[k + 1:k + 11] == [
        Private("Aki", "bm.private.card.prophet", {"name": "Aki"}), Private("Aki", "bm.private.attr.M"),
        Private("Ben", "bm.private.card.beast", {"name": "Ben"}), Private("Ben", "bm.private.attr.S"),
        Private("Chika", "bm.private.card.townsperson", {"name": "Chika"}), Private("Chika", "bm.private.attr.N"),
        Private("Dai", "bm.private.card.townsperson", {"name": "Dai"}), Private("Dai", "bm.private.attr.S"),
        Countdown(7), Say("bm.setup.begin")]


def test_the_night_begins_with_the_beasts_gesture_and_confirm_then_everyone_writes():
    t = Table(SMALL, beast_gesture=4, beast_confirm=3, memo=50, warnings="60,10")
    k = t.cues.index(Say("bm.night.begin", {"night": 1}))
    assert t.cues[k:-1] == [Say("bm.night.begin", {"night": 1}), Say("bm.night.beasts_wake"), Countdown(4),
                            Say("bm.night.beasts_confirm"), Countdown(3), Say("bm.night.beasts_sleep"),
                            Say("bm.night.memo"), Timer("memo", 50, (10,))]
    assert t.collect.phase == "night" and t.collect.number == 1
    assert [r.player for r in t.collect.requests] == ["Aki", "Ben", "Chika", "Dai", "Emi"]


def test_the_morning_then_the_discussion_then_the_vote_in_the_rule_texts_order():
    t = Table(SMALL, results=6, discussion=90, vote=20, warnings="60,10")
    cues = t.night(Aki="Ben", Chika="Aki", Dai="Aki", Emi="Chika", Ben="Aki")
    k = cues.index(Say("bm.night.results"))
    assert [type(c) for c in cues[:k]] == [Event] * len(cues[:k])
    tail = cues[cues.index(Countdown(6)):]
    assert tail == [
        Countdown(6), Say("bm.morning.begin", {"day": 1}), Say("bm.morning.deaths", {"names": ["Ben"]}),
        Say("bm.morning.suspected", {"names": ["Aki"]}), Say("bm.morning.attribute.none"),
        Event("attribute", None, "none", day=1, data={"counts": {"S": 0, "M": 0}}),
        Say("bm.day.discussion", {"day": 1, "seconds": 90}), Timer("discussion", 90, (60, 10)),
        Say("bm.day.discussion_end"),
        Say("bm.vote.attribute.none"), Say("bm.vote.begin"), Timer("vote", 20), t.collect]
    assert [r.player for r in t.collect.requests] == ["Aki", "Chika", "Dai", "Emi"]
    assert t.request("Chika").choices == ("Aki", "Dai", "Emi")


def test_a_night_without_deaths_says_so_and_the_counts_are_said_when_the_house_rule_asks():
    t = Table(SMALL + ",Fumi=guard:M", announce_counts=True)
    cues = t.night(ability=("Chika", "Emi", "Ben"), Aki="Ben", Fumi="Ben")
    assert said(cues, "bm.morning.no_deaths") and not said(cues, "bm.morning.deaths")
    assert said(cues, "bm.morning.counts") == [Say("bm.morning.counts", {"sole": 2, "mese": 1})]
    assert said(cues, "bm.morning.attribute.S")


def test_resume_says_which_turn_picks_up():
    t = Table(SMALL)
    assert RULES.recap(t.config, RULES.new_state()) == [Say("bm.resume.start")]
    assert RULES.recap(t.config, t.state) == [Say("bm.resume.night", {"night": 1})]
    t.night(Aki="Ben")
    assert RULES.recap(t.config, t.state) == [Say("bm.resume.day", {"day": 1})]
    t.vote(Aki="Chika", Chika="Dai", Dai="Chika", Emi="Chika")  # Chika executed: the day is over
    assert RULES.recap(t.config, t.state) == [Say("bm.resume.night", {"night": 2})]


# --- the vote --------------------------------------------------------------------------------

def test_the_executed_player_is_named_and_the_game_goes_on_to_the_next_night():
    t = Table(SMALL)
    t.night(Aki="Ben")
    cues = t.vote(Aki="Chika", Chika="Dai", Dai="Chika", Emi="Chika")
    assert cues[:2] == [Say("bm.vote.executed", {"name": ["Chika"]}), Event("execution", "Chika", "vote", day=1)]
    assert cues[2] == Say("bm.night.begin", {"night": 2})
    assert not t.alive("Chika")


def test_no_vote_before_the_timer_ends_executes_nobody():
    t = Table(SMALL)
    t.night(Aki="Ben")
    cues = t.answer({})
    assert cues[0] == Say("bm.vote.nobody") and cues[1] == Say("bm.night.begin", {"night": 2})
    assert all(t.alive(n) for n in ("Aki", "Chika", "Dai", "Emi"))


def test_mese_hiding_every_vote_executes_nobody_and_names_nobody():
    deal = "Aki=beast:S,Ben=townsperson:M,Chika=townsperson:M,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:S"
    t = Table(deal)
    t.night(ability=("Ben", "Chika", "Dai"), Aki="Emi")
    cues = t.vote(Aki="Ben", Ben="Chika", Chika="Dai", Dai="Ben", Fumi="Chika")
    assert cues[0] == Say("bm.vote.none_counted") and executed(cues) == []


def test_a_tie_among_every_living_player_leaves_nobody_to_revote_and_is_drawn():
    t = Table(SMALL)
    t.night(Aki="Ben")
    cues = t.vote(Aki="Chika", Chika="Dai", Dai="Emi", Emi="Aki")
    assert cues[0] == Say("bm.vote.tie", {"names": ["Aki", "Chika", "Dai", "Emi"]})
    assert cues[1] == Say("bm.revote.random")
    name, cause = executed(cues)[0]
    assert cause == "random" and cues[2] == Say("bm.vote.drawn", {"name": [name]})


def test_a_revote_nobody_answers_keeps_the_tie_and_names_the_tied_again():
    deal = SMALL + ",Fumi=townsperson:M"
    t = Table(deal)
    t.night(Aki="Ben")
    t.vote(Aki="Chika", Chika="Dai", Dai="Chika", Emi="Dai", Fumi="Aki")
    assert t.collect.phase == "revote"
    cues = t.answer({})
    assert cues[0] == Say("bm.revote.still_tied", {"names": ["Chika", "Dai"]})
    assert cues[1] == Say("bm.revote.random")
    assert executed(cues)[0][0] in ("Chika", "Dai") and executed(cues)[0][1] == "random"


def test_mese_double_vote_house_rule_doubles_the_mese_holders_votes():
    deal = "Aki=beast:S,Ben=townsperson:M,Chika=townsperson:M,Dai=townsperson:S,Emi=townsperson:S,Fumi=prophet:S"
    votes = dict(Ben="Dai", Chika="Dai", Aki="Emi", Dai="Emi", Emi="Aki")  # Dai 2, Emi 2, Aki 1 as counted plain
    t = Table(deal, mese_effect="double_vote")
    t.night(ability=("Ben", "Chika"), Aki="Fumi")
    assert executed(t.vote(**votes)) == [("Dai", "vote")]  # the two M-holders' votes count 2 each
    plain = Table(deal, mese_effect="double_vote")
    plain.night(Aki="Fumi")
    assert said(plain.vote(**votes), "bm.vote.tie") == [Say("bm.vote.tie", {"names": ["Dai", "Emi"]})]
