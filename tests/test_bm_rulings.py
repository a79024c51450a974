"""Bestia Magica's rulings as a table sees them, per step, per role and per house rule
(issue 29): memos and votes in; the lines said, the private results, the deaths, the
executions and the winners out.

The rule text is /work/shared/rules/bestia-magica.ja.txt; the house rules are the digest's
proposals (DIGEST.md 1c), each a named setting of definition.toml's [house_rules].
"""

import pytest

from narrator.cues import Countdown, End, Event, Private, Say, Timer
from narrator.errors import AnswerError
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


# --- the end: 「魔獣が全滅」「町民チームの数 ≤ 魔獣の数」, and the demon team's override ----------------
# (the town's and the beasts' wins, and the demon team's over the beasts, are scenarios:
# narrator/games/bestia_magica/scenarios.toml, played by tests/test_game_scenarios.py)

def test_the_murderer_counts_for_nobody_by_default_and_for_the_beasts_under_evil_count():
    deal = "Aki=beast:S,Ben=murderer:N,Chika=townsperson:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=townsperson:M"
    plain = Table(deal)
    plain.night(Aki="Chika", Ben="Dai")
    assert not plain.state.finished  # town 2 against 1 beast
    evil = Table(deal, evil_count="beasts")
    cues = evil.night(Aki="Chika", Ben="Dai")
    assert evil.state.winner == "beasts"  # town 2 against beast + murderer
    assert End("bm.end.beasts", "beasts", outcome={"winners": ["Aki", "Ben"]}) in cues


@pytest.mark.parametrize("deal, kill, ending", [
    ("Aki=demon:A,Ben=sleep_demon:M,Chika=beast:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S",
     None, "bm.end.demons.both.absent"),
    ("Aki=demon:A,Ben=angel:A,Chika=beast:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S",
     "Ben", "bm.end.demons.demon.dead"),
    ("Aki=sleep_demon:M,Ben=angel:A,Chika=beast:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S",
     "Ben", "bm.end.demons.sleep_demon.dead"),
])
def test_the_demon_team_wins_over_the_town_when_no_angel_lives(deal, kill, ending):
    t = Table(deal)
    t.night(Chika=kill or "Dai", Aki="Emi", Ben="Emi")
    cues = t.execute("Chika")
    demons = [n for n in ("Aki", "Ben") if t.state.player(n).role in ("demon", "sleep_demon")]
    k = cues.index(Say("bm.end.over"))
    assert cues[k:k + 4] == [Say("bm.end.over"), Say("bm.end.reason.town"),
                             End(ending, "demons", outcome={"winners": demons}),
                             Say("bm.end.winners", {"names": demons})]


def test_a_living_angel_stops_the_demon_team_and_the_town_wins():
    deal = "Aki=demon:A,Ben=angel:A,Chika=beast:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S"
    t = Table(deal)
    t.night(Chika="Dai", Aki="Emi", Ben="Emi")
    cues = t.execute("Chika")
    assert End("bm.end.town", "town", outcome={"winners": ["Ben", "Dai", "Emi", "Fumi"]}) in cues
    assert not said(cues, "bm.end.reason.town")


def test_a_dead_demon_wins_nothing_the_override_needs_a_living_demon():
    deal = "Aki=demon:A,Chika=beast:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S"
    t = Table(deal)
    t.night(Chika="Aki", Aki="Emi")
    cues = t.execute("Chika")
    assert End("bm.end.town", "town", outcome={"winners": ["Dai", "Emi", "Fumi"]}) in cues


# --- the night, role by role and house rule by house rule ------------------------------------

NIGHT = ("Aki=beast:S,Ben=guard:M,Chika=murderer:N,Dai=townsperson:S,Emi=townsperson:M,Fumi=prophet:S,"
         "Gen=undertaker:M,Hana=townsperson:S,Ivo=townsperson:M")


def test_the_guard_blocks_the_beasts_attack_and_the_protected_lives():
    t = Table(NIGHT)
    cues = t.night(Aki="Dai", Ben="Dai", Chika="Hana")
    assert deaths(cues) == {"Hana": "kill"} and t.alive("Dai")
    assert [(e.player, e.cause) for e in events(cues, "protect")] == [("Dai", "guard"), ("Dai", "blocked")]


