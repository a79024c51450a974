"""The game commands: `play`, `resume`, `games`.

A thin layer: it reads the table file and flags into settings, asks the game to
validate them, opens a sitting (voice, audio, listeners) and runs the loop. The table file is
`--table`, else the one in the narrator's home that `narrator serve` plays (`narrator config`
edits it), so a dry run shows what the appliance will play; a flag beats the file.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import click

from narrator import home
from narrator.cli.common import friendly_errors
from narrator.cli.flags import TableFlagsCommand
from narrator.errors import DamagedGame, NarratorError, SetupError
from narrator.games import broken_game_files, game_names, game_over_message, get_game, load_game_file
from narrator.games.contract import SomeGame, C, Game, GameConfig, S
from narrator.settings import DEFAULT_GAME, DEVICE_SECTIONS, LISTEN_KEYS, RUN_KEYS, TableSettings, build_settings
from narrator.values.files import read_table_file
from narrator.table.runner import play as play_loop
from narrator.table.runner import cut_log as cut_damaged_log
from narrator.table.runner import Position, resume_position, start_position
from narrator.table.session import RunOptions, Sitting, open_sitting
from narrator.table.saved_games import find_game, rules_of, saved_games, unfinished
from narrator.table.store import GameStore
from narrator.terminal import choose, recall, remembered, said


@click.command(cls=TableFlagsCommand)
@click.argument("game", required=False)
@click.option("--table", "table_file", type=click.Path(path_type=Path),
              help="TOML table file (default: the narrator home's table.toml, if there is one).")
@click.option("--no-keyboard", is_flag=True, help="Do not read answers from the terminal.")
@click.option("--phones/--no-phones", "phones", default=None, help="Serve the phone page on the local network.")
@click.option("--digital-cards/--no-digital-cards", "digital_cards", default=None,
              help="Additional Werewolf: deal the cards to the phones and play every ability there.")
@click.option("--transcript-private", "transcript_private", is_flag=True, default=None,
              help="Also write private lines, memos and votes to the transcript (off by default).")
@click.option("--dry-run", is_flag=True, help="Check the setup and print the cards to take out of the box; play nothing.")
@click.option("--game-file", "game_file", type=click.Path(path_type=Path), default=None,
              help="Play the game of this game file (docs/game-files.md).")
@friendly_errors
def play(game: str | None, table_file: Path | None, no_keyboard: bool, dry_run: bool, game_file: Path | None,
         **flags: str | bool | None) -> None:
    """Start a game and narrate it (GAME: one of `narrator games`)."""
    file_rules = load_game_file(game_file) if game_file else None
    lang = flags.get("lang")  # a table flag: text, or None when not given
    table, source = _table(table_file, file_rules.name if file_rules else game, lang if isinstance(lang, str) else None)
    settings = build_settings(table, {**flags, "game": file_rules.name if file_rules else game}, source)
    rules = file_rules or get_game(settings.game)
    config = rules.configure(settings)
    unreviewed = rules.describe(config, "unreviewed") if rules.describe and settings.lang == "ja" else []
    if unreviewed:  # a table's own game file: its new Japanese lines, one warning
        click.echo(said("unreviewed", game=rules.name, count=len(unreviewed), keys=", ".join(unreviewed)), err=True)
    if dry_run:
        _print_box(rules, config, settings)
        return
    run = RunOptions.from_settings(settings, keyboard=not no_keyboard)
    if run.phones:
        from narrator.phones.table import check_game

        check_game(rules)
    needs_phones = rules.phones_required(config)
    if needs_phones and not run.phones:  # a script too: nobody would ever be shown a card
        raise SetupError(f"{needs_phones}; add --phones (or phones = true)")
    _review_names(run, rules.names(config), keyboard=not no_keyboard and not run.answers)
    sitting = open_sitting(run, names=rules.names(config), game=rules, config=config, new_game=True)
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), remembered(run.to_dict()), holder="narrator play",
                             game_file=rules.source)
    click.echo(said("game_saved", id=store.id, folder=store.folder), err=True)
    _run(rules, config, store, sitting, run, lambda: start_position(rules, config, store), recap=False)


def _table(table_file: Path | None, game: str | None, lang_flag: str | None = None) -> tuple[dict[str, Any], str]:
    """The table file's keys and its name for errors: `--table`, else the home's table file
    (the appliance's), else none. When the command names another game than the home file's,
    only the keys of how a game is run (lang, voice, listening …) apply to it.

    The terminal's own lines are in the language the flag or the file states from here on."""
    choose(lang_flag)
    if table_file:
        table = read_table_file(table_file)
        choose(lang_flag or table.get("lang"))
        return table, f"table file {table_file}"
    from narrator.appliance.table import load_table, table_path

    path = table_path()
    if not path.is_file():
        return {}, "command line"
    table = load_table(path)
    choose(lang_flag or table.get("lang"))
    table_game = table.get("game", DEFAULT_GAME)
    if game and game != table_game:
        keep = set(RUN_KEYS) | set(LISTEN_KEYS) | set(DEVICE_SECTIONS)
        dropped = sorted(k for k in table if k.replace("-", "_") not in keep and k != "game")
        table = {k: v for k, v in table.items() if k.replace("-", "_") in keep}
        if dropped:
            click.echo(said("table_other_game", path=path, table_game=table_game, keys=", ".join(dropped), game=game),
                       err=True)
    return table, f"table file {path}"


def _keyboard_present() -> bool:
    return sys.stdin.isatty()


def _review_names(run: RunOptions, names: Sequence[str], keyboard: bool) -> None:
    """A Japanese game at a keyboard: show how each name will be read and let the host correct it
    (without one, say a scripted or headless game, the readings are worked out silently)."""
    if not names or run.lang != "ja" or not keyboard or not _keyboard_present():
        return
    from narrator.inputs.name_review import review_readings
    from narrator.sound.voicepack import load_pack

    pack = load_pack(run.lang if run.voice in ("auto", "text") else run.voice)
    kept = review_readings(list(names), run.listening.get("name_readings"), pack, input,
                           lambda text: click.echo(text, err=True))
    if kept:
        run.listening["name_readings"] = kept


@click.command()
@click.argument("game_id", required=False)
@click.option("--voice", default=None, help="Voice pack name or `text`.")
@click.option("--answers", type=click.Path(path_type=Path), default=None, help="Scripted answers file.")
@click.option("--transcript", type=click.Path(path_type=Path), default=None, help="Transcript file to append to.")
@click.option("--time-scale", "time_scale", default=None, help="1 = real time, 0 = instant.")
@click.option("--audio", default=None, help="auto, null or device.")
@click.option("--audio-out", "audio_out", type=click.Path(path_type=Path), default=None,
              help="Also write the session, as heard, to FILE.wav (the saved game's file: the resumed part is added).")
@click.option("--port", default=None, help="Port of the phone page (if the game uses phones).")
@click.option("--host", default=None, help="Where the phone page listens (if the game uses phones).")
@click.option("--keyboard/--no-keyboard", "keyboard", default=None,
              help="Read answers from the terminal, or not (default: as the game was started).")
@click.option("--cut-log", is_flag=True,
              help="Go on from the events before a damaged log line (the rest is kept beside the log).")
@friendly_errors
def resume(game_id: str | None, keyboard: bool | None, cut_log: bool, **flags: str | Path | None) -> None:
    """Continue an interrupted game where it stopped (the latest one by default).

    Every flag is checked, and the voice, transcript and audio opened, before the
    changed options are saved: a bad flag never breaks a later plain `narrator resume`.
    """
    store = find_game(home.app_home(), game_id, damaged_too=cut_log).open("narrator resume")
    try:
        _resume(store, keyboard, cut_log, flags)
    finally:
        store.close()


def _resume(store: GameStore, keyboard: bool | None, cut_log: bool, flags: Mapping[str, str | Path | None]) -> None:
    if not unfinished(store):  # a meta.json rebuilt from the log is replayed to know
        raise NarratorError.said("already_over", id=store.id)
    meta = store.meta
    recall(meta.get("run"))  # the saved game's table's language, if it stated one
    rules = rules_of(store)
    config = saved_config(rules, meta, store.id)
    run = resume_options(meta["run"], flags, keyboard=keyboard)
    if cut_log:
        cut_damaged_log(rules, config, store)
    position = resume_position(rules, config, store)
    used = scripted_lines_used(store.events())
    sitting = open_sitting(run, start_at=position.t, answers_used=used, names=rules.names(config),
                           game=rules, config=config)
    store.update_run(remembered(run.to_dict()))
    click.echo(said("resuming", id=store.id), err=True)
    _run(rules, config, store, sitting, run, lambda: position, recap=True)


def scripted_lines_used(events: list[dict[str, Any]]) -> int:
    """How many lines of a plain answers file the logged answers took: one each, and one per
    holder who answered a game file's night call from it (its round's answers, by player)."""
    used = 0
    for event in events:
        if event.get("source") == "script":
            value = event.get("value")
            used += len(value) if isinstance(value, dict) else 1
    return used


def saved_config(rules: SomeGame, meta: Mapping[str, Any], game_id: str) -> GameConfig:
    """The game's saved setup, or one line saying the saved game cannot be trusted."""
    try:
        return rules.config_from_dict(meta["config"])
    except Exception as err:
        raise DamagedGame(f"saved game {game_id}: the setup in meta.json does not fit {rules.name} "
                          f"({err.__class__.__name__}); it cannot be resumed") from None


def resume_options(saved: Mapping[str, Any], flags: Mapping[str, object], keyboard: bool | None) -> RunOptions:
    """The saved run options with the resume flags on top, all checked like a table file's.

    The keyboard is the saved game's too unless `keyboard` says (`--keyboard`, `--no-keyboard`):
    a game started without one (a script, the phones) must not find the terminal answering on
    resume, which would also change how its private rounds are played (passed round the device)."""
    table = {k: v for k, v in saved.items() if k in RUN_KEYS and k != "listening" and v is not None}
    given = {k: str(v) for k, v in flags.items() if v is not None}
    if "audio" in given:
        table.pop("audio_device", None)
    build_settings({}, given, "command line")
    settings = build_settings({**table, **given}, {}, "the saved game's run options (give the flag anew)")
    if keyboard is None:
        keyboard = saved.get("keyboard") is not False  # a run saved without it had a keyboard
    run = RunOptions.from_settings(settings, keyboard=keyboard)
    listening = saved.get("listening")
    return replace(run, listening=listening if isinstance(listening, dict) else {})


def _run(rules: Game[C, S], config: C, store: GameStore, sitting: Sitting, run: RunOptions,
         position: Callable[[], Position[S]], recap: bool) -> None:
    """Play to the end; the sitting is closed and the game's lock dropped however it stops."""

    async def main_loop(start: Position[S]) -> S:
        server = None
        if run.phones:
            from narrator.phones.table import make_server, open_phones

            server = make_server(rules, config, store, sitting.hub, run.lang, run.voice)
            await open_phones(server, sitting.scheduler, run.host, run.port)
        sitting.start_listeners(asyncio.get_running_loop())
        if server is not None:
            from narrator.phones.table import wait_for_seats

            await wait_for_seats(server, run)  # every seat has a phone, or the host starts anyway
        try:
            return await play_loop(rules, config, store, sitting.scheduler, start, recap=recap,
                                   on_state=server.set_state if server else None)
        finally:
            if server is not None:
                await server.stop()

    try:
        state = asyncio.run(main_loop(position()))
    except KeyboardInterrupt:  # stop now: the speaker does not finish the line (the game is saved)
        sitting.hush()
        raise
    finally:
        sitting.close()
        store.close()
    click.echo(game_over_message(state.winner), err=True)


def _print_box(rules: Game[C, S], config: C, settings: TableSettings) -> None:
    """The set the game would say before the first night, in the table's language; nothing saved."""
    from narrator.sound.voicepack import load_pack, merged_under

    pack = load_pack(settings.lang if settings.voice in ("auto", "text") else settings.voice)
    if rules.lines is not None:  # a game file's own lines, under the pack's, as in play
        pack = merged_under(pack, rules.lines(pack.lang))
    for cue in rules.box(config) if rules.box else []:
        click.echo(pack.speak(cue.line, cue.params).text)
    for line in rules.describe(config, "plan") if rules.describe else []:
        click.echo(line)
    read = said("dry_run_read", source=settings.source) if settings.source.startswith("table file") else ""
    click.echo(said("dry_run_valid", game=rules.name, read=read), err=True)


@click.group(invoke_without_command=True)
@click.pass_context
@friendly_errors
def games(ctx: click.Context) -> None:
    """List the games the narrator runs, and the saved games (damaged ones with the reason)."""
    if ctx.invoked_subcommand is not None:
        return
    broken = broken_game_files()  # a table's own files that would be refused: the reason, not a game
    click.echo("games: " + ", ".join(name for name in game_names() if name not in broken))
    for name, reason in broken.items():
        click.echo(f"{name}  broken: {reason}")
    for store in saved_games(home.app_home()):
        problem = store.problem()
        over = False
        try:
            over = problem is None and not unfinished(store)
        except NarratorError as err:
            problem = str(err)
        if problem:
            click.echo(f"{store.id}  damaged: {problem}")
            continue
        meta = store.meta
        outcome = meta.get("outcome")
        if not isinstance(outcome, dict):
            outcome = {}
        status = f"over ({outcome.get('winner')} won)" if over else "unfinished"
        click.echo(f"{store.id}  {meta['game']}  {status}")


def _game_or_file(game: str) -> SomeGame:
    """A game by name, or by the path of its game file."""
    return load_game_file(Path(game)) if game.endswith(".toml") else get_game(game)


def _described(game: str, what: str) -> list[str]:
    rules = _game_or_file(game)
    if rules.describe is None:
        raise NarratorError(f"{rules.name} is not a game file; `narrator games {what}` reads game files "
                            "(docs/game-files.md)")
    return rules.describe(None, what)


@games.command("graph")
@click.argument("game")
@friendly_errors
def games_graph(game: str) -> None:
    """Print a game file's step graph as Mermaid (GAME: a name or a .toml file)."""
    click.echo("\n".join(_described(game, "graph")))


@games.command("check")
@click.argument("game")
@friendly_errors
def games_check(game: str) -> None:
    """Play a game file's own scenarios and say which pass (exit 1 if one fails)."""
    results = _described(game, "check")
    click.echo("\n".join(results) if results else "no scenarios in this game file")
    if any(not r.startswith("ok ") for r in results):
        raise NarratorError(f"{sum(not r.startswith('ok ') for r in results)} scenario(s) failed")


def register(main: click.Group) -> None:
    """Add `play`, `resume` and `games` to the `narrator` group."""
    for command in (play, resume, games):
        main.add_command(command)
