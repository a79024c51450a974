"""Bestia Magica (ベスティアマギカ): config and deal, rules engine, and the game contract."""

from functools import partial
from pathlib import Path

from narrator.games import scenarios, seating
from narrator.games.bestia_magica import phone, record
from narrator.games.contract import DEFAULT_QUIET_ROUNDS, Game, PhonePlay
from narrator.games.bestia_magica.box import box_cues, plan_text, summary_cues
from narrator.games.bestia_magica.rules import advance, recap
from narrator.games.bestia_magica.sayable import sayable
from narrator.games.bestia_magica.setup import NAMES, SETTINGS, label, BMConfig, configure
from narrator.games.bestia_magica.state import BMState, new_state

GAME = Game(
    name="bestia-magica",
    configure=configure,
    config_from_dict=BMConfig.from_dict,
    new_state=new_state,
    state_from_dict=BMState.from_dict,
    advance=advance,
    recap=recap,
    box=box_cues,
    summary=summary_cues,
    sayable=sayable,
    names=seating.names_of,
    record=record.record,
    context=seating.night_and_day,
    phones=PhonePlay(private_view=phone.private_view, alive=phone.alive),
    label=label,
    settings=SETTINGS,
    card_names=NAMES,
    describe=partial(scenarios.describe, Path(__file__).parent, scenarios.Rules(configure, new_state, advance), plan_text),
    quiet_rounds=lambda config: config.rules.get("quiet_rounds", DEFAULT_QUIET_ROUNDS),  # older saves lack it
)