def test_the_guard_may_protect_himself_only_under_guard_self():
    assert "Ben" not in Table(NIGHT).request("Ben").choices
    t = Table(NIGHT, guard_self=True)
    assert "Ben" in t.request("Ben").choices
    cues = t.night(Aki="Ben", Ben="Ben", Chika="Hana")
    assert deaths(cues) == {"Hana": "kill"} and t.alive("Ben")


def test_the_murderer_who_targets_the_guard_kills_him_and_the_guards_ward_still_stands():
    t = Table(NIGHT)
    cues = t.night(Aki="Dai", Ben="Dai", Chika="Ben")
    assert deaths(cues) == {"Ben": "kill"} and t.alive("Dai")


def test_a_night_order_with_the_murder_before_the_guard_lets_the_murderer_kill_the_ward():
    order = "sleep,murder,guard,reform,curse,attack,curse_deaths,anima,results"
    t = Table(NIGHT, night_order=order)
    cues = t.night(Aki="Emi", Ben="Dai", Chika="Dai")
    assert deaths(cues) == {"Dai": "kill", "Emi": "attack"}


def test_the_prophet_reads_the_role_the_target_began_the_night_with():
    t = Table(NIGHT)
    cues = t.night(Aki="Hana", Ben="Dai", Chika="Emi", Fumi="Aki")
    assert [(p.line, p.params) for p in privates(cues, "Fumi")] == [("bm.private.prophet.B", {"target": ["Aki"]})]
    t.execute("Ivo")
    cues = t.night(Aki="Dai", Ben="Gen", Chika="Fumi", Fumi="Chika")  # the prophet killed tonight
    assert not t.alive("Fumi") and privates(cues, "Fumi") == []


def test_the_undertaker_reads_every_death_since_last_time_once_and_nobody_new_says_so():
    t = Table(NIGHT)
    cues = t.night(Aki="Hana", Ben="Dai", Chika="Emi", Gen="Dai")
    assert [(p.line, p.params) for p in privates(cues, "Gen")] == [
        ("bm.private.undertaker.H", {"target": ["Emi"]}), ("bm.private.undertaker.H", {"target": ["Hana"]})]


def test_the_undertaker_with_nobody_new_dead_hears_none_and_reads_the_executed_next_night():
    t = Table("Aki=beast:S,Ben=guard:M,Gen=undertaker:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S")
    cues = t.night(Aki="Dai", Ben="Dai")
    assert [p.line for p in privates(cues, "Gen")] == ["bm.private.undertaker.none"]
    t.execute("Emi")
    cues = t.night(Aki="Fumi", Ben="Dai")
    assert [(p.line, p.params) for p in privates(cues, "Gen")] == [
        ("bm.private.undertaker.H", {"target": ["Emi"]}), ("bm.private.undertaker.H", {"target": ["Fumi"]})]


def test_the_murderer_reads_as_set_by_murderer_reads_to_the_undertaker_too():
    deal = "Aki=beast:S,Ben=murderer:N,Gen=undertaker:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Hana=townsperson:S"
    for reads in ("H", "U"):
        t = Table(deal, murderer_reads=reads)
        t.night(Aki="Dai", Ben="Emi")
        t.execute("Ben")
        cues = t.night(Aki="Fumi")
        assert (f"bm.private.undertaker.{reads}", {"target": ["Ben"]}) in [(p.line, p.params) for p in privates(cues, "Gen")]


def test_the_saint_reforms_only_a_murderer_or_a_curse_caster():
    deal = "Aki=beast:S,Ben=saint:M,Chika=curse_caster:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S"
    t = Table(deal)
    cues = t.night(Ben="Dai", Aki="Emi", Chika="Fumi")
    assert events(cues, "reform") == [] and [p.line for p in privates(cues, "Dai")] == ["bm.private.nothing"]
    t2 = Table(deal)
    cues = t2.night(Ben="Chika", Aki="Emi", Chika="Fumi")
    assert [e.player for e in events(cues, "reform")] == ["Chika"]
    assert [p.line for p in privates(cues, "Chika")] == ["bm.private.reformed"]
    assert [(e.player, e.cause) for e in events(cues, "curse")] == [("Fumi", "void")]


