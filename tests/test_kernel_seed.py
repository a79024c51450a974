"""Every game of a game file deals its own cards (issue 36): a table that gives no seed gets a
fresh one drawn at configure time, kept in the config (so resume replays the same deal), as
the seed games draw theirs; `--seed N` still deals the same cards every time.
"""

from __future__ import annotations

import json
from pathlib import Path

from narrator.games import get_game
from narrator.games.kernel import engine
from narrator.games.kernel import files as kernel
from narrator.games.kernel.parse import read_game_file
from narrator.settings import build_settings
from tests.test_kernel_cli import _narrator

FIFTEEN = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun,Ken,Rui,Sou,Tomo,Yui"
TEN = ",".join(FIFTEEN.split(",")[:10])


def _deal(flags: dict) -> tuple[str, ...]:
    """The cards a configured werewolf table is dealt (the engine's deal, from the config's seed)."""
    config = get_game("werewolf").configure(build_settings({}, {"names": FIFTEEN, **flags}, "test"))
    return engine.deal_cards(read_game_file(kernel.shipped_files()["werewolf"]), config)


def test_two_configures_without_a_seed_draw_different_seeds_and_deal_differently():
    game = get_game("werewolf")
    first, second = (game.configure(build_settings({}, {"names": FIFTEEN}, "test")) for _ in range(2))
    assert first.seed != second.seed
    spec = read_game_file(kernel.shipped_files()["werewolf"])
    assert engine.deal_cards(spec, first) != engine.deal_cards(spec, second)


def test_twenty_werewolf_games_without_a_seed_deal_twenty_different_hands():
    """15 seats hold 5 405 400 different deals: twenty alike by chance is one run in ~30 000."""
    deals = {_deal({}) for _ in range(20)}
    assert len(deals) == 20


def test_a_given_seed_deals_the_same_cards_every_time_and_seed_zero_is_a_seed():
    assert _deal({"seed": "7"}) == _deal({"seed": "7"}) != _deal({"seed": "8"})
    config = get_game("werewolf").configure(build_settings({}, {"names": FIFTEEN, "seed": "0"}, "test"))
    assert config.seed == 0


def _private_deal(tmp_path: Path, run: str, *flags: str) -> tuple[list[str], dict]:
    """One CLI game stopped at the first question: each seat's card as the transcript keeps it
    privately, and the saved game's config."""
    empty, transcript = tmp_path / "empty.txt", tmp_path / f"{run}.jsonl"
    empty.write_text("", encoding="utf-8")
    done = _narrator(tmp_path, "play", "werewolf", "--names", TEN, *flags, "--voice", "text", "--lang", "en",
                     "--time-scale", "0", "--no-keyboard", "--answers", str(empty), "--transcript", str(transcript),
                     "--transcript-private")
    assert done.returncode == 3, done.stderr[-2000:]  # stopped for want of answers, saved
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    saved = sorted((tmp_path / "home" / "games").glob("*/meta.json"), key=lambda p: p.stat().st_mtime_ns)[-1]
    return [r["text"] for r in records if r.get("line") == "wolf.you_are"], json.loads(saved.read_text())["config"]


def test_two_plays_without_a_seed_deal_differently_and_each_keeps_its_seed_for_resume(tmp_path):
    first, first_config = _private_deal(tmp_path, "first")
    second, second_config = _private_deal(tmp_path, "second")
    assert len(first) == len(second) == 10 and first != second
    assert first_config["seed"] != second_config["seed"]
    kept = get_game("werewolf").config_from_dict(second_config)  # what resume plays: the same deal
    spec = read_game_file(kernel.shipped_files()["werewolf"])
    assert [f"You are the {c}." for c in engine.deal_cards(spec, kept)][:10] == second


def test_two_plays_with_the_same_seed_deal_the_same_cards(tmp_path):
    assert _private_deal(tmp_path, "first", "--seed", "5")[0] == _private_deal(tmp_path, "second", "--seed", "5")[0]
