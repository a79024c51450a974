"""The JSON Schema of a game file, for editors (taplo, VS Code's Even Better TOML), made
from the kernel's own vocabulary so that it never drifts from what `model` accepts. The
file `game-file.schema.json` beside this module is its output (tests/test_game_files.py
checks both that and every shipped file against it). `python -m narrator.games.kernel.schema`
writes it again.
"""

from __future__ import annotations

import json
from typing import Any

from pathlib import Path

from narrator.games.kernel import model

SCHEMA = Path(__file__).with_name("game-file.schema.json")


def _enum(values: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _table(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


WHOLE = {"type": "integer", "minimum": 0}
NAMES = {"type": "array", "items": {"type": "string"}}


def schema() -> dict[str, Any]:
    role = _table({"team": {"type": "string"}, "seen_as": _enum(model.SEEN_AS),
                   "counts_as": _enum(model.SEEN_AS + ("none",)), "survives_attack": {"type": "boolean"},
                   "dies_divined": {"type": "boolean"}, "when_attacked": _enum(model.WHEN_ATTACKED),
                   "when_executed": _enum(model.WHEN_EXECUTED), "dies_with": {"type": "string"},
                   "curses_seer": {"type": "boolean"},
                   "aliases": _table({"ja": NAMES, "en": NAMES})}, ("team",))
    step = _table({"id": {"type": "string"}, "kind": _enum(("call",)), "role": {"type": "string"},
                   "action": _enum(model.ACTIONS), "when": _enum(model.WHEN), "from_night": WHOLE, "every": WHOLE,
                   "while": _enum(model.WHILE), "seconds": WHOLE, "after": NAMES, "absent": _enum(model.ABSENT),
                   "not_self": {"type": "boolean"}, "lone_look": {"type": "boolean"}, "sees": {"type": "string"},
                   "no_repeat": {"description": "true, false, or the name of an option under [options]"},
                   "if": {"type": "string"}, "unless": {"type": "string"}}, ("id", "role"))
    win = _table({"kind": _enum(model.WINS), "winner": {"type": "string"}, "team": {"type": "string"},
                  "role": {"type": "string"}, "days": WHOLE}, ("kind", "winner"))
    scenario = _table({"name": {"type": "string"}, "players": NAMES, "seed": WHOLE, "deal": NAMES,
                       "cards": _enum(model.CARDS), "answers": NAMES, "lines": NAMES, "winner": {"type": "string"},
                       "options": {"type": "object", "additionalProperties": {"type": "boolean"}}},
                      ("players", "answers", "winner"))
    game = _table({"name": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "title": {"type": "string"},
                   "players": {"type": "array", "items": WHOLE, "minItems": 2, "maxItems": 2},
                   "centre": WHOLE, "nights": {"type": "integer", "enum": [0, 1]},
                   "cards": {"type": "array", "items": _enum(model.CARDS)}, "absent": _enum(model.ABSENT),
                   "lines": {"type": "string"}, "first_victim": {"type": "string"}, "never_out": NAMES},
                  ("name", "players"))
    day = _table({"discussion": {"type": "array", "items": WHOLE}, "warnings": {"type": "array", "items": WHOLE},
                  "vote": _enum(model.VOTES), "tie": _enum(model.TIES),
                  "order": {"type": "array", "items": _enum(model.DAY_KINDS)}})
    counts = {"type": "object", "additionalProperties": WHOLE}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "narrator game file (werewolf-family rules kernel)",
        **_table({"game": game, "roles": {"type": "object", "additionalProperties": role},
                  "deal": {"type": "object", "patternProperties": {"^[0-9]+$": counts}, "additionalProperties": False},
                  "steps": {"type": "array", "items": step}, "day": day, "wins": {"type": "array", "items": win},
                  "scenarios": {"type": "array", "items": scenario},
                  "options": {"type": "object", "additionalProperties": {"type": "boolean"}},
                  "lines": _table({lang: {"type": "object"} for lang in model.LANGS})},
                 ("game", "roles", "deal", "steps", "wins")),
    }


def text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    SCHEMA.write_text(text(), encoding="utf-8")
