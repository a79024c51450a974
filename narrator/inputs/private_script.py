"""Scripted private answers (`--answers FILE` in JSON Lines): night memos, votes, revotes.

One record per line, in any order within a phase:

    {"night": 1, "player": "Aki", "target": "Ben", "ability": true}   Aki's memo for night 1
    {"day": 1, "player": "Aki", "vote": "Ben"}                         Aki's vote on day 1
    {"day": 1, "revote": true, "player": "Aki", "vote": "Ben"}         Aki's revote on day 1

Blank lines and lines starting with `#` are skipped. Whenever the game collects a round, the
records of that round are offered through the hub's private-answer interface; a missing
record, or one the round refuses (a dead player voting, an unknown name, a target the role
may not choose), stops the game with a line naming the record. Keyed by round, so on
`resume` nothing needs skipping: the rounds already played are simply never asked again.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from narrator.errors import AnswerError, SetupError
from narrator.inputs.hub import ListenerHub
from narrator.inputs.private_answers import OpenCollect
from narrator.values.files import read_text_bounded

SOURCE = "script"
KEYS = {"night": {"night", "player", "target", "ability"}, "vote": {"day", "player", "vote"},
        "revote": {"day", "player", "vote", "revote"}}


def is_json_lines(path: Path) -> bool:
    """True when the first answer line of `path` is a JSON object (the private-answer format)."""
    for raw in read_text_bounded(path, "answers file", "check --answers").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            return line.startswith("{")
    return False


def _phase(record: dict[str, Any]) -> str:
    if "night" in record:
        return "night"
    return "revote" if record.get("revote") else "vote"


def read_records(path: Path) -> dict[tuple[str, int, str], tuple[int, dict[str, Any]]]:
    """(phase, number, player) → (line number, record); a malformed line is one clear error."""
    text = read_text_bounded(path, "answers file", "check --answers")
    records: dict[tuple[str, int, str], tuple[int, dict[str, Any]]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"answers file {path} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise SetupError(f"{where} is not valid JSON ({err.msg}); write one object per line") from None
        except RecursionError:
            raise SetupError(f"{where} nests too deeply; write one flat object per line") from None
        if not isinstance(record, dict) or not isinstance(record.get("player"), str) \
                or ("night" in record) == ("day" in record):
            raise SetupError(f"{where}: a record needs \"player\" and either \"night\" or \"day\"")
        phase = _phase(record)
        extra = sorted(set(record) - KEYS[phase])
        if extra:
            raise SetupError(f"{where}: unknown key '{extra[0]}' in a {phase} record; keys: {', '.join(sorted(KEYS[phase]))}")
        round_number = record["night" if phase == "night" else "day"]
        if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
            raise SetupError(f"{where}: the night or day must be a whole number from 1")
        key = (phase, round_number, str(record["player"]))
        if key in records:
            raise SetupError(f"{where}: a second {phase} record for {key[2]} ({phase} {round_number}); "
                             f"the first is on line {records[key][0]}")
        records[key] = (number, record)
    return records


class PrivateScriptListener:
    """Answers every private round from a JSON Lines file."""

    def __init__(self, path: Path):
        self.path = path
        self.records = read_records(path)

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> asyncio.Task[None]:
        hub.register(SOURCE)
        loop.create_task(self._refuse_questions(hub))
        return loop.create_task(self._run(hub))

    async def _run(self, hub: ListenerHub) -> None:
        serial = 0
        while True:
            serial, round_ = await hub.next_collect(serial)
            error = self._answer_round(hub, round_)
            if error is not None:
                hub.fail(AnswerError(error))
                return

    async def _refuse_questions(self, hub: ListenerHub) -> None:
        """A question this file cannot answer (yes/no, done, names) stops the game with one
        line when nothing else can answer it, rather than waiting forever."""
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            await asyncio.sleep(0)  # let a keyboard or phone that is there take it
            if hub.sources <= {SOURCE} and hub.open_serial == serial:
                hub.fail(AnswerError(f"answers file {self.path} holds JSON records (private answers), but the game "
                                     f"asks '{ask.line}'; give this game an answers file with one answer per line"))
                return

    def _answer_round(self, hub: ListenerHub, round_: OpenCollect) -> str | None:
        phase, number = round_.phase, round_.number
        label = f"night {number}" if phase == "night" else f"day {number}{' revote' if phase == 'revote' else ''}"
        for (p, n, player), (line, _) in sorted(self.records.items(), key=lambda kv: kv[1][0]):
            if p == phase and n == number and player not in round_.requests:
                return (f"answers file {self.path} line {line}: {player} may not answer the {label} "
                        f"(dead, unknown, or tied in the revote); asked: {', '.join(round_.requests)}")
        for player in list(round_.requests):
            found = self.records.get((phase, number, player))
            if found is None:
                return f"answers file {self.path}: no {label} record for {player}; add one, e.g. {_example(phase, number, player)}"
            line, record = found
            answer = {k: v for k, v in record.items() if k in ("target", "ability", "vote")}
            hint = hub.offer_private(player, answer, SOURCE)
            if hint:
                return f"answers file {self.path} line {line}: {hint}"
        return None


def _example(phase: str, number: int, player: str) -> str:
    if phase == "night":
        return json.dumps({"night": number, "player": player, "target": "…", "ability": False}, ensure_ascii=False)
    record: dict[str, Any] = {"day": number, "player": player, "vote": "…"}
    if phase == "revote":
        record["revote"] = True
    return json.dumps(record, ensure_ascii=False)
