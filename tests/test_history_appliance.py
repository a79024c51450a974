"""The appliance says tonight's winners in one line when the table asks after a game (issue 28):
`no` to "play again?" (three presses, or the word), then the spoken setup's offer."""

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.errors import NoMoreAnswers
from narrator.table.transcript import read_transcript
from tests.test_history_browser import finished_game

pytestmark = pytest.mark.slow  # a narrator process plays the evening's first game


def serve_until_the_answers_run_out(tmp_path, *answers, **table):
    transcript = tmp_path / "t.jsonl"
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    overrides = {"voice": "text", "lang": "en", "time_scale": "0", "transcript": str(transcript),
                 "answers": str(script), **table}
    with pytest.raises(NoMoreAnswers):  # no --once: after "play again?" it offers the next game
        serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides), log=lambda m: None)
    return [r for r in read_transcript(transcript) if r["kind"] in ("say", "ask")]


def test_after_a_game_it_says_tonights_winners_most_wins_first_then_asks(narrator_home, tmp_path):
    """Issue 37: the winners are said at once, not behind a 「いいえ」 to "play again?" (a `no`
    that then went on to the spoken setup); `no` only changes the settings."""
    finished_game(tmp_path)  # digital cards: Aki, Dai and Emi won
    said = serve_until_the_answers_run_out(tmp_path, "yes", "done", "yes", "no")
    lines = [r["line"] for r in said]
    at = lines.index("appliance.winners")
    assert lines[at:at + 4] == ["appliance.winners", "appliance.again", "title.additional_werewolf", "appliance.offer"]
    assert said[at]["text"] == "Tonight's winners, most wins first: Aki, Dai and Emi."
    assert not any("say no" in r["text"] or "winners" in r["text"] for r in said if r["line"] == "appliance.again")


def test_without_known_winners_it_says_so_and_with_history_off_it_offers_nothing(narrator_home, tmp_path):
    said = serve_until_the_answers_run_out(tmp_path, "yes", "done", "yes", "no")
    assert "appliance.no_winners" in [r["line"] for r in said]  # physical cards: nobody's win is known
    off = tmp_path / "off"
    off.mkdir()
    said = serve_until_the_answers_run_out(off, "yes", "done", "yes", "done", history="false")
    assert not {"appliance.winners", "appliance.no_winners"} & {r["line"] for r in said}
