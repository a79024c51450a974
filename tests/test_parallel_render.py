"""Rendering on every core (`narrator.sound.parallel`): the same clips as one worker, byte for byte."""

from __future__ import annotations

import io

import pytest

from narrator.sound import parallel
from narrator.sound.engines import load_tts
from narrator.sound.progress import Progress, rate_text
from narrator.sound.render_ahead import pack_requests
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack


def _clips(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.wav"))}


def _render(tmp_path, pack, engine, jobs, count=16):
    requests = pack_requests(load_pack(pack))[:count]  # fixed lines and countdown numbers, variants included
    voice = EngineVoice(load_pack(pack), load_tts(engine), cache_dir=tmp_path / f"jobs{jobs}")
    seen = []
    assert voice.prepare(requests, progress=seen.append, jobs=jobs) >= len(requests)
    assert sum(seen) == len(requests)  # every request reported ready once
    folder = tmp_path / f"jobs{jobs}"
    assert not list(folder.glob("*.raw.wav")) and not list(folder.glob("*.part.wav"))
    return _clips(folder)


@pytest.mark.slow
def test_two_workers_render_the_same_bytes_as_one(tmp_path):
    one, two = _render(tmp_path, "ja", "openjtalk", 1), _render(tmp_path, "ja", "openjtalk", 2)
    assert one and one.keys() == two.keys()
    assert [name for name in one if one[name] != two[name]] == []


@pytest.mark.slow
def test_pyttsx3_clips_are_the_same_bytes_with_two_workers(tmp_path):
    """espeak-ng's library carries state from one line to the next (issue 39 item 8: 1,033 of
    the en pack's 1,036 clips differed between a pool and a one-worker render); each line is
    now spoken by a fresh espeak-ng, so the pool makes the one-worker clips, byte for byte."""
    one, two = _render(tmp_path, "en", "pyttsx3", 1), _render(tmp_path, "en", "pyttsx3", 2)
    assert one and one.keys() == two.keys()
    assert [name for name in one if one[name] != two[name]] == []


@pytest.mark.slow
def test_a_second_render_with_the_pool_renders_nothing(tmp_path):
    requests = pack_requests(load_pack("ja"))[:6]
    voice = EngineVoice(load_pack("ja"), load_tts("openjtalk"), cache_dir=tmp_path)
    voice.prepare(requests, jobs=2)
    again = EngineVoice(load_pack("ja"), load_tts("openjtalk"), cache_dir=tmp_path)
    assert again.missing_jobs(requests) == [] and again.prepare(requests, jobs=2) == 0


class _Threaded:
    name = "openjtalk"
    uses_threads = True


class _Stand_in:
    name = "openjtalk"  # a registered name, but not the registered class: a worker could not open it


def test_an_engine_that_uses_every_core_itself_gets_one_process():
    assert parallel.workers_for(_Threaded(), None, 500) == 1
    assert parallel.workers_for(_Threaded(), 4, 500) == 1


def test_a_stand_in_engine_renders_in_this_process():
    assert parallel.workers_for(_Stand_in(), 4, 500) == 1


class _Remembers:
    name = "pyttsx3"
    history_dependent = True  # pyttsx3 without the espeak-ng command: each clip depends on the lines before


def test_an_engine_whose_clips_depend_on_the_lines_before_gets_one_process(monkeypatch):
    monkeypatch.setattr(parallel, "_registered", lambda engine: True)
    assert parallel.workers_for(_Remembers(), 4, 500) == 1


def test_workers_default_to_the_cores_and_never_exceed_the_work():
    engine = load_tts("openjtalk")
    assert parallel.workers_for(engine, None, 500) == parallel.default_jobs()
    assert parallel.workers_for(engine, 8, 3) == 3
    assert parallel.workers_for(engine, 1, 500) == 1


def test_the_kokoro_engine_says_it_uses_threads():
    from tests.kokoro_support import kokoro_module

    assert kokoro_module().KokoroEngine.uses_threads is True


def test_progress_gives_the_rate_and_the_time_left():
    assert rate_text(0, 5.0, 100) == ""
    assert rate_text(10, 5.0, 100) == "2.0 lines/s, about 45 s left"
    assert rate_text(10, 100.0, 700) == "0.1 lines/s, about 1.9 h left"


def test_progress_in_a_log_prints_a_line_now_and_then_not_a_bar():
    now = [0.0]
    out = io.StringIO()
    with Progress(100, "ja (openjtalk)", out=out, clock=lambda: now[0]) as bar:
        for _ in range(50):
            now[0] += 1.0
            bar.update(1)
    lines = out.getvalue().splitlines()
    assert lines[0] == "ja (openjtalk): 100 lines"
    assert "ja (openjtalk): 15/100 lines, 1.0 lines/s, about 1 min left" in lines
    assert len(lines) == 1 + 50 // 15 + 1 and lines[-1] == "ja (openjtalk): 50/100 lines in 50 s"


def test_python_m_narrator_does_not_run_the_command_again_in_a_worker(monkeypatch):
    """A spawned worker imports the main module as `__mp_main__`: `python -m narrator` must not
    run the command line then (the service and the background render are `python -m narrator`)."""
    import runpy

    import narrator.cli

    def ran_again(*args, **kwargs):
        raise AssertionError("the command line ran in a worker")

    monkeypatch.setattr(narrator.cli, "main", ran_again)
    runpy.run_module("narrator.__main__", run_name="__mp_main__")


def test_progress_counts_each_request_once_when_some_lines_are_said_in_pieces(tmp_path):
    """A slow engine's lines that name players are rendered piece by piece after the pool: each
    request is still reported once, and only when it is ready."""
    from tests.test_kokoro_names import SlowFake

    voice = EngineVoice(load_pack("ja-natural"), SlowFake(), cache_dir=tmp_path)
    requests = [("seer.wake", {}), ("private.call", {"name": "太郎"}), ("tick", {"n": 3})]
    seen = []
    voice.prepare(requests, progress=lambda n: seen.append((n, len(voice.engine.rendered))))
    assert sum(n for n, _ in seen) == 3
    assert seen[-1][1] == len(voice.engine.rendered)  # the named line was reported after its pieces


def test_a_clip_two_requests_share_is_rendered_once_and_reported_with_both(tmp_path):
    from tests.test_wait_notice import Ticking

    now = [0.0]
    voice = EngineVoice(load_pack("ja"), Ticking(now, 1.0), cache_dir=tmp_path)
    seen = []
    requests = [("seer.wake", {}), ("seer.act", {}), ("seer.wake", {"unused": 1})]  # the same words twice
    voice.prepare(requests, progress=lambda n: seen.append((n, len(voice.engine.rendered))))
    assert sum(n for n, _ in seen) == 3 and seen[0][1] >= 1  # nothing reported before it was rendered
    assert len(voice.engine.rendered) == len(set(voice.engine.rendered))


def test_a_render_without_load_writes_the_clips_and_keeps_none_in_memory(tmp_path):
    from tests.test_wait_notice import Ticking

    voice = EngineVoice(load_pack("ja"), Ticking([0.0], 0.0), cache_dir=tmp_path)
    requests = [("seer.wake", {}), ("seer.act", {})]
    voice.prepare(requests, load=False)
    assert voice._memory == {} and voice.missing_jobs(requests) == []
    voice.prepare(requests)
    assert len(voice._memory) >= 2 and len(voice.engine.rendered) == 2
