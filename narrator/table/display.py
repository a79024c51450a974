"""What the terminal shows: the narrator's lines (text mode) and the open question.

Kept apart from the scheduler so that a headless Pi prints nothing, a laptop at the
table shows subtitles, and `--voice text` is a complete way to play. A countdown and the
time left of a timer update one line (in place on a terminal, one line of numbers in a
log) instead of a line a second; hints come from the pack (`Hints`), in the game's language.
"""

from __future__ import annotations

import sys
from typing import TextIO

from narrator.cues import Ask
from narrator.inputs.hints import Hints


class ConsoleDisplay:
    def __init__(self, show_lines: bool, stream: TextIO | None = None, hints: Hints | None = None):
        self.show_lines = show_lines
        self.stream = stream or sys.stdout
        self.hints = hints or Hints()
        self._counting = False
        """A countdown or timer line is open (the next line starts on a new one)."""

    @property
    def in_place(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def _print(self, text: str) -> None:
        self.end_count()
        print(text, file=self.stream, flush=True)

    def line(self, text: str) -> None:
        if self.show_lines:
            self._print(text)

    def tick(self, text: str) -> None:
        """One countdown number: over the last one on a terminal, after it in a log."""
        if not self.show_lines:
            return
        if self.in_place:
            print(f"\r\033[K  {text}", end="", file=self.stream, flush=True)
        else:
            print(f" {text}" if self._counting else f"  {text}", end="", file=self.stream, flush=True)
        self._counting = True

    def time_left(self, seconds: float) -> None:
        """A timer's time left (m:ss), updated in place on a terminal."""
        whole = max(0, int(round(seconds)))
        self.tick(self.hints.text("time_left", time=f"{whole // 60}:{whole % 60:02d}"))

    def end_count(self) -> None:
        if self._counting:
            self._counting = False
            print(file=self.stream, flush=True)

    def prompt(self, ask: Ask) -> None:
        if not self.show_lines:
            return
        hints = self.hints
        if ask.choices == ("done",):
            hint = hints.text("enter_ready")
        elif "done" in ask.choices:
            hint = hints.text("enter_done_or", choices=hints.choices(c for c in ask.choices if c != "done"))
        elif set(ask.choices) <= {"yes", "no"}:
            hint = hints.text("yes_no")
        else:
            numbered = ", ".join(f"{i}={name}" for i, name in enumerate(ask.choices, 1))
            hint = hints.text("names" if ask.multiple else "name", numbered=numbered)
        keys = hints.text("keys_help" if ask.help else "keys")
        self._print(f"  > ({hint}; {keys})")

    # --- pass-the-device screens (always shown: the player holding the device reads them) ---

    def private(self, player: str, lines: list[str]) -> None:
        """One player's private screen: a heading with their name, then the lines."""
        self.end_count()
        print(f"\n==== {player} ====", file=self.stream, flush=True)
        for text in lines:
            print(text, file=self.stream, flush=True)

    def clear(self) -> None:
        """Wipe the screen before the device goes to the next player."""
        if getattr(self.stream, "isatty", lambda: False)():
            print("\033[2J\033[3J\033[H", end="", file=self.stream, flush=True)
        else:
            print("\n" * 3 + "---- screen cleared ----", file=self.stream, flush=True)
