"""Every published ruling of Bestia Magica (issue 5, rules 1-11), each as its own scenario."""

import pytest

from narrator.cues import Collect, End, Private, Say
from narrator.errors import AnswerError
from tests.bm_table import Table, deaths, events, privates, said

BASE = "Aki=guard:S,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,Gen=saint:S"


# 1 ------------------------------------------------------------------------------------------

def test_rule1_guard_murderer_and_beasts_on_one_player_only_the_murderer_dies():
    t = Table(BASE)
    cues = t.night(Aki="Dai", Ben="Dai", Chika="Dai")
    assert deaths(cues) == {"Ben": "guard"}
    assert t.alive("Dai") and not t.alive("Ben")
    assert said(cues, "bm.morning.deaths")[0].params == {"names": ["Ben"]}


def test_rule1_control_without_the_guard_the_murderer_kills():
    t = Table(BASE)
    cues = t.night(Aki="Emi", Ben="Dai", Chika="Fumi")
    assert deaths(cues) == {"Dai": "kill", "Fumi": "attack"}


# 2 ------------------------------------------------------------------------------------------

def _guard_same_player_twice(**options):
    t = Table(BASE, **options)
    t.night(Aki="Dai", Ben="Emi", Chika="Emi")  # Emi dies; Dai protected
    t.execute("Ben")
    return t


def test_rule2_guard_may_protect_the_same_player_on_consecutive_nights():
    t = _guard_same_player_twice()
    assert "Dai" in t.request("Aki").choices
    cues = t.night(Aki="Dai", Chika="Dai")
    assert deaths(cues) == {} and t.alive("Dai")
    assert any(e.type == "protect" and e.cause == "blocked" for e in events(cues))


def test_rule2_house_rule_guard_repeat_false_forbids_it():
    t = _guard_same_player_twice(guard_repeat=False)
    assert "Dai" not in t.request("Aki").choices
    with pytest.raises(AnswerError, match="not allowed for Aki"):
        t.night(Aki="Dai", Chika="Dai")


# 3, 4 ---------------------------------------------------------------------------------------

def test_rule3_saint_reforms_murderer_while_murderer_kills_saint():
    t = Table(BASE)
    cues = t.night(Gen="Ben", Ben="Gen", Chika="Emi", Aki="Dai")
    assert deaths(cues) == {"Gen": "kill", "Emi": "attack"}
    assert [e.player for e in events(cues, "reform")] == ["Ben"]
    assert [p.line for p in privates(cues, "Ben")][0] == "bm.private.reformed"
    # still the murderer for the rest of night 1 …
    assert t.state.player("Ben").role == "murderer" and t.state.player("Ben").reform_pending
    t.execute("Chika")
    assert t.state.finished and t.state.winner == "town"


def test_rule3_reformed_murderer_is_a_townsperson_from_the_next_night():
    deal = BASE + ",Hana=beast:M,Ivo=townsperson:S,Jun=townsperson:M"
    t = Table(deal)
    t.night(Gen="Ben", Ben="Gen", Chika="Emi", Hana="Emi", Aki="Dai")
    t.execute("Ivo")
    assert t.state.player("Ben").role == "townsperson"
    assert t.request("Ben").line == "bm.memo.suspect"  # the memo now only suspects
    cues = t.night(Ben="Fumi", Chika="Jun", Hana="Jun", Aki="Dai")
    assert deaths(cues) == {"Jun": "attack"}  # Ben's pick harms nobody


@pytest.mark.parametrize("role,attribute", [("murderer", "N"), ("curse_caster", "M"), ("curse_caster", "S")])
def test_rule4_a_reformed_player_keeps_the_attribute_of_its_role(role, attribute):
    deal = (f"Aki=saint:S,Ben={role}:{attribute},Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,"
            "Fumi=prophet:M,Gen=guard:S")
    t = Table(deal)
    t.night(Aki="Ben", Ben="Dai", Chika="Emi", Gen="Emi")
    t.execute("Fumi")
    ben = t.state.player("Ben")
    assert (ben.role, ben.attribute, ben.dealt_role) == ("townsperson", attribute, role)


