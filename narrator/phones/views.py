"""What one phone may see: the only place that decides it.

A view is built for one seated player from the game's state and the question open now.
It holds the table's public facts (phase, night, day, winner), the open question only when
it is public or addressed to this player, and the game's private view for this player
alone (own cards, memos, results). Nothing here is ever built for "everyone": a view for
player A cannot contain player B's private facts because B's facts are never looked up.
Every fact about the game comes through the game contract (`Game.phones`): this room
names no game.
"""

from __future__ import annotations

from typing import Any, Callable

from narrator.cues import Ask
from narrator.games.contract import GameConfig, GameState, PhonePlay, SomeGame

NO_PHONE_PLAY: PhonePlay[GameConfig, GameState] = PhonePlay()
"""For a game without a phone page (never served; `phones.table.check_game` refuses it):
no private view, every choice."""


def phone_play(game: SomeGame) -> PhonePlay[GameConfig, GameState]:
    """How `game` is played on the phones (a game without a phone page: nothing private)."""
    return game.phones or NO_PHONE_PLAY


def valid_choices(game: SomeGame, config: GameConfig, state: GameState | None, name: str | None,
                  ask: Ask) -> tuple[str, ...]:
    """The answers `name` may give to `ask` (a private question's choices are the player's own;
    before the game's first state, which the runner sets before any step, the question's own)."""
    if ask.player is None or name is None or state is None:  # (a private question is only shown to its seat)
        return ask.choices
    return phone_play(game).private_choices(config, state, name, ask.choices)


def may_answer(ask: Ask, name: str) -> bool:
    """A public question is for every seated player; a private one for its player only."""
    return ask.player is None or ask.player == name


def build_view(game: SomeGame, config: GameConfig, shown: GameState | None,
               state: GameState | None, name: str | None,
               open_ask: tuple[int, Ask] | None, texts: Callable[[Ask], dict[str, str]]) -> dict[str, Any]:
    """Everything player `name`'s phone shows now (`name` None: a host screen without a seat).

    Public facts and the cards come from `shown`, the state the narrator has announced;
    the choices a question offers from `state`, the game's state now."""
    play = phone_play(game)
    view: dict[str, Any] = {
        "game": game.name,
        "seat": name,
        "names": list(play.seats(config)),
        **play.table_facts(config, shown),
        "alive": play.alive(config, shown),
        "private": play.private_view(config, shown, name) if shown is not None and name is not None else {},
        "ask": None,
    }
    if open_ask is not None and name is not None:
        serial, ask = open_ask
        if may_answer(ask, name):
            view["ask"] = {
                "serial": serial,
                "line": ask.line,
                "text": texts(ask),
                "choices": list(valid_choices(game, config, state, name, ask)),
                "multiple": ask.multiple,
                "private": ask.player is not None,
            }
    return view
