"""The natural voice fills in by itself: each line natural once rendered, else Open JTalk, whole
(`narrator.sound.fill_in`); the appliance renders it between games at the lowest priority and
stops it within a second when a game starts (`narrator.appliance.natural_fill`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from narrator.appliance import natural_fill
from narrator.appliance.natural_fill import BackgroundRender, lowest_priority, read_state
from narrator.sound import name_clips
from narrator.sound.fill_in import FillInVoice, filled_in
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from tests.audio_helpers import tone, write_wav
from tests.processes import started


class Fake:
    def __init__(self, name, names_apart=False):
        self.name, self.names_apart, self.reads_kanji, self.loaded = name, names_apart, True, True
        self.rendered = []

    def render(self, text, out, voice):
        self.rendered.append(text)
        write_wav(out, tone(0.1, 300 if self.names_apart else 600))


def voices(tmp_path):
    pack = load_pack("ja-natural")
    natural = EngineVoice(pack, Fake("slownat", names_apart=True), cache_dir=tmp_path / "natural")
    fallback = EngineVoice(pack, Fake("jtalkish"), cache_dir=tmp_path / "jtalk")
    return natural, fallback, FillInVoice(natural, fallback)


def test_each_line_is_natural_once_rendered_and_the_fallback_until_then(tmp_path):
    natural, fallback, voice = voices(tmp_path)
    natural.prepare([("seer.wake", {})])  # the background render got this far
    heard = voice.clip("seer.wake")
    assert heard.wav.parent == tmp_path / "natural" and heard.source == "cache"
    other = voice.clip("seer.act")
    assert other.wav.parent == tmp_path / "jtalk" and natural.engine.rendered == [
        natural._words(natural.pack.speak("seer.wake", {}))]  # the natural voice rendered nothing in the game


def test_a_line_that_names_a_player_is_never_half_in_one_voice(tmp_path):
    natural, fallback, voice = voices(tmp_path)
    spoken = natural.pack.speak("private.call", {"name": "太郎"})
    parts = name_clips.pieces(natural, spoken)
    natural.prepare_pieces([p for p in parts if not p.name])  # the line's own words, not the name
    first = voice.clip_for(spoken)
    assert first.wav.parent == tmp_path / "jtalk"  # the whole line in the fallback voice
    assert [t for t in natural.engine.rendered if "太郎" in t] == []
    natural.prepare_pieces([p for p in parts if p.name])
    assert voice.clip_for(spoken).wav.parent == tmp_path / "natural"


def test_the_table_readings_reach_both_voices(tmp_path):
    from dataclasses import replace

    natural, fallback, voice = voices(tmp_path)
    voice.pack = replace(voice.pack, pass_device=True)
    assert natural.pack.pass_device and fallback.pack.pass_device


def test_a_voice_that_is_not_slow_is_left_as_it_is(tmp_path):
    plain = EngineVoice(load_pack("ja"), Fake("jtalkish"), cache_dir=tmp_path)
    assert filled_in(plain) is plain


class FakeProcess:
    def __init__(self, pid):
        self.pid, self.returncode, self.signals = pid, None, []

    def poll(self):
        return self.returncode

    def send_signal(self, sig):
        self.signals.append("term" if sig == 15 else sig)
        self.returncode = -sig

    def wait(self, timeout=None):
        return self.returncode



def fake_render(tmp_path, log):
    spawned = []

    def spawn(command, log_path):
        spawned.append(FakeProcess(10_000_000 + len(spawned)))  # no such pid: killpg fails, terminate runs
        return spawned[-1]

    return BackgroundRender(["render"], log.append, spawn, folder=tmp_path, clock=lambda: 5.0), spawned


def test_it_renders_between_games_and_stops_for_one(tmp_path):
    log = []
    render, spawned = fake_render(tmp_path, log)
    render.resume()
    render.resume()  # already running: not a second child
    assert len(spawned) == 1 and read_state(tmp_path)["state"] == "rendering"
    assert render.pause() < natural_fill.STOP_WITHIN and spawned[0].signals == ["term"]
    assert read_state(tmp_path) == {"state": "paused", "pid": None, "since": 5.0,
                                    "log": str(tmp_path / natural_fill.LOG_FILE)}
    render.resume()  # after the game it goes on
    assert len(spawned) == 2


def test_a_finished_render_is_not_started_again_and_a_failing_one_not_forever(tmp_path):
    log = []
    render, spawned = fake_render(tmp_path, log)
    render.resume()
    spawned[0].returncode = 0
    render.resume()
    assert render.finished and len(spawned) == 1 and read_state(tmp_path)["state"] == "done"
    failing, tries = fake_render(tmp_path, log)
    for _ in range(4):
        failing.resume()
        tries[-1].returncode = 1
    failing.resume()
    assert len(tries) == 2 and read_state(tmp_path)["state"] == "failed"
    assert any("see" in line and natural_fill.LOG_FILE in line for line in log)


@pytest.mark.slow
def test_a_real_child_runs_at_the_lowest_priority_and_stops_within_a_second(tmp_path):
    """A real process (standing in for `voices render`): it says when it runs; pause ends it."""
    child = [sys.executable, "-c", "import sys, time; print('up', flush=True); time.sleep(600)"]
    pipes = []

    def spawn(command, log_path):
        pipes.append(started(command, stdout=subprocess.PIPE, process_group=0))
        return pipes[-1]

    render = BackgroundRender(lowest_priority(child), lambda m: None, spawn, folder=tmp_path)
    render.resume()
    process = pipes[0]
    assert process.stdout.readline() == b"up\n"  # the child runs (no sleeping here to reach it)
    assert os.sched_getscheduler(process.pid) == os.SCHED_IDLE
    assert int(open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()[16]) == 19  # its nice
    took = render.pause()
    assert took < natural_fill.WAIT_FOR + 0.5  # the game goes on at once
    process.wait(timeout=natural_fill.STOP_WITHIN)  # and the child is gone within a second


def test_the_command_renders_the_pack_with_its_natural_engine():
    command = natural_fill.render_command("/p/ja-natural", "kokoro")
    assert command[-8:] == [sys.executable, "-m", "narrator", "voices", "render", "/p/ja-natural", "--engine", "kokoro"]
    assert command[:-8] == lowest_priority([])  # chrt --idle, ionice -c 3, nice -n 19 where installed


def test_the_appliance_stops_the_render_for_a_game_and_goes_on_after(narrator_home, tmp_path, monkeypatch):
    from tests.test_appliance_serve import lines_of, run_serve

    calls = []

    class Recorder:
        def resume(self):
            calls.append("resume")

        def pause(self):
            calls.append("pause")
            return 0.0

    tables = []
    monkeypatch.setattr(natural_fill, "for_voice", lambda voice, log, table=None: tables.append(table) or Recorder())
    played, transcript = run_serve(tmp_path, "yes", "done", "yes")
    assert played == 1 and lines_of(transcript)
    assert calls == ["resume", "pause", "resume", "pause"]  # idle, the game, idle, the service stops
    assert len(tables) == 1 and tables[0] is not None and tables[0].name.endswith(".toml")  # its names first


def test_voices_status_says_how_far_a_pack_is_and_whether_the_service_renders_it(narrator_home, tmp_path):
    import re
    import shutil

    from click.testing import CliRunner

    from narrator.cli import main
    from narrator.sound.voicepack import REPO_VOICES

    folder = tmp_path / "en2"
    shutil.copytree(REPO_VOICES / "en", folder, ignore=shutil.ignore_patterns("cache"))
    result = CliRunner().invoke(main, ["voices", "status", str(folder)])
    assert result.exit_code == 0, result.output
    assert re.search(r"^en \(pyttsx3\): 0 of \d{3,} lines rendered \(0 %\)$", result.output, re.M), result.output
    assert "background render" not in result.output
    from narrator import home

    home.app_home().mkdir(parents=True, exist_ok=True)
    render, spawned = fake_render(home.app_home(), [])
    render.resume()
    result = CliRunner().invoke(main, ["voices", "status", str(folder)])
    assert f"background render: rendering (pid {spawned[0].pid})" in result.output


def test_a_missing_natural_engine_names_setup_natural_voice(monkeypatch):
    from narrator.cli.voices import check_packs
    from narrator.sound import engines

    with pytest.raises(engines.EngineUnavailable, match=r"install it with `scripts/setup --natural-voice`"):
        monkeypatch.setattr(engines, "entry_points", lambda group: [])
        engines.load_tts("kokoro")
    monkeypatch.undo()
    real = engines.load_tts

    def without_kokoro(name):
        if name == "kokoro":
            raise engines.EngineUnavailable("the natural voice (Kokoro) is not installed")
        return real(name)

    monkeypatch.setattr(engines, "load_tts", without_kokoro)
    natural = [f for f in check_packs() if f.what.startswith("ja-natural")]
    assert natural and all(f.fix == "scripts/setup --natural-voice" for f in natural if not f.ok), natural


# --- the table's names first ---------------------------------------------------------------


def table_file(tmp_path, names):
    """A table file naming `names` ("花子:ハナコ" gives a reading)."""
    path = tmp_path / "table.toml"
    path.write_text("names = [" + ", ".join(f'"{n}"' for n in names) + "]\n", encoding="utf-8")
    return path


def test_the_command_names_the_table_file_whose_names_come_first(tmp_path):
    command = natural_fill.render_command("/p/ja-natural", "kokoro", tmp_path / "table.toml")
    assert command[-10:] == [sys.executable, "-m", "narrator", "voices", "render", "/p/ja-natural", "--engine",
                             "kokoro", "--names-of", str(tmp_path / "table.toml")]
    assert command[:-10] == lowest_priority([])  # the same lowest priority


def test_voices_render_says_the_table_names_and_the_words_around_names_before_any_line(tmp_path, monkeypatch):
    """A fake slow engine records the order: the names, then every word said around names, then lines."""
    from click.testing import CliRunner

    from narrator.cli import main
    from narrator.cli import voices as voices_cli

    natural = EngineVoice(load_pack("ja-natural"), Fake("slownat", names_apart=True), cache_dir=tmp_path / "natural")
    monkeypatch.setattr(voices_cli, "_engine_voice", lambda name, engine=None, speed=1.0: natural)
    monkeypatch.setattr(voices_cli, "render_requests", lambda pack, table=None: [("seer.wake", {}), ("seer.act", {})])
    table = table_file(tmp_path, ["ハナコ", "タロウ"])
    result = CliRunner().invoke(main, ["voices", "render", "ja-natural", "--jobs", "1", "--names-of", str(table)])
    assert result.exit_code == 0, result.output
    said = natural.engine.rendered
    names = [p.words for p in name_clips.name_pieces(natural, ["ハナコ", "タロウ"])]
    words = [p.words for p in name_clips.fixed_pieces(natural)]
    lines = [natural._words(natural.pack.speak(line, {})) for line in ("seer.wake", "seer.act")]
    assert said[:len(names)] == names  # the table's names, with and without the honorific
    assert sorted(said[len(names):len(names) + len(words)]) == sorted(set(words) - set(names))
    assert said[-2:] == lines and len(said) == len(set(names) | set(words)) + 2  # each rendered once
    fill_in = FillInVoice(natural, EngineVoice(natural.pack, Fake("jtalkish"), cache_dir=tmp_path / "jtalk"))
    spoken = natural.pack.speak("private.call", {"name": "ハナコ"})
    assert fill_in.clip_for(spoken).wav.parent == tmp_path / "natural"  # the next game names her naturally
    again = CliRunner().invoke(main, ["voices", "render", "ja-natural", "--jobs", "1", "--names-of", str(table)])
    assert again.exit_code == 0 and len(natural.engine.rendered) == len(said)  # nothing twice


def test_names_come_by_the_table_readings(tmp_path, monkeypatch):
    from narrator.cli import voices as voices_cli

    natural = EngineVoice(load_pack("ja-natural"), Fake("slownat", names_apart=True), cache_dir=tmp_path / "natural")
    monkeypatch.setattr(name_clips, "fixed_pieces", lambda voice: [])
    voices_cli._render_table_names(natural, "ja-natural", table_file(tmp_path, ["花子:ハナコ"]))
    assert "ハナコ" in natural.engine.rendered and "花子" not in natural.engine.rendered
    assert natural.pack.name_readings == {}  # the pack itself is left as it was


def test_a_table_file_that_cannot_be_read_leaves_only_the_names_out(tmp_path, capsys):
    from narrator.cli import voices as voices_cli

    natural = EngineVoice(load_pack("ja-natural"), Fake("slownat", names_apart=True), cache_dir=tmp_path / "natural")
    broken = tmp_path / "table.toml"
    broken.write_text("names = [", encoding="utf-8")
    voices_cli._render_table_names(natural, "ja-natural", broken)
    assert "names are left to its next game" in capsys.readouterr().err
    assert sorted(natural.engine.rendered) == sorted(p.words for p in name_clips.fixed_pieces(natural))


def test_an_engine_that_says_lines_whole_renders_no_names_ahead(tmp_path):
    from narrator.cli import voices as voices_cli

    plain = EngineVoice(load_pack("ja"), Fake("jtalkish"), cache_dir=tmp_path)
    assert voices_cli._render_table_names(plain, "ja", table_file(tmp_path, ["ハナコ"])) == 0
    assert plain.engine.rendered == []


def test_new_names_after_the_render_finished_start_it_again(tmp_path):
    table = table_file(tmp_path, ["ハナコ"])
    spawned = []

    def spawn(command, log_path):
        spawned.append(FakeProcess(10_000_000 + len(spawned)))
        return spawned[-1]

    render = BackgroundRender(["render"], lambda m: None, spawn, folder=tmp_path, clock=lambda: 5.0, table=table)
    render.resume()
    spawned[0].returncode = 0
    render.resume()
    assert render.finished and len(spawned) == 1  # the same table: nothing more to do
    table_file(tmp_path, ["ハナコ", "ジロウ"])  # the host screen gave a new name
    render.resume()
    assert not render.finished and len(spawned) == 2
    assert render.pause() < natural_fill.STOP_WITHIN and spawned[1].signals == ["term"]  # a game still stops it


@pytest.mark.slow
def test_the_real_natural_engine_renders_a_table_name_the_next_game_says_naturally(tmp_path, monkeypatch):
    """Kokoro (skipped where it is not installed, failed where setup was asked for it)."""
    from narrator.cli import voices as voices_cli
    from narrator.sound.clips import measure
    from tests.kokoro_support import open_kokoro

    natural = EngineVoice(load_pack("ja-natural"), open_kokoro(), cache_dir=tmp_path / "natural")
    spoken = natural.pack.speak("private.call", {"name": "ハナコ"})
    words = [p for p in name_clips.pieces(natural, spoken) if not p.name]
    monkeypatch.setattr(name_clips, "fixed_pieces", lambda voice: words)  # this line's words only: seconds, not minutes
    rendered = voices_cli._render_table_names(natural, "ja-natural", table_file(tmp_path, ["ハナコ"]))
    assert rendered == len(words) + 2  # ハナコ and ハナコさん
    fill_in = FillInVoice(natural, EngineVoice(natural.pack, Fake("jtalkish"), cache_dir=tmp_path / "jtalk"))
    clip = fill_in.clip_for(spoken)
    assert clip.wav.parent == tmp_path / "natural" and measure(clip.wav)["seconds"] > 0.5  # seconds of speech
