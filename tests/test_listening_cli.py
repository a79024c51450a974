"""Listening from the command line: no model falls back to the keyboard in one line,
`--listen on` refuses, the start-of-game word check, table-file keys, `narrator doctor`."""

from __future__ import annotations

import asyncio

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.errors import NarratorError
from narrator.inputs.voice.models import models_dir
from narrator.inputs.voice.setup import ListenOptions, TimeoutListener, open_voice
from narrator.inputs.voice.microphone import QueueSource
from narrator.table.transcript import read_transcript
from narrator.sound.voicepack import load_pack
from tests.setup_parts import missing

pytestmark = pytest.mark.slow  # a real vosk model

ANSWERS = "done\nChika\nno\nno\ndone\nAki, Ben\nyes\n"
NAMES = "Aki,Ben,Chika,Dai,Emi"


def play(tmp_path, *args, table=None):
    (tmp_path / "answers.txt").write_text(ANSWERS, encoding="utf-8")
    argv = ["play", "--voice", "text", "--time-scale", "0", "--no-keyboard", "--names", NAMES,
            "--answers", str(tmp_path / "answers.txt"), "--transcript", str(tmp_path / "t.jsonl")]
    if table is not None:
        (tmp_path / "table.toml").write_text(table, encoding="utf-8")
        argv += ["--table", str(tmp_path / "table.toml")]
    return CliRunner().invoke(main, argv + list(args))


def vosk_installed():
    from narrator.sound.engines import stt_engine_names

    if "vosk" not in stt_engine_names():
        missing("app", "the vosk engine is not installed (scripts/setup installs it)")


def test_no_model_is_one_line_and_the_game_goes_on_by_keyboard(tmp_path):
    vosk_installed()
    result = play(tmp_path)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "narrator models install ja" in warnings[0]
    assert read_transcript(tmp_path / "t.jsonl")[-1]["winner"] == "citizens"


def test_listen_off_says_nothing_and_listen_on_refuses_without_a_model(tmp_path):
    vosk_installed()
    quiet = play(tmp_path, "--listen", "off")
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    strict = play(tmp_path, "--listen", "on")
    assert strict.exit_code == 1
    assert strict.stderr.strip().startswith("error: no speech model for 'ja'") and "narrator models install ja" in strict.stderr


def test_a_bad_model_path_or_key_is_one_line(tmp_path):
    result = play(tmp_path, "--listen", "on", "--model", str(tmp_path))
    assert result.exit_code == 1 and "is not a vosk model folder" in result.stderr
    bad = play(tmp_path, table='confidence = 1.5\n')
    assert bad.exit_code == 2
    assert bad.stderr.strip() == f"error: table file {tmp_path / 'table.toml'}: confidence must be between 0 and 1, not 1.5"


def test_table_file_listening_keys_are_kept_for_resume(tmp_path, narrator_home):
    result = play(tmp_path, table='listen = "off"\nconfidence = 0.8\nanswer_timeout = 20\n')
    assert result.exit_code == 0, result.output
    import json

    meta = json.loads(next((narrator_home / "games").iterdir()).joinpath("meta.json").read_text())
    assert meta["run"]["listening"]["confidence"] == 0.8 and meta["run"]["listening"]["answer_timeout"] == 20


def test_the_model_must_know_every_word_when_the_game_starts(narrator_home):
    from tests.voice_support import ko_engine

    engine = ko_engine()  # a real model that knows no Japanese
    with pytest.raises(NarratorError, match=r"lacks the words はい, いいえ.*voices/ja/voice.toml"):
        open_voice(ListenOptions(listen="on"), load_pack("ja"), ["Aki"], warn=pytest.fail,
                   source=QueueSource(16000), engine=engine)


def test_a_silent_ready_step_goes_on_after_the_answer_timeout(tmp_path):
    from narrator.table.clock import ManualClock
    from narrator.cues import Ask
    from narrator.inputs.hub import ListenerHub, Vocabulary

    async def scene():
        hub = ListenerHub(Vocabulary())
        hub.register("keyboard")
        clock = ManualClock()  # moved deadline by deadline: the 30 s timeout is the next one
        TimeoutListener(clock, 30).start(hub, asyncio.get_running_loop())
        started = clock.now()
        answer = asyncio.ensure_future(hub.answer(Ask("setup.ready", ("done",))))
        await clock.run_until(answer.done, limit=60)
        ready = answer.result()
        waited = clock.now() - started
        question = asyncio.ensure_future(hub.answer(Ask("q", ("yes", "no"))))
        await clock.advance(50)  # 50 game seconds: a yes/no question is never answered by the timeout
        assert not question.done()
        question.cancel()
        return ready, waited

    ready, waited = asyncio.run(scene())
    assert ready.value == "done" and ready.source == "timeout" and 30 <= waited < 45


def test_doctor_reports_models_and_microphone(monkeypatch, tmp_path):
    vosk_installed()
    result = CliRunner().invoke(main, ["doctor"])
    assert "listening: model for ja: not installed (vosk-model-small-ja-0.22)" in result.output
    assert "narrator models install ja" in result.output
    assert "listening: microphone:" in result.output


def test_doctor_checks_an_installed_models_words(tmp_path):
    vosk_installed()
    from tests.voice_support import ko_model_path

    models_dir().mkdir(parents=True)
    (models_dir() / "vosk-model-small-ja-0.22").symlink_to(ko_model_path())  # a model that lacks Japanese
    from narrator.inputs.voice.checks import check_models

    ja = [f for f in check_models() if "model for ja" in f.what][0]
    assert not ja.ok and ja.what.startswith("model for ja: lacks はい") and "voices/ja/voice.toml" in ja.fix
