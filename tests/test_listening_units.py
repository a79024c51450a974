"""Fast tests of the listening pieces with a fake engine: grammar, options, confirmation.

The real recognizer is exercised in test_vosk_recognition.py and test_voice_game.py;
these pin the logic around it (what a grammar holds, how heard words map, what counts).
"""

from __future__ import annotations

import asyncio

import pytest

from narrator.cues import Ask
from narrator.errors import NarratorError, SetupError
from narrator.inputs.hub import Heard, ListenerHub, Vocabulary
from narrator.inputs.voice.grammar import Grammar, PhraseBook
from narrator.inputs.voice.setup import check_vocabulary, listen_options
from narrator.inputs.voice.microphone import QueueSource
from narrator.inputs.voice.listener import VoiceListener
from narrator.sound.engines import Recognition
from narrator.sound.voicepack import load_pack
from narrator.table.clock import settle

BOOK = PhraseBook(
    {"yes": ["はい"], "no": ["いいえ"], "done": ["おわり", "つぎ"], "repeat": ["もういちど"], "pause": ["まって"],
     "resume": ["さいかい"], "undo": ["とりけし"], "help": ["へるぷ"], "witch": ["まじょ"]},
    {"Aki": ["あき"], "Ben": ["べん"], "Chie": ["ちえ"]},
)


def test_grammar_holds_only_what_can_be_answered_now():
    yes_no = BOOK.grammar(Ask("nomination.werewolf_found", ("yes", "no")))
    assert set(yes_no.phrases) == {"はい", "いいえ", "おわり", "つぎ", "もういちど", "まって", "さいかい", "とりけし", "へるぷ"}
    names = BOOK.grammar(Ask("nomination.who", ("Aki", "Ben"), multiple=True))
    assert "あき" in names.phrases and "べん" in names.phrases
    assert "ちえ" not in names.phrases and "はい" not in names.phrases
    between = BOOK.grammar(None)
    assert "はい" not in between.phrases and "つぎ" in between.phrases


def test_grammar_reads_phrases_back_to_meanings():
    grammar = BOOK.grammar(Ask("nomination.who", ("Aki", "Ben", "Chie"), multiple=True))
    assert grammar.read("あき") == "Aki"
    assert grammar.read("あき べん") == "Aki,Ben"
    assert grammar.read("あき あき") == "Aki"
    assert grammar.read("つぎ") == "done"
    assert grammar.read("あき つぎ") is None  # a name and a command together is not guessed
    assert grammar.read("ぶどう") is None
    multiword = Grammar({"go on": "resume", "go": "done"})
    assert multiword.read("go on") == "resume" and multiword.read("go") == "done"


def test_phrase_book_from_packs_uses_listening_phrases_and_name_readings():
    ja = PhraseBook.from_pack(load_pack("ja"), ["Aki"], {"Aki": "あき"})
    assert ja.phrases["yes"] == ["はい"] and ja.phrases["resume"] == ["さいかい"]
    assert ja.names == {"Aki": ["あき"]}
    en = PhraseBook.from_pack(load_pack("en"), ["Aki"])
    assert "undo" in en.phrases["undo"] and en.names == {"Aki": ["Aki"]}
    assert "aki" in en.grammar(Ask("nomination.who", ("Aki",))).phrases


def test_listen_options_validation():
    assert listen_options({}).listen == "auto"
    opts = listen_options({"listen": "on", "confidence": "0.5", "answer_timeout": 30, "confirm": "false"})
    assert (opts.listen, opts.confidence, opts.answer_timeout, opts.confirm) == ("on", 0.5, 30.0, False)
    for bad, word in (({"listen": "maybe"}, "listen"), ({"confidence": 2}, "confidence"),
                      ({"mute_tail": "x"}, "mute_tail"), ({"confirm": "perhaps"}, "confirm")):
        with pytest.raises(SetupError, match=word):
            listen_options(bad, "table file t.toml")


