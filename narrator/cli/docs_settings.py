"""`scripts/docs-settings`: the docs' key tables, written from the settings' declarations.

A key is declared once (narrator/settings.toml, a game's `[settings]`), with its docs row's
words (`form`, `flag_doc`, `default`, `doc`, `cites`) and the table that holds it (`page`:
`table-file.md`, or `bestia-magica.md#house-rules` for a page's second table). So the rows
are written here, never by hand: a new setting is its declaration, and this rewrites the page.
A page marks each table it holds:

    <!-- settings table bestia-magica.md#house-rules: written by scripts/docs-settings -->

    | key | default | rule |
    |---|---|---|
    | *role defaults* (P-BM-1/2) | see `definition.toml` `[roles]` | … |

    <!-- end of settings table -->

The page chooses the columns (its header is kept: `key`, `flag`, `default`, `meaning` or
`rule`); the rows are the table's declarations in declaration order (the shared keys first, then
each game's in its file's order). A row whose key is prose (`*role defaults*`) is the page's own
and is kept: those above the first key stay on top, the others go below the keys.
`--check` rewrites nothing and names the stale pages (tests/test_settings_declared.py runs it).

The Japanese pages (docs/ja/*.md; Japanese is the table's first language) are written the same
way from the same declarations' `…_ja` words. A Japanese page groups the keys by game, not by the
English pages, so its tables are named apart, `ja/…`, and each declaration says which holds its
row (`page_ja`, filled by each game's `declare`):

    <!-- settings table ja/table-file.md#additional-werewolf: written by scripts/docs-settings -->

    | 項目 | フラグ | 既定値 | 意味 |

A cell whose English is words (`random`, `house rule`) needs its Japanese declared (`default_ja`,
`cites_ja` …); code and numbers (`auto`, 1.0) read alike. A Japanese word missing is refused in
one line naming the key and the field, so a setting cannot ship without its Japanese row.

On the CLI floor because it reads every game's declarations through the registry.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from narrator.games import game_names, get_game
from narrator.settings import SETTINGS, Setting

DOCS = Path(__file__).resolve().parents[2] / "docs"
"""The checkout's docs/ (the tool runs from a checkout: scripts/docs-settings)."""
COMMAND = "scripts/docs-settings"
BEGIN = re.compile(r"<!-- settings table (\S+): written by scripts/docs-settings -->")
END = "<!-- end of settings table -->"
KEYED = re.compile(r"\|\s*`([a-z_]+)`")
"""A row that names a key; any other row of a key table is prose (`*role defaults*`)."""


class Stale(Exception):
    """A declaration or a marked table the tool cannot write: one line naming the fix."""


def declared() -> list[Setting]:
    """Every declaration: the shared keys, then each game's own (a game file's are the kernel's)."""
    return [*SETTINGS, *(s for name in game_names() for s in get_game(name).settings)]


def by_table(settings: list[Setting]) -> dict[str, list[Setting]]:
    """The declarations by the table that holds their row (`page`, and `page_ja` for the Japanese
    one), each key once: games that share a key on one page (the game files) must declare it
    alike, or its row would be two."""
    tables: dict[str, dict[str, Setting]] = {}
    for setting in settings:
        for page in (setting.page, setting.page_ja):
            rows = tables.setdefault(page, {})
            first = rows.setdefault(setting.key, setting)
            columns = JA_COLUMNS if japanese(page) else COLUMNS
            if row(first, columns, page) != row(setting, columns, page):
                field = "page_ja" if japanese(page) else "page"
                raise Stale(f"{setting.key} is declared twice for {page} with different docs rows; "
                            f"give one of them its own page (`{field} = \"…\"`)")
    return {page: list(rows.values()) for page, rows in tables.items()}


COLUMNS = ("key", "flag", "default", "meaning")
JA_COLUMNS = ("項目", "フラグ", "既定値", "意味")
"""The Japanese page's header words for the same columns (`ルール` for `rule`)."""
CELLS = dict(zip(JA_COLUMNS, COLUMNS)) | {"ルール": "rule"}
WORDS = re.compile(r"[a-z]{2,}")
"""English words, outside code spans and true/false: a cell the Japanese row must declare its own way."""


