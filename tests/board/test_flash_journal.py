"""The raw flash log (firmware/journal/flash.py): the journal's lines programmed into erased flash.

* CPython, a reservation per plain file programmed as NOR flash is (FileStore): round trip
  across reservations, a torn line at every byte offset (and bits a torn program set anywhere
  in its pages) dropped with everything before it kept, corruption named, no byte programmed
  twice, new games, a reservation cut short while it was made.
* MicroPython's littlefs (os.VfsLfs2) over a NOR-like RAM device, the journal's lines
  programmed through the same device (LfsStore, as rp2.Flash() on a Pico): the power cut at
  random programs and erases (tests/mp/flash_journal.py).
* The virtual Pico (stock RPI_PICO firmware): the journal picks the raw log by itself, a
  cut during an entry's program, the boot after it.
"""

import os
import re
import shutil

import pytest
from test_journal import game, mp_tree, run_mp, state_after, write_actions  # noqa: F401  (mp_tree: a fixture)

from firmware.journal import MAX_LINE, Journal, JournalError, NoGame
from firmware.journal.files import FileRegion, FileStore
from firmware.journal.store import PAGE
from shared_rules import canon


def journal(folder, g, upto=None, every=16):
    header, entries, states = g
    j = Journal(str(folder), every, FileStore(str(folder)))
    j.start(header)
    for i in range(len(entries) if upto is None else upto):
        j.append(i, entries[i], states[i])
        j.tidy()
    return j


def resume(folder):
    j = Journal(str(folder), 16, FileStore(str(folder)))
    header, state, count = j.resume()
    return j, state, count


def reservations(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith("res"))


def program(path, at, data):
    """Program bytes into a reservation file as the flash would (bits only cleared)."""
    with open(path, "r+b") as f:
        f.seek(at)
        old = f.read(len(data))
        f.seek(at)
        f.write(bytes(a & b for a, b in zip(old, data)))


@pytest.fixture
def no_byte_programmed_twice(monkeypatch):
    """Every program only clears bits of erased bytes: a line once written is never changed."""
    seen = []
    program = FileRegion.program

    def checked(self, page, buf):
        before = bytearray(len(buf))
        self.read(page, before)
        for old, new in zip(before, buf):
            assert new == 0xFF or old == 0xFF, "a programmed byte programmed again"
        seen.append(page)
        program(self, page, buf)

    monkeypatch.setattr(FileRegion, "program", checked)
    return seen


def test_a_game_round_trips_across_reservations(tmp_path, no_byte_programmed_twice):
    g = game(7, 4, True)  # 120 entries: about 45 KB of lines, three reservations and more
    j = journal(tmp_path, g)
    j.close()
    used = reservations(tmp_path)
    assert len(used) >= 4 and "game.jsonl" not in os.listdir(tmp_path)
    j, state, count = resume(tmp_path)
    assert (count, j.cut, j.snap_at, j.last) == (120, 0, 112, g[1][-1]["digest"])
    assert canon.digest(state) == state_after(g, 120)
    assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1]]
    assert [canon.encode(e) for e in j.entries(100)] == [canon.encode(e) for e in g[1][100:]]
    assert len(no_byte_programmed_twice) > 120


def test_undo_lines_on_the_raw_flash_log(tmp_path, no_byte_programmed_twice):
    """Undo appends a line there too (nothing is programmed twice), across reservations."""
    g = game(7, 4, True)
    j = journal(tmp_path, g, 70)
    for want in (69, 68):
        j.undo(g[1][want]["digest"])
        assert (j.count, j.last) == (want, g[1][want - 1]["digest"])
    for i in range(68, 100):
        j.append(i, g[1][i], g[2][i])
        j.tidy()
    j.undo(g[1][99]["digest"])
    j.close()
    j, state, count = resume(tmp_path)
    assert (count, canon.digest(state), j.last) == (99, state_after(g, 99), g[1][98]["digest"])
    assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1][:99]]
    j.append(99, g[1][99], g[2][99])
    j.close()
    assert resume(tmp_path)[2] == 100


def test_a_new_game_and_an_undo_list_no_side_files_reservations(tmp_path, monkeypatch):
    """The snapshot is a put() file, not a side file (add()'s): removing it at a new game's start
    and at an undo of a snapshotted entry lists the folder for no reservations but the journal's
    own (a listing of littlefs is on a switch's and an undo's path on a Pico).
    (Fails where drop() maps a side log for every name it is given.)"""
    listed = []
    seqs = FileStore.seqs
    monkeypatch.setattr(FileStore, "seqs", lambda self: listed.append(self.prefix) or seqs(self))
    g = game(7, 4, True)
    j = journal(tmp_path, g, 32)  # a snapshot at 16 and at 32
    assert j.snapped == 32
    j.undo(g[1][31]["digest"])  # takes back an entry the snapshot holds: the snapshot goes
    assert j.snapped == 0 and "snap.json" not in os.listdir(tmp_path)
    j.start(g[0])
    assert set(listed) <= {"res"}
    j.close()


