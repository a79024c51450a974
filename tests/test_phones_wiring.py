"""The phone page's wiring: settings keys, the CLI, the hub's private questions, the transcript, the QR."""

import asyncio
import io

import pytest
from click.testing import CliRunner

from narrator.sound.outputs import NullOutput
from narrator.table.clock import InstantClock
from narrator.cli import main
from narrator.cues import Ask
from narrator.table.display import ConsoleDisplay
from narrator.errors import SetupError
from narrator.inputs.hub import ListenerHub
from narrator.phones import network
from narrator.table.scheduler import Scheduler
from narrator.settings import build_settings
from narrator.sound.voice import TextVoice
from narrator.table.transcript import Transcript, read_transcript
from narrator.sound.voicepack import load_pack
from tests.processes import started

pytestmark = pytest.mark.slow  # a narrator killed and resumed as a process

NAMES = "Aki,Ben,Chika,Dai,Emi"


def test_phone_keys_from_table_file_and_flags():
    settings = build_settings({"phones": True, "host": "127.0.0.1", "port": 9000}, {}, "table")
    assert (settings.phones, settings.host, settings.port) == (True, "127.0.0.1", 9000)
    assert build_settings({"port": 9000}, {"port": "0"}, "cli").port == 0
    assert build_settings({}, {}, "cli").phones is False
    with pytest.raises(SetupError, match="port must be between 0 and 65535"):
        build_settings({"port": 70000}, {}, "table")
    with pytest.raises(SetupError, match="phones must be true or false"):
        build_settings({"phones": "maybe"}, {}, "table")


def test_keyboard_cannot_answer_a_private_question_but_the_script_can():
    async def main_():
        hub = ListenerHub()
        hub.register("keyboard")
        task = asyncio.ensure_future(hub.answer(Ask("seer.act_phone", tuple(NAMES.split(",")), player="Aki")))
        await asyncio.sleep(0)
        assert "private" in hub.offer_text("Ben", "keyboard")
        assert hub.open_ask is not None
        assert hub.offer_text("Ben", "script") is None
        heard = await task
        assert heard.value == "Ben" and hub.open_ask is None

    asyncio.run(main_())


def test_transcript_does_not_record_private_answers(tmp_path):
    path = tmp_path / "t.jsonl"

    async def main_():
        hub = ListenerHub()
        hub.register("phone")
        scheduler = Scheduler(TextVoice(load_pack("en")), NullOutput(), InstantClock(), hub,
                              Transcript(path), ConsoleDisplay(False))
        ask = Ask("seer.act_phone", tuple(NAMES.split(",")), player="Aki")
        task = asyncio.ensure_future(scheduler.play([ask], {"night": 1}))
        while hub.open_ask is None:
            await asyncio.sleep(0)
        assert hub.offer_value(hub.open_ask[0], "Chika", "phone")
        heard = await task
        assert heard.value == "Chika"

    asyncio.run(main_())
    records = read_transcript(path)
    answer = [r for r in records if r["kind"] == "answer"][0]
    assert answer["private"] is True and "value" not in answer and "source" not in answer
    # who was asked and what they chose appear nowhere (the choices are every player, public)
    rest = str([{k: v for k, v in r.items() if k != "choices"} for r in records])
    assert "Aki" not in rest and "Chika" not in rest


def _first_night_script(seed: int = 3, names: str = NAMES) -> str:
    """ready, then the first night's six private picks, each the first its card allows (Aki
    unless the card forbids it: the seer and the peddler never pick themselves, the phantom
    mage picks two players), then everyone nominated."""
    from narrator.games import get_game
    from narrator.games.additional_werewolf import cards
    from narrator.settings import build_settings

    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": names, "digital_cards": "true", "seed": seed}, "test"))
    state, cues = rules.advance(config, rules.new_state(), {"type": "start"})
    state, cues = rules.advance(config, state, {"type": "answer", "value": "done"})
    picks = []
    while len(picks) < 6:
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is None:
            state, cues = rules.advance(config, state, {"type": "continue"})
            continue
        picks.append(cards.private_choices(config, state, ask.player, ask.choices)[0])
        state, cues = rules.advance(config, state, {"type": "answer", "value": picks[-1]})
    return "done\n" + "".join(f"{p}\n" for p in picks) + names + "\n"


