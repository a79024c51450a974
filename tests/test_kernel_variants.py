"""The words Japanese tables' variants need (issue 41), each played as a table meets it: 猫又
(its death takes another), 狂信者 and 背徳者 (knowing another role, unseen), 背徳者 dying with the
fox, 初日占い白通知, 初日犠牲者, 連続ガード禁止, 白狼 (with the pack whatever the seer sees), 呪狼,
役欠けなし (`never_out`), and house rules as `[options]`; and a wrong use of each refused in one
line naming the file, the entry and the fix.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace

import pytest

from narrator.cues import Event, Private
from narrator.errors import SetupError
from narrator.games.kernel import engine
from narrator.games.kernel.parse import parse_game
from narrator.games.kernel.state import KConfig
from tests.kernel_table import NAMES, Table, said, shown

VILLAGE = """
[game]
name = "variant-village"
players = [5, 12]
cards = ["device"]
first_victim = "village"

[options]
white_notice = true
no_repeat_guard = true

[roles.villager]
team = "village"
[roles.seer]
team = "village"
[roles.knight]
team = "village"
[roles.nekomata]
team = "village"
when_attacked = "takes_a_wolf"
when_executed = "takes_anyone"
[roles.werewolf]
team = "werewolves"
seen_as = "werewolf"
counts_as = "werewolf"
[roles.white_wolf]
team = "werewolves"
counts_as = "werewolf"
[roles.cursed_wolf]
team = "werewolves"
seen_as = "werewolf"
counts_as = "werewolf"
curses_seer = true
[roles.fanatic]
team = "werewolves"
[roles.fox]
team = "fox"
counts_as = "none"
survives_attack = true
dies_divined = true
[roles.immoral]
team = "fox"
dies_with = "fox"

