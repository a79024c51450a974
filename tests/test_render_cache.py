"""Rendering ahead: a second render does no work, a changed line renders again."""

import shutil

import pytest

from narrator.sound.render_ahead import game_requests, pack_requests
from narrator.sound.engines import load_tts
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import REPO_VOICES, load_pack
from tests.engine_driver import configure

pytestmark = pytest.mark.slow


def copy_pack(tmp_path, name="en"):
    dest = tmp_path / name
    shutil.copytree(REPO_VOICES / name, dest, ignore=shutil.ignore_patterns("cache"))
    return dest


def test_second_render_does_no_work_and_a_changed_line_renders_again(tmp_path):
    folder = copy_pack(tmp_path)
    engine = load_tts("pyttsx3")
    voice = EngineVoice(load_pack(str(folder)), engine, cache_dir=tmp_path / "cache")
    requests = [("seer.wake", {}), ("seer.act", {}), ("tick", {"n": 3})]
    assert voice.prepare(requests) == 3
    files = sorted((tmp_path / "cache").glob("*.wav"))
    stamps = [f.stat().st_mtime_ns for f in files]
    again = EngineVoice(load_pack(str(folder)), engine, cache_dir=tmp_path / "cache")
    assert again.prepare(requests) == 0 and again.synthesized == 0
    assert [f.stat().st_mtime_ns for f in sorted((tmp_path / "cache").glob("*.wav"))] == stamps
    lines = folder / "lines" / "additional_werewolf.toml"
    text = lines.read_text()
    assert '\nseer = "seer"\n' in text  # the label line: the seer's wake line says it (`{@label.seer:capital}`)
    lines.write_text(text.replace('\nseer = "seer"\n', '\nseer = "oracle"\n'))
    changed = EngineVoice(load_pack(str(folder)), engine, cache_dir=tmp_path / "cache")
    assert changed.prepare(requests) == 1
    assert changed.clip("seer.wake").source == "cache"


def test_variants_are_rendered_and_said_in_turn(tmp_path):
    folder = copy_pack(tmp_path)
    common = folder / "lines" / "common.toml"
    common.write_text(common.read_text() + '\n[extra]\nhello = { text = "Hello.", variants = ["Hi there.", "Good evening."] }\n')
    voice = EngineVoice(load_pack(str(folder)), load_tts("pyttsx3"), cache_dir=tmp_path / "cache")
    assert voice.prepare([("extra.hello", {})]) == 3
    said = [voice.clip("extra.hello") for _ in range(4)]
    assert [c.spoken.text for c in said] == ["Hello.", "Hi there.", "Good evening.", "Hello."]
    assert all(c.source == "cache" for c in said)


def test_game_requests_cover_every_line_a_game_says(tmp_path):
    from tests.engine_driver import run_game
    from narrator.sound.render_ahead import cue_requests

    rules, config = configure(names="Aki,Ben,Chie,Dai,Emi", cards="seer=1,medium=1,strategist=1,lovers=2")
    wanted = {(l, repr(sorted(p.items()))) for l, p in game_requests(rules, config)}
    for answers in (["done", ["Aki"], "no", "no", "done", ["Ben"], "no", "yes", "done", "done", ["Chie", "Dai"], "no", "no"],
                    ["done", ["Emi"], "yes", "no"]):
        _, cues = run_game(rules, config, answers)
        for line, params in cue_requests(cues):
            assert (line, repr(sorted(params.items()))) in wanted, line


def test_pack_requests_hold_fixed_lines_and_every_countdown_number():
    pack = load_pack("en")
    requests = pack_requests(pack)
    lines = {l for l, p in requests}
    assert "seer.wake" in lines and "setup.welcome" not in lines  # a line with placeholders needs a table
    assert {p["n"] for l, p in requests if l == "tick"} == set(range(61))
