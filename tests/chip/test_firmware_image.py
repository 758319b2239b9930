"""The board's code in flash, on CPython (always, in CI): the ROMFS image, the UF2 file, the deploy's plan.

- a ROMFS image of the board's modules reads back to the same files, and MicroPython itself (the
  unix port's vfs.VfsRom) mounts it and imports the firmware from it;
- `chancery firmware` writes a UF2 that keeps the base firmware's blocks byte for byte and adds
  the ROMFS image in the partition the firmware declares and a filesystem holding main.py; each
  block read back with this file's own reader of the UF2 format (not the writer's library);
- a base with no ROMFS partition, a file that is no UF2, another chip's UF2 are refused in words;
- the deploy writes only the ROMFS blocks that differ, the image's first block last.

The same on the emulated chip, booting the file and deploying into the partition:
tests/chip/test_vpico_rom.py.
"""

import os
import struct
import subprocess
import sys
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chancery.deploy import filesystem, flash, product, rom, romfs, uf2

CHANCERY = os.path.join(os.path.dirname(sys.executable), "chancery")

# --- the UF2 format, read here independently of chancery.deploy.uf2 and uf2utils ------------------

MAGIC0, MAGIC1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FAMILY = 0xE48BFF56
XIP = 0x10000000


def read_uf2(data):
    """[(address, payload)] of a UF2 file, every block's framing checked."""
    assert len(data) % 512 == 0, "a UF2 is whole 512-byte blocks"
    blocks = []
    total = len(data) // 512
    for n in range(total):
        b = data[n * 512:(n + 1) * 512]
        m0, m1, flags, address, size, number, count, family = struct.unpack_from("<8I", b)
        assert (m0, m1, struct.unpack_from("<I", b, 508)[0]) == (MAGIC0, MAGIC1, MAGIC_END), n
        assert flags & 0x2000 and family == FAMILY, "block %d: no RP2040 family id" % n
        assert size == 256 and address % 256 == 0, "block %d: the RP2040 bootrom takes 256 aligned bytes" % n
        assert (number, count) == (n, total), "block %d numbered %d of %d" % (n, number, count)
        blocks.append((address, b[32:32 + size]))
    return blocks


def write_uf2(path, pieces):
    """A UF2 of {address: bytes}, 256 bytes a block (the test's own writer, for base firmware files)."""
    blocks = []
    for address in sorted(pieces):
        data = pieces[address]
        for at in range(0, len(data), 256):
            blocks.append((address + at, data[at:at + 256].ljust(256, b"\0")))
    out = b"".join(struct.pack("<8I", MAGIC0, MAGIC1, 0x2000, a, 256, i, len(blocks), FAMILY) + d + b"\0" * 220
                   + struct.pack("<I", MAGIC_END) for i, (a, d) in enumerate(blocks))
    with open(path, "wb") as f:
        f.write(out)


def flash_of(blocks, offset, size):
    out = bytearray(b"\xff" * size)
    for address, payload in blocks:
        at = address - XIP - offset
        if 0 <= at < size:
            out[at:at + len(payload)] = payload
    return bytes(out)


ROMFS_AT, ROMFS_SIZE = 0x60000, 256 * 1024  # MicroPython's RPI_PICO with MICROPY_HW_ROMFS_BYTES 256 KB
FS_AT, FS_SIZE = 0xA0000, 1408 * 1024


