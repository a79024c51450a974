"""The kernel's rulings as a table sees them: the shipped game files (one-night, werewolf,
tabula) played in-process with a fixed deal, answers in; who is woken and asked, whom a
holder may pick, what each one is shown, who died in the night (in seat order), who won by
which rule, and the answers refused.

The deal lists each seat's card in seat order, then the centre's.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from narrator.cues import Ask, Continue, Countdown, Event, Private, Say, Timer
from narrator.errors import AnswerError
from narrator.games.kernel import engine, judge
from narrator.games.kernel.state import KConfig
from tests.kernel_table import NAMES, Table, lines, said, shown, spec_of

FIVE = ["werewolf", "seer", "knight", "villager", "villager"]          # Aki wolf, Ben seer, Chika knight
SIX = ["werewolf", "seer", "knight", "medium", "madman", "villager"]   # Dai medium, Emi madman
TABULA = ["werewolf", "werewolf", "madman", "seer", "psychic", "hunter", "villager", "fox"]  # Hana the fox


# --- the night's deaths (judge.night_deaths) -----------------------------------------------

def test_an_unguarded_attack_kills_and_the_morning_names_the_dead_with_the_night():
    t = Table("werewolf", FIVE)
    t.answer("done", "Dai", "Dai")           # night 1: the seer divines Dai; day 1: Dai executed
    morning = t.answer("Aki", "Ben", "Chika")  # night 2: seer, knight guards Ben, the wolf attacks Chika
    assert said(morning, "wolf.killed")[0].params == {"names": ["Chika"]}
    assert Event("death", "Chika", "night", night=2) in morning
    assert not said(morning, "wolf.no_death")
    assert t.state.dead == ("Dai", "Chika")
    assert t.ask.line == "wolf.vote" and t.ask.choices == ("Aki", "Ben", "Emi")  # the dead are not voted for


def test_the_knight_guarding_the_attacked_saves_him():
    t = Table("werewolf", FIVE)
    t.answer("done", "Dai", "Dai")
    morning = t.answer("Aki", "Emi", "Emi")
    assert said(morning, "wolf.no_death") and not said(morning, "wolf.killed")
    assert "Emi" not in t.state.dead and not [c for c in morning if isinstance(c, Event)]


def test_the_attack_and_the_divined_fox_die_the_same_night_named_in_seat_order():
    t = Table("tabula", TABULA)
    t.answer("done", "Gen", "Gen")  # night 1: the seer (Dai) divines Gen; day 1: Gen executed
    morning = t.answer("Hana", "Emi", "Chika", "Chika")  # night 2: the seer divines the fox, the hunter guards Emi, both wolves attack the madman
    assert said(morning, "wolf.killed")[0].params == {"names": ["Chika", "Hana"]}
    assert [e.player for e in morning if isinstance(e, Event)] == ["Chika", "Hana"]
    assert t.state.dead == ("Gen", "Chika", "Hana")


def test_the_fox_attacked_survives_and_the_dead_do_not_die_twice():
    t = Table("tabula", TABULA)
    t.answer("done", "Gen", "Gen")
    morning = t.answer("Emi", "Dai", "Hana", "Hana")  # the wolves attack the fox
    assert said(morning, "wolf.no_death") and "Hana" not in t.state.dead
    # the seer divines the fox the next night: it dies of that, once
    t.answer("Chika")                   # day 2: the madman executed
    morning = t.answer("Hana", "Emi", "Emi", "Emi")  # the seer, the knight, both wolves
    assert said(morning, "wolf.killed")[0].params == {"names": ["Hana"]}
    assert t.state.dead.count("Hana") == 1


# --- who won, by which rule (judge.multi_night, one_night, told) ---------------------------

def test_parity_leaves_the_fox_uncounted_and_the_living_fox_takes_the_wolves_win():
    t = Table("tabula", ["werewolf", "seer", "villager", "fox"])
    t.answer("done", "Chika")            # the seer divines the villager
    end = t.answer("Chika")              # the villager executed: one wolf, one seer (and the fox)
    assert t.end.line == "wolf.win.fox" and t.end in end and t.state.winner == "fox"
    assert t.end.outcome == {} and t.state.rule is None


def test_parity_needs_as_many_wolves_as_the_others_and_the_madman_counts_against_them():
    t = Table("werewolf", SIX)           # 1 wolf against 5: execute the villager, then attack
    t.answer("done", "Fumi", "Fumi")
    assert not t.state.finished          # 1 wolf, 4 others (the madman among them)
    t.answer("Aki", "Ben", "Dai")        # night 2: the medium is attacked, unguarded
    assert not t.state.finished and t.ask.line == "wolf.vote"  # 1 against 3
    t.answer("Chika")                    # the knight executed: 1 against 2
    assert not t.state.finished
    t.answer("Aki", "Ben")               # night 3: the knight is dead; the seer attacked
    assert t.state.finished and t.state.winner == "werewolves"  # 1 wolf, 1 madman: parity
    assert t.end.line == "wolf.win.werewolves"


def test_the_village_wins_when_the_last_wolf_is_executed_and_not_before():
    t = Table("tabula", TABULA)
    end = t.answer("done", "Aki", "Aki")
    assert not t.state.finished and "wolf.win.village" not in lines(end)  # Ben is still a wolf
    t.answer("Gen", "Emi", "Gen")        # night 2: Gen attacked
    end = t.answer("Ben")
    assert t.state.finished and t.state.winner == "fox"  # the village's win, but the fox is alive
    t2 = Table("werewolf", FIVE)
    t2.answer("done", "Aki", "Aki")
    assert t2.state.winner == "village" and t2.end.line == "wolf.win.village"
    assert judge.outcome(t2.config, t2.state) == {"winner": "village", "rule": None, "dead": ["Aki"],
                                                  "executed": ["Aki"]}


ONE_NIGHT = ["werewolf", "seer", "thief", "villager", "werewolf", "villager"]  # Aki a lone wolf


def test_one_night_reveals_everyone_executed_and_one_werewolf_among_them_wins_for_the_village():
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    end = t.answer("done", "Dai", "nobody", "yes", "Ben,Aki")  # a tie: both executed (tie = "all")
    assert said(end, "wolf.executed")[0].params == {"names": ["Ben", "Aki"]}
    assert [c.params for c in said(end, "wolf.reveal")] == [
        {"name": "Ben", "cards": [["wolf.role.seer", 1]]}, {"name": "Aki", "cards": [["wolf.role.werewolf", 1]]}]
    assert t.state.winner == "village" and t.end.outcome == {"rule": "found"}
    assert t.state.executed == ("Ben", "Aki") and t.state.day == 1
    assert judge.outcome(t.config, t.state)["rule"] == "found"


def test_one_night_nobody_executed_is_peace_only_when_no_hand_holds_a_werewolf():
    peace = Table("one-night", ["villager", "seer", "thief", "villager", "werewolf", "werewolf"])
    end = peace.answer("done", "centre", "nobody", "no")  # both wolves in the centre: nobody to look
    assert lines(end)[-2:] == ["wolf.nobody_executed", "wolf.win.village"] and peace.end.outcome == {"rule": "peace"}
    war = Table("one-night", ONE_NIGHT)
    war.answer("done", "centre2", "centre", "nobody", "no")  # the lone wolf looks, then the seer
    assert war.state.winner == "werewolves" and war.end.outcome == {"rule": "otherwise"}
    assert war.state.step == "over" and war.state.day == 1


def test_the_thiefs_new_card_decides_and_the_old_one_no_longer_counts():
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    end = t.answer("done", "centre", "Aki", "yes", "Chika")  # the thief took Aki's werewolf; the thief executed
    assert shown(t.cues, "Chika")[-1] == Private("Chika", "wolf.new_card", {"cards": [["wolf.role.werewolf", 1]]})
    assert said(end, "wolf.reveal")[0].params["cards"] == [["wolf.role.werewolf", 1]]
    assert t.state.winner == "village"
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    t.answer("done", "centre", "Aki", "yes", "Aki")  # Aki holds the thief's card now
    assert t.state.winner == "werewolves"


WEREWOLF = [["wolf.role.werewolf", 1]]


@pytest.mark.parametrize("answers, winner, rule", [
    (["yes", "yes"], "village", "found"), (["yes", "no"], "werewolves", "otherwise"),
    (["no", "yes"], "werewolves", "otherwise"), (["no", "no"], "village", "peace")])
def test_physical_cards_the_table_tells_what_the_cards_say(answers, winner, rule):
    t = Table("one-night", cards="physical", players=4)
    t.answer("done")
    assert t.ask.line == "wolf.executed_any" and t.ask.choices == ("yes", "no") and not t.ask.ends_game
    asked = t.answer(answers[0])
    if answers[0] == "no":  # nobody had two fingers: nobody executed; does any hand hold a werewolf?
        assert t.ask == Ask("wolf.role_among", ("yes", "no"), {"cards": WEREWOLF}, ends_game=("yes", "no"))
        assert lines(asked) == ["wolf.nobody_executed", "wolf.turn_all", "wolf.role_among"]
    else:  # the executed turn their cards: was a werewolf among them?
        assert t.ask == Ask("wolf.executed_role", ("yes", "no"), {"cards": WEREWOLF}, ends_game=("yes", "no"))
        assert lines(asked) == ["wolf.turn_executed", "wolf.executed_role"]
    end = t.answer(answers[1])
    assert t.state.winner == winner and t.end.outcome == {"rule": rule} and t.end.line == f"wolf.win.{winner}"
    assert end[-1].winner == winner


def test_a_file_without_a_peace_rule_gives_the_peace_to_its_last_rule():
    t = Table("one-night", cards="physical", players=4)
    t.spec = replace(t.spec, wins=tuple(w for w in t.spec.wins if w.kind != "peace"))
    t.answer("done", "no")  # nobody executed: no peace rule here, so nothing to ask
    assert t.state.winner == "werewolves" and t.end.outcome == {"rule": "otherwise"}


def test_physical_cards_with_names_ask_who_and_say_them():
    t = Table("one-night", cards="physical", names=("Aki", "Ben", "Chika", "Dai"))
    t.answer("done", "yes")
    assert t.ask.line == "wolf.who_executed" and t.ask.choices == ("Aki", "Ben", "Chika", "Dai") and t.ask.multiple
    out = t.answer("Ben,Dai,Ben")
    assert said(out, "wolf.executed")[0].params == {"names": ["Ben", "Dai"]}
    assert t.ask.line == "wolf.executed_role" and t.ask.ends_game == ("yes", "no")
    assert t.state.executed == ("Ben", "Dai")
    with pytest.raises(AnswerError, match="expected yes or no, got 'maybe'"):
        t.answer("maybe")
    t.answer("no")
    assert t.state.winner == "werewolves"


def test_one_night_with_one_finger_each_nobody_can_be_named_executed():
    """The published rule: the most fingers are executed, all of them in a tie, but one finger
    each executes nobody; so at most half the table can have had two fingers or more."""
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    t.answer("done", "Dai", "nobody", "yes")
    assert t.ask.line == "wolf.who_executed"
    assert t.ask.most == 2  # refused live, as typed, said or tapped: the question stays open
    from narrator.inputs.words import Vocabulary, parse_answer
    from narrator.phones.answers import check_value
    with pytest.raises(AnswerError, match="name at most 2"):
        parse_answer(t.ask, "Aki,Ben,Chika", Vocabulary())
    assert check_value(["Aki", "Ben", "Chika"], t.ask.choices, True, t.ask.most) == "choose at most 2"
    with pytest.raises(AnswerError, match="at most 2"):
        t.answer("Aki,Ben,Chika")  # a log that holds it: three of four with two fingers each, eight fingers from four
    end = t.answer("Aki,Ben")
    assert t.state.executed == ("Aki", "Ben") and t.state.winner == "village"
    nobody = Table("one-night", ONE_NIGHT, lone_look=False)
    end = nobody.answer("done", "Dai", "nobody", "no")  # one finger each: nobody executed, a wolf in a hand
    assert lines(end)[-2:] == ["wolf.nobody_executed", "wolf.win.werewolves"] and nobody.state.executed == ()


TANNER_SET = ["tanner", "seer", "thief", "werewolf", "villager", "werewolf"]  # Aki the tanner, Dai a lone wolf


def test_the_tanner_with_physical_cards_is_asked_before_the_werewolf_and_only_where_dealt():
    """One-night's tanner, a `found` rule above the werewolf's: with physical cards each `found`
    rule whose role is in the set is asked, in the file's order; a set without a tanner is never
    asked about one (a table that does not add it hears what it always did)."""
    t = Table("one-night", TANNER_SET, cards="physical")
    t.answer("done", "yes", "Aki")
    assert t.ask.params == {"cards": [["wolf.role.tanner", 1]]} and t.ask.ends_game == ("yes",)
    t.answer("no")  # no tanner among the executed: was a werewolf?
    assert t.ask.line == "wolf.executed_role" and t.ask.params == {"cards": WEREWOLF}
    assert t.ask.ends_game == ("yes", "no")
    t.answer("no")
    assert t.state.winner == "werewolves"
    tanner = Table("one-night", TANNER_SET, cards="physical")
    tanner.answer("done", "yes", "Aki", "yes")
    assert tanner.state.winner == "tanner" and tanner.end.outcome == {"rule": "found"}
    plain = Table("one-night", cards="physical", players=4)  # the file's set: no tanner
    plain.answer("done", "yes")
    assert plain.ask.params == {"cards": WEREWOLF} and plain.ask.ends_game == ("yes", "no")
    assert [c for c in plain.cues if getattr(c, "params", {}).get("cards") == [["wolf.role.tanner", 1]]] == []


def test_one_night_with_no_wolf_held_and_somebody_executed_nobody_wins():
    """Both wolves in the centre and a villager executed: the werewolves' rule holds but no hand
    holds their card, so nobody wins (never "the werewolves win" with no wolf at the table)."""
    t = Table("one-night", ["villager", "seer", "thief", "villager", "werewolf", "werewolf"])
    t.answer("done", "Aki", "nobody", "yes", "Aki")
    assert t.state.winner == "nobody" and t.end.line == "wolf.win.nobody"
    madman = Table("one-night", ["madman", "seer", "thief", "villager", "werewolf", "werewolf"])
    madman.answer("done", "Aki", "nobody", "yes", "Dai")  # the madman's side wins with no wolf held
    assert madman.state.winner == "werewolves"


# --- whom a holder may pick, and what they are shown (calls) -------------------------------

def test_the_wolves_may_not_attack_their_own_pack_but_may_attack_the_madman():
    t = Table("tabula", TABULA)
    t.answer("done", "Gen", "Gen", "Hana", "Emi")
    assert [r.player for r in t.ask.requests] == ["Aki", "Ben"]  # every living wolf picks
    assert t.asked("Aki").line == "wolf.call.werewolves.choose"
    assert t.asked("Aki").choices == ("Chika", "Dai", "Emi", "Fumi", "Hana")  # not Aki, not Ben, not the dead Gen
    assert t.asked("Ben").choices == ("Chika", "Dai", "Emi", "Fumi", "Hana")
    with pytest.raises(AnswerError, match="not a choice of this night call"):
        t.answer("Ben", "Chika")


def test_the_seer_may_not_pick_herself_and_sees_the_madman_human_and_a_wolf_werewolf():
    t = Table("werewolf", SIX)
    t.answer("done")
    assert t.asked().line == "wolf.call.seer.choose" and t.asked().player == "Ben"
    assert t.asked().choices == ("Aki", "Chika", "Dai", "Emi", "Fumi")
    with pytest.raises(AnswerError, match="^not a choice of this night call$"):  # neither whose nor which
        t.answer("Ben")
    with pytest.raises(AnswerError, match="not a choice of this night call"):
        t.answer(["Emi", "Fumi"])  # one seat divined a night, never two
    out = t.answer(["Emi"])  # a one-name list is that name
    assert shown(out, "Ben") == [Private("Ben", "wolf.result.human", {"name": "Emi"})]
    assert not shown(out, "Emi")
    t.answer("Fumi")
    out = t.answer("Aki")
    assert shown(out, "Ben") == [Private("Ben", "wolf.result.werewolf", {"name": "Aki"})]


def test_the_medium_is_shown_yesterdays_executed_from_night_two():
    t = Table("werewolf", SIX)
    t.answer("done", "Chika")
    assert "wolf.call.medium.wake" not in lines(t.cues)     # from night 2 only
    t.answer("Emi")                                         # the madman executed on day 1
    night2 = t.answer("Dai")                                # night 2: the seer divines; then the medium's call
    assert shown(night2, "Dai") == [Private("Dai", "wolf.result.human", {"name": "Emi"})]
    assert lines(night2) == ["wolf.result.human", "wolf.sleep", "wolf.call.medium.wake", "wolf.result.human",
                             "wolf.call.medium.act", "wolf.sleep", "wolf.call.knight.wake", "wolf.call.knight.choose"]
    assert [c.seconds for c in night2 if isinstance(c, Countdown)] == [10, 15]  # the medium's; the knight's call


def test_the_medium_after_a_day_without_execution_is_shown_nobody():
    t = Table("werewolf", SIX)
    t.answer("done", "Chika", "Emi,Fumi", "Emi,Fumi")  # tied twice: nobody executed
    assert said(t.cues, "wolf.no_execution")
    night2 = t.answer("Dai")
    assert shown(night2, "Dai") == [Private("Dai", "wolf.result.nobody")]


def test_the_wolves_meet_on_the_first_night_only_each_shown_the_other():
    t = Table("tabula", TABULA)
    t.answer("done")
    assert shown(t.cues, "Aki")[-1] == Private("Aki", "wolf.partners", {"names": ["Ben"]})
    assert shown(t.cues, "Ben")[-1] == Private("Ben", "wolf.partners", {"names": ["Aki"]})
    t.answer("Gen", "Gen")
    assert lines(t.cues).count("wolf.call.werewolves_meet.wake") == 1
    alone = Table("werewolf", FIVE)
    alone.answer("done")
    assert shown(alone.cues, "Aki")[-1] == Private("Aki", "wolf.alone")


def test_a_role_nobody_holds_is_not_called_but_a_dead_holders_call_goes_on():
    t = Table("werewolf", FIVE)  # no medium in the set: never called
    t.answer("done", "Dai")
    night2 = t.answer("Ben")          # the seer executed; night 2 up to the knight's guard
    assert "wolf.call.seer.wake" in lines(night2) and "wolf.call.seer.choose" in lines(night2)
    assert not any(isinstance(c, Ask) and c.line == "wolf.call.seer.choose" for c in night2)
    assert "wolf.call.medium.wake" not in lines(t.cues)


def _seer_step_with(**change):
    """The shipped werewolf file with its seer's call changed (`while`, `absent`)."""
    spec = spec_of("werewolf")
    return replace(spec, steps=tuple(replace(s, **change) if s.id == "seer" else s for s in spec.steps))


