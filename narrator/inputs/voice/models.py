"""Recognition models: where they live, and installing one safely before a game.

Models live in `<app home>/models/<name>/`. `install` downloads the archive into
`<name>.zip.part` (resuming with an HTTP Range request when a part is already there, and
starting over when the server ignores it), checks its sha256, unpacks into a temporary
folder beside the target, checks that it is a model, and only then renames it into place:
an interrupted install never leaves a half-unpacked model that a game would try to load.
Nothing here runs during a game; a game only looks models up.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import shutil
import tempfile
import tomllib
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from narrator import home
from narrator.errors import NarratorError

BUNDLED_INDEX = Path(__file__).with_name("models.toml")
BLOCK = 1 << 16


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
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
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
            raise ModelError(f"{folder} is not a vosk model folder (no am/ and conf/); check --model")
        return folder
    name = spec_for(lang).name if lang in model_index() else None
    folder = models_dir() / name if name else None
    if folder is None or not is_model(folder):
        raise ModelError(f"no speech model for '{lang}' in {models_dir()}; install one with "
                         f"`narrator models install {lang}` (or give a model folder with --model)")
    return folder


Progress = Callable[[int, int | None], None]
"""progress(bytes so far, total bytes or None)."""


def install(lang: str, sha256: str | None = None, verify: bool = True, progress: Progress | None = None,
            url: str | None = None) -> Path:
    """Download, verify and unpack the model for `lang`; returns its folder."""
    spec = spec_for(lang)
    expected = (sha256 or spec.sha256).lower()
    if verify and not expected:
        raise ModelError(f"no checksum is configured for the {lang} model; pass --sha256 HEX from the model's "
                         f"download page (or --no-checksum to install unverified)")
    target = models_dir() / spec.name
    if is_model(target):
        return target
    models_dir().mkdir(parents=True, exist_ok=True)
    part = models_dir() / f"{spec.name}.zip.part"
    download(url or spec.url, part, progress)
    digest = file_sha256(part)
    if verify and digest != expected:
        part.unlink()
        raise ModelError(f"the downloaded {spec.name} archive has sha256 {digest}, expected {expected}; "
                         "it was deleted: try again, or check the URL and checksum in the model index")
    unpack(part, target)
    part.unlink()
    return target


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


def unpack(archive: Path, target: Path) -> None:
    """Unzip `archive` so `target` appears whole or not at all."""
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
        os.replace(root, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _model_root(folder: Path) -> Path | None:
    if is_model(folder):
        return folder
    subdirs = [p for p in folder.iterdir() if p.is_dir()]
    return subdirs[0] if len(subdirs) == 1 and is_model(subdirs[0]) else None
