"""What crosses the game contract as data: a value that round-trips through JSON.

A config's and a state's saved form, a log record, a phone's view, a game's record and a
step's context are all JSON, so the rooms see their shape without knowing the game's. Kept
apart from `contract.py` so that `seating.py` (whose defaults the contract names) can say it
too without an import cycle; the rooms take both names from the contract.
"""

from __future__ import annotations

from typing import Mapping, Sequence, Union

Json = Union[str, int, float, bool, None, Sequence["Json"], Mapping[str, "Json"]]
"""A JSON value. Read-only containers (`Sequence`, `Mapping`), so a game's `list[str]` or
tuple of names is one."""

Record = dict[str, Json]
"""A JSON object: a config's or a state's saved form, a phone's view, an outcome, a context."""
