"""House rule `missing_answer`: what a memo or vote missing at the timer's end means."""

import pytest

from narrator.errors import AnswerError
from tests.bm_table import Table, deaths, privates, said

BASE = "Aki=guard:S,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,Gen=saint:S"


def test_by_default_the_rounds_close_with_their_timers():
    t = Table(BASE)
    assert t.collect.closes_with_timer is True
    assert Table(BASE, missing_answer="wait").collect.closes_with_timer is False


def test_a_missing_memo_is_no_action_and_no_yes():
    t = Table(BASE)
    # the beast and the guard sent nothing: no attack, nobody protected; the murderer still kills
    cues = t.answer({"Ben": {"target": "Dai", "ability": False},
                     "Dai": {"target": "Ben", "ability": True}, "Emi": {"target": "Ben", "ability": False},
                     "Fumi": {"target": "Chika", "ability": False}, "Gen": {"target": "Emi", "ability": False}})
    assert deaths(cues) == {"Dai": "kill"}
    assert [p.line for p in privates(cues, "Fumi")] == ["bm.private.prophet.B"]
    assert said(cues, "bm.morning.attribute.none")  # one M "yes" (Dai) is void; Aki's missing "yes" is no "yes"


def test_a_missing_prophet_memo_gets_no_result():
    t = Table(BASE)
    memos = {r.player: {"target": r.choices[0], "ability": False} for r in t.collect.requests if r.player != "Fumi"}
    cues = t.answer(memos)
    assert [p.line for p in privates(cues, "Fumi")] == ["bm.private.nothing"]


def test_with_wait_a_missing_memo_is_an_error_naming_the_player():
    t = Table(BASE, missing_answer="wait")
    memos = {r.player: {"target": r.choices[0], "ability": False} for r in t.collect.requests if r.player != "Emi"}
    with pytest.raises(AnswerError, match="no memo from Emi"):
        t.answer(memos)


def test_nobody_voting_executes_nobody_and_the_night_follows():
    t = Table(BASE)
    t.night(Aki="Dai", Ben="Emi", Chika="Emi")
    cues = t.answer({})
    assert said(cues, "bm.vote.nobody") and not [c for c in cues if getattr(c, "type", None) == "execution"]
    assert t.collect.phase == "night" and t.collect.number == 2


def test_an_unanswered_revote_keeps_the_tie_for_the_random_draw():
    t = Table(BASE)
    t.night(Aki="Dai", Ben="Emi", Chika="Emi")
    alive = [r.player for r in t.collect.requests]
    votes = {p: {"vote": "Aki" if i % 2 else "Ben"} for i, p in enumerate(p for p in alive if p not in ("Aki", "Ben"))}
    votes.update({"Aki": {"vote": "Ben"}, "Ben": {"vote": "Aki"}})
    t.answer(votes)
    assert t.collect.phase == "revote"
    cues = t.answer({})
    executed = [c for c in cues if getattr(c, "type", None) == "execution"]
    assert len(executed) == 1 and executed[0].player in ("Aki", "Ben") and executed[0].cause == "random"
