"""Issue 37 item 8: the words a Japanese café table hears and reads, checked over the games'
cues and the voice packs (the page's words: tests/test_words_evening_browser.py).

人狼 (a game file) counts the vote in with せーの as Additional Werewolf does, asks for every
tied name in words that say so, ends with who held what; a count-in is never repeated with
the question after it; 「顔を下ろしてください」 is said once around the card check; Bestia
Magica's revote names the tied once; the host screen and a table with no microphone are never
asked to say 「終わりました」; every game file's winner has its words on the result card.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from pathlib import Path

from narrator.cues import Ask, CountIn, End, Say
from narrator.games.kernel import files as kernel_files
from narrator.games.kernel.parse import read_game_file
from narrator.inputs.hub import ListenerHub
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import ManualClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript, read_transcript
from tests.engine_driver import configure, run_game
from tests.kernel_table import Table, lines, said

STRINGS = Path(__file__).resolve().parent.parent / "narrator" / "phones" / "static" / "strings.json"
WOLF = ["werewolf", "seer", "knight", "villager", "villager"]
NAMES5 = "Aki,Ben,Chika,Dai,Emi"


def _ja(line: str, params: dict | None = None, **flags) -> str:
    pack = load_pack("ja")
    return replace(pack, **flags).speak(line, params or {}).text if flags else pack.speak(line, params or {}).text


# --- 人狼: せーの before the vote, the tie in clear words, the end's reveal ---------------------

def test_the_werewolf_vote_is_counted_in_with_seeno_right_before_the_question():
    t = Table("werewolf", WOLF)
    out = t.answer("done", "Dai")  # ready; the seer divines Dai; night 2 … up to the first vote
    assert isinstance(t.ask, Ask) and t.ask.line == "wolf.vote"
    assert lines(out[-3:]) == ["wolf.vote_call", "wolf.count_in", "wolf.vote"]
    assert isinstance(out[-2], CountIn) and not isinstance(out[-3], CountIn)
    assert "せーの" in _ja("wolf.vote_call") and _ja("wolf.count_in") == "せーの。"


def test_a_tied_werewolf_vote_is_counted_in_again_among_the_tied():
    t = Table("werewolf", WOLF)
    t.answer("done", "Dai")
    out = t.answer(["Chika", "Dai"])
    assert lines(out) == ["wolf.revote", "wolf.count_in", "wolf.vote"]
    assert t.ask.choices == ("Chika", "Dai")
    assert "Chika" in _ja("wolf.revote", {"names": ["Chika", "Dai"]}) and "せーの" in _ja("wolf.revote", {"names": ["Chika"]})


def test_the_tie_line_asks_for_every_tied_name_not_for_everyone_to_answer():
    for line in ("wolf.vote", "wolf.who_executed", "hint.on_screen.wolf.vote", "hint.on_screen.wolf.who_executed"):
        text = _ja(line)
        assert "同票なら、全員答えてください" not in text and "同じ数の人がいれば、全員答えてください" not in text, line
        assert "並んだ人を全員" in text, line  # whom to name: the tied ones, all of them


def test_the_werewolf_game_ends_with_who_held_what_after_the_winners():
    t = Table("werewolf", WOLF)
    out = t.answer("done", "Aki", "Aki")  # the seer divines Aki, the village executes him
    assert t.state.finished and t.end.line == "wolf.win.village"
    end = next(i for i, c in enumerate(out) if isinstance(c, End))
    after = out[end + 1:]
    assert lines(after) == ["wolf.reveal_all"] + ["wolf.reveal"] * 5
    assert [(c.params["name"], c.params["cards"][0][0]) for c in after[1:]] == [
        ("Aki", "wolf.role.werewolf"), ("Ben", "wolf.role.seer"), ("Chika", "wolf.role.knight"),
        ("Dai", "wolf.role.villager"), ("Emi", "wolf.role.villager")]
    assert _ja("wolf.reveal", after[1].params) == "Akiのカードは人狼でした。"


def test_physical_cards_end_with_no_reveal_the_narrator_cannot_know():
    t = Table("tabula", cards="physical", players=8)
    assert not t.config.digital_cards
    assert not said(t.cues, "wolf.reveal_all")


# --- a count-in is not repeated with the question after it -----------------------------------

def test_a_count_in_is_kept_and_read_back_as_one_for_resume():
    from narrator.cues import cue_from_dict
    cue = CountIn("wolf.count_in")
    assert cue.to_dict() == {"kind": "count_in", "line": "wolf.count_in", "params": {}}
    assert cue_from_dict(cue.to_dict()) == cue and isinstance(cue, Say)
    assert type(cue_from_dict(Say("nomination.count_in").to_dict())) is Say  # a game saved before: as it was


def _scheduler(tmp_path):
    hub = ListenerHub()
    hub.register("keyboard")
    path = tmp_path / "t.jsonl"
    return Scheduler(TextVoice(load_pack("ja")), NullOutput(), ManualClock(), hub, Transcript(path),
                     ConsoleDisplay(False)), hub, path


def _repeat_once(tmp_path, cues, answer):
    scheduler, hub, path = _scheduler(tmp_path)

    async def scene():
        task = asyncio.ensure_future(scheduler.play(cues, {"day": 1}))
        await scheduler.clock.advance_to(60)  # everything has been said; the question is open
        hub.offer_text("r", "keyboard")
        await scheduler.clock.advance_to(120)
        hub.offer_text(answer, "keyboard")
        await scheduler.clock.run_until(task.done)
        return task.result()

    asyncio.run(scene())
    return [(r["line"], bool(r.get("repeat"))) for r in read_transcript(path) if r["kind"] in ("say", "ask")]


def test_repeating_the_nomination_question_does_not_say_seeno_again(tmp_path):
    rules, config = configure(players=5, names=NAMES5)
    cues = _until_asked(rules, config, "nomination.who")
    assert lines(cues[-3:]) == ["nomination.ready", "nomination.count_in", "nomination.who"]
    heard = _repeat_once(tmp_path, cues[-3:], "1")
    assert heard == [("nomination.ready", False), ("nomination.count_in", False), ("nomination.who", False),
                     ("nomination.who", True)]  # the question alone: the pointing is over


def test_repeating_the_werewolf_vote_says_the_question_alone(tmp_path):
    t = Table("werewolf", WOLF)
    out = t.answer("done", "Dai")
    heard = _repeat_once(tmp_path, out[-3:], "1")
    assert heard[-1] == ("wolf.vote", True) and heard[-2] == ("wolf.vote", False)
    assert [line for line, again in heard if again] == ["wolf.vote"]


def _until_asked(rules, config, line):
    """The game's cues up to the question `line` (every question before it answered `done`)."""
    state, event, played = rules.new_state(), {"type": "start"}, []
    for _ in range(500):
        state, cues = rules.advance(config, state, event)
        played += cues
        if cues and isinstance(cues[-1], Ask):
            if cues[-1].line == line:
                return played
            event = {"type": "answer", "value": "done"}
        else:
            event = {"type": "continue"}
    raise AssertionError(f"{line} was never asked")


