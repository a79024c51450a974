"""What the host screen's settings page shows: the table's setup, in the page's languages.

Kept apart from the routes (`settings_page.py`) so the view is a plain function of the table
file and the voice packs, testable without a server. Nothing here names a game, a card or a
setting of one game: the rows are the game's declared settings (`Game.settings`), their
values what the game's own `configure` made of the table (so the recommended set for the
count is shown when the table leaves it unset), the card names its `Game.label` lines, and a
setting's heading the pack's `appliance.setting.<game>.<key>` line where the shared one means
another thing in that game, else `appliance.setting.<key>` (else its help line).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Mapping

from narrator.errors import NarratorError
from narrator.games import game_names, get_game
from narrator.games.contract import SomeGame
from narrator.settings import SETTINGS, Setting, TableSettings, build_settings
from narrator.sound.names import KANJI, openjtalk_analysis, spoken_readings
from narrator.sound.voicepack import VoicePack


def texts(packs: Mapping[str, VoicePack], line: str, params: Mapping[str, Any] | None = None) -> dict[str, str]:
    """A line's words in every page language whose pack has it."""
    return {lang: pack.speak(line, dict(params or {})).text for lang, pack in packs.items() if pack.has(line)}


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, Mapping):
        return "counts"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return "order"
    if isinstance(value, (list, tuple)):
        return "list"
    return "text"


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@lru_cache(maxsize=1)
def _analysis() -> Callable[[str], str] | None:
    """Open JTalk's reading of kanji (loaded once: the page is drawn on every change)."""
    return openjtalk_analysis()


def names_view(settings: TableSettings, seats: tuple[str, ...], packs: Mapping[str, VoicePack]) -> list[dict[str, str]]:
    """Each seat's name, the reading the table gave, and `said`: how the narrator's voice
    (the table's language; Japanese, its first, when unset) will read it, so that the host hears no
    surprise at the first night and corrects a wrong guess here (saved as `name:reading`).
    A table without names shows the game's default seats (`seat`, e.g. Bestia Magica's `P1`)
    with their readings: 「いちばん」…, never 「プ」 for all eight."""
    readings = dict(settings.listening.get("name_readings", {}) or {})
    names = tuple(settings.names)
    pack = packs.get(settings.lang or "ja") or packs.get("ja") or next(iter(packs.values()), None)
    shown = names or seats
    needs = any(KANJI.search(n) and not readings.get(n) for n in shown)
    said = spoken_readings(pack, shown, readings, _analysis() if needs else None) if pack is not None else {}
    if names:
        return [{"name": n, "reading": readings.get(n, ""), "said": said.get(n, n)} for n in names]
    return [{"name": "", "reading": "", "seat": n, "said": said.get(n, n)} for n in seats]


def addable(game: SomeGame, settings: TableSettings, setting: Setting, value: Mapping[str, object]) -> list[str]:
    """The ids a counts row may add, one at a time: those of its vocabulary (`Setting.names`)
    that the game's own `configure` accepts with 1 added to this table (a card's countdown
    only for a night card in play), so the page never offers a card it would then refuse."""
    vocab = setting.names.partition(":")[0]
    if not vocab or game.card_names is None:
        return []
    out = []
    for ident in game.card_names.ids(vocab):
        if ident in value:
            continue
        trial = replace(settings, options={**settings.options, setting.key: {**value, ident: 1}})
        try:
            game.configure(trial)
        except NarratorError:
            continue
        out.append(ident)
    return out


SHARED = {s.key: s for s in SETTINGS}


def heading(setting: Setting, packs: Mapping[str, VoicePack]) -> dict[str, str]:
    """A setting's declared heading in the page's languages (those it has a pack for)."""
    return {lang: words for lang, words in setting.headings.items() if lang in packs}


def build(table: Mapping[str, Any], packs: Mapping[str, VoicePack], preset_names: list[str]) -> dict[str, Any]:
    """The settings as the page draws them; `table` is the checked table file, `preset_names` its
    saved presets (the appliance reads them: this room never imports the appliance's)."""
    settings = build_settings(table, {}, "table file")
    game = get_game(settings.game)
    configured = game.configure(settings)
    config = configured.to_dict()
    label = game.label or (lambda id_: "")
    named = names_view(settings, game.names(configured), packs)
    rows: list[dict[str, object]] = []
    ids: list[str] = []
    for setting in game.settings:
        raw = settings.options.get(setting.key)
        value = _plain(config.get(setting.key, raw))
        kind = _kind(value) if value is not None else "text"
        if kind in ("counts", "order") and isinstance(value, (dict, list)):  # a dict's ids are its keys
            ids += [i for i in value if isinstance(i, str) and i not in ids]
        row: dict[str, object] = {"key": setting.key, "label": heading(setting, packs), "kind": kind, "value": value,
                                  "set": setting.key in settings.options, "default": setting.default}
        if kind == "counts" and isinstance(value, dict):
            more = row["addable"] = addable(game, settings, setting, value)
            ids += [i for i in more if i not in ids]
        rows.append(row)
    return {
        "game": settings.game,
        "games": [{"id": g, "title": texts(packs, "title." + g.replace("-", "_")) or {"en": g}} for g in game_names()],
        "game_label": heading(SHARED["game"], packs),
        "players": config.get("players", settings.players),
        "players_label": heading(SHARED["players"], packs),
        "names": [row for row in named if row["name"]],
        "seats": [row for row in named if not row["name"]],
        "names_label": heading(SHARED["names"], packs),
        "settings": rows,
        "labels": {i: texts(packs, label(i)) if label(i) and any(p.has(label(i)) for p in packs.values()) else {"en": i}
                   for i in ids},
        "presets": list(preset_names),
    }
