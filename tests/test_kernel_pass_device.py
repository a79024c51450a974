"""Pass-the-device at a terminal for the kernel's games of many nights (werewolf, tabula):
each night every living player takes the device once, in seat order, whatever they hold,
so a hand-over tells the table nothing; the seer, the wolves and the knight choose on the
screen, never aloud; nothing private reaches the shared transcript. One-night (the thief's
swap is ordered) still needs the phones, and werewolf with physical cards is refused.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from narrator.cues import Answer, Ask, Continue, Private, Say, Start
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.table.transcript import read_transcript
from tests.kernel_table import StepBudget

NAMES = {"werewolf": "Aki,Ben,Chika,Dai,Emi,Fumi", "tabula": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun"}


def _config(name: str, **flags):
    game = get_game(name)
    return game, game.configure(build_settings({}, {"names": NAMES[name], "seed": "5", **flags}, "test"))


def _nights(game, config) -> list[tuple[list[str], list[str], list]]:
    """Per night: the living at dusk, who got the device (in order), and the cues said aloud."""
    state, event, nights = game.new_state(), Start(), []
    for _ in range(2000):
        if state.finished:
            return nights
        before = state
        state, cues = game.advance(config, state, event)
        if state.night > before.night:
            nights.append(([n for n in config.names if n not in before.dead], [], []))
        if nights and state.night > state.day or (nights and before.night > before.day):
            _, turns, said = nights[-1]
            for cue in cues:
                to = cue.to if isinstance(cue, Private) else cue.player if isinstance(cue, Ask) else None
                if to is not None and (not turns or turns[-1] != to):
                    turns.append(to)
                elif isinstance(cue, (Say, Ask)) and to is None:
                    said.append(cue.line)
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is not None and ask.multiple:  # the vote spares the wolves: the game lasts some nights
            humans = [n for n in ask.choices if state.cards[config.names.index(n)] != "werewolf"]
            event = Answer((humans or list(ask.choices))[:1])
        else:
            event = Answer(ask.choices[0]) if ask else Continue()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name", ["werewolf", "tabula"])
def test_every_living_player_takes_the_device_once_a_night_in_seat_order(name):
    game, config = _config(name)
    assert config.passed and game.phones_required(config) is None
    nights = _nights(game, config)
    assert len(nights) >= 2
    for living, turns, said in nights:
        assert turns == living  # nobody twice, nobody left out: a hand-over names no role
        assert not any(line.startswith("wolf.call.") for line in said), said  # no role is called aloud
        assert "wolf.pass_round" in said and "wolf.round_over" in said


def test_the_phones_or_one_night_keep_the_calls():
    assert not _config("werewolf", phones=True)[1].passed
    game = get_game("one-night")
    config = game.configure(build_settings({}, {"names": "Aki,Ben,Chika,Dai", "digital_cards": "true"}, "test"))
    assert not config.passed and game.phones_required(config) == "the cards are dealt to the players' phones"


pty = pytest.importorskip("pty")
CHOICES = re.compile(r"\d=\w")


def _play_on_a_terminal(tmp_path: Path, name: str, lang: str) -> tuple[str, int]:
    """The real narrator on a pseudo-terminal, every screen answered: Enter, or the first choice."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real narrator on a terminal
        os.environ["NARRATOR_HOME"] = str(tmp_path / "home")
        os.chdir(Path(__file__).resolve().parent.parent)
        os.execv(sys.executable, [sys.executable, "-m", "narrator", "play", name, "--names", NAMES[name], "--seed",
                                  "4", "--voice", "text", "--time-scale", "0", "--lang", lang, "--transcript",
                                  str(tmp_path / "t.jsonl")])
    output, pending = b"", b""
    deadline = time.monotonic() + 300  # generous: a loaded machine runs the child slowly
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        output += data
        pending += data
        lines = pending.decode("utf-8", "ignore").rstrip("\r\n").splitlines()
        last = lines[-1] if lines else ""
        reply = "1" if CHOICES.search(last) else "" if last.strip() == ">" or "Enter" in last else None
        if reply is not None:
            os.write(fd, (reply + "\n").encode())
            pending = b""
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:  # still waiting for input at the deadline: end it, and fail below
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    return output.decode("utf-8", "ignore"), os.waitstatus_to_exitcode(status)


