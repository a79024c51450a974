"""How the test players play Additional Werewolf with digital cards through their phones.

Private questions get a valid choice from the phone's own view; the table nominates an
innocent player (the strategist when one is innocent, so the exchange is played) until
the last day, then the werewolf, so every game runs from joining to the winners.
"""

from __future__ import annotations

from typing import Any

from narrator.games.additional_werewolf import cards


def nominate(table: Any) -> list[str]:
    config, state = table.config, table.state
    wolves = [n for n in config.names if cards.role(config, state, n) == "werewolf"]
    if state.day >= config.days:
        return wolves[:1]
    strategists = [n for n in cards.holders(config, state, "strategist") if n not in wolves]
    innocent = [n for n in config.names if n not in wolves]
    return [(strategists or innocent)[0]]


def choose(table: Any, ask: dict[str, Any]) -> Any:
    """The answer a player gives to `ask` as shown on their phone."""
    if ask["line"] == "nomination.who":
        return nominate(table)
    if ask["choices"] == ["done"]:
        return "done"
    if ask["private"] and ask["line"] == "strategist.give_phone":
        return ask["choices"][-1]
    return ask["choices"][0]