def test_a_call_while_alive_stops_once_its_holder_is_dead():
    t = Table("werewolf", FIVE, spec=_seer_step_with(while_="alive"))
    t.answer("done", "Dai")
    night2 = t.answer("Ben")  # the seer executed: her call is not made on night 2
    assert "wolf.call.seer.wake" not in lines(night2)
    assert "wolf.call.knight.wake" in lines(night2)  # the others' calls go on


def test_a_call_absent_skip_is_made_while_its_holder_lives_and_skipped_after():
    t = Table("werewolf", FIVE, spec=_seer_step_with(absent="skip"))
    night1 = t.answer("done")
    assert "wolf.call.seer.wake" in lines(night1)  # Ben holds the seer and lives: called
    t.answer("Dai")
    night2 = t.answer("Ben")
    assert "wolf.call.seer.wake" not in lines(night2)


def test_the_one_night_seer_looks_at_the_centre_or_a_card_and_the_thief_may_keep_his():
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    t.answer("done")
    assert t.asked().choices == ("Aki", "Chika", "Dai", "centre") and t.asked().player == "Ben"
    out = t.answer("centre")
    assert shown(out, "Ben") == [Private("Ben", "wolf.seen_centre",
                                         {"cards": [["wolf.role.werewolf", 1], ["wolf.role.villager", 1]]})]
    assert t.asked().choices == ("Aki", "Ben", "Dai", "nobody") and t.asked().player == "Chika"
    out = t.answer("nobody")
    assert shown(out, "Chika") == [Private("Chika", "wolf.kept_card", {"cards": [["wolf.role.thief", 1]]})]
    assert t.state.cards == tuple(ONE_NIGHT)
    t = Table("one-night", ONE_NIGHT, lone_look=False)
    out = t.answer("done", "Dai")
    assert shown(out, "Ben") == [Private("Ben", "wolf.seen_card", {"name": "Dai", "cards": [["wolf.role.villager", 1]]})]
    t.answer("Ben")
    assert t.state.cards[:3] == ("werewolf", "thief", "seer") and t.state.first == tuple(ONE_NIGHT)