@pytest.mark.slow
@pytest.mark.parametrize("name,lang", [("werewolf", "en"), ("werewolf", "ja"), ("tabula", "en")])
def test_a_whole_game_passing_the_device_at_a_terminal(tmp_path, name, lang):
    text, code = _play_on_a_terminal(tmp_path, name, lang)
    assert code == 0, text[-3000:]
    assert "game over:" in text
    screens = text.split("\x1b[2J\x1b[3J\x1b[H")
    for screen in screens:  # each private screen is wiped before the device goes on
        assert len(set(re.findall(r"==== (\w+) ====", screen))) <= 1
    divine = "Whom do you divine tonight?" if lang == "en" else "今夜は誰を占いますか？"
    shown = [s for s in screens if divine in s]
    assert shown and all(s.count("====") == 10 for s in shown)  # take it, choose, confirm, the result, clear it
    records = read_transcript(tmp_path / "t.jsonl")
    said = [r["line"] for r in records if r["kind"] == "say"]
    assert not any(line.startswith("wolf.call.") or line.startswith("wolf.result.") for line in said)
    assert not [r for r in records if r["kind"] == "private" or "to" in r]
    assert not [r for r in records if r["kind"] == "answer" and str(r["line"]).startswith("wolf.call.")]
    calls = [r for r in records if r.get("line") == "private.call"]
    assert len(calls) >= 2 * len(NAMES[name].split(","))  # the deal, then the first night's round
    assert [r["winner"] for r in records if r["kind"] == "end"]


def _public_walk(game, config):
    """Every (line, params) said aloud in a passed game, and every question the table answers aloud."""
    from narrator.cues import End

    state, event, said, asks, budget = game.new_state(), Start(), [], [], StepBudget()
    while not state.finished:
        budget.tick()
        state, cues = game.advance(config, state, event)
        said += [(c.line, c.params) for c in cues if isinstance(c, (Say, End)) or (isinstance(c, Ask) and not c.player)]
        asks += [c for c in cues if isinstance(c, Ask) and not c.player]
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is not None and ask.multiple:
            humans = [n for n in ask.choices if state.cards[config.names.index(n)] != "werewolf"]
            event = Answer((humans or list(ask.choices))[:1])
        else:
            event = Answer(ask.choices[0]) if ask else Continue()
    return said, asks


@pytest.mark.parametrize("name", ["werewolf", "tabula"])
def test_render_ahead_holds_every_line_a_passed_game_says(name):
    """Nothing is synthesized during a game: each line said aloud, with its values, and each
    hand-over's call by name, are among what render-ahead prepares before the first line."""
    from narrator.sound.render_ahead import _key, game_requests

    game, config = _config(name)
    rendered = {_key(line, params) for line, params in game_requests(game, config)}
    said, _ = _public_walk(game, config)
    said += [("private.call", {"name": n}) for n in config.names]
    missing = [item for item in said if _key(*item) not in rendered]
    assert not missing


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name", ["werewolf", "tabula"])
def test_each_question_asked_aloud_has_a_voice_grammar_for_every_answer(name, lang):
    """The voice grammar of each public question is built from its answers: every choice (a
    player, done, yes/no) has a phrase in the pack of either language."""
    from narrator.inputs.voice.grammar import PhraseBook
    from narrator.sound.voicepack import load_pack

    game, config = _config(name)
    book = PhraseBook.from_pack(load_pack(lang), config.names)
    _, asks = _public_walk(game, config)
    assert {a.line for a in asks} >= {"wolf.ready", "wolf.vote"}
    for ask in asks:
        meanings = set(book.grammar(ask).meanings.values())
        assert set(ask.choices) <= meanings, (ask.line, set(ask.choices) - meanings)