# 5 ------------------------------------------------------------------------------------------

def test_rule5_angel_and_demon_suspect_at_night_like_everyone_else():
    deal = ("Aki=angel:A,Ben=demon:A,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,"
            "Gen=guard:S")
    t = Table(deal)
    assert t.request("Aki").line == "bm.memo.suspect" and t.request("Ben").line == "bm.memo.suspect"
    cues = t.night(Aki="Chika", Ben="Chika", Chika="Dai", Gen="Emi", Dai="Emi", Emi="Fumi")
    assert said(cues, "bm.morning.suspected")[0].params == {"names": ["Chika"]}


# 6 ------------------------------------------------------------------------------------------

CURSE = ("Aki=curse_caster:M,Ben=saint:S,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,"
         "Gen=guard:S,Hana=townsperson:N")


def _curse_then_day(t, reform_night1: bool):
    cues = t.night(Aki="Dai", Ben="Aki" if reform_night1 else "Hana", Chika="Emi", Gen="Emi")
    t.execute("Fumi")
    return cues


def test_rule6_curse_kills_at_the_dawn_after_the_next_day():
    t = Table(CURSE)
    first = _curse_then_day(t, reform_night1=False)
    assert deaths(first) == {} and t.alive("Dai")
    cues = t.night(Ben="Hana", Chika="Emi", Gen="Emi")
    assert deaths(cues) == {"Dai": "curse"}


def test_rule6_caster_reformed_the_same_night_voids_the_curse():
    t = Table(CURSE)
    first = _curse_then_day(t, reform_night1=True)
    assert [(e.player, e.cause) for e in events(first, "curse")] == [("Dai", "void")]
    cues = t.night(Ben="Hana", Chika="Emi", Gen="Emi")
    assert deaths(cues) == {} and t.alive("Dai")


def test_rule6_caster_reformed_before_the_curse_resolves_voids_it():
    t = Table(CURSE)
    _curse_then_day(t, reform_night1=False)
    cues = t.night(Ben="Aki", Chika="Emi", Gen="Emi")
    assert deaths(cues) == {} and t.alive("Dai")
    assert ("Dai", "void") in [(e.player, e.cause) for e in events(cues, "curse")]


def test_rule6_house_rule_keeps_the_curse_after_reform():
    t = Table(CURSE, curse_void_on_reform=False)
    _curse_then_day(t, reform_night1=False)
    cues = t.night(Ben="Aki", Chika="Emi", Gen="Emi")
    assert deaths(cues) == {"Dai": "curse"}


# 7 ------------------------------------------------------------------------------------------

ANIMA = ("Aki=angel:A,Ben=demon:A,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,"
         "Gen=guard:S,Hana=townsperson:N,Ivo=townsperson:S,Jun=beast:M")


def test_rule7_simultaneous_anima_revives_one_player_and_uses_up_both():
    t = Table(ANIMA)
    cues = t.night(ability=("Aki", "Ben"), Chika="Dai", Jun="Dai", Gen="Emi")
    revivals = events(cues, "revival")
    assert [e.player for e in revivals] == ["Dai"] and t.alive("Dai")
    assert t.state.player("Aki").anima_used and t.state.player("Ben").anima_used
    assert said(cues, "bm.morning.revived")[0].params == {"names": ["Dai"]}
    # Anima activating voids Sole/Mese that day
    assert [e.cause for e in events(cues, "attribute")] == ["anima"]
    t.execute("Hana")
    cues = t.night(ability=("Aki", "Ben"), Chika="Emi", Jun="Emi", Gen="Fumi")
    assert deaths(cues) == {"Emi": "attack"} and events(cues, "revival") == []


