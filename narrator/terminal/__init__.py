"""The program's own terminal lines, in the table's language: `lines.py` picks the language and
words each line, `lines.toml` holds every line in English and Japanese.

A folder of its own (not a root module: the root keeps four shared ones) on the ground floor,
importing nothing of narrator, so every room prints through it and scripts/setup runs
`lines.py` as a script before narrator is installed.
"""

from narrator.terminal.lines import (  # noqa: F401 - the folder's door
    LANGS, SAVED_KEY, choose, file_lang, forget, lines, locale_lang, recall, remembered, said, said_in, terminal_lang,
)
