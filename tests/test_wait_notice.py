"""A game start that waits says so (`narrator.sound.wait_notice`): one spoken estimate once the
render's rate is known, only when it takes more than a few seconds; driven by a stand-in clock."""

from __future__ import annotations

from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from narrator.sound.wait_notice import FEW_SECONDS, WaitNotice, notice_line
from narrator.table.session import prepare_voice
from tests.audio_helpers import tone, write_wav
from tests.engine_driver import configure


class Ticking:
    """A stand-in engine each render of which takes `seconds` on a stand-in clock."""

    name = "ticking"
    reads_kanji = True

    def __init__(self, now: list[float], seconds: float):
        self.now, self.seconds = now, seconds
        self.rendered: list[str] = []

    def render(self, text, out, voice):
        self.now[0] += self.seconds
        self.rendered.append(text)
        write_wav(out, tone(0.2, 440))


def test_the_line_is_the_first_whose_bound_covers_the_estimate():
    assert notice_line(6) == "render_ahead.half_minute"
    assert notice_line(61) == "render_ahead.two_minutes"
    assert notice_line(4000) == "render_ahead.longer"


def test_a_long_render_says_its_estimate_once_and_a_short_one_says_nothing():
    now, said, seen = [0.0], [], []
    waiting = WaitNotice(100, lambda line, left: said.append((line, left)), lambda: now[0], seen.append)
    for _ in range(100):
        now[0] += 0.5
        waiting.update(1)
    assert said == [("render_ahead.one_minute", 49.0)]  # after 2 lines (1 s): 98 left at 0.5 s each
    assert sum(seen) == 100
    quick = WaitNotice(20, lambda line, left: said.append(line), lambda: now[0])
    for _ in range(20):
        now[0] += FEW_SECONDS / 40
        quick.update(1)
    assert len(said) == 1


def test_a_game_start_with_lines_to_render_says_how_long_and_prints_it(tmp_path, capsys):
    rules, config = configure(players=5)
    now = [0.0]
    voice = EngineVoice(load_pack("ja"), Ticking(now, 1.0), cache_dir=tmp_path / "cache")
    heard = []
    prepare_voice(voice, rules, config, notice=heard.append, clock=lambda: now[0])
    assert len(heard) == 1 and heard[0].spoken.line.startswith("render_ahead.")  # said once
    assert heard[0].spoken.line != "render_ahead.half_minute"  # hundreds of lines at 1 s each
    err = capsys.readouterr().err
    assert heard[0].spoken.text in err and "lines ahead" in err
    # everything is in the cache now: the next start renders nothing and says nothing
    again = EngineVoice(load_pack("ja"), Ticking(now, 1.0), cache_dir=tmp_path / "cache")
    heard.clear()
    prepare_voice(again, rules, config, notice=heard.append, clock=lambda: now[0])
    assert again.engine.rendered == [] and heard == []
