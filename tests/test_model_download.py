"""`narrator models install` against a real HTTP server on 127.0.0.1 serving a zipped model.

The official host cannot be reached from CI, so the model index (URL, checksum) points at
a local server that can drop a connection half-way or ignore Range requests, to show that
a partial download is resumed or restarted, a wrong checksum is refused, and no
half-unpacked model is ever left where a game would look for it.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import shutil
import threading
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.sound.doctor import command_name
from narrator.inputs.voice import models
from narrator.inputs.voice.models import (ModelError, find_model, install, installed_models, models_dir, read_trusted)

NAME = "vosk-model-test-0.1"


class ModelServer:
    """Serves one archive; can cut the first response short or ignore Range headers."""

    def __init__(self, payload: bytes, cut_first_at: int | None = None, honour_range: bool = True):
        self.payload, self.cut_first_at, self.honour_range = payload, cut_first_at, honour_range
        self.requests: list[str | None] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                rng = self.headers.get("Range")
                server.requests.append(rng)
                start = int(rng.split("=")[1].split("-")[0]) if rng and server.honour_range else 0
                if start >= len(server.payload):
                    self.send_response(416)
                    self.end_headers()
                    return
                body = server.payload[start:]
                self.send_response(206 if start else 200)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(server.payload) - 1}/{len(server.payload)}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if server.cut_first_at is not None and len(server.requests) == 1:
                    self.wfile.write(body[:server.cut_first_at])
                    self.wfile.flush()
                    self.connection.shutdown(2)
                    return
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/{NAME}.zip"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def model_zip(tmp_path: Path, with_model: bool = True, with_graph: bool = True) -> bytes:
    """A zipped model folder like the official ones (a top folder holding am/, conf/, graph/)."""
    archive = tmp_path / "model.zip"
    rng = os.urandom
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        if with_model:
            z.writestr(f"{NAME}/am/final.mdl", rng(300_000))
            z.writestr(f"{NAME}/conf/model.conf", "--sample-frequency=16000\n")
        z.writestr(f"{NAME}/graph/HCLr.fst", rng(100_000))
        if with_graph:
            z.writestr(f"{NAME}/graph/Gr.fst", rng(20_000))
        z.writestr(f"{NAME}/README", "test model\n")
    return archive.read_bytes()


@pytest.fixture
def serve(tmp_path, monkeypatch):
    servers = []

    def start(payload: bytes, sha256: str | None = None, size_mb: float | None = None, **kwargs) -> ModelServer:
        server = ModelServer(payload, **kwargs)
        servers.append(server)
        digest = hashlib.sha256(payload).hexdigest() if sha256 is None else sha256
        index = tmp_path / "models.toml"
        size = f"size_mb = {size_mb}\n" if size_mb else ""
        index.write_text(f'[test]\nname = "{NAME}"\nurl = "{server.url}"\nsha256 = "{digest}"\n{size}', encoding="utf-8")
        monkeypatch.setenv("NARRATOR_MODEL_INDEX", str(index))
        return server

    yield start
    for server in servers:
        server.close()


def leftovers() -> list[str]:
    """Anything in the models folder besides whole models."""
    if not models_dir().exists():
        return []
    return sorted(p.name for p in models_dir().iterdir() if p.name not in (NAME, "trusted.toml"))


def test_install_downloads_with_progress_verifies_and_unpacks(serve, tmp_path):
    payload = model_zip(tmp_path)
    serve(payload)
    seen = []
    folder = install("test", progress=lambda done, total: seen.append((done, total))).folder
    assert folder == models_dir() / NAME and (folder / "am" / "final.mdl").stat().st_size == 300_000
    assert seen[-1] == (len(payload), len(payload)) and len(seen) > 3
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert leftovers() == []
    assert find_model("test") == folder and installed_models() == [folder]


def test_a_checksum_mismatch_is_refused_and_nothing_is_left(serve, tmp_path):
    serve(model_zip(tmp_path), sha256="0" * 64)
    with pytest.raises(ModelError, match="expected 0000"):
        install("test")
    assert not (models_dir() / NAME).exists() and leftovers() == []


def test_a_dropped_download_is_resumed_with_a_range_request(serve, tmp_path):
    payload = model_zip(tmp_path)
    server = serve(payload, cut_first_at=150_000)
    with pytest.raises(ModelError, match="run the install again"):
        install("test")
    part = models_dir() / f"{NAME}.zip.part"
    assert part.stat().st_size == 150_000 and not (models_dir() / NAME).exists()
    folder = install("test").folder
    assert server.requests == [None, "bytes=150000-"]
    assert (folder / "graph" / "HCLr.fst").is_file() and leftovers() == []


def test_a_server_that_ignores_range_makes_the_download_start_over(serve, tmp_path):
    payload = model_zip(tmp_path)
    server = serve(payload, cut_first_at=150_000, honour_range=False)
    with pytest.raises(ModelError):
        install("test")
    folder = install("test").folder
    assert server.requests == [None, "bytes=150000-"]  # asked to resume, got the whole file: restarted
    assert (folder / "am" / "final.mdl").stat().st_size == 300_000 and leftovers() == []


def test_an_archive_without_a_model_is_not_unpacked(serve, tmp_path):
    serve(model_zip(tmp_path, with_model=False))
    with pytest.raises(ModelError, match="does not contain a vosk model"):
        install("test")
    assert not (models_dir() / NAME).exists()
    assert [p for p in leftovers() if not p.endswith(".zip.part")] == []  # no staging folder left


def test_an_archive_without_a_whole_model_is_refused(serve, tmp_path):
    serve(model_zip(tmp_path, with_graph=False))
    with pytest.raises(ModelError, match="lacks graph/HCLG.fst or graph/HCLr.fst with graph/Gr.fst"):
        install("test")
    assert not (models_dir() / NAME).exists()


def test_first_use_records_the_sum_size_and_files(serve, tmp_path):
    payload = model_zip(tmp_path)
    serve(payload, sha256="")
    done = install("test")
    assert done.trust == "first use" and done.sha256 == hashlib.sha256(payload).hexdigest()
    entry = read_trusted()[NAME]
    assert entry["sha256"] == done.sha256 and entry["size"] == len(payload)
    assert entry["files"] == ["README", "am/final.mdl", "conf/model.conf", "graph/Gr.fst", "graph/HCLr.fst"]


def test_a_later_download_must_match_the_first(serve, tmp_path, monkeypatch):
    first = model_zip(tmp_path)
    serve(first, sha256="")
    install("test")
    shutil.rmtree(models_dir() / NAME)
    serve(model_zip(tmp_path), sha256="")  # same layout, other bytes: a swapped archive
    with pytest.raises(ModelError, match="recorded at its first download"):
        install("test")
    assert not (models_dir() / NAME).exists() and leftovers() == []
    # the protection is what refuses it: without the recorded sum the swapped archive goes in
    monkeypatch.setattr(models, "read_trusted", lambda: {})
    assert install("test").trust == "first use"


def test_the_same_archive_again_is_checked_against_the_record(serve, tmp_path):
    payload = model_zip(tmp_path)
    serve(payload, sha256="")
    install("test")
    shutil.rmtree(models_dir() / NAME)
    serve(payload, sha256="")
    assert install("test").trust == "checked"


def test_a_first_download_of_the_wrong_size_is_refused(serve, tmp_path):
    serve(model_zip(tmp_path), sha256="", size_mb=48)  # about 0.4 MB arrives: a login page, a cut file
    with pytest.raises(ModelError, match="0.4 MB, but the model is about 48 MB"):
        install("test")
    assert not (models_dir() / NAME).exists() and NAME not in read_trusted() and leftovers() == []


def test_sha256_overrides_the_record(serve, tmp_path):
    serve(model_zip(tmp_path), sha256="")
    install("test")
    shutil.rmtree(models_dir() / NAME)
    newer = model_zip(tmp_path)
    serve(newer, sha256="")
    digest = hashlib.sha256(newer).hexdigest()
    assert install("test", sha256=digest).trust == "checked"
    assert read_trusted()[NAME]["sha256"] == digest


def test_cli_install_and_list(serve, tmp_path):
    serve(model_zip(tmp_path))
    runner = CliRunner()
    before = runner.invoke(main, ["models", "list"])
    assert f"available  {NAME}  ({command_name()} models install test)" in before.output
    result = runner.invoke(main, ["models", "install", "test"])
    assert result.exit_code == 0, result.output
    assert f"model for test ready in {models_dir() / NAME}" in result.output
    assert "downloading" in result.stderr and "sha256" in result.stderr
    after = runner.invoke(main, ["models", "list"])
    assert f"installed  {NAME}" in after.output


def test_cli_unreachable_host_is_one_line(monkeypatch, tmp_path):
    index = tmp_path / "models.toml"
    index.write_text(f'[test]\nname = "{NAME}"\nurl = "http://127.0.0.1:9/x.zip"\nsha256 = "{"a" * 64}"\n')
    monkeypatch.setenv("NARRATOR_MODEL_INDEX", str(index))
    result = CliRunner().invoke(main, ["models", "install", "test"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: cannot download http://127.0.0.1:9/x.zip") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("entry", ['"abc"', '{ sha256 = 5 }'])
def test_a_hand_edited_trust_entry_is_one_line_naming_the_fix(serve, tmp_path, entry):
    """An entry of trusted.toml that is no table (or whose sha256 is no text) was a traceback
    (`'str' object has no attribute 'get'`); it is one line, and the download is not trusted anew."""
    serve(model_zip(tmp_path), sha256="")
    models_dir().mkdir(parents=True, exist_ok=True)
    (models_dir() / "trusted.toml").write_text(f'"{NAME}" = {entry}\n', encoding="utf-8")
    with pytest.raises(ModelError, match=f"the entry of {NAME} is not a \\[table\\] with a sha256 text; fix it"):
        install("test")
    assert not (models_dir() / NAME).exists()
    result = CliRunner().invoke(main, ["models", "install", "test"])
    assert result.exit_code != 0 and "Traceback" not in result.output and "fix it" in result.output
