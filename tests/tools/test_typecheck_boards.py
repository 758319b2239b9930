"""Each board backend type-checks against its own port's stubs (tools/typecheck_boards.py).

mypy, with MicroPython 1.29's rp2 and esp32 stubs and CircuitPython 10's, as pinned in
hardware/stubs/. The stubs are installed once into .cache/stubs/ and reused; `python3
run.py test` installs them before the tests. A wrong call must fail: each negative test
copies a backend with one slip into tmp_path and checks the copy with the same stubs. The
network is needed only for the first install; without it these tests skip, never pass,
and the run's summary says so in a section of its own (conftest.skip_loudly). Under CI
(the CI variable set: .ci/run sets it) they fail instead.
"""

import importlib.util
import os
import subprocess
import sys

import pytest
from conftest import ROOT, skip_loudly

_spec = importlib.util.spec_from_file_location("typecheck_boards", ROOT / "tools" / "typecheck_boards.py")
tc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tc)

# what pip says when it cannot reach the index at all (as opposed to a bad pin)
_OFFLINE = ("Failed to establish a new connection", "Temporary failure in name resolution",
            "Network is unreachable", "NewConnectionError", "ConnectTimeoutError", "ReadTimeoutError")


def stubs_or_skip():
    """Every port's stubs; without the network a loud skip, or under CI a failure."""
    try:
        tc.install_all(log=lambda *_: None)
    except tc.StubInstallError as e:
        if any(s in e.output for s in _OFFLINE) and not os.environ.get("CI"):
            skip_loudly("the %s stubs cannot be installed: the package index is unreachable, so the board "
                        "backends were not type-checked" % e.port)
        raise AssertionError("%s\n%s" % (e, e.output))


