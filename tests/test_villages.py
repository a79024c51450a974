"""The villages (issue 41: 9人村, 11人村, 13人村, 15・16人村) play whole games to a judged end
through the CLI (a real `python -m narrator play` process, scripted answers, no real-time waits):
on the phones, a plain answers file answering each night call's holders in seat order, and on
one device passed round the terminal, the night's choices in the order the device goes round.
Each says its own welcome and the calls of its house rules (初日占い白通知, the first victim, the
fanatic and the immoral).

The answers are found by playing the same config in-process with a simple table (every holder
picks the first choice, the vote names a living werewolf), then given to the CLI, as
tests/test_kernel_cli.py does for the first shipped files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.cues import Say
from narrator.games import game_over_message, get_game
from narrator.games.kernel import engine
from narrator.games.kernel import files as kernel
from narrator.games.kernel.game import house_rules
from narrator.games.kernel.state import KConfig
from narrator.settings import build_settings
from narrator.sound.readings import reviewed
from narrator.sound.voicepack import load_pack
from tests.kernel_table import Table, said, shown, spec_of
from tests.test_kernel_cli import NAMES, _narrator, _simple_table, free_port, play_in_process

VILLAGES = ("village-9", "village-11", "village-13", "village-16")
HEARD = {
    "village-9": ["wolf.welcome.village_9"],
    "village-11": ["wolf.welcome.village_11"],
    "village-13": ["wolf.welcome.village_13", "wolf.first_victim_killed"],
    "village-16": ["wolf.welcome.village_16", "wolf.first_victim_killed"],
}
"""Lines each village's game says aloud however the cards are held: its welcome, its first victim."""
CALLS = {
    "village-9": ["wolf.call.seer_white.wake", "wolf.call.seer_white.act", "wolf.call.knight.choose"],
    "village-11": ["wolf.call.seer_white.act", "wolf.call.psychic.wake"],
    "village-13": ["wolf.call.masons.wake", "wolf.call.seer_first.choose"],
    "village-16": ["wolf.call.fanatic.wake", "wolf.call.fanatic.act", "wolf.call.immoral.wake",
                   "wolf.call.immoral.act", "wolf.call.masons.wake"],
}
"""The calls of its house rules and roles, said on the phones whoever holds the cards (passing the
device, the narrator says only that it goes round: each turn is on the holder's screen)."""


def _scripted(name: str, phones: bool) -> tuple[list[str], str]:
    """(answers, winner) of the game played in-process with the CLI's table."""
    game = get_game(name)
    config = game.configure(build_settings({}, {"names": NAMES[name], "seed": "4", "phones": phones}, "test"))
    assert config.passed is not phones  # the device goes round exactly when there are no phones
    return play_in_process(game, config, _simple_table)


@pytest.mark.parametrize("mode", ["phones", "passed"])
@pytest.mark.parametrize("name", VILLAGES)
def test_a_village_plays_to_a_judged_end_through_the_cli(tmp_path: Path, name, mode):
    answers, winner = _scripted(name, mode == "phones")
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    lang = "ja" if mode == "phones" else "en"
    phones = ["--phones", "--host", "127.0.0.1", "--port", str(free_port())] if mode == "phones" else []
    done = _narrator(tmp_path, "play", name, "--names", NAMES[name], "--seed", "4", *phones, "--answers", str(script),
                     "--voice", "text", "--lang", lang, "--time-scale", "0", "--no-keyboard")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.strip().splitlines()[-1] == game_over_message(winner)
    pack, said = load_pack(lang), done.stdout + done.stderr
    heard = HEARD[name] + (CALLS[name] if mode == "phones" else ["wolf.pass_round", "wolf.round_over"])
    for line in heard:
        text = pack.speak(line, {"players": len(NAMES[name].split(","))}).text
        assert text in said, (line, text)


def test_each_village_checks_its_own_scenarios_ok_through_the_cli(tmp_path: Path):
    """`narrator games check village-N` plays the file's scenarios (a rule each: 初日占い白通知,
    連続ガード, the first victim, the masons, the fox, 猫又, 狂信者, 背徳者) and prints ok for each."""
    for name in VILLAGES:
        done = _narrator(tmp_path, "games", "check", name)
        assert done.returncode == 0, done.stdout + done.stderr
        results = done.stdout.strip().splitlines()
        assert len(results) >= 2 and all(r.startswith("ok ") for r in results), results


# --- the house rules as a table turns them ----------------------------------------------------------

NINE = ["werewolf", "werewolf", "madman", "seer", "psychic", "knight", "villager", "villager", "villager"]


@pytest.mark.parametrize("setting, barred", [({}, True), ({"options": "no_repeat_guard=false"}, False)],
                         ids=["default", "turned-off"])