def test_rule7_anima_once_per_role_and_the_reviver_cannot_choose():
    t = Table(ANIMA)
    assert t.request("Aki").key == "target"  # the memo names a suspect, never whom to revive
    t.night(Chika="Dai", Jun="Dai", Gen="Emi")
    t.execute("Hana")
    cues = t.night(ability=("Aki",), Chika="Emi", Jun="Emi", Gen="Ivo")
    revived = [e.player for e in events(cues, "revival")]
    assert len(revived) == 1 and revived[0] in ("Dai", "Hana", "Emi")  # drawn at random
    assert t.state.player("Aki").anima_used and not t.state.player("Ben").anima_used
    t.execute("Ivo")
    cues = t.night(ability=("Aki",), Chika="Fumi", Jun="Fumi", Gen="Fumi")
    assert deaths(cues) == {} and events(cues, "revival") == []  # the angel's Anima is spent
    t.execute("Chika")
    cues = t.night(ability=("Ben",), Jun="Aki", Gen="Aki")
    assert len(events(cues, "revival")) == 1  # the demon's own use is still there
    assert t.state.player("Ben").anima_used


def test_rule7_anima_with_nobody_dead_is_not_used_up():
    t = Table(ANIMA)
    cues = t.night(ability=("Aki",), Chika="Dai", Jun="Dai", Gen="Dai")
    assert deaths(cues) == {} and not t.state.player("Aki").anima_used


# 8 ------------------------------------------------------------------------------------------

BEASTS = ("Aki=sleep_demon:S,Ben=murderer:N,Chika=beast:S,Dai=beast:M,Emi=townsperson:S,Fumi=prophet:M,"
          "Gen=guard:S,Hana=townsperson:N,Ivo=townsperson:M,Jun=angel:A")


def test_rule8_sleep_demon_targets_one_beast_the_other_still_attacks():
    t = Table(BEASTS)
    cues = t.night(Aki="Chika", Ben="Jun", Chika="Emi", Dai="Hana", Gen="Jun")
    assert [e.player for e in events(cues, "sleep")] == ["Chika"]
    assert deaths(cues) == {"Hana": "attack", "Ben": "guard"}


def test_rule8_murderer_kills_one_beast_the_other_still_attacks():
    t = Table(BEASTS)
    cues = t.night(Aki="Jun", Ben="Chika", Chika="Emi", Dai="Hana", Gen="Fumi")
    assert deaths(cues) == {"Chika": "kill", "Hana": "attack"}


def test_rule8_house_rule_one_sleeping_beast_stops_the_attack():
    t = Table(BEASTS, sleep_blocks_all_beasts=True)
    cues = t.night(Aki="Chika", Ben="Jun", Chika="Emi", Dai="Hana", Gen="Jun")
    assert "Hana" not in deaths(cues)


def test_beasts_that_disagree_get_one_of_their_picks_at_random_seeded():
    picks = set()
    for seed in range(12):
        t = Table(BEASTS, seed=seed)
        cues = t.night(Aki="Jun", Ben="Jun", Chika="Emi", Dai="Hana", Gen="Jun")
        picks |= {n for n, c in deaths(cues).items() if c == "attack"}
        again = Table(BEASTS, seed=seed)
        assert deaths(again.night(Aki="Jun", Ben="Jun", Chika="Emi", Dai="Hana", Gen="Jun")) == deaths(cues)
    assert picks == {"Emi", "Hana"}


# 9 ------------------------------------------------------------------------------------------

SOLE = ("Aki=townsperson:S,Ben=townsperson:S,Chika=beast:M,Dai=townsperson:M,Emi=townsperson:N,"
        "Fumi=prophet:S,Gen=guard:M")


def _attribute(t):
    return [e.cause for e in events(t.cues, "attribute")][-1]


