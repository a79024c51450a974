"""Additional Werewolf with digital cards: the app holds the cards and performs every ability.

With `digital_cards`, a table without the physical cards plays on phones: the engine deals
role and additional cards to the named seats, asks each night card's holder privately
(an `Ask` with `player`) whom to look at or swap, keeps what each player has learned
(their memos), redeals the additional cards after each nomination, and knows by itself
whether a nominee holds the werewolf card. Everything lives in `AWState`, so a resumed
game has the same cards; randomness comes only from `random.Random` seeded by the
config's seed and the day, so a replay deals the same cards. Still pure: no I/O.

`rules.py` calls in here at the points where the physical game would ask the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from narrator.cues import Ask, Countdown, Cue, Say
from narrator.errors import AnswerError
from narrator.games import deal as dealing
from narrator.games.additional_werewolf import record
from narrator.games.jsonable import Json, Record

if TYPE_CHECKING:
    from narrator.games.additional_werewolf.setup import AWConfig
    from narrator.games.additional_werewolf.state import AWState


# --- dealing -------------------------------------------------------------------------------

def deal(config: AWConfig, state: AWState) -> AWState:
    """Shuffle and deal one role card and one additional card to each seat."""
    roles, extras = dealing.shuffled(f"{config.seed}:deal", dealing.pile(config.roles),
                                    dealing.pile(config.cards))
    return replace(state, roles_of=tuple(roles), extras_of=tuple(extras))


def redeal(config: AWConfig, state: AWState) -> AWState:
    """Collect the additional cards, shuffle them and deal them again (after a nomination)."""
    (extras,) = dealing.shuffled(f"{config.seed}:redeal:{state.day}", state.extras_of)
    return replace(state, extras_of=tuple(extras))


def role(config: AWConfig, state: AWState, name: str) -> str:
    return state.roles_of[config.names.index(name)]


def holders(config: AWConfig, state: AWState, card: str) -> list[str]:
    """The players holding additional card `card`, in seat order."""
    return dealing.holders(config.names, state.extras_of, card)


def _memo(state: AWState, player: str, kind: str, **facts: Json) -> AWState:
    return replace(state, memos=state.memos + ({"player": player, "kind": kind, **facts},))


def _swap(config: AWConfig, state: AWState, a: str, b: str) -> AWState:
    roles = list(state.roles_of)
    i, j = config.names.index(a), config.names.index(b)
    roles[i], roles[j] = roles[j], roles[i]
    return replace(state, roles_of=tuple(roles))


# --- night ---------------------------------------------------------------------------------

def night_call(config: AWConfig, state: AWState, card: str, number: int) -> tuple[AWState, list[Cue], str | None]:
    """The phone part of one night call: (state, cues, the private step waiting, if any)."""
    holder = holders(config, state, card)
    if card == "lovers":
        pair = holder[2 * (number - 1): 2 * number]
        if len(pair) == 2:
            a, b = pair
            lovers = state.lovers if number > 1 else ()
            state = replace(state, lovers=lovers + ((a, b),))
            state = _memo(state, a, "lovers", night=state.night, partner=b)
            state = _memo(state, b, "lovers", night=state.night, partner=a)
        return state, [Say("lovers.act_phone"), Countdown(config.countdown_for(card))], None
    player = holder[number - 1]
    choices = _medium_choices(state) if card == "medium" else tuple(config.names)
    step = "ask_phantom_1" if card == "phantom_mage" else f"ask_{card}"
    return replace(state, picks=()), [Ask(f"{card}.act_phone", choices, player=player)], step


def _medium_choices(state: AWState) -> tuple[str, ...]:
    day = state.night - 1
    return state.nominations[day - 1] if 1 <= day <= len(state.nominations) else ()


def night_answer(config: AWConfig, state: AWState, player: str, value: object) -> tuple[AWState, list[Cue], bool]:
    """Apply a night card holder's private choice: (state, cues, the call is finished)."""
    target = _one_name(config, value)
    step = state.step
    if target not in private_choices(config, state, player, tuple(config.names)):
        raise AnswerError(f"the card does not let {player} choose '{target}' (its choices: oneself and one other, or two others)")
    if step in ("ask_seer", "ask_medium"):
        if step == "ask_medium" and target not in _medium_choices(state):
            raise AnswerError(f"the medium looks at one of yesterday's nominees, not '{target}'")
        kind = step[4:]
        state = _memo(state, player, kind, night=state.night, target=target, role=role(config, state, target))
        return state, [], True
    if step == "ask_peddler":
        return _swap(config, state, player, target), [], True
    if step == "ask_phantom_1":
        cue = Ask("phantom_mage.act_phone_second", tuple(config.names), player=player)
        return replace(state, picks=(target,), step="ask_phantom_2"), [cue], False
    if step == "ask_phantom_2":
        return replace(_swap(config, state, state.picks[0], target), picks=()), [], True
    raise ValueError(f"no night choice at step {step!r}")