def test_a_lone_wolf_may_look_at_one_centre_card_and_a_pack_of_two_may_not():
    """The published one-night rule: a wolf whose partner is in the centre may look at one centre
    card. The call says so whoever holds the wolves (so it tells nothing); the lone wolf alone
    is asked, and the table's `lone_look = false` turns it off."""
    t = Table("one-night", ONE_NIGHT)
    night = t.answer("done")
    assert "wolf.lone_look" in lines(night)
    assert t.asked().player == "Aki" and t.asked().choices == ("centre1", "centre2")
    assert t.asked().line == "wolf.lone_choose"
    assert shown(night, "Aki")[-1] == Private("Aki", "wolf.alone")
    out = t.answer("centre2")
    assert shown(out, "Aki") == [Private("Aki", "wolf.seen_centre_one", {"n": 2, "cards": [["wolf.role.villager", 1]]})]
    pack = Table("one-night", ["werewolf", "seer", "thief", "werewolf", "villager", "villager"])
    night = pack.answer("done")
    assert "wolf.lone_look" in lines(night) and pack.asked().player == "Ben"  # the wolves' call asked nobody
    off = Table("one-night", ONE_NIGHT, lone_look=False)
    night = off.answer("done")
    assert "wolf.lone_look" not in lines(night) and off.asked().player == "Ben"


