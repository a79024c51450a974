"""Names apart (`narrator.sound.name_clips`): a slow engine renders each player's name once,
cached by name, and says lines that name players as pieces; a game start says how long
rendering the names takes, in the pack's words. A fast fake engine stands in for Kokoro
here (its real renders are in test_kokoro_engine.py)."""

from __future__ import annotations

import json

import pytest

from narrator.sound import name_clips
from narrator.sound.clips import RATE, WIDTH
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from narrator.table.session import prepare_voice
from tests.audio_helpers import tone, write_wav
from tests.engine_driver import configure

NAMES = "太郎,花子,健,美咲,翔"


class SlowFake:
    """Kokoro's contract without its cost: one 0.05 s tone per character, every text kept."""

    name = "slowfake"
    reads_kanji = True
    names_apart = True
    loaded = True

    def __init__(self, names_apart: bool = True):
        self.names_apart = names_apart
        self.rendered: list[str] = []

    def render(self, text, out, voice):
        self.rendered.append(text)
        write_wav(out, tone(0.05 * len(text), 300 + 10 * len(text)))


@pytest.fixture
def pack():
    return load_pack("ja-natural")


def voice_for(pack, tmp_path, engine=None):
    return EngineVoice(pack, engine or SlowFake(), cache_dir=tmp_path / "cache")


def test_a_line_that_names_players_is_said_in_pieces(pack, tmp_path):
    voice = voice_for(pack, tmp_path)
    spoken = pack.speak("nomination.declare_names", {"names": ["太郎", "花子"]})
    parts = name_clips.pieces(voice, spoken)
    assert [p.words for p in parts if p.name] == ["太郎さん", "花子さん"]
    # the pack's own joining word (「と」) is a piece of its own, cached once for every table
    assert [p.words for p in parts if not p.name] == [pack.formats["join_last"],
                                                      "人狼であれば「人狼です」、そうでなければ「人狼ではありません」と答えてください。"]
    three = name_clips.pieces(voice, pack.speak("nomination.declare_names", {"names": ["太郎", "花子", "健"]}))
    assert three[0].pause == name_clips.PAUSES["、"]  # a 「、」 between names is a pause, not a clip
    # a single name keeps the pack's honorific, so 「太郎さん」 is the same cached clip as in a list
    single = name_clips.pieces(voice, pack.speak("private.call", {"name": "太郎"}))
    assert single[0].words == "太郎さん" and single[1].words == "端末を受け取ってください。"


def test_the_packs_pronounce_fixes_apply_to_the_words_around_names(pack, tmp_path):
    voice = voice_for(pack, tmp_path)
    parts = name_clips.pieces(voice, pack.speak("strategist.give_phone", {"name": "太郎"}))
    assert "策士のかた" in parts[0].words and "の方" not in parts[0].words


def test_numbers_stay_in_the_words_and_lines_without_names_are_whole(pack, tmp_path):
    voice = voice_for(pack, tmp_path)
    parts = name_clips.pieces(voice, pack.speak("private.chosen", {"seat": 2, "target": "健"}))
    assert any("2" in p.words for p in parts if not p.name) and [p.words for p in parts if p.name] == ["健"]
    assert name_clips.pieces(voice, pack.speak("tick", {"n": 5})) is None
    plain = voice_for(pack, tmp_path / "plain", SlowFake(names_apart=False))
    assert name_clips.pieces(plain, pack.speak("private.call", {"name": "太郎"})) is None


def test_the_joined_clip_is_its_pieces_with_their_pauses(pack, tmp_path):
    engine = SlowFake()
    voice = voice_for(pack, tmp_path, engine)
    clip = voice.clip("nomination.declare_names", {"names": ["太郎", "花子"]})
    parts = name_clips.pieces(voice, clip.spoken)
    pieces_s = sum(len(name_clips.piece_wav(voice, p).read_bytes()) - 44 for p in parts) / (WIDTH * RATE)
    pauses = sum(p.pause for p in parts[:-1])
    assert abs(clip.duration - (pieces_s + pauses)) < 0.01
    assert sorted(engine.rendered) == sorted(p.words for p in parts)