def fake_firmware(path, partitions, code=8 * 1024):
    """A UF2 shaped as MicroPython's rp2 firmware: boot2, then a binary info header (the Pico SDK's
    markers and pointers) whose entries declare `partitions` ({name: (offset, size)}) as block
    devices, then `code` bytes of filler. Returns its bytes of flash."""
    flash_bytes = bytearray(os.urandom(code))
    header_at = 0x110  # after the 256-byte boot2, where the SDK puts it
    entries_at, table_at, names_at = 0x400, 0x800, 0x900
    pointers = []
    for i, (name, (offset, size)) in enumerate(sorted(partitions.items())):
        entry = entries_at + 32 * i
        name_at = names_at + 32 * i
        struct.pack_into("<HHIIIIH", flash_bytes, entry, 7, 0x504D, XIP + name_at, XIP + offset, size, 0, 3)
        flash_bytes[name_at:name_at + len(name) + 1] = name.encode() + b"\0"
        pointers.append(XIP + entry)
    for i, p in enumerate(pointers):
        struct.pack_into("<I", flash_bytes, table_at + 4 * i, p)
    struct.pack_into("<5I", flash_bytes, header_at, 0x7188EBF2, XIP + table_at, XIP + table_at + 4 * len(pointers),
                     0, 0xE71AA390)
    write_uf2(path, {XIP: bytes(flash_bytes)})
    return bytes(flash_bytes)


# --- ROMFS ----------------------------------------------------------------------------------------

names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789.", min_size=1, max_size=12).filter(
    lambda n: n not in (".", ".."))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.lists(names, min_size=1, max_size=4).map("/".join), st.binary(max_size=600), max_size=12))
def test_a_romfs_image_reads_back_to_its_files(files):
    try:
        image = romfs.build(files)
    except ValueError:  # a path that is a file and a folder at once: refused, not written
        return
    assert romfs.read(image) == files
    assert romfs.size(image) == len(image) and image[:3] == romfs.HEADER


def test_a_module_grown_by_a_byte_leaves_the_blocks_before_it_as_they_were():
    """The format's even length: a module one byte longer moved every byte of the image by one
    (the writer's extra header byte came or went), and a deploy rewrote every block."""
    files = {"lib/%02d.mpy" % i: bytes([65 + i]) * 3001 for i in range(20)}
    before = romfs.blocks(romfs.build(files), 4096)
    files["lib/15.mpy"] += b"!"
    after = romfs.blocks(romfs.build(files), 4096)
    same = [i for i in range(min(len(before), len(after))) if before[i] == after[i]]
    assert set(range(1, 10)) <= set(same), same  # lib/15.mpy starts in block 11


def test_a_romfs_image_that_is_cut_or_is_not_one_is_refused_in_words():
    image = romfs.build({"lib/a.mpy": b"x" * 100})
    with pytest.raises(romfs.BadImage, match="says"):
        romfs.read(image[:-10])
    with pytest.raises(romfs.BadImage, match="no ROMFS header"):
        romfs.read(b"\xff" * 64)


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The Pico's files as deploy stages them for a board with a ROMFS partition: (in the image, on the filesystem)."""
    tmp = tmp_path_factory.mktemp("staged")
    in_rom, on_fs = flash.rom_split(flash.stage(str(tmp), "rpi-pico", "mpy", rom=True))
    read = lambda files: {p: open(local, "rb").read() for p, local in files.items()}  # noqa: E731
    return read(in_rom), read(on_fs)


def test_the_image_holds_the_code_its_data_the_pin_map_and_layouts_and_main_py_stays_out(staged):
    in_rom, on_fs = staged
    assert set(on_fs) == {"main.py"}
    assert "lib/firmware/main.mpy" in in_rom and "lib/firmware/refusals.txt" in in_rom
    assert "hardware/boards/rpi-pico.json" in in_rom and "hardware/layouts/chancellors.json" in in_rom
    assert not [p for p in in_rom if p.endswith(".py")], "sources in the image: the board would compile them in RAM"
    main = on_fs["main.py"].decode()
    assert "'/rom/hardware/boards/rpi-pico.json'" in main and "'/rom/hardware/layouts/'" in main, main


