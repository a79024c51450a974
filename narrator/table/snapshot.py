"""What a saved game's snapshot is, and whether one read back from disk can be used.

The runner makes one at each step's start (the state, the step's cues, the game clock, and how
many events it covers); the store writes it atomically and reads it back. Apart from the store
because this is the one place that decides what a usable snapshot is: a damaged, partial or
another game's snapshot is named in one reason (the store puts the path before it) and never
played; the runner then rebuilds the position from the events log.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

SNAPSHOT_FILE = "snapshot.json"


@dataclass(frozen=True)
class Snapshot:
    event_count: int
    state: dict[str, Any]
    cues: list[dict[str, Any]]
    t: float


def snapshot_from(data: object, game_id: str) -> Snapshot | str:
    """The snapshot `data` (parsed snapshot.json) holds for game `game_id`, or what is wrong
    with it ("belongs to game …", "has no event count", "has no game clock" …)."""
    if not isinstance(data, dict):
        return "is not a snapshot"
    if data.get("game_id", game_id) != game_id:
        return f"belongs to game {data.get('game_id')}"
    count, t, state, cues = data.get("event_count"), data.get("t"), data.get("state"), data.get("cues")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return "has no event count"
    if not isinstance(state, dict) or not isinstance(cues, list):
        return "has no state or cues"
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t) or t < 0:
        return "has no game clock"
    return Snapshot(count, state, cues, float(t))