@pytest.mark.parametrize("bad, line", [
    ({"confidence": True}, "table file t.toml: confidence must be a number, not 'True'"),
    ({"answer_timeout": False}, "table file t.toml: answer_timeout must be a number, not 'False'"),
    ({"confirm": 5}, "table file t.toml: confirm must be true or false, not '5'"),
])
def test_listen_options_take_booleans_only_as_booleans(bad, line):
    with pytest.raises(SetupError) as err:
        listen_options(bad, "table file t.toml")
    assert str(err.value) == line


class FakeEngine:
    """Hears whatever `script` says, one utterance per pushed chunk."""

    name, sample_rate = "fake", 16000

    def __init__(self, known=None, script=None):
        self.known, self.script, self.grammars = known, list(script or []), []

    def missing_words(self, phrases):
        return [w for p in phrases for w in p.split() if self.known is not None and w not in self.known]

    def recognizer(self, phrases):
        self.grammars.append(list(phrases))
        return self

    def accept(self, pcm):
        return self.script.pop(0) if self.script else None

    def finish(self):
        return None

    def reset(self):
        pass


def test_a_word_the_model_lacks_is_an_error_naming_it():
    engine = FakeEngine(known={"はい", "いいえ", "おわり", "つぎ", "もういちど", "まって", "さいかい", "とりけし", "へるぷ",
                               "あき", "べん"})
    with pytest.raises(NarratorError, match="lacks the word ちえ"):
        check_vocabulary(engine, BOOK, load_pack("ja"))


async def _answer_with(script, ask, pushes=1):
    hub = ListenerHub(Vocabulary())
    engine = FakeEngine(script=script)
    source = QueueSource(16000)
    listener = VoiceListener(engine, source, BOOK, confidence=0.7, mute_tail=0.0)
    listener.start(hub, asyncio.get_running_loop())
    task = asyncio.ensure_future(hub.answer(ask))
    await settle()  # the question is open: the listener has its grammar
    for _ in range(pushes):
        source.push(b"\0\0" * 1600)
    try:
        return await asyncio.wait_for(task, 2), listener
    finally:
        source.close()


def test_low_confidence_is_ignored_and_a_sure_answer_counts():
    ask = Ask("nomination.werewolf_found", ("yes", "no"))
    script = [Recognition("はい", 0.4), Recognition("いいえ", 0.95)]
    heard, listener = asyncio.run(_answer_with(script, ask, pushes=2))
    assert heard == Heard("answer", "no", "voice", confirm=True)
    assert [h.outcome for h in listener.hearings] == ["low-confidence", "used"]


def test_a_rejected_confirmation_reopens_the_question(tmp_path):
    """The hub marks a heard name `confirm`; the scheduler asks it back (table/confirm.py), and
    a no reopens the question: the next name heard is the answer."""
    from narrator.sound.outputs import NullOutput
    from narrator.sound.voice import TextVoice
    from narrator.table.clock import ManualClock
    from narrator.table.display import ConsoleDisplay
    from narrator.table.scheduler import Scheduler
    from narrator.table.transcript import Transcript, read_transcript

    ask = Ask("nomination.who", ("Aki", "Ben"), multiple=True)
    path = tmp_path / "t.jsonl"
    hub = ListenerHub(Vocabulary())
    hub.register("voice")
    scheduler = Scheduler(TextVoice(load_pack("ja")), NullOutput(), ManualClock(), hub, Transcript(path),
                          ConsoleDisplay(False), confirm=True)

    async def run():
        task = asyncio.ensure_future(scheduler.play([ask], {"day": 1}))
        for at, words in ((30, "Aki"), (60, "no"), (90, "Ben"), (120, "yes")):
            await scheduler.clock.advance_to(at)
            assert hub.offer_text(words, "voice", confirm=True) is None
        await scheduler.clock.run_until(task.done)
        return task.result()

    heard = asyncio.run(run())
    assert heard.value == ["Ben"]
    said = [(r["kind"], r["line"], r.get("value")) for r in read_transcript(path) if r["kind"] != "step"]
    assert [s for s in said if s[0] in ("ask", "say", "answer")] == [
        ("ask", "nomination.who", None), ("ask", "confirm.name", None), ("answer", "confirm.name", "no"),
        ("say", "confirm.again", None), ("say", "nomination.who", None),  # Aki? no: asked again
        ("ask", "confirm.name", None), ("answer", "confirm.name", "yes"), ("answer", "nomination.who", ["Ben"])]