def test_the_device_deal_shows_each_seat_its_card_and_says_the_box():
    t = Table("one-night", ONE_NIGHT)
    assert said(t.cues, "wolf.box")[0].params == {"cards": [["wolf.card.werewolf", 2], ["wolf.card.seer", 1],
                                                            ["wolf.card.thief", 1], ["wolf.card.villager", 2]]}
    you = [c for c in t.cues if isinstance(c, Private) and c.line == "wolf.you_are"]
    assert [(c.to, c.params["cards"][0][0]) for c in you] == [
        ("Aki", "wolf.role.werewolf"), ("Ben", "wolf.role.seer"), ("Chika", "wolf.role.thief"),
        ("Dai", "wolf.role.villager")]
    assert lines(t.cues)[:2] == ["wolf.welcome.one_night", "wolf.box"] and "wolf.deal_device" in lines(t.cues)
    assert said(t.cues, "wolf.welcome.one_night")[0].params == {"players": 4}
    assert t.ask.line == "wolf.ready" and t.ask.choices == ("done",)
    assert Countdown(5) in t.cues


def test_a_shuffled_deal_follows_the_seed_and_holds_the_set():
    spec = spec_of("werewolf")
    config = KConfig(game="werewolf", names=NAMES[:6], players=6, seed=3, roles=dict(spec.deal[6]), digital_cards=True)
    cards = engine.deal_cards(spec, config)
    assert sorted(cards) == sorted(r for r, n in spec.deal[6].items() for _ in range(n))
    assert engine.deal_cards(spec, config) == cards
    others = {engine.deal_cards(spec, KConfig(**{**config.__dict__, "seed": s})) for s in range(8)}
    assert len(others) > 1


