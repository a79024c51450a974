"""What the voice is really asked for during whole games is what was rendered ahead
(issue 26, item 15). `tests/test_render_cache.py` checks render-ahead against the cues; this
test records every `clip(line, params)` the scheduler, its parts and the runner ask the voice
for while whole games play through the real loop (every game, and each way it is played:
names or none, undo, Pagan's help and its turn clock at the table's own seconds, Bestia
Magica from a script and passed round one device, Additional Werewolf's cards on the device
with the strategist's exchange, and the three game files, on physical cards and on the device,
in both languages) and fails on anything not rendered ahead.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from narrator.games import get_game
from narrator.settings import build_settings
from narrator.sound.render_ahead import game_requests
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.session import RunOptions, open_sitting
from narrator.table.store import GameStore
from tests import pagan_script
from tests.bm_driver import answers_jsonl, play as bm_play

NAMES = "Aki,Ben,Chie,Dai,Emi"


def _key(line, params):
    return json.dumps([line, params], sort_keys=True, ensure_ascii=False, default=str)


def _record(scheduler):
    """Wrap the voice every part of `scheduler` shares: each line asked for is written down."""
    voice, asked = scheduler.voice, []
    original = voice.clip

    def clip(line, params=None):
        asked.append((line, dict(params or {})))
        return original(line, params)
    voice.clip = clip
    return asked


def _not_rendered(game, config, asked):
    ahead = {_key(line, params) for line, params in game_requests(game, config)}
    return sorted({_key(line, params) for line, params in asked if _key(line, params) not in ahead})


def _play(tmp_path, sitting, game, config):
    store = GameStore.create(tmp_path / "home", game.name, config.to_dict(), {})

    async def main():
        sitting.start_listeners(asyncio.get_running_loop())
        return await play_loop(game, config, store, sitting.scheduler, start_position(game, config, store))
    try:
        return asyncio.run(main())
    finally:
        sitting.close()
        store.close()


def _scripted(tmp_path, name, options, answers, lang="en"):
    game = get_game(name)
    config = game.configure(build_settings({}, {**options, "game": name, "lang": lang, "seed": 5}, "test"))
    path = tmp_path / "answers"
    path.write_text(answers, encoding="utf-8")
    run = RunOptions(lang=lang, voice="text", time_scale=0, answers=str(path), keyboard=False)
    sitting = open_sitting(run, names=game.names(config))
    asked = _record(sitting.scheduler)
    state = _play(tmp_path, sitting, game, config)
    assert state.finished
    return game, config, asked


AW_NAMED = "done\nAki\nundo\nBen\nno\nno\ndone\nChie,Dai\nno\nno\ndone\nEmi\nno\nno\n"
AW_NAMELESS = "done\nno\nno\ndone\nno\nundo\nno\nno\ndone\nno\nno\n"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("options, answers", [
    ({"names": NAMES, "cards": "seer=1,medium=1,strategist=1,lovers=2"}, AW_NAMED),
    ({"players": 5}, AW_NAMELESS),
    ({"players": 5, "discussion": 0, "strategist": 0}, "done\ndone\nno\nno\ndone\ndone\nno\nno\ndone\ndone\nno\nno\n"),
])
def test_additional_werewolf_says_only_what_was_rendered_ahead(tmp_path, options, answers, lang):
    game, config, asked = _scripted(tmp_path, "additional-werewolf", options, answers, lang)
    assert asked and _not_rendered(game, config, asked) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pagan_with_help_and_its_turn_clock_says_only_what_was_rendered_ahead(tmp_path, lang):
    script = pagan_script.game(["done", "done", "done"], ritual=True)
    script = script[:4] + ["help"] + script[4:]  # help at the witch's first upkeep, then the answer
    game, config, asked = _scripted(tmp_path, "pagan", {"turn_timer": "9", "warnings": "7,3"},
                                    "\n".join(script) + "\n", lang)
    assert any(line.startswith("pagan.help") or "help" in line for line, _ in asked), "no help line was said"
    assert any(params.get("seconds") == 7 for _, params in asked), "the turn clock never spoke"
    assert _not_rendered(game, config, asked) == []


def test_bestia_magica_from_a_script_says_only_what_was_rendered_ahead(tmp_path):
    from tests.bm_driver import configure
    config = configure(names="Aki,Ben,Chie,Dai,Emi,Fumi", seed=5)
    _, _, rounds = bm_play(config, seed=5)
    game, config, asked = _scripted(tmp_path, "bestia-magica", {"names": "Aki,Ben,Chie,Dai,Emi,Fumi"},
                                    answers_jsonl(rounds))
    assert asked and _not_rendered(game, config, asked) == []


def test_bestia_magica_passed_round_one_device_says_only_what_was_rendered_ahead(tmp_path):
    import re

    from narrator.table.display import ConsoleDisplay
    from tests.test_bestia_magica_pass_device import make_scheduler

    class Holder(ConsoleDisplay):
        """The player holding the device types the moment a screen shows: Enter, or the first seat."""

        def __init__(self, hub, stream):
            super().__init__(False, stream)
            self.hub = hub

        def private(self, player, lines):
            super().private(player, lines)
            last = lines[-1]
            choice = re.match(r"\s+(\d+)=", last)
            if "Press Enter" not in last and choice is None:
                return  # lines to read: the screen stays up until the device is cleared
            text = "" if choice is None else choice.group(1)
            if text and any("memo" in line for line in lines):
                text += " n"
            asyncio.get_running_loop().call_soon(lambda: self.hub.offer_text(text, "keyboard"))

    game = get_game("bestia-magica")
    config = game.configure(build_settings({}, {"game": "bestia-magica", "lang": "en", "seed": 5,
                                                "names": "Aki,Ben,Chie,Dai,Emi"}, "test"))
    scheduler, hub, screen, transcript = make_scheduler(tmp_path, sequential=True)
    scheduler.display = Holder(hub, screen)
    if hasattr(scheduler.voice.pack, "pass_device"):  # as the sitting sets it (table/session.py)
        scheduler.voice.pack = replace(scheduler.voice.pack, pass_device=True)
    asked = _record(scheduler)
    store = GameStore.create(tmp_path / "home", game.name, config.to_dict(), {})
    state = asyncio.run(play_loop(game, config, store, scheduler, start_position(game, config, store)))
    transcript.close()
    assert state.finished and asked
    assert _not_rendered(game, config, asked) == []


# --- the cards on the device, and the games played from game files --------------------------

def _answers_in_process(game, config, pick) -> str:
    """The answers a table gives, found by playing `config` in-process with `pick`, as the
    lines of an answers script (several names joined by commas)."""
    from narrator.cues import Answer, Ask, Collect, Continue, Start

    state, event, lines = game.new_state(), Start(), []
    for _ in range(5000):
        state, cues = game.advance(config, state, event)
        if state.finished:
            return "\n".join(lines) + "\n"
        if cues and isinstance(cues[-1], Collect) and cues[-1].call:  # a game file's night call: each holder's line
            lines += [r.choices[0] for r in cues[-1].requests]
            event = Answer({r.player: {r.key: r.choices[0]} for r in cues[-1].requests})
            continue
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        if ask is None:
            event = Continue()
            continue
        value = pick(config, state, ask)
        lines.append(",".join(value) if isinstance(value, list) else value)
        event = Answer(value)
    raise AssertionError("the game did not end")


def _configured(name, options, lang):
    game = get_game(name)
    return game, game.configure(build_settings({}, {**options, "game": name, "lang": lang, "seed": 5}, "test"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_additional_werewolf_with_the_cards_on_the_device_says_only_what_was_rendered_ahead(tmp_path, lang):
    from narrator.games.additional_werewolf import cards

    options = {"names": NAMES, "digital_cards": "true", "cards": "seer=1,peddler=1,strategist=1,lovers=2"}

    def pick(config, state, ask):
        if ask.player:
            return cards.private_choices(config, state, ask.player, ask.choices)[0]
        return "done" if "done" in ask.choices else ask.choices[0] if not ask.multiple else [ask.choices[0]]

    game, config = _configured("additional-werewolf", options, lang)
    answers = _answers_in_process(game, config, pick)
    game, config, asked = _scripted(tmp_path, "additional-werewolf", options, answers, lang)
    said = {line for line, _ in asked}  # the cards on the device, the night on the phones, the exchange
    assert {"setup.deal_digital", "seer.act_phone", "peddler.act_phone", "strategist.pick_phone"} <= said
    assert _not_rendered(game, config, asked) == []


KERNEL_TABLES = {"one-night": "Aki,Ben,Chika,Dai", "werewolf": "Aki,Ben,Chika,Dai,Emi,Fumi",
                 "tabula": "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana,Iku,Jun"}


def _kernel_pick(config, state, ask):
    """Every holder picks the first choice; the vote names a living werewolf if the narrator knows one."""
    if ask.multiple:
        cards_ = getattr(state, "cards", ())
        wolves = [n for n, c in zip(config.names, cards_) if c == "werewolf" and n in ask.choices]
        return (wolves or list(ask.choices))[:1]
    return "yes" if "yes" in ask.choices else ask.choices[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name, device", [("one-night", False), ("one-night", True),
                                          ("werewolf", True), ("tabula", True)])
def test_a_game_file_says_only_what_was_rendered_ahead(tmp_path, name, device, lang):
    options = {"names": KERNEL_TABLES[name], **({"digital_cards": "true"} if device else {})}
    game, config = _configured(name, options, lang)
    answers = _answers_in_process(game, config, _kernel_pick)
    game, config, asked = _scripted(tmp_path, name, options, answers, lang)
    assert asked and _not_rendered(game, config, asked) == []
