"""Answers from the phones, reply by reply: every refusal's status and message as the page
shows it, for public questions, private questions and private rounds."""

import asyncio

from narrator.phones.answers import check_value
from tests.phones_harness import NAMES5, Phone, open_table, wait_for
from tests.test_phones_bestia import answer_round, close, memo_for, open_bestia, round_open

CLOSED = (409, {"error": "this question is closed: reload to see the current one"})
NO_SEAT = (401, {"error": "no seat: enter your seat's code first"})


async def post(phone, path, body):
    """A phone's answer as its page sends it: a seated phone's through its sealed channel."""
    if phone.key is not None and path in ("/api/private", "/api/answer"):
        return await phone.sealed(path.removeprefix("/api/"), body)
    async with phone.session.post(path, json=body) as r:
        return r.status, await r.json()


async def _open(table, line):
    open_ask = table.sitting.hub.open_ask
    return open_ask if open_ask and open_ask[1].line == line else None


def test_a_value_is_checked_against_the_questions_choices():
    choices = ("Ben", "Chika", "Dai")
    assert check_value("Ben", choices, False) is None and check_value(["Ben", "Dai"], choices, True) is None
    assert check_value(["Ben"], choices, False) == "choose one"
    assert check_value(None, choices, False) == "choose one"
    assert check_value("Zed", choices, False) == "not a choice here: 'Zed'"
    assert check_value("Z" * 60, choices, False) == f"not a choice here: {'Z' * 40!r}"
    for value in ([], "Ben", ["Ben", 1], None, ["Ben", None]):
        assert check_value(value, choices, True) == "choose at least one", value
    assert check_value(["Ben", "Ben"], choices, True) == "each choice only once"
    assert check_value(["Ben", "Zed", "Yui"], choices, True) == "not a choice here: 'Zed'"
    assert check_value(["Ben", "Y" * 60], choices, True) == f"not a choice here: {'Y' * 40!r}"


def test_public_and_private_questions_refuse_with_a_message_the_page_can_show():
    async def main():
        table = await open_table(NAMES5, seed=5)
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        stranger = Phone(table.base, "Mallory")
        try:
            for phone in phones.values():
                assert await phone.join() == 200
            host = await table.host()
            serial, _ = await wait_for(lambda: _open(table, "setup.ready"))
            assert await post(stranger, "/api/answer", {"serial": serial, "value": "done"}) == NO_SEAT
            for bad in ("1", True, None, 1.0):
                assert await post(host, "/api/answer", {"serial": bad, "value": "done"}) == (
                    400, {"error": "serial must be the number of the question being answered"}), bad
            assert await post(host, "/api/answer", {"value": "done"}) == (
                400, {"error": "serial must be the number of the question being answered"})
            assert await post(host, "/api/answer", {"serial": serial + 1, "value": "done"}) == CLOSED
            assert await post(phones["Aki"], "/api/answer", {"serial": serial, "value": "done"}) == (
                403, {"error": "this question is answered on the host screen"})
            assert await post(host, "/api/answer", {"serial": serial, "value": "yes"}) == (
                400, {"error": "not a choice here: 'yes'"})
            assert await post(host, "/api/answer", {"serial": serial, "value": ["done"]}) == (
                400, {"error": "choose one"})
            assert await post(host, "/api/answer", {"serial": serial, "value": "done"}) == (200, {"ok": True})
            assert await post(host, "/api/answer", {"serial": serial, "value": "done"}) == CLOSED
            serial, ask = await wait_for(lambda: _open(table, "seer.act_phone"))
            other = next(n for n in phones if n != ask.player)
            mine = (403, {"error": "this question is not yours to answer"})
            assert await post(phones[other], "/api/answer", {"serial": serial, "value": ask.choices[0]}) == mine
            assert await post(host, "/api/answer", {"serial": serial, "value": ask.choices[0]}) == mine
            assert await post(phones[ask.player], "/api/answer", {"serial": serial, "value": ask.player}) == (
                400, {"error": f"not a choice here: {ask.player!r}"})  # the seer cannot look at their own card
            assert table.sitting.hub.open_ask == (serial, ask)
            assert await post(phones[ask.player], "/api/answer", {"serial": serial, "value": ask.choices[-1]}) == (
                200, {"ok": True})
        finally:
            for phone in (*phones.values(), stranger):
                await phone.close()
            await table.close()

    asyncio.run(main())


def test_private_rounds_refuse_with_a_message_the_page_can_show():
    async def main():
        table, phones = await open_bestia()
        stranger = Phone(table.base, "Mallory")
        try:
            serial, round_ = await wait_for(lambda: round_open(table, "night"))
            aki = phones["Aki"]
            memo = {"target": "Dai", "ability": False}
            assert await post(stranger, "/api/private", {"serial": serial, "answer": memo}) == NO_SEAT
            host = await table.host()  # the host screen holds no seat, so no private answer
            assert await post(host, "/api/private", {"serial": serial, "answer": memo}) == NO_SEAT
            for bad in ("1", False, None):
                assert await post(aki, "/api/private", {"serial": bad, "answer": memo}) == (
                    400, {"error": "serial must be the number of the round being answered"}), bad
            for extra in ("player", "Z" * 60):
                assert await post(aki, "/api/private", {"serial": serial, "answer": memo, extra: "Ben"}) == (
                    400, {"error": f"unexpected field {extra[:40]!r}: a phone answers for its own seat only"})
            assert await post(aki, "/api/private", {"serial": serial + 1, "answer": memo}) == (
                409, {"error": "this round is closed: reload to see the current one"})
            assert await post(aki, "/api/private", {"serial": serial, "answer": {"target": "Dai"}}) == (
                400, {"error": "'ability' for Aki must be true or false, not None"})
            assert await post(aki, "/api/private", {"serial": serial, "answer": {**memo, "vote": "Dai"}}) == (
                400, {"error": "unexpected field 'vote'"})
            assert round_.answers == {}
            assert await post(aki, "/api/private", {"serial": serial, "answer": memo}) == (200, {"ok": True})
            assert await post(aki, "/api/private", {"serial": serial, "answer": memo}) == (
                409, {"error": "you have already answered this round"})
            assert round_.answers == {"Aki": memo}
            await answer_round(phones, memo_for)
            serial, _ = await wait_for(lambda: round_open(table, "vote"))
            night = [e for e in table.events() if e["type"] == "answer"][-1]
            assert night["source"] == "phone" and night["value"]["Aki"] == memo  # recorded as the phones'
            assert await post(phones["Dai"], "/api/private", {"serial": serial, "answer": {"vote": "Aki"}}) == (
                403, {"error": "you are not asked in this round"})  # killed in the night
        finally:
            await stranger.close()
            await close(table, phones)

    asyncio.run(main())
