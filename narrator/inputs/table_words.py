"""The table's own words: what a press, a hands-free word or a typed word does that is no answer.

Beside the open question, the table speaks to the narrator's machinery: a press or "done"
confirms a phone waiting to be the host screen, a button gesture or the voice says
`release_host`, the terminal types `release Aki`. Each is taken before the words are read as
an answer, and each belongs to someone on a higher floor (the phones) who hands the hub a
callable. That is a job of its own: who may say these words and who owns them, apart from
what fits the question. `TableWords` is mixed into `ListenerHub` (hub.py), as
`PrivateAnswers` is: one hub, so every listener's words meet these first.
"""

from __future__ import annotations

from typing import Callable

TABLE_SOURCES = frozenset({"keyboard", "button", "voice"})
"""Inputs at the table itself (not a phone, not a script): only they confirm a host screen."""
HANDS_FREE = frozenset({"button", "voice"})
"""The table's inputs with no terminal: their `table_actions` (the keyboard types commands)."""


class TableWords:
    """The table's-own-words half of `ListenerHub`: claims, hands-free actions, typed commands."""

    def __init__(self, table_to_come: bool = False) -> None:
        self._table_commands: dict[str, Callable[[str], str]] = {}
        self.table_claim: Callable[[], bool] | None = None
        """The phones: a press or "done" at the table confirms a phone waiting to be the host
        screen (True when it did, and the words are spent)."""
        self.table_actions: dict[str, Callable[[], None]] = {}
        """Words a button gesture or the voice says for the table (`release_host`): what they do."""
        self.table_to_come = table_to_come
        """A keyboard, button or microphone of the table's is still to start (a sitting's, until
        `start_listeners`): a phone claiming the host screen meanwhile waits for its press."""
        self.table_ready_watchers: list[Callable[[], None]] = []
        """Called when the table's inputs have started (the phones give a waiting claim its
        whole window from then)."""

    def _taken_by_table(self, meaning: str | None, text: str, source: str) -> bool:
        """Whether the words are the table's rather than an answer: a `done`/`yes` the table
        claims (it is waiting for one), or a hands-free action word (a button, the voice)."""
        if (meaning in ("done", "yes") and source in TABLE_SOURCES and self.table_claim is not None
                and self.table_claim()):
            return True
        action = self.table_actions.get(meaning or text.strip())
        if action is not None and source in HANDS_FREE:
            action()
            return True
        return False

    def _table_command(self, text: str, source: str) -> str | None:
        """What a word typed at the table's own terminal (`release Aki`) returns to print; None
        when the words are no such command (a phone, a script, or another word)."""
        word, _, rest = text.strip().partition(" ")
        if source == "keyboard" and word.casefold() in self._table_commands:
            return self._table_commands[word.casefold()](rest.strip())
        return None

    def table_started(self) -> None:
        """The table's own inputs have started (`Sitting.start_listeners`): tell `table_ready_watchers`."""
        self.table_to_come = False
        for ready in self.table_ready_watchers:
            ready()

    def set_table_claim(self, claim: Callable[[], bool]) -> None:
        """A press or "done" at the table is first offered to `claim` (the phones' host screen)."""
        self.table_claim = claim

    def drop_table_claim(self, claim: Callable[[], bool]) -> None:
        """`claim` no longer takes the table's presses (another claim set since stays)."""
        if self.table_claim == claim:
            self.table_claim = None

    def add_table_action(self, word: str, action: Callable[[], None]) -> None:
        """A word a button gesture or the voice says for the table (`release_host`): what it does."""
        self.table_actions[word] = action

    def add_table_command(self, word: str, handler: Callable[[str], str]) -> None:
        """A word typed at the table's own terminal (`release Aki`): `handler(rest)` returns what to print."""
        self._table_commands[word.casefold()] = handler

    def _forget_table_words(self, owner: object) -> None:
        """Drop the table commands and actions whose bound method belongs to `owner` (`forget`)."""
        self._table_commands = {w: h for w, h in self._table_commands.items()
                                if getattr(h, "__self__", None) is not owner}
        self.table_actions = {w: h for w, h in self.table_actions.items() if getattr(h, "__self__", None) is not owner}
