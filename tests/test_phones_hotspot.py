"""The appliance's own Wi-Fi (NetworkManager hotspot) with a stand-in `nmcli` that logs its calls.

What this machine cannot test: a real NetworkManager bringing up a real access point on a
Wi-Fi chip (there is none here).
"""

import json
import os
import stat
import sys

import pytest
from click.testing import CliRunner

from narrator.appliance import hotspot
from narrator.cli import main


def fake_nmcli(tmp_path, running=True, refuse_add=False):
    log = tmp_path / "nmcli.log"
    script = tmp_path / "bin" / "nmcli"
    script.parent.mkdir()
    script.write_text(f"""#!{sys.executable}
import json, sys
args = sys.argv[1:]
open({str(log)!r}, "a").write(json.dumps(args) + "\\n")
if args[:4] == ["-t", "-f", "RUNNING", "general"]:
    print({"running" if running else "asleep"!r}); sys.exit(0)
if args[:2] == ["connection", "add"] and {refuse_add!r}:
    print("Error: device wlan0 not found", file=sys.stderr); sys.exit(10)
sys.exit(0)
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script.parent, log


def calls(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_hotspot_on_adds_a_wpa2_access_point_and_prints_its_password_once(tmp_path, monkeypatch, narrator_home):
    bin_dir, log = fake_nmcli(tmp_path)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = CliRunner().invoke(main, ["config", "hotspot", "on"])
    assert result.exit_code == 0, result.output
    add = next(c for c in calls(log) if c[:2] == ["connection", "add"])
    fields = dict(zip(add[2::2], add[3::2]))
    assert fields["802-11-wireless.mode"] == "ap" and fields["wifi-sec.key-mgmt"] == "wpa-psk"
    assert fields["ipv4.method"] == "shared" and fields["autoconnect"] == "yes" and fields["ifname"] == "wlan0"
    assert fields["ssid"] in result.output and fields["wifi-sec.psk"] in result.output
    assert len(fields["wifi-sec.psk"]) == 16 and calls(log)[-1] == ["connection", "up", hotspot.CONNECTION]
    again = CliRunner().invoke(main, ["config", "hotspot", "on"])
    assert again.exit_code == 0, again.output
    second = [c for c in calls(log) if c[:2] == ["connection", "add"]][-1]
    assert dict(zip(second[2::2], second[3::2]))["wifi-sec.psk"] != fields["wifi-sec.psk"]  # random each time
    off = CliRunner().invoke(main, ["config", "hotspot", "off"])
    assert off.exit_code == 0 and calls(log)[-1] == ["connection", "delete", hotspot.CONNECTION]


@pytest.mark.parametrize("case", ["missing", "asleep", "refused"])
def test_hotspot_refusals_are_one_line(tmp_path, monkeypatch, narrator_home, case):
    if case == "missing":
        monkeypatch.setenv("PATH", str(tmp_path / "empty"))
        monkeypatch.setattr(hotspot.shutil, "which", lambda name: None)
    else:
        bin_dir, _ = fake_nmcli(tmp_path, running=case != "asleep", refuse_add=case == "refused")
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = CliRunner().invoke(main, ["config", "hotspot", "on"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    expected = {"missing": "not installed", "asleep": "not running", "refused": "nmcli refused"}[case]
    assert expected in result.output and len(result.output.strip().splitlines()) == 1