[deal]
5 = { villager = 2, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
6 = { villager = 3, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
7 = { villager = 4, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
8 = { villager = 5, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
9 = { villager = 6, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
10 = { villager = 7, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
11 = { villager = 8, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }
12 = { villager = 9, seer = 1, werewolf = 1, knight = 1, nekomata = 1 }

[[steps]]
id = "werewolves_meet"
role = "werewolf"
action = "partners"
when = "first"
[[steps]]
id = "fanatic"
role = "fanatic"
action = "know"
sees = "werewolf"
when = "first"
[[steps]]
id = "immoral"
role = "immoral"
action = "know"
sees = "fox"
when = "first"
[[steps]]
id = "seer_white"
role = "seer"
action = "human_hint"
when = "first"
if = "white_notice"
[[steps]]
id = "seer"
role = "seer"
action = "divine"
unless = "white_notice"
when = "first"
[[steps]]
id = "seer_later"
role = "seer"
action = "divine"
from_night = 2
[[steps]]
id = "knight"
role = "knight"
action = "guard"
from_night = 2
no_repeat = "no_repeat_guard"
[[steps]]
id = "werewolves"
role = "werewolf"
action = "attack"
from_night = 2

[[wins]]
kind = "eliminated"
role = "werewolf"
winner = "village"
[[wins]]
kind = "parity"
role = "werewolf"
winner = "werewolves"
[[wins]]
kind = "survives"
team = "fox"
winner = "fox"
[[wins]]
kind = "otherwise"
winner = "village"
"""
def village(text: str = VILLAGE):
    return parse_game(tomllib.loads(text), "variant-village.toml")


def table(deal, names=None, **config):
    """A game of the variant village: `deal` the players' cards, then the first victim's."""
    config.setdefault("first_victim", "village")
    config.setdefault("options", ("white_notice", "no_repeat_guard"))
    players = len(deal) - (1 if config["first_victim"] else 0)
    return Table("variant-village", deal, spec=village(), names=names or NAMES[:players], **config)


# --- 初日犠牲者: a seat that is not a player, dead on the first night -----------------------------

def test_the_first_victim_holds_a_village_card_and_dies_on_the_first_night():
    t = table(["werewolf", "seer", "knight", "villager", "villager", "nekomata", "villager"])
    morning = t.answer("done")
    assert said(morning, "wolf.first_victim_killed") and not said(morning, "wolf.no_death")
    assert Event("death", None, "first_victim", night=1) in morning and t.state.dead == ()
    spec = village()
    for seed in range(40):  # the deal: players, then the victim's card, always of its team
        config = KConfig(game="v", names=NAMES[:6], players=6, seed=seed, digital_cards=True, first_victim="village",
                         roles={"villager": 3, "seer": 1, "werewolf": 1, "knight": 1, "nekomata": 1})
        cards = engine.deal_cards(spec, config)
        assert len(cards) == 7 and spec.roles[cards[6]].team == "village"


# --- 初日占い白通知 and an option that turns a step ----------------------------------------------

def test_the_white_notice_names_a_human_who_is_not_the_seer_and_the_option_turns_it_off():
    for seed in range(12):
        t = table(["werewolf", "seer", "knight", "villager", "villager", "nekomata", "villager"], seed=seed)
        night = t.answer("done")
        told = shown(night, "Ben")
        assert len(told) == 1 and told[0].line == "wolf.result.human"  # the notice, no choice to make
        assert told[0].params["name"] not in ("Aki", "Ben")  # not a wolf, not herself
    free = table(["werewolf", "seer", "knight", "villager", "villager", "nekomata", "villager"],
                 options=("no_repeat_guard",))
    free.answer("done")
    assert free.asked().line == "wolf.call.seer.choose" and free.asked().player == "Ben"


# --- 狂信者 and 背徳者: one-way knowledge ------------------------------------------------------------

def test_the_fanatic_knows_the_pack_unseen_and_the_immoral_knows_the_fox():
    deal = ["werewolf", "white_wolf", "fanatic", "fox", "immoral", "seer", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done")
    assert Private("Chika", "wolf.known", {"cards": [["wolf.role.werewolf", 1]], "names": ["Aki", "Ben"]}) in t.cues
    assert Private("Emi", "wolf.known", {"cards": [["wolf.role.fox", 1]], "names": ["Dai"]}) in t.cues
    assert shown(t.cues, "Aki")[-1] == Private("Aki", "wolf.partners", {"names": ["Ben"]})  # the pack: not the fanatic
    assert not [c for c in shown(t.cues, "Dai") if c.line == "wolf.known"]  # the fox is not told


def test_the_immoral_dies_with_the_fox_and_the_fox_team_then_wins_nothing():
    deal = ["werewolf", "fox", "immoral", "seer", "knight", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done", "Ben")  # night 1: the seer divines the fox
    morning = [c for c in t.cues if getattr(c, "line", "") == "wolf.killed"]
    assert morning[0].params == {"names": ["Ben", "Chika"]} and t.state.dead == ("Ben", "Chika")
    t.answer("Aki")  # day 1: the wolf executed
    assert t.state.winner == "village"  # the fox dead, the immoral with it: no fox win


# --- 猫又 ------------------------------------------------------------------------------------------

def test_the_nekomata_attacked_takes_a_wolf_and_executed_takes_anyone():
    deal = ["werewolf", "werewolf", "nekomata", "seer", "knight", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done", "Fumi", "Gen")  # night 1: the seer; day 1: Gen executed
    morning = t.answer("Fumi", "Fumi", "Chika", "Chika")  # night 2: the seer, the knight, both wolves on the nekomata
    killed = said(morning, "wolf.killed")[0].params["names"]
    assert "Chika" in killed and len(killed) == 2 and ({"Aki", "Ben"} & set(killed))
    hanged = table(deal, first_victim="", options=())
    hanged.answer("done", "Fumi")
    out = hanged.answer("Chika")  # day 1: the nekomata executed
    taken = said(out, "wolf.taken")[0].params["names"]
    assert len(taken) == 1 and taken[0] != "Chika" and taken[0] in hanged.state.dead
    assert Event("death", taken[0], "taken", day=1) in out


# --- 白狼 and 呪狼 ---------------------------------------------------------------------------------

def test_the_white_wolf_wakes_and_attacks_with_the_pack_though_the_seer_sees_it_human():
    deal = ["werewolf", "white_wolf", "seer", "knight", "villager", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    night = t.answer("done")
    assert shown(night, "Ben")[-1] == Private("Ben", "wolf.partners", {"names": ["Aki"]})
    out = t.answer("Ben")  # the seer divines the white wolf
    assert shown(out, "Chika")[0] == Private("Chika", "wolf.result.human", {"name": "Ben"})
    t.answer("Emi")  # day 1: Emi executed
    t.answer("Aki", "Fumi")  # night 2: the seer, the knight
    assert [r.player for r in t.ask.requests] == ["Aki", "Ben"]  # both wolves pick
    assert "Ben" not in t.asked("Aki").choices and "Aki" not in t.asked("Ben").choices


def test_a_seer_who_divines_the_cursed_wolf_dies_that_night():
    deal = ["cursed_wolf", "werewolf", "seer", "knight", "villager", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done")
    out = t.answer("Aki")
    assert shown(out, "Chika")[0] == Private("Chika", "wolf.result.werewolf", {"name": "Aki"})
    assert said(out, "wolf.killed")[0].params == {"names": ["Chika"]} and "Chika" in t.state.dead


# --- 連続ガード禁止 ---------------------------------------------------------------------------------

def test_the_knight_may_not_guard_the_same_player_two_nights_running_where_the_option_is_on():
    """Night 2 the knight guards Dai; night 3 Dai is not offered; with the option off, he is."""
    deal = ["werewolf", "seer", "knight", "villager", "villager", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=("no_repeat_guard",))
    t.answer("done", "Dai", "Gen")  # night 1: the seer divines Dai; day 1: Gen executed
    t.answer("Emi", "Dai", "Fumi")  # night 2: the seer, the knight guards Dai, the wolf attacks Fumi
    t.answer("Hana")  # day 2: Hana executed
    t.answer("Emi")  # night 3: the seer
    assert t.asked().player == "Chika" and "Dai" not in t.asked().choices and "Emi" in t.asked().choices
    repeat = table(deal, first_victim="", options=())
    repeat.answer("done", "Dai", "Gen", "Emi", "Dai", "Fumi", "Hana", "Emi")
    assert "Dai" in repeat.asked().choices  # the option off: the same player again is allowed


# --- 役欠けなし --------------------------------------------------------------------------------------

def test_never_out_keeps_the_wolves_in_the_hands():
    from narrator.games.kernel import files
    from narrator.games.kernel.parse import read_game_file

    spec = read_game_file(files.shipped_files()["one-night"])
    out = 0
    for seed in range(60):
        config = KConfig(game="one-night", names=NAMES[:4], players=4, seed=seed, digital_cards=True,
                         roles=dict(spec.deal[4]), never_out=("werewolf",))
        cards = engine.deal_cards(spec, config)
        assert "werewolf" not in cards[4:] and sorted(cards) == sorted(engine.deal_cards(
            spec, replace(config, never_out=())))
        plain = engine.deal_cards(spec, replace(config, never_out=()))
        out += "werewolf" in plain[4:]
    assert out  # without it the wolves do lie in the centre


# --- refusals: one line naming the file, the entry and the fix -----------------------------------

@pytest.mark.parametrize("change, message", [
    (('action = "know"\nsees = "werewolf"', 'action = "know"'), "[[steps]] 'fanatic' sees: action = \"know\" needs the role"),
    (('sees = "fox"', 'sees = "dragon"'), "[[steps]] 'immoral' sees: unknown role 'dragon'"),
    (('if = "white_notice"', 'if = "white_notices"'), "[[steps]] 'seer_white' if: unknown option 'white_notices'"),
    (('no_repeat = "no_repeat_guard"', 'no_repeat = "often"'), "[[steps]] 'knight' no_repeat: 'often' is neither"),
    (('first_victim = "village"', 'first_victim = "nobody"'), "[game] first_victim: unknown team 'nobody'"),
    (('dies_with = "fox"', 'dies_with = "dragon"'), "[roles.immoral] dies_with: unknown role 'dragon'"),
    (('when_attacked = "takes_a_wolf"', 'when_attacked = "explodes"'), "[roles.nekomata] when_attacked: unknown 'explodes'"),
    (('cards = ["device"]', 'cards = ["physical", "device"]'), "human_hint needs the narrator to know the cards"),
    (('white_notice = true', 'white_notice = "yes"'), "[options] white_notice: 'yes' is not true or false"),
    (('if = "white_notice"', 'if = ["white_notice"]'), "[[steps]] 'seer_white' if: '['white_notice']' is not an option's name"),
    (('no_repeat = "no_repeat_guard"', 'no_repeat = ["no_repeat_guard"]'), "[[steps]] 'knight' no_repeat: "),
])
def test_a_wrong_use_is_refused_in_one_line(change, message):
    old, new = change
    assert old in VILLAGE
    with pytest.raises(SetupError) as err:
        village(VILLAGE.replace(old, new, 1))
    text = str(err.value)
    assert text.startswith("game file variant-village.toml: ") and message in text and "\n" not in text
    assert "; " in text  # and the fix


def test_the_table_turns_the_files_options_and_is_refused_an_unknown_one():
    from narrator.errors import Refusal
    from narrator.games.kernel.game import house_rules

    spec = village()
    assert house_rules(spec, {"options": "white_notice=false"}, "test")["options"] == ("no_repeat_guard",)
    assert house_rules(spec, {"first_victim": "false"}, "test")["first_victim"] == ""
    with pytest.raises(Refusal, match="no house rule 'night_vision'"):
        house_rules(spec, {"options": "night_vision=true"}, "test")


def test_a_white_wolf_alive_keeps_the_pack_alive_for_the_win_rules():
    """`eliminated` and `parity` count a wolf's whole pack: the last plain 人狼 executed with a 白狼
    alive does not hand the village the win (it did, counting the role id alone)."""
    deal = ["werewolf", "white_wolf", "seer", "knight", "villager", "villager", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done", "Emi", "Aki")  # night 1: the seer; day 1: the werewolf executed
    assert t.state.winner is None and "Aki" in t.state.dead


def test_a_first_victims_village_is_configured_from_the_file_and_the_table_turns_it_off():
    """The victim's card is in no hand: a set is judged without it (the wolves listed last once
    dealt the victim a wolf and refused every player count as won before it starts)."""
    from narrator.games.kernel.game import configure
    from narrator.settings import build_settings

    spec = village()
    config = configure(spec, build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi", "seed": "2"}, "test"))
    assert config.first_victim == "village" and sum(config.roles.values()) == 6
    off = configure(spec, build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi", "seed": "2", "first_victim": "false",
                                              "roles": "villager=1,seer=1,werewolf=1,knight=1,nekomata=1"}, "test"))
    assert off.first_victim == ""


def test_a_found_rule_in_a_game_of_nights_and_never_out_with_physical_cards_are_refused():
    from narrator.errors import Refusal
    from narrator.games.kernel import files
    from narrator.games.kernel.game import configure
    from narrator.games.kernel.parse import read_game_file
    from narrator.settings import build_settings

    text = VILLAGE.replace('kind = "eliminated"\nrole = "werewolf"', 'kind = "found"\nrole = "werewolf"', 1)
    with pytest.raises(SetupError, match=r'\[\[wins\]\]: kind = "found" judges one night.s vote'):
        village(text)
    one_night = read_game_file(files.shipped_files()["one-night"])
    with pytest.raises(Refusal, match="with physical cards the table deals them"):
        configure(one_night, build_settings({}, {"players": "4", "never_out": "werewolf"}, "test"))


def test_a_know_call_whose_role_nobody_holds_says_so():
    deal = ["werewolf", "fanatic", "immoral", "seer", "knight", "villager", "villager", "villager"]  # no fox dealt
    t = table(deal, first_victim="", options=())
    t.answer("done")
    assert Private("Chika", "wolf.known_none", {"cards": [["wolf.role.fox", 1]]}) in t.cues
    assert Private("Ben", "wolf.known", {"cards": [["wolf.role.werewolf", 1]], "names": ["Aki"]}) in t.cues


def test_one_night_takes_every_death_with_it_the_fox_the_nekomata_its_wolf_and_the_immoral():
    """The seer divines the fox (seated before the nekomata) while both wolves attack the nekomata:
    the fox dies, the immoral follows it, the nekomata takes a wolf; all told in one morning."""
    deal = ["fox", "werewolf", "werewolf", "nekomata", "immoral", "seer", "knight", "villager", "villager"]
    t = table(deal, first_victim="", options=())
    t.answer("done", "Iku", "Hana")  # night 1: the seer; day 1: Hana executed
    morning = t.answer("Aki", "Iku", "Dai", "Dai")  # night 2: the seer divines the fox; knight; the wolves on the nekomata
    killed = said(morning, "wolf.killed")[0].params["names"]
    assert {"Aki", "Dai", "Emi"} <= set(killed) and len(killed) == 4 and ({"Ben", "Chika"} & set(killed))
    assert killed == [n for n in NAMES if n in killed]  # in seat order


def test_a_game_file_call_is_a_round_of_its_own_numbered_by_seat_and_closed_by_its_count():
    from narrator.cues import Collect

    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"])
    t.answer("done")
    call = t.ask
    assert isinstance(call, Collect) and call.call and call.closes_with_timer and call.phase == "call"
    assert call.number == 1 and call.seats == ("Aki", "Ben", "Chika", "Dai", "Emi")


def test_a_choice_saved_before_every_holder_chose_is_its_first_holders():
    """A game saved by the narrator of before (a night choice logged as a plain name) replays."""
    from narrator.cues import Answer

    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"])
    t.answer("done")
    out = t._play(Answer("Aki"))
    assert shown(out, "Ben")[0] == Private("Ben", "wolf.result.werewolf", {"name": "Aki"})
    nothing = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"])
    nothing.answer("done")
    out = nothing._play(Answer(None))
    assert shown(out, "Ben")[0] == Private("Ben", "wolf.too_late")


def test_on_one_night_a_card_is_called_by_its_dealt_holder_after_a_swap():
    """One night's calls wake those dealt the card (the published rule): a thief who took the
    seer's card does not look, the one dealt the seer does."""
    from tests.kernel_table import spec_of

    spec = spec_of("one-night")
    thief, seer = (next(s for s in spec.steps if s.id == i) for i in ("thief", "one_night_seer"))
    steps = tuple(s for s in spec.steps if s.id not in ("thief", "one_night_seer")) + (
        replace(thief, after=()) if hasattr(thief, "after") else thief, seer)
    t = Table("one-night", ["werewolf", "seer", "thief", "villager", "werewolf", "villager"],
              spec=replace(spec, steps=steps), lone_look=False)
    t.answer("done", "Ben")  # the thief swaps with the seer first
    assert t.state.cards[1] == "thief" and t.asked().player == "Ben"  # the seer's call: still Ben