def test_a_reformed_player_is_a_townsperson_on_the_next_nights_memo():
    deal = "Aki=beast:S,Ben=saint:M,Chika=curse_caster:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:N"
    t = Table(deal)
    assert t.request("Chika").line == "bm.memo.curse"
    t.night(Ben="Chika", Aki="Emi", Chika="Fumi")
    t.execute("Gen")
    assert t.request("Chika").line == "bm.memo.suspect"


def test_curse_void_on_reform_off_keeps_the_curse_of_a_caster_reformed_the_same_night():
    deal = "Aki=beast:S,Ben=saint:M,Chika=curse_caster:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:N"
    t = Table(deal, curse_void_on_reform=False)
    cues = t.night(Ben="Chika", Aki="Emi", Chika="Fumi")
    assert [(e.player, e.cause) for e in events(cues, "curse")] == [("Fumi", "curse_caster")]
    t.execute("Gen")
    cues = t.night(Ben="Dai", Aki="Dai")
    assert deaths(cues) == {"Dai": "attack", "Fumi": "curse"}


CURSED = "Aki=beast:S,Ben=guard:M,Chika=curse_caster:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:N,Hana=townsperson:S"


def test_curse_delay_sets_the_dawn_the_cursed_dies():
    t = Table(CURSED, curse_delay=2)
    t.night(Chika="Dai", Aki="Emi", Ben="Emi")
    t.execute("Gen")
    assert "Dai" not in deaths(t.night(Aki="Hana", Ben="Hana"))
    t.execute("Fumi")
    assert deaths(t.night(Aki="Emi", Ben="Emi")) == {"Dai": "curse"}


def test_the_casters_death_voids_the_curse_only_under_curse_void_on_caster_death():
    for void, dies in ((False, True), (True, False)):
        t = Table(CURSED, curse_void_on_caster_death=void)
        t.night(Chika="Dai", Aki="Emi", Ben="Emi")
        t.execute("Chika")
        cues = t.night(Aki="Hana", Ben="Hana")
        assert ("Dai" in deaths(cues)) is dies
        assert (("Dai", "void") in [(e.player, e.cause) for e in events(cues, "curse")]) is void


def test_the_guard_stops_a_curse_only_under_guard_blocks_curse():
    for blocks in (False, True):
        t = Table(CURSED, guard_blocks_curse=blocks)
        t.night(Chika="Dai", Aki="Emi", Ben="Emi")
        t.execute("Gen")
        cues = t.night(Aki="Hana", Ben="Dai")
        assert t.alive("Dai") is blocks
        assert (("Dai", "blocked") in [(e.player, e.cause) for e in events(cues, "protect")]) is blocks


SLEEP = ("Aki=beast:S,Ben=sleep_demon:M,Chika=murderer:N,Dai=saint:S,Emi=prophet:M,Fumi=guard:S,"
         "Gen=townsperson:M,Hana=townsperson:S,Ivo=angel:A,Jun=curse_caster:S")


def test_whoever_the_sleep_demon_puts_to_sleep_does_nothing_that_night():
    t = Table(SLEEP, curse_delay=1)
    cues = t.night(Ben="Chika", Chika="Gen", Aki="Hana", Fumi="Emi")  # the murderer asleep
    assert deaths(cues) == {"Hana": "attack"} and [e.player for e in events(cues, "sleep")] == ["Chika"]
    t = Table(SLEEP)
    cues = t.night(Ben="Dai", Dai="Chika", Aki="Hana", Chika="Gen", Fumi="Emi")  # the saint asleep
    assert events(cues, "reform") == [] and not t.state.player("Chika").reform_pending
    t = Table(SLEEP)
    cues = t.night(Ben="Jun", Jun="Gen", Aki="Hana", Chika="Emi", Fumi="Emi")  # the curse caster asleep
    assert events(cues, "curse") == []
    t = Table(SLEEP)
    cues = t.night(Ben="Emi", Emi="Aki", Aki="Hana", Chika="Gen", Fumi="Gen")  # the prophet asleep
    assert [p.line for p in privates(cues, "Emi")] == ["bm.private.no_result"]
    assert [p.line for p in privates(cues, "Gen")] == ["bm.private.nothing"]


