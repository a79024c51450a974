"""Real recognition: espeak-ng's Korean speech through the game's listening code path.

Words are synthesized with espeak-ng (22 kHz), read and resampled to 16 kHz mono by the
same source code a recording uses, and recognized by the vosk engine (found by its entry
point) against the test vocabulary's small grammar. Measured here: 네 and 아니요 are
recognized in all four espeak-ng variants below; 다음 reliably only in `ko+f2`.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.errors import NarratorError
from narrator.cli.listen import listen_grammar, run_listen
from narrator.inputs.voice.grammar import PhraseBook
from narrator.inputs.voice.setup import check_vocabulary
from narrator.inputs.voice.microphone import WavSource
from narrator.sound.voicepack import load_pack
from tests.voice_support import VOCABULARY, ko_engine, ko_model_path, make_ko_pack, say_wav

pytestmark = pytest.mark.slow
GRAMMAR = "네,아니요,다음"


def hear(word: str, variant: str, grammar: str = GRAMMAR):
    engine = ko_engine()
    hearings = run_listen(engine, WavSource(say_wav(word, variant), engine.sample_rate), listen_grammar(grammar, "ko"),
                          confidence=0.7, seconds=30, echo=lambda line: None)
    return [(h.meaning, h.outcome) for h in hearings]


@pytest.mark.parametrize("variant", ["ko", "ko+f2", "ko+klatt", "ko+m3"])
@pytest.mark.parametrize("word", ["네", "아니요"])
def test_yes_and_no_are_recognized_in_every_voice(word, variant):
    assert hear(word, variant) == [(word, "used")]


def test_next_is_recognized_in_a_clear_voice():
    assert hear("다음", "ko+f2") == [("다음", "used")]


def test_out_of_grammar_speech_is_forced_onto_a_grammar_word():
    """Why answers are confirmed: 사과 (apple) is not in the grammar, yet a word is heard."""
    heard = hear("사과", "ko")
    assert len(heard) == 1 and set(heard[0][0].split(",")) <= {"네", "아니요", "다음"}


def test_the_engine_names_words_the_model_lacks():
    engine = ko_engine()
    assert engine.missing_words(["네", "아니요 다음", "narratorxyz"]) == ["narratorxyz"]
    assert engine.has_unknown is False  # this model has no [unk]: out-of-grammar speech lands on a word


def test_a_pack_word_missing_from_the_model_stops_the_game_start(narrator_home):
    make_ko_pack(narrator_home)
    pack = load_pack("ko")
    ko_engine()  # the model is there
    check_vocabulary(ko_engine(), PhraseBook.from_pack(pack, ["민수"]), pack)  # all known: no error
    with pytest.raises(NarratorError, match="lacks the word Zyxwv"):
        check_vocabulary(ko_engine(), PhraseBook.from_pack(pack, ["민수", "Zyxwv"]), pack)


def test_narrator_listen_prints_what_a_recording_says_with_confidence():
    result = CliRunner().invoke(main, ["listen", "--model", str(ko_model_path()), "--grammar", GRAMMAR,
                                       "--wav", str(say_wav("아니요", "ko"))])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "heard 「아니요」 (1.00) → 아니요"


def test_narrator_listen_refuses_a_grammar_word_the_model_lacks():
    result = CliRunner().invoke(main, ["listen", "--model", str(ko_model_path()), "--grammar", "네,qqqzz",
                                       "--wav", str(say_wav("네", "ko"))])
    assert result.exit_code == 1 and "lacks qqqzz" in result.stderr


def test_vocabulary_covers_every_meaning():
    assert set(VOCABULARY) == {"yes", "no", "done", "repeat", "pause", "resume", "undo", "help"}
    assert ko_engine().missing_words(list(VOCABULARY.values())) == []


def _heard_while_open(endpoint):
    """Push 네 and 0.5 s of silence, keep the microphone open: is it heard yet?"""
    import asyncio

    from narrator.cli.listen import EchoHub, FixedPhrases
    from narrator.inputs.voice.microphone import QueueSource
    from narrator.inputs.voice.listener import VoiceListener

    engine = ko_engine()
    source = QueueSource(engine.sample_rate)
    listener = VoiceListener(engine, source, FixedPhrases(listen_grammar(GRAMMAR, "ko")), endpoint_silence=endpoint)

    async def scene():
        listener.start(EchoHub(), asyncio.get_running_loop())
        source.push_wav(say_wav("네", "ko"), silence_after=0.5)
        for _ in range(80):  # up to 4 s: far more than the decode takes, even on a busy machine
            await asyncio.sleep(0.05)
            if listener.hearings:
                break
        heard = [h.text for h in listener.hearings]  # before the end of audio finalizes it
        source.close()
        return heard

    return asyncio.run(scene())


def test_a_short_quiet_after_speech_ends_the_utterance_at_once():
    assert _heard_while_open(0.4) == ["네"]
    assert _heard_while_open(None) == []  # vosk alone waits for more silence than that


def test_narrator_listen_uses_the_games_vocabulary_by_default(narrator_home):
    make_ko_pack(narrator_home)
    result = CliRunner().invoke(main, ["listen", "--lang", "ko", "--model", str(ko_model_path()),
                                       "--wav", str(say_wav("네", "ko"))])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "heard 「네」 (1.00) → yes"
    assert "listening for: 다음, 다시, 잠깐, 계속, 취소, 도움, 네, 아니요" in result.stderr
