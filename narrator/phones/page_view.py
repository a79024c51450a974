"""Everything one phone shows now, put together: the game's view for its seat (views.py) with
what the page adds around it: the private call and its times, the timer, the wait for phones,
the seat's private lines and a game file's winner line worded, what the open round asks of it,
and the host screen's part.

Why it stands apart from the server: the server serves requests and follows the game; what a
phone may see is a decision of its own, read and tested apart (a public question only on the
host screen, a card line never twice, the timer by the game's clock). `Showing` is what it
reads of the page, as a Protocol: the server imports this module, so a type-only import of
`PhoneServer` back would be an import cycle (serving.py says why).
"""

from __future__ import annotations

from typing import Any, Protocol

from narrator.phones import host
from narrator.phones.following import Calls
from narrator.phones.private import PrivateLines, request_view
from narrator.phones.serving import Serving
from narrator.phones.table_controls import EndLines
from narrator.phones.views import build_view


class Showing(Serving, Protocol):
    """The game's page as a phone's view reads it."""

    @property
    def calls(self) -> Calls: ...

    @property
    def private_lines(self) -> PrivateLines: ...

    @property
    def end_lines(self) -> EndLines: ...

    @property
    def no_speaker(self) -> bool: ...

    def _now(self) -> float: ...


def compose(page: Showing, name: str | None, is_host: bool) -> dict[str, Any]:
    """Everything the phone of `name` (None: a host screen without a seat) shows now, but the
    open call's age, which changes by the moment (`PhoneServer.view_now` adds it as it leaves)."""
    view = build_view(page.game, page.config, page.shown, page.state, name, page.hub.open_ask, page._ask_text)
    calls = page.calls
    view["call"] = calls.count
    # Whether a call is open is said aloud: the same on every phone, as are its times.
    view["calling"] = calls.open
    view["call_length"] = None if calls.length is None else round(calls.length, 3)
    view["call_lengths"] = {str(n): round(length, 3) for n, length in calls.lengths.items()}
    view["call_age"] = None  # by the moment: only in the view as it leaves (`view_now`)
    view["timer"] = None
    if page.timer is not None:
        started, seconds = page.timer
        view["timer"] = max(0, round(seconds - (page._now() - started)))
    view["waiting"] = {"free": len(page.seats.free())} if page.waiting is not None else None
    if view.get("winner_line"):  # the winner in the game's own words (a game file's team), public
        line, params = view["winner_line"]
        view["winner_line"] = page._text(line, dict(params))
    view["messages"], view["request"] = [], None
    if name is not None:
        private = view["private"]
        shown = set()
        if "lines" in private:  # the role card and attribute, shown in the cards box already
            shown = {line for line, _ in private["lines"]}
        for key in [k for k in private if k.endswith("lines")]:  # the game's own lines, worded
            private[key] = [page._text(line, params) for line, params in private[key]]
        view["messages"] = [e["text"] for e in page.private_lines.of(name) if e["line"] not in shown]
        view["request"] = request_view(page.hub.open_collect, name, page._text)
    view["host"] = host.host_view(page) if is_host else None
    if is_host:
        view["host"]["timer_serial"] = page.timer_serial if page.timer is not None else None
        view["host"]["end_lines"] = page.end_lines.shown()
        view["host"]["no_speaker"] = page.no_speaker
    if not is_host and view["ask"] is not None and not view["ask"]["private"]:
        view["ask"] = None  # public questions are answered on the host screen (answers.py)
    return view