# --- day -----------------------------------------------------------------------------------

def werewolves_among(config: AWConfig, state: AWState, names: tuple[str, ...]) -> list[str]:
    return [n for n in names if role(config, state, n) == "werewolf"]


def losing_lovers(state: AWState, found: list[str]) -> tuple[str, ...]:
    """P-AW-4: the lovers who lose with a found werewolf: only the pair (「恋人は2枚で1セット」)
    holding it among last night's lovers; another pair plays on with its team."""
    return tuple(n for pair in state.lovers if any(f in pair for f in found) for n in pair)


def strategists_among(config: AWConfig, state: AWState, names: tuple[str, ...]) -> tuple[str, ...]:
    """Nominated strategists, in seat order (P-AW-3)."""
    return tuple(n for n in config.names if n in names and n in holders(config, state, "strategist"))


def strategist_begin(config: AWConfig, state: AWState) -> tuple[AWState, list[Cue]]:
    """The first waiting strategist reveals the card and picks two players on the phone."""
    name = state.strategist_queue[0]
    others = tuple(n for n in config.names if n != name)
    cues: list[Cue] = [Say("strategist.reveal_name", {"name": name}),
                       Ask("strategist.pick_phone", others, player=name)]
    return replace(state, step="ask_strat_pick_1", picks=()), cues


def strategist_answer(config: AWConfig, state: AWState, value: object) -> tuple[AWState, list[Cue], bool]:
    """Apply one of the strategist's four private choices: (state, cues, exchange finished)."""
    name = state.strategist_queue[0]
    others = tuple(n for n in config.names if n != name)
    types = tuple(config.roles)
    step = state.step
    if step in ("ask_strat_pick_1", "ask_strat_pick_2"):
        target = _one_name(config, value)
        if target == name or target in state.picks:
            raise AnswerError(f"the strategist takes the cards of two other players, not '{target}'")
        picks = state.picks + (target,)
        if step == "ask_strat_pick_1":
            return replace(state, picks=picks, step="ask_strat_pick_2"), [
                Ask("strategist.pick_second", others, player=name)], False
        seen = {n: role(config, state, n) for n in (name, *picks)}
        state = _memo(state, name, "strategist", day=state.day, cards=seen)
        return replace(state, picks=picks, step="ask_strat_give_1"), [
            Ask("strategist.give_phone", types, {"name": picks[0]}, player=name)], False
    pile = strategist_pile(config, state)
    if value not in pile:
        raise AnswerError(f"'{value}' is not among the strategist's three cards: {', '.join(pile)}")
    a, b = state.picks[:2]
    if step == "ask_strat_give_1":
        state = replace(state, picks=(a, b, value), step="ask_strat_give_2")
        return state, [Ask("strategist.give_phone", types, {"name": b}, player=name)], False
    pile.remove(value)
    given = {a: state.picks[2], b: value, name: pile[0]}
    roles = list(state.roles_of)
    for n, r in given.items():
        roles[config.names.index(n)] = r
    state = replace(state, roles_of=tuple(roles), picks=(), strategist_queue=state.strategist_queue[1:])
    done = "strategist.done_last" if state.day >= config.days else "strategist.done"
    return state, [Say("strategist.check_phone"), Countdown(config.check_role), Say(done)], True


