"""`narrator doctor`: what is installed and working here, and the command that fixes the rest.

Each check is a function returning `Finding`s; `CHECKS` is the list the command runs, in
order, so another part of the app (the vosk engine's model and microphone checks, say)
adds its own with `register(check)`. A check never raises: a crash becomes a finding.

A fix is a command the user can paste as it is: `command_name()` is `narrator` only when that
name runs this installation (scripts/setup links it onto the PATH), else the script's full
path; `setup_command()` is this checkout's scripts/setup by its full path.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from narrator.errors import NarratorError
from narrator.terminal import said


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

APT_OPENJTALK = "sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic hts-voice-nitech-jp-atr503-m001, after enabling Debian contrib"


def command_name() -> str:
    """How to run `narrator` from any shell here: the bare name when it is this installation."""
    script = Path(sys.executable).with_name("narrator")
    if not script.exists():
        return f"{sys.executable} -m narrator"
    found = shutil.which("narrator")
    if found and Path(found).resolve() == script.resolve():
        return "narrator"
    return str(script)


def setup_command(*flags: str) -> str:
    """This checkout's scripts/setup, by its full path (it installs every piece the doctor checks)."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "setup"
    return " ".join([str(script) if script.exists() else "scripts/setup", *flags])


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
        "pyttsx3": f"{setup_command()}  (or: sudo apt-get install espeak-ng libespeak-ng1)",
        "openjtalk": f"{setup_command()}  (or: {APT_OPENJTALK})",
    }
    findings = []
    names = tts_engine_names()
    for name in sorted(set(names) | set(fixes)):
        if name not in names:
            findings.append(Finding("engine", False, said("engine_not_installed", name=name), setup_command()))
            continue
        try:
            engine = load_tts(name)
            kanji = said("engine_kanji_yes" if engine.reads_kanji else "engine_kanji_no")
            findings.append(Finding("engine", True, said("engine_works", name=name, kanji=kanji)))
        except (EngineUnavailable, NarratorError) as err:
            findings.append(Finding("engine", False, f"{name}: {err}", fixes.get(name, setup_command())))
    return findings


@register
def check_audio() -> list[Finding]:
    from narrator.sound.outputs import AudioUnavailable, import_sounddevice, output_devices

    try:
        import_sounddevice()
    except AudioUnavailable as err:
        return [Finding("audio", False, f"PortAudio/sounddevice: {err}", f"{setup_command()}  (or: sudo apt-get install libportaudio2)")]
    findings = [Finding("audio", True, said("audio_installed"))]
    devices = output_devices()
    if devices:
        findings += [Finding("audio", True, said("audio_device", device=d)) for d in devices]
    else:
        findings.append(Finding("audio", False, said("audio_none"), said("audio_none_fix"),
                                optional=True))
    return findings