def test_physical_cards_deal_the_centre_and_the_calls_keep_time_aloud():
    t = Table("one-night", cards="physical", players=4)
    assert said(t.cues, "wolf.deal_centre")[0].params == {"n": 2}
    out = t.answer("done")
    assert lines(out)[:5] == ["wolf.night", "wolf.call.one_night_werewolves.wake",
                              "wolf.call.one_night_werewolves.act", "wolf.lone_look", "wolf.sleep"]
    assert said(out, "wolf.night")[0].params == {"night": 1}
    assert [c.seconds for c in out if isinstance(c, Countdown)] == [10, 15, 15]
    assert not [c for c in out if isinstance(c, Private)]
    assert said(out, "wolf.discussion")[0].params == {"day": 1, "seconds": 180}
    assert [c for c in out if isinstance(c, Timer)] == [Timer("discussion", 180, (60, 10))]
    assert lines(out)[-3:] == ["wolf.discussion_end", "wolf.point", "wolf.executed_any"]


def test_a_countdown_setting_times_every_call_and_a_discussion_setting_every_day():
    t = Table("one-night", cards="physical", players=4, countdown=7, discussion=(90,), warnings=(120, 30))
    out = t.answer("done")
    assert [c.seconds for c in out if isinstance(c, Countdown)] == [7, 7, 7]
    assert [c for c in out if isinstance(c, Timer)] == [Timer("discussion", 90, (30,))]


