"""Pagan's rulings as a table sees them: the reminder `help` speaks, the recap on resume, the
answer refused with what it should have been, and the counts kept with the winner (issue 29).

Each test plays answers in and reads the lines said, the question asked or the outcome kept
out; the rule text is /work/shared/rules/witch-and-hunter.ja.txt (DIGEST.md section 3).
"""

import pytest

from narrator.cues import Ask, End, Say
from narrator.errors import AnswerError
from tests.engine_driver import configure
from tests.pagan_script import SETUP, game, turn


def play(answers):
    """The state and the last step's cues after `answers` (every one of them asked for)."""
    rules, config = configure("pagan")
    state, cues = rules.advance(config, rules.new_state(), {"type": "start"})
    for answer in answers:
        state, cues = rules.advance(config, state, {"type": "answer", "value": answer})
    return rules, config, state, cues


def test_help_during_the_setup_reads_the_setup_reminder_from_the_first_question_to_the_last():
    rules, config, state, cues = play([])
    assert cues[0] == Say("pagan.setup.welcome")
    assert cues[-1] == Ask("pagan.setup.shuffle_suspects", ("done",), help=("pagan.help.setup",))
    _, _, _, cues = play(SETUP[:-1])
    assert cues[-1] == Ask("pagan.setup.influence", ("done",), help=("pagan.help.setup",))


def test_help_on_the_witchs_first_turn_and_on_each_sides_later_turns():
    _, _, _, cues = play(SETUP)
    assert cues[-1].help == ("pagan.help.witch_first_turn", "pagan.help.villager_visit")
    _, _, _, cues = play(SETUP + turn("witch", first=True))
    assert cues[-1].help == ("pagan.help.villager_visit", "pagan.help.general", "pagan.help.hunter_board")
    _, _, _, cues = play(SETUP + turn("witch", first=True) + turn("hunter"))
    assert cues[-1].help == ("pagan.help.villager_visit", "pagan.help.general", "pagan.help.witch_board")


def test_resume_during_the_setup_says_the_setup_recap_and_starts_no_clock():
    rules, config, state, _ = play(SETUP[:2])
    assert rules.recap(config, state) == [Say("pagan.resume.recap_setup")]
    rules, config, state, _ = play([])
    assert rules.recap(config, state) == [Say("pagan.resume.recap_setup")]
    rules, config, state, _ = play(SETUP + ["done"])
    assert rules.recap(config, state) == [Say("pagan.resume.recap_witch", {"turn": 1})]


def test_an_answer_that_is_not_done_is_refused_naming_it_during_setup_and_upkeep():
    rules, config, state, _ = play([])
    with pytest.raises(AnswerError, match="expected done, got 'ritual'"):
        rules.advance(config, state, {"type": "answer", "value": "ritual"})
    with pytest.raises(AnswerError, match=r"waiting for an answer \(setup\), not 'continue'"):
        rules.advance(config, state, {"type": "continue"})


def test_a_report_of_the_other_side_is_refused_naming_the_answers_open_to_this_side():
    rules, config, state, _ = play(SETUP + turn("witch", first=True) + ["done"] * 6)  # the hunter's actions
    with pytest.raises(AnswerError, match=r"'ritual' is not an answer on the hunter's turn; "
                                          r"answer done, innocent, exonerated, witch$"):
        rules.advance(config, state, {"type": "answer", "value": "ritual"})


@pytest.mark.parametrize("answers,ending,winner,innocents,exonerated", [
    (game(["innocent", "exonerated", "exonerated"], ["innocent", "innocent"]), "innocent", "witch", 3, 2),
    (game(["exonerated", "innocent", "witch"]), "witch", "hunter", 1, 1),
    (game(["exonerated", "done", "done"], ritual=True), "ritual", "witch", 0, 1),
])
def test_the_kept_outcome_holds_the_counts_the_game_ended_with(answers, ending, winner, innocents, exonerated):
    _, _, state, cues = play(answers)
    end = cues[-1]
    assert isinstance(end, End) and end.winner == winner and end.line == f"pagan.end.{ending}"
    assert end.outcome == {"ending": ending, "turn": state.turn, "innocents": innocents, "exonerated": exonerated}
