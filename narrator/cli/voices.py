"""The sound commands: `say`, `doctor`, and the `voices` group (`list`, `render`, `check`).

The lines a pack must have rendered are counted in one place, `render_requests`: every
fixed line, the countdown numbers and each game's own lines at its default settings.
`voices render` (which setup runs), `voices list` and the doctor's pack check all use it,
so they report one number.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from narrator.cli.common import friendly_errors
from narrator.sound.doctor import command_name
from narrator.errors import NarratorError
from narrator.terminal import said

if TYPE_CHECKING:  # imported where used: `narrator --help` loads no engine
    from narrator.sound.doctor import Finding
    from narrator.sound.voice import EngineVoice
    from narrator.sound.voicepack import VoicePack


FIRST_RUN_LINES = 300
"""A render of at least this many lines is a first run (minutes here, more on a Pi): it says so first."""


def register(main: click.Group) -> None:
    """Add `say`, `doctor` and `voices …` to the `narrator` group, and the doctor's pack check."""
    from narrator.sound import doctor as checks

    if check_packs not in checks.CHECKS:
        checks.register(check_packs)
    main.add_command(_with_friendly_errors(say))
    main.add_command(_with_friendly_errors(doctor))
    voices.add_command(_with_friendly_errors(render))
    voices.add_command(_with_friendly_errors(check))
    voices.add_command(_with_friendly_errors(status))
    main.add_command(voices)


def _with_friendly_errors(cmd: click.Command) -> click.Command:
    if cmd.callback is not None:
        cmd.callback = friendly_errors(cmd.callback)
    return cmd


@click.group()
def voices() -> None:
    """Voice packs."""


@voices.command("list")
def voices_list() -> None:
    """List the voice packs found."""
    from narrator.sound.voicepack import list_packs, load_pack

    for name in list_packs():
        pack = load_pack(name)
        click.echo(f"{name}  lang={pack.lang}  engine={pack.engine}  lines={len(render_requests(pack))}  ({pack.path})")
        for engine in pack.engines:  # a voice whose licence asks for attribution (the HTS voice: CC BY)
            credit = pack.engine_options.get(engine, {}).get("credit")
            if credit:
                click.echo(f"    voice of {engine}: {credit}")


