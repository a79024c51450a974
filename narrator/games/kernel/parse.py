"""Reading a game file: TOML into the model's dataclasses, every entry checked first.

Why apart from the model: the engine and the rules need the dataclasses only; this is the
part that meets what a table wrote by hand. Anything wrong in a file (an unknown kind, role,
line or key, a step that can never run, an order that contradicts itself) is a `SetupError`
of one line naming the file, the entry and the fix (exit 2 from the CLI), before anything is
said or saved.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import SetupError
from narrator.games.kernel.model import (
    ABSENT, ACTIONS, CARDS, DAY_KEYS, DAY_KINDS, FILE_KEYS, GAME_KEYS, LANGS, ROLE_KEYS, SCENARIO_KEYS, SEEN_AS, STEP_KEYS, TIES, VOTES, WHEN, WHILE, WINS, WIN_KEYS, Day, GameFile, Role, Step, Win, alias_table, fold, role_names,
)
from narrator.games.card_names import joined
from narrator.games.kernel import parse_variants as variants
from narrator.games.spoken_names import spoken_names
from narrator.values.files import read_text_bounded


def read_game_file(path: Path) -> GameFile:
    """Parse and check one file; any problem is one line naming the file, the entry and the fix."""
    text = read_text_bounded(path, "game file", "check the path of the game file")
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as err:  # ValueError: an integer over 4300 digits
        raise SetupError(f"game file {path}: not valid TOML ({err}); fix that line") from None
    return parse_game(data, str(path))


def _refuse(path: str, entry: str, problem: str, fix: str) -> SetupError:
    return SetupError(f"game file {path}: {entry}: {problem}; {fix}")


def _keys(path: str, entry: str, table: object, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(table, Mapping):
        raise _refuse(path, entry, "must be a table", "write it as [" + entry + "]")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _refuse(path, entry, f"unknown key '{unknown[0]}'", f"use one of {', '.join(sorted(allowed))}")
    return table


def _list(path: str, entry: str, value: object) -> list[Any]:
    if not isinstance(value, list):
        raise _refuse(path, entry, f"'{value}' is not a list", "write it as [ … ]")
    return value


def _table_keys(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, Mapping) else ()


def _one_of(path: str, entry: str, value: object, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise _refuse(path, entry, f"unknown {what} '{value}'", f"use one of {', '.join(allowed)}")
    return value


def _whole(path: str, entry: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse(path, entry, f"'{value}' is not a whole number from {low} to {high}", "give one")
    return value


def parse_game(data: Mapping[str, Any], path: str) -> GameFile:
    """The checked `GameFile` of a parsed TOML document (`path` names it in errors)."""
    _keys(path, "the file", data, FILE_KEYS)
    game = _keys(path, "[game]", data.get("game"), GAME_KEYS)
    name = game.get("name")
    if not isinstance(name, str) or not name.replace("-", "").isalnum() or not name.islower():
        raise _refuse(path, "[game] name", f"'{name}' is not a name", 'give lower-case letters and dashes ("my-wolf")')
    bounds = game.get("players")
    if not isinstance(bounds, list) or len(bounds) != 2:
        raise _refuse(path, "[game] players", "must be [fewest, most]", "write players = [3, 7]")
    players = (_whole(path, "[game] players", bounds[0], 3, 30), _whole(path, "[game] players", bounds[1], bounds[0], 30))
    roles = {rid: _role(path, rid, spec) for rid, spec in _keys(path, "[roles]", data.get("roles"), set(_table_keys(data.get("roles")))).items()}
    if not roles:
        raise _refuse(path, "[roles]", "no roles", "declare at least two roles")
    own_lines = _own_lines(path, data.get("lines", {}))
    roles = _named(roles, own_lines)
    _check_aliases(path, roles)
    roles = variants.check_roles(path, roles, lambda p, e, name: _known_role(p, e, name, roles), _refuse)
    options = variants.options(path, data.get("options"), _refuse)
    cards = tuple(_one_of(path, "[game] cards", c, CARDS, "way to hold the cards") for c in _list(path, "[game] cards", game.get("cards", ["physical"])))
    centre = _whole(path, "[game] centre", game.get("centre", 0), 0, 5)

    def known(p: str, e: str, name: object) -> str:
        return _known_role(p, e, name, roles)

    extra = variants.game_keys(path, game, tuple(dict.fromkeys(r.team for r in roles.values())), roles, known, _refuse)
    deal = _deal(path, data.get("deal"), roles, players, centre, 1 if extra["first_victim"] else 0)
    steps = _steps(path, data.get("steps", []), roles, game.get("absent", "call"), options)
    lonely = next((s for s in steps if s.lone_look), None)
    if lonely is not None and not centre:
        raise _refuse(path, f"[[steps]] '{lonely.id}' lone_look", "there are no centre cards to look at",
                      "set [game] centre, or drop lone_look")
    nights = _whole(path, "[game] nights", game.get("nights", 0), 0, 1)
    day = _day(path, data.get("day"), nights)
    if nights == 1 and day.vote != "point":
        raise _refuse(path, "[day] vote", "a one-night game is judged by pointing", 'set vote = "point"')
    wins = tuple(_win(path, i, w, roles) for i, w in enumerate(_list(path, "[[wins]]", data.get("wins", [])), 1))
    judged = next((w for w in wins if w.kind in ("found", "peace")), None)
    if judged is not None and nights == 0:
        raise _refuse(path, "[[wins]]", f'kind = "{judged.kind}" judges one night\'s vote, and this game has nights until a win',
                      'use "eliminated", "parity" or "days" here, or set [game] nights = 1')
    if not wins or wins[-1].kind != "otherwise":
        raise _refuse(path, "[[wins]]", "the last rule must say who wins otherwise", 'end with kind = "otherwise"')
    if nights == 0 and cards == ("physical",):
        raise _refuse(path, "[game] cards", "a multi-night game needs the narrator to know each choice",
                      'set cards = ["device"]')
    variants.check_game(path, steps, cards, centre, nights, extra["first_victim"], extra["never_out"], _refuse)
    return GameFile(name=name, path=path, lines=str(game.get("lines", name.replace("-", "_"))), players=players,
                    centre=centre, nights=nights, cards=cards, absent=_one_of(path, "[game] absent", game.get("absent", "call"), ABSENT, "absent policy"),
                    roles=roles, deal=deal, steps=steps, day=day, wins=wins,
                    scenarios=tuple(_scenario(path, i, s) for i, s in enumerate(_list(path, "[[scenarios]]", data.get("scenarios", [])), 1)),
                    own_lines=own_lines, options=options, **extra)


def _own_lines(path: str, table: object) -> dict[str, Mapping[str, Any]]:
    """`[lines.ja]`, `[lines.en]`: trees of line ids as in a pack's lines file, each a text or a
    table with `text` (and a `reading`)."""
    table = _keys(path, "[lines]", table, set(LANGS))
    for lang, tree in table.items():
        _line_tree(path, f"[lines.{lang}]", tree)
    return dict(table)


def _line_tree(path: str, entry: str, tree: object) -> None:
    if not isinstance(tree, Mapping):
        raise _refuse(path, entry, "must be a table of lines", 'write [lines.en.wolf.call.my_step] wake = "…"')
    for key, value in tree.items():
        if isinstance(value, Mapping) and "text" in value:
            if not isinstance(value["text"], str) or not isinstance(value.get("reading", ""), str):
                raise _refuse(path, f"{entry} {key}", "text and reading must be strings", "give words")
        elif isinstance(value, Mapping):
            _line_tree(path, f"{entry} {key}" if " " in entry else f"{entry[:-1]}.{key}]", value)
        elif not isinstance(value, str):
            raise _refuse(path, f"{entry} {key}", f"'{value}' is not a line", 'give a text: key = "…"')


def _role(path: str, rid: str, spec: object) -> Role:
    entry = f"[roles.{rid}]"
    spec = _keys(path, entry, spec, ROLE_KEYS)
    if not isinstance(spec.get("team"), str):
        raise _refuse(path, entry, "no team", 'give team = "village" (or another team)')
    aliases = spec.get("aliases", {})
    if not isinstance(aliases, Mapping) or set(aliases) - {"ja", "en"} or not all(
            isinstance(v, list) and all(isinstance(a, str) for a in v) for v in aliases.values()):
        raise _refuse(path, f"{entry} aliases", "must be a table of ja and en lists", 'write aliases = { ja = ["…"] }')
    return Role(id=rid, team=spec["team"], seen_as=_one_of(path, f"{entry} seen_as", spec.get("seen_as", "human"), SEEN_AS, "result"),
                counts_as=_one_of(path, f"{entry} counts_as", spec.get("counts_as", "human"), SEEN_AS + ("none",), "side"),
                survives_attack=bool(spec.get("survives_attack", False)), dies_divined=bool(spec.get("dies_divined", False)),
                aliases={k: tuple(v) for k, v in aliases.items()}, **variants.role_keys(path, entry, spec, _refuse))


def _named(roles: Mapping[str, Role], own_lines: Mapping[str, Mapping[str, object]]) -> dict[str, Role]:
    """Each role with its names: its `wolf.role.<id>` line as the packs say it, the file's own
    lines beneath them (the name the narrator says, text and reading), then its `aliases`."""
    said = spoken_names(lambda rid: f"wolf.role.{rid}", roles, own_lines)
    return {rid: replace(role, names=joined(said[rid], role.aliases)) for rid, role in roles.items()}


def _check_aliases(path: str, roles: Mapping[str, Role]) -> None:
    """One name for two roles is a contradiction: a table naming it could mean either."""
    owner: dict[str, str] = {}
    for role in roles.values():
        for name in role_names(role):
            if not isinstance(name, str) or not name.strip():
                raise _refuse(path, f"[roles.{role.id}] aliases", f"'{name}' is not a name", "give words")
            key = fold(name)
            if owner.get(key, role.id) != role.id:
                raise _refuse(path, f"[roles.{role.id}] aliases", f"'{name}' names [roles.{owner[key]}] too",
                              "give each name to one role")
            owner[key] = role.id


def _known_role(path: str, entry: str, name: object, roles: Mapping[str, Role]) -> str:
    """A role named by its id or one of its aliases, as its id."""
    if isinstance(name, str) and name in roles:
        return name
    rid = alias_table(roles).get(fold(name)) if isinstance(name, str) else None
    if rid is None:
        raise _refuse(path, entry, f"unknown role '{name}'", f"use one of {', '.join(roles)} (or their aliases)")
    return rid


def _deal(path: str, table: object, roles: Mapping[str, Role], players: tuple[int, int], centre: int,
          victim: int = 0) -> dict[int, dict[str, int]]:
    """The set by player count: players + centre cards (+ the first victim's, `victim`)."""
    table = _keys(path, "[deal]", table, {str(n) for n in range(players[0], players[1] + 1)})
    deal = {}
    for n in range(players[0], players[1] + 1):
        counts = table.get(str(n))
        if not isinstance(counts, Mapping):
            raise _refuse(path, f"[deal] {n}", "no set for this many players",
                          f'add {n} = {{ … }} with {n + centre + victim} cards')
        named: dict[str, int] = {}
        for role, count in counts.items():
            rid = _known_role(path, f"[deal] {n}", role, roles)
            named[rid] = named.get(rid, 0) + _whole(path, f"[deal] {n} {role}", count, 0, 30)
        if sum(named.values()) != n + centre + victim:
            out = f"{centre} in the centre" + (" and the first victim's" if victim else "")
            raise _refuse(path, f"[deal] {n}", f"{sum(named.values())} cards for {n} players and {out}",
                          f"give {n + centre + victim} cards")
        deal[n] = named
    return deal


def _steps(path: str, table: object, roles: Mapping[str, Role], absent: str,
           options: Mapping[str, bool] | None = None) -> tuple[Step, ...]:
    if not isinstance(table, list):
        raise _refuse(path, "[[steps]]", "must be a list of tables", "write each as [[steps]]")
    steps: list[Step] = []
    for i, spec in enumerate(table, 1):
        entry = f"[[steps]] #{i}"
        spec = _keys(path, entry, spec, STEP_KEYS)
        sid = spec.get("id")
        entry = f"[[steps]] '{sid}'"
        if not isinstance(sid, str) or any(s.id == sid for s in steps):
            raise _refuse(path, entry, "missing or repeated id", "give each step an id of its own")
        _one_of(path, f"{entry} kind", spec.get("kind", "call"), ("call",), "kind")
        role = _known_role(path, f"{entry} role", spec.get("role"), roles)
        step = Step(id=sid, role=role, action=_one_of(path, f"{entry} action", spec.get("action", "none"), ACTIONS, "action"),
                    when=_one_of(path, f"{entry} when", spec.get("when", "every"), WHEN, "condition"),
                    from_night=_whole(path, f"{entry} from_night", spec.get("from_night", 1), 1, 30),
                    every=_whole(path, f"{entry} every", spec.get("every", 1), 1, 30),
                    while_=_one_of(path, f"{entry} while", spec.get("while", "in_play"), WHILE, "condition"),
                    seconds=_whole(path, f"{entry} seconds", spec.get("seconds", 10), 1, 600),
                    absent=_one_of(path, f"{entry} absent", spec.get("absent", absent), ABSENT, "absent policy"),
                    not_self=bool(spec.get("not_self", True)), lone_look=bool(spec.get("lone_look", False)),
                    **variants.step_keys(path, entry, spec, str(spec.get("action", "none")), options or {},
                                         lambda p, e, name: _known_role(p, e, name, roles), _refuse))
        if step.lone_look and step.action != "partners":
            raise _refuse(path, f"{entry} lone_look", f"action '{step.action}' has no partners to be without",
                          'give lone_look to a step with action = "partners"')
        if step.when == "first" and step.from_night > 1:
            raise _refuse(path, entry, f"when = \"first\" and from_night = {step.from_night}: it can never run",
                          "drop one of them")
        for before in _list(path, f"{entry} after", spec.get("after", [])):
            ids = [s.id for s in steps]
            if before == sid:
                raise _refuse(path, f"{entry} after", f"'{sid}' after '{sid}' is a cycle: a step cannot wake after "
                                                      "itself", f"drop '{sid}' from its after")
            if before not in ids + [s.get("id") for s in table if isinstance(s, Mapping)]:
                raise _refuse(path, f"{entry} after", f"unknown step '{before}'", "name a step of this file")
            if before not in ids:
                cycle = _cycle(table, sid, before)
                if cycle:
                    raise _refuse(path, f"{entry} after", " after ".join(f"'{s}'" for s in cycle) + " is a cycle: none "
                                  "of them can wake first", "drop one of these afters")
                raise _refuse(path, f"{entry} after", f"it must come after '{before}', which comes later",
                              f"move '{sid}' below '{before}'")
        steps.append(step)
    return tuple(steps)


def _cycle(table: list[Any], sid: str, before: str) -> list[str]:
    """The steps of a cycle of `after`s through `sid` after `before` (`sid`, `before` … `sid`),
    or none: with one, no order of the file keeps them all, so "move it below" would not do."""
    afters = {s["id"]: [b for b in s.get("after", []) if isinstance(b, str)] if isinstance(s.get("after"), list) else []
              for s in table if isinstance(s, Mapping) and isinstance(s.get("id"), str)}
    paths, seen = [[sid, before]], {before}
    while paths:  # breadth first: the shortest way back to `sid`
        path = paths.pop(0)
        for step in afters.get(path[-1], []):
            if step == sid:
                return path + [sid]
            if step not in seen:
                seen.add(step)
                paths.append(path + [step])
    return []


def _day(path: str, table: object, nights: int) -> Day:
    table = _keys(path, "[day]", table or {}, DAY_KEYS)
    order = _day_order(path, table.get("order"), nights)
    discussion = table.get("discussion", [180])
    if not isinstance(discussion, list) or not discussion:
        raise _refuse(path, "[day] discussion", "must be a list of seconds, one per day", "write discussion = [300, 240]")
    return Day(discussion=tuple(_whole(path, "[day] discussion", s, 10, 3600) for s in discussion),
               warnings=tuple(_whole(path, "[day] warnings", s, 1, 3600) for s in _list(path, "[day] warnings", table.get("warnings", [60, 10]))),
               vote=_one_of(path, "[day] vote", table.get("vote", "name"), VOTES, "vote"),
               tie=_one_of(path, "[day] tie", table.get("tie", "revote"), TIES, "tie rule"), order=order)


def _day_order(path: str, order: object, nights: int) -> tuple[str, ...]:
    """The day's steps as the file orders them, refused when they contradict themselves: the
    deaths are told first, the vote follows the discussion, and (nights until a win) a check
    follows the vote; a one-night day is the discussion, then the vote that judges the game."""
    entry = "[day] order"
    if order is None:
        return ("discussion", "vote") if nights == 1 else Day.order
    if not isinstance(order, list) or not order:
        raise _refuse(path, entry, "must be a list of the day's steps", 'write order = ["deaths", "check", '
                                                                         '"discussion", "vote", "check"]')
    kinds = tuple(_one_of(path, entry, k, DAY_KINDS, "day step") for k in order)
    for kind in ("deaths", "discussion", "vote"):
        if kinds.count(kind) > 1:
            raise _refuse(path, entry, f"'{kind}' comes twice", "keep one")
    if nights == 1 and kinds != ("discussion", "vote"):
        raise _refuse(path, entry, "a one-night day is the discussion, then the vote that judges it",
                      'write order = ["discussion", "vote"]')
    if nights == 0:
        for kind in ("deaths", "vote"):
            if kind not in kinds:
                raise _refuse(path, entry, f"no '{kind}': the game could never end by it", f"add '{kind}'")
        if kinds[0] != "deaths":
            raise _refuse(path, entry, f"'{kinds[0]}' before 'deaths': the night's deaths open the day",
                          "move 'deaths' first")
        if "check" not in kinds[kinds.index("vote"):]:
            raise _refuse(path, entry, "no 'check' after 'vote': the vote could never end the game",
                          "add 'check' after 'vote'")
    if "discussion" in kinds and kinds.index("vote") < kinds.index("discussion"):
        raise _refuse(path, entry, "'vote' before 'discussion'", "move 'discussion' above 'vote'")
    return kinds


def _win(path: str, i: int, spec: object, roles: Mapping[str, Role]) -> Win:
    entry = f"[[wins]] #{i}"
    spec = _keys(path, entry, spec, WIN_KEYS)
    kind = _one_of(path, f"{entry} kind", spec.get("kind"), WINS, "win rule")
    teams = tuple(dict.fromkeys(r.team for r in roles.values()))
    winner = _one_of(path, f"{entry} winner", spec.get("winner"), teams, "team")
    team = spec.get("team", "")
    if team and team not in teams:
        raise _refuse(path, f"{entry} team", f"unknown team '{team}'", f"use one of {', '.join(teams)}")
    if kind == "survives" and not team:
        raise _refuse(path, entry, 'kind = "survives" needs a team', 'add team = "…"')
    role = spec.get("role", "")
    if kind == "days" and not isinstance(spec.get("days"), int):
        raise _refuse(path, entry, 'kind = "days" needs days', "add days = N")
    if kind in ("found", "peace", "eliminated", "parity"):
        if not role:
            raise _refuse(path, f"{entry} role", f"kind = \"{kind}\" needs one of the roles", "add role = \"…\"")
        role = _known_role(path, f"{entry} role", role, roles)
    return Win(kind=kind, winner=winner, team=team, role=role, days=int(spec.get("days", 0)))


def _scenario(path: str, i: int, spec: object) -> Mapping[str, Any]:
    spec = _keys(path, f"[[scenarios]] #{i}", spec, SCENARIO_KEYS)
    if not isinstance(spec.get("answers"), list) or "winner" not in spec:
        raise _refuse(path, f"[[scenarios]] #{i}", "needs answers and winner", "add answers = [...] and winner = \"…\"")
    return dict(spec)
