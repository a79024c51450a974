"""A recorded game resumed keeps its whole recording (issue 26, item 13): `narrator resume`
takes `--audio-out`, and the saved game's WAV keeps what was heard before the stop, with the
resumed part after it on the same game timeline."""

import os
import subprocess
import sys
import wave

import pytest

pytestmark = pytest.mark.slow
NAMES = "Aki,Ben,Chie,Dai,Emi"


def _narrator(home, *args):
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "narrator", *args, "--time-scale", "0", "--no-keyboard"],
                          capture_output=True, text=True, env=env, timeout=300)


def _frames(path):
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes())


def test_a_resumed_recording_keeps_the_part_before_the_stop(tmp_path):
    home, wav = tmp_path / "home", tmp_path / "game.wav"
    (tmp_path / "part.txt").write_text("done\nAki\n")  # stops at 「人狼は見つかりましたか」
    first = _narrator(home, "play", "--names", NAMES, "--lang", "en", "--seed", "3", "--audio-out", str(wav),
                      "--answers", str(tmp_path / "part.txt"))
    assert first.returncode == 3, first.stderr
    before = _frames(wav)
    assert before.strip(b"\0")  # something was said and recorded
    (tmp_path / "rest.txt").write_text("done\nAki\nno\nno\ndone\nBen\nno\nno\ndone\nDai\nno\nno\n")
    again = _narrator(home, "resume", "--answers", str(tmp_path / "rest.txt"), "--audio-out", str(wav))
    assert again.returncode == 0, again.stderr
    whole = _frames(wav)
    assert len(whole) > len(before)
    kept = len(before) // 2  # the welcome, the card list and the first night, as heard then
    assert whole[:kept] == before[:kept]
