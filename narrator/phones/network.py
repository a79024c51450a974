"""Where the phone page listens, the address the narrator announces and the names it answers to.

By default the server binds the machine's local network interface (the address a UDP
socket would use to leave the machine; nothing is sent), not every interface; a table
file can say `host = "127.0.0.1"` for this machine only, or any address. The announced
address uses the machine's `.local` name where mDNS (avahi) answers for it, else its IP.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TextIO

AVAHI_PID = Path("/run/avahi-daemon/pid")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def lan_ip() -> str | None:
    """This machine's address on the local network, or None when it has none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # a UDP connect sends nothing
        ip = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if ip.startswith("127.") else ip


def mdns_name() -> str | None:
    """`<hostname>.local` when avahi runs here, so phones can find the Pi by name."""
    if not AVAHI_PID.exists():
        return None
    name = socket.gethostname().split(".")[0]
    return f"{name}.local" if name else None


def bind_host(configured: str | None) -> str:
    """The address to listen on: the table's choice, else the local network interface."""
    if configured:
        return configured
    return lan_ip() or "127.0.0.1"


def join_url(host: str, port: int) -> str:
    """The address players type or scan."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_ip() or "127.0.0.1"
    if host not in LOOPBACK:
        host = mdns_name() or host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def own_names(host: str) -> set[str]:
    """The names a phone may use for a page bound to `host`: both pages answer to these alone
    (their Host header), so a page elsewhere that points a name of its own at this machine
    (DNS rebinding) gets 421 and no seat."""
    names = {host.lower()}
    if host in ("0.0.0.0", "::", ""):
        names |= {n for n in (lan_ip(), "127.0.0.1", "localhost") if n}
    if host in ("127.0.0.1", "::1"):
        names.add("localhost")
    if host not in LOOPBACK:
        names |= {n for n in (mdns_name(),) if n}
    return {f"[{n}]" if ":" in n else n for n in names}


def spoken_address(url: str) -> str:
    """The address as the narrator says it: without the scheme and the trailing slash."""
    return url.removeprefix("http://").rstrip("/")


def show_qr(url: str, stream: TextIO | None = None) -> bool:
    """Print the address and, on a terminal, a QR code of it; True when a code was drawn."""
    stream = stream or sys.stderr
    print(f"phones: open {url}", file=stream, flush=True)
    if not stream.isatty():
        return False
    import segno

    segno.make(url, error="m").terminal(out=stream, compact=True)
    return True
