"""Additional Werewolf (アディショナル人狼): config, rules engine, and the game contract."""

from narrator.cues import Say
from functools import partial
from pathlib import Path
from typing import Any, Mapping

from narrator.games import scenarios, seating
from narrator.games.additional_werewolf import phone, record
from narrator.games.contract import Game, PhonePlay
from narrator.games.jsonable import Record
from narrator.games.additional_werewolf.box import box_cues, summary_cues
from narrator.games.additional_werewolf.rules import AWState, advance, new_state, recap
from narrator.games.additional_werewolf.state import plan_text
from narrator.games.additional_werewolf.setup import NAMES, SETTINGS, label, AWConfig, configure


def _config_from_dict(data: Mapping[str, Any]) -> AWConfig:
    """A saved config (meta.json's JSON, checked by `AWConfig`'s fields); one saved before the deal
    waited for the cards (no `wait_for_cards`) keeps the deal it was played with, so its log
    replays step for step (undo, a lost snapshot)."""
    saved = dict(data)
    saved.setdefault("wait_for_cards", False)
    for key in ("names", "warnings", "night_order"):
        saved[key] = tuple(saved[key])
    return AWConfig(**saved)


def _outcome(config: AWConfig, state: AWState) -> Record:
    """The record of a finished game: the winning team, and whether the lovers lost with it."""
    return {"winner": state.winner, "lovers_lose": state.lovers_lose}


def _undo_barrier(config: AWConfig, state: AWState) -> Say | None:
    """A night call with physical cards is done by the table's hands (cards looked at,
    swapped): an undo after it must not call it again (each card acts once a night)."""
    if config.digital_cards or state.step not in ("night_call", "night_check"):
        return None
    return Say("undo.night_kept", {"night": state.night})


GAME = Game(
    name="additional-werewolf",
    configure=configure,
    config_from_dict=_config_from_dict,
    new_state=new_state,
    state_from_dict=AWState.from_dict,
    advance=advance,
    recap=recap,
    box=box_cues,
    names=seating.names_of,
    context=seating.night_and_day,
    outcome=_outcome,
    undo_barrier=_undo_barrier,
    record=record.record,
    phones=PhonePlay(private_view=phone.private_view, private_choices=phone.private_choices,
                     required=phone.required),
    label=label,
    summary=summary_cues,
    settings=SETTINGS,
    card_names=NAMES,
    describe=partial(scenarios.describe, Path(__file__).parent, scenarios.Rules(configure, new_state, advance), plan_text),
)