def test_undo_during_a_confirmation_means_no():
    async def run():
        hub = ListenerHub(Vocabulary())
        hub.register("voice")
        task = asyncio.ensure_future(hub.answer(Ask("confirm.yes", ("yes", "no"))))
        await asyncio.sleep(0)
        assert hub.offer_text("undo", "voice", confirm=True) is None
        return await task

    assert asyncio.run(run()).value == "no"


def test_keyboard_answers_are_not_confirmed_and_done_steps_never_are():
    async def run(ask, text, source, confirm):
        hub = ListenerHub(Vocabulary())
        hub.register(source)
        task = asyncio.ensure_future(hub.answer(ask))
        await asyncio.sleep(0)
        hub.offer_text(text, source, confirm=confirm)
        return await task

    assert asyncio.run(run(Ask("q", ("yes", "no")), "y", "keyboard", False)).confirm is False
    assert asyncio.run(run(Ask("setup.ready", ("done",)), "done", "voice", True)).confirm is False
    assert asyncio.run(run(Ask("q", ("yes", "no")), "yes", "voice", True)).confirm is True


def test_words_heard_for_a_closed_question_never_answer_the_next_one():
    async def run():
        hub = ListenerHub(Vocabulary())
        listener = VoiceListener(FakeEngine(), QueueSource(16000), BOOK)
        listener._hub = hub
        hub.register("voice")
        hub.observe(on_ask=listener._on_ask)
        first = asyncio.ensure_future(hub.answer(Ask("confirm.yes", ("yes", "no"))))
        await asyncio.sleep(0)
        old_serial, old_grammar = listener._grammar_serial, listener._grammar
        hub.offer_text("y", "keyboard")  # the keyboard answers first
        await first
        second = asyncio.ensure_future(hub.answer(Ask("nomination.werewolf_found", ("yes", "no"))))
        await asyncio.sleep(0)
        listener._offer(Recognition("はい", 1.0), old_grammar, old_serial, 0.0)  # the late voice result
        await asyncio.sleep(0)
        assert not second.done()
        second.cancel()
        return listener.hearings

    assert [h.outcome for h in asyncio.run(run())] == ["stale"]


def test_a_games_own_answer_words_join_the_grammar_and_unknown_ones_are_reported():
    grammar = BOOK.grammar(Ask("pagan.action", ("done", "witch")))
    assert grammar.read("まじょ") == "witch" and "witch" not in grammar.names

    async def run():
        hub = ListenerHub(Vocabulary())
        engine = FakeEngine(known={"はい", "いいえ", "おわり", "つぎ", "もういちど", "まって", "さいかい", "とりけし", "へるぷ"})
        source = QueueSource(16000)
        listener = VoiceListener(engine, source, BOOK)
        listener.start(hub, asyncio.get_running_loop())
        task = asyncio.ensure_future(hub.answer(Ask("pagan.action", ("done", "witch"))))
        await settle()  # the question is open: the listener has its grammar
        source.push(b"\0\0" * 1600)
        source.close()  # the audio ends after that chunk: the listener reads it all, then stops
        await asyncio.to_thread(listener.thread.join, 30)
        assert not listener.thread.is_alive(), "the listener never finished"
        await settle()  # what it noted, handed to the loop, is in
        task.cancel()
        return engine.grammars[-1], listener.hearings

    grammar_used, hearings = asyncio.run(run())
    assert "まじょ" not in grammar_used and "つぎ" in grammar_used
    assert [(h.text, h.meaning) for h in hearings if h.outcome.startswith("not in the model")] == [("まじょ", "witch")]


