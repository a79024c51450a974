"""The private inputs: who is asked what, which targets are legal, and checking the answers.

Every living player writes a memo every night (a chosen player and the yes/no attribute
questionnaire), so that nobody stands out by writing. What the chosen player means depends
on the role: attack, protect, divine, kill, reform, curse, sleep, or suspect. The legal
targets travel inside each `Request`, so a listener (script, screen, phone) can refuse a bad
answer at once; the engine checks again here, naming the player and the night or day.
"""

from __future__ import annotations

from typing import Any

from narrator.cues import Collect, Request
from narrator.errors import AnswerError
from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState, role_spec
from narrator.games.bestia_magica.vote import vote_choices, voters


def night_targets(config: BMConfig, state: BMState, name: str) -> tuple[str, ...]:
    """Whom `name` may choose tonight (living players; beasts never choose a beast)."""
    player = state.player(name)
    action = role_spec(player.role)["action"]
    living = state.living_names()
    if action == "attack":
        return tuple(n for n in living if state.player(n).role != "beast")
    if action == "protect":
        targets = [n for n in living if n != name or config.rules["guard_self"]]
        if not config.rules["guard_repeat"]:
            last = dict(state.last_protect).get(name)
            targets = [n for n in targets if n != last]
        return tuple(targets)
    return tuple(n for n in living if n != name)


def night_collect(config: BMConfig, state: BMState) -> Collect:
    requests = []
    for player in state.living():
        action = role_spec(player.role)["action"]
        requests.append(Request(
            player.name, f"bm.memo.{action}", night_targets(config, state, player.name),
            {"night": state.night}, ability=True,
        ))
    return Collect("night", state.night, tuple(requests), closes_with_timer=_closes(config), seats=config.names)


def _closes(config: BMConfig) -> bool:
    """House rule `missing_answer`: does the timer's end close a round with answers missing?"""
    return config.rules["missing_answer"] == "none"


def vote_collect(config: BMConfig, state: BMState, revote: bool) -> Collect:
    tie = state.tie if revote else ()
    line = "bm.revote.prompt" if revote else "bm.vote.prompt"
    params = {"names": list(tie)} if revote else {}
    requests = tuple(
        Request(v, line, vote_choices(state, v, tie), params, key="vote") for v in voters(state, tie)
    )
    return Collect("revote" if revote else "vote", state.day, requests, closes_with_timer=_closes(config),
                   seats=config.names)


def check_answers(collect: Collect, value: object) -> dict[str, dict[str, Any]]:
    """Every requested player's answer, checked against its request; else one clear line.

    A round that closes with its timer may lack answers: those players are left out (no
    action, no "yes", no vote)."""
    where = f"{'night' if collect.phase == 'night' else 'day'} {collect.number}"
    what = "memo" if collect.phase == "night" else collect.phase
    if not isinstance(value, dict):
        raise AnswerError(f"{where}: expected one {what} per player, got {value!r}")
    requested = {r.player: r for r in collect.requests}
    extra = sorted(set(value) - set(requested))
    if extra:
        raise AnswerError(f"{where}: {extra[0]} may not give a {what} now (dead, unknown, or tied in the revote)")
    out = {}
    for name, request in requested.items():
        if name not in value and collect.closes_with_timer:
            continue
        if name not in value:
            raise AnswerError(f"{where}: no {what} from {name}")
        try:
            out[name] = request.check(value[name])
        except ValueError as err:
            raise AnswerError(f"{where}: {err}") from None
    return out
