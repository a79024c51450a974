"""Whole Bestia Magica games: seeded deals to each ending, and properties over random games."""

import dataclasses
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.cues import Collect, End, Event, Say
from narrator.games.bestia_magica.setup import NIGHT_STEPS, definition
from narrator.games.bestia_magica.vote import counts
from narrator.sound.voicepack import load_pack
from tests.bm_driver import RULES, configure, play, random_policy


def role_policy(strategy):
    """Answers that know every role (as a test may): `strategy` picks the vote target."""

    def policy(request, state, rng):
        if request.key == "vote":
            return {"vote": strategy(request, state, rng)}
        role = state.player(request.player).role
        choices = [c for c in request.choices if state.player(c).role != "demon"] or list(request.choices)
        if role == "beast":
            angels = [c for c in choices if state.player(c).role == "angel"]
            target = angels[0] if angels else rng.choice(choices)
        else:
            target = rng.choice(choices)
        return {"target": target, "ability": False}

    return policy


def vote_for(*roles):
    def strategy(request, state, rng):
        for role in roles:
            picks = [c for c in request.choices if state.player(c).role == role]
            if picks:
                return picks[0]
        others = [c for c in request.choices if state.player(c).role != "demon"]
        return rng.choice(others or list(request.choices))

    return strategy


def test_seeded_game_to_a_town_win():
    config = configure(players=8, seed=11)
    state, cues, _ = play(config, role_policy(vote_for("beast")), seed=3)
    assert state.winner == "town"
    assert not any(p.alive and p.role == "beast" for p in state.players)
    end = next(c for c in cues if isinstance(c, End))
    assert end.line == "bm.end.town" and set(end.outcome["winners"]) == {
        p.name for p in state.players if definition()["roles"][p.role]["team"] == "town"}


def test_seeded_game_to_a_beasts_win():
    config = configure(players=8, seed=11)
    state, cues, _ = play(config, role_policy(vote_for("townsperson", "prophet", "guard", "saint", "undertaker")), seed=3)
    assert state.winner == "beasts"
    c = counts(config, state)
    assert c["town"] <= c["beasts"] and c["beast_cards"] > 0


def test_seeded_game_to_a_demons_win():
    config = configure(players=10, seed=5)
    assert config.in_play("demon") and config.in_play("angel")
    state, cues, _ = play(config, role_policy(vote_for("angel", "beast")), seed=2)
    assert state.winner == "demons"
    assert any(p.alive and p.role == "demon" for p in state.players)
    assert not any(p.alive and p.role == "angel" for p in state.players)
    assert any(isinstance(c, Say) and c.line == "bm.end.winners" for c in cues)


def test_the_reveal_names_every_player_and_every_night():
    config = configure(players=10, seed=5)
    state, cues, _ = play(config, seed=4)
    after_end = cues[next(i for i, c in enumerate(cues) if isinstance(c, End)):]
    revealed = {c.params["name"][0] for c in after_end if isinstance(c, Say) and c.line.startswith("bm.reveal.role.")}
    assert revealed == set(config.names)
    nights = [c.params["night"] for c in after_end if isinstance(c, Say) and c.line == "bm.reveal.night"]
    assert nights == list(range(1, state.night + 1))


HOUSE_RULES = st.fixed_dictionaries({}, optional={
    "guard_repeat": st.booleans(), "guard_self": st.booleans(), "beasts_suspect": st.booleans(),
    "curse_void_on_reform": st.booleans(), "curse_void_on_caster_death": st.booleans(),
    "guard_blocks_curse": st.booleans(), "sleep_blocks_all_beasts": st.booleans(),
    "sleep_voids_attribute": st.booleans(), "anima_pool": st.sampled_from(["all_dead", "tonight_dead"]),
    "mese_effect": st.sampled_from(["hidden", "double_vote"]), "curse_delay": st.integers(1, 3),
    "evil_count": st.sampled_from(["none", "beasts"]), "attribute_min_yes": st.integers(1, 3),
    "night_order": st.permutations(NIGHT_STEPS).map(",".join),
})


