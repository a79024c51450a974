"""The transcript of a phone game holds nothing private unless the table asks for it."""

import pytest


@pytest.mark.parametrize("private", [True, False])
def test_the_transcript_holds_roles_memos_and_votes_only_when_asked(tmp_path, narrator_home, private):
    """Bestia Magica's transcript: with `--transcript-private` every role line and memo is
    there (the attack reads them); without it (the default) none is."""
    from narrator.table.transcript import read_transcript
    from tests.bm_driver import answers_jsonl, configure, play
    from tests.test_bestia_magica_cli import BASE_FLAGS, NAMES, narrator

    config = configure(names=NAMES, seed=7)
    state, cues, rounds = play(config, seed=1)
    answers_file = tmp_path / "answers.jsonl"
    answers_file.write_text(answers_jsonl(rounds), encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    flags = ["--transcript-private"] if private else []
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(answers_file),
                    "--transcript", str(transcript), *flags)
    assert done.returncode == 0, done.stderr
    records = read_transcript(transcript)
    role_lines = [r for r in records if r["kind"] == "private" and r["line"].startswith("bm.private.card.")]
    memos = [r for r in records if r["kind"] == "answer" and r["line"] == "collect.night" and "value" in r]
    assert (len({r["to"] for r in role_lines}) == len(config.names) and bool(memos)) == private
    assert (role_lines == [] and memos == []) == (not private)
    if not private:  # the round itself is still recorded, without who chose what
        assert [r for r in records if r["kind"] == "answer" and r["line"] == "collect.night" and r.get("private")]
        text = transcript.read_text()
        assert not [p.name for p in state.players if f"you are the {p.role}" in text]
