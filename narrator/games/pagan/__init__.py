"""Pagan: Fate of Roanoke (witch and hunter): config, turn-guide engine, and the game contract."""

from narrator.games.contract import Game
from narrator.games.pagan.rules import PaganState, advance, new_state, recap
from narrator.games.pagan.setup import SETTINGS, PaganConfig, configure

GAME = Game(
    name="pagan",
    configure=configure,
    config_from_dict=PaganConfig.from_dict,
    new_state=new_state,
    state_from_dict=PaganState.from_dict,
    advance=advance,
    recap=recap,
    settings=SETTINGS,
)