@pytest.fixture(scope="module")
def stubs():
    stubs_or_skip()


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
    ("rp2", "firmware/board/wiring.py", "Pin(p, Pin.IN, pull)", "Pin(p, Pin.IN, pul=pull)",
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
    # a keyword keypad.Keys does not take (digitalio's spelling of the pull)
    ("circuitpy", "firmware/board/circuitpy.py", "== 1, pull=True)", "== 1, pull_up=True)",
     'Unexpected keyword argument "pull_up" for "Keys"'),
    # the smart dice's BLE (the Pico W's frozen aioble): a keyword its Device.connect does not take
    ("rp2w", "firmware/board/ble_dice.py", "connect(timeout_ms=10000)", "connect(timeout=10000)",
     'Unexpected keyword argument "timeout" for "connect" of "Device"'),
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
    copy, line = slipped(tmp_path, "firmware/board/wiring.py", "else Pin.PULL_DOWN", "else Pin.WAKE_LOW")
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


OFFLINE_PIP = "ERROR: Could not install: NewConnectionError: Failed to establish a new connection"


def offline(port, log=None):
    raise tc.StubInstallError(port, OFFLINE_PIP)


def test_without_the_network_the_check_skips_and_the_summary_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(tc, "ensure_stubs", offline)
    with pytest.raises(pytest.skip.Exception, match="NOT CHECKED: the circuitpy stubs cannot be installed"):
        stubs_or_skip()
    # the summary: a run of its own, whose one test skips so, prints the section
    (tmp_path / "conftest.py").write_text(
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('chancery_conftest', %r)\n"
        "mod = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(mod)\n"
        "pytest_terminal_summary = mod.pytest_terminal_summary\n"
        "skip_loudly = mod.skip_loudly\n" % str(ROOT / "tests" / "conftest.py"))
    (tmp_path / "test_one.py").write_text(
        "from conftest import skip_loudly\n\n\ndef test_it():\n    skip_loudly('no stubs here')\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                          str(tmp_path / "test_one.py")], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "CHECKS THAT DID NOT RUN" in run.stdout, run.stdout
    assert "1 tests of test_one.py were SKIPPED: no stubs here" in run.stdout, run.stdout


def test_under_ci_the_check_never_skips(monkeypatch):
    monkeypatch.setenv("CI", "1")
    monkeypatch.setattr(tc, "ensure_stubs", offline)
    try:
        stubs_or_skip()
    except pytest.skip.Exception as e:  # a BaseException: left alone it would make this test a skip too
        pytest.fail("skipped under CI: %s" % e)
    except AssertionError as e:
        assert "could not install the circuitpy stubs" in str(e)
    else:
        pytest.fail("no stubs, and no failure")


def bootstrap():
    spec = importlib.util.spec_from_file_location("chancery_bootstrap", ROOT / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ci", [False, True])
def test_the_bootstrap_installs_the_stubs_before_the_tests(monkeypatch, capsys, ci):
    """`python3 run.py test`: the venv, then the stubs (tools/typecheck_boards.py --install-stubs),
    then pytest. If the stubs cannot be had it says so and goes on, or under CI stops (exit 2)."""
    boot = bootstrap()
    done = []
    monkeypatch.setattr(boot, "parallel", lambda args: [])  # its own test follows
    monkeypatch.setattr(boot, "ensure_environment", lambda: done.append("venv"))
    monkeypatch.setattr(boot, "run", lambda cmd, cwd=None: done.append(cmd[1:]))
    monkeypatch.setattr(boot.subprocess, "call", lambda cmd, **kw: done.append(cmd[1:]) or installed[0])
    if ci:
        monkeypatch.setenv("CI", "1")
    else:
        monkeypatch.delenv("CI", raising=False)
    installed = [0]
    boot.main(["test", "-q"])
    assert done == ["venv", [str(ROOT / "tools" / "typecheck_boards.py"), "--install-stubs"], ["-m", "pytest", "-q"]]
    done[:], installed[0] = [], 2
    if ci:
        with pytest.raises(SystemExit) as stop:
            boot.main(["test", "-q"])
        assert stop.value.code == 2 and len(done) == 2  # no tests without the type check
        assert "CI type-checks the boards" in capsys.readouterr().err
    else:
        boot.main(["test", "-q"])
        assert len(done) == 3 and "WARNING: the board type stubs could not be installed" in capsys.readouterr().err


def test_install_stubs_makes_every_ports_stubs_ready(capsys):
    code = tc.main(["--install-stubs"])
    out = capsys.readouterr()
    if code == 2 and not os.environ.get("CI") and any(s in out.err for s in _OFFLINE):
        skip_loudly("the stubs cannot be installed: the package index is unreachable")
    assert code == 0 and "the board stubs are ready" in out.out, out
    assert all((tc.stub_dir(port) / ".installed").is_file() for port in ("rp2", "rp2w", "esp32", "circuitpy"))


@pytest.mark.parametrize("cores, args, options", [
    (2, [], ["-n", "2", "--dist", "loadfile"]),
    (16, ["-x"], ["-n", "4", "--dist", "loadfile"]),
    (1, [], []),
    (None, [], []),
    (2, ["-n", "0"], []),
    (2, ["-n3"], []),
    (2, ["--numprocesses=3"], []),
    (2, ["-p", "no:xdist"], []),
])
def test_the_bootstrap_runs_the_tests_on_a_worker_per_core_unless_told(monkeypatch, cores, args, options):
    """`python3 run.py test`: pytest-xdist with a worker per core (up to four), a file per worker;
    none on one core, and none when the command line chooses (-n, -p no:xdist)."""
    boot = bootstrap()
    done = []
    monkeypatch.setattr(boot.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(boot, "ensure_environment", lambda: None)
    monkeypatch.setattr(boot, "ensure_board_stubs", lambda: None)
    monkeypatch.setattr(boot, "run", lambda cmd, cwd=None: done.append(cmd[1:]))
    boot.main(["test"] + args)
    assert done == [["-m", "pytest"] + options + args]
