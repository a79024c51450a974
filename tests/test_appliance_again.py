"""After a game on the appliance (issue 23): one press of the button, or "one more" (「もう一回」),
plays the same settings again, reshuffled, with no second question; three presses or "no"
offer to change the settings (the spoken setup), after tonight's winners when the history is on."""

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.errors import NoMoreAnswers
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript

pytestmark = pytest.mark.slow  # the appliance plays a game or two (instant clock, text voice)


def serve_until_the_answers_run_out(tmp_path, *answers, **table):
    transcript = tmp_path / "t.jsonl"
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    overrides = {"voice": "text", "lang": "en", "time_scale": "0", "transcript": str(transcript),
                 "answers": str(script), **table}
    with pytest.raises(NoMoreAnswers):
        serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides), log=lambda m: None)
    return [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask")]


def test_one_press_at_play_again_replays_the_same_settings_reshuffled(narrator_home, tmp_path):
    """A press (the word: tests/test_spoken_setup.py's 「もう一回」)."""
    lines = serve_until_the_answers_run_out(tmp_path, "yes", "done", "yes", "done", "done", "yes", history="false")
    assert lines.count("appliance.offer") == 1 and lines.count("setup.welcome") == 2
    again = lines.index("appliance.again")
    assert lines[again + 1:].index("setup.welcome") < 3  # straight into the next game's setup
    first, second = saved_games(narrator_home)
    assert first.meta["finished"] and second.meta["finished"]
    assert {k: v for k, v in first.meta["config"].items() if k != "seed"} == {
        k: v for k, v in second.meta["config"].items() if k != "seed"}
    assert first.meta["config"]["seed"] != second.meta["config"]["seed"]


@pytest.mark.parametrize("history", ["false", "true"])
def test_no_at_play_again_offers_to_change_the_settings(narrator_home, tmp_path, history):
    lines = serve_until_the_answers_run_out(tmp_path, "yes", "done", "yes", "no", history=history)
    again = lines.index("appliance.again")
    # tonight's winners are said after the game, before "play again?" (issue 37, item 8: no
    # 「いいえ」 needed to hear them); with physical cards none are known
    assert ("appliance.no_winners" in lines[:again]) == (history == "true")
    assert lines[again + 1:] == ["title.additional_werewolf", "appliance.offer"]
    assert len(saved_games(narrator_home)) == 1
