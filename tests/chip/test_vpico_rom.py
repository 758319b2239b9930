"""The board's code in flash, on the emulated chip: the builder's one UF2 booting a blank Pico, `chancery
deploy` rewriting the ROMFS partition (only the blocks that changed; a cut in the middle of it loses
nothing), and a stock firmware with no partition still taking its .mpy on its filesystem.

Needs a MicroPython firmware for RPI_PICO built with a ROMFS partition (MICROPY_HW_ROMFS_BYTES;
docs/firmware-image.md) as CHANCERY_PICO_UF2, and for the last test a stock one (no partition) as
CHANCERY_PICO_STOCK_UF2; each test skips, saying which, where its firmware is absent (as in CI).
The format side of all this runs everywhere: tests/chip/test_firmware_image.py.
"""

import os
import subprocess
import sys
import time

import pytest
from chip_checks import expected_frame, pin_map
from chip_player import ChipTable
from conftest import UF2, needs_uf2

from chancery.deploy import flash, rom, uf2
from chancery.vpico import VirtualPico, image
from shared_rules import engine

pytestmark = needs_uf2

CHANCERY = os.path.join(os.path.dirname(sys.executable), "chancery")
STOCK = os.environ.get("CHANCERY_PICO_STOCK_UF2")


def _has_romfs(path):
    return path is not None and uf2.has_romfs(path)


needs_romfs = pytest.mark.skipif(not _has_romfs(UF2), reason="CHANCERY_PICO_UF2 (%s) has no ROMFS partition: build "
                                 "MicroPython with MICROPY_HW_ROMFS_BYTES (docs/firmware-image.md)" % UF2)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("product")
    out = folder / "chancery-rpi-pico.uf2"
    run = subprocess.run([CHANCERY, "firmware", "--base", UF2, "--board", "rpi-pico", "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


@needs_romfs
def test_a_blank_pico_flashed_with_the_one_file_boots_into_a_playing_chancellors_board(made, tmp_path):
    flash_img = image.flash_uf2(str(tmp_path / "flash.img"), str(made))  # BOOTSEL, drag, drop
    with VirtualPico(flash=flash_img, pace="free") as vp:
        first = vp.wait_frame(timeout=120)
        table = ChipTable(vp, str(tmp_path))
        try:
            welcome = table.link.mirror.welcome
            assert welcome["game"] == "chancellors"
            match = engine.new_match("chancellors", welcome["settings"], welcome["seed"])
            view = engine.game_module("chancellors").view(match["state"], None)
            assert first.data == expected_frame("chancellors", view, pin_map())
            table.act({"type": "roll", "values": [3, 4, 1, 6, 2, 2, 5, 1, 4, 3], "source": "manual"})
            assert len(table.link.mirror.match["entries"]) == 1
        finally:
            table.close()


@needs_romfs
def test_deploy_rewrites_only_the_changed_blocks_and_a_cut_in_the_middle_loses_nothing(made, tmp_path, monkeypatch):
    flash_img = image.flash_uf2(str(tmp_path / "flash.img"), str(made))
    said = []
    with VirtualPico(flash=flash_img, pace="free") as vp:
        table = ChipTable(vp, str(tmp_path))
        table.act({"type": "roll", "values": [3, 4, 1, 6, 2, 2, 5, 1, 4, 3], "source": "manual"})
        entries = len(table.link.mirror.match["entries"])
        table.close()

        # the same build: nothing written
        flash.deploy(vp.port, "rpi-pico", say=said.append)
        assert [s for s in said if "0 of its" in s and "blocks to write" in s], said
        assert not [s for s in said if s.startswith("ROMFS: wrote")], said

        # one module more in the image (as a changed module would be): the blocks from it on, block 0 last
        real = flash.rom_image

        def with_one_more(in_rom, part=None):
            extra = tmp_path / "probe.txt"
            extra.write_bytes(b"a module changed\n" * 40)
            return real(dict(in_rom, **{"lib/firmware/probe.txt": str(extra)}), part)

        monkeypatch.setattr(flash, "rom_image", with_one_more)
        said.clear()
        vp.arm_cut(during="program", skip=20)  # the power goes in the middle of the image's write
        began = time.monotonic()
        try:
            flash.deploy(vp.port, "rpi-pico", say=said.append)
        except flash.DeployError:
            pass
        assert vp.cuts, "the cut did not come during the deploy: %s" % said
        vp.boot()  # a board with no whole image: it must not run half of one, and its journal is there

        said.clear()
        flash.deploy(vp.port, "rpi-pico", say=said.append)
        wrote = [s for s in said if s.startswith("ROMFS: wrote")]
        assert wrote, said
        blocks = int(wrote[0].split()[4])
        total = -(-len(with_one_more(flash.rom_split(flash.stage(str(tmp_path / "s"), "rpi-pico", "mpy",
                                                                   rom=True))[0])) // 4096)
        assert blocks < total, "every block was written again: %s" % said
        print("one module changed, after a cut: %s (%.1f s wall)" % (wrote[0], time.monotonic() - began))

        vp.wait_frame(after_ns=vp.resets[-1] if vp.resets else 0, timeout=120)
        table = ChipTable(vp, str(tmp_path / "after"))
        try:
            assert len(table.link.mirror.match["entries"]) == entries, "the journal lost an entry"
        finally:
            table.close()
        probe = "import os\nprint(os.stat('/rom/lib/firmware/probe.txt')[6])\n"
        with flash.Board(vp.port) as board:
            assert board.exec(probe).strip() == "680"
            part = rom.query(board)
            image_now = with_one_more(flash.rom_split(flash.stage(str(tmp_path / "t"), "rpi-pico", "mpy",
                                                                  rom=True))[0])
            assert rom.verify(board, part, image_now) == []


@pytest.mark.skipif(not STOCK or _has_romfs(STOCK), reason="CHANCERY_PICO_STOCK_UF2 names no stock MicroPython "
                    "RPI_PICO firmware (one without a ROMFS partition: micropython.org's release file)")
def test_a_stock_firmware_without_a_partition_takes_the_mpy_on_its_filesystem(tmp_path):
    with VirtualPico(flash=str(tmp_path / "flash.img"), uf2=STOCK, pace="free") as vp:
        run = subprocess.run([CHANCERY, "deploy", "--port", vp.port], capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stdout + run.stderr
        lines = run.stdout.splitlines()
        assert "no ROMFS partition" in lines[1], lines[:3]
        assert "copy   lib/firmware/table.mpy" in run.stdout, run.stdout
        vp.wait_frame(after_ns=vp.resets[-1] if vp.resets else 0, timeout=120)
        with flash.Board(vp.port) as board:
            assert "/lib/firmware/table.mpy" in board.exec("from firmware import table\nprint(table.__file__)\n")
