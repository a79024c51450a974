"""The pieces issue 40 split the three most complex functions into, each on its own: the hub's
words (`ListenerHub.offer_text`), a setting's names (`card_names.translate_value`) and a step's
cues (`Scheduler.play`), at the branches no other test reached."""

import asyncio

import pytest

from narrator.cues import Ask, Collect, CountIn, Say, Timer
from narrator.games import card_names
from narrator.inputs.hints import Hints
from narrator.inputs.hub import ListenerHub
from narrator.table import scheduler
from narrator.table.scheduler import Scheduler


# --- the hub: what a confirmation lets through ----------------------------------------------

def _confirming(words: str) -> tuple[str | None, object, ListenerHub]:
    """Offer `words` while the narrator asks a confirmation back; the hint, the answer, the hub."""
    async def go():
        hub = ListenerHub()
        hub.register("keyboard")
        pending = hub.first_answer(Ask("confirm.answer", ("yes", "no")))
        await asyncio.sleep(0)
        hint = hub.offer_text(words, "keyboard")
        answer = hub._answer.result().value if hub._answer.done() else None
        pending.cancel()
        return hint, answer, hub
    return asyncio.run(go())


@pytest.mark.parametrize("words", ["pause", "help", "resume"])
def test_a_confirmation_refuses_pause_help_and_resume_with_one_line(words):
    hint, answer, hub = _confirming(words)
    assert hint == Hints().text("confirm_first") and answer is None
    assert hub.command_nowait() is None


def test_a_repeat_while_confirming_is_a_command_and_undo_is_its_no():
    hint, answer, hub = _confirming("repeat")
    assert hint is None and answer is None and hub.command_nowait().value == "repeat"
    hint, answer, hub = _confirming("undo")
    assert hint is None and answer == "no" and hub.command_nowait() is None


def test_a_done_with_nothing_asked_is_a_command_and_other_words_are_told_nothing_is_asked():
    hub = ListenerHub()
    assert hub.offer_text("done", "keyboard") is None and hub.command_nowait().value == "done"
    assert hub.offer_text("Aki", "keyboard") == Hints().text("nothing_asked")


# --- a setting's names: each form it is written in ------------------------------------------

class Ids:
    """A translator that makes every name `id(name)` and notes the uniqueness checks."""

    def __init__(self):
        self.checked = []

    def word(self, vocab, word, key):
        return f"{vocab}({str(word).strip()})#{key}"

    def unique(self, vocab, pairs, key):
        self.checked.append((vocab, list(pairs)))


@pytest.mark.parametrize("value, at, expected", [
    ({"Seer": 2}, "keys", {"roles(Seer)#k": 2}),
    ("Seer＝2, ,Wolf", "keys", "roles(Seer)#k=2,Wolf"),
    (("Seer", 3), "items", ["roles(Seer)#k", 3]),
    ("Seer,Beast:S", "items", "roles(Seer)#k,roles(Beast)#k:attrs(S)#k"),
    ({"Aki": "Seer", "Ben": 1}, "values", {"Aki": "roles(Seer)#k.Aki", "Ben": 1}),
    ("Aki=Seer，Ben", "values", "Aki=roles(Seer)#k.Aki,Ben"),
])
def test_each_form_of_a_setting_turns_its_names_into_ids(value, at, expected):
    assert card_names.translate_value(value, "roles:attrs", at, "k", Ids()) == expected


@pytest.mark.parametrize("value, at", [(3, "keys"), (["Seer"], "keys"), ({"a": 1}, "items"), (True, "values"),
                                       ("Seer", "nowhere")])
def test_a_form_the_game_does_not_take_is_left_for_its_own_check(value, at):
    assert card_names.translate_value(value, "roles", at, "k", Ids()) == value


def test_the_keys_of_a_setting_are_checked_unique_without_the_parts_that_name_nothing():
    ids = Ids()
    card_names.translate_value("Seer=1,=2", "roles:attrs", "keys", "k", ids)
    assert ids.checked == [("roles", [("Seer", "roles(Seer)#k")])]


# --- a step's cues: each kind played by its own method ---------------------------------------

def test_every_kind_of_cue_has_its_player_and_a_count_in_is_not_played_as_a_say():
    kinds = [kind for kind, _ in scheduler._CUE_PLAYERS]
    assert kinds.index(CountIn) < kinds.index(Say)  # a CountIn is a Say: tried first
    played = []

    class Fake:
        async def _count_in(self, cue, following, step):
            played.append("count_in")

        async def _say(self, cue, following, step):
            played.append("say")

    players = {kind: getattr(Fake, player.__name__, None) for kind, player in scheduler._CUE_PLAYERS}
    fake = Fake()
    for cue in (CountIn("c"), Say("s")):
        asyncio.run(next(p for k, p in players.items() if isinstance(cue, k) and p)(fake, cue, None, None))
    assert played == ["count_in", "say"]


def test_a_timer_before_a_round_on_the_passed_device_is_not_played():
    fake = type("S", (), {"hub": type("H", (), {"sequential_private": True})()})()
    collect = Collect.__new__(Collect)
    assert Scheduler._memo_time(fake, Timer.__new__(Timer), collect)
    assert not Scheduler._memo_time(fake, Timer.__new__(Timer), None)
    fake.hub.sequential_private = False
    assert not Scheduler._memo_time(fake, Timer.__new__(Timer), collect)