@pytest.mark.parametrize("yes,expected", [
    (("Aki", "Ben"), "S"),               # two Sole yes
    (("Chika", "Dai", "Aki"), "M"),      # Mese has more
    (("Aki",), "none"),                  # a single yes is void
    (("Aki", "Ben", "Chika", "Dai"), "none"),  # a tie is void
    (("Emi", "Emi"), "none"),            # Niente answers count for nothing
])
def test_rule9_the_attribute_with_more_yes_is_active(yes, expected):
    t = Table(SOLE)
    cues = t.night(ability=yes, Chika="Emi", Gen="Emi")
    assert _attribute(t) == expected
    line = f"bm.morning.attribute.{expected}"
    assert said(cues, line) and said(cues, f"bm.vote.attribute.{expected}")


def test_rule9_sole_doubles_sole_votes_and_the_announcement_names_nobody():
    # Aki and Ben (S) vote Dai; Chika, Emi, Gen vote Fumi: 4 against 3 with Sole, 2 against 3 without
    votes = dict(Aki="Dai", Ben="Dai", Chika="Fumi", Emi="Fumi", Gen="Fumi", Dai="Aki", Fumi="Aki")
    with_sole = Table(SOLE)
    with_sole.night(ability=("Aki", "Ben"), Chika="Emi", Gen="Emi")
    cues = with_sole.vote(**votes)
    assert [e.player for e in events(cues, "execution")] == ["Dai"]
    spoken = [c for c in cues if isinstance(c, Say)]
    assert all(set(c.params.get("names", [])) <= {"Dai"} and c.params.get("name") in (None, ["Dai"]) for c in spoken)
    without = Table(SOLE)
    without.night(Chika="Emi", Gen="Emi")
    assert [e.player for e in events(without.vote(**votes), "execution")] == ["Fumi"]


def test_rule9_mese_hides_mese_holders_from_the_vote():
    votes = dict(Aki="Dai", Ben="Dai", Fumi="Dai", Chika="Emi", Emi="Aki", Gen="Emi", Dai="Emi")
    t = Table(SOLE)
    t.night(ability=("Chika", "Dai", "Gen"), Chika="Emi", Gen="Emi")
    assert _attribute(t) == "M"
    cues = t.vote(**votes)
    assert [e.player for e in events(cues, "execution")] == ["Emi"]  # Dai (M) had 3 votes, worth 0


def test_rule9_house_rule_sole_effect_votes_for_double():
    votes = dict(Aki="Fumi", Ben="Dai", Chika="Dai", Emi="Fumi", Gen="Dai", Dai="Chika", Fumi="Chika")
    plain = Table(SOLE)
    plain.night(Chika="Emi", Gen="Emi")
    assert [e.player for e in events(plain.vote(**votes), "execution")] == ["Dai"]
    t = Table(SOLE, sole_effect="votes_for_double")
    t.night(ability=("Aki", "Ben"), Chika="Emi", Gen="Emi")
    cues = t.vote(**votes)
    assert [e.player for e in events(cues, "execution")] == ["Fumi"]  # votes for Fumi (S) count 2


# 10 -----------------------------------------------------------------------------------------

def test_rule10_a_tie_is_voted_again_by_the_others_among_the_tied_without_attributes():
    t = Table(SOLE)
    t.night(ability=("Aki", "Ben"), Chika="Emi", Gen="Emi")  # Sole active
    # weighted with Sole: Dai 2 (Fumi), Emi 2 (Ben), Fumi 2 (Aki); the rest 1 each
    cues = t.vote(Aki="Fumi", Ben="Emi", Fumi="Dai", Chika="Gen", Dai="Chika", Emi="Aki", Gen="Ben")
    assert said(cues, "bm.vote.tie")[0].params == {"names": ["Dai", "Emi", "Fumi"]}
    assert isinstance(cues[-1], Collect) and cues[-1].phase == "revote"
    voters = [r.player for r in cues[-1].requests]
    assert voters == ["Aki", "Ben", "Chika", "Gen"]
    assert all(r.choices == ("Dai", "Emi", "Fumi") for r in cues[-1].requests)
    # Sole is off now: the two S-holders' votes count 1 each
    cues = t.vote(Aki="Dai", Ben="Dai", Chika="Emi", Gen="Emi")
    assert said(cues, "bm.revote.still_tied")[0].params == {"names": ["Dai", "Emi"]}
    executed = [e for e in events(cues, "execution")]
    assert len(executed) == 1 and executed[0].player in ("Dai", "Emi") and executed[0].cause == "random"


