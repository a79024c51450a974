"""Recorded packs, `narrator voices check/render/list`, `narrator say`, `narrator doctor`."""

import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.sound.clips import measure
from narrator.sound.doctor import Finding, register, run_checks, CHECKS
from narrator.sound.engines import load_tts
from narrator.sound.voice import EngineVoice
from narrator.table.transcript import read_transcript
from narrator.sound.voicepack import REPO_VOICES, load_pack
from tests.audio_helpers import first_sound, read_wav, silence, tone, write_wav

pytestmark = pytest.mark.slow


def recorded_pack(tmp_path):
    folder = tmp_path / "en-rec"
    shutil.copytree(REPO_VOICES / "en", folder, ignore=shutil.ignore_patterns("cache"))
    (folder / "voice.toml").write_text((folder / "voice.toml").read_text().replace('name = "en"', 'name = "en-rec"'))
    (folder / "recorded" / "tick").mkdir(parents=True)
    # a person's recording: padded with silence, at 44.1 kHz, quiet - processed like any clip
    write_wav(folder / "recorded" / "seer.wake.wav", silence(0.3, 44100) + tone(0.8, 330, 0.05, 44100) + silence(0.6, 44100), 44100)
    write_wav(folder / "recorded" / "tick" / "3.wav", tone(0.25, 660, 0.2))
    return folder


def test_a_recorded_line_replaces_the_synthesized_one(tmp_path):
    pack = load_pack(str(recorded_pack(tmp_path)))
    voice = EngineVoice(pack, load_tts("pyttsx3"), cache_dir=tmp_path / "cache")
    wake = voice.clip("seer.wake")
    assert wake.source == "recorded" and abs(wake.duration - 0.8) < 0.02  # trimmed of its padding
    assert voice.clip("tick", {"n": 3}).source == "recorded"
    assert voice.clip("tick", {"n": 4}).source == "synthesized"
    assert voice.clip("seer.act").source == "synthesized"
    assert measure(wake.wav)["dbfs"] == pytest.approx(-20, abs=0.5)


def test_a_game_with_a_recorded_pack_plays_the_recording(tmp_path):
    folder = recorded_pack(tmp_path)
    (tmp_path / "answers.txt").write_text("done\nyes\nno\n")
    cmd = [sys.executable, "-m", "narrator", "play", "--players", "5", "--cards", "seer=1,peddler=1,phantom_mage=1,lovers=2",
           "--voice", str(folder), "--time-scale", "0", "--answers", str(tmp_path / "answers.txt"), "--no-keyboard",
           "--audio-out", str(tmp_path / "g.wav"), "--transcript", str(tmp_path / "t.jsonl"), "--ambience", "false"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    wake = next(r for r in read_transcript(tmp_path / "t.jsonl") if r["line"] == "seer.wake")
    samples, rate = read_wav(tmp_path / "g.wav")
    start = first_sound(samples, rate, wake["t"] - 0.001, wake["t"] + 0.1)
    assert abs(start - wake["t"]) < 0.01
    # the 330 Hz recording, not espeak: count zero crossings over 0.5 s
    seg = samples[int((wake["t"] + 0.1) * rate):int((wake["t"] + 0.6) * rate)]
    crossings = sum(1 for a, b in zip(seg, seg[1:]) if (a < 0) != (b < 0))
    assert abs(crossings / 2 / 0.5 - 330) < 10


def test_voices_check_lists_what_a_recorded_pack_lacks(tmp_path):
    folder = recorded_pack(tmp_path)
    lines = folder / "lines" / "additional_werewolf.toml"
    lines.write_text(lines.read_text().replace('wake = "{@label.medium:capital}, open your eyes."\n', ""))
    result = CliRunner().invoke(main, ["voices", "check", str(folder), "--against", "en"])
    assert result.exit_code == 0, result.output
    assert "missing line  medium.wake" in result.output
    assert "not recorded  seer.act" in result.output
    assert "not recorded  seer.wake" not in result.output
    assert "tick/5.wav" in result.output and "tick/3.wav" not in result.output


def test_voices_render_renders_a_pack_and_a_second_run_renders_nothing(tmp_path):
    folder = tmp_path / "en2"
    shutil.copytree(REPO_VOICES / "en", folder, ignore=shutil.ignore_patterns("cache"))
    first = CliRunner().invoke(main, ["voices", "render", str(folder)])
    assert first.exit_code == 0, first.output
    ready = re.search(r"(\d+) lines ready, (\d+) of them rendered now", first.output)
    assert ready and ready[1] == ready[2] and int(ready[1]) > 100, first.output  # an empty cache: every line
    second = CliRunner().invoke(main, ["voices", "render", str(folder)])
    assert f"{ready[1]} lines ready, 0 of them rendered now" in second.output
    assert any((folder / "cache").glob("*.wav"))


def test_voices_list_names_the_engines():
    result = CliRunner().invoke(main, ["voices", "list"])
    assert "ja  lang=ja  engine=openjtalk" in result.output and "en  lang=en  engine=pyttsx3" in result.output


def test_voices_list_credits_the_voices_whose_licence_asks_for_it():
    """The HTS voice Open JTalk speaks with is CC BY 3.0: credited under every pack that uses it."""
    output = CliRunner().invoke(main, ["voices", "list"]).output
    blocks = dict(re.findall(r"(?m)^(\S+)  lang=.*\n((?:    .*\n)*)", output))
    credit = "voice of openjtalk: HTS voice NIT ATR503 M001"
    assert credit in blocks["ja"] and credit in blocks["ja-natural"] and "CC BY 3.0" in blocks["ja"]
    assert blocks["en"] == ""


def test_say_writes_the_clip_to_a_wav(tmp_path):
    result = CliRunner().invoke(main, ["say", "Seer, open your eyes.", "--lang", "en", "--audio", "null",
                                       "--audio-out", str(tmp_path / "say.wav")])
    assert result.exit_code == 0, result.output
    m = measure(tmp_path / "say.wav")
    assert 0.8 < m["seconds"] < 3 and m["dbfs"] > -30


def test_doctor_reports_findings_with_fixes_and_takes_new_checks(monkeypatch):
    findings = run_checks()
    areas = {f.area for f in findings}
    assert {"engine", "audio", "voice pack"} <= areas
    assert any(f.ok and f.what.startswith("pyttsx3") for f in findings)
    assert all(f.fix for f in findings if not f.ok)

    def check_microphone():
        return [Finding("microphone", False, "no microphone", "plug in a USB microphone")]

    monkeypatch.setattr("narrator.sound.doctor.CHECKS", [*CHECKS])
    register(check_microphone)
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 1
    assert "MISSING  microphone: no microphone" in result.output and "fix: plug in a USB microphone" in result.output
    assert "ok  engine: pyttsx3: works" in result.output


def test_a_failing_check_becomes_a_finding():
    def broken():
        raise RuntimeError("boom")

    (finding,) = run_checks([broken])
    assert not finding.ok and "boom" in finding.what