def test_the_werewolf_discussion_shortens_each_day_and_the_last_repeats():
    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager", "villager", "villager",
                           "villager", "villager"])
    t.answer("done", "Dai", "Dai", "Emi", "Ben", "Emi", "Fumi", "Gen", "Ben", "Gen", "Hana", "Iku", "Ben", "Iku")
    seconds = [c.params["seconds"] for c in said(t.cues, "wolf.discussion")]
    assert seconds[:4] == [300, 240, 180, 120]
    assert [c.params["day"] for c in said(t.cues, "wolf.discussion")][:2] == [1, 2]


# --- the vote (engine._vote) ---------------------------------------------------------------

def test_a_tie_is_voted_again_among_the_tied_and_a_second_tie_executes_nobody():
    t = Table("werewolf", FIVE)
    out = t.answer("done", "Dai", "Dai,Emi")
    assert said(out, "wolf.revote")[0].params == {"names": ["Dai", "Emi"]}
    assert t.ask.line == "wolf.vote" and t.ask.choices == ("Dai", "Emi")
    with pytest.raises(AnswerError, match="name players among Dai, Emi, not 'Aki'"):
        t.answer("Aki")
    out = t.answer("Emi,Dai")
    assert said(out, "wolf.no_execution") and t.state.dead == () and t.state.executed == ()
    assert not [c for c in out if isinstance(c, Event)]
    assert said(out, "wolf.night")[0].params == {"night": 2}