def test_rule10_revote_winner_is_executed():
    t = Table(SOLE)
    t.night(Chika="Emi", Gen="Emi")
    t.vote(Aki="Dai", Ben="Emi", Chika="Dai", Dai="Emi", Emi="Aki", Fumi="Gen", Gen="Chika")
    cues = t.vote(Aki="Emi", Ben="Emi", Chika="Dai", Fumi="Emi", Gen="Dai")
    assert [(e.player, e.cause) for e in events(cues, "execution")] == [("Emi", "revote")]


def test_rule10_random_tie_break_follows_the_seed():
    chosen = set()
    for seed in range(10):
        t = Table(SOLE, seed=seed)
        t.night(Chika="Emi", Gen="Emi")
        t.vote(Aki="Dai", Chika="Dai", Ben="Emi", Dai="Emi", Emi="Fumi", Gen="Fumi", Fumi="Aki")
        cues = t.vote(Aki="Dai", Ben="Emi", Chika="Dai", Gen="Emi")
        chosen |= {e.player for e in events(cues, "execution")}
    assert chosen == {"Dai", "Emi"}


# 11 -----------------------------------------------------------------------------------------

def test_rule11_all_beasts_dead_town_wins():
    t = Table(BASE)
    t.night(Ben="Emi", Chika="Dai", Aki="Fumi")
    cues = t.execute("Chika")
    end = next(c for c in cues if isinstance(c, End))
    assert t.state.winner == "town" and end.winner == "town"


def test_rule11_town_no_more_than_beasts_beasts_win():
    t = Table("Aki=beast:S,Ben=townsperson:M,Chika=townsperson:S,Dai=prophet:M")
    t.night(Aki="Ben")
    t.vote(Aki="Chika", Chika="Aki", Dai="Chika")
    assert t.state.winner == "beasts"


def test_rule11_demon_alive_and_angel_dead_overrides_the_town_win():
    deal = "Aki=demon:A,Ben=angel:A,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"
    t = Table(deal)
    t.night(Chika="Ben")
    assert not t.alive("Ben")
    t.execute("Chika")
    assert t.state.winner == "demons"


def test_rule11_demon_alive_with_angel_alive_town_wins():
    deal = "Aki=demon:A,Ben=angel:A,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"
    t = Table(deal)
    t.night(Chika="Dai")
    t.execute("Chika")
    assert t.state.winner == "town"


def test_rule11_sleep_demon_without_angel_wins_over_the_beasts():
    deal = "Aki=sleep_demon:S,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"
    t = Table(deal)
    t.night(Aki="Fumi", Chika="Dai")
    t.vote(Aki="Emi", Chika="Emi", Emi="Aki", Fumi="Emi")
    assert t.state.winner == "demons"


# the morning and the private results --------------------------------------------------------

def test_prophet_reads_human_beast_unknown_and_undertaker_reads_the_dead():
    deal = ("Aki=prophet:S,Ben=undertaker:M,Chika=beast:S,Dai=demon:A,Emi=townsperson:S,Fumi=murderer:N,"
            "Gen=angel:A,Hana=townsperson:M")
    t = Table(deal)
    cues = t.night(Aki="Chika", Chika="Emi", Fumi="Hana")
    assert [(p.line, p.params) for p in privates(cues, "Aki")] == [("bm.private.prophet.B", {"target": ["Chika"]})]
    assert sorted((p.line, p.params["target"][0]) for p in privates(cues, "Ben")) == [
        ("bm.private.undertaker.H", "Emi"), ("bm.private.undertaker.H", "Hana")]
    assert [p.line for p in privates(cues, "Gen")] == ["bm.private.nothing"]
    t.execute("Dai")
    cues = t.night(Aki="Gen", Chika="Gen", Fumi="Gen")
    assert privates(cues, "Aki")[0].line == "bm.private.prophet.U"
    assert [(p.line, p.params["target"][0]) for p in privates(cues, "Ben")] == [
        ("bm.private.undertaker.U", "Dai"), ("bm.private.undertaker.U", "Gen")]


