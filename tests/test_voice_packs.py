"""Every line an engine can emit exists in every pack, with the same placeholders."""

import re
from collections import deque

import pytest

from narrator.cues import Ask, End, Say
from narrator.sound.voicepack import list_packs, load_pack
from tests.engine_driver import configure

KANJI = re.compile(r"[\u4e00-\u9fff]")
SCHEDULER_LINES = {"tick": {"n"}, "timer.warning": {"seconds"}, "control.paused": set(),
                   "control.resumed": set(), "control.undone": set()}


def reachable_lines(rules, config, max_states=5000):
    """Explore the engine over every answer path (names: first one / first two)."""
    found: dict[str, set[str]] = {}
    start = (rules.new_state(), {"type": "start"})
    queue, seen = deque([start]), 0
    while queue and seen < max_states:
        state, event = queue.popleft()
        seen += 1
        state, cues = rules.advance(config, state, event)
        for cue in cues + rules.recap(config, state):
            if isinstance(cue, (Say, Ask, End)):
                found.setdefault(cue.line, set()).update(cue.params)
        if state.finished:
            continue
        last = cues[-1] if cues else None
        if isinstance(last, Ask):
            if set(last.choices) <= {"yes", "no", "done"}:
                options = list(last.choices)
            else:
                options = [[last.choices[0]], list(last.choices[:2])]
            queue.extend((state, {"type": "answer", "value": v}) for v in options)
        else:
            queue.append((state, {"type": "continue"}))
    return found


CONFIGS = [
    {"players": 5},
    {"players": 8, "names": "A,B,C,Dai,E,F,G,Hana", "days": 2},
    {"players": 6, "names": "A,B,C,Dai,E,F", "cards": "seer=1,medium=1,peddler=1,phantom_mage=1,strategist=2",
     "days": 2},
]


@pytest.fixture(scope="module")
def emitted():
    lines = dict(SCHEDULER_LINES)
    for options in CONFIGS:
        rules, config = configure(**options)
        for line, params in reachable_lines(rules, config).items():
            lines.setdefault(line, set()).update(params)
    return lines


@pytest.mark.parametrize("pack_name", ["ja", "en"])
def test_every_emitted_line_is_in_the_pack_with_its_placeholders(emitted, pack_name):
    pack = load_pack(pack_name)
    missing = sorted(line for line in emitted if not pack.has(line))
    assert not missing, f"{pack_name} lacks {missing}"
    for line, params in emitted.items():
        assert pack.placeholders(line) <= params, f"{line} uses {pack.placeholders(line) - params} it is not given"
        pack.speak(line, {p: _sample(p) for p in params})


def _sample(param):
    if param in ("roles", "cards"):  # `{roles:counted}`: card lines with their counts
        return [["card.citizen", 3], ["card.werewolf", 1]]
    return ["Aki", "Ben"] if param == "names" else 3


def test_exploration_reaches_the_rare_lines(emitted):
    for line in ("end.citizens_win_lovers_lose", "strategist.another", "medium.act_names", "lovers.wake",
                 "seer.wake_numbered", "resume.recap_night", "resume.recap_day"):
        assert line in emitted


def test_packs_have_the_same_lines_and_placeholders():
    packs = [load_pack(name) for name in ("ja", "en")]
    assert set(packs[0].lines) == set(packs[1].lines)
    for line in packs[0].lines:
        assert packs[0].placeholders(line) == packs[1].placeholders(line), line


def test_japanese_lines_with_kanji_have_a_kana_reading():
    pack = load_pack("ja")
    for line in pack.lines.values():
        if KANJI.search(line.text):
            assert line.reading, f"{line.id} has kanji but no reading"
            assert not KANJI.search(line.reading), f"{line.id} reading has kanji"
            assert "の方" not in line.reading


def test_bundled_packs_are_listed():
    assert {"ja", "en"} <= set(list_packs())
