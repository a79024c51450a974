"""Setup (through `voices render`), `doctor` and `voices list` report one line count per pack.

They used to count three things (322 rendered clips, 187 fixed lines and countdowns, 236
line entries); now all three count `render_requests`: what a game at the table can need.
"""

from __future__ import annotations

import re

from click.testing import CliRunner
import pytest

from narrator.cli import main
from narrator.cli.voices import render_requests
from narrator.sound.voicepack import load_pack

pytestmark = pytest.mark.slow  # renders the en pack with the real engine


def counts(output: str, pattern: str) -> dict[str, int]:
    return {name: int(n) for name, n in re.findall(pattern, output)}


def test_render_doctor_and_list_agree_on_the_en_pack():
    runner = CliRunner()
    render = runner.invoke(main, ["voices", "render", "en"])
    assert render.exit_code == 0, render.output
    rendered = counts(render.stdout, r"(?m)^(\w+): (\d+) lines ready")
    listed = counts(runner.invoke(main, ["voices", "list"]).stdout, r"(?m)^(\w+)\s+lang=\w+.*lines=(\d+)")
    doctor = counts(runner.invoke(main, ["doctor"]).stdout, r"voice pack: (\w+): (?:all )?(?:\d+ of )?(\d+) lines")
    assert rendered["en"] == listed["en"] == doctor["en"] == len(render_requests(load_pack("en")))
    assert listed["ja"] == doctor["ja"]
    assert listed["en"] > len(load_pack("en").lines)  # a line with a name or number is said several ways
