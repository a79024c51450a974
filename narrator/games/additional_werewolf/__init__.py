"""Additional Werewolf (アディショナル人狼): config, rules engine, and the game contract."""

from narrator.games import seating
from narrator.games.additional_werewolf import phone
from narrator.games.contract import Game, PhonePlay
from narrator.games.additional_werewolf.box import box_cues
from narrator.games.additional_werewolf.rules import AWState, advance, new_state, recap
from narrator.games.additional_werewolf.setup import SETTINGS, AWConfig, configure


def _config_from_dict(data: dict) -> AWConfig:
    data = dict(data)
    for key in ("names", "warnings", "night_order"):
        data[key] = tuple(data[key])
    return AWConfig(**data)


def _outcome(config: AWConfig, state: AWState) -> dict:
    """The record of a finished game: the winning team, and whether the lovers lost with it."""
    return {"winner": state.winner, "lovers_lose": state.lovers_lose}


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
    phones=PhonePlay(private_view=phone.private_view, private_choices=phone.private_choices,
                     required=phone.required),
    settings=SETTINGS,
)
