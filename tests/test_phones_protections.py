"""Each protection of the phone page, tested from both sides.

For every protection the attack is played twice: with the protection removed (monkeypatched
off inside the test) it must succeed, so the test can see the attack at all; with the
protection on it must be refused. A broken or missing protection then cannot pass.
"""

import asyncio
import dataclasses
import hashlib
import json
import secrets

import pytest

from narrator.games import bestia_magica
from narrator.games.additional_werewolf import cards
from narrator.phones import answers, channel, crypto, seats as seats_module, server as server_module, wire
from narrator.phones.seats import Seats
from tests.phones_harness import NAMES5, Phone, open_table, wait_for
from tests.test_phones_bestia import DEAL, NAMES as BM_NAMES, memo_for, round_open


def run(main):
    return asyncio.run(main())


async def seated(names=NAMES5, **options):
    table = await open_table(names, seed=5, **options)
    phones = {n: Phone(table.base, n) for n in (names or BM_NAMES).split(",")} if names else \
        {n: Phone(table.base, n) for n in BM_NAMES}
    for phone in phones.values():
        assert await phone.join() == 200
    return table, phones


async def close(table, phones):
    for phone in phones.values():
        await phone.close()
    await table.close()


# --- seats -----------------------------------------------------------------------------------

async def grab_every_seat(table) -> list[str]:
    """A device that knows the seat names (and nothing else) tries to take every seat."""
    grabbed = []
    for name in table.server.seats.names:
        thief = Phone(table.base, "thief")
        for body in ({"code": name}, {"seat": name}, {"code": name.upper()}):
            async with thief.session.post("/api/join", json=body) as r:
                if r.status == 200:  # it knows the "code" it sent: so it knows the key
                    thief.key = table.server.keys.for_code(body.get("code", name))[0]
        status, view = await thief.view()
        if status == 200 and view["seat"]:
            grabbed.append(view["seat"])
        await thief.close()
    return grabbed


@pytest.mark.parametrize("protected", [False, True])
def test_seat_names_alone_grab_no_seat(monkeypatch, protected):
    monkeypatch.setattr("narrator.phones.host.WRONG_CODE_DELAY", 0.0)
    if not protected:  # the old way: a seat's name is all it takes
        monkeypatch.setattr(Seats, "seat_for_code", lambda self, code: code if code in self.names
                            and not self.taken(code) else None)

    async def main():
        table = await open_table(NAMES5, seed=5)
        try:
            grabbed = await grab_every_seat(table)
            assert sorted(grabbed) == (sorted(NAMES5.split(",")) if not protected else [])
            if protected:  # the real code still works, once
                aki = Phone(table.base, "Aki")
                code = table.server.seats.code("Aki")
                assert await aki.join_code(code) == 200 and (await aki.view())[1]["seat"] == "Aki"
                again = Phone(table.base, "Aki")
                assert await again.join_code(code) == 403
                await aki.close()
                await again.close()
        finally:
            await table.close()

    run(main)


@pytest.mark.parametrize("protected", [False, True])
def test_tokens_cannot_be_computed_from_the_seat_name(monkeypatch, protected):
    if not protected:
        names = iter(NAMES5.split(","))
        monkeypatch.setattr(seats_module, "new_token", lambda: hashlib.sha256(next(names).encode()).hexdigest())
        # and views unsealed: this test is about tokens (the seat's key is another protection,
        # tests/test_phones_crypto.py)
        monkeypatch.setattr(channel, "sealed_view", lambda server, request, view: view)

    async def main():
        table, phones = await seated()
        try:
            stolen = []
            for name in NAMES5.split(","):
                thief = Phone(table.base, "thief")
                thief.session.cookie_jar.update_cookies({table.server.cookie: hashlib.sha256(name.encode()).hexdigest()})
                status, view = await thief.view()
                if status == 200:
                    stolen.append(view["private"]["role"])
                await thief.close()
            assert (len(stolen) == 5) == (not protected) and (stolen == []) == protected
        finally:
            await close(table, phones)

    run(main)


@pytest.mark.parametrize("protected", [False, True])
def test_tokens_are_not_found_by_trying_every_small_value(monkeypatch, protected):
    if not protected:  # a token with only 65,536 possible values
        monkeypatch.setattr(seats_module, "new_token", lambda: str(secrets.randbelow(65536)))
    seats = Seats(("Aki", "Ben"))
    token = seats.claim("Aki")
    found = [c for c in map(str, range(65536)) if seats.player(c) == "Aki"]
    assert (found == [token]) == (not protected)
    assert (found == []) == protected
    if protected:
        assert len(token) >= 43 and token != seats.claim("Ben")


