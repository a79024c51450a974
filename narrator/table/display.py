"""What the terminal shows: the narrator's lines (text mode) and the open question.

Kept apart from the scheduler so that a headless Pi prints nothing, a laptop at the
table shows subtitles, and `--voice text` is a complete way to play.
"""

from __future__ import annotations

import sys
from typing import TextIO

from narrator.cues import Ask


class ConsoleDisplay:
    def __init__(self, show_lines: bool, stream: TextIO | None = None):
        self.show_lines = show_lines
        self.stream = stream or sys.stdout

    def line(self, text: str) -> None:
        if self.show_lines:
            print(text, file=self.stream, flush=True)

    def tick(self, text: str) -> None:
        if self.show_lines:
            print(f"  {text}", file=self.stream, flush=True)

    def prompt(self, ask: Ask) -> None:
        if not self.show_lines:
            return
        if ask.choices == ("done",):
            hint = "Enter when ready"
        elif "done" in ask.choices:
            hint = "Enter when done, or: " + ", ".join(c for c in ask.choices if c != "done")
        elif set(ask.choices) <= {"yes", "no"}:
            hint = "y / n"
        else:
            numbered = ", ".join(f"{i}={name}" for i, name in enumerate(ask.choices, 1))
            hint = f"{'names or numbers, comma-separated' if ask.multiple else 'a name or number'}: {numbered}"
        keys = "r = repeat, p = pause, u = undo" + (", h = help" if ask.help else "")
        print(f"  > ({hint}; {keys})", file=self.stream, flush=True)

    # --- pass-the-device screens (always shown: the player holding the device reads them) ---

    def private(self, player: str, lines: list[str]) -> None:
        """One player's private screen: a heading with their name, then the lines."""
        print(f"\n==== {player} ====", file=self.stream, flush=True)
        for text in lines:
            print(text, file=self.stream, flush=True)

    def clear(self) -> None:
        """Wipe the screen before the device goes to the next player."""
        if getattr(self.stream, "isatty", lambda: False)():
            print("\033[2J\033[3J\033[H", end="", file=self.stream, flush=True)
        else:
            print("\n" * 3 + "---- screen cleared ----", file=self.stream, flush=True)
