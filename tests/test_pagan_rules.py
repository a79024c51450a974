"""Pagan's turn-guide engine over whole games (pure: no audio, files or clock)."""

from collections import deque

import pytest

from narrator.cues import Ask, End, Say, TurnClock, spoken_lines
from narrator.errors import AnswerError, SetupError
from narrator.games import get_game
from narrator.table.runner import rebuild
from narrator.sound.voicepack import load_pack
from tests.engine_driver import configure
from tests.pagan_script import ENDINGS, SETUP, game, turn


def play(config, answers):
    """Run the engine through `answers`; every answer must be asked for, and the game end."""
    rules = get_game("pagan")
    state, played = rules.new_state(), []
    state, cues = rules.advance(config, state, {"type": "start"})
    played += cues
    for i, answer in enumerate(answers):
        assert not state.finished, f"game ended with {len(answers) - i} answers unused"
        assert isinstance(cues[-1], Ask)
        state, cues = rules.advance(config, state, {"type": "answer", "value": answer})
        played += cues
    return state, played


def asks(cues):
    return [c for c in cues if isinstance(c, Ask)]


def turn_lines(cues, turn_no):
    """Line ids from `pagan.turn.<side>` of turn `turn_no` up to the next turn's."""
    out, inside = [], False
    for c in cues:
        if isinstance(c, Say) and c.line.startswith("pagan.turn.") and "turn" in c.params:
            inside = c.params["turn"] == turn_no
        if inside and hasattr(c, "line"):
            out.append(c.line)
    return out


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_whole_game_through_each_ending(ending):
    answers, winner, last_turn = ENDINGS[ending]
    _, config = configure("pagan")
    state, cues = play(config, answers)
    assert state.finished and state.winner == winner and state.ending == ending
    assert state.turn == last_turn
    end = cues[-1]
    assert isinstance(end, End) and end.line == f"pagan.end.{ending}" and end.winner == winner
    assert end.params == {"turn": last_turn}
    assert end.outcome["turn"] == last_turn and end.outcome["ending"] == ending


def test_counts_are_announced_until_the_threshold():
    _, config = configure("pagan")
    _, cues = play(config, ENDINGS["innocent"][0])
    counts = [(c.params["count"], c.params["to_win"]) for c in cues if isinstance(c, Say) and c.line == "pagan.report.innocent"]
    assert counts == [(1, 3), (2, 3)]  # the third is the End line, not a count
    _, cues = play(config, ENDINGS["exonerated"][0])
    counts = [c.params["count"] for c in cues if isinstance(c, Say) and c.line == "pagan.report.exonerated"]
    assert counts == list(range(1, 8))


def test_an_innocent_short_of_three_does_not_end_the_game():
    _, config = configure("pagan")
    answers = game(["innocent", "innocent", "done"])  # two innocents on turn 2; turn 3 begins
    state, cues = play(config, answers)
    assert not state.finished and state.innocents == 2 and state.turn == 3
    assert cues[-1].line == "pagan.upkeep.return_pawns"


def test_setup_guidance_in_order():
    _, config = configure("pagan")
    _, cues = play(config, SETUP)
    assert [c.line for c in cues] == [
        "pagan.setup.welcome", "pagan.setup.shuffle_suspects", "pagan.setup.witch_identity",
        "pagan.setup.draw", "pagan.setup.influence", "pagan.turn.witch", "pagan.upkeep.return_pawns",
    ]
    assert all(a.choices == ("done",) for a in asks(cues))


def test_upkeep_steps_in_rule_order_and_the_ally_payment_is_the_hunters_only():
    _, config = configure("pagan")
    _, cues = play(config, game(["done"] * 3, ["done"] * 3))
    witch = [l for l in turn_lines(cues, 1) if ".upkeep." in l]
    hunter = [l for l in turn_lines(cues, 2) if ".upkeep." in l]
    assert witch == ["pagan.upkeep." + s for s in ("return_pawns", "start_effects", "during_effects",
                                                    "end_effects", "discard")]
    assert hunter == ["pagan.upkeep." + s for s in ("return_pawns", "start_effects", "during_effects",
                                                     "ally_upkeep", "end_effects", "discard")]
    assert [l for l in turn_lines(cues, 3) if ".upkeep." in l] == witch
    # the whole upkeep comes before the turn's first action
    for n in (1, 2, 3):
        lines = turn_lines(cues, n)
        assert max(i for i, l in enumerate(lines) if ".upkeep." in l) < lines.index(f"pagan.action.begin_{'witch' if n % 2 else 'hunter'}")


