"""Issue 36 measured as a table meets it: scenarios of the three shipped game files (one-night,
werewolf, tabula), each played through the real CLI of a checkout and judged on what the table
sees (the exit status, the lines printed with `--voice text`, the transcript's records).

    .venv/bin/python bench/kernel_scenarios.py CHECKOUT [-j JOBS] [-k NAME] [--keep]

CHECKOUT is the tree measured (`/work/main`, an older checkout): every game runs as
`CHECKOUT/.venv/bin/python -m narrator play …` with PYTHONPATH=CHECKOUT, cwd CHECKOUT, stdin
/dev/null, a fresh NARRATOR_HOME and a timeout of 120 s. The script imports nothing of narrator,
so it measures every checkout the same way; where an old checkout lacks a flag, the scenario
fails on it with the refusal as its reason.

Each scenario is written from the published rules and the docs (docs/one-night.md,
docs/werewolf.md, docs/tabula.md, docs/game-files.md), as a table would meet them. The answers
are worked out by hand: a deal is read from a first run's `--transcript-private` (its
`wolf.you_are` records), and the rest follows the docs' rules (`Table` below plays a game of
nights on paper to write the answers and foresee the winner). Prints `ok NAME` or
`FAIL NAME: reason`, one line each, then the totals per game.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

TIMEOUT = 120
N4 = "Aki,Ben,Chika,Dai"
N5 = "Aki,Ben,Chika,Dai,Emi"
N6 = "Aki,Ben,Chika,Dai,Emi,Fumi"
N8 = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"
N9 = N8 + ",Iku"

ROLE_WORDS = {  # the ja role names, as a `wolf.you_are` card says them
    "人狼": "werewolf", "狂人": "madman", "占い師": "seer", "怪盗": "thief", "村人": "villager",
    "霊媒師": "medium", "騎士": "knight", "霊能者": "psychic", "狩人": "hunter", "共有者": "mason",
    "妖狐": "fox",
}


class Fail(Exception):
    """A scenario's expectation not met: its message is the one-line reason."""


# --- running the CLI ------------------------------------------------------------------------


@dataclass
class Run:
    rc: Any  # the exit status, or "timeout", or "stopped" (a probe ended on purpose)
    out: str
    err: str
    records: list[dict[str, Any]]
    home: Path
    work: Path
    argv: list[str] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return [line.strip() for line in self.out.splitlines() if line.strip()]

    @property
    def error(self) -> str:
        errors = [line for line in self.err.splitlines() if line.startswith("error:")]
        if errors:
            return errors[-1][:200]
        tail = [line for line in self.err.splitlines() if line.strip()]
        return (tail[-1] if tail else "")[:200]

    @property
    def end(self) -> dict[str, Any] | None:
        ends = [r for r in self.records if r.get("kind") == "end"]
        return ends[-1] if ends else None

    def said(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.records if kind is None or r.get("kind") == kind]

    def private(self, to: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("kind") == "private" and (to is None or r.get("to") == to)]

    def why(self) -> str:
        """The status and the last error line, for a reason."""
        return f"exit {self.rc}" + (f" ({self.error})" if self.error else "")


class Bench:
    def __init__(self, checkout: Path, root: Path):
        self.checkout = checkout
        self.python = checkout / ".venv" / "bin" / "python"
        self.root = root
        self._lock = threading.Lock()
        self._probes: dict[tuple, Any] = {}
        self._probe_locks: dict[tuple, threading.Lock] = {}
        self._count = 0

    def workdir(self) -> Path:
        with self._lock:
            self._count += 1
            n = self._count
        work = self.root / f"run{n:04}"
        work.mkdir(parents=True)
        return work

    def run(self, game: str | None, names: str | None = None, *, seed: int | None = None,
            answers: list[str] | None = None, lang: str = "ja", phones: bool = False, private: bool = False,
            transcript: bool = True, extra: tuple[str, ...] = (), home: Path | None = None, command: str = "play",
            stop: Callable[[list[dict[str, Any]]], bool] | None = None, plain: bool = False) -> Run:
        """One `narrator play` (or `resume`) in its own process; `stop`: end it (by its id) once
        the transcript's records satisfy it (a probe of a game that would wait for phones)."""
        work = self.workdir()
        home = home or work / "home"
        home.mkdir(parents=True, exist_ok=True)
        argv = [str(self.python), "-m", "narrator", command]
        if game is not None:
            argv.append(game)
        if names is not None:
            argv += ["--names", names]
        if seed is not None:
            argv += ["--seed", str(seed)]
        if answers is not None:
            path = work / "answers.txt"
            path.write_text("".join(a + "\n" for a in answers), encoding="utf-8")
            argv += ["--answers", str(path)]
        if not plain:
            argv += ["--voice", "text", "--time-scale", "0", "--no-keyboard"]
            if command == "play":
                argv += ["--lang", lang]
        tpath = work / "transcript.jsonl"
        if transcript:
            argv += ["--transcript", str(tpath)]
            if private:
                argv.append("--transcript-private")
        if phones:
            argv += ["--phones", "--host", "127.0.0.1", "--port", str(free_port())]
        argv += list(extra)
        env = {k: v for k, v in os.environ.items() if not k.startswith("NARRATOR_")}
        env.update(NARRATOR_HOME=str(home), PYTHONPATH=str(self.checkout), PYTHONDONTWRITEBYTECODE="1")
        out_path, err_path = work / "stdout.txt", work / "stderr.txt"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(argv, cwd=self.checkout, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=env, start_new_session=True)
            rc: Any = None
            deadline = time.monotonic() + TIMEOUT
            while rc is None:
                try:
                    rc = proc.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    if stop is not None and stop(read_records(tpath)):
                        end_group(proc)
                        rc = "stopped"
                    elif time.monotonic() > deadline:
                        end_group(proc)
                        rc = "timeout"
        return Run(rc, out_path.read_text("utf-8", "replace"), err_path.read_text("utf-8", "replace"),
                   read_records(tpath), home, work, argv)

    def deal(self, game: str, names: str, seed: int | None, extra: tuple[str, ...] = (),
             digital_phones: bool = False) -> dict[str, str]:
        """Each seat's card, read from a first run's private transcript (`wolf.you_are`)."""
        key = (game, names, seed, extra, digital_phones)
        with self._lock:
            lock = self._probe_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._probes:
                seats = names.split(",")

                def dealt(records: list[dict[str, Any]]) -> bool:
                    return len([r for r in records if r.get("line") == "wolf.you_are"]) >= len(seats)

                run = self.run(game, names, seed=seed, answers=["done"], private=True, phones=digital_phones,
                               extra=extra, stop=dealt)
                cards = {r.get("to"): role_of(r.get("text", "")) for r in run.records
                         if r.get("line") == "wolf.you_are"}
                if set(cards) != set(seats) or None in cards.values():
                    self._probes[key] = Fail(f"the deal could not be read (probe {run.why()}, "
                                             f"{len(cards)} wolf.you_are records)")
                else:
                    self._probes[key] = {n: cards[n] for n in seats}
            found = self._probes[key]
        if isinstance(found, Fail):
            raise found
        return found


