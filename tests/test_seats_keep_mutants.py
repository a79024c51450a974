"""seats_keep.py and provenance.py, in-process, for what the end-to-end tests leave unpinned
(bench/mutation.sh phones "provenance.py seats_keep.py": the survivors of its first run)."""

import json
import os
from types import SimpleNamespace

import pytest

from narrator.phones import provenance, seats_keep
from narrator.phones.seat_carry import Kept

DIGEST = "a" * 64
KEPT = Kept(("健一", "Ben"), "salt-1", {"健一": (DIGEST, "key-1"), "Ben": ("b" * 64, "key-2")})


def test_a_carry_saved_reads_back_whole(tmp_path):
    path = tmp_path / "not" / "yet" / seats_keep.FILE  # its folders are made
    assert seats_keep.save(path, KEPT) is True
    assert "健一" in path.read_text(encoding="utf-8")  # names as written, not \\u escapes
    assert seats_keep.load(path) == KEPT


def test_nothing_to_keep_removes_the_file_and_a_missing_file_is_fine(tmp_path):
    path = tmp_path / seats_keep.FILE
    assert seats_keep.save(path, None) is True  # nothing there, nothing to remove
    seats_keep.save(path, KEPT)
    assert seats_keep.save(path, Kept(("A",), "s", {})) is True and not path.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_card_that_refuses_says_so(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert seats_keep.save(folder / seats_keep.FILE, KEPT) is False
    finally:
        folder.chmod(0o700)


def test_a_file_that_is_not_a_folder_refuses_as_a_full_card_would(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    assert seats_keep.save(blocker / seats_keep.FILE, KEPT) is False  # as root too


@pytest.mark.parametrize("saved", [
    {"names": "健一", "salt": "s", "seats": {"健一": [DIGEST, "k"]}},          # names not a list
    {"names": ["健一", 3], "salt": "s", "seats": {"健一": [DIGEST, "k"]}},     # a name not text
    {"names": ["健一"], "salt": 7, "seats": {"健一": [DIGEST, "k"]}},          # salt not text
    {"names": ["健一"], "salt": "s", "seats": [["健一", DIGEST, "k"]]},        # seats not a table
    {"names": ["健一"], "salt": "s", "seats": {"健一": [DIGEST]}},             # a seat without its key
    {"names": ["健一"], "salt": "s", "seats": {"健一": [DIGEST, 5]}},          # a key not text
])
def test_a_file_that_is_not_a_carry_carries_nothing(tmp_path, saved):
    path = tmp_path / seats_keep.FILE
    path.write_text(json.dumps(saved), encoding="utf-8")
    assert seats_keep.load(path) is None


def test_a_damaged_file_is_said_with_what_follows(tmp_path):
    path = tmp_path / seats_keep.FILE
    path.write_text("[1, 2]", encoding="utf-8")  # JSON, but not a table
    warned: list[str] = []
    assert seats_keep.load(path, warned.append) is None
    assert len(warned) == 1 and warned[0].endswith("; the phones scan their seats again")


def _request(host, origin=None, method="POST"):
    return SimpleNamespace(headers={"Origin": origin} if origin is not None else {}, host=host, method=method)


def _error(response):
    return response.status, json.loads(response.body)["error"]


def test_a_name_the_machine_answers_to_is_allowed_in_any_case():
    allowed = {"narrator.local:8080"}
    assert provenance.refusal(_request("Narrator.Local:8080", "http://narrator.local:8080"), allowed) is None


def test_the_refusals_say_what_to_do():
    allowed = {"10.42.0.1:8080"}
    assert _error(provenance.refusal(_request("evil.example:8080"), allowed)) == (
        421, "unknown host: open the address the narrator announced")
    assert _error(provenance.refusal(_request("10.42.0.1:8080", "http://evil.example"), allowed)) == (
        403, "this request did not come from the narrator's page")