def test_witch_first_turn_has_two_actions_and_its_rule_later_turns_three():
    _, config = configure("pagan")
    _, cues = play(config, game(["done"] * 3, ["done"] * 3))
    first = turn_lines(cues, 1)
    assert "pagan.action.witch_first_turn" in first
    actions = [c for c in cues if isinstance(c, Ask) and c.line == "pagan.action.witch"]
    assert [(a.params["left"], a.params["total"]) for a in actions] == [(2, 2), (1, 2), (3, 3), (2, 3), (1, 3)]
    assert actions[0].help[0] == "pagan.help.witch_first_turn"
    upkeep_asks = [c for c in cues if isinstance(c, Ask) and c.line.startswith("pagan.upkeep.")]
    assert upkeep_asks[0].help == actions[0].help == ("pagan.help.witch_first_turn", "pagan.help.villager_visit")
    assert upkeep_asks[5].help == ("pagan.help.villager_visit", "pagan.help.general", "pagan.help.hunter_board")
    assert "pagan.help.witch_board" in actions[2].help
    assert "pagan.action.witch_first_turn" not in turn_lines(cues, 2) + turn_lines(cues, 3)
    hunter = [a.params["left"] for a in cues if isinstance(a, Ask) and a.line == "pagan.action.hunter"]
    assert hunter == [3, 2, 1, 3, 2, 1]
    begins = [c.params["total"] for c in cues if isinstance(c, Say) and c.line.startswith("pagan.action.begin_")]
    assert begins == [2, 3, 3, 3]


def test_first_turn_ends_after_two_actions():
    _, config = configure("pagan")
    state, cues = play(config, SETUP + turn("witch", first=True))
    assert state.turn == 2 and state.side == "hunter" and state.step == "upkeep"
    assert cues[-3].line == "pagan.turn.end" and cues[-2] == Say("pagan.turn.hunter", {"turn": 2})


@pytest.mark.parametrize("side_turn,bad", [
    (1, "innocent"), (1, "exonerated"), (1, "witch"), (2, "ritual"),
])
def test_a_report_belongs_to_its_side(side_turn, bad):
    _, config = configure("pagan")
    answers = SETUP + turn("witch", first=True, actions=[])
    if side_turn == 2:
        answers = SETUP + turn("witch", first=True) + turn("hunter", actions=[])
    state, cues = play(config, answers)
    assert cues[-1].line.startswith("pagan.action.")
    assert bad not in cues[-1].choices
    with pytest.raises(AnswerError):
        get_game("pagan").advance(config, state, {"type": "answer", "value": bad})


def test_reports_are_not_answers_during_upkeep_or_setup():
    _, config = configure("pagan")
    rules = get_game("pagan")
    state, cues = play(config, ["done"])
    with pytest.raises(AnswerError):
        rules.advance(config, state, {"type": "answer", "value": "ritual"})
    state, cues = play(config, SETUP)
    with pytest.raises(AnswerError):
        rules.advance(config, state, {"type": "answer", "value": "innocent"})
    with pytest.raises(AnswerError):
        rules.advance(config, state, {"type": "continue"})


