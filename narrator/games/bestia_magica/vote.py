"""The day's vote: who may vote for whom, the tally with Sole/Mese, the revote, the end check.

Rule text: the most votes, attribute abilities considered, is executed, and whom the
attribute affected is never said; a tie is voted again by the others among the tied,
with attributes off; still tied, the GM draws at random (here: `random.Random` seeded by
the config seed and the day). The end check counts sides as P-BM-8 says.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState, Player, role_spec

DEMONS = ("demon", "sleep_demon")


def weighted_tally(config: BMConfig, state: BMState, votes: dict[str, str], attribute: str | None) -> dict[str, int]:
    """Each candidate's score; `attribute` "S"/"M" applies the house rule's effect (P-BM-3)."""
    scores: Counter[str] = Counter()
    for voter, choice in votes.items():
        weight = 1
        voter_attr = state.player(voter).attribute
        target_attr = state.player(choice).attribute
        if attribute == "S":
            effect = config.rules["sole_effect"]
            if (effect == "double_vote" and voter_attr == "S") or (effect == "votes_for_double" and target_attr == "S"):
                weight = 2
        elif attribute == "M":
            effect = config.rules["mese_effect"]
            if effect == "hidden" and target_attr == "M":
                weight = 0
            elif effect == "double_vote" and voter_attr == "M":
                weight = 2
        scores[choice] += weight
    return dict(scores)


def top(state: BMState, scores: dict[str, int]) -> list[str]:
    """The candidates with the highest score (ties in seat order). Only votes that count make a
    candidate: when Mese hides every vote (all worth 0), there is none, and no tie names the
    hidden M-holders (「誰に効果があったのかは公表しない」)."""
    best = max(scores.values(), default=0)
    if best <= 0:
        return []
    order = [p.name for p in state.players]
    return sorted((n for n, s in scores.items() if s == best), key=order.index)


def voters(state: BMState, tie: tuple[str, ...] = ()) -> list[str]:
    """Who votes: every living player; in a revote, the living players who are not tied."""
    return [n for n in state.living_names() if n not in tie]


def vote_choices(state: BMState, voter: str, tie: tuple[str, ...] = ()) -> tuple[str, ...]:
    if tie:
        return tie
    return tuple(n for n in state.living_names() if n != voter)


def end_role(config: BMConfig, player: Player) -> str:
    """The role a player counts as at the end check: a reform pending from tonight counts as
    town only under the house rule `reform_counts_at_end` (FAQ: 町民 "from the next night")."""
    if player.reform_pending and config.rules["reform_counts_at_end"]:
        return "townsperson"
    return player.role


def counts(config: BMConfig, state: BMState) -> dict[str, int]:
    """P-BM-8: living town-team players and living beasts (evil humans per evil_count)."""
    living = [role_spec(end_role(config, p)) for p in state.living()]
    town = sum(1 for spec in living if spec["count"] == "town")
    evil = 0
    if config.rules["evil_count"] == "beasts":
        evil = sum(1 for spec in living if spec["count"] == "none" and spec["team"] == "beasts")
    beast_cards = sum(1 for p in state.living() if p.role == "beast")
    return {"town": town, "beasts": beast_cards + evil, "beast_cards": beast_cards}


def base_result(config: BMConfig, state: BMState) -> str | None:
    """Rule 11 before the demon override: "town", "beasts", or None while the game goes on."""
    c = counts(config, state)
    if c["beast_cards"] == 0:
        return "town"
    if c["town"] <= c["beasts"]:
        return "beasts"
    return None


def winner(config: BMConfig, state: BMState) -> str | None:
    """The winning team if the game has ended, else None (rule 11 and the demon override)."""
    result = base_result(config, state)
    if result is None:
        return None
    demons = any(p.alive and p.role in DEMONS for p in state.players)
    angel = any(p.alive and p.role == "angel" for p in state.players)
    if demons and not angel:
        return "demons"
    return result


def ending_lines(config: BMConfig, state: BMState, team: str) -> tuple[str | None, str]:
    """(a line said first, or None; the `End` line). The demon team's ending first says how
    the game ended, then who of the demon team survived (悪魔, 睡魔 or both) and whether the
    angel died or was never dealt: each case its own line."""
    if team != "demons":
        return None, f"bm.end.{team}"
    alive = [role for role in DEMONS if any(p.alive and p.role == role for p in state.players)]
    who = "both" if len(alive) == 2 else alive[0]
    angel = "dead" if any(p.role == "angel" for p in state.players) else "absent"
    return f"bm.end.reason.{base_result(config, state)}", f"bm.end.demons.{who}.{angel}"


def winners(config: BMConfig, state: BMState, team: str) -> list[str]:
    """Everyone on the winning team, dead or alive, by the role they hold at the end."""
    return [p.name for p in state.players if role_spec(end_role(config, p))["team"] == team]


def describe(votes: dict[str, Any]) -> dict[str, str]:
    return {voter: answer["vote"] for voter, answer in votes.items()}
