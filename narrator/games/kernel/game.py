"""A game file as a `Game`: the same contract as every other game, so the phones, the runner,
the CLI and the appliance need nothing of their own for it.

`configure` checks the table against the file (players, the set, the way the cards are
held) in one line each; the phone page shows a seat its own card, and a private question
only the choices that seat may pick.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
import tomllib
from functools import partial
from pathlib import Path
from typing import Any

from narrator.cues import Say
from narrator.errors import Named, Refusal, worded
from narrator.games import seating
from narrator.games.card_names import CardNames, translate
from narrator.games.contract import Game, PhonePlay
from narrator.games.kernel import engine, judge, passed, plans, readback, record, sayable
from narrator.games.kernel.model import LANGS, GameFile
from narrator.games.kernel.state import KConfig, KState
from narrator.games.jsonable import Record
from narrator.settings import TableSettings, check_options, declare
from narrator.values.readers import boolean, integer, parse_counts, parse_list, parse_seconds_list

SETTINGS = declare(tomllib.loads(Path(__file__).with_name("settings.toml").read_text(encoding="utf-8")),
                   page="game-files.md", page_ja="ja/game-files.md")


def configure(spec: GameFile, settings: TableSettings) -> KConfig:
    """Validate a table for a game file; refuse bad setups in one line, in the table's language,
    with the roles by their names there (the packs' `wolf.role.<id>`)."""
    with worded(settings.stated_lang, card_names(spec)):
        return _configure(spec, settings)


def _configure(spec: GameFile, settings: TableSettings) -> KConfig:
    src, name = settings.source, spec.name
    options = translate(settings.options, SETTINGS, card_names(spec), settings.lang, src)
    check_options(options, SETTINGS, name, src)
    missing = (spec.lines_missing or {}).get(settings.lang)
    if missing:  # the file carries its lines in another language only
        langs = [lang for lang in LANGS if lang not in spec.lines_missing]
        raise Refusal("kernel_lines_lang", source=src, game=name, lang=settings.lang, line=missing[1],
                      entry=missing[0], file=spec.path, langs=langs, first=langs[0])
    players = len(settings.names) or settings.players or spec.players[0]
    low, high = spec.players
    if not low <= players <= high:
        raise Refusal("kernel_players", source=src, game=name, least=low, most=high, players=players)
    digital = boolean(options.get("digital_cards", spec.cards[0] == "device"), "digital_cards", src)
    if not digital and "physical" not in spec.cards:
        raise Refusal("kernel_needs_digital", source=src, game=name)
    if digital and "device" not in spec.cards:
        raise Refusal("kernel_physical_only", source=src, game=name)
    names = tuple(settings.names)
    if digital and not names:  # the device must name whom it asks: numbered seats, as the phones number them
        names = tuple(str(n) for n in range(1, players + 1))
    roles = named_roles(spec, parse_counts(options["roles"], "roles", src), src) if "roles" in options \
        else dict(spec.deal[players])
    house = house_rules(spec, options, src)
    victim = house["first_victim"]
    if spec.first_victim and not victim and "roles" not in options:  # the file's set, less the victim's card
        roles = without_victims_card(spec, roles)
    total, needed = sum(roles.values()), players + spec.centre + bool(victim)
    if total != needed and victim:
        raise Refusal("kernel_victim_total", source=src, total=total, game=name, needed=needed, players=players,
                      centre=spec.centre)
    if total != needed:
        raise Refusal("kernel_role_total", source=src, total=total, game=name, needed=needed, players=players,
                      centre=spec.centre)
    _deal_possible(spec, roles, house, src)
    roles = {r: roles[r] for r in spec.roles if roles.get(r)}  # the file's order
    _undecided(spec, roles, names, src, players, victim)
    if house["never_out"] and not digital:
        raise Refusal("kernel_never_out_physical", source=src, game=name)
    warnings = parse_seconds_list(options.get("warnings", list(spec.day.warnings)), "warnings", src)
    discussion = parse_seconds_list(options["discussion"], "discussion", src) if "discussion" in options else ()
    # no seed given: a fresh one, kept in the config (resume deals the same cards), as the seed games draw theirs
    seed = settings.seed if settings.seed is not None else secrets.randbits(128)
    return KConfig(game=name, names=names, players=players, seed=seed, roles=roles, digital_cards=digital,
                   passed=digital and not settings.phones and passed.offered(spec),
                   look=integer(options.get("look", 5), "look", src, minimum=1, maximum=600),
                   lone_look=boolean(options.get("lone_look", True), "lone_look", src),
                   countdown=_countdown(options, src),
                   discussion=discussion, warnings=warnings, **house)


def _countdown(options: dict[str, Any], src: str) -> int:
    """The table's countdown for every call, or 0 for each step's own `seconds`: a countdown the
    table gives is at least 1, as in the seed games (a typed 0 does not silently mean the file's)."""
    if "countdown" not in options:
        return 0
    return integer(options["countdown"], "countdown", src, minimum=1, maximum=600)


def house_rules(spec: GameFile, options: dict[str, Any], src: str) -> dict[str, Any]:
    """The table's house rules for this file: its `[options]` turned by `options`
    ("white_notice=false"), the first victim (`first_victim`: off, or on where the file names
    its team) and the roles never dealt out of the hands (`never_out`)."""
    chosen = dict(spec.options or {})
    for name, value in _pairs(options.get("options", {}), src).items():
        if name not in chosen:
            raise Refusal("kernel_unknown_option", source=src, option=name, game=spec.name,
                          known=", ".join(chosen) or "-")
        chosen[name] = boolean(value, f"options.{name}", src)
    victim = spec.first_victim
    if "first_victim" in options:
        wanted = boolean(options["first_victim"], "first_victim", src)
        if wanted and not victim:
            raise Refusal("kernel_no_first_victim", source=src, game=spec.name)
        victim = victim if wanted else ""
    never = spec.never_out
    if "never_out" in options:
        never = tuple(named_roles(spec, {r: 1 for r in parse_list(options["never_out"], "never_out", src)}, src))
    return {"options": tuple(n for n, on in chosen.items() if on), "first_victim": victim, "never_out": never}


def without_victims_card(spec: GameFile, roles: dict[str, int]) -> dict[str, int]:
    """The file's set with no first victim: one card fewer of the victim's team (its most
    numerous role, a 村人), as the table would take it out of the box."""
    team = [r for r in roles if spec.roles[r].team == spec.first_victim and roles[r]]
    if not team:
        return roles
    most = max(team, key=lambda r: roles[r])
    return {**roles, most: roles[most] - 1}


def _pairs(value: object, src: str) -> dict[str, Any]:
    """`options` as "a=true,b=false" or a TOML table."""
    if isinstance(value, dict):
        return dict(value)
    pairs = {}
    for part in filter(None, (p.strip() for p in str(value).split(","))):
        name, sep, word = part.partition("=")
        if not sep:
            raise Refusal("counts_entry_form", source=src, key="options", part=part)
        pairs[name.strip()] = word.strip()
    return pairs


def _deal_possible(spec: GameFile, roles: dict[str, int], house: dict[str, Any], src: str) -> None:
    """The first victim needs a card of its team, and the centre and the victim need cards
    that may be dealt out of the hands (`never_out`): else no deal could be made."""
    never = house["never_out"]
    free = sum(n for r, n in roles.items() if r not in never)
    victim_cards = sum(n for r, n in roles.items() if r not in never and spec.roles[r].team == house["first_victim"])
    if house["first_victim"] and not victim_cards:
        raise Refusal("kernel_victim_card", source=src, team=house["first_victim"], game=spec.name)
    if free < spec.centre + bool(house["first_victim"]):
        raise Refusal("kernel_never_out", source=src, roles=[Named("roles", r) for r in never], game=spec.name)


def _undecided(spec: GameFile, roles: dict[str, int], names: tuple[str, ...], src: str, players: int,
               victim: str = "") -> None:
    """A set in which the game is decided before it starts is refused: every card of one side
    (five werewolves, no village), or, nights until a win with no centre, a win rule that holds
    with every card dealt (the wolves at parity), as the judge would find at the first check."""
    named = [Named("roles", r) for r in roles]
    if len({spec.roles[r].team for r in roles}) == 1:
        raise Refusal("kernel_one_side", source=src, roles=named, game=spec.name, players=players)
    if spec.nights or spec.centre:  # one night is judged by the vote; a centre hides what is dealt
        return
    seats = names or tuple(str(n) for n in range(1, players + 1))
    dealt = [r for r in roles for _ in range(roles[r])]
    if victim:  # one card of the victim's team is in no player's hand
        dealt.remove(next(r for r in dealt if spec.roles[r].team == victim))
    hands = tuple(dealt)
    config = KConfig(game=spec.name, names=seats, players=players, seed=0, roles=roles, digital_cards=True)
    winner = judge.multi_night(spec, config, KState(cards=hands, first=hands), day_over=False)
    if winner:
        raise Refusal("kernel_decided", source=src, roles=named, winner=winner, players=players)


KINDS = tomllib.loads(Path(__file__).with_name("names.toml").read_text(encoding="utf-8"))


def card_names(spec: GameFile) -> CardNames:
    """The names a table may type for the file's roles (its `wolf.role.<id>` line as the packs say
    it, then its `aliases`; ja and en), as every game hands them over (`Game.card_names`):
    `narrator config set`, the table file and the flags."""
    return CardNames({"roles": {rid: dict(role.names) for rid, role in spec.roles.items()}},
                     {"roles": dict(KINDS["roles"])})


def named_roles(spec: GameFile, counts: dict[str, int], src: str) -> dict[str, int]:
    """A table's card counts by any name of a role (占い師=1 or 預言者=1, seer=1): by role id."""
    roles: dict[str, int] = {}
    for given, n in counts.items():
        rid = spec.role_id(given)
        if rid is None:
            raise Refusal("kernel_unknown_role", source=src, role=given, game=spec.name,
                          known=[Named("roles", r) for r in spec.roles])
        roles[rid] = roles.get(rid, 0) + n
    return roles


def private_view(config: KConfig, state: KState, seat: str) -> Record:
    """A seat's own card as dealt (a one-night thief's new card reaches him as a private line)."""
    if not state.first or seat not in config.names:
        return {}
    role = state.first[config.names.index(seat)]
    return {"role": role, "lines": [("wolf.you_are", {"cards": engine.card_line(role)})]}


def table_facts(config: KConfig, state: KState | None) -> Record:
    """The public facts of a werewolf-family game, and the winner in the game's own words: the
    `wolf.win.<team>` line the narrator said at the end (a file's own team's from its `[lines]`),
    which the page words in each of its languages, so a team the page never heard of still shows."""
    facts = seating.night_and_day_facts(config, state)
    if state is not None and state.winner:
        facts["winner_line"] = (judge.win_line(state.winner), {})
    return facts


def alive(config: KConfig, state: KState | None) -> list[str]:
    dead = getattr(state, "dead", ())
    return [n for n in seating.seats_of(config) if n not in dead]


def required(config: KConfig) -> str | None:
    """Cards on the device are dealt to the phones, and each night choice is made on one (a
    scripted game answers them from its file), unless the device goes round the table (a
    game of nights without swaps, `passed.offered`): then every living player takes it in
    turn each night, so a hand-over tells nobody who holds what."""
    return "the cards are dealt to the players' phones" if config.digital_cards and not config.passed else None


def undo_barrier(config: KConfig, state: KState) -> Say | None:
    """A night call's private choices are the holders' own and their results were shown to
    them: an undo must not take one back (the seer would look twice). It is refused aloud, and
    the open question is asked again."""
    if config.digital_cards and state.step in ("ask_choice", "ask_turn"):
        return Say("wolf.undo_kept")
    return None


def config_from_dict(spec: GameFile, data: dict[str, Any]) -> KConfig:
    """A saved config, its roles by this file's ids: a game saved when a role had another id (tabula's
    `medium`, now `psychic`, an alias) resumes, dealing the same cards (the file keeps their order)."""
    config = KConfig.from_dict(data)
    return replace(config, roles={_now(spec, r): n for r, n in config.roles.items()},
                   fixed=tuple(_now(spec, r) for r in config.fixed), never_out=tuple(_now(spec, r) for r in config.never_out))


def state_from_dict(spec: GameFile, data: dict[str, Any]) -> KState:
    """A saved state, its cards by this file's ids (as `config_from_dict`)."""
    state = KState.from_dict(data)
    return replace(state, cards=tuple(_now(spec, r) for r in state.cards), first=tuple(_now(spec, r) for r in state.first))


def _now(spec: GameFile, role: str) -> str:
    return role if role in spec.roles else spec.role_id(role) or role


def build(spec: GameFile) -> Game[KConfig, KState]:
    """The contract of one game file."""
    return Game(
        name=spec.name,
        configure=partial(configure, spec),
        config_from_dict=partial(config_from_dict, spec),
        new_state=KState,
        state_from_dict=partial(state_from_dict, spec),
        advance=partial(engine.advance, spec),
        recap=partial(engine.recap, spec),
        box=partial(engine.box, spec),
        summary=partial(readback.summary, spec),
        sayable=partial(sayable.sayable, spec),
        names=seating.names_of,
        context=seating.night_and_day,
        outcome=judge.outcome,
        undo_barrier=undo_barrier,
        record=partial(record.record, spec),
        phones=PhonePlay(private_view=private_view, table_facts=table_facts, alive=alive, required=required),
        label=lambda id_: f"wolf.role.{id_}",
        settings=SETTINGS,
        describe=partial(plans.describe, spec),
        lines=lambda lang: (spec.own_lines or {}).get(lang, {}),
        card_names=card_names(spec),
    )
