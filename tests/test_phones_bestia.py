"""Bestia Magica on phones through the HTTP API: memos, votes, private results, and the attacks."""

import asyncio
import json

from tests.phones_harness import Phone, open_table, wait_for

DEAL = "Aki=beast:S,Ben=prophet:M,Chika=guard:S,Dai=townsperson:M,Emi=undertaker:S,Fumi=townsperson:N"
NAMES = [part.split("=")[0] for part in DEAL.split(",")]
NIGHT_PLAN = {"Aki": "Dai", "Ben": "Aki", "Chika": "Ben"}
"""The beast attacks Dai, the prophet divines Aki, the guard protects Ben; others pick their first choice."""


def memo_for(name, request):
    target = NIGHT_PLAN.get(name, request["choices"][0])
    answer = {request["key"]: target if target in request["choices"] else request["choices"][0]}
    if request["ability"]:
        answer["ability"] = False
    return answer


def vote_for(name, request):
    return {"vote": "Aki" if "Aki" in request["choices"] else request["choices"][0]}


async def open_bestia(seed=1):
    table = await open_table(None, seed=seed, game="bestia-magica", deal=DEAL)
    phones = {n: Phone(table.base, n) for n in NAMES}
    for phone in phones.values():
        assert await phone.join() == 200
    return table, phones


async def round_open(table, phase):
    open_collect = table.sitting.hub.open_collect
    return open_collect if open_collect and open_collect[1].phase == phase else None


async def answer_round(phones, policy):
    """Every asked phone answers its own request; returns the phones that were asked."""
    asked = []
    for name, phone in phones.items():
        status, view = await phone.view()
        request = view["request"]
        if request and not request["answered"]:
            status, body = await phone.private(request["serial"], policy(name, request))
            assert status == 200, body
            asked.append(name)
    return asked


async def close(table, phones):
    for phone in phones.values():
        await phone.close()
    await table.close()


def test_six_players_play_bestia_magica_on_phones_to_the_winners():
    async def main():
        table, phones = await open_bestia()
        try:
            await wait_for(lambda: round_open(table, "night"))
            for name, phone in phones.items():
                status, view = await phone.view()
                player = table.state.player(name)
                assert view["private"]["role"] == player.role and view["private"]["attribute"] == player.attribute
                assert view["request"]["choices"] and view["request"]["ability"] is True
            assert sorted(await answer_round(phones, memo_for)) == sorted(NAMES)
            await wait_for(lambda: round_open(table, "vote"))
            status, ben = await phones["Ben"].view()
            assert any("Aki" in m["en"] for m in ben["messages"])  # the prophet's result, to Ben alone
            for name in ("Aki", "Chika", "Dai", "Emi", "Fumi"):
                status, other = await phones[name].view()
                assert not any("Aki" in m["en"] and "divin" in m["en"].lower() for m in other["messages"])
            status, dai = await phones["Dai"].view()
            assert dai["private"]["alive"] is False and dai["request"] is None  # the dead do not vote
            voted = await answer_round(phones, vote_for)
            assert "Dai" not in voted and len(voted) == 5
            state = await asyncio.wait_for(table.task, 10)
            assert state.winner == "town"
            for name, phone in phones.items():
                status, view = await phone.view()
                assert view["phase"] == "over" and view["winner"] == "town"
                assert view["private"]["won"] is (name != "Aki")
        finally:
            await close(table, phones)

    asyncio.run(main())


