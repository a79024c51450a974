"""Additional Werewolf on a seat's phone: with digital cards, each player's own cards and
memos and the private choices they may really pick (`cards.py` holds the rules of both).

Physical cards need no phone; digital cards need one at every seat.
"""

from __future__ import annotations

from narrator.games.additional_werewolf.cards import private_choices, private_view
from narrator.games.additional_werewolf.setup import AWConfig

__all__ = ["private_choices", "private_view", "required"]


def required(config: AWConfig) -> str | None:
    """Digital cards are dealt to the phones, so that setup cannot be played without them."""
    return "digital cards are shown on the players' phones" if config.digital_cards else None
