"""タブラの狼 says its own names (issue 36): 霊能者 and 狩人, not werewolf's 霊媒師 and 騎士. Its
roles are `psychic` and `hunter`, with steps and lines of their own (a step id shares its
lines with every file that has it); werewolf's names stay aliases, so a table's
`roles = "medium=1"` or 霊媒師 still finds them.
"""

from __future__ import annotations

import pytest

from narrator.cues import Answer, Ask, Collect, Continue, Say, Start
from narrator.games import get_game
from narrator.games.kernel import files as kernel
from narrator.games.kernel.parse import read_game_file
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack
from tests.test_kernel_cli import _narrator, _simple_table, play_in_process

NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun"


def _said(game_name: str, lang: str) -> list[str]:
    """Every line said aloud in a whole game of 10 on the phones (the calls said aloud), in `lang`."""
    game = get_game(game_name)
    config = game.configure(build_settings({}, {"names": NAMES, "seed": "3", "phones": "true"}, "test"))
    pack, said, state, event = load_pack(lang), [], game.new_state(), Start()
    for _ in range(500):
        state, cues = game.advance(config, state, event)
        said += [pack.speak(c.line, c.params).text for c in cues if isinstance(c, Say)]
        if state.finished:
            return said
        if cues and isinstance(cues[-1], Collect):  # a night call's round: every holder's first choice
            event = Answer({r.player: {r.key: r.choices[0]} for r in cues[-1].requests})
            continue
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        event = Answer(_simple_table(config, state, ask)) if ask else Continue()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang,own,others", [("ja", ("霊能者", "狩人"), ("霊媒師", "騎士")),
                                             ("en", ("psychic", "hunter"), ("medium", "knight"))])
def test_tabula_says_its_own_names_and_werewolf_keeps_its(lang, own, others):
    tabula = " ".join(_said("tabula", lang))
    assert all(word in tabula for word in own) and not any(word in tabula for word in others), tabula[:400]
    werewolf = " ".join(_said("werewolf", lang)).replace("Werewolf", "")
    assert all(word in werewolf for word in others[:1]) and not any(word in werewolf for word in own)


def test_the_box_and_the_calls_in_japanese():
    said = _said("tabula", "ja")
    assert said[1].startswith("今回使うカードは、") and "霊能者1枚" in said[1] and "狩人1枚" in said[1]
    assert "霊能者の人は、目を開けてください。" in said and "狩人の人は、目を開けてください。" in said


@pytest.mark.parametrize("name,role", [("medium", "psychic"), ("霊媒師", "psychic"), ("霊能者", "psychic"),
                                       ("psychic", "psychic"), ("knight", "hunter"), ("騎士", "hunter"),
                                       ("狩人", "hunter"), ("ボディガード", "hunter"), ("Hunter", "hunter")])
def test_werewolfs_names_still_find_tabulas_roles(name, role):
    assert read_game_file(kernel.shipped_files()["tabula"]).role_id(name) == role


def test_a_table_that_names_medium_and_knight_plays_tabula(tmp_path):
    roles = "villager=1,werewolf=2,madman=1,seer=1,medium=1,knight=1,fox=1"
    config = get_game("tabula").configure(build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana", "roles": roles}, "test"))
    assert config.roles == {"villager": 1, "werewolf": 2, "madman": 1, "seer": 1, "psychic": 1, "hunter": 1, "fox": 1}
    done = _narrator(tmp_path, "play", "tabula", "--players", "8", "--roles", roles.replace("medium", "霊媒師"),
                     "--lang", "ja", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "今回使うカードは、村人1枚、人狼2枚、狂人1枚、占い師1枚、霊能者1枚、狩人1枚、妖狐1枚です。"
    assert "psychic (medium, 10 s), hunter (guard, 15 s)" in done.stdout


def test_a_game_played_to_its_end_in_process():
    game = get_game("tabula")
    config = game.configure(build_settings({}, {"names": NAMES, "seed": "5"}, "test"))
    assert play_in_process(game, config, _simple_table)[1] in ("village", "werewolves", "fox")


def test_a_tabula_game_saved_with_the_old_ids_resumes_with_the_same_cards():
    """Saved before tabula had its own 霊能者 and 狩人 (`medium`, `knight`): its config and state
    read back with today's ids, the same deal (the roles keep their order in the file)."""
    from narrator.games.kernel import engine
    from narrator.games.kernel.parse import read_game_file

    game = get_game("tabula")
    config = game.configure(build_settings({}, {"names": NAMES, "seed": "3", "phones": "true"}, "test"))
    old_ids = {"psychic": "medium", "hunter": "knight"}
    saved = config.to_dict()
    saved["roles"] = {old_ids.get(r, r): n for r, n in saved["roles"].items()}
    assert "medium" in saved["roles"] and "psychic" not in saved["roles"]
    again = game.config_from_dict(saved)
    assert again == config
    spec = read_game_file(kernel.shipped_files()["tabula"])
    cards = engine.deal_cards(spec, again)
    state = game.new_state().__class__(step="ask_ready", cards=cards, first=cards).to_dict()
    state["cards"] = [old_ids.get(c, c) for c in state["cards"]]
    state["first"] = list(state["cards"])
    assert game.state_from_dict(state).cards == cards