# --- what a phone may learn --------------------------------------------------------------------

def _leaks_to(server, viewer: str, other: str, swap) -> bool:
    """Does `viewer`'s view change when only `other`'s hidden role changes? Then it leaks."""
    before = json.dumps(server.view(viewer), sort_keys=True)
    real = server.shown
    server.shown = swap(real, other)
    try:
        return json.dumps(server.view(viewer), sort_keys=True) != before
    finally:
        server.shown = real


def _bm_swap(state, name):
    player = state.player(name)
    role = "townsperson" if player.role != "townsperson" else "beast"
    return state.update(name, role=role)


@pytest.mark.parametrize("protected", [False, True])
def test_a_bestia_magica_view_holds_no_other_players_role(monkeypatch, protected):
    if not protected:  # a view carrying every player's role
        real = bestia_magica.GAME.phones

        def every_role(config, state, name):
            return {**real.private_view(config, state, name), "table": {p.name: p.role for p in state.players}}

        monkeypatch.setattr(bestia_magica, "GAME", dataclasses.replace(
            bestia_magica.GAME, phones=dataclasses.replace(real, private_view=every_role)))

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL)
        try:
            await wait_for(lambda: round_open(table, "night"))
            leaks = [(a, b) for a in BM_NAMES for b in BM_NAMES if a != b
                     and _leaks_to(table.server, a, b, _bm_swap)]
            assert bool(leaks) == (not protected), leaks[:3]
        finally:
            await table.close()

    run(main)


def _aw_swap(config):
    def swap(state, name):
        roles = list(state.roles_of)
        i = config.names.index(name)
        roles[i] = "werewolf" if roles[i] != "werewolf" else "citizen"
        return dataclasses.replace(state, roles_of=tuple(roles))
    return swap


def test_an_additional_werewolf_view_holds_no_other_players_role():
    async def main():
        table, phones = await seated()
        try:
            swap = _aw_swap(table.config)
            names = NAMES5.split(",")
            assert not [(a, b) for a in names for b in names if a != b and _leaks_to(table.server, a, b, swap)]
            # the same check sees a leak when a view does carry the table's roles
            real = table.server.game
            table.server.game = dataclasses.replace(real, phones=dataclasses.replace(
                real.phones, private_view=lambda c, s, n: {**real.phones.private_view(c, s, n), "all": list(s.roles_of)}))
            try:
                assert _leaks_to(table.server, "Aki", "Ben", swap)
            finally:
                table.server.game = real
        finally:
            await close(table, phones)

    run(main)


ROLES = ("citizen", "traitor", "werewolf")


def _printed_roles(text: str, config, state) -> list[str]:
    """Each player whose role card appears in `text` beside their name or as a view's field."""
    found = []
    for name in config.names:
        role = cards.role(config, state, name)
        if f"'role': '{role}'" in text or f'"role": "{role}"' in text or f"{name} is a {role}" in text:
            found.append(name)
    return found


@pytest.mark.parametrize("protected", [False, True])
def test_no_view_is_printed_or_logged(monkeypatch, capsys, protected):
    if not protected:  # every view printed to stdout
        real = server_module.PhoneServer.view

        def printing(self, *args, **kwargs):
            view = real(self, *args, **kwargs)
            print(view)
            return view

        monkeypatch.setattr(server_module.PhoneServer, "view", printing)

    async def main():
        table, phones = await seated()
        try:
            for phone in phones.values():
                await phone.view()
            return table.config, table.state
        finally:
            await close(table, phones)

    config, state = run(main)
    out = capsys.readouterr()
    printed = _printed_roles(out.out + out.err, config, state)
    assert (printed == []) == protected


@pytest.mark.parametrize("protected", [False, True])
def test_a_private_answer_cannot_name_another_player(monkeypatch, protected):
    if not protected:  # `/api/private` accepting a `player` field
        monkeypatch.setattr(answers, "PRIVATE_FIELDS", answers.PRIVATE_FIELDS | {"player"})
        monkeypatch.setattr(answers, "answering_player",
                            lambda server, request, body: body.get("player") or server.player(request))

    async def main():
        table, phones = await seated(None, game="bestia-magica", deal=DEAL)
        try:
            serial, _ = await wait_for(lambda: round_open(table, "night"))
            ben_request = (await phones["Ben"].view())[1]["request"]
            forged = {"serial": serial, "player": "Ben", "answer": memo_for("Ben", ben_request)}
            status, _ = await phones["Aki"].sealed("private", forged)  # as the page sends it
            ben_answered = "Ben" in table.sitting.hub.open_collect[1].answers
            assert (status == 200 and ben_answered) == (not protected)
            assert (status == 400 and not ben_answered) == protected
        finally:
            await close(table, phones)

    run(main)


