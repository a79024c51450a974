"""Errors a user can fix, each carrying one clear line and an exit status.

The CLI prints `error: <message>` and exits with `exit_code`; nothing else of the
traceback reaches the table, because the message already names the fix.
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