def test_the_lines_are_the_file_journals(tmp_path):
    g = game(8, 4)
    journal(tmp_path / "flash", g, 20).close()
    j = Journal(str(tmp_path / "file"), 16, False)
    j.start(g[0])
    for i in range(20):
        j.append(i, g[1][i], g[2][i])
    j.close()
    with open(tmp_path / "file" / "game.jsonl", "rb") as f:
        text = f.read()
    with open(tmp_path / "flash" / "res0.bin", "rb") as f:
        raw = f.read()
    assert raw[:len(text)] == text and set(raw[len(text):]) == {0xFF}


def test_running_out_of_reserved_space_moves_on_without_losing_an_entry(tmp_path):
    g = game(7, 4, True)
    header, entries, states = g
    j = Journal(str(tmp_path), 16, FileStore(str(tmp_path)))
    j.start(header)
    spare = j.flash.spare
    assert spare is not None  # start() left the next reservation ready
    for i in range(120):  # no tidy(): the spare is used, then one is made on the entry's path
        j.append(i, entries[i], states[i])
    assert len(j.flash.game) >= 3 and spare in j.flash.game
    j.close()
    j, state, count = resume(tmp_path)
    assert count == 120 and canon.digest(state) == state_after(g, 120)


def torn_cases(tmp_path):
    """A 20-entry journal, and the 21st entry's line with the spot it was going to."""
    g = game(4, 4)
    base = tmp_path / "base"
    j = journal(base, g, 20)
    region, pos = j.flash.cur, j.flash.pos
    j.append(20, g[1][20], g[2][20])
    j.close()
    with open(region.path, "rb") as f:
        f.seek(pos)
        line = f.read(j.flash.pos - pos)
    assert j.flash.cur is region and line.endswith(b"\n")
    with open(region.path, "r+b") as f:  # back to before the 21st entry
        f.seek(pos)
        f.write(b"\xff" * len(line))
    return g, base, os.path.basename(region.path), pos, line


def test_a_torn_line_is_dropped_at_every_byte_offset(tmp_path, no_byte_programmed_twice):
    g, base, name, pos, line = torn_cases(tmp_path)
    assert len(line) > 200
    for off in range(len(line)):
        folder = tmp_path / ("off%d" % off)
        shutil.copytree(base, folder)
        program(folder / name, pos, line[:off])
        before = reservations(folder)
        j, state, count = resume(folder)
        assert (count, j.cut, j.last) == (20, off, g[1][19]["digest"]), off
        assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1][:20]]
        j.append(20, g[1][20], g[2][20])  # entered again: after the torn bytes, never on them
        j.append(21, g[1][21], g[2][21])
        j.close()
        if off:
            assert j.flash.game[-1].path != str(folder / name)  # went on in the next reservation
        j, state, count = resume(folder)
        assert (count, j.cut, canon.digest(state)) == (22, 0, state_after(g, 22)), off
        assert reservations(folder)[:len(before)] == before
        shutil.rmtree(folder)


