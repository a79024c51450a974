"""Recognition models: where they live, and installing one safely before a game.

Models live in `<app home>/models/<name>/`. `install` downloads the archive into
`<name>.zip.part` (resuming with an HTTP Range request when a part is already there, and
starting over when the server ignores it), checks its sha256, unpacks into a temporary
folder beside the target, checks that it is a model, and only then renames it into place:
an interrupted install never leaves a half-unpacked model that a game would try to load.
Nothing here runs during a game; a game only looks models up.

Trust on first use: the official host publishes no checksums. Where neither the index nor
`--sha256` gives one, the first download is checked for what can be checked (its size
against the index's `size_mb`, and that its files make a vosk model), and its sha256, size
and file list are recorded in `<models>/trusted.toml`. Every later download of that model
(a reinstall, another language's retry, a mirror via `--url`) must have the same sha256.
`--sha256` still overrides both, for those who have a checksum from elsewhere.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import shutil
import tempfile
import tomllib
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from narrator import home
from narrator.errors import NarratorError

BUNDLED_INDEX = Path(__file__).with_name("models.toml")
BLOCK = 1 << 16
SIZE_SLACK = 0.5
"""A first download may differ from the index's `size_mb` by this fraction, no more."""


class ModelError(NarratorError):
    """A model cannot be found, fetched or verified; the message names the fix."""


@dataclass(frozen=True)
class ModelSpec:
    lang: str
    name: str
    url: str
    sha256: str
    size_mb: float | None = None


def models_dir() -> Path:
    return home.app_home() / "models"


def index_path() -> Path:
    if os.environ.get("NARRATOR_MODEL_INDEX"):
        return Path(os.environ["NARRATOR_MODEL_INDEX"])
    user = home.app_home() / "models.toml"
    return user if user.is_file() else BUNDLED_INDEX


def model_index() -> dict[str, ModelSpec]:
    path = index_path()
    try:
        raw = home.read_bounded(path, home.MAX_KEPT_BYTES)  # the user's index is a file in the home
        if raw is None or len(raw) > home.MAX_KEPT_BYTES:
            raise ValueError("missing" if raw is None else "too big")
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as err:  # DamagedFile, not UTF-8, not TOML
        raise ModelError(f"model index {path} cannot be read ({err}); fix or remove it") from None
    return {lang: ModelSpec(lang, e["name"], e["url"], e.get("sha256", ""), e.get("size_mb"))
            for lang, e in data.items()}


def spec_for(lang: str) -> ModelSpec:
    index = model_index()
    if lang not in index:
        raise ModelError(f"no model known for '{lang}'; known: {', '.join(index)} (index {index_path()})")
    return index[lang]


def is_model(folder: Path) -> bool:
    return (folder / "am").is_dir() and (folder / "conf").is_dir()


def installed_models() -> list[Path]:
    folder = models_dir()
    if not folder.is_dir():
        return []
    return [p for p in sorted(folder.iterdir()) if p.is_dir() and not p.name.startswith(".") and is_model(p)]


def find_model(lang: str, path: str | Path | None = None) -> Path:
    """The model a game in `lang` uses: `path` if given, else the installed one for `lang`."""
    if path:
        folder = Path(path).expanduser()
        if not is_model(folder):
            raise ModelError.said("model_not_a_folder", folder=folder)
        return folder
    name = spec_for(lang).name if lang in model_index() else None
    found = models_dir() / name if name else None
    if found is None or not is_model(found):
        from narrator.sound.doctor import command_name

        raise ModelError.said("model_missing_error", lang=lang, folder=models_dir(), command=command_name())
    return found


Progress = Callable[[int, int | None], None]
"""progress(bytes so far, total bytes or None)."""


@dataclass(frozen=True)
class Installed:
    """What `install` did: the model's folder, its archive's sha256, and how it was trusted."""

    folder: Path
    sha256: str = ""
    trust: str = "present"
    """"present" (already installed), "checked" (matched a known sum) or "first use" (recorded now)."""


def install(lang: str, sha256: str | None = None, progress: Progress | None = None,
            url: str | None = None) -> Installed:
    """Download, verify and unpack the model for `lang` (see the module's trust on first use)."""
    spec = spec_for(lang)
    target = models_dir() / spec.name
    if is_model(target):
        return Installed(target)
    trusted = read_trusted().get(spec.name, {})
    expected, source = _expected_sum(spec, sha256, trusted)
    models_dir().mkdir(parents=True, exist_ok=True)
    part = models_dir() / f"{spec.name}.zip.part"
    download(url or spec.url, part, progress)
    digest = file_sha256(part)
    if expected and digest != expected:
        part.unlink()
        raise ModelError(f"the downloaded {spec.name} archive has sha256 {digest}, expected {expected} ({source}); "
                         "it was deleted: try again, or check the URL (and --sha256)")
    if not expected:
        _check_size(spec, part)
    files = unpack(part, target)
    if not expected or sha256:
        record_trusted(spec.name, {"sha256": digest, "size": part.stat().st_size, "url": url or spec.url,
                                   "files": files})
    part.unlink()
    return Installed(target, digest, "checked" if expected else "first use")


def _expected_sum(spec: ModelSpec, given: str | None, trusted: Mapping[str, object]) -> tuple[str, str]:
    """The sha256 the archive must have, and where it comes from ("" when this is its first use)."""
    if given:
        return given.lower(), "given with --sha256"
    if spec.sha256:
        return spec.sha256.lower(), f"the model index {index_path()}"
    recorded = trusted.get("sha256")
    if isinstance(recorded, str) and recorded:  # (read_trusted refuses a sha256 that is no text)
        return recorded, f"recorded at its first download in {trusted_path()}"
    return "", ""