# --- Additional Werewolf: one 「顔を下ろしてください」 around the card check --------------------

def test_the_swap_and_the_card_check_say_lower_your_face_once():
    rules, config = configure(players=5)  # the peddler and two phantom mages swap on night 1
    _, cues = run_game(rules, config, ["done", "yes"])
    heard = [c.line for c in cues if isinstance(c, Say)]
    first = heard[heard.index("night.begin"):heard.index("night.end")]
    swap = first.index("peddler.act")
    assert first[swap:swap + 4] == ["peddler.act", "night.check_role", "night.put_back", "night.sleep"]
    calls = sum(line.endswith(".act") for line in first)
    checks = first.count("night.check_role")
    assert checks == 3 and first.count("night.sleep") == calls  # one per call: a swap's is the check's


# --- Bestia Magica: the revote names the tied once ---------------------------------------------

def test_the_bestia_magica_revote_says_the_tied_names_once():
    names = ["Aki", "Ben", "Chika"]
    tie = _ja("bm.vote.tie", {"names": names})
    begin = _ja("bm.revote.begin", {"names": names})
    for name in names:
        assert (tie + begin).count(name) == 1, (tie, begin)
    en = load_pack("en")
    assert sum((en.speak("bm.vote.tie", {"names": names}).text + en.speak("bm.revote.begin", {}).text).count(n)
               for n in names) == 3


# --- 「終わりました」 only where a microphone hears it ---------------------------------------------

def test_werewolf_ready_asks_for_a_press_without_a_microphone_and_on_the_host_screen():
    assert "終わりました" in _ja("wolf.ready")  # a microphone listens: the word
    assert "終わりました" not in _ja("wolf.ready", without_microphone=True)
    assert "ボタン" in _ja("wolf.ready", without_microphone=True)
    assert "言って" not in _ja("hint.on_screen.wolf.ready") and "ボタン" in _ja("hint.on_screen.wolf.ready")


# --- the result card: every game file's winner in words ------------------------------------------

def test_every_shipped_game_files_winner_has_its_words_on_the_result_card():
    """The card shows the game's own win line (`wolf.win.<team>`, `kernel.game.table_facts`), in
    words in both packs; the page's strings keep no second copy of a game file's team."""
    strings = json.loads(STRINGS.read_text(encoding="utf-8"))
    winners = {"nobody"}
    for path in kernel_files.shipped_files().values():
        winners |= {w.winner for w in read_game_file(path).wins}
    for lang in ("ja", "en"):
        pack = load_pack(lang)
        missing = sorted(w for w in winners if not pack.has(f"wolf.win.{w}"))
        assert not missing, (lang, missing)
        assert not [w for w in winners - {"werewolves"} if f"winner_{w}" in strings[lang]], lang  # AW's team stays
    assert _ja("wolf.win.village") == "村人チームの勝利です！"
    assert not re.search(r"[A-Za-z_]", "".join(_ja(f"wolf.win.{w}") for w in winners))
