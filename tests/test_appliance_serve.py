"""`narrator serve`, the service's start command: choose, play, and resume after a kill.

The kill test runs the exact command the systemd unit runs (`python -m narrator serve`), kills
it with SIGKILL in the middle of a game, and starts it again: it must ask whether to resume,
then finish the same game.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from narrator.appliance import unit
from narrator.appliance.serve import ServeOptions, serve
from narrator.inputs.hub import ListenerHub
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript
from tests.processes import started

pytestmark = pytest.mark.slow  # narrator serve as a process, SIGKILL

REPO = Path(__file__).resolve().parent.parent
TEXT_RUN = {"voice": "text", "lang": "en", "time_scale": "0"}


def write(path, *lines):
    path.write_text("\n".join(lines) + "\n")
    return path


def lines_of(transcript):
    return [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask", "end")]


def run_serve(tmp_path, *answers, **overrides):
    transcript = tmp_path / f"t{len(list(tmp_path.glob('t*.jsonl')))}.jsonl"
    opts = {**TEXT_RUN, "transcript": str(transcript), **overrides}
    if answers:
        opts["answers"] = str(write(tmp_path / "answers.txt", *answers))
    played = serve(ServeOptions(once=True, keyboard=False, buttons=False, overrides=opts), log=lambda m: None)
    return played, transcript


def test_a_new_table_is_greeted_offered_the_default_game_and_plays_it(narrator_home, tmp_path):
    played, transcript = run_serve(tmp_path, "yes", "done", "yes")
    assert played == 1
    spoken = lines_of(transcript)
    assert spoken[:3] == ["appliance.greeting", "title.additional_werewolf", "appliance.offer"]
    assert "setup.welcome" in spoken and spoken[-1] == "end.citizens_win"
    [game] = saved_games(narrator_home)
    assert game.meta["finished"] and game.meta["outcome"]["winner"] == "citizens"
    assert (narrator_home / "table.toml").is_file()


def test_the_table_changes_the_player_count_by_yes_and_no_and_it_is_saved(narrator_home, tmp_path):
    run_serve(tmp_path, "no", "yes", "no", "no", "yes", "yes", "done", "yes", "no")
    [game] = saved_games(narrator_home)
    assert game.meta["config"]["players"] == 7
    assert tomllib.loads((narrator_home / "table.toml").read_text())["players"] == 7
    transcript = tmp_path / "t0.jsonl"
    offered = [int(r["text"].split()[0]) for r in read_transcript(transcript)
               if r["kind"] == "ask" and r["line"] == "appliance.players_option"]
    assert offered == [5, 6, 7]


class GameOnly:
    """A table that answers the game's questions but stays silent on the appliance's own."""

    def __init__(self, answers):
        self.answers = list(answers)

    def start(self, hub: ListenerHub, loop):
        hub.register("table")
        loop.create_task(self._run(hub))

    async def _run(self, hub):
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            if not ask.line.startswith("appliance.") and self.answers:
                hub.offer_text(self.answers.pop(0), "table")


def unfinished_game(tmp_path):
    """A game stopped at its first question after the setup (the answers ran out)."""
    answers = write(tmp_path / "first.txt", "done")
    result = subprocess.run([sys.executable, "-m", "narrator", "play", "--voice", "text", "--lang", "en",
                             "--time-scale", "0", "--answers", str(answers), "--no-keyboard"],
                            capture_output=True, text=True, env=os.environ, timeout=60)
    assert result.returncode == 3, result.stderr
    [game] = saved_games(Path(os.environ["NARRATOR_HOME"]))
    return game


def test_silence_resumes_the_unfinished_game(narrator_home, tmp_path):
    game = unfinished_game(tmp_path)
    events_before = len(game.events())
    transcript = tmp_path / "t.jsonl"
    options = ServeOptions(once=True, keyboard=False, buttons=False, listeners=[GameOnly(["yes"])],
                           overrides={**TEXT_RUN, "transcript": str(transcript)})
    assert serve(options, log=lambda m: None) == 1
    records = read_transcript(transcript)
    answer = next(r for r in records if r["kind"] == "answer" and r["line"] == "appliance.resume_question")
    assert (answer["value"], answer["source"]) == ("yes", "timeout")
    assert "resume.recap_night" in lines_of(transcript) or "resume.recap_day" in lines_of(transcript)
    [same] = saved_games(narrator_home)
    assert same.id == game.id and same.meta["finished"] and same.meta["outcome"]["winner"] == "citizens"
    assert len(same.events()) > events_before


def test_no_sets_the_unfinished_game_aside_and_starts_a_new_one(narrator_home, tmp_path):
    old = unfinished_game(tmp_path)
    run_serve(tmp_path, "no", "yes", "done", "yes")
    games = {g.id: g for g in saved_games(narrator_home)}
    assert len(games) == 2
    assert games.pop(old.id).meta["outcome"] == {"winner": None, "abandoned": True}
    [new] = games.values()
    assert new.meta["outcome"]["winner"] == "citizens"


def serve_command():
    """The start command exactly as the systemd unit runs it."""
    return list(unit.make_spec(user="nobody").exec_start)


@pytest.mark.slow
def test_resume_after_sigkill_through_the_service_start_command(narrator_home, tmp_path):
    env = {**os.environ, "NARRATOR_HOME": str(narrator_home)}
    first = tmp_path / "first.jsonl"
    # Real time, 50 times faster: the 3-minute discussion lasts 3.6 s, time enough to kill it.
    proc = started(serve_command() + [
        "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en", "--time-scale", "0.02",
        "--answers", str(write(tmp_path / "a1.txt", "yes", "done")), "--transcript", str(first)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while not (first.exists() and any(r.get("line") == "discussion" for r in read_transcript(first))):
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "the discussion never started"
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=10) == -signal.SIGKILL
    [game] = saved_games(narrator_home)
    assert not game.meta["finished"]
    events_before = game.events()
    assert json.loads((game.folder / "snapshot.json").read_text())["state"]["step"] == "nomination"

    second = tmp_path / "second.jsonl"
    result = subprocess.run(serve_command() + [
        "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en", "--time-scale", "0",
        "--answers", str(write(tmp_path / "a2.txt", "yes", "yes")), "--transcript", str(second)],
        env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    spoken = lines_of(second)
    assert spoken[:3] == ["appliance.greeting", "appliance.resume_question", "resume.recap_day"]
    assert spoken[3] == "day.discussion" and spoken[-1] == "end.citizens_win"
    [same] = saved_games(narrator_home)
    assert same.id == game.id and same.meta["finished"] and same.meta["outcome"]["winner"] == "citizens"
    assert same.events()[:len(events_before)] == events_before
    assert "resuming game " + game.id in result.stderr


class Late:
    """A table that answers the appliance's offer only once the transcript shows it said
    `offers` times (the first time and its reminders), then the game."""

    def __init__(self, offers, answers, transcript):
        self.offers, self.answers, self.transcript = offers, list(answers), transcript

    def _said(self):
        records = read_transcript(self.transcript) if self.transcript.exists() else []
        return sum(r["kind"] == "ask" and r["line"] == "appliance.offer" for r in records)

    def start(self, hub: ListenerHub, loop):
        hub.register("table")
        loop.create_task(self._run(hub))

    async def _run(self, hub):
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            if ask.line == "appliance.offer":
                give_up = asyncio.get_running_loop().time() + 60  # a bounded wait for what it can see
                while self._said() < self.offers and asyncio.get_running_loop().time() < give_up:
                    await asyncio.sleep(0.01)
                hub.offer_text("yes", "table")
            elif self.answers:
                hub.offer_text(self.answers.pop(0), "table")


def test_an_unanswered_question_is_said_again_after_remind_after(narrator_home, tmp_path):
    table_file = write(tmp_path / "table.toml", 'lang = "en"', "[appliance]", "remind_after = 50")
    transcript = tmp_path / "t.jsonl"
    # 100 times faster: the reminder comes 0.5 s after the question; the answer after the reminder.
    options = ServeOptions(table=table_file, once=True, keyboard=False, buttons=False,
                           listeners=[Late(2, ["done", "yes"], transcript)],
                           overrides={"voice": "text", "time_scale": "0.01", "transcript": str(transcript)})
    assert serve(options, log=lambda m: None) == 1
    offers = [r for r in read_transcript(transcript) if r["kind"] == "ask" and r["line"] == "appliance.offer"]
    repeats = [r.get("repeat", False) for r in offers]
    assert repeats[0] is False and len(repeats) >= 2 and all(repeats[1:])  # 2 expected; timing may vary
    gaps = [b["t"] - a["t"] for a, b in zip(offers, offers[1:])]
    assert all(55 <= gap <= 75 for gap in gaps), gaps  # said (~12 game s) + 50 s of silence


def test_a_broken_table_file_is_said_and_the_defaults_are_played(narrator_home, tmp_path):
    table_file = write(tmp_path / "table.toml", "players = 99")
    before = table_file.read_text()
    transcript = tmp_path / "t.jsonl"
    messages = []
    options = ServeOptions(table=table_file, once=True, keyboard=False, buttons=False,
                           overrides={**TEXT_RUN, "transcript": str(transcript),
                                      "answers": str(write(tmp_path / "a.txt", "yes", "done", "yes"))})
    assert serve(options, log=messages.append) == 1
    assert lines_of(transcript)[:2] == ["appliance.greeting", "appliance.table_error"]
    assert any("not 99" in m and "using the default table" in m for m in messages)
    [game] = saved_games(narrator_home)
    assert game.meta["config"]["players"] == 5 and table_file.read_text() == before


def test_a_bad_flag_is_still_an_error(narrator_home):
    from narrator.errors import SetupError
    with pytest.raises(SetupError, match="unknown language 'fr'"):
        serve(ServeOptions(once=True, keyboard=False, buttons=False, overrides={"lang": "fr"}), log=lambda m: None)


def test_each_new_game_reads_the_table_file_again(narrator_home, tmp_path):
    """`narrator config set` while the service runs applies to the next game it offers."""
    table_file = write(tmp_path / "table.toml", 'lang = "en"', "players = 5")

    class EditThenAnswer(GameOnly):
        async def _run(self, hub):
            serial = 0
            while True:
                serial, ask = await hub.next_ask(serial)
                if ask.line == "appliance.again" and "players = 6" in table_file.read_text():
                    hub.retire("table")  # the table leaves: nothing can answer any more
                elif ask.line == "appliance.again":
                    table_file.write_text('lang = "en"\nplayers = 6\n')
                    hub.offer_text("done", "table")
                elif self.answers:
                    hub.offer_text(self.answers.pop(0), "table")

    table = EditThenAnswer(["yes", "done", "yes", "done", "yes"])  # the press at "play again?" replays
    options = ServeOptions(table=table_file, keyboard=False, buttons=False, listeners=[table],
                           overrides={**TEXT_RUN, "phones": "false"})  # no page: the table's leaving ends it
    from narrator.errors import NoMoreAnswers
    with pytest.raises(NoMoreAnswers):  # no --once: it offers a third game, and the table has left
        serve(options, log=lambda m: None)
    players = sorted(g.meta["config"]["players"] for g in saved_games(narrator_home))
    assert players == [5, 6]


def test_the_phone_page_runs_beside_a_served_game_when_the_table_turns_it_on(narrator_home, tmp_path):
    played, transcript = run_serve(tmp_path, "yes", "done", "yes", phones="true", host="127.0.0.1", port="0")
    assert played == 1
    spoken = lines_of(transcript)
    assert spoken.index("appliance.offer") < spoken.index("phones.join") < spoken.index("setup.welcome")
    [game] = saved_games(narrator_home)
    assert game.meta["run"]["phones"] is True and game.meta["outcome"]["winner"] == "citizens"
