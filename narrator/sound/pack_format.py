"""How a pack writes a line's parameters: names joined, `:duration`, `:counted`, `:address`, `:one|many`.

Its own module because each language writes these its own way (「AkiさんとBenさん」, "Aki and
Ben"; 「3分」, "3 minutes"), from the pack's `[format]` table, and that is a job apart from
finding and holding the pack's lines (voicepack.py).
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, Iterable, Mapping, Protocol, Sequence

from narrator.errors import NarratorError


class FormattedPack(Protocol):
    """What formatting reads of a pack (`voicepack.VoicePack` has it; this module imports it not)."""

    # read-only (properties), so a frozen dataclass's fields fit
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def formats(self) -> Mapping[str, Any]: ...
    @property
    def lines(self) -> Mapping[str, Any]: ...
    @property
    def name_readings(self) -> Mapping[str, str]: ...


class PackFormatter(string.Formatter):
    """Formats names lists, `:duration`, `:counted` (cards with their counts) and `:one|many` fields
    the way the pack's language writes them."""

    def __init__(self, pack: FormattedPack, reading: bool, names: bool = False):
        self.pack, self.reading, self.names = pack, reading, names

    def _name(self, value: object) -> object:
        """A player's name by its reading (when this formats what an engine says)."""
        if self.names and isinstance(value, str):
            return self.pack.name_readings.get(value, value)
        return value

    def format_field(self, value: Any, format_spec: str) -> str:
        """One line parameter, by its spec (`value` is typed as `string.Formatter` types it)."""
        formats = self.pack.formats
        if format_spec == "duration":
            return self._duration(int(value))
        if format_spec == "counted":
            return self._counted(value)
        if format_spec == "address":
            return self._address(str(value))
        if "|" in format_spec and isinstance(value, int):
            one, many = format_spec.split("|", 1)  # `{n:card|cards}`: the word for one, the word for more
            return one if value == 1 else many
        if isinstance(value, (list, tuple)):
            names = [formats.get("name", "{name}").format(name=self._name(v)) for v in value]
            if len(names) > 1 and "join_last" in formats:
                return formats.get("join", ", ").join(names[:-1]) + formats["join_last"] + names[-1]
            return formats.get("join", ", ").join(names)
        return super().format_field(self._name(value), format_spec)

    def _counted(self, items: Iterable[Sequence[object]]) -> str:
        """`[[line_id, n], …]` as a list: each item is its own line said with `n`
        (「市民4枚」, "4 citizens"), joined as the pack joins names."""
        words = []
        for line_id, n in items:
            line = self.pack.lines.get(str(line_id))
            if line is None:
                raise NarratorError(f"voice pack '{self.pack.name}' has no line '{line_id}'; add it to {self.pack.path / 'lines'}")
            template = line.reading if self.reading and line.reading is not None else line.text
            words.append(self.format(template, n=n))
        formats = self.pack.formats
        join = formats.get("counted_join", formats.get("join", ", "))
        last = formats.get("counted_join_last", formats.get("join_last", join))
        return join.join(words[:-1]) + last + words[-1] if len(words) > 1 else join.join(words)

    def _address(self, address: str) -> str:
        """`192.168.1.5:8080` said as words a player can type: 「192 ドット 168 … ポート 8080」,
        "192 dot 168 … port 8080" (an engine reads "1.5" as a decimal and a name letter by letter
        anyway; the dots and the colon are what it drops)."""
        host, port = address, ""
        if address.startswith("["):  # [IPv6]:port
            host, _, rest = address[1:].partition("]")
            port = rest.removeprefix(":")
        elif address.count(":") == 1:
            host, _, port = address.partition(":")
        words = host.replace(".", self._word("address_dot", ".")).replace(":", self._word("address_colon", ":"))
        words = " ".join(words.split())  # "::" is two colons, one space apart
        return words + (self._word("address_port", ":") + port if port else "")

    def _word(self, key: str, default: str) -> str:
        formats = self.pack.formats
        if self.reading and f"{key}_reading" in formats:
            return formats[f"{key}_reading"]
        return formats.get(key, default)

    def _duration(self, seconds: int) -> str:
        formats = self.pack.formats
        minutes, rest = divmod(seconds, 60)
        parts = []
        if minutes:
            readings = formats.get("minute_readings", {}) if self.reading else {}
            parts.append(readings.get(str(minutes)) or self._unit("minutes", minutes))
        if rest or not minutes:
            parts.append(self._unit("seconds", rest))
        return formats.get("duration_join", "").join(parts)

    def _unit(self, unit: str, n: int) -> str:
        """`{n} seconds`, or the pack's `seconds_one` / `seconds_reading` where it has them."""
        formats = self.pack.formats
        key = unit
        if n == 1 and f"{unit}_one" in formats:
            key = f"{unit}_one"
        if self.reading and f"{key}_reading" in formats:
            key = f"{key}_reading"
        return formats[key].format(n=n)