def test_two_sleep_demons_each_put_one_player_to_sleep():
    deal = "Aki=beast:S,Ben=sleep_demon:M,Chika=sleep_demon:S,Dai=guard:S,Emi=prophet:M,Fumi=townsperson:S,Gen=townsperson:M,Hana=angel:A"
    t = Table(deal)
    cues = t.night(Ben="Chika", Chika="Dai", Aki="Fumi", Dai="Fumi")
    assert [e.player for e in events(cues, "sleep")] == ["Chika", "Dai"]  # one asleep does not stop the other
    assert deaths(cues) == {"Fumi": "attack"}


def test_a_sleeping_beast_stops_only_its_own_pick_unless_sleep_blocks_all_beasts():
    deal = "Aki=beast:S,Jun=beast:M,Ben=sleep_demon:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:M,Hana=angel:A,Ivo=townsperson:S"
    t = Table(deal)
    assert deaths(t.night(Ben="Aki", Aki="Dai", Jun="Emi")) == {"Emi": "attack"}
    t = Table(deal, sleep_blocks_all_beasts=True)
    assert deaths(t.night(Ben="Aki", Aki="Dai", Jun="Emi")) == {}
    t = Table(deal, sleep_blocks_all_beasts=True)
    assert deaths(t.night(Ben="Dai", Aki="Emi", Jun="Emi")) == {"Emi": "attack"}


def test_a_sleeping_player_answers_the_questionnaire_in_vain_only_under_sleep_voids_attribute():
    deal = "Aki=beast:M,Ben=sleep_demon:M,Chika=townsperson:S,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=angel:A"
    for voids, attribute in ((False, "S"), (True, "none")):
        t = Table(deal, sleep_voids_attribute=voids)
        t.night(ability=("Chika", "Dai"), Ben="Chika", Aki="Emi")
        assert said(t.cues, f"bm.morning.attribute.{attribute}")


def test_sleep_voids_attribute_keeps_a_sleeping_anima_holder_from_reviving():
    deal = "Aki=beast:S,Ben=sleep_demon:M,Chika=angel:A,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:M"
    for voids, revived in ((False, ["Dai"]), (True, [])):
        t = Table(deal, sleep_voids_attribute=voids)
        cues = t.night(ability=("Chika",), Ben="Chika", Aki="Dai")
        assert [e.player for e in events(cues, "revival")] == revived
        assert t.state.player("Chika").anima_used is (not voids)


def test_anima_revives_a_player_the_undertaker_then_never_reads():
    deal = "Aki=beast:S,Ben=angel:A,Gen=undertaker:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Hana=townsperson:M"
    t = Table(deal)
    cues = t.night(ability=("Ben",), Aki="Dai")
    assert said(cues, "bm.morning.revived") == [Say("bm.morning.revived", {"names": ["Dai"]})]
    assert said(cues, "bm.morning.deaths") == [Say("bm.morning.deaths", {"names": ["Dai"]})]
    assert [p.line for p in privates(cues, "Gen")] == ["bm.private.undertaker.none"]
    assert t.alive("Dai") and [r.player for r in t.collect.requests].count("Dai") == 1


def test_anima_pool_tonight_dead_revives_only_one_who_died_tonight():
    deal = "Aki=beast:S,Ben=angel:A,Chika=guard:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:M"
    for pool, revived in (("all_dead", ["Gen"]), ("tonight_dead", [])):
        t = Table(deal, anima_pool=pool)
        t.night(Aki="Dai", Chika="Dai")
        t.execute("Gen")
        cues = t.night(ability=("Ben",), Aki="Emi", Chika="Emi")
        assert [e.player for e in events(cues, "revival")] == revived
        assert t.state.player("Ben").anima_used is bool(revived)


def test_a_dead_anima_holder_revives_nobody():
    deal = "Aki=beast:S,Ben=angel:A,Chika=townsperson:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S"
    t = Table(deal)
    t.night(Aki="Chika")
    t.execute("Ben")
    assert "Ben" not in [r.player for r in t.collect.requests]
    cues = t.night(Aki="Dai")
    assert events(cues, "revival") == []


# --- the morning's suspicion and the questionnaire -------------------------------------------

SUSPECT = "Aki=beast:S,Ben=prophet:M,Chika=townsperson:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=guard:M,Gen=townsperson:N"


