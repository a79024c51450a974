"""Every recommended set (4-20 players) survives the worst first night the rules allow.

The worst first night for the town: the sleep demon puts the guard to sleep, the guard (if
awake) protects nobody who is attacked, the beasts attack one town player and every murderer
kills another, the curse caster curses a third (a curse kills at a later dawn), the saint
reforms nobody, and nobody uses an ability. After it, the town team must still outnumber the
beasts, or the game would end at the first morning (issue 15: the old 12-player set did).
"""

import pytest

from narrator.games.bestia_magica.setup import definition
from narrator.games.bestia_magica.vote import counts
from tests.bm_table import Table, deaths

NAMES = [f"P{i:02d}" for i in range(1, 21)]


def recommended_deal(players: int) -> str:
    cards = definition()["recommended"][str(players)]
    return ",".join(f"{name}={card}" for name, card in zip(NAMES, cards))


def worst_first_night(t: Table) -> dict[str, str]:
    roles = {p.name: p.role for p in t.state.players}
    town = [n for n, r in roles.items() if definition()["roles"][r]["count"] == "town" and r != "guard"]
    town += [n for n, r in roles.items() if r == "guard"]  # the guard is the last town player killed
    guards = [n for n, r in roles.items() if r == "guard"]
    victims = iter(town)
    targets: dict[str, str] = {}
    attacked = next(victims)
    for name, role in roles.items():
        if role == "beast":
            targets[name] = attacked
    for name, role in roles.items():
        if role == "murderer":
            targets[name] = next(victims)
        elif role == "curse_caster":
            targets[name] = next(victims)
        elif role == "sleep_demon" and guards:
            targets[name] = guards[0]
    hit = set(targets.values())
    for name in guards:  # protect someone nobody attacks: a beast
        targets[name] = next(n for n in t.request(name).choices if n not in hit)
    for name, role in roles.items():
        if role == "saint":  # reform a town player: no effect
            targets[name] = next(n for n in t.request(name).choices if roles[n] == "townsperson" or n not in hit)
    return targets


@pytest.mark.parametrize("players", range(4, 21))
def test_the_recommended_set_survives_the_worst_first_night(players):
    t = Table(recommended_deal(players))
    before = counts(t.config, t.state)
    t.night(**worst_first_night(t))
    murderers = sum(1 for c in t.config.deal if c.role == "murderer")
    assert len(deaths(t.cues)) == 1 + murderers  # every killer landed a kill on the town
    after = counts(t.config, t.state)
    assert after["town"] == before["town"] - 1 - murderers
    assert not t.state.finished, f"{players} players: {after['town']} town against {after['beasts']} beasts"
    assert t.collect is not None and t.collect.phase == "vote"  # the first day is played
