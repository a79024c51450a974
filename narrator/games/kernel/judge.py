"""Who died in the night and who won: the file's win rules, applied in its order.

Kept apart from the steps so that each rule kind is one small function: `found` (a role
was executed), `peace` (nobody executed and the role is in nobody's hand), `eliminated`
(no living holder of a role), `parity` (its holders as many as the other living), `days`
(the last day is over), `survives` (a third team alive when another rule ends the game
takes the win) and `otherwise`.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.cues import Ask, Cue, End, Say
from narrator.games.kernel import variants
from narrator.games.kernel.model import GameFile
from narrator.games.kernel.state import KConfig, KState
from narrator.games.jsonable import Record


def night_deaths(spec: GameFile, config: KConfig, state: KState) -> tuple[str, ...]:
    """The attack's victim (unless guarded or it survives attacks), any divined role that
    dies when divined (the fox), a seer who divined a 呪狼, and the deaths they take with them
    (a 猫又's wolf, a 背徳者 with the fox: `variants.taken`), in seat order."""
    dead = set()
    attacked = None
    if state.attack and state.attack not in state.guards:
        if not spec.roles[_role(config, state, state.attack)].survives_attack:
            dead.add(state.attack)
            attacked = state.attack
    dead |= {n for n in state.divined if spec.roles[_role(config, state, n)].dies_divined}
    dead |= set(state.cursed)  # a seer who divined a 呪狼
    first = tuple(n for n in config.names if n in dead and n not in state.dead)
    return tuple(n for n in config.names if n in set(first) | set(variants.taken(spec, config, state, first, "night",
                                                                                    attacked)))


def _role(config: KConfig, state: KState, name: str) -> str:
    return state.cards[config.names.index(name)]


def multi_night(spec: GameFile, config: KConfig, state: KState, day_over: bool) -> str | None:
    """The winner once a rule holds (None: play on); `survives` overrides the others."""
    if spec.nights == 1:
        return None
    alive = [n for n in config.names if n not in state.dead]
    roles = [spec.roles[_role(config, state, n)] for n in alive]
    winner = None
    for rule in spec.wins:  # a wolf's rule counts its whole pack (a 白狼 or 呪狼 keeps the wolves alive)
        pack = variants.pack_roles(spec, rule.role) if rule.role else ()
        held = [r for r in roles if r.id in pack]
        if rule.kind == "eliminated" and not held:
            winner = rule.winner
        elif rule.kind == "parity" and held:
            side = held[0].counts_as
            if sum(r.counts_as == side for r in roles) >= sum(r.counts_as != side and r.counts_as != "none" for r in roles):
                winner = rule.winner
        elif rule.kind == "days" and day_over and state.day >= rule.days:
            winner = rule.winner
        if winner:
            break
    if winner:
        for rule in spec.wins:
            if rule.kind == "survives" and any(r.team == rule.team for r in roles):
                return rule.winner
    return winner


def one_night(spec: GameFile, config: KConfig, state: KState, executed: tuple[str, ...]) -> tuple[KState, list[Cue]]:
    """The device knows the cards: it says what the executed hold and judges by the file."""
    cues: list[Cue] = [Say("wolf.executed", {"names": list(executed)})] if executed else [Say("wolf.nobody_executed")]
    cues += [Say("wolf.reveal", {"name": n, "cards": [[f"wolf.role.{_role(config, state, n)}", 1]]}) for n in executed]
    held = [_role(config, state, n) for n in config.names]
    found = [_role(config, state, n) for n in executed]
    for rule in spec.wins:
        if (rule.kind == "found" and rule.role in found) or (
                rule.kind == "peace" and not executed and rule.role not in held) or rule.kind == "otherwise":
            winner = rule.winner if any(spec.roles[r].team == rule.winner for r in held) else NOBODY
            return finish(replace(state, executed=executed, day=max(state.day, 1)), cues, winner, rule.kind)
    raise AssertionError("the file's last win rule is `otherwise`")  # parse.parse_game checks it


NOBODY = "nobody"
"""The winner when the team a rule names holds no card at the table (one-night: both wolves in
the centre and somebody executed): nobody wins, and the narrator says so."""


def found_question(spec: GameFile, config: KConfig, state: KState, index: int) -> tuple[KState, list[Cue]]:
    """Physical cards, somebody executed: ask the `index`-th `found` rule's question (「処刑された
    人の中に、吊り人はいましたか？」), each in the file's order, skipping a role not in the set
    (nobody executed can hold it: a table without a 吊り人 is never asked about one); past the
    last, `otherwise` wins."""
    rules = [r for r in spec.wins if r.kind == "found"]
    first = index == 0
    while index < len(rules) and not config.roles.get(rules[index].role):
        index += 1
    if index >= len(rules):
        return told(spec, state, "otherwise")
    last = not any(config.roles.get(r.role) for r in rules[index + 1:])
    ends = ("yes", "no") if last else ("yes",)
    ask = Ask("wolf.executed_role", ("yes", "no"), {"cards": [[f"wolf.role.{rules[index].role}", 1]]}, ends_game=ends)
    return replace(state, step="ask_found", asked=index), ([Say("wolf.turn_executed")] if first else []) + [ask]


def peace_question(spec: GameFile, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    """Physical cards, nobody executed: does anybody hold the `peace` rule's role (人狼)?"""
    rule = next((r for r in spec.wins if r.kind == "peace"), None)
    if rule is None:
        return told(spec, state, "otherwise", cues=cues)
    ask = Ask("wolf.role_among", ("yes", "no"), {"cards": [[f"wolf.role.{rule.role}", 1]]}, ends_game=("yes", "no"))
    return replace(state, step="ask_peace"), cues + [Say("wolf.turn_all"), ask]


def told(spec: GameFile, state: KState, kind: str, index: int = 0, cues: list[Cue] | None = None) -> tuple[KState, list[Cue]]:
    """Physical cards: the table told which rule holds (`found` (the `index`-th), `peace`, or neither)."""
    rule = ([r for r in spec.wins if r.kind == kind][index:] or [spec.wins[-1]])[0]
    return finish(state, list(cues or []), rule.winner, rule.kind)


def win_line(winner: str) -> str:
    """The line a team's win is said with (`wolf.win.<team>`, a file's own team's in its `[lines]`):
    the narrator's end, and the winner on every phone's result card (`game.table_facts`)."""
    return f"wolf.win.{winner}"


def finish(state: KState, cues: list[Cue], winner: str, rule: str | None = None) -> tuple[KState, list[Cue]]:
    end = End(win_line(winner), winner, outcome={"rule": rule} if rule else {})
    return replace(state, step="over", winner=winner, rule=rule), cues + [end]


def end_reveal(config: KConfig, state: KState) -> list[Cue]:
    """After the winners, who held what, seat by seat (「Aのカードは人狼でした。」), as the other
    games end with their reveal: the table of a game of nights has argued about it for an hour.
    Only the device knows every hand (digital cards); with physical cards they are turned up."""
    if not config.digital_cards or not config.names:
        return []
    return [Say("wolf.reveal_all"), *[Say("wolf.reveal", {"name": n, "cards": [[f"wolf.role.{_role(config, state, n)}", 1]]})
                                       for n in config.names]]


def outcome(config: KConfig, state: KState) -> Record:
    return {"winner": state.winner, "rule": state.rule, "dead": list(state.dead), "executed": list(state.executed)}
