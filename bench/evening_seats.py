"""Seat-code scans per player over an evening of N games of one table (issue 37, item 5).

Each game is a real phone page's seats and keys (`phones.table.make_server`, in a scratch
narrator home), one after the other as `narrator serve` runs them: the settings page's host
screen carried in (carry.py), then the last game's seated phones (seat_carry.py). A seat that
is free when a game opens is one scan of its seat code (the phone joins with it, as the page
does: a token, its key bound). Before issue 37 (`seat_carry.CARRY` off) every game's seats
started free. Then: the same with a table that changes once (seat 5 renamed before game 3).

    python bench/evening_seats.py [--games 5] [--players 8]
"""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
from types import SimpleNamespace


def evening(games: int, players: int, carry_on: bool, rename_at: int | None = None) -> list[int]:
    """Scans per game."""
    from narrator import home
    from narrator.games import get_game
    from narrator.inputs.hub import ListenerHub
    from narrator.phones import carry, seat_carry
    from narrator.phones.seats import new_token
    from narrator.phones.table import make_server
    from narrator.settings import build_settings
    from narrator.table.store import GameStore

    seat_carry.CARRY = carry_on
    page = SimpleNamespace(host_digest=None)
    kept, scans = None, []
    names = [f"P{i}" for i in range(1, players + 1)]
    for number in range(1, games + 1):
        if rename_at == number:
            names[-1] = "renamed"
        settings = build_settings({}, {"game": "additional-werewolf", "players": players, "seed": number,
                                       "phones": True, "digital_cards": "true", "names": ",".join(names)}, "bench")
        rules = get_game("additional-werewolf")
        config = rules.configure(settings)
        store = GameStore.create(home.app_home(), rules.name, config.to_dict(), {})
        server = make_server(rules, config, store, hub=ListenerHub(), lang="ja")
        carry.into_game(page, server)
        seat_carry.into_game(kept, server)
        free = server.seats.free()
        scans.append(len(free))
        for name in free:  # each phone scans its seat's code: a token, its key bound
            token = server.seats.claim(name, new_token())
            server.keys.bind(token, secrets.token_bytes(32))
        kept = seat_carry.after_game(server)
        store.close()
    return scans


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["NARRATOR_HOME"] = scratch
        for label, carry_on, rename in (("before (no carry)", False, None), ("after", True, None),
                                        ("after, seat renamed before game 3", True, 3)):
            scans = evening(args.games, args.players, carry_on, rename)
            print(f"{label:36} scans per game {scans}: {sum(scans) / args.players:.1f} per player "
                  f"over {args.games} games")


if __name__ == "__main__":
    main()
