"""Pagan: Fate of Roanoke (witch and hunter): config, turn-guide engine, and the game contract."""

from narrator.games.contract import Game, GameRecord
from narrator.games.pagan.rules import PaganState, advance, new_state, recap
from narrator.games.pagan.setup import SETTINGS, PaganConfig, configure


def _record(config: PaganConfig, state: PaganState) -> GameRecord:
    """The table's history of a Pagan game: the players are called by their sides, so no one
    is kept by name; the ending and the turn it came on are."""
    return {"players": [], "answers": {"ending": state.ending, "turns": state.turn}}


GAME = Game(
    name="pagan",
    configure=configure,
    config_from_dict=PaganConfig.from_dict,
    new_state=new_state,
    state_from_dict=PaganState.from_dict,
    advance=advance,
    recap=recap,
    record=_record,
    settings=SETTINGS,
)
