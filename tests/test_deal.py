"""The one deal helper (narrator/games/deal.py) deals exactly what each game dealt before it:
the same seed gives the same cards, so a saved game's log replays to its own deal. The old
per-game code is written out here as the reference it must match, seed for seed."""

import random
import tomllib
from dataclasses import replace

import pytest

from narrator.games import deal
from narrator.games.kernel import engine, variants
from narrator.games.kernel.files import shipped_files
from narrator.games.kernel.parse import parse_game
from narrator.games.kernel.plans import sample_config
from tests.engine_driver import configure

SEEDS = range(40)


def _aw_before(config):
    """Additional Werewolf's deal as cards.py wrote it before the helper."""
    rng = random.Random(f"{config.seed}:deal")
    roles = [c for c, n in sorted(config.roles.items()) for _ in range(n)]
    extras = [c for c, n in sorted(config.cards.items()) for _ in range(n)]
    rng.shuffle(roles)
    rng.shuffle(extras)
    return tuple(roles), tuple(extras)


@pytest.mark.parametrize("seed", SEEDS)
def test_additional_werewolf_deals_what_it_dealt_before(seed):
    rules, config = configure(names="Aki,Ben,Chika,Dai,Emi,Fumi,Gen", digital_cards=True, seed=seed)
    state = rules.new_state()
    from narrator.games.additional_werewolf import cards

    dealt = cards.deal(config, state)
    assert (dealt.roles_of, dealt.extras_of) == _aw_before(config)
    redealt = cards.redeal(config, dealt)
    rng = random.Random(f"{config.seed}:redeal:{dealt.day}")
    extras = list(dealt.extras_of)
    rng.shuffle(extras)
    assert redealt.extras_of == tuple(extras)


@pytest.mark.parametrize("seed", SEEDS)
def test_bestia_magica_deals_what_it_dealt_before(seed):
    rules, config = configure("bestia-magica", players=8, seed=seed)
    from narrator.games.bestia_magica import setup

    cards = [setup._parse_card(c, "recommended", "test") for c in setup.definition()["recommended"]["8"]]
    random.Random(seed).shuffle(cards)
    assert [(c.role, c.attribute) for c in config.deal] == cards


@pytest.mark.parametrize("name", ["werewolf", "one-night", "village-9"])
@pytest.mark.parametrize("seed", range(10))
def test_a_game_files_deal_is_what_it_dealt_before(name, seed):
    spec = parse_game(tomllib.loads(shipped_files()[name].read_text(encoding="utf-8")), name)
    config = replace(sample_config(spec), seed=seed)
    pile = [r for r in spec.roles for _ in range(config.roles.get(r, 0))]
    random.Random(f"{config.seed}:deal").shuffle(pile)
    assert engine.deal_cards(spec, config) == variants.deal(spec, config, pile)


def test_holders_are_in_seat_order_and_leave_out_the_dead():
    names, cards = ("Aki", "Ben", "Chika", "Dai"), ("seer", "wolf", "seer", "seer")
    assert deal.holders(names, cards, "seer") == ["Aki", "Chika", "Dai"]
    assert deal.holders(names, cards, "seer", out=("Chika",)) == ["Aki", "Dai"]


def test_a_pile_follows_the_order_given_else_the_names():
    assert deal.pile({"b": 2, "a": 1}) == ["a", "b", "b"]
    assert deal.pile({"b": 2, "a": 1, "c": 0}, order=("c", "b", "a")) == ["b", "b", "a"]