def test_cli_plays_digital_cards_with_phones_on(tmp_path):
    answers = tmp_path / "answers.txt"
    # ready; seer, peddler, two phantom mages (two picks each) choose what their cards allow; everyone nominated
    answers.write_text(_first_night_script(), encoding="utf-8")
    result = CliRunner().invoke(main, [
        "play", "--voice", "text", "--lang", "en", "--time-scale", "0", "--no-keyboard", "--names", NAMES,
        "--digital-cards", "--phones", "--host", "127.0.0.1", "--port", "0", "--seed", "3",
        "--answers", str(answers)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "phones: open http://127.0.0.1:" in result.output
    assert "Phones: on one phone, open 127 dot 0 dot 0 dot 1, port " in result.output  # said aloud, as words (printed in text mode)
    assert "game over: citizens win" in result.output


def test_cli_refuses_digital_cards_without_phones(tmp_path):
    result = CliRunner().invoke(main, ["play", "--voice", "text", "--time-scale", "0", "--no-keyboard",
                                       "--names", NAMES, "--digital-cards"])
    assert result.exit_code != 0 and "add --phones" in result.output


def test_cli_refuses_a_port_in_use(tmp_path):
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["play", "--voice", "text", "--time-scale", "0", "--no-keyboard",
                                           "--phones", "--host", "127.0.0.1", "--port", str(port)])
        assert result.exit_code != 0 and f"cannot listen on 127.0.0.1:{port}" in result.output
    finally:
        busy.close()


def test_qr_code_is_drawn_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Terminal(), io.StringIO()
    assert network.show_qr("http://narrator.local:8080/", tty) is True
    assert network.show_qr("http://narrator.local:8080/", pipe) is False
    assert "http://narrator.local:8080/" in pipe.getvalue()
    assert len(tty.getvalue().splitlines()) > 10  # the code's rows


def _round_scheduler(path):
    from narrator.table.clock import ManualClock

    hub = ListenerHub()
    hub.register("phone")
    hub.rounds_during_timers = True  # what the phone server sets
    scheduler = Scheduler(TextVoice(load_pack("en")), NullOutput(), ManualClock(), hub,
                          Transcript(path), ConsoleDisplay(False))
    return scheduler, hub


def _memo_round():
    from narrator.cues import Collect, Request, Timer

    requests = tuple(Request(n, "bm.memo.suspect", ("Aki", "Ben", "Chika"), {"night": 1}, ability=True)
                     for n in ("Aki", "Ben"))
    return [Timer("memo", 60), Collect("night", 1, requests)]


def test_phones_answer_during_the_memo_timer_which_ends_when_all_have_answered(tmp_path):
    path = tmp_path / "t.jsonl"

    async def main_():
        scheduler, hub = _round_scheduler(path)
        task = asyncio.ensure_future(scheduler.play(_memo_round(), {"night": 1}))
        await scheduler.clock.advance_to(1)  # a second into the 60 s timer
        assert hub.open_collect is not None  # open while the timer runs
        assert hub.offer_private("Aki", {"target": "Ben", "ability": False}, "phone") is None
        assert hub.offer_private("Ben", {"target": "Aki", "ability": True}, "phone") is None
        await scheduler.clock.run_until(task.done)
        return task.result()

    heard = asyncio.run(main_())
    assert set(heard.value) == {"Aki", "Ben"}
    answer = [r for r in read_transcript(path) if r["kind"] == "answer"][0]
    assert answer["t"] < 60  # the timer ended early, on the game clock


def test_after_the_timer_the_narrator_still_waits_for_every_memo(tmp_path):
    path = tmp_path / "t.jsonl"

    async def main_():
        scheduler, hub = _round_scheduler(path)
        task = asyncio.ensure_future(scheduler.play(_memo_round(), {"night": 1}))
        await scheduler.clock.run_until(lambda: hub.open_collect is not None, limit=1)
        assert hub.offer_private("Aki", {"target": "Ben", "ability": False}, "phone") is None
        await scheduler.clock.advance_to(100)  # the 60 s timer runs out
        assert not task.done() and hub.open_collect is not None
        assert hub.offer_private("Ben", {"target": "Aki", "ability": False}, "phone") is None
        await scheduler.clock.run_until(task.done)
        return task.result()

    heard = asyncio.run(main_())
    assert set(heard.value) == {"Aki", "Ben"}
    answer = [r for r in read_transcript(path) if r["kind"] == "answer"][0]
    assert answer["t"] >= 60


def test_phones_refused_for_a_game_without_a_phone_page():
    result = CliRunner().invoke(main, ["play", "pagan", "--voice", "text", "--time-scale", "0", "--no-keyboard",
                                       "--phones", "--host", "127.0.0.1", "--port", "0"])
    assert result.exit_code != 0 and "the phone page serves additional-werewolf, bestia-magica" in result.output
    from narrator.table.saved_games import saved_games
    from narrator import home

    assert saved_games(home.app_home()) == []  # refused before anything was saved


def test_killed_game_with_phones_resumes_on_another_port(tmp_path, narrator_home):
    """A real process killed mid-night; `narrator resume --port 0` brings the phone page back."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    answers = tmp_path / "answers.txt"
    answers.write_text(_first_night_script(), encoding="utf-8")
    env = {**os.environ, "NARRATOR_HOME": str(narrator_home)}
    cmd = [sys.executable, "-m", "narrator"]
    first = started(cmd + [
        "play", "--voice", "text", "--lang", "en", "--time-scale", "0.05", "--no-keyboard", "--names", NAMES,
        "--digital-cards", "--phones", "--host", "127.0.0.1", "--port", "0", "--seed", "3",
        "--answers", str(answers)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            games = list((narrator_home / "games").glob("*/events.jsonl"))
            if games and sum('"answer"' in line for line in games[0].read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the first answers never arrived")
        first.send_signal(signal.SIGKILL)
    finally:
        first.wait(10)
    folder = games[0].parent
    assert json.loads((folder / "meta.json").read_text())["run"]["phones"] is True
    resumed = subprocess.run(cmd + ["resume", "--time-scale", "0", "--no-keyboard", "--port", "0",
                                    "--answers", str(answers)],
                             env=env, capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert "phones: open http://127.0.0.1:" in resumed.stderr
    assert "game over: citizens win" in resumed.stderr


@pytest.mark.parametrize("closes", [True, False])
def test_the_memo_timer_closes_a_round_with_answers_missing_when_the_house_rule_says(tmp_path, closes):
    """House rule missing_answer: `none` → the timer's end closes the round; `wait` → it does not."""
    from narrator.cues import Collect, Timer

    path = tmp_path / "t.jsonl"
    timer, collect = _memo_round()
    cues = [Timer("memo", 2), Collect(collect.phase, collect.number, collect.requests, closes_with_timer=closes)]

    async def main_():
        scheduler, hub = _round_scheduler(path)
        task = asyncio.ensure_future(scheduler.play(cues, {"night": 1}))
        await scheduler.clock.advance_to(1)  # a second into the 2 s timer
        assert hub.offer_private("Aki", {"target": "Ben", "ability": True}, "phone") is None
        await scheduler.clock.advance_to(30)  # the 2 s timer is long over
        done = task.done()
        if not done:
            assert hub.offer_private("Ben", {"target": "Chika", "ability": False}, "phone") is None
        await scheduler.clock.run_until(task.done)
        return task.result(), bool(done)

    heard, closed_by_timer = asyncio.run(main_())
    assert closed_by_timer is closes
    assert heard.value == ({"Aki": {"target": "Ben", "ability": True}} if closes else
                           {"Aki": {"target": "Ben", "ability": True}, "Ben": {"target": "Chika", "ability": False}})
