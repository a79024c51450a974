"""The game contract: everything the other rooms (the runner, the phones, the CLI, the
appliance, render-ahead) may know about a game. A room outside `narrator/games/` holds a
`Game` (a `SomeGame`) and calls it; it never names a game, a card, a role or a state field.

Kept apart from the registry, so that a game's package and the registry in
`narrator/games/__init__.py` never import each other.

What every game's state and config offer, whatever the game: `state.finished`,
`state.winner` and `state.to_dict()`; `config.players` and `config.to_dict()`. The rest is
asked through the functions below, each with a default that fits a game which does not need it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generic, Mapping, Sequence, Protocol, TypedDict, TypeVar

from narrator.cues import Cue, GameEvent, Say
from narrator.games import seating
from narrator.games.jsonable import Json, Record

if TYPE_CHECKING:
    from narrator.games.card_names import CardNames
    from narrator.settings import Setting, TableSettings


class PlayerRecord(TypedDict):
    """One seat in a finished game's `record` (see `Game.record`)."""

    name: str
    role: str | None
    held: list[str]
    won: bool | None
    survived: bool | None


class GameRecord(TypedDict):
    """What the table's history keeps of a finished game (see `Game.record`)."""

    players: list[PlayerRecord]
    answers: Record



class GameConfig(Protocol):
    """What every game's config offers the rooms: how many play and its saved form. The rest is
    the game's own, asked through the `Game`'s functions."""

    @property
    def players(self) -> int:
        """How many play this setup: the appliance's menu and `narrator config show` say it, and
        the service fills it into a table file that names no count."""
        ...

    def to_dict(self) -> Record: ...


class GameState(Protocol):
    """What every game's state offers the rooms: whether it is over, who won, its saved form."""

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    def to_dict(self) -> Record: ...


C = TypeVar("C", bound=GameConfig)
"""A game's own config type (`AWConfig`, `KConfig` …): `Game[C, S]` checks that its functions agree."""
S = TypeVar("S", bound=GameState)
"""A game's own state type."""
GC = TypeVar("GC", bound=GameConfig, covariant=True)
"""`Game`'s and `PhonePlay`'s own config parameter. Covariant, so that every game is a
`Game[GameConfig, GameState]` (`SomeGame`): the type of "some game" that the registry hands out and
the rooms hold. Python has no type for "a game together with its own config", so this is the one
promise the checker takes on trust: a room hands a game only the config and state that this same
game made (`configure`, `config_from_dict`, `new_state`, `advance`), never another game's."""
GS = TypeVar("GS", bound=GameState, covariant=True)
"""`Game`'s and `PhonePlay`'s own state parameter, covariant like `GC`."""

def _no_private_view(config: object, state: object, name: str) -> Record:
    return {}