def japanese(table: str) -> bool:
    """Whether a table (its marker's name) is on a Japanese page: `ja/table-file.md#shared`."""
    return table.startswith("ja/")


def words(text: str) -> bool:
    """Whether an English cell is words to translate (`random`), not code or a number (`auto`, 1.0)."""
    return bool(WORDS.search(re.sub(r"`[^`]*`|\b(true|false)\b", "", text)))


def row(setting: Setting, columns: tuple[str, ...], table: str = "") -> str:
    """The docs row the declaration gives, for a table with these columns (Japanese on a `ja/` table)."""
    if japanese(table):
        return ja_row(setting, columns)
    if not setting.doc:
        raise Stale(f"{setting.key} declares no `doc` (its docs row's meaning); declare it")
    flag = setting.flag_doc or ((f"`{setting.flag} {setting.form}`" if setting.form else f"`{setting.flag}`")
                                if setting.flag else "—")
    default = f"`{setting.value}`" if isinstance(setting.value, str) and setting.default == setting.value \
        else setting.default  # a declared text value is a word to type: written as code
    key = f"`{setting.key}`" + (f" ({setting.cites})" if setting.cites else "")
    cells = {"key": key, "flag": flag, "default": default, "meaning": setting.doc, "rule": setting.doc}
    return "| " + " | ".join(cells[c] for c in columns) + " |"


def ja_row(setting: Setting, columns: tuple[str, ...]) -> str:
    """The Japanese page's row: the declaration's `…_ja` words, its English ones where they are
    code or numbers; a Japanese word missing is refused, naming the field to declare."""
    def declared(field: str, english: str, ja: str) -> str:
        if ja or not words(english):
            return ja or english
        raise Stale(f"{setting.key} declares no `{field}` (its Japanese docs row's words for {english!r}); "
                    f"declare it beside `{field.removesuffix('_ja')}`")

    if not setting.doc_ja:
        raise Stale(f"{setting.key} declares no `doc_ja` (its Japanese docs row's meaning); declare it beside `doc`")
    form = setting.form_ja or setting.form
    flag = declared("flag_doc_ja", setting.flag_doc, setting.flag_doc_ja) or (
        (f"`{setting.flag} {form}`" if form else f"`{setting.flag}`") if setting.flag else "なし")
    default = f"`{setting.value}`" if isinstance(setting.value, str) and setting.default == setting.value \
        else "なし" if setting.default == "none" and not setting.default_ja \
        else declared("default_ja", setting.default, setting.default_ja)
    cites = declared("cites_ja", setting.cites, setting.cites_ja)
    key = f"`{setting.key}`" + (f"({cites})" if cites else "")
    cells = {"key": key, "flag": flag, "default": default, "meaning": setting.doc_ja, "rule": setting.doc_ja}
    return "| " + " | ".join(cells[CELLS.get(c, c)] for c in columns) + " |"


@dataclass(frozen=True)
class Marked:
    """One marked table of a page: where its lines are, and which declarations it holds."""

    table: str
    start: int
    """The index of its begin marker's line."""
    end: int
    """The index of its end marker's line."""


def marked(lines: list[str], page: str) -> list[Marked]:
    """The marked tables of a page's lines; a begin marker without its end is refused."""
    found = []
    for i, line in enumerate(lines):
        begin = BEGIN.fullmatch(line.strip())
        if begin:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == END), None)
            if end is None or any(BEGIN.fullmatch(x.strip()) for x in lines[i + 1:end]):
                raise Stale(f"docs/{page}: the settings table {begin.group(1)} has no `{END}` line; add it after the table")
            found.append(Marked(begin.group(1), i, end))
    return found


