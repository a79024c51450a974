"""Issue 26's review of Bestia Magica: a Mese day never names whose votes were hidden."""

from narrator.cues import Say
from tests.bm_table import Table, events, said

SOLE = ("Aki=townsperson:S,Ben=townsperson:S,Chika=beast:M,Dai=townsperson:M,Emi=townsperson:N,"
        "Fumi=prophet:S,Gen=guard:M")


def test_a_mese_day_with_every_vote_hidden_names_nobody():
    t = Table(SOLE)
    t.night(ability=("Chika", "Dai", "Gen"), Chika="Emi", Gen="Emi")
    # every vote goes to an M-holder (Dai, Chika): all worth 0 under Mese
    cues = t.vote(Aki="Dai", Ben="Dai", Emi="Chika", Fumi="Dai", Chika="Dai", Gen="Dai", Dai="Chika")
    spoken = [c for c in cues if isinstance(c, Say)]
    named = {n for c in spoken for key in ("names", "name") for n in c.params.get(key, [])}
    assert not named & {"Chika", "Dai", "Gen"}, [c for c in spoken if c.params]
    assert not events(cues, "execution") and said(cues, "bm.vote.none_counted")
    assert t.collect is not None and t.collect.phase == "night"  # the next night follows


def test_a_mese_day_still_executes_the_most_votes_that_count():
    t = Table(SOLE)
    t.night(ability=("Chika", "Dai", "Gen"), Chika="Emi", Gen="Emi")
    cues = t.vote(Aki="Dai", Ben="Dai", Emi="Chika", Fumi="Dai", Chika="Emi", Gen="Dai", Dai="Chika")
    assert [e.player for e in events(cues, "execution")] == ["Emi"] and not said(cues, "bm.vote.tie")
