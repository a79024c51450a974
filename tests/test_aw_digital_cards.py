"""Additional Werewolf with digital cards: deal, looks, swaps, lovers, strategist, resume (pure)."""

import json
from collections import Counter

import pytest

from narrator.cues import Ask, End, Say
from narrator.errors import AnswerError, SetupError
from narrator.games.additional_werewolf import cards
from narrator.games.additional_werewolf.state import night_plan
from tests.engine_driver import configure

NAMES5 = "Aki,Ben,Chika,Dai,Emi"
NAMES7 = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen"


def digital(names=NAMES5, seed=7, **options):
    return configure(names=names, digital_cards="true", seed=seed, **options)


def step(rules, config, state, event):
    state, cues = rules.advance(config, state, event)
    # every state must survive the store's JSON round-trip unchanged (resume)
    assert rules.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    return state, cues


def play(rules, config, decide, max_steps=2000):
    """Drive a whole game; `decide(state, ask)` answers every Ask (public and private)."""
    state = rules.new_state()
    event = {"type": "start"}
    played = []
    for _ in range(max_steps):
        state, cues = step(rules, config, state, event)
        played += cues
        if state.finished:
            return state, played
        ask = cues[-1] if cues and isinstance(cues[-1], Ask) else None
        event = {"type": "answer", "value": decide(state, ask)} if ask else {"type": "continue"}
    raise AssertionError("game did not end")


def first_valid(config, nominate):
    """A policy: private asks take the first valid choice; nominations follow `nominate(state)`."""
    def decide(state, ask):
        if ask.player:
            return cards.private_choices(config, state, ask.player, ask.choices)[0]
        if ask.line == "nomination.who":
            return nominate(state)
        return "done"
    return decide


def test_deal_gives_every_seat_one_role_and_one_card_and_is_seeded():
    rules, config = digital()
    state, cues = step(rules, config, rules.new_state(), {"type": "start"})
    assert Counter(state.roles_of) == Counter(config.roles)
    assert Counter(state.extras_of) == Counter(config.cards)
    assert "setup.deal_digital" in [c.line for c in cues if isinstance(c, Say)]
    again, _ = rules.advance(config, rules.new_state(), {"type": "start"})
    assert again.roles_of == state.roles_of and again.extras_of == state.extras_of
    deals = {rules.advance(digital(seed=s)[1], rules.new_state(), {"type": "start"})[0].roles_of for s in range(20)}
    assert len(deals) > 1


def test_digital_cards_need_names():
    with pytest.raises(SetupError, match="names"):
        configure(players=5, digital_cards="true")


def test_night_asks_are_private_to_the_card_holder_and_seer_memo_is_true():
    rules, config = digital()
    state, _ = step(rules, config, rules.new_state(), {"type": "start"})
    state, _ = step(rules, config, state, {"type": "answer", "value": "done"})
    state, cues = step(rules, config, state, {"type": "continue"})
    ask = cues[-1]
    seer = cards.holders(config, state, "seer")[0]
    assert isinstance(ask, Ask) and ask.line == "seer.act_phone" and ask.player == seer
    assert ask.choices == config.names  # the public choices never reveal who the seer is
    target = next(n for n in config.names if n != seer)
    assert seer not in cards.private_choices(config, state, seer, ask.choices)
    state, _ = step(rules, config, state, {"type": "answer", "value": target})
    memo = cards.private_view(config, state, seer)["memos"]
    assert memo == [{"kind": "seer", "night": 1, "target": target, "role": cards.role(config, state, target)}]
    for other in config.names:
        if other != seer:
            assert cards.private_view(config, state, other)["memos"] == []


