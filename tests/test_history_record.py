"""The history's pieces in-process: who a name is, the game contract's `record` and its
default, the standings' arithmetic and the evening's winners."""

from narrator.games import get_game
from narrator.games.contract import Game
from narrator.table.forget import player_key, shown_name
from narrator.table.standings import evening_winners, select, standings
from tests.engine_driver import configure, run_game


def test_a_name_with_its_reading_full_width_or_other_case_is_one_player():
    assert player_key("心愛:ここあ") == player_key("心愛") == "心愛"
    assert player_key("ＡＫＩ") == player_key(" aki ") == player_key("Aki：あき") == "aki"
    assert shown_name("Aki:あき") == "Aki"


def test_a_game_without_a_record_keeps_no_player():
    game = Game(name="x", configure=None, config_from_dict=None, new_state=None, state_from_dict=None,
                advance=None, recap=None)
    assert game.record(None, None) == {"players": [], "answers": {}}


def test_physical_cards_keep_the_answers_and_no_win():
    rules, config = configure(names="Aki,Ben,Chika,Dai,Emi,Fumi", seed=7)
    answers = ["done", ["Ben", "Dai"], "no", "no", "done", ["Emi"], "no", "no", "done", ["Fumi"], "yes"]
    state, _ = run_game(rules, config, answers)
    record = rules.record(config, state)
    assert [p["name"] for p in record["players"]] == ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi"]
    assert all(p["won"] is None and p["role"] is None and p["held"] == [] for p in record["players"])
    assert record["answers"]["found_among"] == ["Fumi"]


def test_pagan_names_no_one():
    assert get_game("pagan").record(None, type("S", (), {"ending": "ritual", "turn": 5})()) == {
        "players": [], "answers": {"ending": "ritual", "turns": 5}}


def rec(day, game, *players):
    return {"id": day, "game": game, "date": f"{day} 20:00", "winner": "x", "answers": {},
            "players": [{"name": n, "role": r, "held": [r] if r else [], "won": w, "survived": s}
                        for n, r, w, s in players]}


RECORDS = [
    rec("2026-12-01", "a", ("Aki", "label.werewolf", True, None), ("Ben", "label.citizen", False, None)),
    rec("2026-12-01", "b", ("aki", "bm.label.beast", True, True), ("Ben", "bm.label.beast", True, False)),
    rec("2026-12-02", "a", ("Aki:あき", None, None, None), ("Ben", None, None, None)),
]


def test_the_standings_count_wins_only_where_they_were_known():
    aki, ben = standings(RECORDS)
    assert (aki.name, aki.games, aki.wins, aki.decided, aki.win_rate) == ("Aki", 3, 2, 2, 1.0)
    assert (ben.games, ben.wins, ben.decided, ben.win_rate, ben.survived, ben.survival_known) == (3, 1, 2, 0.5, 0, 1)
    assert dict(ben.most_held()) == {"label.citizen": 1, "bm.label.beast": 1}
    assert [r.name for r in standings(select(RECORDS, game="a", since="2026-12-02"))] == ["Aki", "Ben"]
    assert standings(select(RECORDS, until="2026-11-30")) == []
    assert [r.name for r in standings(RECORDS, player="BEN")] == ["Ben"]


def test_the_evenings_winners_are_those_of_the_day_most_wins_first():
    assert evening_winners(RECORDS, "2026-12-01") == ["aki", "Ben"]
    assert evening_winners(RECORDS, "2026-12-02") == []


def test_every_attribute_a_bestia_magica_player_can_hold_has_its_label_in_both_packs():
    """The history names what a player held by pack lines: N (Niente) is dealt too."""
    from narrator.games.bestia_magica.setup import definition
    from narrator.sound.voicepack import load_pack

    attributes = set(definition()["attributes"])
    assert attributes == {"S", "M", "A", "N"}
    for pack in (load_pack("ja"), load_pack("en")):
        for attribute in attributes:
            assert pack.has(f"bm.label.{attribute}"), (pack.name, attribute)
