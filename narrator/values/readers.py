"""One typed value, read: a whole number, a number, yes/no, a list, card counts, seconds.

It stands apart from the declarations (`narrator.settings`) because the games' setup modules
read their own options with the same readers, so one key's `2.5` or 「、」 is refused or
accepted exactly as another's; and the bounds that fit a table live here, beside the readers
that hold values to them (a declaration's `high = "MAX_TIMER"` names one of them).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from narrator.errors import Refusal

MAX_PLAYERS = 100
"""A bound against absurd counts (players, cards); each game checks its own range (4–20, 2)."""
MAX_COUNTDOWN = 600
"""Bounds that fit a table (docs/table-file.md): a night call or a look lasts at most 10 minutes,"""
MAX_TIMER = 3600
"""a discussion, a turn or a timer warning at most an hour,"""
MAX_DAYS = 30
"""and a game at most 30 days."""
MAX_TIME_SCALE = 10.0
"""1 is real time; up to ten times slower (a rehearsal), never infinitely."""
MAX_SEED = 2**256
"""Seeds are up to 256 bits (`secrets` makes 128-bit ones)."""
MAX_LIST = 100


LIST_SEPARATORS = ("，", "、")
"""Full-width comma and the Japanese 「、」: a list typed on a Japanese keyboard splits as at ","."""


def split_items(text: str) -> list[str]:
    """The stripped, non-empty items of "a,b、c，d": one rule for every list a table types
    (names, card counts, lists of cards), so 「、」 is never accepted in one and refused in another."""
    for separator in LIST_SEPARATORS:
        text = text.replace(separator, ",")
    return [item.strip() for item in text.split(",") if item.strip()]


def parse_counts(value: object, key: str, source: str, maximum: int = MAX_PLAYERS) -> dict[str, int]:
    """Card counts from a TOML table or a string like "citizen=3,traitor=1" (each 0 … `maximum`)."""
    if isinstance(value, str):
        pairs: dict[str, Any] = {}
        for part in split_items(value):
            name, sep, count = part.replace("＝", "=").partition("=")
            if not sep:
                raise Refusal("counts_entry_form", source=source, key=key, part=part)
            pairs[name.strip()] = count.strip()
        value = pairs
    if not isinstance(value, Mapping):
        raise Refusal("counts_form", source=source, key=key)
    return {str(name): integer(count, f"{key}.{name}", source, minimum=0, maximum=maximum)
            for name, count in value.items()}


def parse_list(value: object, key: str, source: str) -> tuple[str, ...]:
    """A list of words from a TOML list or a comma-separated string."""
    if isinstance(value, str):
        return tuple(split_items(value))
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip() for v in value)
    raise Refusal("list_form", source=source, key=key)


def parse_seconds_list(value: object, key: str, source: str, maximum: int = MAX_TIMER) -> tuple[int, ...]:
    """Seconds from a TOML list or "60,10", largest first (each 1 … `maximum`)."""
    if isinstance(value, (list, tuple)):
        words: Sequence[object] = value
    elif isinstance(value, str):
        words = parse_list(value, key, source)
    else:
        words = [value]
    if len(words) > MAX_LIST:
        raise Refusal("list_too_long", source=source, key=key, count=len(words), most=MAX_LIST)
    return tuple(sorted({integer(w, key, source, minimum=1, maximum=maximum) for w in words}, reverse=True))


def integer(value: object, key: str, source: str, minimum: float | None = None,
            maximum: float | None = None) -> int:
    """A whole number: `true` is not 1, 2.5 and inf are not whole, "1e9" is not a number here."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError
        number = int(value)
        if isinstance(value, float) and number != value:
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise Refusal("not_whole", source=source, key=key, value=shown(value)) from None
    if minimum is not None and number < minimum:
        raise Refusal("too_small", source=source, key=key, least=minimum, value=number)
    if maximum is not None and number > maximum:
        raise Refusal("too_large", source=source, key=key, most=maximum, value=shown(number))
    return number


def shown(value: object) -> str:
    """A value short enough for a one-line error (a fuzzer's 5000-digit number is not)."""
    text = str(value) if not isinstance(value, int) or abs(value) < 10**30 else f"a {len(str(value))}-digit number"
    return text if len(text) <= 40 else text[:37] + "..."


def number(value: object, key: str, source: str, low: float, high: float) -> float:
    """A finite number between `low` and `high` (inf, nan and `true` refused)."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError
        if isinstance(value, str) and not value.strip().isascii():  # float() takes a full-width １
            raise ValueError
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        raise Refusal("not_number", source=source, key=key, value=shown(value)) from None
    if not (math.isfinite(result) and low <= result <= high):
        raise Refusal("out_of_range", source=source, key=key, low=f"{low:g}", high=f"{high:g}",
                      value=shown(value))
    return result


def boolean(value: object, key: str, source: str) -> bool:
    """A yes/no option: TOML true/false, or a flag's word ("true", "1", "no" …); a TOML number is not one."""
    if isinstance(value, bool):
        return value
    word = value.strip().casefold() if isinstance(value, str) else None
    if word in ("true", "yes", "1", "on"):
        return True
    if word in ("false", "no", "0", "off"):
        return False
    raise Refusal("not_boolean", source=source, key=key, value=shown(value))