def render_requests(pack: VoicePack, table_file: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The (line, params) pairs of `pack` to render: fixed lines, countdowns, each game's lines."""
    from narrator.sound.render_ahead import game_requests, pack_requests

    extra: list[tuple[str, dict[str, Any]]] = []
    for game, config in _games_to_render(table_file, pack.lang):
        extra += game_requests(game, config)
    return pack_requests(pack, extra)


def check_packs() -> list[Finding]:
    """The doctor's pack check: is every line of `render_requests` rendered for the working engine?"""
    from narrator.sound.doctor import Finding
    from narrator.sound.engines import EngineUnavailable, install_hint
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
            findings.append(Finding("voice pack", False, said("pack_no_engine", name=name, engines=", ".join(pack.engines)),
                                    said("pack_no_engine_fix")))
            continue
        voice = EngineVoice(pack, engine)
        requests = render_requests(pack)
        missing = sum(1 for line, params in requests if not voice.is_cached(pack.speak(line, params)))
        preferred = "" if engine.name == pack.engine else said("pack_preferred_missing", engine=pack.engine)
        counts = {"name": name, "total": len(requests), "engine": engine.name, "preferred": preferred}
        if missing and preferred:  # rendering now would render with the fallback: install the engine first
            findings.append(Finding("voice pack", False, said("pack_not_rendered", missing=missing, **counts),
                                    install_hint(pack.engine), optional=True))
        elif missing:
            findings.append(Finding("voice pack", False, said("pack_not_rendered", missing=missing, **counts),
                                    f"{command_name()} voices render {name}", optional=True))
        else:
            findings.append(Finding("voice pack", True, said("pack_all_rendered", **counts)))
    return findings


def _engine_voice(pack_name: str, engine_name: str | None = None, speed: float = 1.0) -> EngineVoice:
    from narrator.sound.voice import EngineVoice, open_engine
    from narrator.sound.voicepack import load_pack

    pack = load_pack(pack_name)
    warnings: list[str] = []
    engine = open_engine(pack, warnings.append, [engine_name] if engine_name else None)
    for message in warnings:
        click.echo(said("warning", message=message), err=True)
    if engine is None:
        raise NarratorError(f"no speech engine of pack '{pack.name}' works here; run `{command_name()} doctor`")
    return EngineVoice(pack, engine, speed=speed)


@click.command("say")
@click.argument("text")
@click.option("--lang", default="ja", show_default=True, help="Voice pack (language) to speak with.")
@click.option("--engine", default=None, help="Engine to use instead of the pack's (openjtalk, pyttsx3).")
@click.option("--audio", type=click.Choice(["auto", "null"]), default="auto", show_default=True)
@click.option("--audio-device", default=None, help="Output device name or index.")
@click.option("--audio-out", type=click.Path(path_type=Path), default=None, help="Write the clip to this WAV file.")
def say(text: str, lang: str, engine: str | None, audio: str, audio_device: str | None, audio_out: Path | None) -> None:
    """Speak TEXT once with a pack's engine (a quick test of the voice and the speaker)."""
    import time
    from dataclasses import replace

    from narrator.sound.outputs import AudioUnavailable, open_output
    from narrator.table.clock import ScaledClock
    from narrator.sound.pack_line import Line

    voice = _engine_voice(lang, engine)
    voice.pack = replace(voice.pack, lines={**voice.pack.lines, "_say": Line("_say", text)})
    started = time.monotonic()
    clip = voice.clip("_say")
    rendered = time.monotonic() - started
    clock = ScaledClock()
    try:
        output = open_output("null" if audio == "null" else "device", clock, audio_device, record=audio_out)
    except AudioUnavailable as err:
        if audio_out is None:
            raise
        click.echo(said("warning", message=f"{err}; writing {audio_out} only"), err=True)
        output = open_output("none", clock, record=audio_out)
    assert clip.pcm is not None  # an engine's clip always holds its audio (only a text voice's has none)
    output.start(clip.pcm, clock.now() + 0.05)
    output.extend(clock.now() + 0.05 + clip.duration)
    output.close()  # a live output drains first
    click.echo(f"{voice.engine_name}: {clip.duration:.2f} s of speech ({clip.source}, {rendered:.2f} s to prepare)", err=True)


@click.command("doctor")
def doctor() -> None:
    """What is installed and working here, and the exact command that fixes each missing piece."""
    from narrator.sound.doctor import run_checks

    from narrator.terminal import lines

    findings = run_checks()
    for f in findings:
        mark = said("doctor_ok" if f.ok else ("doctor_optional" if f.optional else "doctor_missing"))
        area_key = "area_" + f.area.replace(" ", "_")
        click.echo(f"{mark}  {said(area_key) if area_key in lines()['en'] else f.area}: {f.what}")
        if not f.ok and f.fix:
            click.echo(said("doctor_fix", fix=f.fix))
    broken = [f for f in findings if not f.ok and not f.optional]
    if broken:
        click.echo(said("doctor_problems", count=len(broken)), err=True)
        sys.exit(1)
    click.echo(said("doctor_all_here"), err=True)


@click.command("render")
@click.argument("pack", required=False)
@click.option("--table", "table_file", type=click.Path(path_type=Path), help="Also render this table's lines (names, timers).")
@click.option("--engine", default=None, help="Render for this engine instead of the pack's first working one.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: one per core; an engine that uses every core itself gets one).")
@click.option("--names-of", "names_of", type=click.Path(path_type=Path), default=None,
              help="First render the player names of this table file and the words said around names "
                   "(an engine that says names apart: the natural voice).")
def render(pack: str | None, table_file: Path | None, engine: str | None, jobs: int | None,
           names_of: Path | None = None) -> None:
    """Render every fixed line and countdown number of PACK (default: all packs) into its cache.

    Without PACK, packs that inherit another (ja-natural) are left out: they say the same
    lines with another engine, which may take tens of minutes; render them by name.
    With `--names-of` (the appliance's background render), an engine that says names apart
    renders that table's names and the words around names before anything else: they are
    what the table's next game needs, and the longest it would otherwise say with Open JTalk.
    """
    from narrator.sound.progress import Progress
    from narrator.sound.voicepack import list_packs, load_pack

    names = [pack] if pack else list_packs()
    if not pack:
        variants = [name for name in names if len(load_pack(name).folders) > 1]
        for name in variants:
            click.echo(f"{name}: left out (it inherits another pack); render it with `narrator voices render {name}`")
        names = [name for name in names if name not in variants]
    for name in names:
        voice = _engine_voice(name, engine)
        if names_of is not None:
            _render_table_names(voice, name, names_of)
        requests = render_requests(voice.pack, table_file)
        lines_now = sum(1 for r in requests if not all(voice.is_cached(s) for s in voice.wordings(*r)))
        if lines_now >= FIRST_RUN_LINES:  # a newcomer must know it takes minutes, and where to see how far
            click.echo(voice.pack.speak("hint.render_first_run", {"count": lines_now}).text, err=True)
        with Progress(len(requests), f"{name} ({voice.engine_name})") as bar:
            voice.prepare(requests, progress=bar.update, jobs=jobs, load=False)
        pieces = _render_pieces(voice, name)
        words = f"; {pieces} words said around names rendered too" if pieces else ""
        click.echo(f"{name}: {len(requests)} lines ready, {lines_now} of them rendered now{words}, in {voice.cache_dir}")


def _render_pieces(voice: EngineVoice, name: str) -> int:
    """A slow engine says names apart: the words of every line around the names, ahead too."""
    from narrator.sound.name_clips import fixed_pieces, piece_wav
    from narrator.sound.progress import Progress

    if not getattr(voice.engine, "names_apart", False):
        return 0
    pieces = [p for p in fixed_pieces(voice) if not piece_wav(voice, p).is_file()]
    if not pieces:
        return 0
    with Progress(len(pieces), f"{name}: words around names", unit="words") as bar:
        return voice.prepare_pieces(pieces, progress=bar.update)


def table_names(table_file: Path) -> tuple[tuple[str, ...], Any]:
    """The player names of an appliance table file and the readings it gives them (the rest unchecked)."""
    from narrator.appliance.table import load_table
    from narrator.settings import build_settings

    settings = build_settings(load_table(table_file), {}, f"table file {table_file}")
    return settings.names, settings.listening.get("name_readings")


def _render_table_names(voice: EngineVoice, name: str, table_file: Path) -> int:
    """A slow engine's pieces the table's next game needs, first: its names, then the words around names.

    A table file that cannot be read is said and skipped: the rest of the pack still renders.
    """
    from narrator.sound.name_clips import fixed_pieces, name_pieces, piece_wav
    from narrator.sound.names import with_readings
    from narrator.sound.progress import Progress

    if not getattr(voice.engine, "names_apart", False):
        return 0
    try:
        names, readings = table_names(table_file)
    except (NarratorError, OSError) as err:
        click.echo(said("warning", message=f"{err}; the table's names are left to its next game"), err=True)
        names, readings = (), None
    pack = voice.pack
    voice.pack = with_readings(pack, names, readings)
    try:
        first = name_pieces(voice, names) + fixed_pieces(voice)
        pieces = [p for p in dict((p.words, p) for p in first).values() if not piece_wav(voice, p).is_file()]
        if not pieces:
            return 0
        with Progress(len(pieces), f"{name}: the table's names ({len(names)}) and the words around names",
                      unit="words") as bar:
            return voice.prepare_pieces(pieces, progress=bar.update)
    finally:
        voice.pack = pack


def _games_to_render(table_file: Path | None, lang: str) -> list[tuple[Any, Any]]:
    """Each game at its default settings, or the table file's game and settings."""
    from narrator.games import game_names, get_game
    from narrator.settings import build_settings
    from narrator.values.files import read_table_file

    if table_file is not None:
        settings = build_settings(read_table_file(table_file), {}, f"table file {table_file}")
        rules = get_game(settings.game)
        return [(rules, rules.configure(settings))]
    out = []
    for name in game_names():
        rules = get_game(name)
        # a fixed seed: a game that renders its dealt cards' lines (Bestia Magica) renders the same each run
        out.append((rules, rules.configure(build_settings({}, {"game": name, "lang": lang, "seed": 0}, "defaults"))))
    return out


@click.command("check")
@click.argument("pack")
@click.option("--against", default=None, help="Reference pack whose lines PACK must have (default: the other bundled packs).")
def check(pack: str, against: str | None) -> None:
    """List what PACK lacks: lines other packs have, recordings, rendered clips."""
    from narrator.sound.voicepack import list_packs, load_pack

    target = load_pack(pack)
    others = [against] if against else [p for p in list_packs() if p != target.name]
    lacking = 0
    for other in others:
        ref = load_pack(other)
        for line_id in sorted(set(ref.lines) - set(target.lines)):
            click.echo(f"missing line  {line_id}  (in {other}; add it to a file in {target.path / 'lines'})")
            lacking += 1
    recorded_dir = target.path / "recorded"
    requests = render_requests(target)
    if recorded_dir.is_dir():
        for line, params in requests:
            if target.recording(target.speak(line, params)) is None:
                where = f"{line}.wav" if not params else f"{line}/{next(iter(params.values()))}.wav"
                click.echo(f"not recorded  {line} {params or ''}  (record {recorded_dir / where})")
                lacking += 1
    try:
        voice = _engine_voice(pack)
        unrendered = [r for r in requests if not voice.is_cached(target.speak(*r))]
        if unrendered:
            click.echo(f"not rendered  {len(unrendered)} of {len(requests)} lines for {voice.engine_name} "
                       f"(run `{command_name()} voices render {pack}`)")
            lacking += 1
    except NarratorError as err:
        click.echo(f"no engine     {err}")
        lacking += 1
    click.echo(f"{target.name}: {'nothing lacking' if not lacking else f'{lacking} thing(s) lacking'}", err=True)


@click.command("status")
@click.argument("pack", required=False)
def status(pack: str | None) -> None:
    """How far PACK is rendered for its preferred engine (default: ja-natural), and the time left.

    On the appliance the natural voice is rendered in the background between games; this
    says whether that render runs, and how many lines are still said with Open JTalk.
    """
    from narrator.appliance.natural_fill import read_state
    from narrator.sound import name_clips

    voice = _engine_voice(pack or "ja-natural")
    requests = render_requests(voice.pack)
    ready = sum(1 for r in requests if all(voice.is_cached(s) for s in voice.wordings(*r)))
    words = ""
    if getattr(voice.engine, "names_apart", False):
        pieces = name_clips.fixed_pieces(voice)
        todo = [p for p in pieces if not name_clips.piece_wav(voice, p).is_file()]
        words = f"; {len(pieces) - len(todo)} of {len(pieces)} words said around names"
        lacking = [voice.pack.speak(*r) for r in requests if not voice.is_cached(voice.pack.speak(*r))]
        chars = sum(len(voice._words(s)) for s in lacking if name_clips.pieces(voice, s) is None)
        left = name_clips.estimate_seconds(voice, todo + [name_clips.Piece("x" * chars, 0.0)] if chars else todo)
        words += f"; about {_hours(left)} of rendering left at the speed measured here" if left else ""
    share = 100 * ready // max(len(requests), 1)
    click.echo(f"{voice.pack.name} ({voice.engine_name}): {ready} of {len(requests)} lines rendered ({share} %){words}")
    state = read_state()
    if state and state.get("state"):
        click.echo(f"background render: {state['state']}" + (f" (pid {state['pid']})" if state.get("pid") else "")
                   + (f", log {state['log']}" if state.get("log") else ""))


def _hours(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 3600 else f"{seconds / 3600:.1f} h"