def test_private_round_attacks_are_refused_and_change_nothing():
    async def main():
        table, phones = await open_bestia()
        try:
            serial, round_ = await wait_for(lambda: round_open(table, "night"))
            aki, ben = phones["Aki"], phones["Ben"]
            assert (await aki.private(serial, {"target": "Aki", "ability": False}))[0] == 400  # a beast on itself
            assert (await aki.private(serial, {"target": "Zed", "ability": False}))[0] == 400  # unknown id
            assert (await aki.private(serial, {"target": "Dai"}))[0] == 400  # questionnaire missing
            assert (await aki.private(serial, {"target": "Dai", "ability": "yes"}))[0] == 400
            assert (await aki.private(serial, {"target": "Dai", "ability": False, "player": "Ben"}))[0] == 400
            assert (await aki.private(serial, "Dai"))[0] == 400
            assert (await aki.private(serial + 1, {"target": "Dai", "ability": False}))[0] == 409  # wrong round
            assert (await aki.answer(serial, "Dai"))[0] == 409  # not a public question
            huge = json.dumps({"serial": serial, "answer": {"target": "D" * 50_000}}).encode()
            assert await aki.post_raw("/api/private", huge) == 400
            assert round_.answers == {}
            before = {n: (await p.view())[1] for n, p in phones.items() if n != "Aki"}
            assert (await aki.private(serial, {"target": "Dai", "ability": False}))[0] == 200
            assert (await aki.private(serial, {"target": "Emi", "ability": False}))[0] == 409  # once only
            assert round_.answers == {"Aki": {"target": "Dai", "ability": False}}
            after = {n: (await p.view())[1] for n, p in phones.items() if n != "Aki"}
            assert after == before  # nobody's phone learns that Aki has sent a memo
            stranger = Phone(table.base, "Mallory")
            assert (await stranger.private(serial, {"target": "Dai", "ability": False}))[0] == 401
            await stranger.close()
            await answer_round(phones, memo_for)
            serial, round_ = await wait_for(lambda: round_open(table, "vote"))
            dai = phones["Dai"]  # killed in the night
            assert (await dai.private(serial, {"vote": "Aki"}))[0] == 403
            assert "Dai" not in round_.answers
            assert (await ben.private(serial - 1, {"vote": "Aki"}))[0] == 409  # last night's round: stale
        finally:
            await close(table, phones)

    asyncio.run(main())


def test_private_lines_survive_a_reload_and_are_kept_per_player():
    async def main():
        table, phones = await open_bestia()
        try:
            await wait_for(lambda: round_open(table, "night"))
            await answer_round(phones, memo_for)
            await wait_for(lambda: round_open(table, "vote"))
            await phones["Ben"].reconnect()
            status, ben = await phones["Ben"].view()
            assert ben["messages"]
            saved = json.loads((table.store.folder / "phones-private.json").read_text())
            assert {e["to"] for e in saved} >= {"Ben"}
            for name, phone in phones.items():
                status, view = await phone.view()
                # everything said to this player privately, less the role and attribute shown above
                mine = [e for e in saved if e["to"] == name and not e["line"].startswith(("bm.private.card.",
                                                                                           "bm.private.attr."))]
                assert len(view["messages"]) == len(mine)
                assert len(saved) > len(mine)
        finally:
            await close(table, phones)

    asyncio.run(main())


def test_a_tied_vote_goes_to_a_revote_on_the_other_players_phones():
    votes = {"Aki": "Ben", "Ben": "Aki", "Chika": "Aki", "Emi": "Ben", "Fumi": "Chika"}

    async def main():
        table, phones = await open_bestia()
        try:
            await wait_for(lambda: round_open(table, "night"))
            await answer_round(phones, memo_for)
            await wait_for(lambda: round_open(table, "vote"))
            await answer_round(phones, lambda name, request: {"vote": votes[name]})
            serial, round_ = await wait_for(lambda: round_open(table, "revote"))
            assert set(round_.requests) == {"Chika", "Emi", "Fumi"}
            for name in ("Aki", "Ben"):  # the tied do not vote again
                status, view = await phones[name].view()
                assert view["request"] is None
                assert (await phones[name].private(serial, {"vote": "Aki"}))[0] == 403
            status, view = await phones["Emi"].view()
            assert view["request"]["phase"] == "revote" and view["request"]["choices"] == ["Aki", "Ben"]
            assert (await phones["Emi"].private(serial, {"vote": "Chika"}))[0] == 400  # not among the tied
            assert await answer_round(phones, lambda name, request: {"vote": "Aki"}) == ["Chika", "Emi", "Fumi"]
            state = await asyncio.wait_for(table.task, 10)
            assert state.winner == "town" and not state.player("Aki").alive
        finally:
            await close(table, phones)

    asyncio.run(main())
