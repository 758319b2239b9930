"""Each board backend type-checks against its own port's stubs (tools/typecheck_boards.py).

mypy, with MicroPython 1.29's rp2 and esp32 stubs and CircuitPython 10's, as pinned in
hardware/stubs/. The stubs are installed once into .cache/stubs/ and reused. A wrong
call must fail: each negative test copies a backend with one slip into tmp_path and
checks the copy with the same stubs. The network is needed only for the first install;
without it these tests skip (and say so), never pass.
"""

import importlib.util
import os
import subprocess

import pytest
from conftest import ROOT

_spec = importlib.util.spec_from_file_location("typecheck_boards", ROOT / "tools" / "typecheck_boards.py")
tc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tc)

# what pip says when it cannot reach the index at all (as opposed to a bad pin)
_OFFLINE = ("Failed to establish a new connection", "Temporary failure in name resolution",
            "Network is unreachable", "NewConnectionError", "ConnectTimeoutError", "ReadTimeoutError")


@pytest.fixture(scope="module")
def stubs():
    for port in sorted({b.port for b in tc.BACKENDS.values()}):
        try:
            tc.ensure_stubs(port, log=lambda *_: None)
        except tc.StubInstallError as e:
            if any(s in e.output for s in _OFFLINE):
                pytest.skip("the %s stubs cannot be installed: the package index is unreachable" % port)
            raise AssertionError("%s\n%s" % (e, e.output))


@pytest.mark.parametrize("backend", sorted(tc.BACKENDS))
@pytest.mark.usefixtures("stubs")
def test_backend_holds_to_its_ports_api(backend):
    ok, output = tc.check(backend, log=lambda *_: None)
    assert ok, output


def slipped(tmp_path, source, old, new):
    """A copy of `source` (relative to the root) in tmp_path with `old` replaced by
    `new`, and the line it is on."""
    text = (ROOT / source).read_text()
    assert text.count(old) == 1, "%r is no longer in %s once: update this test" % (old, source)
    copy = tmp_path / (ROOT / source).name
    copy.write_text(text.replace(old, new))
    return copy, text[: text.index(old)].count("\n") + 1


SLIPS = [
    # a misspelled keyword to machine.Pin
    ("rp2", "firmware/board/mpboard.py", "Pin(p, Pin.IN, pull)", "Pin(p, Pin.IN, pul=pull)",
     'Unexpected keyword argument "pul"'),
    # a method MicroPython's neopixel driver does not have
    ("esp32", "firmware/board/mpboard.py", "            strip.write()", "            strip.wrte()",
     '"NeoPixel" has no attribute "wrte"'),
    # CircuitPython's busio.I2C spelling on MicroPython's machine.I2C
    ("rp2", "firmware/board/oled.py", 'freq=bus.get("freq", 400000)', 'frequency=bus.get("freq", 400000)',
     'Unexpected keyword argument "frequency"'),
    # ... and MicroPython's on CircuitPython's
    ("circuitpy", "firmware/board/circuitpy.py", 'frequency=bus.get("freq", 400000)', 'freq=bus.get("freq", 400000)',
     'Unexpected keyword argument "freq"'),
    # a method Adafruit's NeoPixel does not have
    ("circuitpy", "firmware/board/circuitpy.py", "px.show()", "px.shw()", '"NeoPixel" has no attribute "shw"'),
    # a digitalio property given a string instead of a digitalio.Pull
    ("circuitpy", "firmware/board/circuitpy.py", "digitalio.Pull.UP if up", '"up" if up',
     'variable has type "Pull | None"'),
]


@pytest.mark.parametrize("backend, source, old, new, message", SLIPS, ids=[s[4] for s in SLIPS])
@pytest.mark.usefixtures("stubs")
def test_a_wrong_call_fails(tmp_path, backend, source, old, new, message):
    copy, line = slipped(tmp_path, source, old, new)
    ok, output = tc.check(backend, [copy], log=lambda *_: None)
    assert not ok, output
    errors = [ln for ln in output.splitlines() if ln.startswith("%s:%d: error:" % (copy, line))]
    assert errors and message in errors[0], output


@pytest.mark.usefixtures("stubs")
def test_rp2_and_esp32_each_see_only_their_own_machine(tmp_path):
    # Pin.WAKE_LOW is the esp32 port's alone
    copy, line = slipped(tmp_path, "firmware/board/mpboard.py", "else Pin.PULL_DOWN", "else Pin.WAKE_LOW")
    assert tc.check("esp32", [copy], log=lambda *_: None) == (True, "")
    ok, output = tc.check("rp2", [copy], log=lambda *_: None)
    assert not ok and '%s:%d: error: "type[Pin]" has no attribute "WAKE_LOW"' % (copy, line) in output, output


@pytest.mark.parametrize("backend, source, missing", [
    ("rp2", "firmware/board/circuitpy.py", "board"),
    ("circuitpy", "firmware/board/mpboard.py", "machine"),
])
@pytest.mark.usefixtures("stubs")
def test_a_backend_checked_with_another_ports_stubs_fails(tmp_path, backend, source, missing):
    copy = tmp_path / (ROOT / source).name
    copy.write_text((ROOT / source).read_text())
    ok, output = tc.check(backend, [copy], log=lambda *_: None)
    assert not ok and 'Cannot find implementation or library stub for module named "%s"' % missing in output, output


def test_stubs_are_installed_again_only_when_their_pins_change(tmp_path, monkeypatch):
    monkeypatch.setattr(tc, "CACHE", tmp_path)
    installs = []

    def pip(cmd, **kwargs):  # stands in for pip: lays out a stub-only package as pip would
        installs.append(cmd)
        os.makedirs(os.path.join(cmd[cmd.index("--target") + 1], "board-stubs"))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(tc.subprocess, "run", pip)
    where = tc.ensure_stubs("circuitpy", log=lambda *_: None)
    assert len(installs) == 1 and "--no-deps" in installs[0]
    assert (where / "board").is_dir() and not (where / "board-stubs").exists()  # found through mypy_path
    tc.ensure_stubs("circuitpy", log=lambda *_: None)
    assert len(installs) == 1  # up to date: not installed again
    (where / ".installed").write_text("the digest of other pins\n")
    tc.ensure_stubs("circuitpy", log=lambda *_: None)
    assert len(installs) == 2