def test_undo_takes_back_the_last_answer_through_the_runners_replay():
    rules, config = configure("pagan")
    answers = SETUP + turn("witch", first=True) + turn("hunter", actions=["innocent"])
    events = [{"type": "start"}] + [{"type": "answer", "value": a} for a in answers]
    before, _ = rebuild(rules, config, events[:-1])
    after_innocent, _ = rebuild(rules, config, events)
    assert after_innocent.innocents == 1
    state, cues = rebuild(rules, config, events + [{"type": "undo"}])
    assert state == before and state.innocents == 0
    assert cues[0] == Say("control.undone") and cues[1].line == "pagan.action.hunter"
    assert cues[1].params == {"left": 3, "total": 3}
    # undo at the turn boundary goes back into the last turn's last action
    boundary = SETUP + turn("witch", first=True)
    events = [{"type": "start"}] + [{"type": "answer", "value": a} for a in boundary] + [{"type": "undo"}]
    state, cues = rebuild(rules, config, events)
    assert state.turn == 1 and state.step == "action" and cues[-1].params == {"left": 1, "total": 2}


def test_turn_clock_starts_each_turn_only_when_configured():
    _, config = configure("pagan")
    _, cues = play(config, game(["done"] * 3))
    assert not any(isinstance(c, TurnClock) for c in cues)
    _, config = configure("pagan", turn_timer=90, warnings="60,30,120")
    assert config.warnings == (60, 30)
    _, cues = play(config, game(["done"] * 3))
    clocks = [c for c in cues if isinstance(c, TurnClock)]
    assert len(clocks) == 3 and clocks[0] == TurnClock("turn", 90, (60, 30), "timer.warning", "pagan.clock.time_up")
    rules = get_game("pagan")
    state, _ = play(config, game(["done"] * 3))
    assert isinstance(rules.recap(config, state)[-1], TurnClock)


@pytest.mark.parametrize("options,message", [
    ({"players": 3}, "played by 2 players"),
    ({"names": "Aki,Ben"}, "drop --names"),
    ({"turn_timer": -5}, "turn_timer must be at least 0"),
    ({"turn_timer": "soon"}, "turn_timer must be a whole number"),
    ({"days": 3}, "unknown option 'days' for pagan"),
])
def test_bad_setups_are_refused_in_one_line(options, message):
    with pytest.raises(SetupError, match=message):
        configure("pagan", **options)


def test_config_and_state_round_trip_through_json():
    rules, config = configure("pagan", turn_timer=120)
    assert rules.config_from_dict(config.to_dict()) == config
    state, _ = play(config, ENDINGS["ritual"][0])
    assert rules.state_from_dict(state.to_dict()) == state


def explore(config, max_states=20000):
    """Every line id (with its params) the engine can emit, over every answer path that
    keeps the game short (at most 3 exonerations, so the search stays small)."""
    rules = get_game("pagan")
    found: dict[str, set[str]] = {}
    queue = deque([(rules.new_state(), {"type": "start"})])
    seen = 0
    while queue and seen < max_states:
        state, event = queue.popleft()
        seen += 1
        state, cues = rules.advance(config, state, event)
        for cue in cues + rules.recap(config, state):
            for line in spoken_lines([cue]):
                found.setdefault(line, set()).update(getattr(cue, "params", {}) if line == getattr(cue, "line", None) else {})
        if state.finished or state.turn > 6:
            continue
        options = cues[-1].choices
        for value in options:
            if value == "exonerated" and state.exonerated >= 1 and state.turn < 6:
                continue
            queue.append((state, {"type": "answer", "value": value}))
    return found


def test_every_line_the_engine_can_emit_is_in_both_packs():
    _, config = configure("pagan", turn_timer=60)
    found = explore(config)
    for line in ("pagan.end.innocent", "pagan.end.witch", "pagan.end.ritual", "pagan.report.exonerated",
                 "pagan.clock.time_up", "timer.warning", "pagan.help.hunter_board", "pagan.resume.recap_hunter"):
        assert line in found
    found["timer.warning"] = {"seconds"}
    for name in ("ja", "en"):
        pack = load_pack(name)
        for line, params in found.items():
            assert pack.has(line), f"{name} lacks {line}"
            assert pack.placeholders(line) <= params, f"{name} {line} uses {pack.placeholders(line) - params}"
            pack.speak(line, {p: 3 for p in params})
    # the exonerated ending needs 8 reports: reached by the scripted game instead
    _, cues = play(config, ENDINGS["exonerated"][0])
    for name in ("ja", "en"):
        assert load_pack(name).has(cues[-1].line)
