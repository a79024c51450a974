"""Soak: hundreds of games in one `narrator serve`, with every seat's phone seated.

Run on demand: `.venv/bin/python bench/soak_serve.py [--games 300] [--every 50]`; with
`PYTHONPATH=OTHER_CHECKOUT` it measures another tree (the code before a change), so before
and after come from the same script. The service's own `serve()` runs in this process (text
voice, instant clock, the phone page on 127.0.0.1) with a table that answers every question
and, when the narrator says the page's address, claims the host screen and every seat (as
phones do, through `Seats.claim`; the server is the one the hub hands views to). Each game
is Additional Werewolf with digital cards (role cards shown privately on the phones).

Printed at each `--every` games: RSS (VmRSS) and open files of this process; at the end,
how many private lines the first game's `phones-private.json` holds against what it showed
in its own game: more means a later game's private lines went into it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

TREE = Path(os.environ.get("PYTHONPATH", Path(__file__).resolve().parent.parent).split(os.pathsep)[0])
sys.path.insert(0, str(TREE))

from narrator.appliance.serve import ServeOptions, serve  # noqa: E402
from narrator.cues import Say  # noqa: E402
from narrator.errors import NoMoreAnswers  # noqa: E402
from narrator.phones.seats import HOST  # noqa: E402
from narrator.table.saved_games import saved_games  # noqa: E402

NAMES = ["Aki", "Ben", "Chika", "Dai", "Emi"]


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


class SoakDone(Exception):
    """Raised into the service after the last game (no NarratorError: nothing catches it)."""


class SeatedTable:
    """Answers every question; seats every phone when the page is announced; counts games."""

    def __init__(self, games: int, every: int, report):
        self.games, self.every, self.report = games, every, report
        self.played = 0

    def start(self, hub, loop) -> None:
        hub.register("table")
        hub.cue_watchers.append(lambda cue: self._cue(hub, cue))
        loop.create_task(self._run(hub))

    def _cue(self, hub, cue) -> None:
        if isinstance(cue, Say) and cue.line == "phones.join":
            server = [w.__self__ for w in hub._watchers if hasattr(w, "__self__")][-1]
            for name in (HOST, *server.seats.free()):
                server.seats.claim(name)
            server.seats_changed()

    async def _run(self, hub) -> None:
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            if ask.line == "appliance.again":
                self.played += 1
                if self.played % self.every == 0:
                    self.report(self.played)
                if self.played >= self.games:
                    hub.fail(SoakDone())  # the phones' source stays registered: end the service here
                    return
                hub.offer_text("done", "script")
            elif ask.line == "appliance.offer":
                hub.offer_text("yes", "script")
            elif "yes" in ask.choices:
                hub.offer_text("yes", "script")
            elif "done" in ask.choices:
                hub.offer_text("done", "script")
            elif getattr(ask, "multiple", False):
                hub.offer_text(",".join(c for c in ask.choices if c in NAMES), "script")
            else:  # someone else than the asked player, a different one each time (two picks differ)
                others = [c for c in ask.choices if c in NAMES and c != getattr(ask, "player", None)]
                hub.offer_text(others[serial % len(others)], "script")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="narrator-soak-"))
    os.environ["NARRATOR_HOME"] = str(home)
    table = home / "table.toml"
    table.write_text(f'game = "additional-werewolf"\nlang = "en"\nnames = {json.dumps(NAMES)}\n'
                     'digital_cards = true\nphones = true\nhost = "127.0.0.1"\nport = 0\n')
    print(f"tree {TREE}; {args.games} games in one serve, 5 seats and the host screen seated each game")
    print(f"  start: RSS {rss_mib():5.1f} MiB, open files {open_files()}")
    rows = []

    def report(played: int) -> None:
        rows.append((played, rss_mib(), open_files()))
        print(f"  after {played:3d} games: RSS {rows[-1][1]:5.1f} MiB, open files {rows[-1][2]}", flush=True)

    seated = SeatedTable(args.games, args.every, report)
    options = ServeOptions(table=table, keyboard=False, buttons=False, listeners=[seated],
                           overrides={"voice": "text", "time_scale": "0"})
    try:
        serve(options, log=lambda message: None)
    except (NoMoreAnswers, SoakDone):
        pass
    games = saved_games(home)
    first = games[0].folder / "phones-private.json"
    lines = json.loads(first.read_text()) if first.exists() else []
    own = [g for g in games if (g.folder / "phones-private.json").exists()]
    counts = sorted(len(json.loads((g.folder / "phones-private.json").read_text())) for g in own[1:])
    usual = counts[len(counts) // 2] if counts else 0
    print(f"games played: {seated.played}; the first game's phones-private.json holds {len(lines)} private "
          f"lines (a game shows {usual}: median of the others)")
    print(f"games whose private file holds more than that: {sum(c > usual for c in counts) + (len(lines) > usual)}")


if __name__ == "__main__":
    main()
