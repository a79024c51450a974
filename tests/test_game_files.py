"""Game files: the JSON Schema matches the kernel's vocabulary and every shipped file; a file
with an unknown kind or a contradiction is refused at load time in one line naming the file,
the entry and the fix (exit 2 from the CLI, before anything is said or saved); each file's
own scenarios pass.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from narrator.errors import SetupError
from narrator.games.kernel import files as kernel
from narrator.games.kernel import plans, schema
from narrator.games.kernel.lines import unreviewed
from narrator.games.kernel.parse import parse_game, read_game_file

ROOT = Path(__file__).resolve().parents[1]
WEREWOLF = kernel.shipped_files()["werewolf"]


def validate(value, rule, where="$"):
    """The part of JSON Schema the game file's schema uses (type, enum, properties, required,
    additionalProperties, patternProperties, items, minItems/maxItems, minimum, pattern)."""
    kind = rule.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int}
    assert kind is None or (isinstance(value, types[kind]) and not (kind == "integer" and isinstance(value, bool))), where
    assert "enum" not in rule or value in rule["enum"], f"{where}: {value!r}"
    assert "minimum" not in rule or value >= rule["minimum"], where
    assert "pattern" not in rule or re.search(rule["pattern"], value), where
    if kind == "object":
        assert set(rule.get("required", ())) <= set(value), where
        for key, item in value.items():
            sub = rule.get("properties", {}).get(key)
            for pattern, pattern_rule in rule.get("patternProperties", {}).items():
                sub = pattern_rule if re.search(pattern, key) else sub
            if sub is None:
                sub = rule.get("additionalProperties", {})
                assert sub is not False, f"{where}.{key}"
            validate(item, sub, f"{where}.{key}")
    if kind == "array":
        assert rule.get("minItems", 0) <= len(value) <= rule.get("maxItems", len(value)), where
        for i, item in enumerate(value):
            validate(item, rule.get("items", {}), f"{where}[{i}]")


def test_the_schema_file_is_the_kernels_vocabulary():
    assert schema.SCHEMA.read_text(encoding="utf-8") == schema.text()


@pytest.mark.parametrize("name", list(kernel.shipped_files()))
def test_every_shipped_file_fits_the_schema_and_loads(name):
    path = kernel.shipped_files()[name]
    validate(tomllib.loads(path.read_text(encoding="utf-8")), json.loads(schema.SCHEMA.read_text(encoding="utf-8")))
    assert read_game_file(path).name == name


@pytest.mark.parametrize("name", list(kernel.shipped_files()))
def test_every_shipped_files_own_scenarios_pass(name):
    results = plans.check(read_game_file(kernel.shipped_files()[name]))
    assert results and all(r.startswith("ok ") for r in results), results


def _changed(old: str, new: str) -> dict:
    text = WEREWOLF.read_text(encoding="utf-8")
    assert old in text
    return tomllib.loads(text.replace(old, new, 1))


REFUSED = [
    ('action = "guard"', 'action = "fly"', r"\[\[steps\]\] 'knight' action: unknown action 'fly'; use one of none, "),
    ('id = "seer"\nrole = "seer"', 'id = "seer"\nkind = "dance"\nrole = "seer"', r"'seer' kind: unknown kind 'dance'"),
    ('role = "knight"', 'role = "bard"', r"'knight' role: unknown role 'bard'"),
    ('when = "first"', 'when = "first"\nfrom_night = 2', r"'werewolves_meet': when = \"first\" and from_night = 2: it can "
                                                         r"never run; drop one of them"),
    ('after = ["knight"]', 'after = ["zombie"]', r"'werewolves' after: unknown step 'zombie'"),
    ('id = "seer"\nrole = "seer"', 'id = "seer"\nafter = ["medium"]\nrole = "seer"',
     r"'seer' after: it must come after 'medium', which comes later; move 'seer' below 'medium'$"),
    ('id = "knight"\nrole = "knight"', 'id = "knight"\nafter = ["werewolves"]\nrole = "knight"',
     r"'knight' after: 'knight' after 'werewolves' after 'knight' is a cycle: none of them can wake first; "
     r"drop one of these afters$"),
    ('id = "knight"\nrole = "knight"', 'id = "knight"\nafter = ["knight"]\nrole = "knight"',
     r"'knight' after: 'knight' after 'knight' is a cycle: a step cannot wake after itself; drop 'knight' from its "
     r"after$"),
    ('5 = { villager = 2,', '5 = { villager = 3,', r"\[deal\] 5: 6 cards for 5 players and 0 in the centre; give 5 cards"),
    ('tie = "revote"', 'tie = "coin"', r"\[day\] tie: unknown tie rule 'coin'"),
    ('kind = "parity"', 'kind = "majority"', r"\[\[wins\]\] #2 kind: unknown win rule 'majority'"),
    ('seen_as = "werewolf"', 'seen_as = "werewolf"\ncolour = "red"', r"\[roles.werewolf\]: unknown key 'colour'"),
    ('cards = ["device"]', 'cards = ["physical"]', r"\[game\] cards: a multi-night game needs the narrator to know"),
]


@pytest.mark.parametrize("old,new,message", REFUSED, ids=[r[1].split("\n")[-1][:30] for r in REFUSED])
def test_a_bad_file_is_refused_in_one_line_naming_the_entry(old, new, message):
    with pytest.raises(SetupError) as err:
        parse_game(_changed(old, new), "my-wolf.toml")
    assert "\n" not in str(err.value) and str(err.value).startswith("game file my-wolf.toml: ")
    assert re.search(message, str(err.value)), str(err.value)


def test_a_longer_cycle_in_after_is_called_a_cycle_naming_every_step_of_it(tmp_path):
    """seer after werewolves, werewolves after knight (the file's own), knight after seer: no
    order keeps all three, so "move 'seer' below 'werewolves'" would only move the contradiction."""
    text = WEREWOLF.read_text(encoding="utf-8").replace('id = "seer"\nrole = "seer"',
                                                        'id = "seer"\nafter = ["werewolves"]\nrole = "seer"')
    text = text.replace('id = "knight"\nrole = "knight"', 'id = "knight"\nafter = ["seer"]\nrole = "knight"')
    bad = tmp_path / "my-wolf.toml"
    bad.write_text(text, encoding="utf-8")
    env = {"NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "narrator", "games", "check", str(bad)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: game file {bad.resolve()}: [[steps]] 'seer' after: 'seer' after 'werewolves' after 'knight' after "
        "'seer' is a cycle: none of them can wake first; drop one of these afters"]


def test_the_cli_refuses_a_bad_file_with_exit_2_before_anything_is_saved(tmp_path):
    bad = tmp_path / "my-wolf.toml"
    bad.write_text(WEREWOLF.read_text(encoding="utf-8").replace('action = "guard"', 'action = "fly"'), encoding="utf-8")
    env = {"NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "narrator", "play", "--game-file", str(bad), "--names",
                           "Aki,Ben,Chika,Dai,Emi", "--voice", "text", "--time-scale", "0", "--no-keyboard"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"error: game file {bad}: [[steps]] 'knight' action: unknown action "
                                                "'fly'; use one of none, partners, look, swap, divine, attack, guard, medium, know, human_hint"]
    assert done.stdout == "" and not (tmp_path / "home" / "games").exists()


def test_a_file_whose_lines_are_missing_is_refused_at_load_time(tmp_path):
    text = WEREWOLF.read_text(encoding="utf-8").replace('id = "knight"', 'id = "bodyguard"')
    text = text.replace('after = ["knight"]', 'after = ["bodyguard"]')
    path = tmp_path / "my-wolf.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SetupError, match=r"^game file .*my-wolf.toml: \[\[steps\]\] 'bodyguard': the ja pack has no "
                                         r"line 'wolf.call.bodyguard.wake'; add it to the file's \[lines.ja\] \(or voices/ja/lines/wolf.toml"):
        kernel.load(path)


def test_a_files_unreviewed_japanese_lines_are_listed_for_one_warning(monkeypatch):
    spec = read_game_file(WEREWOLF)
    assert unreviewed(spec) == []  # the shipped lines are in voices/ja/readings.toml
    monkeypatch.setattr("narrator.sound.readings.reviewed", lambda pack: {})
    listed = unreviewed(spec)
    assert "wolf.call.knight.wake" in listed and "wolf.welcome.werewolf" in listed


def test_the_conditions_choose_the_nights_and_a_days_rule_ends_the_game():
    """every k nights, from night N, first night only, while alive, absent = skip; wins after N days."""
    data = _changed('id = "knight"\nrole = "knight"\naction = "guard"\nfrom_night = 2',
                    'id = "knight"\nrole = "knight"\naction = "guard"\nfrom_night = 2\nevery = 2\nabsent = "skip"')
    data["steps"][0]["while"] = "alive"
    data["wins"].insert(0, {"kind": "days", "days": 1, "winner": "werewolves"})
    spec = parse_game(data, "my-wolf.toml")
    plan = plans.night_plan(spec, plans.sample_config(spec))
    assert plan[1] == "night 2: seer (divine, 15 s), knight (guard, 15 s), werewolf (attack, 20 s)"
    assert plan[2] == "night 3: seer (divine, 15 s), werewolf (attack, 20 s)"
    assert plan[3] == plan[1].replace("night 2", "night 4")
    scenario = {"players": ["Aki", "Ben", "Chika", "Dai", "Emi"], "deal": ["werewolf", "seer", "knight", "villager",
                                                                          "villager"], "answers": ["done", "Dai", "Dai"]}
    lines, state = plans.play_scenario(spec, scenario)
    assert state.winner == "werewolves" and state.day == 1 and "wolf.win.werewolves" in lines
    assert lines[lines.index("wolf.win.werewolves") + 1:][:1] == ["wolf.reveal_all"]  # then who held what


def test_narrator_games_lists_a_misnamed_or_broken_home_file_as_broken_not_as_a_game(tmp_path):
    """A home file `x.toml` whose `[game] name` is `y` is refused when played: the listing says
    so with the same line, and offers it as no game (a broken file beside it too)."""
    folder = tmp_path / "home" / "game-files"
    folder.mkdir(parents=True)
    text = WEREWOLF.read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace('name = "werewolf"', 'name = "y"'), encoding="utf-8")
    (folder / "fly.toml").write_text(text.replace('name = "werewolf"', 'name = "fly"')
                                     .replace('action = "guard"', 'action = "fly"'), encoding="utf-8")
    (folder / "house.toml").write_text(text.replace('name = "werewolf"', 'name = "house"'), encoding="utf-8")
    env = {"NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}

    def narrator(*args):
        return subprocess.run([sys.executable, "-m", "narrator", *args], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)

    listed = narrator("games")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    games = lines[0].removeprefix("games: ").split(", ")
    assert "house" in games and "werewolf" in games and "x" not in games and "fly" not in games
    refused = narrator("play", "x", "--names", "Aki,Ben,Chika,Dai,Emi", "--dry-run")
    assert refused.returncode == 2
    misnamed = refused.stderr.strip().removeprefix("error: ")
    assert misnamed == f"game file {folder / 'x.toml'}: [game] name 'y' differs from the file's name; rename the file y.toml"
    assert f"x  broken: {misnamed}" in lines
    assert f"fly  broken: game file {folder / 'fly.toml'}: [[steps]] 'knight' action: unknown action 'fly'; use one of " \
           "none, partners, look, swap, divine, attack, guard, medium, know, human_hint" in lines
