"""The microphone path through PortAudio, on ALSA's `null` device (a source of silence).

CI machines have no sound card; an `.asoundrc` that makes `null` the default device lets
PortAudio open a real capture stream, so the code that opens the microphone, reads 0.1 s
chunks and closes it runs for real. Each run is a subprocess with its own HOME, because
ALSA reads `~/.asoundrc` once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.setup_parts import missing

pytestmark = pytest.mark.slow  # a subprocess per run, PortAudio on ALSA's null device

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def null_alsa_home(tmp_path):
    try:
        import sounddevice  # noqa: F401
    except OSError:
        missing("app", "PortAudio is not installed (scripts/setup installs libportaudio2)")
    home = tmp_path / "alsa-home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
    return {**os.environ, "HOME": str(home)}


def run(env, *args, code=None, timeout=60):
    argv = [sys.executable, "-c", code] if code else [sys.executable, "-m", "narrator", *args]
    return subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_the_microphone_streams_16khz_chunks(null_alsa_home):
    code = (
        "from narrator.inputs.voice.microphone import Microphone\n"
        "mic = Microphone(16000)\n"
        "sizes = []\n"
        "for chunk in mic.chunks():\n"
        "    sizes.append(len(chunk))\n"
        "    if len(sizes) == 5:\n"
        "        break\n"
        "mic.close()\n"
        "print(sizes)\n"
    )
    result = run(null_alsa_home, code=code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str([3200] * 5)  # 0.1 s of 16-bit mono at 16 kHz each


def test_a_missing_input_device_is_one_line(null_alsa_home):
    code = (
        "from narrator.inputs.voice.microphone import Microphone, InputUnavailable\n"
        "try:\n"
        "    Microphone(16000, 'no-such-microphone')\n"
        "except InputUnavailable as err:\n"
        "    print(err)\n"
    )
    result = run(null_alsa_home, code=code)
    assert result.stdout.startswith("no microphone (") and "--input-device" in result.stdout


def test_doctor_lists_the_input_device(null_alsa_home):
    result = run(null_alsa_home, "doctor")
    assert "ok  listening: microphone: 0: default (default)" in result.stdout


def test_listen_on_the_microphone_stops_after_its_seconds(null_alsa_home):
    """`null` is not clocked (it delivers "audio" as fast as it is read, mostly zeros), so
    what is heard is not asserted: only that the microphone path runs and stops on time."""
    import time

    from tests.voice_support import ko_model_path

    started = time.monotonic()
    result = run(null_alsa_home, "listen", "--model", str(ko_model_path()), "--grammar", "네,아니요",
                 "--seconds", "1")
    assert result.returncode == 0, result.stderr
    assert "listening for: 네, 아니요 (Ctrl-C to stop)" in result.stderr
    assert all(line.startswith("heard 「") for line in result.stdout.splitlines())
    assert time.monotonic() - started < 30


def test_a_microphone_that_records_only_at_its_own_rate_is_resampled(null_alsa_home):
    """ALSA's null device takes 16 kHz; asking for a rate it refuses shows the fallback path."""
    code = (
        "from narrator.inputs.voice.microphone import Microphone\n"
        "import sounddevice\n"
        "real = sounddevice.check_input_settings\n"
        "def only_48k(**kw):\n"
        "    if kw.get('samplerate') != 48000:\n"
        "        raise sounddevice.PortAudioError('Invalid sample rate')\n"
        "    return real(**kw)\n"
        "sounddevice.check_input_settings = only_48k\n"
        "real_query = sounddevice.query_devices\n"
        "sounddevice.query_devices = lambda device=None, kind=None: {**real_query(device, kind), 'default_samplerate': 48000.0}\n"
        "mic = Microphone(16000)\n"
        "sizes = []\n"
        "for chunk in mic.chunks():\n"
        "    sizes.append(len(chunk))\n"
        "    if len(sizes) == 3:\n"
        "        break\n"
        "mic.close()\n"
        "print(mic.device_rate, sizes)\n"
    )
    result = run(null_alsa_home, code=code)
    assert result.returncode == 0, result.stderr
    rate, sizes = result.stdout.split(" ", 1)
    assert rate == "48000"
    assert all(3190 <= n <= 3210 for n in eval(sizes))  # 0.1 s at 48 kHz → 0.1 s at 16 kHz
