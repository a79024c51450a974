"""A game's card names in one place (issue 40, the pack side): every pack line that says a card's
name refers to its label line (`{@label.seer}`, resolved when the pack is loaded), so a table
whose own pack renames a card in its label line alone hears the new name in the night calls,
the card list and the countdowns too, never the old one. A reference to a missing line, or a
circle of references, is refused at load in one line naming the pack, the line and the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.sound.render_ahead import game_requests
from narrator.sound.voicepack import load_pack, merged_under

ROOT = Path(__file__).resolve().parents[1]


def own_pack(home: Path, name: str, lines: str, inherit: str = "ja") -> None:
    """A table's own pack in its narrator home: it inherits `inherit` and says only `lines`."""
    folder = home / "voices" / name
    (folder / "lines").mkdir(parents=True)
    (folder / "voice.toml").write_text(f'inherit = "{inherit}"\nname = "{name}"\n', encoding="utf-8")
    (folder / "lines" / "own.toml").write_text(lines, encoding="utf-8")


def said_in_a_game(pack_name: str, game_name: str, **settings: object) -> list[tuple[str, str, str]]:
    """(line, text, reading) of everything `game_name` can say, every branch walked as the render
    ahead walks it, in the pack `pack_name`."""
    pack = load_pack(pack_name)
    game = get_game(game_name)
    config = game.configure(build_settings({}, {"game": game_name, "lang": pack.lang, "seed": 0, **settings}, "test"))
    spoken = [pack.speak(line, params) for line, params in game_requests(game, config) if line in pack.lines]
    return [(s.line, s.text, s.reading) for s in spoken]


@pytest.mark.parametrize("game, label, call, card, words", [
    ("additional-werewolf", '[label]\nseer = { text = "予知者", reading = "よちしゃ" }\n',
     ("seer.wake", "予知者の方、顔を上げてください。", "よちしゃのかた、かおをあげてください。"), "予知者1枚",
     {"players": 6}),
    ("werewolf", '[wolf.role]\nseer = { text = "予知者", reading = "よちしゃ" }\n',
     ("wolf.call.seer.wake", "予知者の人は、目を開けてください。", "よちしゃのひとは、めを、あけてください。"), "予知者1枚",
     {}),
])
def test_a_card_renamed_in_its_label_alone_is_said_by_its_new_name_everywhere(tmp_path, monkeypatch, game, label,
                                                                               call, card, words):
    """占い師 renamed 予知者 in the label line of a table's own pack (it inherits ja): the night call,
    the card list and every other line of a whole game say 予知者, and none says 占い師."""
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "yochi", label)
    said = said_in_a_game("yochi", game, **words)
    assert call in said
    assert any(card in text and "よちしゃ1まい" in reading for _, text, reading in said)
    old = [(line, text) for line, text, reading in said if "占い師" in text or "うらないし" in reading]
    assert not old, old
    assert len([text for _, text, _ in said if "予知者" in text]) >= 2


def test_the_countdown_and_the_phone_lines_follow_the_label_too(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "yochi", '[label]\nseer = { text = "予知者", reading = "よちしゃ" }\n')
    pack = load_pack("yochi")
    countdown = pack.speak("setup.readback_countdowns", {"special": [["countdown_of.seer", 20]]})
    assert (countdown.text, countdown.reading) == ("ただし、予知者は20秒。", "ただし、よちしゃは、20びょう。")
    assert pack.speak("seer.wake_numbered", {"n": 2}).text == "2人目の予知者の方、顔を上げてください。"
    assert pack.speak("label.seer").text == "予知者"
    # the bundled pack itself is untouched
    assert load_pack("ja").speak("seer.wake").text == "占い師の方、顔を上げてください。"


def test_an_english_name_at_the_start_of_a_sentence_is_capitalized(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "oracle", '[label]\nseer = "oracle"\n', inherit="en")
    pack = load_pack("oracle")
    assert pack.speak("seer.wake").text == "Oracle, open your eyes."
    assert pack.speak("card.seer", {"n": 2}).text == "2 oracles"
    assert pack.speak("countdown_of.seer", {"n": 30}).text == "the oracle 30 seconds"


def test_a_reference_in_a_reading_takes_the_labels_reading(tmp_path, monkeypatch):
    """`{@…}` in `text` is the label's text, in `reading` its reading; a line with no reading of its
    own is read with the label's reading; `{{@…}}` stays a literal brace."""
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "refs", '[mine]\n'
                               'both = { text = "{@label.seer}の方", reading = "{@label.seer}のかた" }\n'
                               'text_only = "{@label.seer}は{n:duration}"\n'
                               'kana = { text = "{@label.on_break}{n}枚", reading = "{@label.on_break}{n}まい" }\n'
                               'plain = "{{@label.seer}}と{@label.citizen}"\n'
                               '[label]\nbare = "ソーレ"\n'
                               '[bare]\nsaid = { text = "{@label.bare}です", reading = "{@label.bare}、です" }\n')
    pack = load_pack("refs")
    both = pack.speak("mine.both")
    assert (both.text, both.reading) == ("占い師の方", "うらないしのかた")
    text_only = pack.speak("mine.text_only", {"n": 60})
    assert (text_only.text, text_only.reading) == ("占い師は1分", "うらないしはいっぷん")
    assert pack.lines["mine.kana"].reading == "きゅうけいちゅう{n}まい"
    assert pack.speak("mine.plain").text == "{@label.seer}と市民"
    assert pack.speak("bare.said").reading == "ソーレ、です"  # a label with no reading: its text
    assert pack.lines["label.bare"].reading is None