def test_bits_a_torn_program_set_anywhere_in_its_pages_are_dropped(tmp_path):
    """On a real part a cut program may leave any bits of its page programmed, not a prefix."""
    g, base, name, pos, line = torn_cases(tmp_path)
    end = (pos + len(line) + PAGE - 1) // PAGE * PAGE
    page_end = (pos // PAGE + 1) * PAGE  # what a cut in the line's first page can have touched
    for case, spots in enumerate([[pos + 3, end - 1], [end - 1], [pos + len(line) - 1], [pos, page_end - 1], [pos]]):
        folder = tmp_path / ("c%d" % case)
        shutil.copytree(base, folder)
        for at in spots:
            program(folder / name, at, b"\x5a")
        j, state, count = resume(folder)
        assert (count, j.last) == (20, g[1][19]["digest"]), case
        j.append(20, g[1][20], g[2][20])
        j.close()
        assert resume(folder)[2] == 21
    # bits set past the pages the line could have touched are not a torn program: named
    folder = tmp_path / "far"
    shutil.copytree(base, folder)
    program(folder / name, pos, line[:50])
    program(folder / name, pos + MAX_LINE + 2 * PAGE, b"x")
    with pytest.raises(JournalError) as e:
        resume(folder)
    assert e.value.code == "bad_format" and e.value.line == 22 and e.value.path.endswith(name)


def test_corruption_is_named_never_skipped(tmp_path):
    g = game(4, 4)
    base = tmp_path / "base"
    journal(base, g, 70).close()
    first = base / "res0.bin"
    with open(first, "rb") as f:
        raw = f.read()
    starts = [0] + [i + 1 for i, b in enumerate(raw) if b == 0x0A]

    def case(name, at, data):
        folder = tmp_path / name
        shutil.copytree(base, folder)
        with open(folder / "res0.bin", "r+b") as f:  # as bit rot would: not a program
            f.seek(at)
            f.write(data)
        before = {n: (folder / n).read_bytes() for n in os.listdir(folder)}
        with pytest.raises(JournalError) as e:
            resume(folder)
        assert {n: (folder / n).read_bytes() for n in os.listdir(folder)} == before  # nothing changed
        return e.value

    e = case("middle", starts[10] + 5, bytes([raw[starts[10] + 5] ^ 0x20]))  # entry 9's line (line 11)
    assert (e.code, e.line, os.path.basename(e.path)) == ("bad_crc", 11, "res0.bin")
    # the reservation's last line: the next reservation starts with the entry after it
    last = len(starts) - 2
    e = case("last", starts[last] + 5, bytes([raw[starts[last] + 5] ^ 0x20]))
    assert e.code == "bad_index" and e.line == last + 1


def test_start_keeps_every_finished_game(tmp_path):
    g1, g2, g3 = game(4, 4), game(8, 4), game(7, 4, True)
    j = journal(tmp_path, g1, 70)
    first = [os.path.basename(r.path) for r in j.flash.game]
    j.start(g2[0])
    j.append(0, g2[1][0], g2[2][0])
    while j.tidy():
        pass
    assert set(first) <= set(reservations(tmp_path))  # the previous game is kept
    j.start(g3[0])
    while j.tidy():
        pass
    left = reservations(tmp_path)
    assert set(first) <= set(left)  # kept until the host has it (firmware/kept.py), however many follow
    assert not os.path.exists(tmp_path / "snap.json")
    j, state, count = resume(tmp_path)
    assert (count, canon.digest(state)) == (0, g3[0]["start"])


def test_a_torn_header_leaves_the_old_game_under_way(tmp_path):
    g1, g2 = game(4, 4), game(8, 4)
    j = journal(tmp_path, g1, 30)
    j.close()
    j, _, _ = resume(tmp_path)
    spare = j.flash.spare.path
    header = b"h " + canon.encode(g2[0]).encode()
    for off in (1, 40, len(header)):
        program(spare, 0, header[:off])
        j, state, count = resume(tmp_path)
        assert (count, j.cut, j.last) == (30, off, g1[1][29]["digest"])
        j.close()
    j, state, count = resume(tmp_path)
    j.append(30, g1[1][30], g1[2][30])
    j.close()
    assert resume(tmp_path)[2] == 31


def test_a_reservation_cut_short_while_made_is_removed(tmp_path):
    g = game(8, 4)
    j = journal(tmp_path, g, 5)
    j.close()
    j, _, _ = resume(tmp_path)
    top = j.flash.top
    with open(tmp_path / ("res%d.bin" % (top + 1)), "wb") as f:
        f.write(b"\xff" * 5000)
    j, state, count = resume(tmp_path)
    assert count == 5 and j.flash.old == [top + 1]
    while j.tidy():
        pass
    assert not os.path.exists(tmp_path / ("res%d.bin" % (top + 1)))
    j.append(5, g[1][5], g[2][5])
    j.close()
    assert resume(tmp_path)[2] == 6


def test_a_line_too_long_is_refused_before_a_byte_is_programmed(tmp_path):
    g = game(8, 4)
    j = journal(tmp_path, g, 3)
    snapshot = {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)}
    huge = dict(g[1][3], events=g[1][3]["events"] + [{"t": "x" * 90}] * 60)
    with pytest.raises(JournalError) as e:
        j.append(3, huge)
    assert e.value.code == "too_long"
    assert {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)} == snapshot
    j.append(3, g[1][3], g[2][3])
    j.close()
    assert resume(tmp_path)[2] == 4


def test_no_game_in_an_empty_folder(tmp_path):
    with pytest.raises(NoGame):
        resume(tmp_path)


# ------------------------------------------------------------------ littlefs, MicroPython

CUT_ROW = re.compile(r"cut (\d+) op (\d+)/(\d+) (program|erase) acked (-?\d+) resumed (\d+|none)"
                     r"(?: cut (\d+) snap (\d+))? ok")


