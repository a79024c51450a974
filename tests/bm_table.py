"""A Bestia Magica table for scenario tests: an entered deal, then memos and votes by name.

    t = Table("Aki=guard:S,Ben=murderer:N,Chika=beast:S,…")
    t.night(Aki="Dai", Ben="Dai", Chika="Dai")         # players left out suspect someone
    t.vote(Aki="Ben", …)                                # players left out vote for the first choice
"""

from __future__ import annotations

from typing import Any

from narrator.cues import Collect, Cue, Event, Private, Say
from tests.bm_driver import RULES, configure

MAX_STEPS = 500
"""Steps without a question before a table fails: far more than any night and day take, so a
game that never asks again (a discussion left at its own step) fails the test, never hangs it."""


class Table:
    def __init__(self, deal: str, seed: int = 1, **options: Any):
        self.config = configure(deal=deal, seed=seed, **options)
        self.state = RULES.new_state()
        self.cues: list[Cue] = []
        self.collect: Collect | None = None
        self._advance({"type": "start"})
        self._run_to_collect()

    # --- driving ---------------------------------------------------------------------------

    def _advance(self, event: dict[str, Any]) -> list[Cue]:
        self.state, cues = RULES.advance(self.config, self.state, event)
        self.cues += cues
        self.collect = cues[-1] if cues and isinstance(cues[-1], Collect) else None
        return cues

    def _run_to_collect(self) -> list[Cue]:
        out: list[Cue] = []
        for _ in range(MAX_STEPS):
            if self.collect is not None or self.state.finished:
                return out
            out += self._advance({"type": "continue"})
        raise AssertionError(f"the game asked nothing in {MAX_STEPS} steps: stuck at step "
                             f"'{self.state.step}' (last cues {[getattr(c, 'line', c) for c in out[-3:]]})")

    def answer(self, answers: dict[str, Any]) -> list[Cue]:
        """Answer the open round exactly as given; returns the cues up to the next round."""
        cues = self._advance({"type": "answer", "value": answers})
        return cues + self._run_to_collect()

    def night(self, ability: tuple[str, ...] = (), **targets: str) -> list[Cue]:
        """Everyone's memo: named targets, else the first legal choice; `ability` says yes."""
        assert self.collect is not None and self.collect.phase == "night", self.collect
        answers = {}
        for r in self.collect.requests:
            answers[r.player] = {"target": targets.get(r.player, _first_other(r, targets)),
                                 "ability": r.player in ability}
        return self.answer(answers)

    def vote(self, **votes: str) -> list[Cue]:
        assert self.collect is not None and self.collect.phase in ("vote", "revote"), self.collect
        return self.answer({r.player: {"vote": votes.get(r.player, r.choices[0])} for r in self.collect.requests})

    def execute(self, name: str) -> list[Cue]:
        """Everyone votes for `name` (who votes for their first choice)."""
        return self.vote(**{r.player: name for r in self.collect.requests if r.player != name})

    # --- reading ---------------------------------------------------------------------------

    def request(self, name: str):
        assert self.collect is not None
        return next(r for r in self.collect.requests if r.player == name)

    def alive(self, name: str) -> bool:
        return self.state.player(name).alive


def _first_other(request, targets: dict[str, str]) -> str:
    """A harmless default: the first legal choice that nobody named as a target."""
    named = set(targets.values())
    return next((c for c in request.choices if c not in named), request.choices[0])


def events(cues: list[Cue], type_: str | None = None) -> list[Event]:
    return [c for c in cues if isinstance(c, Event) and (type_ is None or c.type == type_)]


def deaths(cues: list[Cue]) -> dict[str, str]:
    return {e.player: e.cause for e in events(cues, "death")}


def privates(cues: list[Cue], to: str) -> list[Private]:
    return [c for c in cues if isinstance(c, Private) and c.to == to]


def said(cues: list[Cue], line: str) -> list[Say]:
    return [c for c in cues if isinstance(c, Say) and c.line == line]
