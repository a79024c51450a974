"""A whole game written with --audio-out at --time-scale 0, checked by analysing the WAV."""

import asyncio
import subprocess
import sys

import pytest

from narrator import home
from narrator.games import get_game
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.session import RunOptions, open_sitting
from narrator.settings import build_settings
from narrator.table.store import GameStore
from narrator.table.transcript import read_transcript
from tests.audio_helpers import first_sound, read_wav, rms_dbfs

pytestmark = pytest.mark.slow
NAMES = "Aki,Ben,Chie,Dai,Emi"
ANSWERS = "done\nAki\nno\nno\ndone\nBen,Chie\nno\nno\ndone\nDai\nno\nno\n"
THRESHOLD = 50
"""A line's onset: its first sample above −56 dBFS (between clips the WAV is digital silence)."""


def play_cli(tmp_path, *flags, lang="en"):
    (tmp_path / "answers.txt").write_text(ANSWERS)
    cmd = [sys.executable, "-m", "narrator", "play", "--names", NAMES, "--lang", lang, "--time-scale", "0",
           "--answers", str(tmp_path / "answers.txt"), "--no-keyboard", "--audio-out", str(tmp_path / "game.wav"),
           "--transcript", str(tmp_path / "t.jsonl"), *flags]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return read_transcript(tmp_path / "t.jsonl"), *read_wav(tmp_path / "game.wav")


def find_clip(samples, clip, around: int, reach: int) -> int | None:
    """The sample index near `around` where the WAV holds exactly the clip's first 10 ms."""
    head = clip[:240]
    for d in sorted(range(-reach, reach + 1), key=abs):
        if samples[around + d:around + d + len(head)] == head:
            return around + d
    return None


@pytest.mark.parametrize("lang", ["en", "ja"])  # espeak-ng; Open JTalk where installed
def test_countdown_onsets_in_the_wav_fall_on_whole_seconds(tmp_path, lang):
    import array

    from narrator.sound.voice import EngineVoice, open_engine
    from narrator.sound.voicepack import load_pack

    records, samples, rate = play_cli(tmp_path, "--ambience", "false", lang=lang)
    pack = load_pack(lang)
    voice = EngineVoice(pack, open_engine(pack))
    ticks = [r for r in records if r["kind"] == "tick"]
    assert len(ticks) > 50
    countdown_start, previous_n, later_ticks = None, None, []
    for r in ticks:
        if countdown_start is None or r["n"] > previous_n:
            countdown_start = r["t"]
        else:
            later_ticks.append(r)
        previous_n = r["n"]
        offset = r["t"] - countdown_start
        assert abs(offset - round(offset)) < 0.001  # scheduled on whole seconds of the countdown
        # found in the WAV: where the number's own samples begin, searched ±50 ms around t
        clip = array.array("h", voice.clip("tick", {"n": r["n"]}).pcm)
        found = find_clip(samples, clip, round(r["t"] * rate), reach=rate // 20)
        assert found is not None and abs(found / rate - r["t"]) < 0.010, (r, found)
    # the silence before each number after the first of a countdown ends where the number begins
    for r in later_ticks:
        start = round(r["t"] * rate)
        assert not any(samples[start - rate // 5:start - rate // 100]), r  # 200 ms to 10 ms before: silent
    # the WAV is the whole session: it lasts at least until the last line's start
    assert len(samples) / rate >= records[-1]["t"]
    # every spoken line starts where the transcript says
    for r in [r for r in records if r["kind"] in ("say", "ask", "end")]:
        start = first_sound(samples, rate, r["t"] - 0.0005, r["t"] + 0.5, THRESHOLD)
        assert start is not None and abs(start - r["t"]) < 0.010, r


def test_night_ambience_is_heard_at_night_only_and_ducked_under_speech(tmp_path):
    records, samples, rate = play_cli(tmp_path)
    first_tick = next(r for r in records if r["kind"] == "tick" and r["night"] == 1)
    between_ticks = samples[int((first_tick["t"] + 0.7) * rate):int((first_tick["t"] + 0.95) * rate)]
    night_level = rms_dbfs(between_ticks)
    assert -40 < night_level < -15  # the loop plays between the numbers at night
    tick_clip = samples[int((first_tick["t"] + 0.05) * rate):int((first_tick["t"] + 0.15) * rate)]
    assert rms_dbfs(tick_clip) > night_level  # speech stays on top
    timer = next(r for r in records if r["kind"] == "timer" and r["line"] == "discussion")
    day_quiet = samples[int((timer["t"] + 5) * rate):int((timer["t"] + 6) * rate)]
    assert rms_dbfs(day_quiet) == float("-inf")  # no ambience by day
    setup_quiet = [r for r in records if r["kind"] == "tick" and r["night"] == 0][1]
    assert rms_dbfs(samples[int((setup_quiet["t"] + 0.7) * rate):int((setup_quiet["t"] + 0.95) * rate)]) == float("-inf")


def test_a_game_rendered_ahead_synthesizes_nothing_while_it_plays(tmp_path):
    (tmp_path / "answers.txt").write_text(ANSWERS)
    settings = build_settings({}, {"names": NAMES, "lang": "en", "time_scale": 0}, "test")
    rules = get_game(settings.game)
    config = rules.configure(settings)
    run = RunOptions(lang="en", time_scale=0, answers=str(tmp_path / "answers.txt"), keyboard=False,
                     audio_out=str(tmp_path / "game.wav"))
    sitting = open_sitting(run, game=rules, config=config)
    voice = sitting.scheduler.voice
    assert voice.engine_name == "pyttsx3"
    before = voice.synthesized
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), run.to_dict())

    async def main():
        sitting.start_listeners(asyncio.get_running_loop())
        return await play_loop(rules, config, store, sitting.scheduler, start_position(rules, config, store))

    try:
        state = asyncio.run(main())
    finally:
        sitting.close()
    assert state.finished
    assert voice.synthesized == before  # "Ben, Chie" (a pair) was rendered ahead too