def test_peddler_and_phantom_mage_swap_role_cards():
    rules, config = digital()
    state, _ = step(rules, config, rules.new_state(), {"type": "start"})
    state, _ = step(rules, config, state, {"type": "answer", "value": "done"})
    state, _ = step(rules, config, state, {"type": "continue"})  # seer's call
    state, _ = step(rules, config, state, {"type": "answer", "value": config.names[0]})
    state, cues = step(rules, config, state, {"type": "continue"})  # peddler's call
    peddler = cues[-1].player
    target = next(n for n in config.names if n != peddler)
    before = {n: cards.role(config, state, n) for n in config.names}
    state, after_cues = step(rules, config, state, {"type": "answer", "value": target})
    assert cards.role(config, state, peddler) == before[target]
    assert cards.role(config, state, target) == before[peddler]
    assert [c.line for c in after_cues if isinstance(c, Say)] == []  # the check's sleep is the one
    state, check = step(rules, config, state, {"type": "continue"})  # the role check, a step of its own
    assert [c.line for c in check if isinstance(c, Say)] == ["night.check_phone", "night.sleep"]
    state, cues = step(rules, config, state, {"type": "continue"})  # phantom mage 1
    mage = cues[-1].player
    before = {n: cards.role(config, state, n) for n in config.names}
    a, b = config.names[1], config.names[3]
    state, cues = step(rules, config, state, {"type": "answer", "value": a})
    assert cues[-1].line == "phantom_mage.act_phone_second" and cues[-1].player == mage
    assert a not in cards.private_choices(config, state, mage, cues[-1].choices)
    state, _ = step(rules, config, state, {"type": "answer", "value": b})
    assert cards.role(config, state, a) == before[b] and cards.role(config, state, b) == before[a]


def test_nominating_the_werewolf_ends_without_asking_the_table():
    rules, config = digital()

    def wolf(state):
        return [n for n in config.names if cards.role(config, state, n) == "werewolf"]

    state, played = play(rules, config, first_valid(config, wolf))
    assert state.winner == "citizens" and state.day == 1
    assert "nomination.werewolf_found" not in [c.line for c in played if isinstance(c, Ask)]
    assert any(isinstance(c, Say) and c.line == "nomination.found_digital" for c in played)
    werewolf = wolf(state)[0]
    assert cards.private_view(config, state, werewolf)["won"] is False
    citizen = next(n for n in config.names if cards.role(config, state, n) == "citizen")
    assert cards.private_view(config, state, citizen)["won"] is True


def test_no_werewolf_in_three_days_redeals_and_the_werewolf_team_wins():
    rules, config = digital()
    extras = []

    def innocent(state):
        extras.append(state.extras_of)
        return [next(n for n in config.names if cards.role(config, state, n) == "citizen"
                     and n not in cards.holders(config, state, "strategist"))]

    state, played = play(rules, config, first_valid(config, innocent))
    assert state.winner == "werewolves" and state.day == 3
    assert [c.line for c in played if isinstance(c, Say)].count("redeal.digital") == 2
    assert Counter(extras[1]) == Counter(extras[0])


def test_medium_sees_one_of_yesterdays_nominees():
    rules, config = digital(names="Aki,Ben,Chika,Dai,Emi,Fumi")  # the 6-player setup has a medium
    nominated = []

    def decide(state, ask):
        if ask.line == "medium.act_phone":
            assert ask.choices == state.nominations[-1]
            return ask.choices[0]
        if ask.player:
            return cards.private_choices(config, state, ask.player, ask.choices)[0]
        if ask.line == "nomination.who":
            pick = [n for n in config.names if cards.role(config, state, n) == "citizen"
                    and n not in cards.holders(config, state, "strategist")][:1]
            nominated.append(pick)
            return pick
        return "done"

    state, played = play(rules, config, decide)
    medium_memos = [m for m in state.memos if m["kind"] == "medium"]
    assert medium_memos and all(m["target"] in state.nominations[m["night"] - 2] for m in medium_memos)