def test_micropython_mounts_the_image_and_imports_the_firmware_from_it(staged, micropython, tmp_path):
    in_rom, _ = staged
    image = tmp_path / "board.romfs"
    image.write_bytes(romfs.build(in_rom))
    code = """import sys, os, vfs
vfs.mount(vfs.VfsRom(open(sys.argv[1], 'rb').read()), '/rom')
sys.path[:0] = ['/rom/lib']
def walk(p):
    for e in os.ilistdir(p):
        q = p + '/' + e[0]
        if e[1] & 0x4000:
            walk(q)
        else:
            print('file', q[len('/rom/'):], os.stat(q)[6])
walk('/rom')
from firmware import words, table
print('from', table.__file__)
print('refusal', words._find is not None)
"""
    run = subprocess.run([micropython, "-c", code, str(image)], capture_output=True, text=True, timeout=60,
                         cwd=str(tmp_path), env=dict(os.environ, MICROPYPATH=""))
    assert run.returncode == 0, run.stdout + run.stderr
    seen = {line.split()[1]: int(line.split()[2]) for line in run.stdout.splitlines() if line.startswith("file ")}
    seen.pop(romfs.PAD, None)  # the image's filler, when it has one (romfs.build)
    assert seen == {p: len(d) for p, d in in_rom.items()}
    assert "from /rom/lib/firmware/table.mpy" in run.stdout, run.stdout
    assert "refusal True" in run.stdout, run.stdout


# --- the UF2 --------------------------------------------------------------------------------------


