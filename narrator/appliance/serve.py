"""`narrator serve`: the appliance's start command, run by the systemd service on boot.

It greets the table, then loops: if a game was left unfinished (a power cut, a crash) it
asks by voice whether to resume it, and resumes when nobody answers in time; otherwise it
offers the table file's game and player count, which the table accepts or changes with
yes/no answers (one button is enough), plays the game, and offers another. Every answer
comes through the normal `ListenerHub`: buttons, voice, phone page, keyboard or a script.

Waiting costs nothing: every wait is an awaited future or event (asyncio), the buttons
are edge callbacks, and what a silent table answers is a sleep on the game clock (`silence.py`).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from narrator import home
from narrator.table.clock import make_clock
from narrator.cues import Ask, Say
from narrator.errors import AnswerError, NarratorError, NoMoreAnswers, SaveError, SetupError
from narrator.games import game_over_message, get_game
from narrator.games.contract import C, Game, S
from narrator.inputs.button import ButtonListener, ButtonUnavailable
from narrator.inputs.hub import Listener
from narrator.table.runner import play as play_loop
from narrator.table.runner import Position, resume_position, start_position
from narrator.table.session import RunOptions, Sitting, open_sitting
from narrator.settings import TableSettings, build_settings
from narrator.appliance import evening, game_menu, natural_fill, setup_menu, silence, trouble
from narrator.appliance.game_menu import MAX_PLAYERS, YES_NO
from narrator.appliance.natural_fill import BackgroundRender
from narrator.appliance.speaker import Speaker
from narrator.appliance.table import ApplianceConfig, check_table, load_table
from narrator.table.saved_games import rules_of
from narrator.table.store import GameStore
from narrator.terminal import choose, file_lang, said

WAIT_SOURCE = "appliance"
"""Held in the hub when no listener exists, so the appliance waits instead of giving up."""


@dataclass
class ServeOptions:
    """How `narrator serve` was started; `overrides` are table keys given as flags."""

    table: Path | None = None
    once: bool = False
    keyboard: bool | None = None
    buttons: bool = True
    overrides: dict[str, Any] = field(default_factory=dict)
    listeners: list[Listener] = field(default_factory=list)
    """More listeners (anything with `start(hub, loop)`), e.g. a phone page."""


def serve(options: ServeOptions, log: Callable[[str], None] | None = None) -> int:
    """Run the appliance until stopped (or after one game with `once`); returns games played."""
    log = log or (lambda message: print(f"appliance: {message}", file=sys.stderr, flush=True))
    check_table({}, "command line", options.overrides)  # a bad flag is the caller's to fix
    # the terminal's language: the --lang flag's, else --table's, else the home table's (read anew
    # each time, as the host screen changes it), else the locale's
    choose(options.overrides.get("lang") or (file_lang(options.table) if options.table else None))
    boot = trouble.table_at_boot(options.table, options.overrides, log)
    path, table, settings, appliance = boot.path, boot.table, boot.settings, boot.appliance
    keyboard = sys.stdin.isatty() if options.keyboard is None else options.keyboard
    phones_defaulted = setup_menu.phones_unsaid(table, options.overrides)
    if phones_defaulted:  # a fresh appliance: the host screen is its screen (`phones = false` turns it off)
        settings = replace(settings, phones=True)
    run = run_options(settings, keyboard)
    speaker = Speaker(run, log)  # a missing speaker: silent, with a notice, tried again before each game
    buttons = _open_buttons(appliance, log) if options.buttons else None
    try:  # a button (GPIO, or the host screen's): prompts name it, and Enter only if a keyboard answers too
        sitting = open_sitting(speaker.sitting_run(run), warn=lambda message: log(f"warning: {message}"),
                               names=settings.names, fill_in=True, button=buttons is not None or run.phones)
    except BaseException:
        if buttons is not None:
            buttons.close()
        raise
    background = natural_fill.for_voice(sitting.scheduler.voice, log, path)  # the natural voice, between games
    if buttons is not None:
        sitting.add(buttons)
    for listener in options.listeners:
        sitting.add(listener)
    app = Appliance(sitting, run, path, table, options, appliance, log)
    app.table_error = boot.error
    app.phones_defaulted = phones_defaulted
    app.speaker = speaker
    app.background = background
    app.table_line = boot.line
    try:
        return asyncio.run(app.run())
    except KeyboardInterrupt:  # stop now, not after the line in progress (the game is saved)
        sitting.hush()
        raise
    finally:
        if background is not None:
            background.pause()
        if buttons is not None:
            buttons.close()
        sitting.close()


def run_options(settings: TableSettings, keyboard: bool) -> RunOptions:
    """How to run, from the table."""
    return RunOptions.from_settings(settings, keyboard=keyboard)


def _open_buttons(appliance: ApplianceConfig, log: Callable[[str], None]) -> ButtonListener | None:
    if not appliance.pins:
        return None
    buttons = ButtonListener(appliance.pins, hold_time=appliance.hold_time, window=appliance.multi_press, log=log)
    try:
        buttons.open()
    except ButtonUnavailable as err:
        log(f"buttons off: {err}")
        return None
    log(f"buttons on GPIO {', '.join(map(str, appliance.pins))}")
    return buttons


class Appliance:
    """The loop of a headless table: resume or choose, play, offer another game."""

    def __init__(self, sitting: Sitting, run: RunOptions, path: Path, table: dict[str, Any],
                 options: ServeOptions, appliance: ApplianceConfig, log: Callable[[str], None]):
        self.sitting, self.run_options, self.path, self.table = sitting, run, path, table
        self.options, self.appliance, self.log = options, appliance, log
        self.scheduler, self.hub = sitting.scheduler, sitting.hub
        self.pack = sitting.scheduler.voice.pack
        self.table_error: str | None = None
        self.table_line: str | None = None
        """What the table hears after the greeting about its table file (None: it is sound)."""
        self.unresumable: set[str] = set()
        self.page = setup_menu.PageHost(self)
        """The host screen's settings page, served while the menu waits (phones on)."""
        self.choosing = False
        self.replay = False
        """The table asked to play the same settings again (one press at "play again?")."""
        self.background: BackgroundRender | None = None
        """The natural voice's render (`natural_fill`): running between games, stopped for one."""
        self.speaker: Speaker | None = None
        """The speaker the table asked for (`speaker.py`): its notice while it is missing."""
        self.phones_defaulted = False
        """The phones are on because the table never said `phones` (a fresh appliance): with no
        network they are skipped, said once (`PageHost.offline`), instead of served to nobody."""

    async def run(self) -> int:
        try:
            return await self._run()
        finally:
            await self.page.close()

    async def _run(self) -> int:
        self.sitting.start_listeners(asyncio.get_running_loop())
        if self.background is not None:
            self.background.resume()
        if not self.hub.sources:
            self.log("no button, microphone, phone or keyboard can answer; waiting anyway "
                     "(set a button with `narrator config set appliance.button_pin 17`)")
            self.hub.register(WAIT_SOURCE)
            await self.say("appliance.no_listener")
        if self.appliance.remind_after and self.run_options.time_scale > 0:
            asyncio.get_running_loop().create_task(silence.remind(self.hub, self.scheduler, self.appliance.remind_after))
        await self.say("appliance.greeting")
        if self.table_line:
            await self.say(self.table_line)
        played = 0
        while True:
            try:
                await self._one_game()
            except (NoMoreAnswers, AnswerError):  # nothing left to answer, a bad script: the caller's
                raise
            except NarratorError as err:  # a full card, a read-only card: said, then tried again
                self.log(f"{err}; waiting for the button to try again")
                await self.ask(Ask(trouble.line_for(err), ("done",)))
                continue
            played += 1
            if self.options.once:
                return played
            await self.page.open()
            self.replay = await evening.again(self)

    async def _one_game(self) -> None:
        """Resume the unfinished game (if the table wants it) or choose and play a new one."""
        store = self._take(trouble.latest_unfinished(home.app_home(), self.log, skip=self.unresumable))
        resume = store is not None and await self.ask_resume()
        if resume and store is not None and not await self.play_saved(store):
            await self.play_new(await self.choose())
        elif not resume:
            if store is not None:
                try:
                    store.mark_finished({"winner": None, "abandoned": True})
                finally:
                    store.close()
                self.log(f"game {store.id} set aside; starting a new one")
                await self.say("appliance.set_aside")
            await self.play_new(await self.choose())

    def _take(self, store: GameStore | None) -> GameStore | None:
        """Lock the game for this appliance (None if another narrator took it meanwhile)."""
        if store is None:
            return None
        try:
            return store.open("narrator serve")
        except NarratorError as err:
            self.log(f"skipping game {store.id}: {err}")
            return None

    # --- questions -------------------------------------------------------------------------

    async def say(self, line: str, **params: object) -> None:
        await self.scheduler.play([Say(line, params)], {})

    async def ask(self, ask: Ask, timeout: float | None = None, default: str | None = None) -> object:
        """Ask through the hub; with `timeout`, silence answers `default` (as source "timeout")."""
        if self.choosing and self.page.start_requested:  # pressed before the question was open
            raise setup_menu.StartNow()
        play = asyncio.ensure_future(self.scheduler.play([ask], {}))
        timer = None
        # A script answers every question at once; on an instant clock the timer must not beat it.
        if timeout is not None and not (self.run_options.answers and self.run_options.time_scale == 0):
            timer = asyncio.ensure_future(silence.answer_after(self.hub, self.scheduler, timeout, default))
        try:
            heard = await play
        finally:
            if timer is not None:
                timer.cancel()
        assert heard is not None  # the step ends with the Ask: the scheduler returns its answer
        self.log(f"{ask.line}: {heard.value} ({heard.source})")
        if self.choosing and self.page.start_requested:
            raise setup_menu.StartNow()
        return heard.value

    async def ask_resume(self) -> bool:
        answer = await self.ask(Ask("appliance.resume_question", YES_NO,
                                    {"seconds": int(self.appliance.resume_timeout)}),
                                timeout=self.appliance.resume_timeout, default="yes")
        return answer == "yes"

    async def choose(self) -> TableSettings:
        """The table's game and player count, changed by yes/no answers if the table wants."""
        self._reload_table()
        settings = self._settings(self.table)
        if settings is None:
            raise SetupError(f"table file {self.path}: no player count between 1 and {MAX_PLAYERS} fits it; "
                             "fix it with `narrator config edit`")
        await self.page.open()
        replay, self.replay = self.replay, False
        if self.page.take_start() or replay:  # the button, 「もう一回」 or the host screen's start
            return self._settings(self.table) or settings  # at "play again?": the same, reshuffled
        self.choosing = True
        try:
            return await game_menu.choose(self, settings)
        except setup_menu.StartNow:
            self.page.take_start()
            self._reload_table()
            return self._settings(self.table) or settings
        finally:
            self.choosing = False

    # --- games -----------------------------------------------------------------------------

    async def play_saved(self, store: GameStore) -> bool:
        """Resume `store`; False (logged, and not offered again) when it cannot be resumed."""
        await self.page.close()
        try:
            meta = store.meta
            rules = rules_of(store)
            config = rules.config_from_dict(meta["config"])
            position = resume_position(rules, config, store, recover=True)
            store.update_run(self.run_options.to_dict())
        except Exception as err:
            store.close()
            if isinstance(err, SaveError):  # the card, not the game: said, and offered again
                raise
            self.log(f"cannot resume game {store.id}, skipping it: {err}")
            self.unresumable.add(store.id)
            return False
        self.log(said("resuming", id=store.id))
        if position.recovered:
            await self.say("appliance.recovered")
        self._restart_clock(position.t)
        try:
            state = await self._play(rules, config, store, position, recap=True)
        finally:
            store.close()
        self.log(f"game {store.id} {game_over_message(state.winner)}")
        return True

    async def play_new(self, settings: TableSettings) -> None:
        await self.page.close()
        rules = get_game(settings.game)
        if not self.run_options.keyboard:  # no terminal to pass one device round: the cards go to the phones
            settings = replace(settings, phones=True)
        config = rules.configure(settings)
        needs_phones = rules.phones_required(config)
        if needs_phones and not self.run_options.phones and not self.run_options.answers:
            raise NarratorError(f"{needs_phones}; turn them on with `narrator config set phones true`")
        if needs_phones and not self.run_options.answers and await self._phones_offline():
            raise NarratorError(f"{needs_phones}; the phones need a network: join a Wi-Fi or "
                                "`narrator config hotspot on`")
        store = GameStore.create(home.app_home(), rules.name, config.to_dict(), self.run_options.to_dict(),
                                 holder="narrator serve", warn=lambda message: self.log(f"warning: {message}"),
                                 game_file=rules.source)
        self.log(said("serve_game_saved", id=store.id, game=rules.name, players=settings.players, folder=store.folder))
        try:
            position = start_position(rules, config, store)
            self._restart_clock(0.0)
            state = await self._play(rules, config, store, position, recap=False)
        finally:
            store.close()
        self.log(f"game {store.id} {game_over_message(state.winner)}")

    async def _play(self, rules: Game[C, S], config: C, store: GameStore, position: Position[S], recap: bool) -> S:
        """The game loop, with the phone page beside it when the table turned it on."""
        if self.background is not None:
            self.background.pause()  # the game has every core; it never waits for the natural voice
        self._read_names(rules.names(config))
        server = None
        if self.run_options.phones and not await self._phones_offline():
            from narrator.phones.table import check_game, make_server, open_phones, wait_for_seats

            try:
                check_game(rules)
            except NarratorError as err:
                self.log(f"no phone page for this game: {err}")
            else:
                silent = self.speaker is not None and self.speaker.problem is not None
                server = make_server(rules, config, store, self.hub, self.run_options.lang, self.run_options.voice,
                                     no_speaker=silent)
                if self.page.carry_in(server) == "changed":  # the settings page's host screen is the game's
                    await self.say("phones.seats_new_table")  # never a silent wait for new scans
                await open_phones(server, self.scheduler, self.run_options.host, self.run_options.port,
                                  any_port=True)
                await wait_for_seats(server, self.run_options,  # every game the table plays with phones
                                     only_if_used=rules.phones_required(config) is None)
        try:
            return await play_loop(rules, config, store, self.scheduler, position, recap=recap,
                                   on_state=server.set_state if server else None)
        finally:
            if server is not None:
                await server.stop()
                self.page.carry_back(server)
            if self.background is not None:
                self.background.resume()

    def _read_names(self, names: tuple[str, ...]) -> None:
        """This game's names as the table file reads them now: the host screen may have named
        the players, or corrected a reading, since the service started (`with_readings`)."""
        try:
            given = build_settings(self.table, self.options.overrides, f"table file {self.path}").listening
        except NarratorError:
            given = {}
        self.sitting.read_names(names, given.get("name_readings"))

    async def _phones_offline(self) -> bool:
        """Phones on by default but no network to serve them on (said once: `PageHost.offline`)."""
        return self.phones_defaulted and await self.page.offline()

    def _restart_clock(self, start_at: float) -> None:
        """A game keeps its own clock (continued across a resume), as `narrator resume` does.
        Before it starts, a speaker missing so far is tried again (`speaker.py`)."""
        self.scheduler.clock = make_clock(self.run_options.time_scale, start_at)
        self.scheduler.cursor = self.scheduler.clock.now()
        if self.speaker is not None:  # its notice goes at the page's next visit
            self.speaker.retry(self.run_options, self.sitting, self.scheduler.clock)

    # --- the table file --------------------------------------------------------------------

    def _settings(self, table: dict[str, Any], **changes: str | int) -> TableSettings | None:
        """Validated settings for the table with `changes`, or None if the game refuses them."""
        try:
            settings = build_settings(table, {**self.options.overrides, **changes}, f"table file {self.path}")
            get_game(settings.game).configure(settings)
        except NarratorError:
            return None
        if settings.players is None:
            settings = replace(settings, players=get_game(settings.game).configure(settings).players)
        return settings

    def _reload_table(self) -> None:
        """Pick up `narrator config set` changes made while the service runs (if valid)."""
        if self.table_error:
            return
        try:
            table = load_table(self.path)
            check_table(table, f"table file {self.path}", self.options.overrides)
        except NarratorError as err:
            self.log(f"keeping the table as it was at start: {err}")
            return
        self.table = table