def test_werewolf_lover_nominated_makes_both_lovers_lose():
    for seed in range(200):
        # no swap cards, so nobody's role changes (a swap with oneself is refused by the rules)
        rules, config = digital(names=NAMES7, seed=seed, cards="seer=2,medium=2,strategist=1,lovers=2")
        state, _ = step(rules, config, rules.new_state(), {"type": "start"})
        lovers = cards.holders(config, state, "lovers")
        if any(cards.role(config, state, n) == "werewolf" for n in lovers):
            break
    else:
        pytest.skip("no seed dealt a werewolf lover")

    def decide(state, ask):
        if ask.player:
            return cards.private_choices(config, state, ask.player, ask.choices)[0]
        if ask.line == "nomination.who":
            return [n for n in config.names if cards.role(config, state, n) == "werewolf"]
        return "done"

    state, played = play(rules, config, decide)
    assert state.winner == "citizens" and state.lovers_lose
    assert isinstance(played[-1], End) and played[-1].line == "end.citizens_win_lovers_lose"
    for name in lovers:
        view = cards.private_view(config, state, name)
        assert view["won"] is False
        assert {m["kind"] for m in view["memos"]} >= {"lovers"}


def _first_choice(config, state):
    """The first choice the open night question allows its holder (the seer: not oneself)."""
    call = night_plan(config, state.night)[state.call_index]
    holder = cards.holders(config, state, call.card)[call.number - 1]
    return cards.private_choices(config, state, holder, tuple(config.names))[0]


def test_strategist_exchange_hands_back_the_chosen_cards():
    for seed in range(200):  # no swap cards: the night leaves every role where it was dealt
        rules, config = digital(seed=seed, cards="seer=1,medium=1,strategist=1,lovers=2")
        state, _ = step(rules, config, rules.new_state(), {"type": "start"})
        strategist = cards.holders(config, state, "strategist")[0]
        if cards.role(config, state, strategist) != "werewolf":
            break
    state, _ = step(rules, config, state, {"type": "answer", "value": "done"})
    while state.step != "ask_nominated":
        state, cues = step(rules, config, state, {"type": "continue"} if not state.step.startswith("ask_")
                           else {"type": "answer", "value": _first_choice(config, state)})
    state, cues = step(rules, config, state, {"type": "answer", "value": [strategist]})
    assert [c.line for c in cues if isinstance(c, Say)][-1] == "strategist.reveal_name"
    assert cues[-1].player == strategist and strategist not in cues[-1].choices
    a, b = [n for n in config.names if n != strategist][:2]
    state, _ = step(rules, config, state, {"type": "answer", "value": a})
    with pytest.raises(AnswerError):
        rules.advance(config, state, {"type": "answer", "value": a})
    state, cues = step(rules, config, state, {"type": "answer", "value": b})
    hand = sorted(cards.private_view(config, state, strategist)["hand"])
    before = {n: cards.role(config, state, n) for n in (strategist, a, b)}
    assert hand == sorted(before.values())
    assert cards.private_view(config, state, a).get("hand") is None
    memo = cards.private_view(config, state, strategist)["memos"][-1]
    assert memo["kind"] == "strategist" and memo["cards"] == before
    missing = next((r for r in config.roles if r not in hand), None)
    if missing:
        with pytest.raises(AnswerError):
            rules.advance(config, state, {"type": "answer", "value": missing})
    give_a = hand[-1]
    state, _ = step(rules, config, state, {"type": "answer", "value": give_a})
    rest = list(hand)
    rest.remove(give_a)
    state, cues = step(rules, config, state, {"type": "answer", "value": rest[0]})
    assert cards.role(config, state, a) == give_a and cards.role(config, state, b) == rest[0]
    assert cards.role(config, state, strategist) == rest[1]
    assert "strategist.check_phone" in [c.line for c in cues if isinstance(c, Say)]


def test_physical_game_state_has_no_cards():
    rules, config = configure(names=NAMES5)
    state, _ = rules.advance(config, rules.new_state(), {"type": "start"})
    assert state.roles_of == () and cards.private_view(config, state, "Aki") == {}
