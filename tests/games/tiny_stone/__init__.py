"""Tiny Stone: a test game that lives outside the narrator, to show what a new game needs.

One black stone is hidden among white ones, one per seat, and shown on each player's own
phone; the seeker (the first seat) privately names who holds it. It is added to the narrator
by an entry point (`narrator.games`: `tiny-stone = tiny_stone:GAME`), its lines are a voice
pack of its own (`voices/tiny-stone-en`, inheriting `en`), and its page is README.md here:
no file of the narrator's own rooms knows it (tests/test_new_game.py plays it through the
CLI, with phones).
"""

from narrator.games import seating
from narrator.games.contract import Game, PhonePlay
from tiny_stone import rules

GAME = Game(
    name="tiny-stone",
    configure=rules.configure,
    config_from_dict=rules.StoneConfig.from_dict,
    new_state=rules.StoneState,
    state_from_dict=rules.StoneState.from_dict,
    advance=rules.advance,
    recap=rules.recap,
    names=seating.names_of,
    context=lambda state: {"night": state.night},
    phones=PhonePlay(private_view=rules.private_view, private_choices=rules.private_choices,
                     table_facts=rules.table_facts, required=rules.phones_required),
)
