"""The three shipped game files play whole games to a judged end through the CLI (a real
`python -m narrator play` process, scripted answers, no real-time waits), in Japanese and in
English; werewolf with the cards on the device is refused with physical cards in one line;
`--dry-run` prints the set and the night plan, `narrator games graph` the Mermaid graph, and
a table's own file in the home folder is listed and played.

The answers are found by playing the same config in-process with a simple table (every
holder picks the first choice, the vote names a living werewolf), then given to the CLI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cues import Answer, Ask, Collect, Continue, Start
from narrator.games import get_game
from narrator.settings import build_settings
from tests.kernel_table import StepBudget

ROOT = Path(__file__).resolve().parents[1]
NAMES = {"one-night": "Aki,Ben,Chika,Dai", "werewolf": "Aki,Ben,Chika,Dai,Emi,Fumi",
         "tabula": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun",
         **{f"village-{n}": ",".join("Aki Ben Chika Dai Emi Fumi Gen Hana Iku Jun Kei Rei Sora Taro Yui Zen".split()[:n])
            for n in (9, 11, 13, 16)}}


def play_in_process(game, config, pick) -> tuple[list[str], str]:
    """(answers, winner) of a game played in-process; `pick(state, ask)` answers each question."""
    state, event, answers, budget = game.new_state(), Start(), [], StepBudget()
    while not state.finished:
        budget.tick()
        state, cues = game.advance(config, state, event)
        if cues and isinstance(cues[-1], Collect):  # a night call's round: one line per holder asked, seat order
            requests = cues[-1].requests
            answers += [r.choices[0] for r in requests]
            event = Answer({r.player: {r.key: r.choices[0]} for r in requests})
            continue
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is None:
            event = Continue()
            continue
        value = pick(config, state, ask)
        answers.append(value[0] if isinstance(value, list) else value)
        event = Answer(value)
    return answers, state.winner


def _simple_table(config, state, ask):
    """Every holder picks the first choice; the vote names a living werewolf if the narrator knows one."""
    if ask.multiple:
        wolves = [n for n, c in zip(config.names, state.cards) if c == "werewolf" and n in ask.choices]
        return (wolves or list(ask.choices))[:1]
    return "yes" if "yes" in ask.choices else ask.choices[0]


def _scripted(name: str, flags: dict) -> tuple[list[str], str]:
    """(answers, winner) of an in-process game with this table."""
    game = get_game(name)
    config = game.configure(build_settings({}, {"names": NAMES[name], "seed": "4", **flags}, "test"))
    return play_in_process(game, config, _simple_table)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _play(tmp_path: Path, name: str, lang: str, device: bool) -> subprocess.CompletedProcess:
    answers, winner = _scripted(name, {"digital_cards": "true"} if device else {})
    script = tmp_path / f"{name}-{lang}.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    extra = ["--digital-cards", "--phones", "--host", "127.0.0.1", "--port", str(free_port())] if device else []
    done = _narrator(tmp_path, "play", name, "--names", NAMES[name], "--seed", "4", *extra, "--answers",
                     str(script), "--voice", "text", "--lang", lang, "--time-scale", "0", "--no-keyboard")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.strip().splitlines()[-1] == f"game over: {winner} {'win' if winner.endswith('s') else 'wins'}"
    return done


def _narrator(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "narrator", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name,device", [("one-night", False), ("one-night", True), ("werewolf", False),
                                         ("tabula", False)], ids=["one-night", "one-night-device", "werewolf", "tabula"])
def test_a_shipped_game_file_plays_to_a_judged_end(tmp_path, name, device, lang):
    done = _play(tmp_path, name, lang, device)
    said = done.stdout + done.stderr
    assert ("目を閉じてください" if lang == "ja" else "close your eyes") in said
    if device or name != "one-night":  # the narrator dealt the cards and says what the executed held
        assert ("処刑されます" if lang == "ja" else "will be executed") in said


@pytest.mark.parametrize("game,roles,line", [
    ("werewolf", "werewolf=5", "error: command line: every role in the set (werewolf) is of one side, so werewolf is "
                               "won before it starts; add roles of another side, or leave roles unset for the file's "
                               "set for 5 players"),
    ("werewolf", "villager=4,seer=1", "error: command line: every role in the set (villager, seer) is of one side, so "
                                      "werewolf is won before it starts; add roles of another side, or leave roles "
                                      "unset for the file's set for 5 players"),
    ("werewolf", "werewolf=3,madman=1,villager=1", "error: command line: with this set (villager, werewolf, madman) "
                                                   "werewolves win before the first night"),
    ("werewolf", "werewolf=3,villager=1,seer=1", "error: command line: with this set (villager, werewolf, seer) "
                                                 "werewolves win before the first night (a win rule already holds with "
                                                 "every card dealt); give the other sides more cards, or leave roles "
                                                 "unset for the file's set for 5 players"),
    ("one-night", "villager=5,seer=1,thief=1", "error: command line: every role in the set (seer, thief, villager) is "
                                               "of one side, so one-night is won before it starts"),
])
def test_a_set_that_decides_the_game_before_it_starts_is_refused_in_one_line(tmp_path, game, roles, line):
    """Five werewolves and no village (or wolves already at parity) end the game at the first
    check: the table would deal, wait out a night and hear "the werewolves win"."""
    done = _narrator(tmp_path, "play", game, "--players", "5", "--roles", roles, "--lang", "en", "--dry-run")
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith(line), done.stderr
    kept = _narrator(tmp_path, "play", game, "--players", "5", "--roles", "werewolf=2,villager=3" if game == "werewolf"
                     else "werewolf=2,seer=1,thief=1,villager=3", "--lang", "en", "--dry-run")
    assert kept.returncode == 0, kept.stderr


def test_werewolf_is_refused_with_physical_cards_in_one_line(tmp_path):
    done = _narrator(tmp_path, "play", "werewolf", "--names", NAMES["werewolf"], "--no-digital-cards",
                     "--voice", "text", "--no-keyboard")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: command line: werewolf cannot be played with physical cards: the narrator must know every night "
        "choice; deal the cards on the device, to the phones (--phones) or passed round this terminal "
        "(drop --no-digital-cards)"]


@pytest.mark.parametrize("scripted", [False, True], ids=["keyboard", "answers"])
def test_one_night_on_the_device_without_phones_is_refused_in_one_line(tmp_path, scripted):
    """The thief's swap must come before the seer's look in the file's order, which a device
    passed round in seat order cannot keep: one-night's cards on the device need the phones,
    with an answers file too (else nobody would ever be shown a card); a setup error, exit 2."""
    script = tmp_path / "a.txt"
    script.write_text("done\n", encoding="utf-8")
    done = _narrator(tmp_path, "play", "one-night", "--names", NAMES["one-night"], "--digital-cards", "--voice", "text",
                     "--no-keyboard", *(["--answers", str(script)] if scripted else []))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["error: the cards are dealt to the players' phones; "
                                                "add --phones (or phones = true)"]


def test_dry_run_prints_the_set_and_the_night_plan_and_graph_prints_mermaid(tmp_path):
    done = _narrator(tmp_path, "play", "werewolf", "--names", NAMES["werewolf"], "--dry-run", "--lang", "en")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("The cards this game: 2 villagers, 1 werewolf, 1 madman")
    assert lines[1] == "night 1: werewolf (partners, 10 s), seer (divine, 15 s)"
    assert lines[2] == "night 2: seer (divine, 15 s), knight (guard, 15 s), werewolf (attack, 20 s)"
    assert lines[-1] == ("day: deaths, check, discussion, vote, check; discussion 300 s, 240 s, 180 s, then 120 s a day; "
                         "vote by name, tie: revote")  # the fourth day's 2 minutes too
    graph = _narrator(tmp_path, "games", "graph", "tabula")
    assert graph.returncode == 0 and graph.stdout.startswith("flowchart TD\n")
    assert 'masons["mason: partners (night 1)"]' in graph.stdout


def test_a_tables_own_file_in_the_home_folder_is_listed_checked_and_played(tmp_path):
    folder = tmp_path / "home" / "game-files"
    folder.mkdir(parents=True)
    text = (ROOT / "narrator/games/kernel/games/werewolf.toml").read_text(encoding="utf-8")
    (folder / "house-wolf.toml").write_text(text.replace('name = "werewolf"', 'name = "house-wolf"')
                                            .replace("[300, 240, 180, 120]", "[120]"), encoding="utf-8")
    listed = _narrator(tmp_path, "games")
    assert "house-wolf" in listed.stdout.splitlines()[0]
    checked = _narrator(tmp_path, "games", "check", "house-wolf")
    assert checked.returncode == 0 and checked.stdout.startswith("ok ")
    script = tmp_path / "a.txt"
    script.write_text("done\nBen\n", encoding="utf-8")
    done = _narrator(tmp_path, "play", "--game-file", str(folder / "house-wolf.toml"), "--names", "Aki,Ben,Chika,Dai,Emi",
                     "--seed", "1", "--answers", str(script), "--voice", "text", "--lang", "en", "--time-scale", "0",
                     "--no-keyboard")
    assert "Day 1: discuss for 2 minutes." in done.stdout + done.stderr


def test_a_game_stopped_for_want_of_answers_resumes_to_its_end(tmp_path):
    """Kill-and-resume at any step is the runner's replay of the log: a game file needs nothing of its own."""
    answers, winner = _scripted("werewolf", {})
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(answers[:2]) + "\n", encoding="utf-8")
    rest.write_text("\n".join(answers) + "\n", encoding="utf-8")
    stopped = _narrator(tmp_path, "play", "werewolf", "--names", NAMES["werewolf"], "--seed", "4", "--answers",
                        str(first), "--voice", "text", "--lang", "en", "--time-scale", "0", "--no-keyboard")
    assert stopped.returncode == 3, stopped.stderr[-2000:]
    resumed = _narrator(tmp_path, "resume", "--answers", str(rest), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "We pick up" in resumed.stdout + resumed.stderr
    assert resumed.stderr.strip().splitlines()[-1].startswith(f"game over: {winner}")


def test_a_phone_sees_its_own_card_only():
    game = get_game("werewolf")
    config = game.configure(build_settings({}, {"names": NAMES["werewolf"], "seed": "4"}, "test"))
    state, _ = game.advance(config, game.new_state(), Start())
    views = {seat: game.phones.private_view(config, state, seat) for seat in config.names}
    assert [v["role"] for v in views.values()] == list(state.cards)
    assert all(v["lines"] == [("wolf.you_are", {"cards": [[f"wolf.role.{v['role']}", 1]]})] for v in views.values())
