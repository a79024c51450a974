"""Issue 15, a rules review of Bestia Magica: each finding as a scenario through the pure engine.

The rule text (../shared/rules/bestia-magica.ja.txt) says the GM announces who died and who is
suspected, then Sole/Mese; the game ends when every beast is dead or town ≤ beasts, and the
demon team wins instead when the demon or the sleep demon lives and the angel is dead or absent.
"""

from narrator.cues import Collect, Countdown, End, Private, Say
from narrator.sound.voicepack import load_pack
from tests.bm_table import Table, deaths, events, privates, said

JA = load_pack("ja")


def ja_text(cue) -> str:
    return JA.speak(cue.line, cue.params).text


def spoken(cues) -> list:
    return [c for c in cues if isinstance(c, (Say, End))]


# 1. A dead player is never sent a private line (pass-the-device would call him by name) ------

def test_a_murderer_reformed_on_the_night_he_dies_gets_no_private_line():
    t = Table("Aki=saint:M,Ben=murderer:N,Chika=guard:S,Dai=beast:S,Emi=townsperson:N,Fumi=townsperson:S,Gen=prophet:S")
    cues = t.night(Aki="Ben", Ben="Emi", Chika="Emi", Dai="Fumi")
    assert deaths(cues) == {"Ben": "guard", "Fumi": "attack"}
    assert [e.player for e in events(cues, "reform")] == ["Ben"]  # the reform still happened
    assert privates(cues, "Ben") == [] and privates(cues, "Fumi") == []
    told = {c.to for c in cues if isinstance(c, Private)}
    assert told == set(t.state.living_names())  # every living player, and only they


def test_a_curse_caster_reformed_and_killed_the_same_night_is_not_called():
    t = Table("Aki=saint:M,Ben=curse_caster:M,Chika=murderer:N,Dai=beast:S,Emi=townsperson:N,"
              "Fumi=townsperson:S,Gen=prophet:S,Hana=guard:S")
    cues = t.night(Aki="Ben", Ben="Emi", Chika="Ben", Dai="Fumi", Hana="Gen")
    assert not t.alive("Ben")
    assert privates(cues, "Ben") == []


# 3. The morning tells nothing of who wrote a suspicion ----------------------------------------

def morning(cues) -> list:
    begin = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "bm.morning.begin")
    return [(c.line, c.params) for c in cues[begin:] if isinstance(c, Say)]


def test_nobody_suspected_says_nothing_about_suspects():
    # the only townsperson is put to sleep: no suspicion counts
    asleep = Table("Aki=sleep_demon:M,Ben=townsperson:N,Chika=beast:S,Dai=prophet:S,Emi=guard:S,Fumi=saint:M,Gen=curse_caster:M")
    a = asleep.night(Aki="Ben", Chika="Dai", Emi="Dai", Gen="Fumi", Ben="Fumi")
    assert said(a, "bm.morning.no_suspects") == [] and said(a, "bm.morning.suspected") == []
    # every suspicion comes from a player alive and awake: the morning names them the same way
    awake = Table("Aki=sleep_demon:M,Ben=townsperson:N,Chika=beast:S,Dai=prophet:S,Emi=guard:S,Fumi=saint:M,Gen=curse_caster:M")
    b = awake.night(Aki="Fumi", Chika="Dai", Emi="Dai", Gen="Fumi", Ben="Fumi")
    assert [c.params for c in said(b, "bm.morning.suspected")] == [{"names": ["Fumi"]}]
    # the two mornings differ only by that line: nothing else tells who was asleep
    assert [m for m in morning(b) if m[0] != "bm.morning.suspected"] == morning(a)
    assert not JA.has("bm.morning.no_suspects")


# 4. The demon team's ending fits who survived and what became of the angel --------------------

def ending(cues) -> str:
    over = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "bm.end.over")
    end = next(i for i, c in enumerate(cues) if isinstance(c, End))
    return "".join(ja_text(c) for c in cues[over + 1:end + 1])


def test_only_the_sleep_demon_survives_and_no_angel_was_dealt():
    t = Table("Aki=beast:S,Ben=sleep_demon:M,Chika=townsperson:N,Dai=townsperson:S,Emi=prophet:S")
    t.night(Aki="Chika", Ben="Emi")
    cues = t.execute("Dai")
    assert t.state.winner == "demons"
    text = ending(cues)
    assert "睡魔が生き残り" in text and "天使はいません" in text and "悪魔が生き残り" not in text
    assert "町民チームの人数が、魔獣の人数以下になりました" in text


