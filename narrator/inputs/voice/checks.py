"""What `narrator doctor` reports about listening: engine, models, vocabulary, microphone.

The checks return findings in the doctor's shape (area, ok, what, fix, optional) and are
registered with `narrator.sound.doctor`. Listening is optional: a table without a
microphone or model plays by keyboard, so nothing here fails the doctor. Each fix is the one
that works: vosk's library needs libatomic1 on arm64 (a reinstall cannot help there).
"""

from __future__ import annotations

from narrator.sound.doctor import Finding, command_name, setup_command
from narrator.terminal import said

AREA = "listening"


def check_listening() -> list[Finding]:
    findings = check_engine()
    if findings and findings[0].ok:
        findings += check_models()
    return findings + check_microphone()


def check_engine() -> list[Finding]:
    from narrator.sound.engines import stt_engine_names

    if "vosk" not in stt_engine_names():
        return [Finding(AREA, False, said("vosk_not_installed"), setup_command(), optional=True)]
    try:
        import vosk  # noqa: F401
    except (ImportError, OSError) as err:
        return [Finding(AREA, False, said("vosk_cannot_load", reason=err), vosk_fix(str(err)), optional=True)]
    return [Finding(AREA, True, said("vosk_installed"))]


def vosk_fix(error: str) -> str:
    """The command that makes vosk load, from the error importing it gave."""
    if "libatomic" in error:
        return "sudo apt-get install libatomic1"
    return setup_command()


def check_models(load: bool = True) -> list[Finding]:
    """Each language's model: installed or not; installed ones are loaded and their words checked."""
    from narrator.inputs.voice.grammar import PhraseBook
    from narrator.inputs.voice.models import ModelError, find_model, model_index
    from narrator.sound.engines import EngineUnavailable, load_stt
    from narrator.sound.voicepack import load_pack

    findings = []
    for lang, spec in model_index().items():
        try:
            folder = find_model(lang)
        except ModelError:
            findings.append(Finding(AREA, False, said("model_not_installed", lang=lang, name=spec.name),
                                    f"{command_name()} models install {lang}", optional=True))
            continue
        if not load:
            findings.append(Finding(AREA, True, said("model_found", lang=lang, folder=folder)))
            continue
        try:
            engine = load_stt("vosk", folder)
            pack = load_pack(lang)
            missing = engine.missing_words(PhraseBook.from_pack(pack).every_phrase())
        except (EngineUnavailable, ModelError) as err:
            findings.append(Finding(AREA, False, said("model_broken", lang=lang, reason=err),
                                    f"rm -r {folder} && {command_name()} models install {lang}", optional=True))
            continue
        except Exception as err:  # a pack that does not load is reported by the pack checks
            findings.append(Finding(AREA, False, said("model_cannot_check", lang=lang, reason=err), optional=True))
            continue
        if missing:
            findings.append(Finding(AREA, False, said("model_lacks", lang=lang, words=", ".join(missing)),
                                    said("model_lacks_fix", path=pack.path / "voice.toml"), optional=True))
        else:
            findings.append(Finding(AREA, True, said("model_knows_all", lang=lang, name=folder.name)))
    return findings


def check_microphone() -> list[Finding]:
    devices = input_devices()
    if isinstance(devices, str):
        return [Finding(AREA, False, said("mic_error", reason=devices), "sudo apt-get install libportaudio2", optional=True)]
    if not devices:
        return [Finding(AREA, False, said("mic_none"),
                        said("mic_none_fix", command=command_name()), optional=True)]
    return [Finding(AREA, True, said("mic_device", device=d)) for d in devices]


def input_devices() -> list[str] | str:
    """Input devices as 'index: name (default)', or why none can be listed."""
    try:
        import sounddevice
    except OSError:
        return "PortAudio is missing"
    except ImportError:
        return "sounddevice is not installed"
    try:
        devices: object = sounddevice.query_devices()
        default = sounddevice.default.device[0]
    except sounddevice.PortAudioError as err:
        return f"cannot list devices ({err})"
    listed = devices if isinstance(devices, (list, tuple)) else ()  # sounddevice's DeviceList is a tuple
    return [f"{i}: {d['name']}{' (default)' if i == default else ''}"
            for i, d in enumerate(listed) if isinstance(d, dict) and _inputs(d) > 0]


def _inputs(device: dict[str, object]) -> int:
    """A device's input channels (0 when its entry lacks them)."""
    channels = device.get("max_input_channels", 0)
    return channels if isinstance(channels, int) else 0
