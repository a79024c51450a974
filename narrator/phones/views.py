"""What one phone may see: the only place that decides it.

A view is built for one seated player from the game's state and the question open now.
It holds the table's public facts (phase, night, day, winner), the open question only when
it is public or addressed to this player, and the game's private view for this player
alone (own cards, memos, results). Nothing here is ever built for "everyone": a view for
player A cannot contain player B's private facts because B's facts are never looked up.
"""

from __future__ import annotations

from typing import Any, Callable

from narrator.cues import Ask
from narrator.games.additional_werewolf import cards as aw_cards

PrivateView = Callable[[Any, Any, str], dict[str, Any]]
PrivateChoices = Callable[[Any, Any, str, tuple[str, ...]], tuple[str, ...]]


def _no_private_view(config: Any, state: Any, name: str) -> dict[str, Any]:
    return {}


def _all_choices(config: Any, state: Any, name: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    return choices


def _bestia_view(config: Any, state: Any, name: str) -> dict[str, Any]:
    """Bestia Magica: the player's own role and attribute (as the pack's private lines)."""
    if not getattr(state, "players", ()) or name not in [p.name for p in state.players]:
        return {}
    from narrator.games.bestia_magica.vote import winners

    player = state.player(name)
    view = {
        "role": player.role, "attribute": player.attribute, "alive": player.alive,
        "lines": [(f"bm.private.card.{player.role}", {"name": name}), (f"bm.private.attr.{player.attribute}", {})],
    }
    if state.winner:
        view["won"] = name in winners(config, state, state.winner)
    return view


GAME_HOOKS: dict[str, tuple[PrivateView, PrivateChoices]] = {
    "additional-werewolf": (aw_cards.private_view, aw_cards.private_choices),
    "bestia-magica": (_bestia_view, _all_choices),
}
"""Per game: (the player's private view, the private choices a player may really pick)."""


def seats_of(config: Any) -> tuple[str, ...]:
    """The seats a phone can claim: the table's names, else numbered seats."""
    names = tuple(getattr(config, "names", ()) or ())
    return names or tuple(str(n) for n in range(1, config.players + 1))


def phase(state: Any) -> str:
    if state is None or getattr(state, "night", 0) == 0:
        return "over" if state is not None and state.finished else "setup"
    if state.finished:
        return "over"
    return "night" if state.night > state.day else "day"


def valid_choices(game: str, config: Any, state: Any, name: str | None, ask: Ask) -> tuple[str, ...]:
    """The answers `name` may give to `ask` (a private question's choices are the player's own)."""
    if ask.player is None:
        return ask.choices
    _, choices = GAME_HOOKS.get(game, (_no_private_view, _all_choices))
    return choices(config, state, name, ask.choices)


def may_answer(ask: Ask, name: str) -> bool:
    """A public question is for every seated player; a private one for its player only."""
    return ask.player is None or ask.player == name


def living(config: Any, state: Any) -> list[str]:
    """The players still in the game (public: every death is announced)."""
    if state is not None and getattr(state, "players", ()):
        return list(state.living_names())
    return list(seats_of(config))


def build_view(game: str, config: Any, shown: Any, state: Any, name: str | None,
               open_ask: tuple[int, Ask] | None, texts: Callable[[Ask], dict[str, str]]) -> dict[str, Any]:
    """Everything player `name`'s phone shows now (`name` None: a host screen without a seat).

    Public facts and the cards come from `shown`, the state the narrator has announced;
    the choices a question offers from `state`, the game's state now."""
    private, _ = GAME_HOOKS.get(game, (_no_private_view, _all_choices))
    view: dict[str, Any] = {
        "game": game,
        "seat": name,
        "names": list(seats_of(config)),
        "phase": phase(shown),
        "night": getattr(shown, "night", 0),
        "day": getattr(shown, "day", 0),
        "winner": getattr(shown, "winner", None),
        "alive": living(config, shown),
        "private": private(config, shown, name) if shown is not None and name is not None else {},
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
