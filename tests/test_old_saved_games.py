"""Games saved by the narrator before the contract change resume and play to their end.

`tests/data/saved-before-typed-events/` holds three saved games exactly as the narrator of
main a5e83a3 (before typed events, the declared settings and the composed scheduler) left
them when its answers ran out mid-game: Additional Werewolf at the strategist's question,
Bestia Magica at the first vote, Pagan in its first upkeep. Today's `narrator resume` must
read their meta, log and snapshot, go on, and end with the winner the uninterrupted game has.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bm_driver import answers_jsonl, configure, play

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
SAVED = Path(__file__).with_name("data") / "saved-before-typed-events"
AW_ANSWERS = "done\nBen,Dai\nno\nno\ndone\nEmi\nno\nno\ndone\nFumi\nyes\n"
"""The whole game of seed 7 (tests/test_process.py): the citizens win on day 3."""
PAGAN_ANSWERS = "done\n" * 60 + "ritual\n" * 40
BM_NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"


def _resume(home: Path, game_id: str, answers: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "narrator", "resume", game_id, "--answers", str(answers),
                           "--voice", "text", "--time-scale", "0", "--no-keyboard"],
                          capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("game_id, game, winner", [
    ("20261201-170717-c060f9", "additional-werewolf", "citizens win"),
    ("20261201-170717-6952a1", "bestia-magica", "beasts win"),
    ("20261201-170717-bb792a", "pagan", "witch wins"),
])
def test_a_game_saved_before_the_change_resumes_to_its_end(tmp_path, game_id, game, winner):
    home = tmp_path / "home"
    shutil.copytree(SAVED / game_id, home / "games" / game_id)
    folder = home / "games" / game_id
    assert json.loads((folder / "meta.json").read_text(encoding="utf-8"))["game"] == game
    logged = (folder / "events.jsonl").read_bytes()
    answers = tmp_path / "answers.txt"
    if game == "bestia-magica":  # the engine's own run of the same deal (seed 7, policy seed 1)
        answers.write_text(answers_jsonl(play(configure(names=BM_NAMES, seed=7), seed=1)[2]), encoding="utf-8")
    else:
        answers.write_text(AW_ANSWERS if game == "additional-werewolf" else PAGAN_ANSWERS, encoding="utf-8")
    done = _resume(home, game_id, answers)
    assert done.returncode == 0, done.stderr
    assert f"resuming game {game_id}" in done.stderr and f"game over: {winner}" in done.stderr
    after = (folder / "events.jsonl").read_bytes()
    assert after.startswith(logged) and len(after) > len(logged)  # the old log kept, byte for byte, and added to
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert meta["finished"] is True and meta["outcome"]["winner"] == winner.split()[0]


def test_an_old_game_rebuilds_from_its_log_alone_as_it_was_played():
    """A lost snapshot, or an undo after the resume, replays the whole log from the start: an
    Additional Werewolf game saved before the deal waited for the cards must replay with the
    deal it was played with (step for step), not the new one."""
    from narrator.games import get_game
    from narrator.table.runner import rebuild

    folder = SAVED / "20261201-170717-c060f9"
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    rules = get_game(meta["game"])
    config = rules.config_from_dict(meta["config"])
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    state, cues = rebuild(rules, config, events)
    assert (state.step, state.night, state.day) == ("ask_strategist", 1, 1)  # where the old narrator stopped
    saved = json.loads((folder / "snapshot.json").read_text(encoding="utf-8"))["state"]
    now = json.loads(json.dumps(state.to_dict()))
    assert {k: now[k] for k in saved} == saved  # the state the old narrator saved, field for field