def test_the_most_suspected_are_named_in_seat_order_from_the_suspects_memos_only():
    t = Table(SUSPECT)
    cues = t.night(Aki="Gen", Ben="Chika", Fumi="Chika", Chika="Emi", Dai="Aki", Emi="Aki", Gen="Emi")
    assert suspected(cues) == [["Aki", "Emi"]]  # the prophet's and the guard's picks are no suspicion


def test_beasts_suspect_counts_the_beasts_pick_as_a_suspicion():
    t = Table(SUSPECT, beasts_suspect=True, guard_self=True)
    cues = t.night(Aki="Gen", Fumi="Gen", Ben="Chika", Chika="Emi", Dai="Aki", Emi="Aki", Gen="Emi")
    assert suspected(cues) == [["Aki", "Emi"]]
    t = Table(SUSPECT, beasts_suspect=True)
    cues = t.night(Aki="Emi", Fumi="Emi", Ben="Chika", Chika="Emi", Dai="Aki", Emi="Aki", Gen="Emi")
    assert suspected(cues) == [["Emi"]]


def test_a_sleeping_players_suspicion_does_not_count():
    deal = SUSPECT + ",Hana=sleep_demon:M"
    t = Table(deal)
    cues = t.night(Hana="Gen", Aki="Chika", Fumi="Chika", Ben="Chika", Chika="Emi", Dai="Aki", Emi="Aki", Gen="Emi")
    assert suspected(cues) == [["Aki"]]


def test_attribute_min_yes_sets_how_many_yes_make_an_attribute():
    for minimum, attribute in ((2, "S"), (3, "none")):
        t = Table(SUSPECT, attribute_min_yes=minimum)
        t.night(ability=("Chika", "Emi"), Aki="Gen", Fumi="Gen")
        assert said(t.cues, f"bm.morning.attribute.{attribute}") and said(t.cues, f"bm.vote.attribute.{attribute}")
    t = Table(SUSPECT, attribute_min_yes=1)
    t.night(ability=("Dai",), Aki="Gen", Fumi="Gen")
    assert said(t.cues, "bm.morning.attribute.M")


def test_a_missing_memo_is_no_action_and_no_yes():
    t = Table(SUSPECT)
    answers = {r.player: {"target": r.choices[0], "ability": True} for r in t.collect.requests}
    del answers["Aki"]  # the beast wrote nothing before the memo's timer ended
    cues = t.answer(answers)
    assert deaths(cues) == {}


# --- the vote's weights and ties, exactly --------------------------------------------------

@pytest.mark.parametrize("attribute, options", [("S", {}), ("M", {"mese_effect": "double_vote"})])
def test_a_doubled_vote_counts_two_not_more(attribute, options):
    other = "M" if attribute == "S" else "S"
    deal = (f"Aki=beast:{other},Ben=townsperson:{attribute},Chika=townsperson:{other},Dai=townsperson:N,"
            f"Emi=townsperson:{attribute},Fumi=townsperson:N")
    t = Table(deal, **options)
    t.night(ability=("Ben", "Emi"), Aki="Emi")  # Emi's yes counts: the memos were written before she died
    assert said(t.cues, f"bm.morning.attribute.{attribute}")
    # Ben's doubled vote: Dai 2 against Fumi 3 (counted 3, it would be a tie)
    cues = t.vote(Ben="Dai", Aki="Fumi", Chika="Fumi", Dai="Fumi", Fumi="Ben")
    assert executed(cues) == [("Fumi", "vote")]


def test_a_tie_is_named_in_seat_order_not_in_the_order_of_the_names():
    deal = "Zen=beast:S,Yui=townsperson:M,Xan=townsperson:S,Wei=townsperson:N,Val=townsperson:S"
    t = Table(deal)
    t.night(Zen="Val")
    cues = t.vote(Zen="Xan", Yui="Wei", Xan="Wei", Wei="Xan")
    assert cues[0] == Say("bm.vote.tie", {"names": ["Xan", "Wei"]})
    assert cues[1] == Say("bm.revote.begin")  # the tie line named them; the revote's line does not again


