"""An `open_jtalk` run that never ends is one line naming the fix, not a traceback.

Seen on 2026-12-03: `scripts/play` on a fresh arm64 Debian under qemu, at the lowest priority
beside a CI run, took over the old 60 s bound on one line; `subprocess.TimeoutExpired` went up
through the render pool and setup printed ~70 lines of traceback before going on. Here the
program is a stand-in that sleeps (a real process, really killed at the bound, which the test
shortens: it never has to wait for the process to do anything, only for the bound to pass).
"""

import pickle

import pytest

narrator_openjtalk = pytest.importorskip("narrator_openjtalk")

from narrator.sound.engines import EngineUnavailable, VoiceSettings  # noqa: E402


@pytest.fixture
def hung_engine(tmp_path, monkeypatch):
    program = tmp_path / "open_jtalk"
    program.write_text("#!/bin/sh\nexec sleep 600\n")
    program.chmod(0o755)
    engine = narrator_openjtalk.OpenJTalkEngine.__new__(narrator_openjtalk.OpenJTalkEngine)
    engine.program = str(program)
    monkeypatch.setattr(engine, "voice_file", lambda voice: tmp_path / "voice.htsvoice")
    monkeypatch.setattr(narrator_openjtalk, "RUN_SECONDS", 0.2)
    return engine


def test_a_hung_render_is_one_line_naming_the_line_and_the_retry(hung_engine, tmp_path):
    with pytest.raises(EngineUnavailable) as raised:
        hung_engine.render("占い師の方、顔を上げてください。", tmp_path / "out.wav", VoiceSettings("ja"))
    message = str(raised.value)
    assert "\n" not in message
    assert "'占い師の方、顔を上げてください。'" in message and "narrator voices render" in message
    # the render pool hands a worker's error back to setup by pickling it: it must survive that
    assert str(pickle.loads(pickle.dumps(raised.value))) == message


def test_a_hung_reading_is_one_line_too(hung_engine):
    with pytest.raises(EngineUnavailable) as raised:
        hung_engine.reading("顔を上げてください")
    assert "\n" not in str(raised.value) and "took over 0.2 s" in str(raised.value)


def test_a_run_is_not_cut_at_the_old_minute():
    assert narrator_openjtalk.RUN_SECONDS >= 300  # a busy Pi or an emulated one took over 60 s
