"""docs/extending.md's counts, measured: each change the guide describes is made the guide's
way in a copy of the repository, its checks and tests run there, and the files it touched are
counted against the number the guide states ("**Files: N**" in the change's section).

Slow (a copy and a few test modules per change); run on demand:
`PYTHONPATH=$PWD .venv/bin/python -m pytest -q -n 0 tests/test_extending_counts.py`.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "extending.md"
TIMEOUT = 600


def stated(section: str) -> int:
    """The file count the guide states for the section headed `section`."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## {section}\n")
    end = text.find("\n## ", start + 1)
    found = re.search(r"\*\*Files: (\d+)\*\*", text[start:end if end > 0 else None])
    assert found, f"docs/extending.md '{section}' states no '**Files: N**'"
    return int(found.group(1))


class Copy:
    """The repository's tracked files in a temporary folder; `touched()` the files changed since."""

    def __init__(self, where: Path):
        tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                                 timeout=60).stdout.decode().split("\0")
        self.root = where / "repo"
        for name in filter(None, tracked):
            if (ROOT / name).is_file():
                (self.root / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, self.root / name)
        self.before = self._hashes()

    def _hashes(self) -> dict[str, str]:
        return {str(p.relative_to(self.root)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in self.root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}

    def touched(self) -> list[str]:
        after = self._hashes()
        return sorted(k for k in after.keys() | self.before.keys() if after.get(k) != self.before.get(k))

    def append(self, name: str, text: str) -> None:
        with open(self.root / name, "a", encoding="utf-8") as f:
            f.write(text)

    def replace(self, name: str, old: str, new: str) -> None:
        path = self.root / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{name}: {old!r} not found"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def review(self, key: str, words: str, reading: str) -> None:
        """Add a reviewed reading to voices/ja/readings.toml at its sorted place."""
        path = self.root / "voices" / "ja" / "readings.toml"
        lines = path.read_text(encoding="utf-8").split("\n")
        at = next(i for i, line in enumerate(lines) if (m := re.match(r'"([^"]+)" = ', line)) and m.group(1) > key)
        at -= lines[at - 1].startswith("#")
        lines[at:at] = [f"# {words}", f'"{key}" = "{reading}"']
        path.write_text("\n".join(lines), encoding="utf-8")

    def reviewed_readings(self) -> dict[str, tuple[str, str]]:
        """What `scripts/review-readings ja` prints in the copy: {line id: (words, reading)}."""
        if shutil.which("open_jtalk") is None:
            pytest.skip("Open JTalk is not installed (scripts/setup installs it)")
        printed = self.run("-m", "narrator.cli.review_readings", "ja").stdout
        found = re.findall(r'# (.+)\n"([^"]+)" = "([^"]*)"', printed)
        return {key: (words, reading) for words, key, reading in found}

    def run(self, *args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": str(self.root), "NARRATOR_HOME": str(self.root.parent / "home")}
        done = subprocess.run([sys.executable, *args], cwd=self.root, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        return done

    def tests(self, *files: str) -> None:
        self.run("-m", "pytest", "-q", "-n", "0", "-m", "not slow", "-p", "no:cacheprovider", *files)


@pytest.fixture
def copy(tmp_path):
    return Copy(tmp_path)


ROLE = """
[roles.baker]                 # パン屋, optional: a villager by another name (its name: wolf.role.baker)
team = "village"

[[scenarios]]
name = "a baker is a villager: the village hangs the wolf"
players = ["Aki", "Ben", "Chika", "Dai", "Emi"]
deal = ["werewolf", "seer", "knight", "baker", "villager"]
answers = ["done", "Aki", "Aki"]
lines = ["wolf.executed", "wolf.win.village"]
winner = "village"

[lines.en.wolf.role]
baker = "baker"

[lines.en.wolf.card]
baker = "{n} {n:baker|bakers}"

[lines.ja.wolf.role]
baker = "パン屋"

[lines.ja.wolf.card]
baker = "パン屋{n}枚"
"""


def test_a_role_in_a_shipped_game_file(copy):
    copy.append("narrator/games/kernel/games/werewolf.toml", ROLE)
    reviewed = copy.reviewed_readings()  # scripts/review-readings: Open JTalk's, checked by eye here
    assert sorted(reviewed) == ["wolf.card.baker", "wolf.role.baker"], reviewed
    assert reviewed["wolf.role.baker"][1] == "パンヤ"
    for key, (words, reading) in reviewed.items():
        copy.review(key, words, reading)
    copy.replace("docs/werewolf.md", "| optional roles | ", "| optional roles | パン屋 (a villager), ")
    checked = copy.run("-m", "narrator", "games", "check", "werewolf")
    assert "ok a baker is a villager" in checked.stdout
    typed = copy.run("-m", "narrator", "play", "werewolf", "--lang", "ja", "--names", "Aki,Ben,Chika,Dai,Emi",
                     "--roles", "パン屋=1,村人=1,人狼=1,占い師=1,騎士=1", "--dry-run")  # its line's name, no aliases
    assert "パン屋1枚" in typed.stdout, typed.stdout
    copy.tests("tests/test_kernel_roles.py", "tests/test_readings.py", "tests/test_game_files.py",
               "tests/test_kernel_plans.py", "tests/test_card_names.py")
    assert len(copy.touched()) == stated("A new werewolf-family game, or a role, as a game file"), copy.touched()


SCENARIO = """
[[scenarios]]
name = "the town wins at once when its only beast is executed on the first day"
settings = { deal = "Aki=beast:S,Ben=townsperson:M,Chika=townsperson:S,Dai=townsperson:N,Emi=townsperson:S", seed = 1 }
answers = ["Chika", "Aki", "Aki", "Aki", "Aki", "Ben", "Aki", "Aki", "Aki"]
winner = "town"
lines = ["bm.end.town"]
"""


def test_a_seed_games_ruling_as_a_scenario(copy):
    copy.append("narrator/games/bestia_magica/scenarios.toml", SCENARIO)
    checked = copy.run("-m", "narrator", "games", "check", "bestia-magica")
    assert "ok the town wins at once when its only beast" in checked.stdout
    copy.tests("tests/test_game_scenarios.py")
    assert len(copy.touched()) == stated("A ruling of a seed game, as a scenario"), copy.touched()


def test_a_new_voice_line(copy):
    copy.replace("voices/ja/lines/common.toml", "[timer]\n",
                 "[timer]\nhalf = { text = \"残り半分です。\", reading = \"のこりはんぶんです。\" }\n")
    copy.replace("voices/en/lines/common.toml", "[timer]\n", "[timer]\nhalf = \"Half the time is left.\"\n")
    copy.review("timer.half", "残り半分です。", "ノコリハンブンデス、")
    copy.tests("tests/test_readings.py", "tests/test_voice_packs.py")
    assert len(copy.touched()) == stated("A new voice line"), copy.touched()


HOUSE_RULE = """
[settings.guard_announced]
heading = { ja = "護衛が成功したら朝に言う", en = "Announce a successful guard" }
cites = "house rule"
cites_ja = "ハウスルール"
doc = "the morning says that the guard saved someone (not whom)"
doc_ja = "護衛が守ったことを朝に言う(だれをかは言わない)"
"""

HOUSE_RULE_TEST = '''

def test_guard_announced_is_a_house_rule_off_by_default():
    assert configure(players=8, seed=1).rules["guard_announced"] is False
    assert configure(players=8, seed=1, guard_announced="true").rules["guard_announced"] is True
    with pytest.raises(SetupError, match="guard_announced"):
        configure(players=8, seed=1, guard_announced="maybe")
'''


def test_a_new_setting_on_the_host_screen(copy):
    """A Bestia Magica house rule: its declaration (its Japanese docs words too) and its test, by
    hand; its docs rows, English and Japanese, are written by scripts/docs-settings, and the
    count leaves out what the tool wrote."""
    copy.replace("narrator/games/bestia_magica/definition.toml", "\nquiet_rounds = 3 ",
                 "\nguard_announced = false           # a house rule: the morning says the guard saved someone\n"
                 "quiet_rounds = 3 ")
    copy.append("narrator/games/bestia_magica/definition.toml", HOUSE_RULE)
    copy.append("tests/test_bestia_magica_setup.py", HOUSE_RULE_TEST)
    by_hand = copy.touched()
    copy.run("-m", "narrator.cli.docs_settings")  # scripts/docs-settings, in the copy
    generated = sorted(set(copy.touched()) - set(by_hand))
    assert generated == ["docs/bestia-magica.md", "docs/ja/table-file.md"], generated
    assert "| `guard_announced` (house rule) | false | the morning says" in (copy.root / generated[0]).read_text()
    assert "| `guard_announced`(ハウスルール) | false | 護衛が守ったことを朝に言う" in (copy.root / generated[1]).read_text(encoding="utf-8")
    copy.tests("tests/test_settings_declared.py", "tests/test_bestia_magica_setup.py", "tests/test_settings_page.py")
    assert len(by_hand) == stated("A new setting"), by_hand
