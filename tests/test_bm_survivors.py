"""Bestia Magica rulings that no test pinned (the survivors of bench/mutation.sh rules, see
bench/README.md): a night played at the scenario table, then what the table or one player
sees — the curses that fall at their dawn and not after, the most suspected in seat order,
a sleeping player's questionnaire, the private results, and the question still open."""

from __future__ import annotations

import pytest

from narrator.errors import AnswerError
from tests import bm_table
from tests.bm_table import Table, deaths, events, privates, said
from tests.bm_driver import RULES

CURSED = ("Aki=beast:S,Ben=guard:M,Chika=curse_caster:M,Dai=townsperson:S,Emi=townsperson:M,Fumi=townsperson:S,"
          "Gen=townsperson:N,Hana=townsperson:S")


def curses(cues) -> list[tuple[str, str]]:
    return [(e.player, e.cause) for e in events(cues, "curse")]


def test_a_night_waits_for_the_private_memos_and_says_so_to_a_bare_continue():
    t = Table(CURSED)
    with pytest.raises(AnswerError, match=r"^the game is waiting for private answers \(memos\), not 'continue'$"):
        RULES.advance(t.config, t.state, {"type": "continue"})


def test_a_curse_blocked_at_its_dawn_is_gone_it_does_not_fall_a_night_later():
    t = Table(CURSED, guard_blocks_curse=True)
    t.night(Chika="Dai", Aki="Emi", Ben="Emi")   # night 1: Dai cursed, due at the next dawn
    t.execute("Chika")                            # the caster's death does not void it (house rule)
    cues = t.night(Aki="Hana", Ben="Dai")         # night 2: the guard stops it
    assert deaths(cues) == {"Hana": "attack"} and ("Dai", "blocked") in [(e.player, e.cause) for e in events(cues, "protect")]
    t.execute("Gen")
    cues = t.night(Aki="Emi", Ben="Emi")          # night 3: nobody guards Dai, the curse is spent
    assert deaths(cues) == {} and t.alive("Dai")


def test_a_curse_falls_once_at_its_dawn_and_the_cursed_stays_dead():
    t = Table(CURSED)
    t.night(Chika="Dai", Aki="Emi", Ben="Emi")
    t.execute("Chika")
    assert deaths(t.night(Aki="Hana", Ben="Fumi")) == {"Dai": "curse", "Hana": "attack"}
    t.execute("Gen")
    cues = t.night(Aki="Emi", Ben="Emi")
    assert deaths(cues) == {} and events(cues, "death") == []


def test_the_second_curse_of_a_dawn_falls_though_the_first_is_blocked():
    t = Table(CURSED + ",Jun=curse_caster:S", guard_blocks_curse=True)
    t.night(Chika="Dai", Jun="Fumi", Aki="Emi", Ben="Emi")   # two curses, due at the same dawn
    t.execute("Gen")
    cues = t.night(Chika="Aki", Jun="Aki", Aki="Hana", Ben="Dai")  # the guard stops the first only
    assert deaths(cues) == {"Fumi": "curse", "Hana": "attack"} and t.alive("Dai")


def test_a_reformed_casters_curse_is_void_and_the_next_casters_curse_stands():
    deal = ("Aki=beast:S,Ben=saint:M,Chika=curse_caster:M,Dai=curse_caster:S,Emi=townsperson:M,Fumi=townsperson:S,"
            "Gen=townsperson:N,Hana=townsperson:S")
    t = Table(deal)
    cues = t.night(Ben="Chika", Chika="Fumi", Dai="Emi", Aki="Hana")
    assert curses(cues) == [("Fumi", "void"), ("Emi", "curse_caster")]
    t.execute("Gen")
    assert deaths(t.night(Dai="Aki", Aki="Dai")) == {"Emi": "curse", "Dai": "attack"}


def test_the_most_suspected_are_named_in_seat_order_not_by_name():
    deal = "Gen=townsperson:N,Aki=beast:S,Ben=prophet:M,Chika=townsperson:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=guard:M"
    t = Table(deal)
    cues = t.night(Chika="Gen", Emi="Gen", Dai="Aki", Gen="Aki", Aki="Chika", Ben="Chika", Fumi="Chika")
    assert [s.params["names"] for s in said(cues, "bm.morning.suspected")] == [["Gen", "Aki"]]


def test_sleep_voids_attribute_voids_only_the_sleepers_yes():
    deal = ("Aki=beast:M,Ben=sleep_demon:M,Chika=townsperson:S,Dai=townsperson:S,Emi=townsperson:M,"
            "Fumi=townsperson:S,Gen=angel:A")
    t = Table(deal, sleep_voids_attribute=True)
    cues = t.night(ability=("Chika", "Dai", "Fumi"), Ben="Chika", Aki="Emi")  # Chika asleep: 2 yes of 3 count
    assert said(cues, "bm.morning.attribute.S")
    assert [e.data for e in events(cues, "attribute")] == [{"counts": {"S": 2, "M": 0}}]


def test_a_sleeping_townsperson_is_shown_nothing_not_no_result():
    deal = ("Aki=beast:S,Ben=sleep_demon:M,Chika=townsperson:S,Dai=prophet:M,Emi=townsperson:M,Fumi=townsperson:S,"
            "Gen=undertaker:N")
    t = Table(deal)
    cues = t.night(Ben="Chika", Aki="Emi", Dai="Aki")
    assert [p.line for p in privates(cues, "Chika")] == ["bm.private.nothing"]
    assert [p.line for p in privates(cues, "Dai")] == ["bm.private.prophet.B"]  # the awake prophet's result


def test_a_game_that_never_asks_again_fails_the_table_instead_of_hanging(monkeypatch):
    t = Table(CURSED)
    stuck = t.state

    def never_asks(config, state, event):
        return stuck, []

    monkeypatch.setattr(bm_table, "RULES", type("Rules", (), {"advance": staticmethod(never_asks)}))
    t.collect = None
    with pytest.raises(AssertionError, match=f"the game asked nothing in {bm_table.MAX_STEPS} steps"):
        t._run_to_collect()