def generous_policy(request, state, rng):
    """Random legal memos; A-holders say yes often, so Anima is tried again and again."""
    answer = random_policy(request, state, rng)
    if request.ability:
        answer["ability"] = rng.random() < 0.6
    return answer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(4, 20), deal_seed=st.integers(0, 10_000), play_seed=st.integers(0, 10_000),
       rules=HOUSE_RULES)
def test_random_games_always_end_and_keep_their_invariants(players, deal_seed, play_seed, rules):
    config = configure(players=players, seed=deal_seed, **rules)
    anima_cards = sum(1 for c in config.deal if c.attribute == "A")
    revivals = []

    def check(before, after, cues):
        # the engine state always survives the store's JSON round trip
        assert RULES.state_from_dict(json.loads(json.dumps(after.to_dict()))) == after
        if before.players:
            dead = set(before.dead_names())  # followed event by event through the step
            for cue in cues:
                if isinstance(cue, Collect):  # dead players are never asked to act
                    assert not {r.player for r in cue.requests} & set(after.dead_names())
                if isinstance(cue, Event) and cue.type in ("death", "execution"):
                    assert cue.player not in dead  # only the living die
                    dead.add(cue.player)
                if isinstance(cue, Event) and cue.type == "revival":
                    assert cue.player in dead  # only the dead come back
                    dead.discard(cue.player)
                    revivals.append(cue.player)
            assert dead == set(after.dead_names())
            for old, new in zip(before.players, after.players):
                assert not (old.anima_used and not new.anima_used)  # Anima is never given back
            newly_used = [n for o, n in zip(before.players, after.players) if n.anima_used and not o.anima_used]
            step_revivals = [c for c in cues if isinstance(c, Event) and c.type == "revival"]
            assert len(step_revivals) <= 1 and (not step_revivals or newly_used)
        assert all(v >= 0 for v in counts(config, after).values())

    state, cues, rounds = play(config, generous_policy, seed=play_seed, check=check)
    assert state.winner in ("town", "beasts", "demons")
    assert len(revivals) <= anima_cards  # once per Anima card at most
    for collect, answers in rounds:  # every memo and vote came from a player alive at that moment
        assert set(answers) == {r.player for r in collect.requests}


def _emitted():
    """Every line id the engine emitted over many games, with the params it was given."""
    found: dict[str, list[dict]] = {}
    for players in range(4, 21):
        for seed in range(3):
            config = configure(players=players, seed=seed, announce_counts=True)
            state, cues, _ = play(config, generous_policy, seed=seed)
            night_state = dataclasses.replace(state, night=state.day + 1)
            cues = cues + RULES.recap(config, state) + RULES.recap(config, night_state) + RULES.recap(config, RULES.new_state())
            for cue in cues:
                if isinstance(cue, Collect):
                    for r in cue.requests:
                        found.setdefault(r.line, []).append(r.params)
                elif hasattr(cue, "line") and cue.kind in ("say", "end", "private", "ask"):
                    found.setdefault(cue.line, []).append(cue.params)
    return found


def test_every_line_the_engine_emits_exists_in_both_packs_with_the_same_placeholders():
    ja, en = load_pack("ja"), load_pack("en")
    emitted = _emitted()
    assert {"bm.night.begin", "bm.morning.deaths", "bm.vote.executed", "bm.reveal.begin",
            "bm.private.prophet.B", "bm.memo.attack", "bm.resume.night"} <= set(emitted)
    ours = {k for k in ja.lines if k.startswith("bm.")} | {k for k in en.lines if k.startswith("bm.")}
    for line in set(emitted) | ours | {"private.call", "private.take", "private.ability", "private.hide"}:
        assert ja.has(line) and en.has(line), line
        assert ja.placeholders(line) == en.placeholders(line), line
        assert ja.lines[line].reading, f"ja line {line} has no kana reading"
    for line, all_params in emitted.items():  # every cue renders with the params it really had
        for params in all_params[:20]:
            for pack in (ja, en):
                assert pack.placeholders(line) <= set(params), line
                assert "{" not in pack.speak(line, params).text, line


def test_same_seed_same_game():
    config = configure(players=12, seed=99)
    a = play(config, seed=7)
    b = play(config, seed=7)
    assert a[0] == b[0] and a[1] == b[1]
    assert random.Random(1).random() == random.Random(1).random()