def test_the_tie_goes_to_a_revote_by_the_others_and_its_winner_is_executed_with_the_revotes_cause():
    deal = SMALL + ",Fumi=townsperson:M"
    t = Table(deal, vote=25)
    t.night(Aki="Ben")
    cues = t.vote(Aki="Chika", Chika="Dai", Dai="Chika", Emi="Dai", Fumi="Aki")
    assert cues == [Say("bm.vote.tie", {"names": ["Chika", "Dai"]}), Say("bm.revote.begin"),
                    Timer("vote", 25), t.collect]
    assert [(r.player, r.line, r.choices, r.params) for r in t.collect.requests] == [
        (n, "bm.revote.prompt", ("Chika", "Dai"), {"names": ["Chika", "Dai"]}) for n in ("Aki", "Emi", "Fumi")]
    cues = t.vote(Aki="Dai", Emi="Dai", Fumi="Chika")
    assert cues[:2] == [Say("bm.vote.executed", {"name": ["Dai"]}), Event("execution", "Dai", "revote", day=1)]
    assert t.state.tie == () and cues[2] == Say("bm.night.begin", {"night": 2})


def test_a_revote_tied_again_is_drawn_among_the_revotes_leaders():
    deal = SMALL + ",Fumi=townsperson:M,Gen=townsperson:S"
    t = Table(deal)
    t.night(Aki="Ben")
    t.vote(Aki="Chika", Chika="Dai", Dai="Emi", Emi="Chika", Fumi="Dai", Gen="Emi")  # Chika, Dai, Emi: 2 each
    cues = t.vote(Aki="Chika", Fumi="Dai", Gen="Emi")  # 1 each again
    assert cues[:2] == [Say("bm.revote.still_tied", {"names": ["Chika", "Dai", "Emi"]}), Say("bm.revote.random")]
    name = executed(cues)[0][0]
    assert executed(cues) == [(name, "random")] and cues[2] == Say("bm.vote.drawn", {"name": [name]})
    assert cues[3] == Event("execution", name, "random", day=1)


def test_the_random_draw_follows_the_seed_and_the_day():
    drawn = set()
    for seed in range(8):
        t = Table(SMALL, seed=seed)
        t.night(Aki="Ben")
        cues = t.vote(Aki="Chika", Chika="Dai", Dai="Emi", Emi="Aki")
        again = Table(SMALL, seed=seed)
        again.night(Aki="Ben")
        assert executed(again.vote(Aki="Chika", Chika="Dai", Dai="Emi", Emi="Aki")) == executed(cues)
        drawn |= {executed(cues)[0][0]}
    assert len(drawn) > 1


def test_the_reveal_reads_each_days_execution():
    t = Table(SMALL)
    t.night(Aki="Ben")
    cues = t.vote(Chika="Aki", Dai="Aki", Emi="Aki", Aki="Chika")
    k = cues.index(Say("bm.reveal.vote", {"day": 1}))
    assert cues[k + 1] == Say("bm.reveal.executed", {"name": ["Aki"]})


def test_resume_between_an_execution_and_the_next_night_says_the_next_night():
    t = Table(SMALL)
    t.night(Aki="Ben")
    votes = {r.player: {"vote": {"Chika": "Dai"}.get(r.player, "Chika")} for r in t.collect.requests}
    state, cues = RULES.advance(t.config, t.state, {"type": "answer", "value": votes})
    assert cues[0] == Say("bm.vote.executed", {"name": ["Chika"]})
    assert RULES.recap(t.config, state) == [Say("bm.resume.night", {"night": 2})]


def test_a_tied_player_may_not_vote_in_the_revote():
    t = Table(SMALL + ",Fumi=townsperson:M")
    t.night(Aki="Ben")
    t.vote(Aki="Chika", Chika="Dai", Dai="Chika", Emi="Dai", Fumi="Aki")
    answers = {"Aki": {"vote": "Dai"}, "Emi": {"vote": "Dai"}, "Fumi": {"vote": "Chika"}, "Chika": {"vote": "Dai"}}
    with pytest.raises(AnswerError, match="day 1: Chika may not give a revote now"):
        t.answer(answers)


def test_the_first_vote_of_the_day_asks_every_living_player_for_a_vote_not_a_revote():
    t = Table(SMALL)
    t.night(Aki="Ben")
    assert t.collect.phase == "vote" and t.collect.number == 1
    assert [(r.player, r.line, r.params) for r in t.collect.requests] == [
        (n, "bm.vote.prompt", {}) for n in ("Aki", "Chika", "Dai", "Emi")]


