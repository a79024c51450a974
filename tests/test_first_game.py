"""Issue 39, items 1 and 9: a first game starts once its opening is rendered (the rest renders on
the pool while it plays, in the game's order, nothing synthesized on demand), and the render's
progress is honest (one estimate, a full bar at 0 s, a first run that says it takes minutes)."""

from __future__ import annotations

import io
import shutil
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.cues import Ask, Collect, Start
from narrator.sound.background_render import BackgroundRender
from narrator.sound.progress import Progress, rate_text
from narrator.sound.render_ahead import game_requests, opening_requests
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from narrator.table import session
from narrator.table.session import RunOptions, open_sitting
from narrator.settings import build_settings
from tests.audio_helpers import tone, write_wav
from tests.engine_driver import configure

REPO = Path(__file__).resolve().parent.parent
WAIT = 30.0
"""Seconds a test waits at most for the background thread (it takes well under one)."""


class Gated:
    """A stand-in engine: renders at once on the game's own thread; on any other thread (the
    background render) only once `go` is set, so a test sees where the game stands at its start."""

    name = "gated"
    reads_kanji = True

    def __init__(self):
        self.go = threading.Event()
        self.main: list[str] = []
        self.behind: list[str] = []
        self.lock = threading.Lock()

    def render(self, text, out, voice):
        if threading.current_thread() is threading.main_thread():
            self.main.append(text)
        else:
            assert self.go.wait(WAIT)
            with self.lock:
                self.behind.append(text)
        write_wav(out, tone(0.05, 440))


def _cold_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "ja"
    shutil.copytree(REPO / "voices" / "ja", pack, ignore=shutil.ignore_patterns("cache"))
    return pack


def _sitting(tmp_path, monkeypatch, engine):
    pack = _cold_pack(tmp_path)
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(session, "open_engine", lambda pack, warn=None: engine)
    rules, config = configure(players=5)
    settings = build_settings({}, {"voice": str(pack), "audio": "null", "time_scale": "0"}, "test")
    run = RunOptions.from_settings(settings, keyboard=False)
    sitting = open_sitting(run, names=rules.names(config), game=rules, config=config, new_game=True)
    return sitting, sitting.scheduler.voice, rules, config


def test_the_opening_is_what_is_said_before_the_first_answer():
    rules, config = configure(players=5)
    opening = opening_requests(rules, config)
    everything = game_requests(rules, config)
    state, cues = rules.advance(config, rules.new_state(), Start())
    first = [c for c in cues if isinstance(c, (Ask, Collect))]
    assert first and (first[0].line, dict(first[0].params)) in opening  # the first question is in it
    assert all(r in everything for r in opening)
    assert len(opening) < len(everything) // 4  # a few lines, not the game


def test_a_first_game_starts_once_its_opening_is_rendered_and_renders_the_rest_behind(tmp_path, monkeypatch):
    engine = Gated()
    sitting, voice, rules, config = _sitting(tmp_path, monkeypatch, engine)
    try:
        opening = opening_requests(rules, config)
        later = [r for r in game_requests(rules, config) if r not in opening]
        # the game can start: its opening is rendered, the rest is not (the old start rendered it all first)
        assert all(voice.is_cached(s) for r in opening for s in voice.wordings(*r))
        assert not any(voice.is_cached(voice.pack.speak(*r)) for r in later)
        assert sitting.ahead is not None and sitting.ahead.total > 0
        # the game plays on: every line it comes to is ready, the pool's (here: the thread's) work
        engine.go.set()
        for line, params in game_requests(rules, config):
            voice.clip(line, params)
        assert voice.on_demand == 0
        assert len(engine.main) == len({*engine.main})  # no clip made twice
    finally:
        engine.go.set()
        sitting.close()


def test_a_line_the_game_comes_to_first_jumps_the_queue(tmp_path):
    rules, config = configure(players=5)
    engine = Gated()
    voice = EngineVoice(load_pack("ja"), engine, cache_dir=tmp_path)
    requests = game_requests(rules, config)
    ahead = voice.ahead = BackgroundRender(voice, requests, jobs=1)
    last = ahead.feed.jobs[next(reversed(ahead.feed.jobs))]
    ahead.start()
    got = []  # the game asks for the last line at once
    waiter = threading.Thread(target=lambda: got.append(ahead.wait_for(last.wav)))
    waiter.start()
    # A bounded poll for the wait to be queued: `urgent` holds it until the pool's thread takes
    # it (then it is in `taken`), which can be at once (the thread asks for its next job while
    # the gated one renders); polling `urgent` alone missed that, and waited out the gate.
    while not (ahead.feed.urgent or last.wav in ahead.feed.taken) and waiter.is_alive():
        waiter.join(0.01)
    engine.go.set()
    waiter.join(WAIT)
    ahead._thread.join(WAIT)  # then the rest, in order
    assert got == [True] and ahead.waited == 1
    assert engine.behind.index(last.words) <= 2  # next after the one or two the thread held
    assert voice.on_demand == 0 and ahead.rendered == ahead.total


