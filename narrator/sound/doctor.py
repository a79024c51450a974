"""`narrator doctor`: what is installed and working here, and the command that fixes the rest.

Each check is a function returning `Finding`s; `CHECKS` is the list the command runs, in
order, so another part of the app (the vosk engine's model and microphone checks, say)
adds its own with `register(check)`. A check never raises: a crash becomes a finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from narrator.errors import NarratorError


@dataclass(frozen=True)
class Finding:
    """One thing looked at: `ok`, what was found, and (when not ok) the command that fixes it."""

    area: str
    ok: bool
    what: str
    fix: str = ""
    optional: bool = False
    """A missing optional piece is reported but does not make the doctor fail."""


Check = Callable[[], list[Finding]]
CHECKS: list[Check] = []

APT_OPENJTALK = "scripts/setup  (or: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic hts-voice-nitech-jp-atr503-m001, after enabling Debian contrib)"


def register(check: Check) -> Check:
    """Add a check to `narrator doctor` (usable as a decorator)."""
    CHECKS.append(check)
    return check


def run_checks(checks: list[Check] | None = None) -> list[Finding]:
    findings: list[Finding] = []
    for check in checks if checks is not None else CHECKS:
        try:
            findings += check()
        except Exception as err:  # a broken check must not hide the others
            findings.append(Finding(getattr(check, "__name__", "check"), False, f"the check itself failed: {err}"))
    return findings


@register
def check_engines() -> list[Finding]:
    from narrator.sound.engines import EngineUnavailable, load_tts, tts_engine_names

    fixes = {
        "pyttsx3": "sudo apt-get install espeak-ng libespeak-ng1 && .venv/bin/pip install -e engines/pyttsx3",
        "openjtalk": APT_OPENJTALK,
    }
    findings = []
    names = tts_engine_names()
    for name in sorted(set(names) | set(fixes)):
        if name not in names:
            findings.append(Finding("engine", False, f"{name}: not installed", f".venv/bin/pip install -e engines/{name}"))
            continue
        try:
            engine = load_tts(name)
            findings.append(Finding("engine", True, f"{name}: works (reads kanji: {'yes' if engine.reads_kanji else 'no'})"))
        except (EngineUnavailable, NarratorError) as err:
            findings.append(Finding("engine", False, f"{name}: {err}", fixes.get(name, "scripts/setup")))
    return findings


@register
def check_audio() -> list[Finding]:
    from narrator.sound.outputs import AudioUnavailable, import_sounddevice, output_devices

    try:
        import_sounddevice()
    except AudioUnavailable as err:
        return [Finding("audio", False, f"PortAudio/sounddevice: {err}", "sudo apt-get install libportaudio2 && scripts/setup")]
    findings = [Finding("audio", True, "PortAudio and sounddevice: installed")]
    devices = output_devices()
    if devices:
        findings += [Finding("audio", True, f"output device {d}") for d in devices]
    else:
        findings.append(Finding("audio", False, "no audio output device",
                                "connect a speaker (USB or 3.5 mm), or play with --audio null / --audio-out FILE.wav",
                                optional=True))
    return findings


@register
def check_packs() -> list[Finding]:
    from narrator.sound.render_ahead import pack_requests
    from narrator.sound.engines import EngineUnavailable
    from narrator.sound.voice import EngineVoice, open_engine
    from narrator.sound.voicepack import list_packs, load_pack

    findings = []
    for name in list_packs():
        pack = load_pack(name)
        try:
            engine = open_engine(pack)
        except EngineUnavailable:
            engine = None
        if engine is None:
            findings.append(Finding("voice pack", False, f"{name}: none of its engines ({', '.join(pack.engines)}) works here",
                                    "see the engine lines above"))
            continue
        voice = EngineVoice(pack, engine)
        requests = pack_requests(pack)
        missing = sum(1 for line, params in requests if not voice.is_cached(pack.speak(line, params)))
        preferred = "" if engine.name == pack.engine else f" (its preferred engine {pack.engine} is missing)"
        if missing:
            findings.append(Finding("voice pack", False, f"{name}: {missing} of {len(requests)} lines not rendered for {engine.name}{preferred}",
                                    f".venv/bin/narrator voices render {name}", optional=True))
        else:
            findings.append(Finding("voice pack", True, f"{name}: all {len(requests)} lines rendered with {engine.name}{preferred}"))
    return findings
