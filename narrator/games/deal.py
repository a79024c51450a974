"""Dealing cards to seats, shared by every game (Additional Werewolf, Bestia Magica and the
rules kernel's game files): the pile from a set's counts, the shuffle from the game's seed,
and who holds a card.

One helper so that the same seed deals the same cards in every game the same way, and a
saved game's log replays to the very deal it was played with: the order a pile is built in
and the draws of one `random.Random` are part of every saved game, so nothing here may
change them. Pure: no audio, files or clock.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping, Sequence, TypeVar

T = TypeVar("T")


def pile(counts: Mapping[str, int], order: Iterable[str] | None = None) -> list[str]:
    """Each card `counts[card]` times, the cards in `order` (default: by name)."""
    cards = list(order) if order is not None else sorted(counts)
    return [card for card in cards for _ in range(counts.get(card, 0))]


def shuffled(seed: int | str, *piles: Sequence[T]) -> tuple[list[T], ...]:
    """Each pile shuffled in turn by one `random.Random(seed)` (the piles' order is part of the deal)."""
    rng = random.Random(seed)
    out = []
    for cards in piles:
        cards = list(cards)
        rng.shuffle(cards)
        out.append(cards)
    return tuple(out)


def holders(names: Sequence[str], cards: Sequence[str], card: str, out: Iterable[str] = ()) -> list[str]:
    """The seats holding `card` (`cards[i]` is `names[i]`'s), in seat order, leaving out `out` (the dead)."""
    gone = set(out)
    return [name for name, held in zip(names, cards) if held == card and name not in gone]
