"""A change of the player count keeps the table's names: grown with default seats, shrunk to the first.

A table file with five names that is set to eight players used to be refused (five names for
eight seats), and the host screen's only way out, the recommended settings, wiped everything.
A host growing the table expects the five seats kept and three more added; shrinking it, the
first seats kept. So a table-file edit that sets `players` fits the file's `names` to it
(`fit`): the names given stay, in seat order, with their readings (`名前:よみ`); the seats
added are named by the game itself (its names for a table of that size that names nobody,
`Game.names`: Bestia Magica's default seats), and where the game names no seat (Additional
Werewolf numbers them, and a number is no name), by the voice pack's `appliance.default_seat`
line in the table's language (「6番さん」). An edit that sets the names alone sets the count to
them (`count_for`: the names name every seat). `narrator play --players 8 --names a,b,c` is
still refused: two values typed together that disagree are a typo, not a wish to grow the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from narrator.games import get_game
from narrator.settings import DEFAULT_GAME, build_settings
from narrator.values.readers import MAX_PLAYERS

if TYPE_CHECKING:  # the pack is loaded only when a seat needs its name
    from narrator.sound.voicepack import VoicePack


def entries(value: object) -> list[str]:
    """The names key's entries as written (`名前:よみ` kept), empty ones dropped."""
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        return []
    return [i.strip() for i in items if i.strip()]


def fit(table: Mapping[str, Any], players: int) -> list[str] | None:
    """The `names` entries for `players` seats, or None when the table names nobody (nothing
    to fit) or already names exactly that many. Shrinking keeps the first `players` names."""
    given = entries(table.get("names"))
    if not given or len(given) == players or not isinstance(players, int) or isinstance(players, bool) \
            or not 0 < players <= MAX_PLAYERS:
        return None
    if len(given) > players:
        return given[:players]
    taken = {g.replace("：", ":").partition(":")[0].strip().casefold() for g in given}
    defaults = game_default_names(table, players)
    pack = _pack(_lang(table))
    out = list(given)
    for seat in range(len(given) + 1, players + 1):
        candidates = [defaults[seat - 1]] if seat <= len(defaults) else []
        candidates += [seat_name(pack, n) for n in (seat, *range(players + 1, 2 * players + 2))]
        name = next(c for c in candidates if c and c.casefold() not in taken)  # 2n+1 numbers: one is free
        taken.add(name.casefold())
        out.append(name)
    return out


def count_for(table: Mapping[str, Any]) -> int | None:
    """The count a table's new names call for when they alone were changed (the names name
    every seat: five names, five players), or None when the file's count already fits."""
    given, players = entries(table.get("names")), table.get("players")
    if not given or not isinstance(players, int) or isinstance(players, bool) or players == len(given):
        return None
    return len(given)


def game_default_names(table: Mapping[str, Any], players: int) -> tuple[str, ...]:
    """The names the table's game gives the seats of a table of `players` that names nobody
    (its own function: `Game.names` of its configure); empty when it gives none or the table
    does not play without its names (the caller falls back to the pack's seat line)."""
    nameless = {k: v for k, v in table.items() if k not in ("names", "players")}
    nameless["players"] = players
    try:
        settings = build_settings(nameless, {}, "table file")
        game = get_game(str(table.get("game") or DEFAULT_GAME))
        return tuple(game.names(game.configure(settings)))
    except Exception:
        return ()


def seat_name(pack: VoicePack, seat: int) -> str:
    """Seat `seat`'s name as the voice pack words it (`appliance.default_seat`: 6番さん, Seat 6)."""
    return pack.speak("appliance.default_seat", {"n": seat}).text


def _pack(lang: str) -> VoicePack:
    from narrator.sound.voicepack import load_pack

    try:
        return load_pack(lang)
    except Exception:
        return load_pack("ja")


def _lang(table: Mapping[str, Any]) -> str:
    lang = table.get("lang")
    return lang if isinstance(lang, str) and lang else "ja"
