"""A fresh appliance and its phones, and a speaker missing at boot (issue 37, items 1 and 10),
without a browser: the spoken setup's phones question, a deliberate `phones = false`, no
network, the speaker taken between games, and `narrator serve` as the systemd unit runs it."""

import os
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

from narrator.appliance import speaker as speaker_module
from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.setup_menu import phones_unsaid
from narrator.errors import NoMoreAnswers
from narrator.phones import network
from narrator.settings import build_settings
from narrator.sound import outputs
from narrator.table.clock import make_clock
from narrator.table.saved_games import saved_games
from narrator.table.session import RunOptions, open_sitting
from narrator.table.transcript import read_transcript
from tests.test_appliance_fresh_browser import FakeSoundDevice, Table
from tests.test_host_settings_browser import free_port

REPO = Path(__file__).resolve().parent.parent


def serve_with(table, overrides, messages=None):
    messages = [] if messages is None else messages
    outcome = {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[table]),
                  log=messages.append)
        except BaseException as err:
            outcome["error"] = err
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome
    return messages


def said(transcript, kinds=("say", "ask")):
    return [r["line"] for r in read_transcript(transcript) if r["kind"] in kinds]


def test_only_a_table_that_never_said_phones_gets_them_by_default():
    assert phones_unsaid({}, {})
    assert not phones_unsaid({"phones": False}, {})
    assert not phones_unsaid({}, {"phones": "false"})
    assert not phones_unsaid({}, {"answers": "a.txt"})  # a script answers; no phone can


@pytest.mark.slow
def test_the_spoken_setup_offers_the_phones_and_the_table_turns_them_off(narrator_home, tmp_path):
    transcript = tmp_path / "t.jsonl"
    menu = {"appliance.offer": "no", "appliance.this_one": "yes", "appliance.players_option": "yes",
            "appliance.preset_recommended": "yes", "appliance.phones_question": "no", "appliance.confirm": "yes"}
    messages = serve_with(Table(menu=menu), {"voice": "text", "lang": "ja", "time_scale": "0",
                                             "transcript": str(transcript), "host": "127.0.0.1",
                                             "port": str(free_port())})
    lines = said(transcript)
    assert "appliance.phones_question" in lines
    assert lines.index("appliance.settings_page") < lines.index("appliance.phones_question")  # on by default
    table = tomllib.loads((narrator_home / "table.toml").read_text(encoding="utf-8"))
    assert table["phones"] is False
    assert "phones.join" not in lines  # the game had no phone page
    assert sum(m.startswith("settings page:") for m in messages) == 1  # and the page was not served again
    [game] = saved_games(narrator_home)
    assert game.meta["finished"]


@pytest.mark.slow
def test_a_deliberate_phones_false_is_kept(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text('game = "additional-werewolf"\nplayers = 5\nphones = false\n')
    transcript = tmp_path / "t.jsonl"
    serve_with(Table(menu={"appliance.offer": "yes"}),
               {"voice": "text", "time_scale": "0", "transcript": str(transcript), "host": "127.0.0.1",
                "port": str(free_port())})
    lines = said(transcript)
    assert "appliance.settings_page" not in lines and "phones.join" not in lines
    assert "appliance.phones_question" not in lines


@pytest.mark.slow
def test_with_no_network_the_table_hears_it_once_and_plays_on_by_voice_and_button(narrator_home, tmp_path,
                                                                                   monkeypatch):
    monkeypatch.setattr(network, "lan_ip", lambda: None)
    transcript = tmp_path / "t.jsonl"
    messages = serve_with(Table(menu={"appliance.offer": "yes"}, agains=1),
                          {"voice": "text", "time_scale": "0", "transcript": str(transcript)})
    lines = said(transcript)
    assert lines.count("appliance.no_network") == 1
    assert "appliance.settings_page" not in lines and "phones.join" not in lines
    assert len([r for r in read_transcript(transcript) if r["kind"] == "end"]) == 2
    assert sum("no network address for the host screen" in m for m in messages) == 1


@pytest.mark.slow
def test_with_no_network_a_game_that_needs_the_phones_is_refused_in_one_line(narrator_home, tmp_path, monkeypatch):
    monkeypatch.setattr(network, "lan_ip", lambda: None)
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text('game = "additional-werewolf"\nplayers = 5\n'
                                              'names = ["Aki", "Ben", "Chika", "Dai", "Emi"]\ndigital_cards = true\n')
    transcript = tmp_path / "t.jsonl"
    messages = serve_with(Table(menu={"appliance.offer": "yes", "appliance.trouble": None}),
                          {"voice": "text", "time_scale": "0", "transcript": str(transcript)})
    lines = said(transcript)
    assert lines.count("appliance.no_network") == 1 and "appliance.trouble" in lines
    assert any("the phones need a network" in m for m in messages)
    assert saved_games(narrator_home) == []  # refused before a game was made


def test_a_speaker_that_appears_between_games_plays_the_next_one(monkeypatch):
    device = FakeSoundDevice()
    monkeypatch.setattr(outputs, "import_sounddevice", lambda: device)
    settings = build_settings({"voice": "text", "time_scale": "1", "audio_device": "USBスピーカー"}, {}, "test")
    run = RunOptions.from_settings(settings, keyboard=False)
    log = []
    speaker = speaker_module.Speaker(run, log.append)
    assert speaker.problem and len(log) == 1 and "--audio-device" in log[0]
    sitting = open_sitting(speaker.sitting_run(run), warn=log.append)
    try:
        sitting.scheduler.voice = object()  # a voice with sound (the text voice never opens a device)
        clock = make_clock(1.0)
        assert not speaker.retry(run, sitting, clock)  # still missing: nothing changes
        device.plug()
        assert speaker.retry(run, sitting, clock)
        assert device.opened == ["USBスピーカー"]
        scheduler = sitting.scheduler
        assert isinstance(sitting.output, outputs.SpeakerOutput)
        assert scheduler.output is scheduler.narration.output is scheduler.deadlines.output is sitting.output
        assert scheduler.timeline.latency == sitting.output.latency > 0  # cues allow for the speaker's buffer
        assert speaker.problem is None and log[-1].startswith("speaker found")
    finally:
        sitting.close()


@pytest.mark.slow
def test_serve_as_the_unit_runs_it_plays_on_without_its_speaker(tmp_path):
    """Today's `serve` exited 1 before a word (systemd restarts it in silence for ever): a speaking
    voice (pyttsx3, English) on the real PortAudio of this machine, naming a device it has not."""
    answers = tmp_path / "answers.txt"
    answers.write_text("yes\ndone\nyes\n")
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "narrator", "serve", "--once", "--no-buttons", "--no-keyboard",
                           "--lang", "en", "--time-scale", "0.001", "--audio-device", "no-such-speaker",
                           "--answers", str(answers)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "playing on without sound" in done.stderr  # after the one line naming the fix (no device, or no PortAudio)
    [game] = saved_games(tmp_path / "home")
    assert game.meta["finished"] and game.meta["run"]["audio"] == "device"  # the table's own choice is kept