def test_chancery_firmware_adds_the_image_and_main_py_and_keeps_the_firmware(staged, tmp_path):
    base = tmp_path / "micropython.uf2"
    code = fake_firmware(base, {"ROMFS": (ROMFS_AT, ROMFS_SIZE), "MicroPython": (FS_AT, FS_SIZE)})
    out = tmp_path / "out" / "chancery-rpi-pico.uf2"
    run = subprocess.run([CHANCERY, "firmware", "--base", str(base), "--board", "rpi-pico", "-o", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "for a blank board" in run.stdout and "--update" in run.stdout, run.stdout
    blocks = read_uf2(out.read_bytes())
    assert flash_of(blocks, 0, len(code)) == code, "the base firmware's bytes changed"
    in_rom, on_fs = staged
    image = flash_of(blocks, ROMFS_AT, ROMFS_SIZE)
    assert romfs.read(image) == in_rom
    assert filesystem.read(flash_of(blocks, FS_AT, FS_SIZE)) == on_fs
    written = {a - XIP for a, _ in blocks}
    assert not [a for a in written if len(code) <= a < ROMFS_AT or ROMFS_AT + ROMFS_SIZE <= a < FS_AT], \
        "blocks outside the firmware, its ROMFS partition and its filesystem"
    in_fs = [a for a in written if a >= FS_AT]
    assert len(in_fs) <= 8 * 4096 // 256, "the whole filesystem written, not the blocks littlefs uses"


def test_an_update_file_leaves_the_filesystem_and_its_journal_alone(staged, tmp_path):
    base = tmp_path / "micropython.uf2"
    fake_firmware(base, {"ROMFS": (ROMFS_AT, ROMFS_SIZE), "MicroPython": (FS_AT, FS_SIZE)})
    out = tmp_path / "update.uf2"
    run = subprocess.run([CHANCERY, "firmware", "--base", str(base), "--update", "-o", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    blocks = read_uf2(out.read_bytes())
    assert not [a for a, _ in blocks if a - XIP >= FS_AT], "an update wrote into the filesystem"
    assert romfs.read(flash_of(blocks, ROMFS_AT, ROMFS_SIZE)) == staged[0]


def test_a_file_made_by_it_can_be_its_base_and_the_image_is_replaced(staged, tmp_path):
    base = tmp_path / "micropython.uf2"
    fake_firmware(base, {"ROMFS": (ROMFS_AT, ROMFS_SIZE), "MicroPython": (FS_AT, FS_SIZE)})
    once, twice = tmp_path / "once.uf2", tmp_path / "twice.uf2"
    product.make(str(base), "rpi-pico", str(once), say=lambda m: None)
    product.make(str(once), "rpi-pico", str(twice), first={"game": "the_council", "settings": {}},
                 say=lambda m: None)
    blocks = read_uf2(twice.read_bytes())
    assert len({a for a, _ in blocks}) == len(blocks), "two blocks for one address"
    assert b"the_council" in filesystem.read(flash_of(blocks, FS_AT, FS_SIZE))["main.py"]


@pytest.mark.parametrize("case, expect", [
    ("no romfs", "has no ROMFS partition"),
    ("not a uf2", "is not a UF2 file"),
    ("another chip", "not a firmware for the RP2040"),
    ("esp32 board", "a Pico-class board"),
    ("code in the partition", "past its ROMFS partition"),
])
def test_chancery_firmware_refuses_what_it_cannot_build_on_in_words(case, expect, tmp_path):
    base, board = tmp_path / "base.uf2", "rpi-pico"
    if case == "no romfs":
        fake_firmware(base, {"MicroPython": (FS_AT, FS_SIZE)})
    elif case == "not a uf2":
        base.write_bytes(b"MicroPython v1.28.0\n" * 100)
    elif case == "another chip":
        fake_firmware(base, {"ROMFS": (ROMFS_AT, ROMFS_SIZE)})
        data = bytearray(base.read_bytes())
        for at in range(0, len(data), 512):
            struct.pack_into("<I", data, at + 28, 0xE48BFF59)  # an RP2350's
        base.write_bytes(bytes(data))
    elif case == "esp32 board":
        fake_firmware(base, {"ROMFS": (ROMFS_AT, ROMFS_SIZE)})
        board = "esp32-s3-devkitc"
    else:
        fake_firmware(base, {"ROMFS": (0x1000, ROMFS_SIZE)})
    out = tmp_path / "out.uf2"
    run = subprocess.run([CHANCERY, "firmware", "--base", str(base), "--board", board, "-o", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert expect in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert not out.exists()


def test_the_partitions_of_a_real_firmware_where_one_is_given():
    """MicroPython's own binary info, where a firmware with a ROMFS partition is at hand."""
    from chancery.vpico import kit

    try:
        path = kit.find_uf2()
    except kit.UF2NotFound as e:
        pytest.skip("no MicroPython UF2 to read: %s" % e)
    parts = uf2.Firmware.load(path).partitions()
    assert "MicroPython" in parts, parts
    if "ROMFS" in parts:
        at, size = parts["ROMFS"]
        assert at + size == parts["MicroPython"][0] and size % 4096 == 0, parts


# --- the deploy's plan for a partition ------------------------------------------------------------


def test_the_deploy_writes_the_blocks_that_differ_and_the_first_block_last():
    part = rom.Partition(64 * 4096, 4096)
    image = romfs.build({"lib/%02d.mpy" % i: bytes([i]) * 3000 for i in range(20)})
    pieces = romfs.blocks(image, 4096)
    import hashlib

    held = [hashlib.sha256(p).hexdigest() for p in pieces]
    assert rom.plan(image, held, part) == []
    changed = list(held)
    changed[5] = "0" * 64
    assert rom.plan(image, changed, part) == [5, 0]
    assert rom.plan(image, held[:-2], part) == [len(held) - 2, len(held) - 1, 0]
    fresh = [hashlib.sha256(b"\xff" * 4096).hexdigest()] * len(held)
    assert rom.plan(image, fresh, part) == list(range(1, len(held))) + [0]
    assert pieces[-1].endswith(b"\xff"), "the last block is padded as erased flash"


def test_deploy_refuses_an_image_larger_than_the_partition():
    with tempfile.TemporaryDirectory() as tmp:
        in_rom, _ = flash.rom_split(flash.stage(tmp, "rpi-pico", "mpy", rom=True))
        with pytest.raises(flash.DeployError, match="larger MICROPY_HW_ROMFS_BYTES"):
            flash.rom_image(in_rom, 64 * 1024)
