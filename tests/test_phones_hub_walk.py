"""A phone tap's walk has no upward call (docs/architecture.md, "The two walks, counted"): the
hub (floor "inputs") counts its changes and wakes whoever waits; the phone server (floor
"phones", higher) waits on them in its own task and pushes to the phones' streams. The hub
holds no callable of the server's for it, and a host screen's stream still sees a question
open and close at once."""

import ast
import asyncio
import json
from pathlib import Path

from yarl import URL

from narrator.cues import Ask
from narrator.inputs.hub import ListenerHub
from narrator.phones.seats import HOST
from tests.test_phones_server_mutants import _next_event, _open_stream, streaming

ROOT = Path(__file__).resolve().parents[1] / "narrator"


def _functions(path: Path, name: str) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]


def test_the_hub_tells_of_a_change_by_waking_waiters_and_calls_no_code_handed_in():
    assert not hasattr(ListenerHub, "watch")  # no callback from above to register
    (notify,) = _functions(ROOT / "inputs" / "hub.py", "_notify")
    called = {ast.unparse(n.func) for n in ast.walk(notify) if isinstance(n, ast.Call)}
    assert called == {"waiter.done", "waiter.set_result"}, called  # futures only: no watcher is called


def test_the_phones_hand_the_hub_no_change_callback():
    for path in sorted((ROOT / "phones").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "watch":
                raise AssertionError(f"{path.name}:{node.lineno}: a watch on the hub is an upward call")
            if isinstance(node, ast.Attribute) and node.attr == "_changed" and id(node) not in calls:
                raise AssertionError(f"{path.name}:{node.lineno}: `_changed` handed on as a callback")


def test_a_host_screens_stream_sees_a_question_open_and_close_through_the_servers_own_wait():
    """The hub only counts; the server's own task wakes, and each change is one push. The
    stream is read with a bound (the server pushes at once; nothing waits on the wall clock)."""

    async def test(server, session, base, jar):
        hub: ListenerHub = server.hub
        server.seats.claim(HOST, "host-token")
        jar.update_cookies({server.host_cookie: "host-token"}, URL(base))
        response = await _open_stream(session, base)
        assert json.loads((await _next_event(response))[6:])["host"]["ask"] is None
        answer = hub.first_answer(Ask("vote.ask", ("Aki", "Ben")))
        opened = json.loads((await _next_event(response))[6:])["host"]["ask"]
        assert opened is not None and opened["choices"] == ["Aki", "Ben"]
        assert hub.offer_value(opened["serial"], "Ben", "phones")  # the tap, as answers.py gives it
        closed = json.loads((await _next_event(response))[6:])["host"]["ask"]
        assert closed is None and (await answer).value == "Ben"
        response.close()

    streaming(test)


def test_a_view_built_before_the_servers_wait_wakes_counts_the_call_the_hub_has_open():
    """The server sees the hub's change a loop turn later (`_follow_hub`); a view built in
    between (a phone's /api/view) shows the call open with its question, so the phone sends
    in its call's slots (app.js COVER), not at once (tests/test_phones_timing_browser.py)."""
    from tests.test_phones_server_mutants import make

    async def main():
        server, hub = make()  # not started: its own wait on the hub is not running
        answer = hub.first_answer(Ask("seer.ask", ("Aki", "Ben"), player="Aki"))
        await asyncio.sleep(0)  # one turn of the loop (no time passes): the question opens
        assert hub.open_ask is not None and hub.open_ask[1].player == "Aki"
        view = server.view(None, True)
        answer.cancel()
        return view

    view = asyncio.run(main())
    assert (view["call"], view["calling"]) == (1, True)
