"""Bestia Magica's lines are rendered ahead like the other games' (issue 15): every line a game
says, names included, is in the list `narrator voices render` and the start of a game render."""

import pytest

from narrator.sound.render_ahead import cue_requests, game_requests
from tests.bm_driver import RULES, configure, play

NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Ibuki,Jun,Kei,Rin"


def key(line, params):
    return line, repr(sorted(params.items()))


def test_every_line_a_game_says_is_rendered_ahead():
    config = configure(names="Aki,Ben,Chika,Dai,Emi", seed=3)
    rendered = {key(l, p) for l, p in game_requests(RULES, config)}
    for seed in range(60):
        _, cues, _ = play(config, seed=seed)
        for line, params in cue_requests(cues):
            assert key(line, params) in rendered, (seed, line, params)
    for name in config.names:  # pass-the-device calls each player
        assert key("private.call", {"name": name}) in rendered


@pytest.mark.parametrize("players,largest", [(8, 2), (12, 1)])
def test_a_larger_table_renders_every_name_and_turn_and_small_groups(players, largest):
    config = configure(names=",".join(NAMES.split(",")[:players]), seed=3)
    rendered = {key(l, p) for l, p in game_requests(RULES, config)}
    missed = set()
    for seed in range(40):
        _, cues, _ = play(config, seed=seed)
        for line, params in cue_requests(cues):
            if key(line, params) not in rendered:
                missed.add((line, len(params.get("names", ()))))
    assert all(size > largest for _, size in missed), missed  # only larger groups of names


@pytest.mark.slow
def test_a_game_rendered_ahead_synthesizes_nothing_while_it_plays(tmp_path, narrator_home):
    """Real espeak-ng through pyttsx3: every clip of a whole game comes from the render ahead
    (into a fresh copy of the pack, so no clip cached by an earlier run can hide one missed)."""
    import asyncio
    import shutil

    from narrator.sound.voicepack import REPO_VOICES

    from narrator import home
    from narrator.games import get_game
    from narrator.settings import build_settings
    from narrator.table.runner import play as play_loop
    from narrator.table.runner import start_position
    from narrator.table.session import RunOptions, open_sitting
    from narrator.table.store import GameStore
    from tests.bm_driver import answers_jsonl

    shutil.copytree(REPO_VOICES / "en", narrator_home / "voices" / "en", ignore=shutil.ignore_patterns("cache"))
    options = {"names": "Aki,Ben,Chika,Dai,Emi", "seed": 5, "lang": "en", "time_scale": 0}
    config = configure(**{k: v for k, v in options.items() if k in ("names", "seed")})
    _, _, rounds = play(config, seed=2)
    (tmp_path / "answers.jsonl").write_text(answers_jsonl(rounds), encoding="utf-8")
    settings = build_settings({}, {**options, "game": "bestia-magica"}, "test")
    rules = get_game("bestia-magica")
    config = rules.configure(settings)
    run = RunOptions(lang="en", time_scale=0, answers=str(tmp_path / "answers.jsonl"), keyboard=False)
    sitting = open_sitting(run, game=rules, config=config)
    voice = sitting.scheduler.voice
    assert voice.engine_name == "pyttsx3" and str(voice.cache_dir).startswith(str(narrator_home))
    before = voice.synthesized
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), run.to_dict())

    async def main():
        sitting.start_listeners(asyncio.get_running_loop())
        return await play_loop(rules, config, store, sitting.scheduler, start_position(rules, config, store))

    try:
        state = asyncio.run(main())
    finally:
        sitting.close()
    assert state.finished
    assert voice.synthesized == before  # the reveal's names too
