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


# --- pass-the-device (item 7) --------------------------------------------------------------

def _night_and_vote_cues(t):
    """The cues of night 1's memo step and of day 1's vote step, as the rules give them."""
    start = max(i for i, c in enumerate(t.cues) if getattr(c, "line", None) == "bm.night.begin")
    memo_step = t.cues[start:]
    t.night(Chika="Emi", Gen="Emi")  # the table plays on to the next round: the vote
    assert t.collect is not None and t.collect.phase == "vote"
    start = max(i for i, c in enumerate(t.cues) if getattr(c, "line", "").startswith("bm.vote.attribute."))
    return memo_step, t.cues[start:]


def test_pass_the_device_runs_no_paper_memo_timers_and_says_the_device_wordings(tmp_path):
    import asyncio
    from dataclasses import replace

    from narrator.table.transcript import read_transcript
    from tests.test_bestia_magica_pass_device import InstantTypist, make_scheduler

    t = Table(SOLE)
    memo_step, vote_step = _night_and_vote_cues(t)
    results_step = [c for c in t.cues if getattr(c, "line", None) == "bm.night.results"]
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=True)
    scheduler.display = InstantTypist(hub, screen)  # each holder picks the first seat listed
    paper = scheduler.voice.pack
    if hasattr(paper, "pass_device"):  # as the sitting sets it (table/session.py)
        scheduler.voice.pack = replace(paper, pass_device=True)

    for cues in (memo_step, vote_step, results_step):
        asyncio.run(scheduler.play(cues, {"night": 1, "day": 0}))
    transcript.close()
    records = read_transcript(tmp_path / "t.jsonl")
    assert [r for r in records if r["kind"] == "timer"] == []  # no 60 s memo nor 30 s vote timer
    assert not [r for r in records if r.get("line") == "timer.warning"]  # nor 「残り10秒です」
    said = {r["line"]: r["text"] for r in records if r["kind"] == "say"}
    for line in ("bm.night.memo", "bm.vote.begin", "bm.night.results"):
        assert said[line] != paper.speak(line).text and "device" in said[line], said[line]
    assert "memo" not in said["bm.night.results"].lower()  # the results are on the device, not a memo
    # the same cues on paper or phones keep their timers (the rules did not change)
    assert [c.line for c in memo_step + vote_step if type(c).__name__ == "Timer"] == ["memo", "vote"]
