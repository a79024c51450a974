"""A voice pack is read once per process while its files are unchanged (`narrator/sound/pack_cache.py`):
a game's load read the bundled packs four times. An edited, broken, fixed or added file, or
another `NARRATOR_HOME`, is read again at the next load; the shared pack cannot be changed by
one caller under another."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.games.kernel import files as kernel
from narrator.games.spoken_names import spoken_names
from narrator.sound import pack_cache, voicepack
from narrator.sound.voicepack import REPO_VOICES, Line, load_pack

OLD = 1_767_225_600  # 2026-01-01: a pack's files written long before it is loaded


def aged(folder: Path, when: int = OLD) -> Path:
    """Every file of `folder` dated `when` (a freshly written file is read again until settled)."""
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (when, when))
    return folder


def copy_pack(where: Path, name: str = "en") -> Path:
    dest = where / name
    shutil.copytree(REPO_VOICES / name, dest, ignore=shutil.ignore_patterns("cache"))
    return aged(dest)


@pytest.fixture
def reads(monkeypatch):
    """Each pack file read (parsed) from now on, counted by path."""
    seen: Counter[Path] = Counter()
    real = voicepack._read_toml

    def counting(path, *rest):
        seen[Path(path)] += 1
        return real(path, *rest)

    monkeypatch.setattr(voicepack, "_read_toml", counting)
    return seen


def add_line(folder: Path, text: str, file: str = "common.toml") -> None:
    lines = folder / "lines" / file
    lines.write_text(lines.read_text(encoding="utf-8") + f'\n[cachetest]\nsaid = "{text}"\n', encoding="utf-8")


def test_a_second_load_of_an_unchanged_pack_reads_no_file(tmp_path, reads):
    folder = copy_pack(tmp_path)
    first = load_pack(str(folder))
    assert sum(reads.values()) == 1 + len(list((folder / "lines").glob("*.toml")))
    reads.clear()
    again = load_pack(str(folder))
    assert sum(reads.values()) == 0
    assert again is first


def test_an_edited_file_is_read_again_and_its_new_line_said(tmp_path, reads):
    folder = copy_pack(tmp_path)
    load_pack(str(folder))
    add_line(folder, "Fresh words.")  # a bigger file
    aged(folder, OLD + 1)
    reads.clear()
    assert load_pack(str(folder)).speak("cachetest.said").text == "Fresh words."
    assert reads[folder / "lines" / "common.toml"] == 1


def test_a_file_edited_to_the_same_size_is_read_again_by_its_time(tmp_path):
    folder = copy_pack(tmp_path)
    add_line(folder, "Words one.")
    aged(folder)
    assert load_pack(str(folder)).speak("cachetest.said").text == "Words one."
    common = folder / "lines" / "common.toml"
    common.write_text(common.read_text(encoding="utf-8").replace("Words one.", "Words two."), encoding="utf-8")
    os.utime(common, (OLD + 1, OLD + 1))  # the same size: only its time tells
    assert load_pack(str(folder)).speak("cachetest.said").text == "Words two."


def test_a_file_written_just_now_is_not_trusted_by_its_stamp(tmp_path, reads):
    """Two writes within one timestamp tick at the same size look alike: such a pack is not kept."""
    folder = copy_pack(tmp_path)
    add_line(folder, "Just now.")  # dated now
    load_pack(str(folder))
    reads.clear()
    load_pack(str(folder))
    assert reads[folder / "lines" / "common.toml"] == 1


def test_a_file_broken_after_a_good_load_gives_its_one_line_error_every_time(tmp_path):
    folder = copy_pack(tmp_path)
    load_pack(str(folder))
    common = folder / "lines" / "common.toml"
    common.write_text(common.read_text(encoding="utf-8") + "\n[broken\n", encoding="utf-8")
    aged(folder, OLD + 1)
    for _ in range(2):
        with pytest.raises(NarratorError, match="not valid TOML") as err:
            load_pack(str(folder))
        assert str(common) in str(err.value) and "\n" not in str(err.value)


def test_a_file_fixed_after_a_broken_load_loads(tmp_path):
    folder = copy_pack(tmp_path)
    common = folder / "lines" / "common.toml"
    good = common.read_text(encoding="utf-8")
    common.write_text(good + "\n[broken\n", encoding="utf-8")
    aged(folder)
    with pytest.raises(NarratorError, match="not valid TOML"):
        load_pack(str(folder))
    common.write_text(good, encoding="utf-8")
    add_line(folder, "Mended.")
    aged(folder, OLD + 1)
    assert load_pack(str(folder)).speak("cachetest.said").text == "Mended."


def test_a_removed_file_is_missed_and_an_added_one_is_read(tmp_path):
    folder = copy_pack(tmp_path)
    assert load_pack(str(folder)).has("seer.wake")
    extra = folder / "lines" / "zz_extra.toml"
    extra.write_text('[cachetest]\nsaid = "Added."\n', encoding="utf-8")
    os.utime(extra, (OLD, OLD))  # every file the pack was read from is as it was
    assert load_pack(str(folder)).speak("cachetest.said").text == "Added."
    extra.unlink()
    assert not load_pack(str(folder)).has("cachetest.said")


def test_each_narrator_home_sees_its_own_pack(tmp_path, monkeypatch):
    for home, words in (("a", "Home A."), ("b", "Home B.")):
        add_line(copy_pack(tmp_path / home / "voices"), words)
        aged(tmp_path / home)
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path / "a"))
    assert load_pack("en").speak("cachetest.said").text == "Home A."
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path / "b"))
    assert load_pack("en").speak("cachetest.said").text == "Home B."
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path / "empty"))
    assert not load_pack("en").has("cachetest.said")  # the bundled pack


def test_an_edit_to_the_inherited_pack_is_seen_through_its_child(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path / "home"))
    base = copy_pack(tmp_path / "home" / "voices")
    child = tmp_path / "child"
    child.mkdir()
    (child / "voice.toml").write_text('inherit = "en"\nname = "child"\n', encoding="utf-8")
    aged(child)
    assert not load_pack(str(child)).has("cachetest.said")
    add_line(base, "From the parent.")
    aged(base, OLD + 1)
    assert load_pack(str(child)).speak("cachetest.said").text == "From the parent."


def test_a_caller_cannot_change_the_pack_the_next_one_loads(tmp_path):
    folder = copy_pack(tmp_path)
    pack = load_pack(str(folder))
    with pytest.raises(TypeError):
        pack.lines["cachetest.said"] = Line("cachetest.said", "Mine.")  # type: ignore[index]
    with pytest.raises(TypeError):
        pack.formats["join"] = " + "  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        pack.vocabulary["yes"].append("yep")
    mine = voicepack.replace(pack, lines={**pack.lines, "cachetest.said": Line("cachetest.said", "Mine.")})
    assert mine.speak("cachetest.said").text == "Mine."
    again = load_pack(str(folder))
    assert not again.has("cachetest.said") and again.formats["join"] == pack.formats["join"]
    assert "yep" not in again.vocabulary["yes"]


def test_card_names_read_from_an_edited_label_are_the_new_ones(tmp_path, monkeypatch):
    """Names read from the packs follow the table's pack as it is now (`spoken_names` kept
    each pack folder's first read for the whole process)."""
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    folder = copy_pack(tmp_path / "voices", "ja")
    assert "占い師" in spoken_names(lambda i: f"label.{i}", ["seer"])["seer"]["ja"]
    lines = folder / "lines" / "additional_werewolf.toml"
    text = lines.read_text(encoding="utf-8")
    assert '\nseer = { text = "占い師"' in text
    lines.write_text(text.replace('\nseer = { text = "占い師"', '\nseer = { text = "予知者"', 1), encoding="utf-8")
    aged(folder, OLD + 1)
    assert "予知者" in spoken_names(lambda i: f"label.{i}", ["seer"])["seer"]["ja"]


def test_a_game_file_and_its_table_voice_read_each_pack_file_once(tmp_path, monkeypatch, reads):
    monkeypatch.setenv("NARRATOR_HOME", str(tmp_path))
    monkeypatch.setattr(voicepack, "_PACKS", pack_cache.PackCache(), raising=False)
    path = kernel.shipped_files()["werewolf"]
    game = kernel.from_text.__wrapped__(path.read_text(encoding="utf-8"), path, "werewolf")
    assert game.card_names
    load_pack("ja")  # the table's voice opens
    assert reads and max(reads.values()) == 1, {str(p): n for p, n in reads.items() if n > 1}
