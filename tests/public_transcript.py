"""The shared transcript of a game file's game as the table would have it, for any deal: a
whole game played through the real scheduler (instant clock, text voice, a real transcript
file, nothing private written), with the cards on the device, the night's choices made on the
phones (each call's round answered from a plain answers script, as `--phones --answers` does)
or on one device passed round a terminal (a player typing on each screen as it shows).

`night_records(records)` cuts a transcript into its nights, each as the (kind, line, text,
seconds since the night began) of every record: what the property test compares between two
deals (`tests/test_kernel_public_transcript.py`) and `bench/public_transcript.py` counts.
Works on the kernel of before the night calls' rounds too (private questions then), so the
bench can count the old code's differences with the same harness.
"""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any

from narrator.cues import Answer, Ask, Collect, Continue, Start
from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.inputs.scripted import ScriptedListener
from narrator.inputs.words import Vocabulary
from narrator.settings import build_settings
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock
from narrator.table.display import ConsoleDisplay
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.scheduler import Scheduler
from narrator.table.store import GameStore
from narrator.table.transcript import Transcript, read_transcript

NAMES = {"one-night": "Aki,Ben,Chika,Dai,Emi", "werewolf": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana",
         "tabula": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun",
         **{f"village-{n}": ",".join("Aki Ben Chika Dai Emi Fumi Gen Hana Iku Jun Kei Rei Sora Taro Yui Zen".split()[:n])
            for n in (9, 11, 13, 16)}}
MODES = {"one-night": ("phones",), "werewolf": ("phones", "passed"), "tabula": ("phones", "passed"),
         **{f"village-{n}": ("phones", "passed") for n in (9, 11, 13, 16)}}


def configure(name: str, seed: int, mode: str) -> tuple[Any, Any]:
    game = get_game(name)
    flags = {"names": NAMES[name], "seed": str(seed), "lang": "en", "phones": mode == "phones"}
    if name == "one-night":
        flags["digital_cards"] = "true"
    return game, game.configure(build_settings({}, {**flags, "game": name}, "test"))


def _public_answer(ask: Ask) -> Any:
    """The table's public answers, the same whatever the deal: ready; yes; the first seat named."""
    if "done" in ask.choices:
        return "done"
    if "yes" in ask.choices:
        return "yes"
    return list(ask.choices[:1]) if ask.multiple else ask.choices[0]


def script_lines(game: Any, config: Any) -> list[str]:
    """A plain answers script for the game played in-process: each holder's first choice, in
    the order asked (a night call's round: its holders in seat order), the public answers above."""
    state, event, lines = game.new_state(), Start(), []
    for _ in range(5000):
        state, cues = game.advance(config, state, event)
        if state.finished:
            return lines
        last = cues[-1] if cues else None
        if isinstance(last, Collect):
            lines += [r.choices[0] for r in last.requests]
            event = Answer({r.player: {r.key: r.choices[0]} for r in last.requests})
        elif isinstance(last, Ask):
            value = last.choices[0] if last.player is not None else _public_answer(last)
            lines.append(",".join(value) if isinstance(value, list) else value)
            event = Answer(value)
        else:
            event = Continue()
    raise AssertionError("the game did not end")


class Holder(ConsoleDisplay):
    """Whoever holds the passed device types as each screen shows: the first seat on a choice,
    Enter on a hand-over, a confirmation or a clear; and the table answers its public questions."""

    def __init__(self, hub: ListenerHub):
        super().__init__(False, io.StringIO())
        self.hub = hub

    def _type(self, text: str) -> None:
        asyncio.get_running_loop().call_soon(lambda: self.hub.offer_text(text, "keyboard"))

    def private(self, player: str, lines: list[str]) -> None:
        super().private(player, lines)
        choice = re.match(r"\s+(\d+)=", lines[-1])
        if choice is not None:
            self._type(choice.group(1))
        elif "Enter" in lines[-1]:
            self._type("")

    def prompt(self, ask: Ask) -> None:
        value = _public_answer(ask)
        self._type("" if value == "done" else ",".join(value) if isinstance(value, list) else value)


def play(name: str, seed: int, mode: str, folder: Path) -> list[dict[str, Any]]:
    """The shared transcript's records of a whole game (`mode`: "phones" or "passed")."""
    game, config = configure(name, seed, mode)
    folder.mkdir(parents=True, exist_ok=True)
    pack = load_pack("en")
    hub = ListenerHub(Vocabulary(pack.vocabulary))
    transcript = Transcript(folder / "t.jsonl")
    scheduler = Scheduler(TextVoice(pack), NullOutput(), InstantClock(), hub, transcript, ConsoleDisplay(False))
    listeners = []
    if mode == "passed":
        hub.sequential_private = hub.private_asks_on_device = True
        hub.register("keyboard")
        scheduler.display = Holder(hub)
    else:  # the phones' rounds run beside the calls; a plain script answers them, as `--phones --answers`
        hub.rounds_during_timers = True
        script = folder / "answers.txt"
        script.write_text("\n".join(script_lines(game, config)) + "\n", encoding="utf-8")
        listeners.append(ScriptedListener(script))
    store = GameStore.create(folder / "home", game.name, config.to_dict(), {})

    async def main() -> Any:
        for listener in listeners:
            listener.start(hub, asyncio.get_running_loop())
        return await play_loop(game, config, store, scheduler, start_position(game, config, store))

    try:
        state = asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        transcript.close()
        store.close()
    assert state.finished
    return read_transcript(folder / "t.jsonl")


def night_records(records: list[dict[str, Any]]) -> dict[int, list[tuple]]:
    """Each night's records as (kind, line, text, seconds since the night began), by night (a death
    is recorded with the night it happened in, but in the morning, when it is told: not a night's)."""
    nights: dict[int, list[dict[str, Any]]] = {}
    for record in records:
        night, day = record.get("night", 0), record.get("day", 0)
        if night > day and record["kind"] != "event":  # a death's record carries its night; the morning tells it
            nights.setdefault(night, []).append(record)
    return {n: [(r["kind"], r.get("line"), r.get("text"), round(r["t"] - rs[0]["t"], 3)) for r in rs]
            for n, rs in nights.items()}


def differing(one: list[dict[str, Any]], other: list[dict[str, Any]], nights: int | None = None) -> int:
    """How many night records differ between two games' transcripts (the nights both played,
    or the first `nights`): a record that differs, or one that only one of them has."""
    a, b = night_records(one), night_records(other)
    count = 0
    for night in sorted(set(a) & set(b))[:nights]:
        x, y = a[night], b[night]
        count += sum(p != q for p, q in zip(x, y)) + abs(len(x) - len(y))
    return count
