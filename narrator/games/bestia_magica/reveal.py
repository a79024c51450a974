"""The post-game reveal: every player's card, then every night's actions and what came of them.

A GM shows the GM memo after the game; the narrator reads it out from the state's history
(the memos, the roles each night began with, the night's events, the votes). Names go
in as one-item lists, so the voice pack writes them as it writes any name (「Akiさん」).
"""

from __future__ import annotations

from narrator.cues import Cue, Say
from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState, role_spec

SHOWN_EVENTS = {"death", "revival"}


def reveal(config: BMConfig, state: BMState) -> list[Cue]:
    cues: list[Cue] = [Say("bm.reveal.begin")]
    for p in state.players:
        cues.append(Say(f"bm.reveal.role.{p.dealt_role}", {"name": [p.name]}))
        cues.append(Say(f"bm.reveal.attr.{p.attribute}"))
        if p.role != p.dealt_role:
            cues.append(Say("bm.reveal.reformed", {"name": [p.name]}))
    for entry in state.history:
        if "night" not in entry:
            if "executed" in entry:
                # two clips, so rendering ahead needs every day and every name, not each pair
                cues.append(Say("bm.reveal.vote", {"day": entry["day"]}))
                cues.append(Say("bm.reveal.executed", {"name": [entry["executed"]]}))
            continue
        cues.append(Say("bm.reveal.night", {"night": entry["night"]}))
        for name, memo in entry["memos"].items():
            action = role_spec(entry["roles"][name])["action"]
            if action != "suspect":
                cues.append(Say(f"bm.reveal.act.{action}", {"name": [name], "target": [memo["target"]]}))
        shown = [e for e in entry["events"] if e["type"] in SHOWN_EVENTS]
        for e in shown:
            line = f"bm.reveal.death.{e['cause']}" if e["type"] == "death" else "bm.reveal.revival"
            cues.append(Say(line, {"name": [e["player"]]}))
        if not any(e["type"] == "death" for e in shown):
            cues.append(Say("bm.reveal.no_death"))
    cues.append(Say("bm.reveal.end"))
    return cues
