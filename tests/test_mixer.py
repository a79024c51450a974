"""The mixer puts every clip on its exact sample, takes back cancelled ones, ducks ambience."""

import array

from narrator.sound.clips import RATE
from narrator.sound.mixer import DUCK_GAIN, Mixer
from tests.audio_helpers import rms_dbfs, tone


def samples(b: bytes) -> array.array:
    return array.array("h", b)


def test_clip_starts_on_its_sample_across_block_edges():
    mixer = Mixer()
    clip = array.array("h", [1000] * 50).tobytes()
    mixer.place(clip, 1234)
    out = samples(b"".join(mixer.render(f, 240) for f in range(0, 2400, 240)))
    assert out[1233] == 0 and out[1234] == 1000 and out[1283] == 1000 and out[1284] == 0
    assert mixer.onsets == {1: 1234}


def test_overlapping_clips_are_added():
    mixer = Mixer(keep_played=True)
    mixer.place(array.array("h", [1000] * 10).tobytes(), 0)
    mixer.place(array.array("h", [500] * 10).tobytes(), 5)
    out = samples(mixer.render(0, 20))
    assert list(out[:5]) == [1000] * 5 and list(out[5:10]) == [1500] * 5 and list(out[10:15]) == [500] * 5


def test_cancel_takes_back_a_clip_not_yet_begun_only():
    mixer = Mixer()
    early = mixer.place(array.array("h", [1000] * 10).tobytes(), 0)
    late = mixer.place(array.array("h", [1000] * 10).tobytes(), 500)
    mixer.render(0, 100)
    assert not mixer.cancel(early, after=100)
    assert mixer.cancel(late, after=100)
    assert max(samples(mixer.render(100, 1000))) == 0


def test_ambience_is_ducked_under_speech_to_the_sample():
    mixer = Mixer(keep_played=True)
    loop = tone(0.5, 200, 0.5).tobytes()
    mixer.start_ambience(loop, 0, gain=1.0)
    mixer.place(tone(1.0, 1000, 0.0001).tobytes(), RATE)  # near-silent "speech" from 1 s to 2 s
    mixer.stop_ambience(3 * RATE)
    out = samples(mixer.render(0, 4 * RATE))
    before = rms_dbfs(out[RATE // 2:RATE - 10])
    during = rms_dbfs(out[RATE + 10:2 * RATE - 10])
    after = rms_dbfs(out[2 * RATE + 10:3 * RATE - 10])
    import math
    assert abs((before - during) - (-20 * math.log10(DUCK_GAIN))) < 0.5
    assert abs(before - after) < 0.5
    assert max(out[3 * RATE:]) == 0  # stopped


def test_volume_scales_the_mix():
    mixer = Mixer(volume=0.5)
    mixer.place(array.array("h", [1000] * 10).tobytes(), 0)
    assert samples(mixer.render(0, 10))[0] == 500
