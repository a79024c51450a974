"""Clip processing, checked by measuring the result: padding trimmed, loudness normalized."""

from narrator.sound.clips import RATE, TARGET_DBFS, measure, process
from tests.audio_helpers import silence, tone, write_wav


def test_padding_is_trimmed_and_loudness_normalized(tmp_path):
    raw = write_wav(tmp_path / "raw.wav", silence(0.4, 48000) + tone(1.5, 300, 0.02, 48000) + silence(0.5, 48000), 48000)
    before = measure(raw)
    assert before["lead_s"] > 0.39 and before["trail_s"] > 0.49 and before["dbfs"] < -35
    out = tmp_path / "out.wav"
    process(raw, out)
    after = measure(out)
    assert after["rate"] == RATE
    assert after["lead_s"] < 0.005 and after["trail_s"] < 0.005
    assert abs(after["seconds"] - 1.5) < 0.02
    assert abs(after["dbfs"] - TARGET_DBFS) < 0.5


def test_loud_and_quiet_clips_end_at_the_same_loudness(tmp_path):
    levels = []
    for amp in (0.01, 0.1, 0.6):
        raw = write_wav(tmp_path / f"raw{amp}.wav", tone(0.5, 500, amp))
        process(raw, tmp_path / f"out{amp}.wav")
        levels.append(measure(tmp_path / f"out{amp}.wav")["dbfs"])
    assert max(levels) - min(levels) < 0.5


def test_peaks_are_kept_below_full_scale(tmp_path):
    # one loud click in a quiet clip: raising its RMS to the target would clip the click
    samples = tone(1.0, 300, 0.005)
    samples[1000] = 32000
    process(write_wav(tmp_path / "raw.wav", samples), tmp_path / "out.wav")
    assert measure(tmp_path / "out.wav")["peak_dbfs"] <= -0.9
