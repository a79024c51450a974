"""The hub reads words against the open question; the first fitting answer wins."""

import asyncio

import pytest

from narrator.cues import Ask
from narrator.errors import AnswerError, NoMoreAnswers
from narrator.inputs.hub import ListenerHub, Vocabulary, parse_answer
from narrator.sound.voicepack import load_pack

YES_NO = Ask("q", ("yes", "no"))
NAMES = Ask("who", ("Aki", "Ben", "Chika"), multiple=True)


@pytest.mark.parametrize("text, meaning", [("y", "yes"), ("YES", "yes"), ("はい", "yes"), ("いいえ", "no"),
                                           ("n", "no"), (" no ", "no")])
def test_yes_no_in_both_languages(text, meaning):
    vocabulary = Vocabulary(load_pack("ja").vocabulary)
    assert parse_answer(YES_NO, text, vocabulary) == meaning


def test_names_by_name_case_insensitive_or_seat_number():
    vocabulary = Vocabulary()
    assert parse_answer(NAMES, "aki, 3", vocabulary) == ["Aki", "Chika"]
    assert parse_answer(NAMES, "Ben、Aki", vocabulary) == ["Ben", "Aki"]
    assert parse_answer(Ask("one", ("Aki", "Ben")), "2", vocabulary) == "Ben"


@pytest.mark.parametrize("ask, text, message", [
    (YES_NO, "maybe", r"answer yes \(y\) or no \(n\)"),
    (NAMES, "Dai", "'Dai' is not a player here"),
    (NAMES, "7", "'7' is not a player here"),
    (Ask("one", ("Aki", "Ben")), "Aki,Ben", "name one player only"),
    (NAMES, " , ", "name a player"),
])
def test_garbled_answers_are_refused_with_a_hint(ask, text, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(ask, text, Vocabulary())


def test_first_answer_from_any_listener_wins_and_later_ones_are_ignored():
    async def scenario():
        hub = ListenerHub()
        hub.register("keyboard")
        hub.register("voice")
        task = asyncio.ensure_future(hub.answer(YES_NO))
        await asyncio.sleep(0)
        assert hub.offer_text("no", "voice") is None
        assert hub.offer_text("yes", "keyboard") == "nothing is being asked right now"
        return await task

    heard = asyncio.run(scenario())
    assert (heard.value, heard.source) == ("no", "voice")


def test_a_garbled_answer_keeps_the_question_open():
    async def scenario():
        hub = ListenerHub()
        hub.register("keyboard")
        task = asyncio.ensure_future(hub.answer(YES_NO))
        await asyncio.sleep(0)
        assert "answer yes (y) or no (n)" in hub.offer_text("perhaps", "keyboard")
        assert not task.done()
        hub.offer_text("y", "keyboard")
        return await task

    assert asyncio.run(scenario()).value == "yes"


def test_commands_are_not_answers():
    async def scenario():
        hub = ListenerHub()
        hub.register("keyboard")
        task = asyncio.ensure_future(hub.answer(YES_NO))
        await asyncio.sleep(0)
        hub.offer_text("r", "keyboard")
        hub.offer_text("u", "keyboard")
        hub.offer_text("n", "keyboard")
        commands = [hub.command_nowait().value, hub.command_nowait().value]
        return commands, (await task).value

    assert asyncio.run(scenario()) == (["repeat", "undo"], "no")


def test_no_listener_left_is_a_clear_error_not_a_hang():
    async def scenario():
        hub = ListenerHub()
        hub.register("script")
        task = asyncio.ensure_future(hub.answer(YES_NO))
        await asyncio.sleep(0)
        hub.retire("script")
        return await asyncio.wait_for(task, 1)

    with pytest.raises(NoMoreAnswers, match="narrator resume"):
        asyncio.run(scenario())


def test_enter_outside_a_question_is_a_done_command():
    async def scenario():
        hub = ListenerHub()
        hub.offer_text("", "keyboard")
        return hub.command_nowait()

    assert asyncio.run(scenario()).value == "done"