def test_a_revote_that_settles_executes_the_one_named():
    t = Table("werewolf", FIVE)
    out = t.answer("done", "Dai", "Dai,Emi", "Emi")
    assert said(out, "wolf.executed")[0].params == {"names": ["Emi"]}
    assert Event("death", "Emi", "vote", day=1) in out
    assert t.state.dead == ("Emi",) and t.state.tied == ()
    # the next day's tie is voted again: the revote is not used up
    t.answer("Aki", "Ben", "Dai")
    out = t.answer("Aki,Ben")
    assert said(out, "wolf.revote")[0].params == {"names": ["Aki", "Ben"]}


def test_a_vote_for_nobody_the_dead_or_a_stranger_is_refused():
    t = Table("werewolf", FIVE)
    t.answer("done", "Dai", "Dai")
    t.answer("Aki", "Ben", "Chika")
    for bad in ([], ["Dai"], ["Zed"]):
        with pytest.raises(AnswerError, match="name players among Aki, Ben, Emi"):
            t.answer(bad)
    with pytest.raises(AnswerError, match="the game is waiting for an answer"):
        engine.advance(t.spec, t.config, t.state, Continue())


def test_a_finished_game_takes_no_more_steps_and_an_unknown_step_is_refused():
    t = Table("werewolf", FIVE)
    t.answer("done", "Aki", "Aki")
    assert engine.advance(t.spec, t.config, t.state, Continue()) == (t.state, [])
    with pytest.raises(ValueError, match="unknown step"):
        engine.advance(t.spec, t.config, replace(t.state, step="nap"), Continue())


