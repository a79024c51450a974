"""Errors a user can fix, each carrying one clear line and an exit status.

The CLI prints `error: <message>` and exits with `exit_code`; nothing else of the
traceback reaches the table, because the message already names the fix.

Exit statuses (docs/cli.md): 0 the game ended; 1 any other NarratorError; 2 the table
file, a flag, a saved game or the disk needs fixing (nothing already saved was lost);
3 every listener ran dry while a question waits (the game stays saved); 130 Ctrl-C.
"""


class NarratorError(Exception):
    """A problem the user can fix; `str(err)` is the one line to show."""

    exit_code = 1


class SetupError(NarratorError):
    """The table file or the command line describes a game that cannot be played."""

    exit_code = 2


class AnswerError(NarratorError):
    """An answer (scripted or typed) does not fit the question asked."""

    exit_code = 2


class NoMoreAnswers(NarratorError):
    """Every listener has run dry while a question waits; the game stays saved."""

    exit_code = 3


class SaveError(NarratorError):
    """The disk refused a write or a read (full, read-only, permissions, a bad path)."""

    exit_code = 2


class DamagedGame(NarratorError):
    """A saved game's files cannot be trusted as they are; the line says what to do."""

    exit_code = 2


class GameBusy(NarratorError):
    """Another narrator holds the game's lock."""

    exit_code = 2
