"""Repeat a heard answer back and let the table confirm it before it counts.

A small grammar forces any speech onto one of its words, often with confidence 1.0, so
an answer that ends or changes the game (a werewolf found, a name) is said back —
「Akiさんですね？」 — and only a はい makes it count; いいえ (or `undo`) reopens the question.
The confirmation is an ordinary `Ask` played by the scheduler, so the transcript shows it
(`ask confirm.name`, then `answer yes`) and every listener, the keyboard too, can answer it.
It lives with the scheduler, which asks it: the hub only marks a heard answer `confirm`, and
nothing below the table calls back up into it.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from narrator.cues import Ask, Cue, Say
from narrator.inputs.heard import Heard
from narrator.sound.voice import Voice

YES_NO = ("yes", "no")


def confirmation(heard: Heard, vocabulary: Mapping[str, Any] | None = None) -> Ask:
    """The question that repeats `heard` back: yes/no, a game's own answer word, or names."""
    if heard.value in ("yes", "no"):
        return Ask(f"confirm.{heard.value}", YES_NO)
    words = (vocabulary or {}).get(heard.value) if isinstance(heard.value, str) else None
    if words:  # a game's own answer (innocent, witch …): said back in the pack's first word for it
        return Ask("confirm.answer", YES_NO, params={"answer": words if isinstance(words, str) else words[0]})
    names = list(heard.value) if isinstance(heard.value, (list, tuple)) else [heard.value]
    return Ask("confirm.name", YES_NO, params={"names": names})


class Asks(Protocol):
    """What the confirmer uses of the scheduler (`Scheduler`, which imports this module): the
    step's context, its voice's pack words, and playing a question."""

    @property
    def context(self) -> dict[str, Any]: ...

    @property
    def voice(self) -> Voice: ...

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None: ...


class Confirmer:
    """The scheduler's confirmer: plays the confirmation through it."""

    def __init__(self, scheduler: Asks):
        self.scheduler = scheduler

    async def confirmed(self, ask: Ask, heard: Heard) -> bool:
        """Whether `heard` counts: asked back first when the hub marked it `confirm`."""
        return not heard.confirm or await self(ask, heard)

    async def __call__(self, ask: Ask, heard: Heard) -> bool:
        context = dict(self.scheduler.context)
        vocabulary = getattr(getattr(self.scheduler.voice, "pack", None), "vocabulary", None)
        reply = await self.scheduler.play([confirmation(heard, vocabulary)], context)
        if reply is not None and reply.value == "yes":
            return True
        # 「では、もう一度答えてください」, then the question itself: the table may have lost it
        await self.scheduler.play([Say("confirm.again"), Say(ask.line, dict(ask.params))], context)
        return False