def written(lines: list[str], table: str, settings: list[Setting], page: str) -> list[str]:
    """A marked table's lines (between its markers) as the declarations write them."""
    names, allowed, header = ((JA_COLUMNS, (*JA_COLUMNS, "ルール"), "| 項目 | 既定値 | 意味 |") if japanese(table)
                              else (COLUMNS, (*COLUMNS, "rule"), "| key | default | meaning |"))
    body = [line for line in lines if line.strip()]
    if len(body) < 2 or not body[0].startswith("|"):
        raise Stale(f"docs/{page}: the settings table {table} has no header; start it with `{header}`")
    columns = tuple(c.strip() for c in body[0].strip().strip("|").split("|"))
    unknown = [c for c in columns if c not in allowed]
    if unknown or columns[0] != names[0]:
        raise Stale(f"docs/{page}: the settings table {table} has a column {(unknown or [columns[0]])[0]!r}; "
                    f"its columns are `{names[0]}` first, then {', '.join(allowed[1:-1])} or {allowed[-1]}")
    rows = body[2:]
    keyed = [i for i, line in enumerate(rows) if KEYED.match(line)]
    first = keyed[0] if keyed else len(rows)
    above = rows[:first]
    below = [line for line in rows[first:] if not KEYED.match(line)]
    return ["", body[0], body[1], *above, *(row(s, columns, table) for s in settings), *below, ""]


def rewritten(text: str, page: str, tables: dict[str, list[Setting]]) -> str:
    """A page's text with each marked table written from its declarations."""
    lines = text.split("\n")
    for mark in reversed(marked(lines, page)):
        if mark.table not in tables:
            field = "page_ja" if japanese(mark.table) else "page"
            raise Stale(f"docs/{page}: no setting is declared for the settings table {mark.table}; "
                        f"remove its markers or declare `{field} = \"{mark.table}\"`")
        lines[mark.start + 1:mark.end] = written(lines[mark.start + 1:mark.end], mark.table, tables[mark.table], page)
    return "\n".join(lines)


def pages(docs: Path = DOCS) -> dict[Path, tuple[str, str]]:
    """Every page that holds a settings table, English (docs/*.md) and Japanese (docs/ja/*.md):
    (its text, its text as the declarations write it). A declared table no page marks is refused."""
    tables = by_table(declared())
    out: dict[Path, tuple[str, str]] = {}
    seen: set[str] = set()
    for path in [*sorted(docs.glob("*.md")), *sorted(docs.glob("ja/*.md"))]:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(docs).as_posix()
        marks = marked(text.split("\n"), name)
        if marks:
            out[path] = (text, rewritten(text, name, tables))
            seen.update(m.table for m in marks)
    missing = sorted(set(tables) - seen)
    if missing:
        page = missing[0].partition("#")[0]
        where = "docs/ja" if japanese(missing[0]) else "docs/"
        raise Stale(f"no page of {where} marks the settings table {missing[0]}; add "
                    f"`<!-- settings table {missing[0]}: written by {COMMAND} -->`, its header and "
                    f"`{END}` to docs/{page}")
    return out


def stale(docs: Path = DOCS) -> list[str]:
    """The pages whose settings tables differ from their declarations."""
    return [f"docs/{path.relative_to(docs).as_posix()}" for path, (text, new) in pages(docs).items() if text != new]


def write(docs: Path = DOCS) -> list[str]:
    """Rewrite each stale page (a temporary file renamed over it: a page is never half written)."""
    changed = []
    for path, (text, new) in pages(docs).items():
        if text != new:
            fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(temporary, path)
            changed.append(f"docs/{path.relative_to(docs).as_posix()}")
    return changed


def main(argv: list[str], docs: Path = DOCS) -> int:
    """`scripts/docs-settings [--check]`: rewrite the stale tables (or, with --check, name them)."""
    try:
        if argv == ["--check"]:
            found = stale(docs)
            for page in found:
                print(f"{page}: its settings table differs from the declarations; run {COMMAND}")
            return 1 if found else 0
        if argv:
            print(f"usage: {COMMAND} [--check]", file=sys.stderr)
            return 2
        for page in write(docs):
            print(f"{page}: settings table written")
    except Stale as err:
        print(f"{COMMAND}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