def test_a_line_nobody_rendered_ahead_is_counted_as_on_demand(tmp_path):
    engine = Gated()
    voice = EngineVoice(load_pack("ja"), engine, cache_dir=tmp_path)
    voice.clip("control.paused")
    assert voice.on_demand == 1


def test_a_stopped_background_render_hands_the_line_back_to_the_game(tmp_path):
    rules, config = configure(players=5)
    engine = Gated()
    voice = EngineVoice(load_pack("ja"), engine, cache_dir=tmp_path)
    ahead = BackgroundRender(voice, game_requests(rules, config), jobs=1)
    ahead.stop()  # never started: nothing waits for it
    assert ahead.wait_for(next(iter(ahead.ready))) is False


# --- item 9: the progress line ------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_full_bar_says_nothing_is_left():
    assert rate_text(100, 50.0, 100) == "2.0 lines/s, 0 s left"  # it said "about 1 s left"


def test_the_bar_shows_one_estimate_not_two():
    now = [0.0]
    with Progress(10, "ja (openjtalk)", out=Terminal(), clock=lambda: now[0]) as bar:
        assert bar._bar.show_eta is False  # click's own ETA beside ours disagreed with it
        for _ in range(10):
            now[0] += 1.0
            bar.update(1)
        assert bar.rate().endswith("0 s left")


def test_a_first_run_render_says_it_takes_minutes_and_where_to_see_how_far(tmp_path, monkeypatch):
    from narrator.cli import voices as cli_voices
    from narrator.cli import main

    engine = Gated()
    engine.go.set()
    pack = load_pack("ja")
    monkeypatch.setattr(cli_voices, "_engine_voice", lambda name, engine_name=None: EngineVoice(pack, engine, cache_dir=tmp_path))
    monkeypatch.setattr(cli_voices, "render_requests", lambda pack, table=None: [("tick", {"n": n}) for n in range(5)])
    monkeypatch.setattr(cli_voices, "FIRST_RUN_LINES", 5, raising=False)
    first = CliRunner().invoke(main, ["voices", "render", "ja"])
    assert first.exit_code == 0, first.output
    assert "初めての準備です。声 5 行の準備に数分かかります" in first.output
    again = CliRunner().invoke(main, ["voices", "render", "ja"])  # all rendered: no first-run line
    assert again.exit_code == 0 and "初めての準備" not in again.output


def test_scripts_play_leaves_the_whole_pack_render_to_the_game(tmp_path):
    """`scripts/play` runs setup without its whole-pack render (the game renders its own lines,
    opening first); `scripts/setup` alone still renders every pack. Stand-ins record the calls."""
    import subprocess

    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "play", tmp_path / "scripts" / "play")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    for stand_in, log in ((tmp_path / "scripts" / "setup", "setup.args"), (tmp_path / ".venv/bin/narrator", "narrator.args")):
        stand_in.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path / log}"\n')
        stand_in.chmod(0o755)
    done = subprocess.run([str(tmp_path / "scripts" / "play"), "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "setup.args").read_text().split() == ["--no-render"]
    assert (tmp_path / "narrator.args").read_text().split() == ["play", "additional-werewolf", "--lang", "en"]
    usage = subprocess.run([str(REPO / "scripts" / "setup"), "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "--no-render" in usage


@pytest.mark.slow
def test_the_pool_renders_behind_and_a_hurried_line_comes_from_it(tmp_path):
    """The real pool (Open JTalk, two worker processes) pulls the feed lazily: a line the game
    asks for is rendered by a worker, not by the game, and the rest follows in order."""
    from narrator.sound.engines import load_tts
    from narrator.sound.render_ahead import pack_requests

    voice = EngineVoice(load_pack("ja"), load_tts("openjtalk"), cache_dir=tmp_path)
    requests = pack_requests(load_pack("ja"))[:24]
    ahead = voice.ahead = BackgroundRender(voice, requests, jobs=2).start()
    last = next(reversed(ahead.feed.jobs))
    try:
        assert ahead.wait_for(last) is True and last.is_file()
        ahead._thread.join(120)
    finally:
        ahead.stop()
    assert ahead.error is None and ahead.rendered == ahead.total
    for line, params in requests:
        voice.clip(line, params)
    assert voice.on_demand == 0 and voice.synthesized == 0


def test_the_wait_notice_before_the_game_is_not_counted_as_a_late_line(tmp_path):
    """A slow opening says how long (a line synthesized then, before the game): the game's
    count of lines synthesized on demand starts at its first line, at 0."""
    from narrator.table.session import prepare_voice
    from tests.test_wait_notice import Ticking

    rules, config = configure(players=5)
    now = [0.0]
    voice = EngineVoice(load_pack("ja"), Ticking(now, 1.0), cache_dir=tmp_path)
    heard = []
    prepare_voice(voice, rules, config, notice=heard.append, clock=lambda: now[0], background=True)
    try:
        assert heard and heard[0].spoken.line.startswith("render_ahead.")
        assert voice.on_demand == 0 and voice.ahead is not None
    finally:
        voice.ahead.stop()