def test_what_is_said_back_for_each_kind_of_answer():
    from narrator.table.confirm import confirmation

    vocabulary = load_pack("ja").vocabulary
    assert confirmation(Heard("answer", "yes", "voice", True), vocabulary).line == "confirm.yes"
    witch = confirmation(Heard("answer", "witch", "voice", True), vocabulary)
    assert (witch.line, witch.params) == ("confirm.answer", {"answer": "魔女"})
    assert load_pack("ja").speak(witch.line, witch.params).text == "「魔女」ですね？"
    names = confirmation(Heard("answer", ["Aki", "Ben"], "voice", True), vocabulary)
    assert load_pack("ja").speak(names.line, names.params).text == "AkiさんとBenさんですね？"  # two names: と
    assert load_pack("en").speak(names.line, names.params).text == "Aki and Ben, is that right?"


def test_a_heard_done_is_never_confirmed_even_where_other_answers_are():
    async def run():
        hub = ListenerHub(Vocabulary())
        hub.register("voice")
        task = asyncio.ensure_future(hub.answer(Ask("pagan.action", ("done", "innocent"))))
        await asyncio.sleep(0)
        hub.offer_text("done", "voice", confirm=True)
        return await task

    assert asyncio.run(run()).confirm is False


def test_a_confirmation_takes_yes_no_or_undo_only():
    async def run():
        hub = ListenerHub(Vocabulary())
        hub.register("voice")
        task = asyncio.ensure_future(hub.answer(Ask("confirm.name", ("yes", "no"), params={"names": ["Aki"]})))
        await asyncio.sleep(0)
        hints = [hub.offer_text(word, "voice", confirm=True) for word in ("pause", "help", "resume")]
        assert hub.command_nowait() is None  # nothing reached the scheduler's commands
        hub.offer_text("yes", "voice", confirm=True)
        return hints, await task

    hints, heard = asyncio.run(run())
    assert hints == ["answer yes (y) or no (n) first"] * 3 and heard.value == "yes" and heard.confirm is False


def test_every_confirmation_line_is_in_both_packs_with_the_same_placeholders():
    ja, en = load_pack("ja"), load_pack("en")
    lines = ["confirm.name", "confirm.yes", "confirm.no", "confirm.answer", "confirm.again"]
    for line in lines:
        assert ja.has(line) and en.has(line), line
        assert ja.placeholders(line) == en.placeholders(line), line
    assert ja.lines["confirm.again"].reading is not None  # kanji in the text: a kana reading for espeak-ng


def test_the_mute_lasts_to_the_clips_last_sound_plus_the_tail(tmp_path):
    import array
    import time
    import wave

    from narrator.inputs.voice.microphone import audible_seconds

    clip = tmp_path / "tick.wav"
    tone = array.array("h", [8000, -8000] * 2400)  # 0.3 s of sound at 16 kHz …
    with wave.open(str(clip), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
        w.writeframes(tone.tobytes() + b"\0\0" * 8000)  # … then 0.5 s of silence
    assert abs(audible_seconds(clip) - 0.3) < 0.001
    listener = VoiceListener(FakeEngine(), QueueSource(16000), BOOK, mute_tail=0.2)
    before = time.monotonic()
    listener._on_speech(0.8, clip)
    assert 0.49 <= listener.muted_until - before <= 0.55  # 0.3 s of sound + 0.2 s tail, not 0.8 + 0.2
    listener._on_speech(0.8, None)  # text mode or unknown audio: the whole clip
    assert listener.muted_until - before >= 0.99


def test_the_pure_python_resampler_matches_audioops_length_and_level():
    """Python 3.13 has no audioop: the fallback must give the same shape of audio."""
    import array

    from narrator.inputs.voice.microphone import _to_mono16_python, to_mono16

    stereo_22k = array.array("h", [1000, 3000] * 22050).tobytes()  # 1 s, L=1000 R=3000
    fast = to_mono16(stereo_22k, 2, 2, 22050, 16000)
    slow = _to_mono16_python(stereo_22k, 2, 2, 22050, 16000)
    assert abs(len(fast) - len(slow)) <= 4 and len(slow) == 32000
    assert set(array.array("h", slow)) == {2000} and abs(array.array("h", fast)[100] - 2000) <= 1
