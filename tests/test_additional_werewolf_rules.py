"""Additional Werewolf's rules engine over whole games (pure: no audio, files or clock)."""

import pytest

from narrator.cues import Ask, Countdown, End, Say, Timer
from narrator.errors import SetupError
from tests.engine_driver import configure, lines, run_game

NAMES = "Aki,Ben,Chika,Dai,Emi"


def night_lines(cues, night):
    """Line ids spoken during night `night` (from its begin to its morning)."""
    out, inside = [], False
    for c in cues:
        if isinstance(c, Say) and c.line == "night.begin":
            inside = c.params["night"] == night
        if inside and hasattr(c, "line"):
            out.append(c.line)
        if inside and isinstance(c, Say) and c.line == "night.end":
            break
    return out


def test_default_five_player_night_follows_rule_text_order():
    rules, config = configure(players=5)
    assert dict(config.roles) == {"citizen": 3, "traitor": 1, "werewolf": 1}
    assert dict(config.cards) == {"seer": 1, "peddler": 1, "phantom_mage": 2, "strategist": 1}
    state, cues = run_game(rules, config, ["done", "no", "no", "done", "no", "no", "done", "no", "no"])
    first = night_lines(cues, 1)
    wakes = [l for l in first if ".wake" in l]
    assert wakes == ["seer.wake", "peddler.wake", "phantom_mage.wake_numbered", "phantom_mage.wake_numbered"]
    numbered = [c.params["n"] for c in cues if isinstance(c, Say) and c.line == "phantom_mage.wake_numbered"]
    assert numbered[:2] == [1, 2]
    # every swap card is followed by a role check with its own countdown, then sleep
    assert first.count("night.check_role") == 3
    assert state.winner == "werewolves"


def test_every_call_has_countdown_and_sleep():
    rules, config = configure(players=5, countdown=7, check_role=4)
    _, cues = run_game(rules, config, ["done", "yes"])
    start = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "seer.wake")
    assert cues[start + 1] == Say("seer.act")
    assert cues[start + 2] == Countdown(7)
    assert cues[start + 3] == Say("night.sleep")
    peddler = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "peddler.wake")
    # the role check ends with 「元に戻します」: the card goes back where it was; the swapper is not
    # told to lower their face just before everyone raises theirs (issue 37: said twice)
    assert cues[peddler + 3:peddler + 7] == [Say("night.check_role"), Countdown(4), Say("night.put_back"),
                                              Say("night.sleep")]


@pytest.mark.parametrize("day", [1, 2, 3])
def test_werewolf_found_on_day_k_ends_with_citizens_winning(day):
    rules, config = configure(players=5)
    answers = ["done"] + ["no", "no", "done"] * (day - 1) + ["yes"]
    state, cues = run_game(rules, config, answers)
    assert state.winner == "citizens" and state.day == day
    assert isinstance(cues[-1], End) and cues[-1].winner == "citizens"
    assert cues[-1].outcome == {"lovers_lose": False}
    assert lines(cues).count("night.begin") == day


def test_no_werewolf_after_configured_days_werewolves_win():
    rules, config = configure(players=5, days=2)
    state, cues = run_game(rules, config, ["done", "no", "no", "done", "no", "no"])
    assert state.winner == "werewolves" and state.day == 2
    # every role card turned over: nobody knows who is a citizen now after the swaps (issue 26)
    assert lines(cues)[-3:] == ["end.no_werewolf", "end.reveal_cards", "end.werewolves_win"]
    # the additional cards are redealt between days, not after the last one
    assert lines(cues).count("redeal.collect") == 1


def test_discussion_timer_with_warnings_then_nomination_count_in():
    rules, config = configure(players=5, discussion=120, warnings="60,10")
    _, cues = run_game(rules, config, ["done", "yes"])
    timer = next(c for c in cues if isinstance(c, Timer))
    assert timer == Timer("discussion", 120, (60, 10))
    after = lines(cues)[lines(cues).index("day.discussion_end"):]
    # the table counts the fingers (a quiet `point` timer, issue 26) before the nominees declare
    assert after[:5] == ["day.discussion_end", "nomination.ready", "nomination.count_in", "point", "nomination.declare"]


