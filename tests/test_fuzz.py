"""Fuzzing `narrator` as a real process (hypothesis, a few examples per category so the suite
stays quick; bench/fuzz_cli.py runs many and prints the issue's table).

Every run ends within tests/fuzz_harness.TIME_BOUND seconds with exit 0, or with one
`error:` line and exit 2 or 3; a value the docs refuse is never played, and a refused
resume never changes the saved game.
"""

from hypothesis import HealthCheck, given, settings
import pytest

from tests import fuzz_harness as fh

pytestmark = pytest.mark.slow  # the narrator as a real process

FUZZ = settings(max_examples=8, deadline=None, database=None, derandomize=False,
                suppress_health_check=list(HealthCheck))


def check(outcome, valid, what):
    tally = fh.Tally()
    tally.add(outcome, valid, what)
    assert tally.tried == 1 and not (tally.hangs or tally.tracebacks or tally.wrongly), tally.examples


@FUZZ
@given(fh.table_files())
def test_table_files(case):
    data, valid = case
    check(fh.run_table(data), valid, repr(data[:200]))


@FUZZ
@given(fh.answers_files())
def test_answers_lines(case):
    game, data = case
    check(fh.run_answers(game, data), None, f"{game} {data[:200]!r}")


@FUZZ
@given(fh.cli_flags())
def test_cli_flags(case):
    command, flags, valid = case
    check(fh.run_flags(command, flags), valid, f"{command} {flags}")


def test_the_oracle_can_fail():
    """The checks count what they must: a hang, a traceback, an invalid value played."""
    tally = fh.Tally()
    tally.add(fh.Outcome(None, ""), True, "hang")
    tally.add(fh.Outcome(1, "Traceback (most recent call last):\n"), True, "traceback")
    tally.add(fh.Outcome(2, "error: one\nerror: two\n"), False, "two lines")
    tally.add(fh.Outcome(0, ""), False, "played an invalid value")
    tally.add(fh.Outcome(2, "error: refused\n", saved_changed=True), False, "saved before checked")
    tally.add(fh.Outcome(2, "warning: x\nerror: refused\n"), False, "a clean refusal")
    assert (tally.hangs, tally.tracebacks, tally.wrongly) == (1, 2, 2)