def test_the_nights_deaths_are_announced_in_seat_order():
    deal = "Zen=beast:S,Yui=murderer:N,Xan=townsperson:S,Wei=townsperson:M,Val=townsperson:S,Uma=townsperson:M,Tom=townsperson:S"
    t = Table(deal)
    cues = t.night(Zen="Val", Yui="Xan")
    assert said(cues, "bm.morning.deaths") == [Say("bm.morning.deaths", {"names": ["Xan", "Val"]})]


def test_the_evil_humans_count_one_each_for_the_beasts_under_evil_count():
    deal = ("Aki=beast:S,Ben=murderer:N,Chika=townsperson:S,Dai=townsperson:M,Emi=townsperson:S,"
            "Fumi=townsperson:M,Gen=townsperson:S")
    t = Table(deal, evil_count="beasts")
    t.night(Aki="Chika", Ben="Dai")
    assert not t.state.finished  # town 3 against beast + murderer 2
    t.execute("Ben")
    t.night(Aki="Emi")
    assert not t.state.finished  # town 2 against the beast alone
    t.execute("Fumi")
    assert t.state.winner == "beasts"  # town 1 against 1


def test_the_transcript_records_each_nights_acts_with_their_cause():
    t = Table(SLEEP)
    cues = t.night(Ben="Emi", Dai="Chika", Fumi="Gen", Aki="Hana", Chika="Hana", Jun="Ivo")
    assert Event("sleep", "Emi", "sleep_demon", night=1) in cues
    assert Event("reform", "Chika", "saint", night=1) in cues
    assert Event("protect", "Gen", "guard", night=1) in cues
    assert Event("death", "Hana", "kill", night=1) in cues


def test_a_second_saint_still_reforms_when_the_first_names_someone_who_cannot_be_reformed():
    deal = "Aki=beast:S,Ben=saint:M,Chika=saint:S,Dai=murderer:N,Emi=townsperson:M,Fumi=townsperson:S,Gen=townsperson:M"
    t = Table(deal)
    cues = t.night(Ben="Emi", Chika="Dai", Aki="Fumi", Dai="Gen")
    assert [e.player for e in events(cues, "reform")] == ["Dai"]


def test_the_reveal_reads_every_night_and_its_deaths_then_each_days_execution():
    t = Table(SMALL)
    t.night(Aki="Ben")
    cues = t.vote(Chika="Aki", Dai="Aki", Emi="Aki", Aki="Chika")
    k = cues.index(Say("bm.reveal.night", {"night": 1}))
    assert cues[k + 1:k + 4] == [Say("bm.reveal.act.attack", {"name": ["Aki"], "target": ["Ben"]}),
                                 Say("bm.reveal.death.attack", {"name": ["Ben"]}), Say("bm.reveal.vote", {"day": 1})]


def test_anima_pool_tonight_dead_revives_one_who_died_tonight():
    deal = "Aki=beast:S,Ben=angel:A,Chika=townsperson:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S"
    t = Table(deal, anima_pool="tonight_dead")
    cues = t.night(ability=("Ben",), Aki="Dai")
    assert Event("revival", "Dai", "anima", night=1) in cues and t.alive("Dai")


UNDERTAKER = "Aki=beast:S,Ben=sleep_demon:M,Gen=undertaker:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,Hana=angel:A"


def test_the_undertaker_reads_the_dead_without_writing_a_memo_and_hears_nothing_asleep():
    t = Table(UNDERTAKER)
    answers = {r.player: {"target": {"Aki": "Dai", "Ben": "Emi"}.get(r.player, r.choices[0]), "ability": False}
               for r in t.collect.requests if r.player != "Gen"}
    cues = t.answer(answers)
    assert [(p.line, p.params) for p in privates(cues, "Gen")] == [("bm.private.undertaker.H", {"target": ["Dai"]})]
    t = Table(UNDERTAKER)
    cues = t.night(Aki="Dai", Ben="Gen")
    assert [p.line for p in privates(cues, "Gen")] == ["bm.private.no_result"]
    assert [p.line for p in privates(cues, "Emi")] == ["bm.private.nothing"]


def test_a_warning_as_long_as_the_timer_is_not_said():
    t = Table(SMALL, discussion=60, warnings="60,10")
    cues = t.night(Aki="Ben")
    assert Timer("discussion", 60, (10,)) in cues