def test_house_rule_murderer_reads_unknown():
    deal = "Aki=prophet:S,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=guard:M"
    t = Table(deal, murderer_reads="U")
    cues = t.night(Aki="Ben", Ben="Fumi", Chika="Fumi", Fumi="Dai")
    assert privates(cues, "Aki")[0].line == "bm.private.prophet.U"


def test_every_living_player_gets_a_private_each_night_and_the_dead_none():
    t = Table(BASE)
    cues = t.night(Ben="Dai", Chika="Emi", Aki="Fumi")
    got = {c.to for c in cues if isinstance(c, Private)}
    assert got == set(t.state.living_names())


def test_a_dead_player_may_not_vote_or_write_a_memo():
    t = Table(BASE)
    t.night(Ben="Dai", Chika="Emi", Aki="Fumi")
    answers = {r.player: {"vote": r.choices[0]} for r in t.collect.requests}
    answers["Dai"] = {"vote": "Aki"}
    with pytest.raises(AnswerError, match="Dai may not give a vote"):
        t.answer(answers)


def test_night_narration_is_the_same_whatever_the_roles():
    def skeleton(deal):
        t = Table(deal)
        start = max(i for i, c in enumerate(t.cues) if isinstance(c, Say) and c.line == "bm.night.begin")
        return [(c.kind, getattr(c, "line", None), getattr(c, "seconds", None)) for c in t.cues[start:-1]]

    plain = skeleton("Aki=beast:S,Ben=townsperson:M,Chika=townsperson:S,Dai=townsperson:N")
    rich = skeleton(BEASTS)
    assert plain == rich


def test_sleep_voids_the_guard_and_the_prophet_for_the_night():
    deal = ("Aki=sleep_demon:S,Ben=guard:M,Chika=beast:S,Dai=townsperson:M,Emi=prophet:S,Fumi=townsperson:N,"
            "Gen=demon:A,Hana=angel:A")
    t = Table(deal)
    cues = t.night(Aki="Ben", Ben="Dai", Chika="Dai", Emi="Chika")
    assert deaths(cues) == {"Dai": "attack"}  # the sleeping guard protected nobody
    assert [p.line for p in privates(cues, "Emi")] == ["bm.private.prophet.B"]
    t2 = Table(deal)
    cues = t2.night(Aki="Emi", Ben="Dai", Chika="Dai", Emi="Chika")
    assert deaths(cues) == {}
    assert [p.line for p in privates(cues, "Emi")] == ["bm.private.no_result"]


def test_private_results_go_out_in_seat_order_one_hand_over_each():
    deal = ("Aki=townsperson:S,Ben=saint:M,Chika=beast:S,Dai=murderer:N,Emi=townsperson:S,Fumi=undertaker:M,"
            "Gen=prophet:S,Hana=townsperson:M")
    t = Table(deal)
    cues = t.night(Ben="Dai", Dai="Aki", Chika="Emi", Gen="Chika")
    order = [c.to for c in cues if isinstance(c, Private)]
    grouped = [name for i, name in enumerate(order) if i == 0 or order[i - 1] != name]
    assert grouped == [n for n in t.config.names if t.alive(n)]  # seat order, each player once
    assert [p.line for p in privates(cues, "Dai")] == ["bm.private.reformed"]  # not also "nothing"