# --- resuming (engine.recap) ---------------------------------------------------------------

def test_the_recap_says_where_the_game_picks_up():
    t = Table("werewolf", FIVE)
    assert engine.recap(t.spec, t.config, t.state) == [Say("wolf.recap_start")]
    t.answer("done")
    assert engine.recap(t.spec, t.config, t.state) == [Say("wolf.recap_night", {"night": 1})]
    t.answer("Dai")
    assert t.ask.line == "wolf.vote"
    assert engine.recap(t.spec, t.config, t.state) == [Say("wolf.recap_day", {"day": 1})]
    t.answer("Dai")
    assert engine.recap(t.spec, t.config, t.state) == [Say("wolf.recap_night", {"night": 2})]


def test_every_holder_of_a_choosing_role_acts_two_seers_and_two_knights():
    """Each seer divines and sees their own result; each knight guards (issue 36: only the first
    seated seer divined, the second heard that nothing was theirs tonight)."""
    deal = ["werewolf", "seer", "seer", "knight", "knight", "villager", "villager"]  # Aki … Gen
    t = Table("werewolf", deal)
    t.answer("done")
    assert [r.player for r in t.ask.requests] == ["Ben", "Chika"]
    out = t.answer("Aki", "Fumi")
    assert shown(out, "Ben")[-1] == Private("Ben", "wolf.result.werewolf", {"name": "Aki"})
    assert shown(out, "Chika")[-1] == Private("Chika", "wolf.result.human", {"name": "Fumi"})
    t.answer("Gen")  # day 1: Gen executed
    t.answer("Dai", "Ben")  # night 2: the seers divine
    assert [r.player for r in t.ask.requests] == ["Dai", "Emi"]
    morning = t.answer("Ben", "Chika", "Chika")  # the knights guard Ben and Chika; the wolf attacks Chika
    assert t.state.guards == ("Ben", "Chika") and said(morning, "wolf.no_death")


def test_a_holder_who_does_not_choose_in_the_calls_time_is_told_so_and_nothing_happens():
    """On the phones the call's countdown closes its round: the answers given count, a holder
    with none is told so; the wolves with no pick attack nobody."""
    t = Table("werewolf", FIVE)
    t.answer("done")
    out = t.answer_round({})  # the seer's call ended with no choice
    assert shown(out, "Ben")[-1] == Private("Ben", "wolf.too_late") and t.state.divined == ()
    t.answer("Dai")  # day 1: Dai executed
    t.answer("Emi")  # night 2: the seer
    t.answer_round({})  # the knight: none
    morning = t.answer_round({})  # the wolf: none
    assert shown(morning, "Aki")[-1] == Private("Aki", "wolf.pack_none") and said(morning, "wolf.no_death")
