"""One device passed round the table at night (werewolf, tabula; no phones): each living
player's turn in seat order, what that player alone is shown or asked, what the table hears
(only that the device goes round and when it has), and the choice refused."""

from __future__ import annotations

import pytest

from narrator.cues import Ask, Event, Private, Say
from narrator.errors import AnswerError
from narrator.games.kernel import passed
from tests.kernel_table import Table, lines, said, shown, spec_of

SIX = ["werewolf", "seer", "knight", "medium", "madman", "villager"]   # Aki wolf … Fumi villager
TABULA = ["werewolf", "werewolf", "madman", "seer", "psychic", "hunter", "villager", "fox"]


def aloud(cues) -> list[str]:
    return [c.line for c in cues if isinstance(c, Say)]


def turns(cues) -> list[str]:
    """Who held the device, in order (a private line or a private question each)."""
    out: list[str] = []
    for c in cues:
        to = c.to if isinstance(c, Private) else c.player if isinstance(c, Ask) else None
        if to and (not out or out[-1] != to):
            out.append(to)
    return out


def test_the_first_night_each_seat_in_turn_sees_only_its_own_part():
    t = Table("werewolf", SIX, passed=True)
    night = t.answer("done")
    assert aloud(night) == ["wolf.night", "wolf.pass_round"] and said(night, "wolf.night")[0].params == {"night": 1}
    assert shown(night, "Aki") == [Private("Aki", "wolf.alone")]
    assert t.ask.line == "wolf.call.seer.choose" and t.ask.player == "Ben"
    assert t.ask.choices == ("Aki", "Chika", "Dai", "Emi", "Fumi")
    with pytest.raises(AnswerError, match="^not a choice of this night call$"):  # neither whose nor which
        t.answer("Ben")
    with pytest.raises(AnswerError, match="not a choice of this night call"):
        t.answer(["Aki", "Chika"])  # one seat divined a night, never two
    rest = t.answer(["Aki"])
    assert shown(rest, "Ben") == [Private("Ben", "wolf.result.werewolf", {"name": "Aki"})]  # no "nothing tonight" after
    for name in ("Chika", "Dai", "Emi", "Fumi"):  # the knight and the medium act from night 2
        assert shown(rest, name) == [Private(name, "wolf.nothing_tonight")]
    assert turns(rest) == ["Ben", "Chika", "Dai", "Emi", "Fumi"]
    assert aloud(rest)[:2] == ["wolf.round_over", "wolf.morning"]
    assert t.ask.line == "wolf.vote"


def test_the_second_night_the_wolf_the_seer_the_knight_choose_and_the_medium_sees_the_executed():
    t = Table("werewolf", SIX, passed=True)
    t.answer("done", "Chika", "Emi")  # the seer divines Chika; the madman executed
    assert t.ask.line == "wolf.call.werewolves.choose" and t.ask.player == "Aki"
    assert t.ask.choices == ("Ben", "Chika", "Dai", "Fumi")  # neither himself nor the dead
    t.answer("Dai")
    assert t.ask.player == "Ben" and t.ask.line == "wolf.call.seer.choose"
    t.answer("Fumi")
    assert t.ask.player == "Chika" and t.ask.choices == ("Aki", "Ben", "Dai", "Fumi")  # not herself
    rest = t.answer("Ben")
    assert shown(rest, "Dai") == [Private("Dai", "wolf.result.human", {"name": "Emi"})]
    assert shown(rest, "Fumi") == [Private("Fumi", "wolf.nothing_tonight")]
    assert turns(rest) == ["Dai", "Fumi"]  # the dead madman's seat is skipped
    assert said(rest, "wolf.killed")[0].params == {"names": ["Dai"]}
    assert Event("death", "Dai", "night", night=2) in rest
    assert t.state.dead == ("Emi", "Dai")


def test_the_guard_saves_the_attacked_when_the_device_goes_round():
    t = Table("werewolf", SIX, passed=True)
    t.answer("done", "Chika", "Emi", "Dai", "Fumi")
    rest = t.answer("Dai")
    assert said(rest, "wolf.no_death") and "Dai" not in t.state.dead


def test_two_wolves_meet_and_the_one_left_alive_chooses_for_the_pack():
    t = Table("tabula", TABULA, passed=True)
    t.answer("done")
    assert shown(t.cues, "Aki") == [shown(t.cues, "Aki")[0], Private("Aki", "wolf.partners", {"names": ["Ben"]})]
    assert Private("Ben", "wolf.partners", {"names": ["Aki"]}) in t.cues
    t.answer("Gen", "Aki")              # the seer divines Gen; Aki (a wolf) executed
    assert t.ask.player == "Ben" and t.ask.line == "wolf.call.werewolves.choose"
    assert t.ask.choices == ("Chika", "Dai", "Emi", "Fumi", "Gen", "Hana")


