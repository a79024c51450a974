"""Reading the words of the vocabulary that Japanese tables' variants need (猫又, 狂信者, 背徳者,
呪狼, 白狼, 初日占い白通知, 初日犠牲者, 連続ガード禁止, 役欠けなし), each checked once.

Why apart from `parse.py`: that module reads the format every file has; these are the house
rules and roles a village adds, each with its own refusal (one line naming the file, the entry
and the fix). Only checks and plain values here: what each word does is `variants.py`'s.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from narrator.errors import SetupError
from narrator.games.kernel.model import WHEN_ATTACKED, WHEN_EXECUTED, Role, Step

Refuse = Callable[[str, str, str, str], SetupError]
"""`parse._refuse`: (path, entry, problem, fix) -> the one-line error."""
OPTION_NAME = "lower-case letters, digits and underscores"


def options(path: str, table: object, refuse: Refuse) -> dict[str, bool]:
    """`[options]`: the file's house rules by name, each on (true) or off (false) by default."""
    if table is None:
        return {}
    if not isinstance(table, Mapping):
        raise refuse(path, "[options]", "must be a table of house rules", "write [options] white_notice = true")
    out = {}
    for name, default in table.items():
        if not name.replace("_", "").isalnum() or not name.isascii() or name != name.lower():
            raise refuse(path, f"[options] {name}", "is not a name", f"give {OPTION_NAME}")
        if not isinstance(default, bool):
            raise refuse(path, f"[options] {name}", f"'{default}' is not true or false", "give its default: true or false")
        out[name] = default
    return out


def role_keys(path: str, entry: str, spec: Mapping[str, Any], refuse: Refuse) -> dict[str, Any]:
    """A role's death keys: what happens when it is attacked or executed, whom it dies with, and
    whether it curses the seer who divines it."""
    out: dict[str, Any] = {}
    for key, allowed in (("when_attacked", WHEN_ATTACKED), ("when_executed", WHEN_EXECUTED)):
        value = spec.get(key, "dies")
        if value not in allowed:
            raise refuse(path, f"{entry} {key}", f"unknown '{value}'", f"use one of {', '.join(allowed)}")
        out[key] = value
    dies_with = spec.get("dies_with", "")
    if not isinstance(dies_with, str):
        raise refuse(path, f"{entry} dies_with", f"'{dies_with}' is not a role", 'name a role: dies_with = "fox"')
    out["dies_with"] = dies_with
    curses = spec.get("curses_seer", False)
    if not isinstance(curses, bool):
        raise refuse(path, f"{entry} curses_seer", f"'{curses}' is not true or false", "give true or false")
    out["curses_seer"] = curses
    return out


def check_roles(path: str, roles: Mapping[str, Role], known: Callable[[str, str, Any], str], refuse: Refuse) -> dict[str, Role]:
    """Each `dies_with` names another role of the file (by id or alias), as its id."""
    out = dict(roles)
    for rid, role in roles.items():
        if role.dies_with:
            target = known(path, f"[roles.{rid}] dies_with", role.dies_with)
            if target == rid:
                raise refuse(path, f"[roles.{rid}] dies_with", "a role cannot die with itself", "name another role")
            out[rid] = Role(**{**role.__dict__, "dies_with": target})
        if role.when_attacked != "dies" and role.survives_attack:
            raise refuse(path, f"[roles.{rid}] when_attacked", "a role that survives the attack cannot take a wolf with it",
                         "drop survives_attack or when_attacked")
    return out


def step_keys(path: str, entry: str, spec: Mapping[str, Any], action: str, file_options: Mapping[str, bool],
              known: Callable[[str, str, Any], str], refuse: Refuse) -> dict[str, Any]:
    """A step's variant keys: `sees` (a `know` call), `no_repeat`, `if`, `unless`."""
    out: dict[str, Any] = {}
    sees = spec.get("sees")
    if action == "know":
        if sees is None:
            raise refuse(path, f"{entry} sees", 'action = "know" needs the role it is shown', 'add sees = "werewolf"')
        out["sees"] = known(path, f"{entry} sees", sees)
    elif sees is not None:
        raise refuse(path, f"{entry} sees", f"action '{action}' is shown no role", 'give sees to a step with action = "know"')
    for key, field in (("if", "if_"), ("unless", "unless")):
        name = spec.get(key, "")
        if not isinstance(name, str):
            raise refuse(path, f"{entry} {key}", f"'{name}' is not an option's name", f'give one: {key} = "white_notice"')
        if name and name not in file_options:
            raise refuse(path, f"{entry} {key}", f"unknown option '{name}'",
                         f"declare it under [options] ({', '.join(file_options) or 'none yet'})")
        out[field] = name
    barred = spec.get("no_repeat", False)
    if barred is True:
        out["no_repeat"] = "always"
    elif barred is False:
        out["no_repeat"] = ""
    elif isinstance(barred, str) and barred in file_options:  # (a list or a table: refused below)
        out["no_repeat"] = barred
    else:
        raise refuse(path, f"{entry} no_repeat", f"'{barred}' is neither true, false nor an option of the file",
                      "give true, false, or an option declared under [options]")
    if out["no_repeat"] and action not in ("look", "divine", "guard", "attack"):
        raise refuse(path, f"{entry} no_repeat", f"action '{action}' picks nobody to repeat",
                      "give no_repeat to a choosing step (guard, divine …)")
    return out


def game_keys(path: str, game: Mapping[str, Any], teams: tuple[str, ...], roles: Mapping[str, Role],
              known: Callable[[str, str, Any], str], refuse: Refuse) -> dict[str, Any]:
    """`first_victim` (the team whose card the first night's victim holds) and `never_out`."""
    victim = game.get("first_victim", "")
    if victim and victim not in teams:
        raise refuse(path, "[game] first_victim", f"unknown team '{victim}'",
                     f"name the team whose card the first victim holds: {', '.join(teams)}")
    never = game.get("never_out", [])
    if not isinstance(never, list):
        raise refuse(path, "[game] never_out", f"'{never}' is not a list", 'write never_out = ["werewolf"]')
    return {"first_victim": victim, "never_out": tuple(known(path, "[game] never_out", r) for r in never)}


def check_game(path: str, steps: tuple[Step, ...], cards: tuple[str, ...], centre: int, nights: int,
               first_victim: str, never_out: tuple[str, ...], refuse: Refuse) -> None:
    """What the words need of the file: the narrator must know the cards to tell a seer a human
    or to deal the first victim's card; a first victim needs nights until a win; never_out
    needs somewhere out of the hands."""
    hint = next((s for s in steps if s.action == "human_hint"), None)
    if hint is not None and "physical" in cards:
        raise refuse(path, f"[[steps]] '{hint.id}' action", "human_hint needs the narrator to know the cards",
                     'set [game] cards = ["device"]')
    if first_victim and ("physical" in cards or nights):
        raise refuse(path, "[game] first_victim", "a first victim needs the cards on the device and nights until a win",
                     'set cards = ["device"] and nights = 0, or drop first_victim')
    if never_out and not centre and not first_victim:
        raise refuse(path, "[game] never_out", "no card is dealt out of the hands here",
                     "set a centre or a first_victim, or drop never_out")