def test_a_reference_to_a_missing_line_is_refused_in_one_line(tmp_path):
    """At play, a pack whose line refers to a line it lacks stops the game before a word, with one
    line naming the pack, the line, the reference and the fix."""
    own_pack(tmp_path, "typo", '[seer]\nwake = { text = "{@label.sear}の方、顔を上げてください。", '
                               'reading = "{@label.sear}のかた、かおをあげてください。" }\n')
    env = {"NARRATOR_HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    played = subprocess.run([sys.executable, "-m", "narrator", "play", "--lang", "en", "--voice", "typo", "--dry-run"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert played.returncode != 0 and played.stderr.count("\n") == 1 and "Traceback" not in played.stderr
    assert "voice pack typo: line seer.wake refers to {@label.sear}, a line the pack does not have" in played.stderr
    assert "fix: correct the reference or add line label.sear" in played.stderr and "typo/lines" in played.stderr


def test_a_circle_of_references_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "circle", '[label]\nseer = "{@card.seer}"\n[card]\nseer = "{@countdown_of.seer}{n}枚"\n'
                                 '[countdown_of]\nseer = "{@label.seer}は{n:duration}"\n')
    with pytest.raises(NarratorError) as err:
        load_pack("circle")
    line = str(err.value)
    assert "\n" not in line and line.startswith("voice pack circle: line ")
    cycle = line.split("refers to itself through ")[1].split(";")[0].split(" → ")
    assert len(cycle) == 4 and cycle[0] == cycle[-1] and set(cycle) == {"label.seer", "card.seer", "countdown_of.seer"}
    assert "fix: write the words in one of these lines" in line
    own_pack(tmp_path, "self", '[label]\nseer = "{@label.seer}"\n')
    with pytest.raises(NarratorError, match="line label.seer refers to itself through label.seer → label.seer"):
        load_pack("self")


def test_a_reference_with_a_word_the_narrator_does_not_know_is_refused(tmp_path, monkeypatch):
    """`{@label.seer:shout}` would reach the formatter as a placeholder nobody fills and stop the game
    mid-sentence: it is refused at load instead."""
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    own_pack(tmp_path, "loud", '[seer]\nwake = "{@label.seer:shout}!"\n', inherit="en")
    with pytest.raises(NarratorError) as err:
        load_pack("loud")
    assert str(err.value).startswith("voice pack loud: line seer.wake has {@label.seer:shout}, which the narrator "
                                     "cannot say; fix: write the reference as {@<line id>} or with one of: capital")


def test_a_game_files_own_lines_may_refer_to_the_packs_labels():
    """A game file's `[lines.ja]` (merged beneath the pack) may refer to the pack's lines and to
    its own; a reference it cannot resolve names the game file's lines as where to fix it."""
    ja = load_pack("ja")
    own = {"wolf": {"role": {"bard": {"text": "吟遊詩人", "reading": "ぎんゆうしじん"}},
                    "call": {"bard": {"wake": {"text": "{@wolf.role.bard}の人は、{@wolf.role.seer}のあとで目を開けてください。",
                                               "reading": "{@wolf.role.bard}のひとは、{@wolf.role.seer}のあとで、めをあけてください。"}}}}}
    pack = merged_under(ja, own)
    wake = pack.speak("wolf.call.bard.wake")
    assert wake.text == "吟遊詩人の人は、占い師のあとで目を開けてください。"
    assert wake.reading == "ぎんゆうしじんのひとは、うらないしのあとで、めをあけてください。"
    with pytest.raises(NarratorError, match=r"line wolf\.call\.bard\.wake refers to \{@wolf\.role\.bart\}.*"
                                            r"or the game file's \[lines\.ja\]"):
        merged_under(ja, {"wolf": {"call": {"bard": {"wake": "{@wolf.role.bart}の人"}}}})


def test_the_shipped_packs_say_card_names_by_reference_and_nothing_unresolved_is_said():
    """The bundled lines refer to the labels (the point of it), and no `{@` is left once loaded."""
    for name in ("ja", "en"):
        raw = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "voices" / name / "lines").glob("*.toml"))
        assert raw.count("{@") > 150
        pack = load_pack(name)
        assert not [i for i, line in pack.lines.items() if "{@" in line.text or "{@" in (line.reading or "")]