def test_every_living_wolf_picks_in_turn_seeing_the_packs_picks_and_the_most_picked_is_attacked():
    """Passing one device, the second wolf learns and helps choose the victim: it sees what its
    pack picked before it, and the pack's victim is the one most picked (a tie: the first)."""
    t = Table("tabula", TABULA, passed=True)
    out = t.answer("done", "Gen", "Gen", "Emi")  # night 2: Aki picks Emi first
    assert shown(out, "Aki")[-1] == Private("Aki", "wolf.pack_victim", {"name": "Emi"})
    assert t.ask.player == "Ben" and t.ask.line == "wolf.call.werewolves.choose"  # then Ben, seeing Aki's pick
    assert shown(out, "Ben")[-1] == Private("Ben", "wolf.pack_picks", {"names": ["Emi"]})
    out = t.answer("Fumi")  # a tie of one pick each: the first picked stands
    assert shown(out, "Ben")[0] == Private("Ben", "wolf.pack_victim", {"name": "Emi"}) and t.state.attack == "Emi"
    agreed = Table("tabula", TABULA, passed=True)
    agreed.answer("done", "Gen", "Gen", "Emi", "Emi")
    assert agreed.state.attack == "Emi" and agreed.state.picks == ("Emi", "Emi")


def test_a_wolf_learns_at_its_next_turn_whom_its_pack_attacked():
    """Aki picked before Ben changed nothing; guarded, the victim lives, so the morning does not
    tell Aki whom the pack chose: his next turn does."""
    t = Table("tabula", TABULA, passed=True)
    t.answer("done", "Gen", "Gen", "Emi", "Fumi")  # night 2: Aki picks Emi, Ben Fumi: Emi is attacked
    morning = t.answer("Hana", "Emi")  # the seer divines the fox; the knight guards Emi
    assert said(morning, "wolf.killed")[0].params == {"names": ["Hana"]}  # the fox, divined; Emi guarded
    night3 = t.answer("Chika")  # day 2: the madman executed
    assert shown(night3, "Aki")[0] == Private("Aki", "wolf.pack_attacked", {"name": "Emi"})
    assert t.ask.player == "Aki" and t.ask.line == "wolf.call.werewolves.choose"
    assert not [c for c in night3 if isinstance(c, Private) and c.line == "wolf.pack_attacked" and c.to != "Aki"]


def test_the_device_goes_round_only_for_files_of_many_nights_without_swaps_or_looks():
    assert passed.offered(spec_of("werewolf")) and passed.offered(spec_of("tabula"))
    assert not passed.offered(spec_of("one-night"))


def test_a_passed_game_plays_to_its_win_without_a_word_of_the_night_aloud():
    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"], passed=True)
    t.answer("done", "Aki", "Dai", "Ben", "Emi", "Emi")  # day 1 Dai executed; night 2 Aki attacks Ben …
    t.answer("Aki")
    assert t.state.winner == "village"
    night_lines = [line for line in aloud(t.cues) if line.startswith("wolf.call.")]
    assert night_lines == [] and "wolf.win.village" in lines(t.cues)


def test_a_seat_with_a_part_before_its_choice_makes_the_choice_it_is_asked():
    """A file whose wolves meet and attack on the same night: the device shows Aki his partners
    (alone here), then asks his attack, and the answer is the attack (not the meeting's)."""
    from dataclasses import replace

    spec = spec_of("werewolf")
    spec = replace(spec, steps=tuple(replace(s, from_night=1) if s.id == "werewolves" else s for s in spec.steps))
    t = Table("werewolf", SIX, passed=True, spec=spec)
    night = t.answer("done")
    assert shown(night, "Aki")[0] == Private("Aki", "wolf.alone")
    assert t.ask.player == "Aki" and t.ask.line == "wolf.call.werewolves.choose"
    t.answer("Fumi")  # the wolf's attack; then the seer's turn
    assert t.ask.player == "Ben" and t.ask.line == "wolf.call.seer.choose"
    morning = t.answer("Aki")
    assert said(morning, "wolf.morning") and any(c.params.get("names") == ["Fumi"] or c.params.get("name") == "Fumi"
                                                 for c in said(morning, "wolf.killed") + said(morning, "wolf.dead"))


def test_a_seat_with_a_part_after_its_choice_is_shown_that_part_too():
    """A file whose wolves attack first and then meet, on the same night: once Aki has chosen,
    his turn goes on to his next part (his partners, none here), before the device moves on.
    A turn that skipped a part after a choice would show him nothing of the meeting."""
    from dataclasses import replace

    spec = spec_of("werewolf")
    attack = replace(next(s for s in spec.steps if s.id == "werewolves"), from_night=1)
    meet = next(s for s in spec.steps if s.id == "werewolves_meet")
    others = tuple(s for s in spec.steps if s.id not in ("werewolves", "werewolves_meet"))
    spec = replace(spec, steps=(attack, meet) + others)
    t = Table("werewolf", SIX, passed=True, spec=spec)
    night = t.answer("done")
    assert t.ask.player == "Aki" and t.ask.line == "wolf.call.werewolves.choose"
    assert shown(night, "Aki") == []  # the choice comes first: nothing shown before it
    rest = t.answer("Fumi")
    assert shown(rest, "Aki") == [Private("Aki", "wolf.pack_victim", {"name": "Fumi"}),
                                  Private("Aki", "wolf.alone")]  # then his part after it
    assert t.ask.player == "Ben" and t.ask.line == "wolf.call.seer.choose"