def read_records(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text("utf-8", "replace").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass  # a line being written
    return records


def end_group(proc: subprocess.Popen) -> None:
    """Stop the process this script started (its own session), by its id."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def role_of(text: str) -> str | None:
    m = re.match(r"あなたは(.+?)(?:\d+枚)?です。", text)
    return ROLE_WORDS.get(m.group(1)) if m else None


# --- a game of nights on paper (werewolf, tabula) ----------------------------------------------

CHOOSERS = {  # game: the night steps whose holders choose, in the file's order, with their first night
    "werewolf": [("seer", 1), ("knight", 2), ("werewolf", 2)],
    "tabula": [("seer", 1), ("hunter", 2), ("werewolf", 2)],
}
GUARDS = ("knight", "hunter")


class Table:
    """The docs' rules, played on paper to write a scripted game's answers and foresee its end:
    the seer divines (a fox divined dies), each knight guards one (not himself), each living wolf
    picks (the most picked is the victim, a tie the first picked), the victim dies unless guarded
    or the fox; the village wins with no wolf alive, the wolves when as many as the rest (the fox
    counting on neither side), the fox instead of either while alive.

    `picks[(night, player)]` and `votes[day]` override the defaults (the seer and a knight take
    the first other living player, the wolves the first living non-wolf, the vote the first living
    wolf). Passing one device (`mode="passed"`), the night's answers are in seat order; on the
    phones, call by call, each call's living holders in seat order."""

    def __init__(self, game: str, deal: dict[str, str], mode: str, picks: dict | None = None,
                 votes: dict | None = None):
        self.game, self.deal, self.mode = game, deal, mode
        self.seats = list(deal)
        self.alive = list(deal)
        self.picks, self.votes = picks or {}, votes or {}
        self.lines: list[str] = ["done"]
        self.deaths: dict[int, list[str]] = {}  # night: who died in it
        self.executed: dict[int, str] = {}
        self.winner: str | None = None
        self.results: dict[str, list[str]] = {}  # seer: whom they divined

    def living(self, role: str) -> list[str]:
        return [p for p in self.alive if self.deal[p] == role]

    def pick(self, night: int, player: str) -> str:
        if (night, player) in self.picks:
            target = self.picks[(night, player)]
            return target(self) if callable(target) else target
        role = self.deal[player]
        if role == "werewolf":
            return next(p for p in self.alive if self.deal[p] != "werewolf")
        return next(p for p in self.alive if p != player)

    def night(self, n: int) -> None:
        choosing = [(role, first) for role, first in CHOOSERS[self.game] if n >= first]
        chosen: dict[str, str] = {}
        if self.mode == "passed":
            for p in self.alive:
                if any(self.deal[p] == role for role, _ in choosing):
                    chosen[p] = self.pick(n, p)
                    self.lines.append(chosen[p])
        else:
            for role, _ in choosing:
                for p in self.living(role):
                    chosen[p] = self.pick(n, p)
                    self.lines.append(chosen[p])
        dead: list[str] = []
        for p in self.seats:  # the seers divine: a fox divined dies in the night
            if p in chosen and self.deal[p] == "seer":
                self.results.setdefault(p, []).append(chosen[p])
                if self.deal[chosen[p]] == "fox":
                    dead.append(chosen[p])
        guarded = {chosen[p] for p in chosen if self.deal[p] in GUARDS}
        wolf_picks = [chosen[p] for p in self.seats if p in chosen and self.deal[p] == "werewolf"]
        if wolf_picks:
            most = max(wolf_picks.count(v) for v in wolf_picks)
            victim = next(v for v in wolf_picks if wolf_picks.count(v) == most)
            if victim not in guarded and self.deal[victim] != "fox" and victim not in dead:
                dead.append(victim)
        self.deaths[n] = [p for p in self.seats if p in dead]
        self.alive = [p for p in self.alive if p not in dead]

    def check(self) -> str | None:
        wolves = len(self.living("werewolf"))
        rest = len([p for p in self.alive if self.deal[p] not in ("werewolf", "fox")])
        side = "village" if wolves == 0 else "werewolves" if wolves >= rest else None
        if side is not None and self.living("fox"):
            return "fox"
        return side

    def play(self, days: int = 8) -> "Table":
        for n in range(1, days + 1):
            self.night(n)
            if (winner := self.check()) is not None:
                self.winner = winner
                return self
            vote = self.votes.get(n) or self.living("werewolf")[0]
            self.lines.append(vote)
            self.executed[n] = vote
            self.alive.remove(vote)
            if (winner := self.check()) is not None:
                self.winner = winner
                return self
        raise Fail("the paper game did not end")


# --- checks shared by scenarios --------------------------------------------------------------


def need(cond: bool, reason: str) -> None:
    if not cond:
        raise Fail(reason)


def played_to_end(run: Run, winner: str | None = None) -> None:
    need(run.rc == 0, f"the game did not play to its end: {run.why()}")
    end = run.end
    need(end is not None, "no end record in the transcript")
    if winner is not None:
        need(end.get("winner") == winner,
             f"the end says {end.get('winner')!r} ({end.get('text')}), the rules {winner!r}")


def at_night(record: dict[str, Any]) -> bool:
    return record.get("night", 0) > record.get("day", 0)


def shared_is_private(run: Run) -> None:
    """What the docs promise of the shared transcript: nothing private, and a night's choices
    in it only as `private: true` answers (no value, no source, no choices), no private question."""
    offences = []
    for r in run.records:
        where = f"{r.get('kind')} {r.get('line')} (night {r.get('night')}, day {r.get('day')})"
        if r.get("kind") == "private":
            offences.append(f"a private record: {where}")
        elif at_night(r) and r.get("kind") == "ask":
            offences.append(f"an ask record at night: {where} '{r.get('text')}'"
                            + (f" with choices {r['choices']}" if "choices" in r else ""))
        elif at_night(r) and r.get("kind") == "answer" and ({"value", "source", "choices"} & set(r)):
            offences.append(f"a night answer with its value: {where} value={r.get('value')!r}")
    need(not offences, f"{len(offences)} in the shared transcript, first {offences[0] if offences else ''}")


def night_records(records: list[dict[str, Any]]) -> dict[int, list[tuple]]:
    """Each night's records as (kind, line, text, seconds since the night began)."""
    nights: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        if at_night(r) and r.get("kind") != "event":
            nights.setdefault(r["night"], []).append(r)
    return {n: [(r.get("kind"), r.get("line"), r.get("text"), round(r["t"] - rs[0]["t"], 2)) for r in rs]
            for n, rs in nights.items()}


def same_nights(one: Run, other: Run, what: str, nights: int | None = None) -> None:
    a, b = night_records(one.records), night_records(other.records)
    both = sorted(set(a) & set(b))[:nights]
    need(bool(both), "no night in both transcripts")
    for n in both:
        for k, (x, y) in enumerate(zip(a[n], b[n])):
            need(x == y, f"night {n} record {k + 1} differs between {what}: {x} vs {y}")
        need(len(a[n]) == len(b[n]), f"night {n} has {len(a[n])} records vs {len(b[n])} between {what}")


def between(run: Run, start_line: str, end_line: str) -> list[dict[str, Any]]:
    """The records from the first `start_line` to the next `end_line`."""
    out, on = [], False
    for r in run.records:
        if r.get("line") == start_line:
            on = True
        if on:
            out.append(r)
            if r.get("line") == end_line and len(out) > 1:
                break
    return out


def asks_after(run: Run, line: str) -> list[dict[str, Any]]:
    """The ask records after the first record of `line`."""
    seen = False
    out = []
    for r in run.records:
        if r.get("line") == line:
            seen = True
        elif seen and r.get("kind") == "ask":
            out.append(r)
    return out


def refused(run: Run, *words: str) -> None:
    """Refused before anything is said: exit 2, one error line (naming `words`), no line spoken."""
    need(run.rc == 2, f"not refused: {run.why()}" + (f", the game said {len(run.lines)} lines" if run.lines else ""))
    need(run.error.startswith("error:"), f"no error line: {run.error!r}")
    for word in words:
        need(word in run.error, f"the refusal does not name {word!r}: {run.error}")
    need(not run.said("say"), "something was said before the refusal")


# --- the scenarios ---------------------------------------------------------------------------

SCENARIOS: list[tuple[str, str, Callable[[Bench], None]]] = []


def scenario(game: str):
    def register(fn: Callable[[Bench], None]) -> Callable[[Bench], None]:
        SCENARIOS.append((game, fn.__name__, fn))
        return fn
    return register


# one-night: physical cards (the default) ..................................................


@scenario("one-night")
def one_finger_each_nobody_executed(b: Bench) -> None:
    """Published rule: with one finger each nobody is executed; the question says so, and with
    nobody executed and a werewolf in a hand the wolves win."""
    run = b.run("one-night", N5, seed=1, answers=["done", "no", "yes"])
    asks = asks_after(run, "wolf.point")
    need(bool(asks), f"no question after the pointing ({run.why()})")
    need("2人以上から指をさされた" in asks[0].get("text", ""),
         f"the vote's question does not ask about two fingers or more: '{asks[0].get('text')}'")
    need(any("処刑された人はいません" in line for line in run.lines), "'処刑された人はいません' not said")
    need(any("人狼のカードを持っている人はいますか" in r.get("text", "") for r in asks),
         "the werewolf cards are not asked about when nobody was executed")
    played_to_end(run, "werewolves")


@scenario("one-night")
def one_finger_each_in_english(b: Bench) -> None:
    """The same in English; no werewolf in a hand and nobody executed: the village wins."""
    run = b.run("one-night", N5, seed=2, lang="en", answers=["done", "no", "no"])
    asks = asks_after(run, "wolf.point")
    need(bool(asks), f"no question after the pointing ({run.why()})")
    need("two or more" in asks[0].get("text", ""),
         f"the vote's question does not ask about two fingers or more: '{asks[0].get('text')}'")
    played_to_end(run, "village")


@scenario("one-night")
def a_tie_executes_both(b: Bench) -> None:
    """Two players with the most fingers: both executed (tie = all); a wolf among them: village."""
    run = b.run("one-night", N4, seed=3, answers=["done", "yes", "Aki,Ben", "yes"])
    executed = [line for line in run.lines if "処刑されます" in line]
    need(bool(executed), f"nobody announced executed ({run.why()})")
    need("Aki" in executed[0] and "Ben" in executed[0], f"not both executed: '{executed[0]}'")
    played_to_end(run, "village")


@scenario("one-night")
def more_than_half_the_table_refused(b: Bench) -> None:
    """Each executed player had two fingers or more: of 4 players at most 2 can be named."""
    run = b.run("one-night", N4, seed=3, answers=["done", "yes", "Aki,Ben,Chika", "yes"])
    need(run.end is None,
         f"three of four players accepted as executed: the end says '{run.end and run.end.get('text')}'")
    need(run.rc == 2 and run.error.startswith("error:"), f"the answer was not refused in one line: {run.why()}")


@scenario("one-night")
def lone_wolf_call_says_so(b: Bench) -> None:
    """The rules sheet: a werewolf without a partner may look at one centre card; the call says so."""
    run = b.run("one-night", N5, seed=4, answers=["done", "no", "no"])
    call = between(run, "wolf.call.one_night_werewolves.wake", "wolf.sleep")
    need(bool(call), f"no werewolves' call in the transcript ({run.why()})")
    need(any("人狼が1人だけなら" in r.get("text", "") for r in call),
         "the werewolves' call does not say a lone wolf may look at a centre card: "
         + " / ".join(r.get("text", "") for r in call if r.get("kind") == "say"))


@scenario("one-night")
def executed_cards_asked_werewolf_among(b: Bench) -> None:
    """Physical cards: the executed turn their cards, the narrator asks whether a werewolf was
    among them; no: the werewolves win."""
    run = b.run("one-night", N5, seed=5, answers=["done", "yes", "Aki", "no"])
    need(any("処刑された人は、カードを表にしてください。" in line for line in run.lines),
         "'処刑された人は、カードを表にしてください。' not said")
    asks = [r.get("text", "") for r in asks_after(run, "wolf.point")]
    need("処刑された人の中に、人狼はいましたか？" in asks,
         f"not asked '処刑された人の中に、人狼はいましたか？': asked {asks}")
    played_to_end(run, "werewolves")


@scenario("one-night")
def device_cards_without_phones_refused(b: Bench) -> None:
    """The thief's swap must come before the seer's look: the cards on the device need the phones
    (refused in one line, exit 2, with an answers file too)."""
    run = b.run("one-night", N5, seed=1, answers=["done", "Aki", "Ben", "yes", "Aki"], extra=("--digital-cards",))
    refused(run, "--phones")


# one-night: the cards on the phones .......................................................


def one_night_lines(deal: dict[str, str], seer: str = "centre", thief: str = "nobody", lone: str = "centre1",
                    vote: list[str] | None = None) -> list[str]:
    """The plain answers of a scripted one-night on the phones: each call's holders in seat order
    (a lone wolf's look, the seer's choice, the thief's), a call whose card is in the centre none."""
    lines = ["done"]
    wolves = [p for p, c in deal.items() if c == "werewolf"]
    if len(wolves) == 1:
        lines.append(lone)
    if "seer" in deal.values():
        lines.append(seer)
    if "thief" in deal.values():
        lines.append(thief)
    return lines + (vote if vote is not None else ["yes", next(iter(deal))])


def find_seed(b: Bench, names: str, want: Callable[[dict[str, str]], bool],
              seeds: range = range(1, 80)) -> tuple[int, dict[str, str]]:
    for seed in seeds:
        deal = b.deal("one-night", names, seed, ("--digital-cards",), digital_phones=True)
        if want(deal):
            return seed, deal
    raise Fail(f"no seed in {seeds.start}..{seeds.stop - 1} deals as wanted")


@scenario("one-night")
def phones_scripted_game_plays_to_end(b: Bench) -> None:
    """On the phones a plain answers file answers each call's holders in seat order; the seer sees
    a player's card, the thief swaps and sees his new card, the narrator turns the executed card."""
    seed, deal = find_seed(b, N5, lambda d: "seer" in d.values() and "thief" in d.values())
    seer = next(p for p, c in deal.items() if c == "seer")
    thief = next(p for p, c in deal.items() if c == "thief")
    target = next(p for p in deal if p not in (seer, thief))
    hands = dict(deal)
    hands[thief], hands[target] = hands[target], hands[thief]
    executed = seer
    winner = ("village" if hands[executed] == "werewolf" else
              "werewolves" if "werewolf" in hands.values() else "nobody")  # nobody: both wolves in the centre
    run = b.run("one-night", N5, seed=seed, phones=True, private=True, extra=("--digital-cards",),
                answers=one_night_lines(deal, seer=thief, thief=target, vote=["yes", executed]))
    played_to_end(run, winner)
    need(any(r.get("line") == "wolf.seen_card" for r in run.private(seer)), f"the seer ({seer}) saw no card")
    need(any(r.get("line") == "wolf.new_card" for r in run.private(thief)), f"the thief ({thief}) saw no new card")
    need(any(r.get("line") == "wolf.reveal" for r in run.records), "the executed card was not turned")


@scenario("one-night")
def centre_card_called_like_a_held_one(b: Bench) -> None:
    """A call sounds and lasts the same whether its card is in a hand or in the centre: the shared
    transcripts' nights of a deal with the seer in a hand and one with it in the centre match."""
    held, held_deal = find_seed(b, N5, lambda d: "seer" in d.values() and "thief" in d.values()
                                and list(d.values()).count("werewolf") == 2)
    centre, centre_deal = find_seed(b, N5, lambda d: "seer" not in d.values() and "thief" in d.values()
                                    and list(d.values()).count("werewolf") == 2)
    one = b.run("one-night", N5, seed=held, phones=True, extra=("--digital-cards",), answers=one_night_lines(held_deal))
    other = b.run("one-night", N5, seed=centre, phones=True, extra=("--digital-cards",),
                  answers=one_night_lines(centre_deal))
    played_to_end(one)
    played_to_end(other)
    same_nights(one, other, f"the seer held (seed {held}) and in the centre (seed {centre})")


@scenario("one-night")
def both_wolves_in_the_centre_nobody_wins(b: Bench) -> None:
    """No wolf card in a hand and somebody executed: the winning team holds no card, nobody wins
    (the narrator says so with the cards on the device)."""
    seed, deal = find_seed(b, "Aki,Ben,Chika", lambda d: "werewolf" not in d.values())
    run = b.run("one-night", "Aki,Ben,Chika", seed=seed, phones=True, extra=("--digital-cards",),
                answers=one_night_lines(deal, vote=["yes", "Aki"]))
    need(run.rc == 0, f"the game did not play to its end: {run.why()}")
    end = run.end or {}
    need("勝者はいません" in end.get("text", ""), f"the end is not 'nobody wins' (seed {seed}): '{end.get('text')}'")


@scenario("one-night")
def lone_wolf_looks_at_a_centre_card(b: Bench) -> None:
    """A lone wolf on the phones picks 中央の1枚目 and sees it (the rules sheet's look)."""
    seed, deal = find_seed(b, N5, lambda d: list(d.values()).count("werewolf") == 1)
    wolf = next(p for p, c in deal.items() if c == "werewolf")
    run = b.run("one-night", N5, seed=seed, phones=True, private=True, extra=("--digital-cards",),
                answers=one_night_lines(deal, lone="centre1"))
    played_to_end(run)
    need(any(r.get("line", "").startswith("wolf.seen_centre") for r in run.private(wolf)),
         f"the lone wolf ({wolf}, seed {seed}) saw no centre card: {[r.get('line') for r in run.private(wolf)]}")


# werewolf and tabula, shared ..............................................................


def unseeded_deals_differ(b: Bench, game: str, names: str) -> None:
    deals, seeds = [], []
    for _ in range(2):
        run = b.run(game, names, answers=["done"], private=True)
        deals.append([r.get("text") for r in run.records if r.get("line") == "wolf.you_are"])
        need(len(deals[-1]) == len(names.split(",")), f"the deal could not be read: {run.why()}")
        metas = list((run.home / "games").glob("*/meta.json"))
        if metas:
            seeds.append(json.loads(metas[0].read_text("utf-8")).get("config", {}).get("seed"))
    need(deals[0] != deals[1], f"two games with no --seed dealt the same cards (seeds {seeds})")


def resumes_after_file_deleted(b: Bench, game: str, names: str, seed: int) -> None:
    """A game of a table's own file (a copy of the shipped one under its own name) stops when the
    answers end (exit 3), the file is deleted, and `narrator resume` plays on to the end."""
    text = (b.checkout / "narrator/games/kernel/games" / f"{game}.toml").read_text("utf-8")
    own = f"house-{game}"
    text = re.sub(r'(?m)^name = "' + game + '"', f'name = "{own}"', text, count=1)
    folder = b.workdir()
    path = folder / f"{own}.toml"
    path.write_text(text, "utf-8")
    flag = ("--game-file", str(path))
    deal = b.deal(None, names, seed, flag)
    table = Table(game, deal, "passed").play()
    first = b.run(None, names, seed=seed, answers=table.lines[:2], extra=flag)
    need(first.rc == 3, f"the game did not stop for want of answers: {first.why()}")
    path.unlink()
    rest = b.run(None, None, answers=table.lines, home=first.home, command="resume")
    played_to_end(rest, table.winner)


def one_side_refused(b: Bench, game: str, names: str, roles: str) -> None:
    run = b.run(game, names, seed=1, answers=["done"], extra=("--roles", roles))
    refused(run)


def passed_plays_to_end(b: Bench, game: str, names: str, seed: int) -> Table:
    deal = b.deal(game, names, seed)
    table = Table(game, deal, "passed").play()
    run = b.run(game, names, seed=seed, answers=table.lines)
    played_to_end(run, table.winner)
    return table


def phones_private(b: Bench, game: str, names: str, seed: int) -> None:
    deal = b.deal(game, names, seed)
    table = Table(game, deal, "phones").play()
    run = b.run(game, names, seed=seed, phones=True, answers=table.lines)
    played_to_end(run, table.winner)
    shared_is_private(run)


def phones_nights_alike(b: Bench, game: str, names: str, seeds: tuple[int, int]) -> None:
    runs = []
    for seed in seeds:
        table = Table(game, b.deal(game, names, seed), "phones").play()
        run = b.run(game, names, seed=seed, phones=True, answers=table.lines)
        played_to_end(run, table.winner)
        runs.append(run)
    same_nights(runs[0], runs[1], f"seeds {seeds[0]} and {seeds[1]}")


# werewolf ..................................................................................


@scenario("werewolf")
def ww_unseeded_games_deal_differently(b: Bench) -> None:
    """Two games with no --seed: a fresh seed each, so the cards differ."""
    unseeded_deals_differ(b, "werewolf", N8)


@scenario("werewolf")
def ww_passed_device_plays_to_end(b: Bench) -> None:
    """No phones: one device passed round, the night's choices in seat order; the game is won."""
    passed_plays_to_end(b, "werewolf", N8, 1)


@scenario("werewolf")
def ww_passed_shared_transcript_keeps_nights_private(b: Bench) -> None:
    """Passing the device, nothing private reaches the shared transcript: no private record, no
    night question, no night answer with its value."""
    deal = b.deal("werewolf", N8, 1)
    table = Table("werewolf", deal, "passed").play()
    run = b.run("werewolf", N8, seed=1, answers=table.lines)
    played_to_end(run, table.winner)
    shared_is_private(run)


@scenario("werewolf")
def ww_passed_nights_sound_alike_for_two_deals(b: Bench) -> None:
    """Passing the device, a hand-over tells the table nothing: two deals with the same players
    dead (Aki executed on day 1, the same victim on night 2) give the same first two nights."""
    deals = {seed: b.deal("werewolf", N8, seed) for seed in (1, 2)}
    need(deals[1] != deals[2], "seeds 1 and 2 dealt alike")
    victim = next(p for p in deals[1] if p != "Aki" and all(d[p] != "werewolf" for d in deals.values()))
    runs = []
    for seed, deal in deals.items():
        knight = next(p for p, c in deal.items() if c == "knight")
        picks = {(2, w): victim for w, c in deal.items() if c == "werewolf"}
        picks[(2, knight)] = next(p for p in deal if p not in ("Aki", knight, victim))
        table = Table("werewolf", deal, "passed", picks=picks, votes={1: "Aki"}).play()
        need(table.deaths.get(2) == [victim], f"the paper game's night 2 did not kill {victim}")
        run = b.run("werewolf", N8, seed=seed, answers=table.lines)
        played_to_end(run, table.winner)
        runs.append(run)
    same_nights(runs[0], runs[1], "seeds 1 and 2", nights=2)


@scenario("werewolf")
def ww_phones_shared_transcript_keeps_nights_private(b: Bench) -> None:
    """On the phones the same: each call's round one `private: true` answer, nothing else."""
    phones_private(b, "werewolf", N8, 1)


@scenario("werewolf")
def ww_phones_nights_sound_alike_for_two_deals(b: Bench) -> None:
    """Every call the same length whoever holds the card: two deals' nights match record for record."""
    phones_nights_alike(b, "werewolf", N8, (1, 2))


def refusal_names_nothing(b: Bench, game: str, names: str, seed: int, phones: bool) -> None:
    """A night choice that does not fit is refused naming neither the call, the holder nor the
    choices: only 「not a choice of this night call」 (the whole table reads the terminal)."""
    deal = b.deal(game, names, seed)
    seer = next(p for p, c in deal.items() if c == "seer")
    run = b.run(game, names, seed=seed, phones=phones, answers=["done", seer])  # the seer divines himself
    need(run.rc == 2, f"the seer divining himself was not refused: {run.why()}")
    told = [w for w in ("wolf.call", "seer", "占い", *(n for n in deal if n != seer)) if w in run.error]
    need(not told, f"the refusal names {told}: {run.error}")
    need(run.error.startswith("error:"), f"no error line: {run.error}")


@scenario("werewolf")
def ww_phones_refusal_names_nothing(b: Bench) -> None:
    refusal_names_nothing(b, "werewolf", N5, 1, phones=True)


@scenario("werewolf")
def ww_passed_refusal_names_nothing(b: Bench) -> None:
    refusal_names_nothing(b, "werewolf", N5, 1, phones=False)


@scenario("werewolf")
def ww_game_file_resumes_after_deletion(b: Bench) -> None:
    resumes_after_file_deleted(b, "werewolf", N5, 1)


@scenario("werewolf")
def ww_dry_run_shows_fourth_day(b: Bench) -> None:
    """The discussion shortens 5, 4, 3, then 2 minutes: the plan shows the 4th day's 120 s."""
    run = b.run("werewolf", N5, extra=("--dry-run",), transcript=False, plain=True)
    need(run.rc == 0, f"the dry run failed: {run.why()}")
    day = [line for line in run.lines if "discussion" in line or "話し合い" in line]
    need(bool(day), "no discussion in the dry run's plan")
    need(any("120" in line for line in day), f"the 4th day's 120 s is not shown: '{day[0]}'")


@scenario("werewolf")
def ww_five_werewolves_refused(b: Bench) -> None:
    """A set of one side is won before it starts: refused in one line, exit 2."""
    one_side_refused(b, "werewolf", N5, "werewolf=5")


@scenario("werewolf")
def ww_two_seers_each_divine(b: Bench) -> None:
    """With two seers each divines and sees their own result."""
    roles = ("--roles", "villager=2,werewolf=1,seer=2,knight=1")
    deal = b.deal("werewolf", N5 + ",Fumi", 2, roles)
    table = Table("werewolf", deal, "passed").play()
    run = b.run("werewolf", N6, seed=2, answers=table.lines, extra=roles, private=True)
    played_to_end(run, table.winner)
    for seer in (p for p, c in deal.items() if c == "seer"):
        results = [r for r in run.private(seer) if r.get("line", "").startswith("wolf.result.") and r.get("night") == 1]
        need(bool(results), f"the seer {seer} saw no result on night 1")


@scenario("werewolf")
def ww_two_knights_each_guard(b: Bench) -> None:
    """With two knights each guards: the wolf's victim guarded by the second knight survives."""
    roles = ("--roles", "villager=2,werewolf=1,seer=1,knight=2")
    seed = 3
    deal = b.deal("werewolf", N6, seed, roles)
    knights = [p for p, c in deal.items() if c == "knight"]
    wolf = next(p for p, c in deal.items() if c == "werewolf")
    villagers = [p for p, c in deal.items() if c == "villager"]
    day1 = villagers[0]  # the village executes a villager on day 1; the game goes on
    victim = next(p for p in deal if p not in (wolf, day1, knights[1]))
    other = next(p for p in deal if p not in (victim, knights[0], day1))
    picks = {(2, knights[0]): other, (2, knights[1]): victim, (2, wolf): victim}
    table = Table("werewolf", deal, "passed", picks=picks, votes={1: day1})
    table.play()
    need(table.deaths[2] == [], "the paper game's second night is not peaceful")  # the scenario's own check
    run = b.run("werewolf", N6, seed=seed, answers=table.lines, extra=roles, private=True)
    morning = [r for r in run.records if r.get("day") == 2 and r.get("line") in ("wolf.no_death", "wolf.killed")]
    need(bool(morning), f"no second morning: {run.why()}")
    need(morning[0].get("line") == "wolf.no_death",
         f"{victim}, guarded by the second knight {knights[1]}, was killed: '{morning[0].get('text')}'")
    played_to_end(run, table.winner)


@scenario("werewolf")
def ww_night_choice_not_undone(b: Bench) -> None:
    """An undo after a night choice takes nothing back: the narrator says so and asks again."""
    deal = b.deal("werewolf", N5, 1)
    table = Table("werewolf", deal, "passed").play()
    lines = table.lines[:2] + ["undo"] + table.lines[2:]
    run = b.run("werewolf", N5, seed=1, answers=lines)
    need(any("取り消せません" in line for line in run.lines), f"no 「…取り消せません。」 after the undo ({run.why()})")
    played_to_end(run, table.winner)


# tabula ....................................................................................


@scenario("tabula")
def tb_calls_say_psychic_and_hunter(b: Bench) -> None:
    """Tabula's own names: its calls wake the 霊能者 and the 狩人, never 霊媒師 or 騎士."""
    deal = b.deal("tabula", N8, 1)
    table = Table("tabula", deal, "phones").play()
    run = b.run("tabula", N8, seed=1, phones=True, answers=table.lines)
    played_to_end(run, table.winner)
    wakes = [r.get("text", "") for r in run.records if r.get("line", "").endswith(".wake") and r.get("night") == 2]
    need(any("霊能者" in w for w in wakes), f"no 霊能者 woken on night 2: {wakes}")
    need(any("狩人" in w for w in wakes), f"no 狩人 woken on night 2: {wakes}")
    wrong = [line for line in run.lines if "霊媒師" in line or "騎士" in line]
    need(not wrong, f"werewolf's names said: '{wrong[0] if wrong else ''}'")


@scenario("tabula")
def tb_set_names_psychic_and_hunter(b: Bench) -> None:
    """The set to take out: 霊能者1枚、狩人1枚; werewolf's names still accepted in --roles."""
    run = b.run("tabula", N8, extra=("--dry-run",), transcript=False, plain=True)
    need(run.rc == 0, f"the dry run failed: {run.why()}")
    box = next((line for line in run.lines if line.startswith("今回使うカード")), "")
    need("霊能者1枚" in box and "狩人1枚" in box, f"the set does not name 霊能者 and 狩人: '{box}'")
    roles = ("--roles", "村人=1,人狼=2,狂人=1,占い師=1,霊媒師=1,騎士=1,妖狐=1")
    run = b.run("tabula", N8, extra=("--dry-run", *roles), transcript=False, plain=True)
    need(run.rc == 0, f"--roles with 霊媒師/騎士 refused: {run.why()}")
    box = next((line for line in run.lines if line.startswith("今回使うカード")), "")
    need("霊能者1枚" in box and "狩人1枚" in box, f"with werewolf's names the set is not 霊能者/狩人: '{box}'")


@scenario("tabula")
def tb_unseeded_games_deal_differently(b: Bench) -> None:
    unseeded_deals_differ(b, "tabula", N8)


@scenario("tabula")
def tb_passed_device_plays_to_end(b: Bench) -> None:
    passed_plays_to_end(b, "tabula", N8, 2)


@scenario("tabula")
def tb_passed_shared_transcript_keeps_nights_private(b: Bench) -> None:
    deal = b.deal("tabula", N8, 2)
    table = Table("tabula", deal, "passed").play()
    run = b.run("tabula", N8, seed=2, answers=table.lines)
    played_to_end(run, table.winner)
    shared_is_private(run)


@scenario("tabula")
def tb_phones_shared_transcript_keeps_nights_private(b: Bench) -> None:
    phones_private(b, "tabula", N8, 2)


@scenario("tabula")
def tb_game_file_resumes_after_deletion(b: Bench) -> None:
    resumes_after_file_deleted(b, "tabula", N8, 3)


@scenario("tabula")
def tb_one_side_refused(b: Bench) -> None:
    one_side_refused(b, "tabula", N8, "werewolf=8")


@scenario("tabula")
def tb_fox_dies_divined(b: Bench) -> None:
    """A divined fox dies in the night and is named in the morning; alive at the end it would win."""
    seed = 4
    deal = b.deal("tabula", N8, seed)
    seer = next(p for p, c in deal.items() if c == "seer")
    fox = next(p for p, c in deal.items() if c == "fox")
    table = Table("tabula", deal, "passed", picks={(1, seer): fox}).play()
    run = b.run("tabula", N8, seed=seed, answers=table.lines)
    killed = [r.get("text", "") for r in run.records if r.get("line") == "wolf.killed" and r.get("day") == 1]
    need(killed and fox in killed[0], f"the fox {fox}, divined on night 1, is not named dead in the morning: {killed}")
    played_to_end(run, table.winner)


@scenario("tabula")
def tb_fox_survives_and_wins(b: Bench) -> None:
    """The wolves' attack on the fox fails; the fox alive when the village wins takes the win."""
    seed = 5
    deal = b.deal("tabula", N8, seed)
    fox = next(p for p, c in deal.items() if c == "fox")
    wolves = [p for p, c in deal.items() if c == "werewolf"]
    picks = {(2, w): fox for w in wolves}
    seer = next(p for p, c in deal.items() if c == "seer")
    picks.update({(n, seer): (lambda t: next(p for p in t.alive if p not in (seer, fox))) for n in range(1, 9)})
    table = Table("tabula", deal, "passed", picks=picks).play()
    need(table.winner == "fox" and fox not in table.deaths.get(2, []), "the paper game expected the fox's win")
    run = b.run("tabula", N8, seed=seed, answers=table.lines)
    played_to_end(run, "fox")


@scenario("tabula")
def tb_masons_see_each_other(b: Bench) -> None:
    """Two 共有者 wake on the first night and each sees the other."""
    deal = b.deal("tabula", N9, 1)
    masons = [p for p, c in deal.items() if c == "mason"]
    need(len(masons) == 2, f"the set for 9 has {len(masons)} masons")
    table = Table("tabula", deal, "passed").play()
    run = b.run("tabula", N9, seed=1, answers=table.lines, private=True)
    played_to_end(run, table.winner)
    for me, other in (masons, masons[::-1]):
        seen = [r.get("text", "") for r in run.private(me) if r.get("line") == "wolf.partners"]
        need(any(other in s for s in seen), f"the mason {me} did not see {other}: {seen}")


# --- main ------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=4, help="scenarios run at once (default 4)")
    parser.add_argument("-k", dest="only", default=None, help="only the scenarios whose name contains this")
    parser.add_argument("--keep", action="store_true", help="keep the runs' folders (printed)")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    if not (checkout / ".venv" / "bin" / "python").exists():
        print(f"error: {checkout}/.venv/bin/python not found", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="kernel-scenarios-"))
    bench = Bench(checkout, root)
    chosen = [s for s in SCENARIOS if args.only is None or args.only in s[1]]

    def one(item: tuple[str, str, Callable[[Bench], None]]) -> tuple[bool, str]:
        _, name, fn = item
        try:
            fn(bench)
            return True, ""
        except Fail as fail:
            return False, str(fail)
        except Exception as err:
            return False, f"{type(err).__name__}: {err}"

    started = time.monotonic()
    print(f"# {checkout} ({git_head(checkout)})", flush=True)
    totals: dict[str, list[int]] = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (game, name, _), (ok, reason) in zip(chosen, pool.map(one, chosen)):
            print(f"ok {name}" if ok else f"FAIL {name}: {reason}", flush=True)
            total = totals.setdefault(game, [0, 0])
            total[0] += ok
            total[1] += 1
    for game, (passed, count) in totals.items():
        print(f"{game}: {passed}/{count}")
    print(f"all: {sum(p for p, _ in totals.values())}/{sum(c for _, c in totals.values())} "
          f"({time.monotonic() - started:.0f} s)")
    if args.keep:
        print(f"runs kept in {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def git_head(checkout: Path) -> str:
    try:
        head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return (head or "not a git checkout") + (", with uncommitted changes" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout"


if __name__ == "__main__":
    sys.exit(main())