def test_the_demon_survives_and_the_angel_died():
    t = Table("Aki=beast:S,Ben=demon:A,Chika=angel:A,Dai=townsperson:S,Emi=prophet:S,Fumi=townsperson:N")
    t.night(Aki="Chika")
    t.execute("Dai")
    cues = t.night(Aki="Emi")
    assert t.state.winner == "demons"
    text = ending(cues)
    assert "悪魔が生き残り" in text and "天使は死亡しています" in text and "天使はいません" not in text


def test_the_sleep_demon_survives_the_demon_and_all_beasts_dead():
    t = Table("Aki=beast:S,Ben=demon:A,Chika=sleep_demon:M,Dai=townsperson:S,Emi=prophet:S,Fumi=townsperson:N,"
              "Gen=townsperson:M")
    t.night(Aki="Dai", Chika="Emi")
    t.execute("Ben")
    t.night(Aki="Fumi", Chika="Emi")
    cues = t.execute("Aki")
    assert t.state.winner == "demons"
    text = ending(cues)
    assert text.startswith("魔獣が全滅しました") and "睡魔が生き残り" in text and "悪魔が" not in text


# 5. A random draw is said to be a draw -------------------------------------------------------

SOLE = ("Aki=townsperson:S,Ben=townsperson:S,Chika=beast:M,Dai=townsperson:M,Emi=townsperson:N,"
        "Fumi=prophet:S,Gen=guard:M")


def test_after_the_random_draw_the_player_is_said_to_be_drawn():
    t = Table(SOLE, seed=4)
    t.night(Chika="Emi", Gen="Emi")
    t.vote(Aki="Dai", Chika="Dai", Ben="Emi", Dai="Emi", Emi="Fumi", Gen="Fumi", Fumi="Aki")
    cues = t.vote(Aki="Dai", Ben="Emi", Chika="Dai", Gen="Emi")
    drawn = events(cues, "execution")[0]
    assert drawn.cause == "random"
    assert said(cues, "bm.vote.executed") == []  # not 「最も票を集めた…」
    line = said(cues, "bm.vote.drawn")[0]
    assert line.params == {"name": [drawn.player]} and "ランダムに選ばれたのは" in ja_text(line)


# 6. A game that ends at the morning announces no Sole/Mese -------------------------------------

def test_a_game_ending_at_the_morning_announces_no_attribute():
    t = Table("Aki=beast:S,Ben=murderer:N,Chika=prophet:S,Dai=townsperson:S,Emi=townsperson:M")
    cues = t.night(ability=("Chika", "Dai", "Emi"), Aki="Chika", Ben="Dai")
    assert t.state.finished and t.state.winner == "beasts"
    over = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "bm.end.over")
    before = [c.line for c in cues[:over] if isinstance(c, Say)]
    assert not [line for line in before if line.startswith(("bm.morning.attribute", "bm.morning.counts"))]
    assert "bm.morning.deaths" in before  # who died is still said


# 7. Turn names: the rule text's 夜のターン / 朝のターン, never 「1日目の夜」 then 「1日目の朝」 ------------

def test_turns_are_named_as_the_rule_text_names_them():
    t = Table("Aki=beast:S,Ben=prophet:S,Chika=townsperson:N,Dai=townsperson:S,Emi=guard:M")
    cues = t.night(Aki="Chika")
    cues += t.execute("Dai")
    texts = [ja_text(c) for c in spoken(t.cues)]
    assert not [x for x in texts if "日目" in x]
    assert "1回目の夜のターンです。" in texts[texts.index(next(x for x in texts if "夜のターンです" in x))]
    assert any("1回目の朝のターンです。" in x for x in texts)
    assert any("2回目の夜のターンです。" in x for x in texts)
    shown = [JA.speak(r.line, r.params).text for r in t.collect.requests]
    assert all("2回目の夜のメモ" in x for x in shown)


# 8. Two names are joined with 「と」; the revote is among the tied -------------------------------

def test_two_names_are_joined_with_to_and_the_revote_is_among_the_tied():
    t = Table(SOLE, seed=4)
    t.night(Chika="Emi", Gen="Emi")
    cues = t.vote(Aki="Dai", Chika="Dai", Ben="Emi", Dai="Emi", Emi="Fumi", Gen="Fumi", Fumi="Aki")
    tie = said(cues, "bm.vote.tie")[0]
    assert ja_text(tie) == "Daiさん、EmiさんとFumiさんが同数で一位です。"
    begin = ja_text(said(cues, "bm.revote.begin")[0])  # the tie line just named them: not twice more
    assert "この中から" in begin and "同数の方以外" in begin and "Dai" not in begin
    cues = t.vote(Aki="Dai", Ben="Emi", Chika="Dai", Gen="Emi")
    assert ja_text(said(cues, "bm.revote.still_tied")[0]) == "決選投票でも、DaiさんとEmiさんが同数でした。"