def _check_size(spec: ModelSpec, part: Path) -> None:
    """A first download must be about the size the index says (not an error page, not a cut file)."""
    size_mb = part.stat().st_size / 1e6
    if spec.size_mb and abs(size_mb - spec.size_mb) > SIZE_SLACK * spec.size_mb:
        part.unlink()
        raise ModelError(f"the downloaded {spec.name} archive is {size_mb:.1f} MB, but the model is about "
                         f"{spec.size_mb:g} MB; it was deleted: check the URL (a login page of the network?)")


def trusted_path() -> Path:
    return models_dir() / "trusted.toml"


def read_trusted() -> dict[str, dict[str, object]]:
    """Model name → what its first download was (sha256, size, url, files).

    The file is the table's to edit: an entry that is no table, or whose sha256 is no text,
    is one line naming the fix (it was a traceback), never trusted as "no record"."""
    try:
        data = home.read_bounded(trusted_path(), home.MAX_KEPT_BYTES)
        entries = {} if data is None else tomllib.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as err:  # DamagedFile, not UTF-8, not TOML
        raise ModelError(f"{trusted_path()} cannot be read ({err}); fix it, or remove it to trust the next "
                         "download anew") from None
    for name, entry in entries.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256", ""), str):
            raise ModelError(f"{trusted_path()}: the entry of {name} is not a [table] with a sha256 text; fix it, "
                             "or remove the entry to trust that model's next download anew")
    return entries


def record_trusted(name: str, entry: Mapping[str, object]) -> None:
    """Add or replace `name` in the trust file, written whole (temp file + rename)."""
    entries = {**read_trusted(), name: entry}
    lines = ["# Models trusted on first use: a later download must have the same sha256.",
             "# Remove an entry to trust that model's next download anew."]
    for model, fields in sorted(entries.items()):
        lines.append(f"\n[{json.dumps(model)}]")
        lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in fields.items()]
    try:
        home.write_atomic(trusted_path(), "\n".join(lines) + "\n", mode=0o644)
    except OSError as err:
        raise ModelError(f"cannot write {trusted_path()} ({err.strerror}); free some space or make it "
                         "writable") from None


def download(url: str, part: Path, progress: Progress | None = None, timeout: float = 30) -> None:
    """Fetch `url` into `part`, continuing a partial file when the server allows it."""
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        if err.code == 416 and have:  # the part is already whole
            return
        raise ModelError(f"cannot download {url}: HTTP {err.code}; check the URL in the model index") from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        raise ModelError(f"cannot download {url} ({reason}); check the network, then run the install again") from None
    with response:
        if response.status == 206:
            total = _total_from_range(response.headers.get("Content-Range"))
            mode = "ab"
        else:  # 200: the server sent everything, so start over
            have, mode = 0, "wb"
            length = response.headers.get("Content-Length")
            total = int(length) if length else None
        try:
            with part.open(mode) as out:
                while block := response.read(BLOCK):
                    out.write(block)
                    have += len(block)
                    if progress:
                        progress(have, total)
        except (OSError, http.client.HTTPException) as err:
            raise ModelError(f"download of {url} stopped at {have} bytes ({err}); run the install again to "
                             "continue it") from None
    if total is not None and have < total:
        raise ModelError(f"download of {url} stopped at {have} of {total} bytes; run the install again to continue it")


def _total_from_range(header: str | None) -> int | None:
    if header and "/" in header and not header.endswith("*"):
        return int(header.rsplit("/", 1)[1])
    return None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(BLOCK * 16):
            digest.update(block)
    return digest.hexdigest()


def unpack(archive: Path, target: Path) -> list[str]:
    """Unzip `archive` so `target` appears whole or not at all; returns the model's file list."""
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        try:
            with zipfile.ZipFile(archive) as z:
                bad = z.testzip()
                if bad is not None:
                    raise ModelError(f"{archive.name} is damaged ({bad} fails its CRC); delete it and install again")
                for member in z.namelist():
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise ModelError(f"{archive.name} holds an unsafe path {member!r}; refusing to unpack it")
                z.extractall(staging)
        except zipfile.BadZipFile:
            raise ModelError(f"{archive.name} is not a zip archive; check the model URL") from None
        root = _model_root(staging)
        if root is None:
            raise ModelError(f"{archive.name} does not contain a vosk model (no am/ and conf/)")
        files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
        lacking = missing_model_files(files)
        if lacking:
            raise ModelError(f"{archive.name} is not a whole vosk model (it lacks {', '.join(lacking)})")
        os.replace(root, target)
        return files
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def missing_model_files(files: list[str]) -> list[str]:
    """What a vosk model needs that `files` lacks: the acoustic model, its config, a graph."""
    have = set(files)
    lacking = [name for name in ("am/final.mdl", "conf/model.conf") if name not in have]
    if "graph/HCLG.fst" not in have and not {"graph/HCLr.fst", "graph/Gr.fst"} <= have:
        lacking.append("graph/HCLG.fst or graph/HCLr.fst with graph/Gr.fst")
    return lacking


def _model_root(folder: Path) -> Path | None:
    if is_model(folder):
        return folder
    subdirs = [p for p in folder.iterdir() if p.is_dir()]
    return subdirs[0] if len(subdirs) == 1 and is_model(subdirs[0]) else None