def test_strategist_procedure_runs_when_a_nominee_holds_it():
    rules, config = configure(players=5, strategist=25)
    state, cues = run_game(rules, config, ["done", "no", "yes", "done", "no", "no", "done", "no", "no"])
    seq = lines(cues)
    reveal = next(k for k, c in enumerate(cues) if isinstance(c, Say) and c.line == "strategist.reveal")
    assert cues[reveal + 1] == Say("strategist.exchange")
    assert cues[reveal + 2] == Countdown(25)
    assert cues[reveal + 3] == Say("strategist.check")
    assert cues[reveal + 4] == Countdown(config.check_role)
    assert cues[reveal + 5] == Say("strategist.place")  # the role cards are placed again
    assert seq.count("strategist.reveal") == 1
    assert state.winner == "werewolves"


def test_strategist_not_asked_when_werewolf_found():
    rules, config = configure(players=5)
    _, cues = run_game(rules, config, ["done", "yes"])
    assert "strategist.question" not in lines(cues)


def test_strategist_not_asked_without_the_card():
    rules, config = configure(players=4, roles="citizen=2,traitor=1,werewolf=1",
                              cards="seer=1,peddler=1,phantom_mage=1,on_break=1")
    _, cues = run_game(rules, config, ["done", "no", "done", "no", "done", "no"])
    assert "strategist.question" not in lines(cues)


def test_two_strategists_nominated_resolve_one_after_another():
    rules, config = configure(names=NAMES, cards="seer=1,peddler=1,strategist=2,on_break=1")
    answers = ["done", ["Aki", "Ben"], "no", "yes", "done", "yes", "done", "done", ["Chika"], "no", "no", "done",
               ["Dai"], "no", "no"]
    state, cues = run_game(rules, config, answers)
    seq = lines(cues)
    assert seq.count("strategist.reveal") == 2 and seq.count("strategist.another") == 1
    assert state.winner == "werewolves"


@pytest.mark.parametrize("lovers_werewolf, lose", [("yes", True), ("no", False)])
def test_lovers_rule_asked_only_when_lovers_in_play(lovers_werewolf, lose):
    rules, config = configure(players=7)
    assert config.cards["lovers"] == 2
    state, cues = run_game(rules, config, ["done", "yes", lovers_werewolf])
    assert state.winner == "citizens" and state.lovers_lose is lose
    assert cues[-1].outcome == {"lovers_lose": lose}
    assert cues[-1].line == ("end.citizens_win_lovers_lose" if lose else "end.citizens_win")
    assert night_lines(cues, 1).count("lovers.wake") == 1


def test_lovers_not_asked_without_lovers():
    rules, config = configure(players=5)
    _, cues = run_game(rules, config, ["done", "yes"])
    assert "end.lovers_question" not in lines(cues)


def test_werewolves_win_keeps_lovers_judged_by_role():
    rules, config = configure(players=7, days=1)
    state, _ = run_game(rules, config, ["done", "no", "no"])
    assert state.winner == "werewolves" and state.lovers_lose is False


def test_medium_wakes_from_night_two_and_names_yesterdays_nominees():
    rules, config = configure(players=6, names="Aki,Ben,Chika,Dai,Emi,Fumi")
    answers = ["done", ["Ben", "Dai"], "no", "no", "done", ["Emi"], "no", "no", "done", ["Aki"], "no", "no"]
    _, cues = run_game(rules, config, answers)
    assert "medium.wake" not in night_lines(cues, 1)
    said = [c for c in cues if isinstance(c, Say) and c.line.startswith("medium.act")]
    assert said[0] == Say("medium.act_names", {"names": ["Ben", "Dai"]})
    # one nominee: no 「…の中から1人を選び」, just that player's card
    assert said[1] == Say("medium.act_name", {"names": ["Emi"]})
    assert night_lines(cues, 2).index("medium.wake") == night_lines(cues, 2).index("seer.wake") + 3