# 9. The results line comes before the results are handed out ---------------------------------

def test_the_tally_line_comes_before_the_private_results():
    t = Table("Aki=beast:S,Ben=prophet:S,Chika=townsperson:N,Dai=townsperson:S,Emi=guard:M")
    cues = t.night(Aki="Chika", Ben="Aki")
    results = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "bm.night.results")
    first_private = next(i for i, c in enumerate(cues) if isinstance(c, Private))
    last_private = max(i for i, c in enumerate(cues) if isinstance(c, Private))
    assert results < first_private
    assert isinstance(cues[last_private + 1], Countdown)  # the reading time, right after the results
    assert isinstance(t.collect, Collect) or t.state.step == "vote"


# 11. The FAQ's unwritten readings are named house rules, today's behaviour by default ----------

REFORM_LAST = "Aki=saint:M,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"


def test_reform_counts_at_end_default_keeps_the_old_team_on_the_last_night():
    t = Table(REFORM_LAST)
    assert t.config.rules["reform_counts_at_end"] is False
    t.night(Aki="Ben", Ben="Dai", Chika="Emi")
    cues = t.execute("Fumi")  # town: Aki alone against one beast; Ben's reform is pending
    assert t.state.winner == "beasts"
    assert next(c for c in cues if isinstance(c, End)).outcome["winners"] == ["Ben", "Chika"]


def test_reform_counts_at_end_true_counts_the_reformed_player_as_town():
    t = Table(REFORM_LAST, reform_counts_at_end=True)
    t.night(Aki="Ben", Ben="Dai", Chika="Emi")
    t.execute("Fumi")  # Aki and the reformed Ben: 2 town against 1 beast, the game goes on
    assert not t.state.finished
    t.night(Chika="Aki")  # now Ben is a townsperson: 1 against 1, the beasts win
    assert t.state.winner == "beasts"


GUARD = "Aki=guard:S,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M"


def test_murderer_targets_guard_default_kills_the_guard():
    t = Table(GUARD)
    assert t.config.rules["murderer_targets_guard"] == "guard_dies"
    cues = t.night(Aki="Dai", Ben="Aki", Chika="Emi")
    assert deaths(cues) == {"Aki": "kill", "Emi": "attack"}


def test_murderer_targets_guard_murderer_dies_when_he_meets_the_guard():
    t = Table(GUARD, murderer_targets_guard="murderer_dies")
    cues = t.night(Aki="Dai", Ben="Aki", Chika="Emi")
    assert deaths(cues) == {"Ben": "guard", "Emi": "attack"}


def test_murderer_targets_guard_asleep_guard_is_killed_whatever_the_rule():
    t = Table("Aki=guard:S,Ben=murderer:N,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,"
              "Gen=sleep_demon:M,Hana=townsperson:N", murderer_targets_guard="murderer_dies")
    cues = t.night(Aki="Dai", Ben="Aki", Chika="Emi", Gen="Aki")
    assert deaths(cues) == {"Aki": "kill", "Emi": "attack"}


BEASTS = "Aki=beast:S,Ben=beast:M,Chika=beast:S,Dai=townsperson:M,Emi=townsperson:S,Fumi=prophet:M,Gen=guard:S,Hana=townsperson:N"


def attacked(beast_split=None, seeds=range(60)) -> list[str]:
    out = []
    for seed in seeds:
        options = {"beast_split": beast_split} if beast_split else {}
        t = Table(BEASTS, seed=seed, **options)
        cues = t.night(Aki="Dai", Ben="Dai", Chika="Emi", Gen="Fumi")
        out += [e.player for e in events(cues, "death")]
    return out


def test_beast_split_draws_among_the_distinct_targets_by_default():
    default = attacked()
    assert Table(BEASTS).config.rules["beast_split"] == "distinct"
    assert default == attacked("distinct")
    assert 20 <= default.count("Emi") <= 40  # one of two targets: about half the nights


def test_beast_split_picks_and_majority():
    picks = attacked("picks")
    assert 10 <= picks.count("Emi") <= 30 and picks.count("Emi") < attacked().count("Emi")  # 1 pick in 3
    assert attacked("majority") == ["Dai"] * 60  # two beasts picked Dai
