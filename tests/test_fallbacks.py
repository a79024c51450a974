"""A missing engine or device at `play` falls back with one clear warning; a named device that is missing is an error."""

import shutil
import subprocess
import sys

import pytest

from narrator.sound.voicepack import REPO_VOICES

pytestmark = pytest.mark.slow


def play(tmp_path, *flags):
    (tmp_path / "answers.txt").write_text("done\nyes\nno\n")
    cmd = [sys.executable, "-m", "narrator", "play", "--players", "5", "--no-keyboard", "--listen", "off",
           "--answers", str(tmp_path / "answers.txt"), *flags]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def warnings(result):
    return [line for line in result.stderr.splitlines() if line.startswith("warning:")]


def test_no_speaker_prints_the_lines_after_one_warning(tmp_path):
    result = play(tmp_path, "--lang", "en", "--time-scale", "0.0005")
    assert result.returncode == 0, result.stderr
    (warning,) = warnings(result)
    assert "no audio output device" in warning and "--audio null" in warning
    assert "Seer, open your eyes." in result.stdout


def test_a_named_device_that_is_missing_is_an_error_naming_the_fix(tmp_path):
    result = play(tmp_path, "--lang", "en", "--time-scale", "0.001", "--audio-device", "99")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("error: no audio output device 99")
    assert "narrator doctor" in result.stderr


def test_a_missing_engine_falls_back_to_the_next_with_one_warning(tmp_path):
    pack = tmp_path / "en-x"
    shutil.copytree(REPO_VOICES / "en", pack, ignore=shutil.ignore_patterns("cache"))
    toml = pack / "voice.toml"
    toml.write_text(toml.read_text().replace('engine = "pyttsx3"', 'engine = "nosuch"\nfallback = ["pyttsx3"]'))
    result = play(tmp_path, "--voice", str(pack), "--time-scale", "0", "--audio-out", str(tmp_path / "g.wav"))
    assert result.returncode == 0, result.stderr
    (warning,) = warnings(result)
    assert "no speech engine 'nosuch'" in warning and "speaking with pyttsx3 instead" in warning
    assert (tmp_path / "g.wav").stat().st_size > 100_000


def test_no_engine_at_all_prints_the_lines(tmp_path):
    pack = tmp_path / "en-y"
    shutil.copytree(REPO_VOICES / "en", pack, ignore=shutil.ignore_patterns("cache"))
    toml = pack / "voice.toml"
    toml.write_text(toml.read_text().replace('engine = "pyttsx3"', 'engine = "nosuch"'))
    result = play(tmp_path, "--voice", str(pack), "--time-scale", "0")
    assert result.returncode == 0, result.stderr
    (warning,) = warnings(result)
    assert "printing the lines instead" in warning
    assert "Seer, open your eyes." in result.stdout