# --- requests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_post_from_another_page_is_refused(protected):
    async def main():
        table, phones = await seated()
        table.server.check_origin = protected
        try:
            host = await table.host()
            async with host.session.post("/api/answer", json={"serial": 1, "value": "done"},
                                         headers={"Origin": "http://evil.example"}) as r:
                status = r.status
            assert (status == 200) == (not protected) and (status == 403) == protected
            if protected:
                async with host.session.post("/api/answer", json={"serial": 1, "value": "done"},
                                             headers={"Origin": ""}) as r:
                    assert r.status == 403  # no Origin at all is refused too
        finally:
            await close(table, phones)

    run(main)


@pytest.mark.parametrize("protected", [False, True])
def test_deeply_nested_json_gets_a_400_not_a_traceback(monkeypatch, capsys, protected):
    if not protected:
        monkeypatch.setattr(wire, "parse", json.loads)

    async def main():
        table, phones = await seated()
        try:
            nested = b'{"serial": 1, "value": ' + b"[" * 1000 + b"]" * 1000 + b"}"
            return await phones["Aki"].post_raw("/api/answer", nested), table.sitting.hub.open_ask[0]
        finally:
            await close(table, phones)

    status, still_open = run(main)
    assert (status == 500) == (not protected) and (status == 400) == protected
    assert still_open == 1
    if protected:
        assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("protected", [False, True])
def test_one_players_script_cannot_answer_a_public_question(monkeypatch, protected):
    if not protected:  # the first phone to answer decides
        monkeypatch.setattr(answers, "public_answer_allowed", lambda is_host: True)

    async def main():
        table, phones = await seated()
        try:
            status, _ = await phones["Dai"].answer(1, "done")
            assert (status == 200) == (not protected) and (status == 403) == protected
            if protected:
                assert (await (await table.host()).answer(1, "done"))[0] == 200
        finally:
            await close(table, phones)

    run(main)


# --- sizes ------------------------------------------------------------------------------------

async def _lengths(table, phones):
    """Every phone's view body length and first live message length."""
    out = {}
    for name, phone in phones.items():
        async with phone.session.get("/api/view") as r:
            body = await r.read()
        async with phone.session.get("/api/events") as r:
            frame = b""
            async for chunk in r.content.iter_any():
                frame += chunk
                if frame.endswith(b"\n\n"):
                    break
        out[name] = (len(body), len(frame))
    return out


@pytest.mark.parametrize("protected", [False, True])
def test_every_role_attribute_and_result_has_the_same_message_size(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(wire, "BUCKET", 1)
        monkeypatch.setattr(crypto, "PLAIN_REPLY", 1)  # a sealed view's own length too

    async def main():
        sizes = []
        table, phones = await seated(None, game="bestia-magica", deal=DEAL)  # every role and attribute
        try:
            await wait_for(lambda: round_open(table, "night"))
            sizes.append(await _lengths(table, phones))
            for name, phone in phones.items():  # each sends a memo: views differ by what was sent
                request = (await phone.view())[1]["request"]
                await phone.private(request["serial"], memo_for(name, request))
            await wait_for(lambda: _messages_for(phones["Ben"]))  # the prophet's result
            sizes.append(await _lengths(table, phones))
        finally:
            await close(table, phones)
        table, phones = await seated()  # Additional Werewolf: roles and cards
        try:
            sizes.append(await _lengths(table, phones))
        finally:
            await close(table, phones)
        return sizes

    sizes = run(main)
    alike = all(len(set(s.values())) == 1 for s in sizes)
    assert alike == protected, sizes


async def _true(value):
    return value


async def _messages_for(phone):
    return (await phone.view())[1]["messages"]


# --- the game goes on -------------------------------------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_failing_page_never_stops_the_game(monkeypatch, protected):
    def broken(self, *args):
        raise OSError(24, "Too many open files")

    # the game's own call into the server (the runner's `on_state`): the hub's changes reach the
    # server in its own task (`_follow_hub`), so they never ran the server's code in the game
    monkeypatch.setattr(server_module.PhoneServer, "set_state", server_module.safe(broken) if protected else broken)

    async def main():
        table = await open_table(NAMES5, seed=5, digital_cards="false")
        try:
            hub = table.sitting.hub
            await wait_for(lambda: _true(table.task.done() or hub.open_ask))
            hub.offer_text("done", "script")
            await wait_for(lambda: _true(table.task.done() or (hub.open_serial or 0) >= 2))
            return table.task.done() and table.task.exception() is not None
        finally:
            await table.close()

    crashed = run(main)
    assert crashed == (not protected)

