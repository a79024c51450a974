"""A voice pack read once per process while its files are unchanged.

Why: a game's load read the bundled packs four times (a card's name is its pack label line,
a game file's lines are checked in both packs, then the table's voice opens its pack): about
half the game's load, felt at every game start on a Raspberry Pi, and `narrator serve` loads
games between every game. `voicepack.load_pack` now keeps each pack it builds together with
what it was built from (`Reads`), and gives the same pack again only while all of it is as it
was; a later load re-checks it with a few `stat` calls and no file read.

What a pack was built from: each pack name it looked up (`find_pack`: the table's own packs in
`$NARRATOR_HOME/voices/` first, so another home, or a pack added there, is another pack), each
`lines/` folder it listed (a lines file added or removed), and each file it read, by its stamp
(mtime_ns, ctime_ns, size, inode). A file changed less than `SETTLED_NS` before it was read
might be written again within the same timestamp tick at the same size ("racy", as git calls
it): a pack built from such a file is not kept, so an edit is never missed, only read again.
A load that fails is never kept: a broken file gives its one-line error every time, and the
fixed file is read at the next load.

The kept pack is shared by every caller, so its mappings are read-only (`frozen`): tables as
`MappingProxyType`, arrays as tuples. A caller that wants other lines makes a new pack
(`dataclasses.replace(pack, lines={**pack.lines, …})`, `merged_under`), as callers already did.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Generic, Mapping, TypeVar

from narrator.errors import NarratorError

SETTLED_NS = 2_000_000_000
"""A file changed less than this long before it was read is not trusted to be unchanged while
its stamp is (two writes within one timestamp tick at the same size look alike)."""
KEPT = 16
"""How many packs are kept at most (the newest used); a process uses two or three."""

Stamp = tuple[int, int, int, int]
P = TypeVar("P")


def stamp(path: Path) -> Stamp | None:
    """What tells a file's versions apart without reading it; None when there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


@dataclass
class Reads:
    """What one load of a pack looked at, so a later load can check it is all as it was."""

    started: int = field(default_factory=time.time_ns)
    files: dict[Path, Stamp | None] = field(default_factory=dict)
    listings: dict[Path, tuple[str, ...]] = field(default_factory=dict)
    lookups: dict[str, Path | None] = field(default_factory=dict)
    settled: bool = True
    """False when a file read was changed just before (or is dated after) the load began."""

    def file(self, path: Path) -> None:
        """Note `path` as read (call before reading it: a change while it is read is then seen)."""
        seen = stamp(path)
        self.files[path] = seen
        if seen is None or seen[0] > self.started - SETTLED_NS:
            self.settled = False

    def listing(self, folder: Path) -> list[Path]:
        """The `*.toml` files of `folder`, sorted, noted as listed."""
        files = sorted(folder.glob("*.toml"))
        self.listings[folder] = tuple(p.name for p in files)
        return files

    def lookup(self, name: str, found: Path) -> None:
        self.lookups[name] = _where(found)

    def unchanged(self, find: Callable[[str], Path]) -> bool:
        """Every name still finds the same folder, every folder lists the same files, and every
        file has the same stamp."""
        for name, found in self.lookups.items():
            try:
                if _where(find(name)) != found:
                    return False
            except (NarratorError, OSError):  # the load itself names what is wrong
                return False
        return (all(tuple(p.name for p in sorted(folder.glob("*.toml"))) == names
                    for folder, names in self.listings.items())
                and all(stamp(path) == seen for path, seen in self.files.items()))


def _where(path: Path) -> Path | None:
    try:
        return path.resolve()
    except OSError:
        return None


class PackCache(Generic[P]):
    """Packs by the name they were loaded by, each with the `Reads` it was built from."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._packs: OrderedDict[str, tuple[Reads, P]] = OrderedDict()
        self._lock = threading.Lock()
        """Packs may be loaded from the phones' and the render threads at once."""

    def get(self, name: str, find: Callable[[str], Path], load: Callable[[Reads], P]) -> P:
        """The pack kept for `name` while its files are unchanged, else `load` it afresh (kept
        when its files are settled; a load that raises drops what was kept)."""
        with self._lock:
            entry = self._packs.get(name)
        if entry is not None and entry[0].unchanged(find):
            with self._lock:
                if name in self._packs:
                    self._packs.move_to_end(name)
            return entry[1]
        with self._lock:
            self._packs.pop(name, None)
        reads = Reads()
        pack = load(reads)  # outside the lock: two threads may both read a pack, never see half of one
        if reads.settled:
            with self._lock:
                self._packs[name] = (reads, pack)
                while len(self._packs) > self.kept:
                    self._packs.popitem(last=False)
        return pack

    def clear(self) -> None:
        with self._lock:
            self._packs.clear()


def frozen(table: Mapping[str, object]) -> Mapping[str, Any]:
    """A pack's table read-only all the way down: tables as `MappingProxyType`, arrays as tuples
    (what it holds is TOML's, read by each field's user: hence `Any` inside)."""
    return MappingProxyType({key: _frozen(item) for key, item in table.items()})


def _frozen(value: object) -> object:
    if isinstance(value, Mapping):
        return frozen(value)
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