def test_a_name_is_rendered_once_and_reused_by_every_line_and_game(pack, tmp_path):
    engine = SlowFake()
    voice = voice_for(pack, tmp_path, engine)
    voice.clip("private.call", {"name": "太郎"})
    voice.clip("nomination.declare_names", {"names": ["花子", "太郎"]})
    voice.clip("nomination.found_digital", {"names": ["太郎"]})
    assert engine.rendered.count("太郎さん") == 1
    again = SlowFake()
    voice_for(pack, tmp_path, again).clip("nomination.declare_names", {"names": ["太郎", "花子"]})
    assert again.rendered == []  # a new game (a new voice) finds them in the cache


def test_a_game_start_renders_names_not_whole_lines_and_says_how_long_first(pack, tmp_path, capsys):
    rules, config = configure(players=5, names=NAMES)
    engine = SlowFake()
    voice = voice_for(pack, tmp_path, engine)
    heard = []
    prepare_voice(voice, rules, config, notice=heard.append)
    notice = heard[0]
    assert notice.spoken.line.startswith("names_ahead.") and notice.spoken.text in capsys.readouterr().err
    assert engine.rendered[0] == pack.kanji_words(notice.spoken.text)  # said before any name is rendered
    for name in NAMES.split(","):
        assert engine.rendered.count(f"{name}さん") == 1 and engine.rendered.count(name) == 1
    whole = [t for t in engine.rendered if any(n in t for n in NAMES.split(",")) and len(t) > 6]
    assert whole == []  # no line was rendered whole with a name in it
    # the next game with the same names renders nothing and says nothing
    again = SlowFake()
    heard.clear()
    prepare_voice(voice_for(pack, tmp_path, again), rules, config, notice=heard.append)
    assert again.rendered == [] and heard == []


def test_without_names_apart_a_game_start_renders_every_named_line_whole(pack, tmp_path):
    """The counterpart: the same game start without the protection renders far more."""
    rules, config = configure(players=5, names=NAMES)
    apart, whole = SlowFake(), SlowFake(names_apart=False)
    prepare_voice(voice_for(pack, tmp_path / "a", apart), rules, config)
    prepare_voice(voice_for(pack, tmp_path / "w", whole), rules, config)
    def named(engine):
        return sum(len(t) for t in engine.rendered if any(n in t for n in NAMES.split(",")))
    assert named(whole) > 5 * named(apart)


def test_the_estimate_learns_the_engines_speed_and_picks_the_line(pack, tmp_path):
    voice = voice_for(pack, tmp_path)
    todo = name_clips.name_pieces(voice, ["太郎", "花子"])
    words = name_clips.Piece("端末を受け取ってください。", 0.3)
    assert name_clips.estimate_seconds(voice, [*todo, words]) == pytest.approx(
        4 * name_clips.SECONDS_PER_NAME + name_clips.SECONDS_PER_CHAR * len(words.words))
    voice.prepare_pieces([*todo, words])
    speed = json.loads((voice.cache_dir / "render-speed.json").read_text())["slowfake"]
    assert 0 <= speed["seconds_per_name"] < 0.5 and 0 <= speed["seconds_per_char"] < 0.1  # the fake is fast …
    later = name_clips.name_pieces(voice, ["健", "美咲"])
    assert name_clips.estimate_seconds(voice, later) < 2.0  # … and the next estimate follows it
    assert name_clips.notice_line(20) == "names_ahead.half_minute"
    assert name_clips.notice_line(100) == "names_ahead.two_minutes"
    assert name_clips.notice_line(5000) == "names_ahead.longer"
    lines = [line for _, line in name_clips.NOTICES] + [name_clips.LONGER_NOTICE]
    assert all(load_pack(lang).has(line) for lang in ("ja", "en") for line in lines)


def test_voices_render_renders_the_words_around_names_ahead(pack, tmp_path):
    engine = SlowFake()
    voice = voice_for(pack, tmp_path, engine)
    fixed = name_clips.fixed_pieces(voice)
    assert any(p.words == "人狼であれば「人狼です」、そうでなければ「人狼ではありません」と答えてください。" for p in fixed)
    assert not any(name_clips.SAMPLE_NAME in p.words for p in fixed)
    voice.prepare_pieces(fixed)
    prepare_voice(voice, *configure(players=5))  # the lines without names, as `voices render` does
    engine.rendered.clear()
    rules, config = configure(players=5, names=NAMES)
    prepare_voice(voice, rules, config)
    names = NAMES.split(",")
    said_names = [t for t in engine.rendered if any(n in t for n in names)]
    assert sorted(said_names) == sorted([*names, *(f"{n}さん" for n in names)])  # only the names themselves
    assert not any(any(p.words == t for p in fixed) for t in engine.rendered)  # the words were ready
