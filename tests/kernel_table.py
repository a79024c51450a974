"""A kernel game at a table for scenario tests: a shipped game file, a fixed deal (each seat's
card in seat order, then the centre's), answers in; everything said, shown and asked kept.

    t = Table("werewolf", ["werewolf", "seer", "knight", "villager", "villager"])
    t.answer("done", "Dai", "Dai")       # ready; the seer divines Dai; Dai executed
"""

from __future__ import annotations

from narrator.cues import Answer, Ask, Collect, Continue, End, Private, Say, Start
from narrator.games.kernel import engine
from narrator.games.kernel import files as kernel
from narrator.games.kernel.parse import read_game_file
from narrator.games.kernel.plans import answer_for
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
        self.config = KConfig(game=game, names=tuple(names), players=players, seed=config.pop("seed", 0),
                              roles=counts or dict(self.spec.deal[players]), digital_cards=cards == "device",
                              fixed=tuple(deal), **config)
        self.state = KState()
        self.cues: list = []
        self.ask: Ask | None = None
        self._play(Start())

    def _play(self, event) -> list:
        """Play on to the next question, or a night call's round that asks somebody (a round
        that asks nobody, its card in the centre or dead, passes with no answer)."""
        out: list = []
        for _ in range(MAX_STEPS):
            self.state, cues = engine.advance(self.spec, self.config, self.state, event)
            out += cues
            last = cues[-1] if cues else None
            self.ask = last if isinstance(last, (Ask, Collect)) else None
            if isinstance(last, Collect) and not last.requests:
                self.ask, event = None, Answer({})
                continue
            if self.ask or self.state.finished:
                self.cues += out
                return out
            event = Continue()
        raise AssertionError(f"nothing asked in {MAX_STEPS} steps (step '{self.state.step}')")

    def answer(self, *values) -> list:
        """The values answer the questions in order (a night call's round takes one for each
        holder asked, in seat order); the cues from the first answer on."""
        out: list = []
        values = list(values)
        while values:
            assert self.ask is not None, f"no question open: {self.state.step}"
            out += self._play(answer_for(self.ask, lambda line: values.pop(0)))
        return out

    def asked(self, player: str | None = None):
        """The open night call's request to `player` (None: its only one), with its `line` and `choices`."""
        assert isinstance(self.ask, Collect), f"no night call open: {self.state.step}"
        requests = [r for r in self.ask.requests if player is None or r.player == player]
        assert len(requests) == 1, f"asked in this call: {[r.player for r in self.ask.requests]}"
        return requests[0]

    def answer_round(self, answers: dict) -> list:
        """A night call's round answered as given: {holder: target} (a holder left out: the
        call's time ran out on them)."""
        assert isinstance(self.ask, Collect), f"no night call open: {self.state.step}"
        return self._play(Answer({p: {"target": t} for p, t in answers.items()}))

    @property
    def end(self) -> End:
        return next(c for c in self.cues if isinstance(c, End))


def lines(cues) -> list[str]:
    return [c.line for c in cues if hasattr(c, "line")]


def said(cues, line: str) -> list:
    return [c for c in cues if isinstance(c, Say) and c.line == line]


def shown(cues, to: str) -> list[Private]:
    return [c for c in cues if isinstance(c, Private) and c.to == to]