def test_littlefs_and_the_raw_log_survive_power_cuts_at_random_operations(tmp_path, mp_tree):  # noqa: F811
    g = game(7, 4, True)
    proc = run_mp(mp_tree, "flash_journal", [write_actions(tmp_path / "a.jsonl", g), 60, 5], timeout=300)
    rows = [r for r in proc.stdout.splitlines() if r.startswith("cut")]
    assert proc.returncode == 0 and rows[-1].startswith("cuts=60 failed=0 "), proc.stdout + proc.stderr
    parsed = [CUT_ROW.fullmatch(r) for r in rows[:-1]]
    assert len(parsed) == 60 and all(parsed), proc.stdout
    totals = dict(w.split("=") for w in rows[-1].split())
    # the cuts reached torn lines, and the writer went on past them
    assert int(totals["torn"]) >= 5 and int(totals["moved"]) >= 5, rows[-1]
    assert {m.group(4) for m in parsed} == {"program", "erase"}
    # page programs, not erases, carry the entries: 120 entries, 7 snapshots, 3 reservations
    assert int(totals["erases"]) < 40, rows[-1]


def test_the_raw_log_survives_cuts_that_leave_a_pages_bits_half_programmed(tmp_path, mp_tree):  # noqa: F811
    """Issue 44: a cut in the middle of a page program can leave any of the bits being programmed
    at either value, not a clean prefix; the board must still resume at its last whole line (the
    chip's power test found a board that would not boot: bad_format)."""
    g = game(7, 4, True)
    proc = run_mp(mp_tree, "flash_journal", [write_actions(tmp_path / "a.jsonl", g), 60, 11, "bits"], timeout=300)
    rows = [r for r in proc.stdout.splitlines() if r.startswith("cut")]
    assert proc.returncode == 0 and rows[-1].startswith("cuts=60 failed=0 "), proc.stdout + proc.stderr


def test_a_reservation_is_made_a_kilobyte_a_step_and_found_from_the_last(tmp_path):
    """A reservation's file is written a kilobyte a step of the board's upkeep (a press that ends
    during a step waits for it: a block a step took 60 ms on the chip), and the blocks of one just
    made are looked for from after the last ones found, where littlefs allocates next, not across
    the whole device (some 60 ms on the chip). (Fails with a block a step, and with every scan
    reading every block.)"""
    from firmware.journal.store import MAGIC, LfsStore, ptrs

    class Counting:
        def __init__(self):
            self.n = self.most = 0

        def write(self, data):
            self.n += len(data)

        def step(self):
            self.most, self.n = max(self.most, self.n), 0

    store, f = LfsStore(str(tmp_path), None, 4), Counting()
    for i in range(4):
        for _ in store.piece(f, i):
            f.step()
    f.step()
    assert 0 < f.most <= 1024 + 16, f.most

    class Device:  # 64 blocks; a reservation's markers at blocks 40-43, the hint at 39
        def __init__(self, nonce):
            self.blocks = [bytearray(64) for _ in range(64)]
            for i in range(4):
                k = ptrs(i)
                self.blocks[40 + i][k:k + 16] = MAGIC + nonce + bytes((i, 0, 4, 0))
            self.reads = 0

        def ioctl(self, op, arg):
            return 64

        def readblocks(self, b, buf, off):
            self.reads += 1
            buf[:] = self.blocks[b][:len(buf)]

    nonce = b"\x01\x02\x03\x04"
    dev = Device(nonce)
    store.dev, store.hint = dev, 39
    want = {nonce: (7, [None] * 4)}
    store._scan(want, True)
    assert want[nonce][1] == [40, 41, 42, 43] and dev.reads == 5 and store.hint == 44


def test_a_line_over_three_pages_is_one_program_call(tmp_path, monkeypatch):
    """A line is programmed in as few calls as its block allows, up to flash.RUN pages in one:
    each call costs a fixed part beside its pages' program time (the ROM's flash_range_program
    leaves and enters XIP). A 500-byte line that starts late in a page spans three pages: one
    call. (Fails with two pages a call at most.)"""
    calls = []
    real = FileRegion.program
    monkeypatch.setattr(FileRegion, "program", lambda self, page, buf: calls.append(len(buf)) or real(self, page, buf))
    j = Journal(str(tmp_path), 16, FileStore(str(tmp_path)))
    j.start({"format": 1, "game": "chancellors", "settings": {}, "seed": 1, "start": "x"})
    j.tidy()
    pos = j.flash.pos
    base = len(j.prepare(0, '{"type":"pad"}', "[]", "d" * 16))
    k = (pos // PAGE + 1) * PAGE + 200 - pos - base  # the next line starts late in a page
    j.write(0, '{"type":"pad"}', "[" + "1" * k + "]", "d" * 16)
    calls.clear()
    pos = j.flash.pos
    j.write(1, '{"type":"pad"}', "[" + "1" * 420 + "]", "d" * 16)
    assert pos % PAGE > PAGE // 2 and (j.flash.pos - 1) // PAGE - pos // PAGE == 2  # three pages
    assert calls == [3 * PAGE]
    assert [e["index"] if "index" in e else i for i, e in enumerate(j.entries())] == [0, 1]
