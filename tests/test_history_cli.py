"""Issue 28 through real `narrator` processes: several scripted games of each game, then
`narrator stats` against standings added up by hand here; a player forgotten; a damaged
saved game skipped with one line; `history = false` and the date range."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.games.bestia_magica.vote import winners
from narrator.sound.voicepack import load_pack
from tests.bm_driver import answers_jsonl, configure, play as play_bm
from tests.pagan_script import ENDINGS
from tests.test_phones_wiring import _first_night_script

pytestmark = pytest.mark.slow  # real narrator processes

AW_NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"
AW_CITIZENS = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
"""Physical cards: the werewolf is found among day 3's nominees (Fumi)."""
AW_WEREWOLVES = AW_CITIZENS[:-1] + ["no", "no"]
"""Physical cards: no werewolf found in 3 days."""
BM_NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"
RUN = ["--voice", "text", "--time-scale", "0", "--no-keyboard"]


def narrator(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def script(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def played(home: Path, *args: str) -> None:
    done = narrator(home, "play", *args)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One table's evening: 2 physical and 2 digital Additional Werewolf games, 2 Bestia
    Magica games, 2 Pagan games. Returns (home, the Bestia Magica end states)."""
    home = tmp_path_factory.mktemp("home")
    files = tmp_path_factory.mktemp("scripts")
    played(home, "additional-werewolf", "--names", AW_NAMES, "--seed", "7", *RUN,
           "--answers", script(files, "aw1.txt", AW_CITIZENS))
    played(home, "additional-werewolf", "--names", "Aki:あき," + AW_NAMES.split(",", 1)[1], "--seed", "7", *RUN,
           "--answers", script(files, "aw2.txt", AW_WEREWOLVES))
    for n, names in enumerate(("Aki,Ben,Chika,Dai,Emi", "Emi,Aki,Ben,Chika,Dai")):
        (files / f"d{n}.txt").write_text(_first_night_script(3, names), encoding="utf-8")
        played(home, "additional-werewolf", "--names", names, "--seed", "3", "--digital-cards", "--phones",
               "--host", "127.0.0.1", "--port", "0", *RUN, "--answers", str(files / f"d{n}.txt"))
    dealt = []  # the digital games' cards at the end, as the narrator saved them
    for folder in sorted((home / "games").iterdir()):
        if json.loads((folder / "meta.json").read_text())["config"].get("digital_cards"):
            state = json.loads((folder / "snapshot.json").read_text())["state"]
            names = json.loads((folder / "meta.json").read_text())["config"]["names"]
            dealt.append((dict(zip(names, state["roles_of"])), state["winner"]))
    ends = []
    for seed in (1, 2):
        config = configure(names=BM_NAMES, seed=7)
        state, _, rounds = play_bm(config, seed=seed)
        (files / f"bm{seed}.jsonl").write_text(answers_jsonl(rounds), encoding="utf-8")
        played(home, "bestia-magica", "--names", BM_NAMES, "--seed", "7", *RUN,
               "--answers", str(files / f"bm{seed}.jsonl"))
        ends.append((config, state))
    for ending in ("innocent", "witch"):
        played(home, "pagan", *RUN, "--answers", script(files, f"p-{ending}.txt", ENDINGS[ending][0]))
    return home, ends, dealt


TEAM = {"citizen": "citizens", "traitor": "werewolves", "werewolf": "werewolves"}


def by_hand(bm_ends, dealt) -> dict[str, dict]:
    """The standings, added up here: AW physical games count as played (nobody's win or
    survival is known); in the digital games a player won when the role card they held at
    the end is on the winning team (no lovers in these sets); Bestia Magica's by the winning
    team of each end state."""
    rows: dict[str, dict] = {}

    def add(name, won=None, survived=None, role=None):
        row = rows.setdefault(name, {"games": 0, "wins": 0, "decided": 0, "survived": 0, "survival_known": 0,
                                     "roles": {}})
        row["games"] += 1
        if won is not None:
            row["decided"] += 1
            row["wins"] += won
        if survived is not None:
            row["survival_known"] += 1
            row["survived"] += survived
        if role:
            row["roles"][role] = row["roles"].get(role, 0) + 1

    for name in AW_NAMES.split(",") * 2:
        add(name)
    for roles, winner in dealt:
        for name, role in roles.items():
            add(name, won=TEAM[role] == winner, role=f"label.{role}")
    for config, state in bm_ends:
        won = set(winners(config, state, state.winner))
        for p in state.players:
            add(p.name, won=p.name in won, survived=p.alive, role=f"bm.label.{p.dealt_role}")
    return rows


def test_the_standings_are_the_ones_added_up_by_hand(table):
    home, bm_ends, dealt = table
    done = narrator(home, "stats", "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    data = json.loads(done.stdout)
    expected = by_hand(bm_ends, dealt)
    got = {p["name"]: p for p in data["players"]}
    assert set(got) == set(expected)  # Aki:あき is Aki; Pagan names no one
    for name, row in expected.items():
        mine = {k: got[name][k] for k in ("games", "wins", "decided", "survived", "survival_known")}
        assert mine == {k: row[k] for k in mine}, name
        top = sorted(row["roles"].items(), key=lambda kv: -kv[1])[:2]
        assert sorted(r["times"] for r in got[name]["roles"]) == sorted(n for _, n in top), name
        rate = round(row["wins"] / row["decided"], 4) if row["decided"] else None
        assert got[name]["win_rate"] == rate, name
    order = [p["name"] for p in data["players"]]
    assert [expected[n]["wins"] for n in order] == sorted((expected[n]["wins"] for n in order), reverse=True)
    games = data["games"]  # oldest first, to the second (games begun in one second in any order)
    assert sorted(g["game"] for g in games) == ["additional-werewolf"] * 4 + ["bestia-magica"] * 2 + ["pagan"] * 2
    physical = [g["answers"] for g in games if g["game"] == "additional-werewolf" and g["answers"]["found_among"]]
    assert physical == [{"nominated": [["Ben", "Dai"], ["Emi"], ["Fumi"]], "werewolf_found": True,
                         "found_among": ["Fumi"]}]
    assert sum(g["winner"] == "werewolves" and not g["answers"]["werewolf_found"] for g in games) == 1
    pagan = sorted((g["winner"], g["players"], g["answers"]["ending"]) for g in games if g["game"] == "pagan")
    assert pagan == [("hunter", [], "witch"), ("witch", [], "innocent")]


def test_the_table_is_in_the_table_language_and_filters_by_game_player_and_day(table):
    home, bm_ends, dealt = table
    expected = by_hand(bm_ends, dealt)
    ja = narrator(home, "stats").stdout.splitlines()
    assert ja[0].split() == ["プレイヤー", "試合", "勝ち", "勝率", "よく持った役職", "生存"]
    ben = next(line for line in ja if line.startswith("Ben "))
    assert ben.split()[1] == str(expected["Ben"]["games"])
    roles, ja_pack = expected["Ben"]["roles"], load_pack("ja")
    assert any(f"{ja_pack.speak(r).text} {n}" in ben for r, n in roles.items() if n == max(roles.values()))
    en = narrator(home, "stats", "--lang", "en", "--game", "additional-werewolf").stdout.splitlines()
    assert en[0].split()[:2] == ["Player", "Games"]
    fumi = next(line for line in en if line.startswith("Fumi "))
    assert fumi.split() == ["Fumi", "2", "—", "—", "—", "—"]  # physical cards: played, nothing more known
    one = json.loads(narrator(home, "stats", "--player", "aki", "--json", "--game", "bestia-magica").stdout)
    assert [p["name"] for p in one["players"]] == ["Aki"] and len(one["games"]) == 2
    today = time.strftime("%Y-%m-%d")
    assert len(json.loads(narrator(home, "stats", "--json", "--since", today, "--until", today).stdout)["games"]) == 8
    assert json.loads(narrator(home, "stats", "--json", "--since", "2999-01-01").stdout)["games"] == []
    assert narrator(home, "stats", "--lang", "en", "--until", "2000-01-01").stdout.strip() == "No finished game yet"
    rows = list(csv.DictReader(io.StringIO(narrator(home, "stats", "--csv", "--lang", "en").stdout)))
    aki = next(r for r in rows if r["player"] == "Aki")
    assert int(aki["games"]) == expected["Aki"]["games"] and int(aki["wins"]) == expected["Aki"]["wins"]
    bad = narrator(home, "stats", "--since", "2026-13-01")
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: --since 2026-13-01 is not a day")
    unknown = narrator(home, "stats", "--game", "chess")
    assert unknown.returncode != 0 and "known games:" in unknown.stderr


def test_a_damaged_saved_game_is_skipped_with_one_line(table, tmp_path):
    home, _, _ = table
    copy = tmp_path / "home"
    subprocess.run(["cp", "-a", str(home), str(copy)], check=True, timeout=60)
    folders = [f for f in sorted((copy / "games").iterdir()) if '"bestia-magica"' in (f / "meta.json").read_text()]
    log = folders[0] / "events.jsonl"  # a log with no copy of the setup (as before issue 25): nothing to rebuild from
    first, *rest = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text(json.dumps({k: v for k, v in json.loads(first).items() if k != "setup"}) + "\n" + "".join(rest),
                   encoding="utf-8")
    (folders[0] / "meta.json").write_text("{ not json", encoding="utf-8")
    (folders[1] / "snapshot.json").unlink()  # the other is rebuilt from its log, quietly
    done = narrator(copy, "stats", "--json")
    assert done.returncode == 0
    [line] = done.stderr.splitlines()
    assert line.startswith(f"warning: the history skips saved game {folders[0].name}: ") and "meta.json" in line
    assert [g["game"] for g in json.loads(done.stdout)["games"]].count("bestia-magica") == 1


def test_a_forgotten_player_leaves_every_record(table, tmp_path):
    home, _, _ = table
    copy = tmp_path / "home"
    subprocess.run(["cp", "-a", str(home), str(copy)], check=True, timeout=60)
    files = tmp_path / "scripts"
    files.mkdir()
    unfinished = narrator(copy, "play", "additional-werewolf", "--names", AW_NAMES, "--seed", "7", *RUN,
                          "--answers", script(files, "half.txt", AW_CITIZENS[:3]))
    assert unfinished.returncode == 3, unfinished.stderr  # the script ran dry: a game left unfinished
    done = narrator(copy, "stats", "forget", "Ben")
    assert done.returncode == 0 and "forgot Ben: 6 finished game(s)" in done.stderr, done.stderr
    data = json.loads(narrator(copy, "stats", "--json").stdout)
    assert "Ben" not in [p["name"] for p in data["players"]] and "Ben" not in json.dumps(data["games"])
    for folder in (copy / "games").iterdir():
        if '"finished": false' in (folder / "meta.json").read_text():
            continue
        for name in ("meta.json", "snapshot.json", "events.jsonl"):
            assert '"Ben"' not in (folder / name).read_text(encoding="utf-8"), (folder.name, name)
        assert not (folder / "phones.json").exists()
    assert "Ben" not in (copy / "history-forgotten.json").read_text()
    resumed = narrator(copy, "resume", "--no-keyboard", "--answers", script(files, "all.txt", AW_CITIZENS))
    assert resumed.returncode == 0, resumed.stderr  # the unfinished game kept Ben to resume
    after = json.loads(narrator(copy, "stats", "--json").stdout)
    assert "Ben" not in [p["name"] for p in after["players"]] and len(after["games"]) == 9


def test_a_game_played_with_history_off_is_left_out(tmp_path):
    home = tmp_path / "home"
    table_file = tmp_path / "table.toml"
    table_file.write_text("history = false\n", encoding="utf-8")
    played(home, "additional-werewolf", "--table", str(table_file), "--names", AW_NAMES, "--seed", "7", *RUN,
           "--answers", script(tmp_path, "a.txt", AW_CITIZENS))
    [folder] = (home / "games").iterdir()
    assert json.loads((folder / "meta.json").read_text())["run"]["history"] is False
    assert narrator(home, "stats", "--lang", "en").stdout.strip() == "No finished game yet"


@pytest.mark.parametrize("name,device", [("one-night", False), ("one-night", True), ("werewolf", False),
                                         ("tabula", False)], ids=["one-night", "one-night-device", "werewolf", "tabula"])
def test_each_game_file_game_is_kept_with_what_the_narrator_knew(tmp_path, name, device):
    """The game files (one-night, werewolf, tabula) through the CLI twice, as
    tests/test_kernel_cli.py plays them; the wins added up here from the in-process end state:
    a seat won when its card's team is the winner, where the narrator held the cards."""
    from narrator.cues import Answer, Ask, Collect, Continue, Start
    from narrator.games import get_game
    from narrator.settings import build_settings
    from tests.test_kernel_cli import NAMES, _play, _simple_table

    game = get_game(name)
    flags = {"digital_cards": "true", "phones": True} if device else {}
    config = game.configure(build_settings({}, {"names": NAMES[name], "seed": "4", **flags}, "test"))
    state, event = game.new_state(), Start()
    while not state.finished:
        state, cues = game.advance(config, state, event)
        if cues and isinstance(cues[-1], Collect):  # a night call's round: every holder's first choice
            event = Answer({r.player: {r.key: r.choices[0]} for r in cues[-1].requests})
            continue
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        event = Answer(_simple_table(config, state, ask)) if ask else Continue()
    for lang in ("ja", "en"):
        _play(tmp_path, name, lang, device)
    data = json.loads(narrator(tmp_path / "home", "stats", "--json").stdout)
    assert [g["winner"] for g in data["games"]] == [state.winner] * 2
    knows = len(state.cards) >= len(config.names)
    teams = {r.id: r.team for r in get_game(name).record.args[0].roles.values()} if knows else {}
    for row in data["players"]:
        seat = config.names.index(row["name"])
        assert row["games"] == 2
        if knows:
            assert row["decided"] == 2 and row["wins"] == 2 * (teams[state.cards[seat]] == state.winner)
        else:
            assert row["decided"] == 0 and row["wins"] == 0
