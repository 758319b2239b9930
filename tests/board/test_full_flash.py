"""A full flash (issue 44, part 4): the free-space check reads littlefs right, and a game that
fills the flash mid-play refuses the entry in words (flash_full), keeps everything, and plays on
once the host has pulled a kept game.

* MicroPython's littlefs over a RAM flash (tests/mp/full_flash.py), both journals: the raw flash
  log (a Pico's) and the file journal (an ESP32-S3's).
* CPython: littlefs's wrapped free count (a full littlefs can count more blocks in use than it
  has: MicroPython's unsigned f_bavail then reads about 2**32) is no room, and the refusal's words.
* The virtual Pico (where a firmware is given: CHANCERY_PICO_UF2): the raw log on the chip's own
  flash, through rp2.Flash() and the flash model.
"""

import json
import os

import paths
import pytest
from conftest import needs_uf2

from chancery.board import micropython as mp
from firmware.journal import Journal
from shared_rules import games
from shared_rules.errors import RuleError

ROOT = paths.ROOT


@pytest.mark.parametrize("kind", ["raw", "file"])
def test_a_game_that_fills_the_flash_is_refused_in_words_and_plays_on_once_a_kept_game_goes(
        firmware_build, micropython, tmp_path, kind):
    """(Fails with the journal's ENOSPC let through: the host hears `internal`, the pads `OSError`.)"""
    proc = mp.run_micropython(os.path.join(ROOT, "tests", "mp", "full_flash.py"), ["64", kind], heap="2M",
                              cwd=str(tmp_path), path=[firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    bsize, blocks, bfree, bavail = out["statvfs"]
    assert out["room"] is not None and 0 <= out["room"] <= blocks * bsize, out
    assert out["refused"] == ["error", "flash_full", {"why": "entry", "kept": 2}], out
    assert out["unchanged"] and out["resumed"], out  # nothing moved, on the table nor on flash
    assert out["pulled"] == 2 and out["again"] == "ok", out
    before, after, kind = out["count"]
    assert after == before + (1 if kind == "roll" else -1), out


@pytest.mark.parametrize("free", [4294967283, -1], ids=["wrapped", "negative"])
def test_an_overcounted_free_count_is_no_room(tmp_path, monkeypatch, free):
    """(Fails with f_bavail taken as it reads: about 16 TB free on a full flash where the port
    reads it unsigned, -4096 bytes on the chip's rp2 port.)"""
    real = os.statvfs

    def full(path):
        st = real(path)
        return (4096, 4096, 352, free, free) + tuple(st[5:])

    monkeypatch.setattr(os, "statvfs", full)
    assert Journal(str(tmp_path), 16, False).room() == 0


def test_a_full_flash_says_so_in_words():
    e = RuleError("flash_full", {"why": "entry", "kept": 3})
    words = games.message(e)
    assert "flash is full" in words and "3 finished games" in words and "not kept" in words


@needs_uf2
def test_on_the_chip_a_full_flash_is_refused_in_words_and_plays_on_once_a_kept_game_goes(tmp_path):
    """The same game on the virtual Pico, the journal's raw log programmed through rp2.Flash() into
    the flash model and littlefs as the firmware mounted it: the board's own flash fills.
    (Fails as the runner above does, with the journal's ENOSPC let through.)"""
    from chip_repl import mpremote

    from chancery.vpico import VirtualPico, image

    flash = str(tmp_path / "flash.img")
    image.deployed_image(flash)
    with VirtualPico(flash=flash, pace="free") as vp:
        mpremote(vp.port, "rm", ":main.py")  # the runner is the board's table
        said = mpremote(vp.port, "exec", "ARGS = ['0', 'raw', 'chip']",
                        "run", os.path.join(ROOT, "tests", "mp", "full_flash.py"), timeout=1500)
    out = json.loads(said.strip().splitlines()[-1])
    bsize, blocks, bfree, bavail = out["statvfs"]
    assert out["room"] is not None and 0 <= out["room"] <= blocks * bsize, out
    assert out["refused"] == ["error", "flash_full", {"why": "entry", "kept": 2}], out
    assert out["unchanged"] and out["resumed"], out
    assert out["pulled"] == 2 and out["again"] == "ok", out