def _every_choice(config: object, state: object, name: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    return choices


def _phones_not_required(config: object) -> str | None:
    return None


def _no_names(config: object) -> tuple[str, ...]:
    return ()


def _no_context(state: object) -> Record:
    return {}


def _winner_only(config: object, state: GameState) -> Record:
    return {"winner": state.winner}


def _no_barrier(config: object, state: object) -> Cue | None:
    return None


def _nobody_known(config: object, state: object) -> GameRecord:
    return {"players": [], "answers": {}}


@dataclass(frozen=True)
class PhonePlay(Generic[GC, GS]):
    """How a game is played with the phone page: what each seat's phone may see and pick.

    A game with no `PhonePlay` has no phone page (`--phones` is refused for it). The
    defaults fit a werewolf-family game that counts nights and days (`seating`)."""

    private_view: Callable[[GC, GS, str], Record] = _no_private_view
    """(config, state, seat) -> what that seat's phone alone may see: own cards, memos, results."""
    private_choices: Callable[[GC, GS, str, tuple[str, ...]], tuple[str, ...]] = _every_choice
    """(config, state, seat, the question's choices) -> those the seat may really pick now."""
    seats: Callable[[GC], tuple[str, ...]] = seating.seats_of
    """(config) -> the seats a phone can claim."""
    table_facts: Callable[[GC, GS | None], Record] = seating.night_and_day_facts
    """(config, state or None) -> the table's public facts: phase, night, day, winner; and, for a
    game whose teams are its own (a game file's), `winner_line`: the (line id, params) the result
    card shows for the winner, worded by the page in each of its languages. Without it the page
    shows the team's word from its strings (`winner_<team>`), or none."""
    alive: Callable[[GC, GS | None], list[str]] = seating.every_seat
    """(config, state or None) -> the players still in the game (public: deaths are announced)."""
    required: Callable[[GC], str | None] = _phones_not_required
    """(config) -> why this setup can only be played on phones (the start of a one-line
    error, e.g. "digital cards are shown on the players' phones"), or None."""


DEFAULT_QUIET_ROUNDS = 3
"""Three rounds: in Bestia Magica a night's memos, a day's vote and the next night's memos,
so a table that is really away is asked within two nights, and one round everyone let run
out (a deliberate blank vote) is never enough."""


def _three_quiet_rounds(config: object) -> int:
    return DEFAULT_QUIET_ROUNDS


@dataclass(frozen=True)
class Game(Generic[GC, GS]):
    """One game's rules engine and everything the rooms around it need from it.

    Generic in the game's own config and state (`Game[AWConfig, AWState]`, inferred where a game
    builds its `GAME`), so the type checker sees that its functions agree with each other; the
    rooms hold a `SomeGame` and never look inside either (`GameConfig`, `GameState`)."""

    name: str
    configure: Callable[[TableSettings], GC]
    config_from_dict: Callable[[Record], GC]
    new_state: Callable[[], GS]
    state_from_dict: Callable[[Record], GS]
    advance: Callable[[GC, GS, GameEvent | Mapping[str, Json]], tuple[GS, list[Cue]]]
    """(config, state, event) -> (state, cues): pure; `event` typed or as its log record."""
    recap: Callable[[GC, GS], list[Cue]]
    box: Callable[[GC], Sequence[Say]] | None = None
    """The cues that name the cards a table takes out of the box for `config` (None: no set to choose)."""
    sayable: Callable[[GC], list[Cue]] | None = None
    """For a game whose private rounds have too many answers to play every branch (Bestia
    Magica): cues holding every line it can say with this config, listed from the config
    (what `narrator.sound.render_ahead` renders before play)."""
    names: Callable[[GC], tuple[str, ...]] = _no_names
    """(config) -> the players' names the narrator says (their readings are prepared and
    reviewed at setup); a game that calls its players by side has none."""
    context: Callable[[GS], Record] = _no_context
    """(state) -> where the step stands (night, day), written beside each transcript record."""
    outcome: Callable[[GC, GS], Record] = _winner_only
    """(config, state) -> the finished game's record in the saved game: who won and how."""
    undo_barrier: Callable[[GC, GS], Cue | None] = _no_barrier
    """(config, state) -> None, or the line (a `Say`) said when an undo would take back the step
    played from `state`: a step the table did with its hands (a night call with physical
    cards) is never called again by an undo, which then takes nothing back."""
    record: Callable[[GC, GS], GameRecord] = _nobody_known
    """(config, finished state) -> what the table's history keeps of the game (`narrator stats`):
    `players`, in seat order, each `{"name", "role", "held", "won", "survived"}` (`role` and
    `held`: the line ids naming the card(s) the player held at the end, None / empty when the
    narrator never saw them; `won`, `survived`: True, False or None when not known), and
    `answers`, what the table answered that the narrator judged by (who was nominated …)."""
    phones: PhonePlay[GC, GS] | None = None
    """How a seat's phone plays this game; None: the game has no phone page."""
    describe: Callable[[GC | None, str], list[str]] | None = None
    """A game's text about itself: `describe(config, "plan")` the night plan (`narrator play
    --dry-run`), "check" its scenarios (`narrator games check`; a seed game's `scenarios.toml`,
    `narrator.games.scenarios`), and for a game file "graph" the step graph as Mermaid."""
    lines: Callable[[str], Mapping[str, Json]] | None = None
    """(lang) -> the game's own lines in that language (a game file's `[lines.<lang>]`, in the
    form of a pack's lines file), merged under the voice pack's for the game."""
    label: Callable[[str], str] | None = None
    """(a card, role or night-call id from its settings) -> the line id of its name alone
    (「占い師」), shown on the host screen's settings in the page's language; None: ids shown."""
    summary: Callable[[GC], list[Cue]] | None = None
    """(config) -> the cues that read the setup back in one breath before the spoken setup's
    はい / いいえ (card set, night order, countdowns, discussion); None: the `box` cues."""
    settings: tuple[Setting, ...] = ()
    """The game's own table-file keys (`narrator.settings.Setting`s, declared in its folder): its
    `unknown option` check, `narrator play`'s flags and its docs rows derive from them."""
    card_names: CardNames | None = None
    """The names a table may type for its cards and roles, per language (a
    `narrator.games.card_names.CardNames`: its pack label lines, then `[names]` of its definition.toml), or None: its
    `configure` reads them as ids (`card_names.translate`), `narrator config set cards.占い師`
    finds the entry it edits by them, and docs/ja lists them beside the ids."""
    quiet_rounds: Callable[[GC], int] = _three_quiet_rounds
    """(config) -> after this many private rounds in a row closed by their timers with nobody
    answering (the phones' memos and votes), the narrator stops and asks the table whether to
    go on (narrator/table/quiet_rounds.py); 0 never asks. Bestia Magica's is its house rule
    `quiet_rounds`."""
    source: str | None = None
    """A game file's exact text (the kernel's games), as read when the game was loaded, else
    None: each saved game keeps a copy (`GameStore.create`), so a resume replays the rules it
    was played by even when the file is later changed, deleted or never in the home."""

    def phones_required(self: Game[C, S], config: C) -> str | None:
        """Why this setup can only be played on the phones (a one-line error's start), or None."""
        return self.phones.required(config) if self.phones is not None else None


SomeGame = Game[GameConfig, GameState]
"""Some game, whichever it is: what the registry hands out (`narrator.games.get_game`) and the
rooms hold. Every `Game[AWConfig, AWState]` … is one (`GC`, `GS` are covariant); a room sees
only what every config and state offer, and hands the game back only what the game made."""
