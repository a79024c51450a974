"""The appliance's own Wi-Fi: a hotspot only the table joins (NetworkManager).

The phone page is plain HTTP. On a shared Wi-Fi anyone who can spoof ARP can read its
traffic, cookies included; on the appliance's own access point only the players are on the
network. Where NetworkManager runs (Raspberry Pi OS Bookworm uses it), `narrator config
hotspot on` adds a WPA2 access point connection with a random SSID suffix and password
(printed once; the phones need it) that comes up at boot, sharing no uplink (`ipv4.method
shared` gives the phones addresses by DHCP); `narrator config hotspot off` removes it.
Everything goes through `nmcli`, run by `run` so tests can stand in for it.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
from dataclasses import dataclass
from typing import Callable, Sequence

from narrator.errors import NarratorError

CONNECTION = "narrator-hotspot"
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


class HotspotError(NarratorError):
    """NetworkManager is missing or refused the hotspot; the message says what to do."""


@dataclass(frozen=True)
class Hotspot:
    ssid: str
    password: str
    interface: str


def _run(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=60)


def new_hotspot(interface: str = "wlan0") -> Hotspot:
    """A fresh SSID (`narrator-` + 4 letters) and a 16-letter WPA2 password (80 bits)."""
    suffix = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4))
    password = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(16))
    return Hotspot(f"narrator-{suffix}", password, interface)


def add_commands(hotspot: Hotspot) -> list[list[str]]:
    """The nmcli calls that make `hotspot` and bring it up (and at every boot)."""
    return [
        ["nmcli", "connection", "delete", CONNECTION],
        ["nmcli", "connection", "add", "type", "wifi", "ifname", hotspot.interface, "con-name", CONNECTION,
         "autoconnect", "yes", "ssid", hotspot.ssid, "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
         "ipv4.method", "shared", "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", hotspot.password],
        ["nmcli", "connection", "up", CONNECTION],
    ]


def check_network_manager(run: Runner = _run) -> None:
    """Refuse with one line when nmcli is missing or NetworkManager is not running."""
    if shutil.which("nmcli") is None:
        raise HotspotError("the hotspot needs NetworkManager (nmcli), which is not installed here; "
                           "install network-manager or keep the table on a Wi-Fi only it uses")
    state = run(["nmcli", "-t", "-f", "RUNNING", "general"])
    if state.returncode != 0 or state.stdout.strip() != "running":
        raise HotspotError("NetworkManager is not running; start it (sudo systemctl start NetworkManager) "
                           "and try again")


def enable(interface: str = "wlan0", run: Runner = _run) -> Hotspot:
    """Make the appliance's own access point; returns it (its password is shown once)."""
    check_network_manager(run)
    hotspot = new_hotspot(interface)
    for i, args in enumerate(add_commands(hotspot)):
        done = run(args)
        if i > 0 and done.returncode != 0:  # deleting a connection that is not there may fail
            raise HotspotError(f"nmcli refused the hotspot ({(done.stderr or done.stdout).strip()[:200]}); "
                               f"is {interface} a Wi-Fi interface that can be an access point?")
    return hotspot


def disable(run: Runner = _run) -> bool:
    """Remove the hotspot; False when there was none."""
    check_network_manager(run)
    return run(["nmcli", "connection", "delete", CONNECTION]).returncode == 0
