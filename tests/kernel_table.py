"""A kernel game at a table for scenario tests: a shipped game file, a fixed deal (each seat's
card in seat order, then the centre's), answers in; everything said, shown and asked kept.

    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"])
    t.answer("done", "Dai", "Dai")       # ready; the seer divines Dai; Dai executed
"""

from __future__ import annotations

from narrator.cues import Answer, Ask, Continue, End, Private, Say, Start
from narrator.games.kernel import engine
from narrator.games.kernel import files as kernel
from narrator.games.kernel.parse import read_game_file
from narrator.games.kernel.state import KConfig, KState

NAMES = ("Aki", "Ben", "Chika", "Dai", "Emi", "Fumi", "Gen", "Hana", "Iku")
MAX_STEPS = 500


class StepBudget:
    """A bound on a loop that drives a game to its end: a game that never ends (a win rule
    that no longer holds, a step that repeats) fails its test after `limit` steps, saying so,
    instead of hanging the run (a mutation run's or CI's) until something kills it."""

    def __init__(self, limit: int = MAX_STEPS):
        self.left = limit

    def tick(self) -> None:
        self.left -= 1
        assert self.left >= 0, "the game did not end (or ask) within its step budget"


def spec_of(game: str):
    return read_game_file(kernel.shipped_files()[game])


class Table:
    """One kernel game at a table: `answer` gives the open question its answer and plays on
    to the next question (or the end); `cues` keeps everything said, shown and asked."""

    def __init__(self, game: str, deal: list[str] | None = None, cards: str = "device", names=None, spec=None,
                 **config):
        self.spec = spec or spec_of(game)  # `spec`: the shipped file changed by the test
        deal = deal or []
        if names is None:
            names = NAMES[:len(deal) - self.spec.centre] if deal else ()
        counts: dict[str, int] = {}
        for role in deal:
            counts[role] = counts.get(role, 0) + 1
        players = len(names) or config.pop("players", self.spec.players[0])
        self.config = KConfig(game=game, names=tuple(names), players=players, seed=0,
                              roles=counts or dict(self.spec.deal[players]), digital_cards=cards == "device",
                              fixed=tuple(deal), **config)
        self.state = KState()
        self.cues: list = []
        self.ask: Ask | None = None
        self._play(Start())

    def _play(self, event) -> list:
        out: list = []
        for _ in range(MAX_STEPS):
            self.state, cues = engine.advance(self.spec, self.config, self.state, event)
            out += cues
            self.ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
            if self.ask or self.state.finished:
                self.cues += out
                return out
            event = Continue()
        raise AssertionError(f"nothing asked in {MAX_STEPS} steps (step '{self.state.step}')")

    def answer(self, *values) -> list:
        """Each value answers the next question; the cues from the first answer on."""
        out: list = []
        for value in values:
            assert self.ask is not None, f"no question open: {self.state.step}"
            if self.ask.multiple and isinstance(value, str):
                value = value.split(",")
            out += self._play(Answer(value))
        return out

    @property
    def end(self) -> End:
        return next(c for c in self.cues if isinstance(c, End))


def lines(cues) -> list[str]:
    return [c.line for c in cues if hasattr(c, "line")]


def said(cues, line: str) -> list:
    return [c for c in cues if isinstance(c, Say) and c.line == line]


def shown(cues, to: str) -> list[Private]:
    return [c for c in cues if isinstance(c, Private) and c.to == to]
