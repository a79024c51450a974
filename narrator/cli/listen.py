"""`narrator listen` (test a microphone or a recording) and `narrator models install|list`.

`listen` runs the very recognition path a game uses (source → mute → small-grammar
recognizer → grammar meaning → confidence threshold) and prints every utterance with its
confidence, so a table can check its microphone and model on the Pi before a game.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Callable

import click

from narrator.cli.common import friendly_errors
from narrator.cues import Ask
from narrator.errors import NarratorError
from narrator.sound.doctor import command_name
from narrator.inputs.voice.grammar import TABLE_WORDS, Grammar, PhraseBook, _norm
from narrator.inputs.voice.models import (find_model, install, installed_models, model_index, models_dir,
                                          trusted_path)
from narrator.inputs.voice.microphone import Microphone, WavSource
from narrator.inputs.voice.listener import Hearing, VoiceListener, describe
from narrator.sound.engines import SpeechToText, load_stt


class FixedPhrases:
    """A phrase book that always offers one grammar (`narrator listen --grammar`)."""

    def __init__(self, grammar: Grammar):
        self._grammar = grammar

    def grammar(self, ask: Ask | None, also: tuple[str, ...] = ()) -> Grammar:
        """The one grammar, whatever is asked (`also`: the hub's extra words, none here)."""
        return self._grammar


class EchoHub:
    """Stands in for the game's hub: takes every answer, and ends when the audio ends."""

    def __init__(self) -> None:
        self.ended = asyncio.Event()

    def register(self, source: str) -> None:
        pass

    def observe(self, on_ask: Callable[[Ask | None], None] | None = None, on_speech: object = None) -> None:
        """Nothing is spoken here, so `on_speech` is never called (whatever it takes)."""
        if on_ask is not None:
            on_ask(None)  # no question: one fixed grammar, and nothing is spoken to mute for

    def offer_text(self, text: str, source: str, confirm: bool = False) -> None:
        return None

    def retire(self, source: str) -> None:
        self.ended.set()


def listen_grammar(grammar: str | None, lang: str, pack_name: str | None = None) -> Grammar:
    if grammar:
        phrases = [p.strip() for p in grammar.split(",") if p.strip()]
        if not phrases:
            raise NarratorError("--grammar needs words separated by commas, such as 'yes,no,done'")
        return Grammar({_norm(p): p for p in phrases}, frozenset(phrases))  # a run of words reads as a list
    from narrator.sound.voicepack import load_pack

    book = PhraseBook.from_pack(load_pack(pack_name or lang))
    # the table's words (release host) only where the pack spells them for the recognizer: a
    # game merely notes a [vocabulary]-only word the model lacks, so listening must not fail on it
    heard = {p: m for p, m in book.grammar(None).meanings.items() if m not in TABLE_WORDS or m in book.declared}
    return Grammar({**heard, **{_norm(p): m for m in ("yes", "no") for p in book.phrases.get(m, [])}})


def run_listen(engine: SpeechToText, source: WavSource | Microphone, grammar: Grammar, confidence: float,
               seconds: float | None, echo: Callable[[str], None] = click.echo) -> list[Hearing]:
    """Recognize `source` until it ends (or `seconds` pass), echoing each utterance."""
    missing = engine.missing_words(grammar.phrases)
    if missing:
        raise NarratorError(f"the speech model lacks {', '.join(missing)}; choose other words for --grammar")
    listener = VoiceListener(engine, source, FixedPhrases(grammar), confidence, report=lambda h: echo(describe(h)))

    async def main() -> None:
        hub = EchoHub()
        listener.start(hub, asyncio.get_running_loop())
        try:
            await asyncio.wait_for(hub.ended.wait(), timeout=seconds)
        except asyncio.TimeoutError:
            listener.stop()
            await hub.ended.wait()

    asyncio.run(main())
    return listener.hearings


def register(main: click.Group) -> None:
    """Add `listen` and `models` to the `narrator` command group, and the doctor's checks."""
    from narrator.inputs.voice.checks import check_listening

    from narrator.sound import doctor

    if check_listening not in doctor.CHECKS:
        doctor.register(check_listening)

    @main.command()
    @click.option("--grammar", default=None, help="Words to listen for: 'yes,no,done' (default: the game's vocabulary).")
    @click.option("--wav", "wav", type=click.Path(path_type=Path), default=None, help="Recognize this WAV file instead of the microphone.")
    @click.option("--model", default=None, help="Speech model folder (default: the installed one for --lang).")
    @click.option("--lang", default="ja", show_default=True, help="Language of the model and vocabulary.")
    @click.option("--input-device", default=None, help="Microphone name or index.")
    @click.option("--confidence", type=float, default=0.7, show_default=True, help="Mark results less sure than this as ignored.")
    @click.option("--seconds", type=float, default=None, help="Stop listening to the microphone after this many seconds.")
    @click.option("--engine", "engine_name", default="vosk", show_default=True, help="Recognition engine.")
    def listen(grammar: str | None, wav: Path | None, model: str | None, lang: str, input_device: str | None,
               confidence: float, seconds: float | None, engine_name: str) -> None:
        """Print what the narrator hears, with confidence (test a microphone or a recording)."""

        @friendly_errors
        def go() -> None:
            words = listen_grammar(grammar, lang)
            folder = find_model(lang, model)
            source = WavSource(wav, 16000) if wav else Microphone(16000, input_device)
            engine = load_stt(engine_name, folder)
            click.echo(f"listening for: {', '.join(words.phrases)}" + ("" if wav else " (Ctrl-C to stop)"), err=True)
            hearings = run_listen(engine, source, words, confidence, seconds)
            if wav and not hearings:
                click.echo("heard nothing", err=True)

        go()

    @main.group()
    def models() -> None:
        """Speech recognition models (installed before a game, never during one)."""

    @models.command("install")
    @click.argument("lang", default="ja")
    @click.option("--sha256", default=None, help="Expected checksum of the archive (overrides the index and the first download's).")
    @click.option("--url", default=None, help="Download from this URL instead (a mirror).")
    def models_install(lang: str, sha256: str | None, url: str | None) -> None:
        """Download, verify and unpack the small model for LANG (ja, the default, or en).

        Without a known checksum the first download is trusted (checked for size and files)
        and its sha256 recorded; later downloads must match it.
        """

        @friendly_errors
        def go() -> None:
            state: dict[str, Any] = {}

            def progress(done: int, total: int | None) -> None:
                if total is None:  # the server did not say how much: count megabytes instead
                    if done // (1 << 20) != state.get("mb"):
                        state["mb"] = done // (1 << 20)
                        click.echo(f"\rdownloading: {state['mb']} MB", nl=False, err=True)
                    return
                bar = state.get("bar")
                if bar is None:
                    bar = state["bar"] = click.progressbar(length=total, label="downloading", file=sys.stderr)
                    bar.__enter__()
                    state["done"] = 0
                bar.update(done - state["done"])
                state["done"] = done

            try:
                done = install(lang, sha256=sha256, progress=progress, url=url)
            finally:
                if "bar" in state:
                    state["bar"].__exit__(None, None, None)
            if done.trust == "first use":
                click.echo(f"first download of this model: sha256 {done.sha256} recorded in {trusted_path()}; "
                           "later downloads must match it", err=True)
            elif done.trust == "checked":
                click.echo(f"sha256 {done.sha256} matches", err=True)
            click.echo(f"model for {lang} ready in {done.folder}")

        go()

    @models.command("list")
    def models_list() -> None:
        """List the installed models and the ones `models install` knows."""
        installed = installed_models()
        for folder in installed:
            click.echo(f"installed  {folder.name}  ({folder})")
        names = {p.name for p in installed}
        for lang, spec in model_index().items():
            if spec.name not in names:
                click.echo(f"available  {spec.name}  ({command_name()} models install {lang})")
        if not installed:
            click.echo(f"no model installed in {models_dir()}")