def test_village_9s_knight_may_not_guard_one_player_two_nights_running_unless_the_table_allows_it(setting, barred):
    """連続ガード禁止 is village-9's default; the table's `options` turns it off (docs/villages.md)."""
    spec = spec_of("village-9")
    t = Table("village-9", NINE, spec=spec, **house_rules(spec, setting, "test"))
    t.answer("done", "Gen", "Chika", "Dai", "Dai", "Dai", "Hana", "Iku")  # night 2: the knight (Fumi) guards Dai
    knight = t.asked()
    assert knight.player == "Fumi" and knight.line == "wolf.call.knight.choose"
    assert ("Dai" not in knight.choices) is barred and "Emi" in knight.choices


@pytest.mark.parametrize("setting, notice", [({}, True), ({"options": "white_notice=false"}, False)],
                         ids=["default", "turned-off"])
def test_village_9s_seer_is_told_a_human_on_night_1_unless_the_table_turns_the_notice_off(setting, notice):
    """初日占い白通知 is village-9's default: no choice on night 1, one human named who is not the
    seer; turned off, the seer divines whom she picks."""
    spec = spec_of("village-9")
    t = Table("village-9", NINE, spec=spec, **house_rules(spec, setting, "test"))
    night = t.answer("done")
    told = [c for c in shown(night, "Dai") if c.line.startswith("wolf.result.")]
    if notice:
        assert len(told) == 1 and told[0].line == "wolf.result.human" and told[0].params["name"] not in ("Dai", "Aki", "Ben")
        assert said(night, "wolf.call.seer_white.act") and t.ask.line == "wolf.vote"  # no night choice: the day's vote
    else:
        assert not told and t.asked().player == "Dai" and t.asked().line == "wolf.call.seer_first.choose"


@pytest.mark.parametrize("name", ["village-13", "village-16"])
def test_the_first_victim_always_holds_a_villager_and_the_table_may_drop_it(name):
    """The first victim's card is always a 村人 (役欠けなし: `never_out` keeps the village's roles in
    the hands), whatever the seed; `first_victim = false` with the players' set plays without one."""
    spec = spec_of(name)
    players = spec.players[1]
    for seed in range(60):
        config = KConfig(game=name, names=tuple(NAMES[name].split(",")), players=players, seed=seed,
                         roles=dict(spec.deal[players]), digital_cards=True, **house_rules(spec, {}, "test"))
        cards = engine.deal_cards(spec, config)
        assert len(cards) == players + 1 and cards[players] == "villager", (seed, cards)
    game = get_game(name)
    roles = {**spec.deal[players], "villager": spec.deal[players]["villager"] - 1}
    settings = {"names": NAMES[name], "seed": "2", "first_victim": "false",
                "roles": ",".join(f"{role}={n}" for role, n in roles.items())}
    config = game.configure(build_settings({}, settings, "test"))
    assert config.first_victim == "" and sum(config.roles.values()) == players
    heard = Recording(game)
    play_in_process(heard, config, _simple_table)
    lines = [c.line for c in heard.said if isinstance(c, Say)]
    assert "wolf.first_victim_killed" not in lines and lines[lines.index("wolf.morning") + 1] == "wolf.no_death"
    assert len(heard.cards) == players  # dealt to the players only
    plain = game.configure(build_settings({}, {"names": NAMES[name], "seed": "2", "first_victim": "false"}, "test"))
    assert plain.roles == config.roles  # with no roles given: the file's set less the victim's 村人


class Recording:
    """A game whose every cue and deal is kept, as `play_in_process` plays it."""

    def __init__(self, game):
        self.game, self.said, self.cards, self.new_state = game, [], (), game.new_state

    def advance(self, config, state, event):
        state, cues = self.game.advance(config, state, event)
        self.said += cues
        self.cards = self.cards or state.cards
        return state, cues


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_shipped_game_file_has_its_title_on_the_appliances_menu(lang):
    """The spoken game menu says `title.<game>` (`appliance/game_menu.py`), else only a number
    (`appliance.game_unnamed`): each shipped file has its title in both packs; a village's Japanese
    title is read as its welcome reads the village's name (the number read with the counter)."""
    pack = load_pack(lang)
    for name in kernel.shipped_files():
        assert pack.has("title." + name.replace("-", "_")), name
    if lang == "ja":
        kept = reviewed(pack)
        for n in (9, 11, 13):
            title, welcome = f"title.village_{n}", f"wolf.welcome.village_{n}"
            assert pack.speak(welcome, {"players": n}).reading.startswith(pack.speak(title).reading[:-1])
            assert kept[welcome].startswith(kept[title][:-1])