def strategist_pile(config: AWConfig, state: AWState) -> list[str]:
    """The role cards in the strategist's hand not yet handed back."""
    name = state.strategist_queue[0]
    pile = [role(config, state, n) for n in (name, *state.picks[:2])]
    for given in state.picks[2:]:
        pile.remove(given)
    return pile


def _one_name(config: AWConfig, value: object) -> str:
    name = value[0] if isinstance(value, (list, tuple)) and len(value) == 1 else value
    if name not in config.names:
        raise AnswerError(f"unknown player '{name}'; players: {', '.join(config.names)}")
    return name


# --- what one phone may show -----------------------------------------------------------------

def private_view(config: AWConfig, state: AWState, name: str) -> Record:
    """What player `name` alone may see: their cards now and what they have learned, as ids
    (`role`, `card`, `hand`, `memos`) and as the game's own lines (`lines`: the role card, then
    the additional card; `hand_lines`, `memo_lines`, and `label_lines` naming each of `labels`,
    the cards the strategist may give), which the phone server words in the page's languages:
    the page holds no card name of this game."""
    if name not in config.names or not state.roles_of:
        return {}
    seat = config.names.index(name)
    role, card = state.roles_of[seat], state.extras_of[seat]
    memos = [{k: v for k, v in m.items() if k != "player"} for m in state.memos if m["player"] == name]
    view: dict[str, Any] = {
        "role": role,
        "card": card,
        "memos": memos,
        "lines": [("hint.on_phone.role", {"card": _named(role)}), ("hint.on_phone.card", {"card": _named(card)})],
        "memo_lines": [_memo_line(m) for m in memos],
    }
    if state.step in ("ask_strat_give_1", "ask_strat_give_2") and state.strategist_queue[:1] == (name,):
        hand = strategist_pile(config, state)
        view["hand"] = hand
        view["hand_lines"] = [("hint.on_phone.hand", {"cards": _named(*hand)})]
        view["labels"] = sorted(set(hand))
        view["label_lines"] = [(f"label.{c}", {}) for c in view["labels"]]
    if state.winner:
        view["won"] = record.won(state, seat, name)
    return view


def _named(*cards: str) -> list[list[Any]]:
    """Cards as a `{…:counted}` parameter: each said by its `label.<id>` line."""
    return [[f"label.{c}", 0] for c in cards]


def _memo_line(memo: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A memo as its line: what the seer or medium saw, the lovers' partner, the strategist's look."""
    if memo["kind"] == "strategist":
        return "hint.on_phone.strategist", {"day": memo["day"], "names": list(memo["cards"]),
                                             "cards": _named(*memo["cards"].values())}
    if memo["kind"] == "lovers":
        return "hint.on_phone.lovers", {"night": memo["night"], "target": memo["partner"]}
    return f"hint.on_phone.{memo['kind']}", {"night": memo["night"], "target": memo["target"],
                                             "card": _named(memo["role"])}


def private_choices(config: AWConfig, state: AWState, name: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    """Of an open private question's public choices, those `name` may really pick now."""
    if state.step in ("ask_strat_give_1", "ask_strat_give_2"):
        pile = strategist_pile(config, state)
        return tuple(c for c in choices if c in pile)
    if state.step in ("ask_strat_pick_1", "ask_strat_pick_2"):
        return tuple(c for c in choices if c not in state.picks)
    if state.step == "ask_phantom_2":
        return tuple(c for c in choices if c not in state.picks)
    if state.step in ("ask_seer", "ask_peddler"):
        return tuple(c for c in choices if c != name)
    return choices
