"""Private lines and private rounds on the phones (Bestia Magica's memos, votes and results).

A private line (a `Private` cue: a role card, the prophet's result …) reaches the phone
server through the hub and is kept per player in the game folder (`phones-private.json`),
so a reload or a resumed game still shows it to that player, and only to them. A private
round (a `Collect`) shows each asked player their own request; an answer is accepted once,
from the token's player only, for the round open now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, TypeGuard

from narrator import home
from narrator.cues import Request
from narrator.inputs.private_answers import OpenCollect
from narrator.phones.seats import read_kept


class PrivateLines:
    """The private lines each player has been shown, in order, without repeats on resume."""

    def __init__(self, path: Path | None = None, warn: Callable[[str], None] | None = None):
        self.path = path
        saved = read_kept(path, list, warn, "the phones show the private lines from now on")
        self._lines: list[dict[str, Any]] = [e for e in saved or [] if _entry(e)]

    def add(self, to: str, line: str, text: dict[str, str], when: tuple[int, int]) -> bool:
        """Keep one line (`text` by language) for `to`; False when it is a replayed repeat."""
        entry = {"to": to, "line": line, "text": text, "when": list(when)}
        if entry in self._lines:  # the same step replayed after `narrator resume`
            return False
        self._lines.append(entry)
        if self.path is not None:
            home.write_atomic(self.path, json.dumps(self._lines, ensure_ascii=False))
        return True

    def of(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self._lines if e["to"] == name]


def _entry(entry: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(entry, dict) and isinstance(entry.get("to"), str) and isinstance(entry.get("text"), dict)


def request_view(open_collect: tuple[int, OpenCollect] | None, name: str,
                 text: Callable[[str, dict[str, Any]], dict[str, str]]) -> dict[str, Any] | None:
    """What `name` is asked in the open private round, or None when they are not asked."""
    if open_collect is None:
        return None
    serial, round_ = open_collect
    request = round_.requests.get(name)
    if request is None:
        return None
    return {
        "serial": serial, "phase": round_.phase, "number": round_.number,
        "line": request.line, "text": text(request.line, request.params),
        "choices": list(request.choices), "ability": request.ability, "key": request.key,
        "answered": name in round_.answers,
        "sent": round_.answers.get(name),
    }


def check_private_answer(request: Request, answer: object) -> tuple[dict[str, Any] | None, str | None]:
    """(the answer in canonical form, None) or (None, why it does not fit `request`)."""
    if not isinstance(answer, dict):
        return None, "the answer must be an object"
    allowed = {request.key} | ({"ability"} if request.ability else set())
    extra = sorted(set(answer) - allowed)
    if extra:
        return None, f"unexpected field {extra[0][:40]!r}"
    try:
        return request.check(answer), None
    except ValueError as err:
        return None, str(err)
