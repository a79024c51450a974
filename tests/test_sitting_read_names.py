"""The appliance names a game's players again before each game (`Sitting.read_names`): the host
screen may have renamed them since the sitting opened. The voice then says each name by its
reading, and a reading typed at the keyboard names its player (the hub's vocabulary)."""

from narrator.cues import Ask
from narrator.settings import build_settings
from narrator.table.session import RunOptions, open_sitting
from tests.test_prompts_fit_inputs import _offer


def test_a_sitting_reads_new_names_and_a_typed_reading_names_its_player():
    run = RunOptions.from_settings(build_settings({"voice": "text"}, {}, "test"), keyboard=False)
    sitting = open_sitting(run, warn=lambda message: None, names=("Aki", "Ben"))
    try:
        sitting.read_names(("心愛", "Ken"), {"心愛": "ここあ"})
        pack = sitting.scheduler.voice.pack
        assert pack.name_readings["心愛"] == "ここあ"
        assert sitting.hub.vocabulary.readings["心愛"] == "ここあ"
        sitting.hub.register("keyboard")
        assert _offer(sitting.hub, Ask("nomination.who", ("心愛", "Ken")), "ここあ") == "心愛"
    finally:
        sitting.close()
