"""The README and every page under docs/ name only commands and flags that exist, and every
relative link resolves.

Commands are checked against click's own command tree (`narrator.cli.main`): in code spans and
code blocks, each `narrator WORD…` (also `.venv/bin/narrator`, `python -m narrator`) must walk
the tree through real subcommands, and each `--flag` after it must be an option of the command
reached; `scripts/play` takes `narrator play`'s flags and `scripts/setup` the ones its `--help`
lists. Pages others add are checked too: the test reads whatever is there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import click
import pytest

from narrator.cli import main

REPO = Path(__file__).resolve().parent.parent
PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])
CODE = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`", re.S)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
INVOCATION = re.compile(r"(?:^|(?<=[\s/(]))(narrator|scripts/play|scripts/setup)(?=\s|$)")
PREFIXES = {"sudo", "-m", "exec", "time", "nohup", "$"}
"""Words after which `narrator` is the command run (`sudo narrator …`, `python -m narrator …`)."""
STOP = re.compile(r"\s(?:&&|\|\||;|#|\|(?!\|))\s|\s#|$")


def code_of(text: str) -> list[str]:
    """Every code block and code span, as lines (a table's `\\|` is a literal bar)."""
    out = []
    for block, span in CODE.findall(text):
        out += (block or span.replace("\\|", "|")).splitlines()
    return out


def invocations(line: str) -> list[tuple[str, list[str]]]:
    """(program, words) for each narrator, scripts/play or scripts/setup call on a line."""
    found = []
    line = re.split(r"(?:^|\s)#(?:\s|$)", line)[0]  # a shell comment is prose
    for match in INVOCATION.finditer(line):
        before = re.split(r"&&|\|\||;|\||\$\(", line[:match.start()])[-1]
        if not (before.strip() == "" or before.endswith("/") or before.split()[-1] in PREFIXES):
            continue  # `journalctl -u narrator`: a word in another command
        rest = line[match.end():]
        rest = rest[:STOP.search(rest).start()]
        found.append((match.group(1), rest.split()))
    return found


def option_names(command: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        names.update(getattr(param, "opts", []))
        names.update(getattr(param, "secondary_opts", []))
    return names


def setup_flags() -> set[str]:
    usage = subprocess.run([str(REPO / "scripts/setup"), "--help"], capture_output=True, text=True, check=True, timeout=60).stdout
    return set(re.findall(r"(?<![\w-])--?[a-z][\w-]*", usage))


def problems_in(program: str, words: list[str], known_setup: set[str]) -> list[str]:
    """What is wrong with one call: an unknown subcommand or an unknown flag."""
    flags = [w.split("=", 1)[0].strip("[]()`,.") for w in words if w.lstrip("[(").startswith("-")]
    flags = [f for f in flags if re.fullmatch(r"--?[a-zA-Z][\w-]*", f)]
    if program == "scripts/setup":
        return [f"scripts/setup has no {f}" for f in flags if f not in known_setup]
    command: click.Command = main
    path = ["narrator"]
    if program == "scripts/play":
        command, path = main.commands["play"], ["narrator", "play"]
    for word in words:
        if not isinstance(command, click.Group):
            break
        if word in command.commands:
            command = command.commands[word]
            path.append(word)
            continue
        if re.fullmatch(r"[a-z][a-z-]*", word):
            return [f"`{' '.join(path)}` has no subcommand '{word}'"]
        break
    known = option_names(command)
    return [f"`{' '.join(path)}` has no option {f}" for f in flags if f not in known]


def command_problems(text: str, known_setup: set[str]) -> list[str]:
    return [p for line in code_of(text) for program, words in invocations(line)
            for p in problems_in(program, words, known_setup)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", page.read_text(encoding="utf-8"), re.M)}


def link_problems(page: Path) -> list[str]:
    out = []
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for groups in LINK.findall(text):
        target = next(g for g in groups if g)
        if re.match(r"[a-z][a-z+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (page.parent / file_part).resolve() if file_part else page
        if not resolved.exists():
            out.append(f"{page.relative_to(REPO)}: link to {target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            out.append(f"{page.relative_to(REPO)}: link to {target}: no such heading")
    return out


@pytest.fixture(scope="module")
def known_setup() -> set[str]:
    return setup_flags()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_command_and_flag_named_exists(page, known_setup):
    assert command_problems(page.read_text(encoding="utf-8"), known_setup) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page):
    assert link_problems(page) == []


def test_the_pages_name_commands_at_all():
    """The checks above look at something: the README and docs name many commands and flags."""
    calls = [c for page in PAGES for line in code_of(page.read_text(encoding="utf-8")) for c in invocations(line)]
    assert len(calls) > 50 and any(words and words[0] == "play" and "--voice" in words for _, words in calls)


def test_the_checker_catches_a_made_up_command_flag_and_link(tmp_path, known_setup):
    text = ("Run `narrator models remove ja`, `narrator play --colour red`, `scripts/setup --turbo`,\n"
            "```sh\nsudo .venv/bin/narrator service install --user pi --force   # a comment --ignored\n```\n"
            "and `narrator voices render en --table t.toml`.")
    assert command_problems(text, known_setup) == [
        "`narrator models` has no subcommand 'remove'", "`narrator play` has no option --colour",
        "scripts/setup has no --turbo", "`narrator service install` has no option --force"]
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    (tmp_path / "docs" / "there.md").write_text("# Here it is\n", encoding="utf-8")
    page.write_text("[a](there.md#here-it-is) [b](missing.md) [c](there.md#nowhere) [d](https://x.y/z)\n",
                    encoding="utf-8")
    global REPO
    saved, REPO = REPO, tmp_path
    try:
        assert link_problems(page) == ["docs/page.md: link to missing.md: no such file",
                                       "docs/page.md: link to there.md#nowhere: no such heading"]
    finally:
        REPO = saved
