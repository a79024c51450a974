"""`line_refs.resolved` in-process, for what the renamed-card tests reach only through a
subprocess or not at all (the survivors of `bench/mutation.sh packs`): each refusal names the
pack, the line, the reference and the file to fix; a reading is made only where one differs;
variants are resolved too; and a pack whose folder went is refused, never kept."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.sound import voicepack
from narrator.sound.line_refs import resolved
from narrator.sound.pack_line import Line

WHERE = "voices/mine/lines"
FOLDER = Path("/nonexistent/narrator-pack")


def lines(*each: Line) -> dict[str, Line]:
    return {line.id: line for line in each}


def refusal(table: dict[str, Line]) -> str:
    with pytest.raises(NarratorError) as caught:
        resolved(table, "mine", WHERE)
    return str(caught.value)


def test_a_missing_reference_names_the_pack_the_line_the_reference_and_the_file():
    said = refusal(lines(Line("seer.wake", "{@label.seer}の方、顔を上げてください。")))
    assert said.startswith("voice pack mine: line seer.wake refers to {@label.seer}")
    assert "add line label.seer" in said and said.endswith(f"(in {WHERE})")


def test_a_circle_names_each_line_on_it_and_the_file():
    said = refusal(lines(Line("a", "{@b}"), Line("b", "{@a}")))
    assert said.startswith("voice pack mine: line ") and ("a → b → a" in said or "b → a → b" in said)
    assert said.endswith(f"(in {WHERE})")


def test_an_unknown_word_after_the_colon_names_the_words_there_are_and_the_file():
    said = refusal(lines(Line("label.seer", "seer"), Line("seer.wake", "{@label.seer:loud}, open your eyes.")))
    assert said.startswith("voice pack mine: line seer.wake has {@label.seer:loud}")
    assert "or with one of: capital (in voices/mine/lines)" in said


def test_a_reading_is_made_only_where_the_labels_reading_differs_from_its_text():
    table = lines(Line("label.seer", "占い師", "うらないし"), Line("label.fox", "fox"),
                  Line("seer.wake", "{@label.seer}の方"), Line("fox.wake", "{@label.fox}, wake up."),
                  Line("seer.card", "{@label.seer}{n}枚", "{@label.seer}{n}まい"))
    out = resolved(table, "mine", WHERE)
    assert (out["seer.wake"].text, out["seer.wake"].reading) == ("占い師の方", "うらないしの方")
    assert (out["fox.wake"].text, out["fox.wake"].reading) == ("fox, wake up.", None)  # nothing to read otherwise
    assert (out["seer.card"].text, out["seer.card"].reading) == ("占い師{n}枚", "うらないし{n}まい")
    assert out["label.seer"] is table["label.seer"]  # a line without references is kept as it is


def test_other_wordings_are_resolved_too():
    table = lines(Line("label.seer", "Seer"),
                  Line("seer.wake", "{@label.seer}, open your eyes.", variants=(("{@label.seer}, wake up.", None),)))
    out = resolved(table, "mine", WHERE)["seer.wake"]
    assert out.wordings() == [("Seer, open your eyes.", None), ("Seer, wake up.", None)]


def test_only_the_lines_named_are_resolved_when_some_are_named():
    table = lines(Line("label.seer", "Seer"), Line("own", "{@label.seer}!"), Line("kept", "{@nowhere}"))
    out = resolved(table, "mine", WHERE, ids={"own"})  # "kept": a pack line, resolved when its pack loaded
    assert out["own"].text == "Seer!" and out["kept"] is table["kept"]


def test_a_pack_whose_folder_went_is_refused_not_kept(tmp_path, monkeypatch):
    """The cache checks that each name still finds its folder: a home pack deleted after a
    load is refused at the next one (with its one line), never said from memory."""
    home = tmp_path / "home"
    pack = home / "voices" / "mine"
    shutil.copytree(voicepack.REPO_VOICES / "en", pack, ignore=shutil.ignore_patterns("cache"))
    for path in [pack, *pack.rglob("*")]:
        os.utime(path, (1_767_225_600, 1_767_225_600))
    monkeypatch.setenv("NARRATOR_HOME", str(home))
    assert voicepack.load_pack("mine").lang == "en"
    shutil.rmtree(pack)
    with pytest.raises(NarratorError, match="no voice pack 'mine'"):
        voicepack.load_pack("mine")


# --- the cache's own bookkeeping (pack_cache.PackCache), with stand-in packs -----------------

def kept_cache(kept: int):
    """A cache of `kept` packs whose loads are counted; every pack's files unchanged."""
    from narrator.sound.pack_cache import PackCache

    cache: PackCache[str] = PackCache(kept)
    loads: list[str] = []

    def get(name: str) -> str:
        def load(reads):
            loads.append(name)
            reads.lookups[name] = FOLDER.resolve()  # found there, and found there again: unchanged
            return f"pack {name} #{len(loads)}"
        return cache.get(name, lambda _: FOLDER, load)
    return get, loads


def test_the_cache_keeps_as_many_packs_as_it_says():
    get, loads = kept_cache(2)
    get("ja"), get("en")
    get("ja"), get("en")  # both kept: nothing read again
    assert loads == ["ja", "en"]


def test_the_cache_lets_the_pack_used_longest_ago_go_first():
    get, loads = kept_cache(2)
    get("ja"), get("en"), get("ja")  # ja used again: en is now the oldest
    get("mine")  # a third: en goes
    get("ja"), get("mine")
    assert loads == ["ja", "en", "mine"]
    get("en")
    assert loads == ["ja", "en", "mine", "en"]


def test_a_packs_arrays_are_kept_item_by_item_read_only():
    from types import MappingProxyType

    from narrator.sound.pack_cache import frozen

    table = frozen({"engines": ["openjtalk", {"voice": ["mei", 2]}], "rate": 1})
    assert table == {"engines": ("openjtalk", {"voice": ("mei", 2)}), "rate": 1}
    assert isinstance(table, MappingProxyType) and isinstance(table["engines"][1], MappingProxyType)