def test_medium_without_names_uses_the_generic_line():
    rules, config = configure(players=6)
    _, cues = run_game(rules, config, ["done", "no", "no", "done", "yes"])
    assert "medium.act" in night_lines(cues, 2) and "medium.act_names" not in lines(cues)


def test_nominated_names_are_asked_when_names_configured():
    rules, config = configure(names=NAMES)
    _, cues = run_game(rules, config, ["done", ["Chika"], "yes"])
    ask = next(c for c in cues if isinstance(c, Ask) and c.line == "nomination.who")
    assert ask.choices == tuple(NAMES.split(",")) and ask.multiple
    declare = next(c for c in cues if isinstance(c, Say) and c.line == "nomination.declare_names")
    assert declare.params == {"names": ["Chika"]}


def test_duplicates_called_one_by_one():
    rules, config = configure(players=8)
    _, cues = run_game(rules, config, ["done", "yes", "no"])
    seer_calls = [c.params["n"] for c in cues if isinstance(c, Say) and c.line == "seer.wake_numbered"]
    assert seer_calls == [1, 2]
    assert "lovers.wake" in lines(cues)


def test_reordered_night_order_is_followed():
    rules, config = configure(players=7, night_order="lovers,phantom_mage,peddler,medium,seer")
    _, cues = run_game(rules, config, ["done", "no", "no", "done", "yes", "no"])
    wakes = [l for l in night_lines(cues, 2) if l.endswith(".wake")]
    assert wakes == ["lovers.wake", "phantom_mage.wake", "peddler.wake", "medium.wake", "seer.wake"]


def test_per_card_countdown_overrides_global():
    rules, config = configure(players=5, countdown=10, countdowns="seer=20")
    _, cues = run_game(rules, config, ["done", "yes"])
    seer = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "seer.wake")
    peddler = next(i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "peddler.wake")
    assert cues[seer + 2] == Countdown(20) and cues[peddler + 2] == Countdown(10)


@pytest.mark.parametrize("options, message", [
    ({"players": 5, "roles": "citizen=2,traitor=1,werewolf=1"}, "4 role cards for 5 players"),
    ({"players": 5, "cards": "seer=1,peddler=1"}, "2 additional cards for 5 players"),
    ({"players": 6, "roles": "citizen=2,traitor=2,werewolf=2",
      "cards": "seer=1,peddler=1,phantom_mage=2,strategist=1,on_break=1"}, "citizens must be at least"),
    ({"players": 5, "cards": "seer=1,peddler=1,phantom_mage=1,lovers=1,strategist=1"}, "lovers come in pairs"),
    ({"players": 5, "cards": "sear=1,peddler=1,phantom_mage=2,strategist=1"}, "unknown additional card 'sear'"),
    ({"players": 5, "roles": "citizen=3,traitor=1,vampire=1"}, "unknown role card 'vampire'"),
    ({"players": 5, "roles": "citizen=4,traitor=1"}, "no werewolf card"),
    ({"players": 5, "colour": "red"}, "unknown option 'colour'"),
    ({"players": 5, "night_order": "seer,peddler"}, "'phantom_mage' is in play but missing from night_order"),
    ({"players": 5, "night_order": "seer,strategist"}, "not a night card"),
    ({"players": 3}, "4 to 20 players"),
    ({"players": 5, "days": 0}, "days must be at least 1"),
    ({"players": 5, "countdown": "ten"}, "countdown must be a whole number"),
    ({"players": 5, "lang": "fr"}, "unknown language 'fr'"),
    ({"players": 4, "names": "Aki,Ben,Chika,Dai,Emi"}, "players is 4 but 5 names"),
])
def test_bad_setups_are_refused_with_one_clear_line(options, message):
    with pytest.raises(SetupError) as err:
        configure(**options)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("players", range(4, 21))
def test_recommended_setups_are_valid_for_4_to_20(players):
    _, config = configure(players=players)
    assert sum(config.roles.values()) == players == sum(config.cards.values())
    wolves = config.roles.get("traitor", 0) + config.roles["werewolf"]
    assert config.roles["citizen"] >= wolves
