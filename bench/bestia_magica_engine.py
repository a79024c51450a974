"""Bench: a whole 20-player Bestia Magica game through the pure engine, as the runner drives it.

Run on demand: `.venv/bin/python bench/bestia_magica_engine.py`. Prints medians over several
seeded games of (a) the engine alone, (b) the engine plus the store's JSON snapshot of state and
cues after every step (what `narrator play` does), and (c) the naive way to resume: replaying
every event from a fresh state at each step. Ratios are against (b), measured in the same run.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bm_driver import RULES, configure, play

GAMES = 15


def events_of(config, seed):
    """The events of one seeded game (start, continues and answers)."""
    _, _, rounds = play(config, seed=seed)
    answers = iter(a for _, a in rounds)
    events, state = [{"type": "start"}], RULES.new_state()
    state, cues = RULES.advance(config, state, events[0])
    while not state.finished:
        event = {"type": "answer", "value": next(answers)} if cues and cues[-1].kind == "collect" else {"type": "continue"}
        events.append(event)
        state, cues = RULES.advance(config, state, event)
    return events


def engine_only(config, events):
    state = RULES.new_state()
    for e in events:
        state, _ = RULES.advance(config, state, e)


def with_snapshots(config, events):
    state = RULES.new_state()
    for e in events:
        state, cues = RULES.advance(config, state, e)
        text = json.dumps({"state": state.to_dict(), "cues": [c.to_dict() for c in cues]}, ensure_ascii=False)
        state = RULES.state_from_dict(json.loads(text)["state"])


def replay_each_step(config, events):
    for n in range(1, len(events) + 1):
        state = RULES.new_state()
        for e in events[:n]:
            state, _ = RULES.advance(config, state, e)


def median_ms(fn, config, runs):
    times = []
    for events in runs:
        t0 = time.perf_counter()
        fn(config, events)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main():
    config = configure(players=20, seed=1)
    runs = [events_of(config, seed) for seed in range(GAMES)]
    steps = statistics.median(len(r) for r in runs)
    a = median_ms(engine_only, config, runs)
    b = median_ms(with_snapshots, config, runs)
    c = median_ms(replay_each_step, config, runs)
    print(f"20 players, {GAMES} seeded games, median {steps:.0f} steps per game")
    print(f"engine only:              {a:8.2f} ms/game")
    print(f"engine + JSON snapshots:  {b:8.2f} ms/game  (ratio 1.00)")
    print(f"naive replay every step:  {c:8.2f} ms/game  (ratio {c / b:.2f})")


if __name__ == "__main__":
    main()
