"""The logbook (host/chancery/logbook/store.py) and `chancery log` (host/chancery/logbook/cli.py).

Host-only code (SQLite), so CPython only. The games come from the engine
itself: tests/mp/playout.py plays whole games, tests/host/test_cli.py has a short
hand-played one, so what is logged is what a board would send.
"""

import csv
import io
import json
import os
import pathlib
import random
import sqlite3
import subprocess
import sys
import time

import paths
import pytest

from chancery import cli
from chancery.logbook import logfile
from chancery.logbook import store as logbook
from chancery.logbook.store import Logbook, LogbookError
from shared_rules import canon, engine

ROOT = pathlib.Path(paths.ROOT)
if str(ROOT / "tests" / "mp") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "mp"))

import playout  # noqa: E402
from test_cli import played_match  # noqa: E402


def whole_game(seed, players=4, extended=True):
    """(header, entries) of a complete game played by the random driver."""
    m = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)
    header = dict((k, m[k]) for k in ("format", "game", "settings", "seed", "start"))
    entries = []
    r = playout.play_game(seed, players, extended,
                          on_entry=lambda i, a, ev, d: entries.append({"action": a, "events": ev, "digest": d}))
    assert r["ending"] in ("target", "catastrophe")
    return header, entries


def header_of(match):
    return dict((k, match[k]) for k in ("format", "game", "settings", "seed", "start"))


@pytest.fixture
def book(tmp_path):
    b = Logbook(tmp_path / "logbook.sqlite3")
    yield b
    b.close()


def fill(book, header, entries, board="board-1"):
    gid = book.begin_game(header, board, "fw 0.1")
    for i, e in enumerate(entries):
        assert book.add_entry(gid, i, e) is True
    return gid


def replay_cli(capsys, path):
    code = cli.main(["replay", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


# --- round trip ------------------------------------------------------------

def test_whole_game_exports_a_log_that_replays(book, tmp_path, capsys):
    header, entries = whole_game(6)
    gid = fill(book, header, entries)
    path = tmp_path / "out.jsonl"
    with open(path, "w") as f:
        assert book.export(gid, "jsonl", f) == len(entries)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == header
    assert lines[1:] == [canon.encode(e) for e in entries]  # byte for byte what was sent
    code, out, err = replay_cli(capsys, path)
    assert code == 0, err
    assert "%d entries replayed, every event and digest verified" % len(entries) in out
    g = book.game(gid)  # the end event closed the game and recorded its result
    assert g["entries"] == len(entries) and g["ended"] is not None
    end = [ev for ev in entries[-1]["events"] if ev["t"] == "end"][0]
    assert g["result"] == {"ending": end["ending"], "winners": end["winners"]}
    assert list(book.entries(gid)) == entries


def test_a_tampered_logbook_export_is_caught_by_replay(book, tmp_path, capsys):
    m = played_match()
    entries = list(m["entries"])
    entries[3] = dict(entries[3], digest="00000000")  # the board sent something the rules disagree with
    gid = fill(book, header_of(m), entries)
    path = tmp_path / "bad.jsonl"
    with open(path, "w") as f:
        book.export(gid, "jsonl", f)
    code, out, err = replay_cli(capsys, path)
    assert code == 2 and err.startswith("error: entry #4: ") and "digest" in err


def test_open_and_empty_games_export_replayable_logs(book, tmp_path, capsys):
    m = played_match()
    empty = book.begin_game(header_of(m), "board-1", "fw", fresh=True)
    path = tmp_path / "empty.jsonl"
    with open(path, "w") as f:
        assert book.export(empty, "jsonl", f) == 0
    assert replay_cli(capsys, path)[0] == 0
    part = fill(book, header_of(m), m["entries"][:4], board="board-2")
    with open(path, "w") as f:
        book.export(part, "jsonl", f)
    code, out, err = replay_cli(capsys, path)
    assert code == 0 and "4 entries replayed" in out


def test_csv_has_one_row_per_entry(book):
    m = played_match()
    gid = fill(book, header_of(m), m["entries"])
    out = io.StringIO()
    book.export(gid, "csv", out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["entry", "action", "summary", "digest"]
    body = rows[1:]
    assert [r[0] for r in body] == [str(i + 1) for i in range(len(m["entries"]))]  # from 1, as log show numbers
    assert [r[1] for r in body] == [e["action"]["type"] for e in m["entries"]]
    assert [r[3] for r in body] == [e["digest"] for e in m["entries"]]
    assert all(r[2] for r in body)
    assert "Seat 0 solves problem 3 (2-2) wholly for 4 points" in body[3][2]
    assert "Seat 1 takes the Army" in body[1][2]
    with pytest.raises(LogbookError) as e:
        book.export(gid, "xml", io.StringIO())
    assert e.value.code == "bad_format"


# --- adding entries --------------------------------------------------------

def test_re_adding_the_same_entry_changes_nothing(book):
    m = played_match()
    gid = fill(book, header_of(m), m["entries"])
    for i, e in enumerate(m["entries"]):  # a board re-sending its journal after a reconnect
        assert book.add_entry(gid, i, json.loads(json.dumps(e))) is False
    assert book.count(gid) == len(m["entries"])
    assert list(book.entries(gid)) == m["entries"]


def test_a_different_entry_at_a_stored_index_is_refused(book):
    m = played_match()
    gid = fill(book, header_of(m), m["entries"][:4])
    with pytest.raises(LogbookError) as e:
        book.add_entry(gid, 2, dict(m["entries"][2], digest="deadbeef"))
    assert e.value.code == "conflict"
    assert "entry 2" in str(e.value) and "digest differs" in str(e.value)
    with pytest.raises(LogbookError) as e:
        book.add_entry(gid, 1, m["entries"][2])
    assert e.value.code == "conflict" and "action and events and digest" in str(e.value)
    assert list(book.entries(gid)) == m["entries"][:4]  # untouched


def test_a_gap_is_refused(book):
    m = played_match()
    gid = fill(book, header_of(m), m["entries"][:3])
    for bad in ("3", True, None):
        with pytest.raises(LogbookError) as e:
            book.add_entry(gid, bad, m["entries"][3])
        assert e.value.code == "bad_entry", bad
    for bad in (4, 6, -1):
        with pytest.raises(LogbookError) as e:
            book.add_entry(gid, bad, m["entries"][3])
        assert e.value.code == "gap", bad
        assert "send entry 3 next" in str(e.value)
    assert book.count(gid) == 3
    assert book.add_entry(gid, 3, m["entries"][3]) is True


def test_bad_entries_games_and_headers_are_named(book):
    m = played_match()
    gid = fill(book, header_of(m), [])
    for bad in (None, {"action": {}, "events": []}, {"action": {"type": "roll"}, "events": [1.5], "digest": "x"}):
        with pytest.raises(LogbookError) as e:
            book.add_entry(gid, 0, bad)
        assert e.value.code == "bad_entry"
    with pytest.raises(LogbookError) as e:
        book.add_entry(gid + 1, 0, m["entries"][0])
    assert e.value.code == "no_game" and "no game %d" % (gid + 1) in str(e.value)
    for call in (lambda: book.game(99), lambda: list(book.entries(99)), lambda: book.count(99)):
        with pytest.raises(LogbookError) as e:
            call()
        assert e.value.code == "no_game"
    with pytest.raises(LogbookError) as e:
        book.begin_game({"game": "chancellors", "seed": 1}, "b", "fw")
    assert e.value.code == "bad_header"


def test_reconnecting_board_continues_its_open_game(book):
    m = played_match()
    h = header_of(m)
    gid = fill(book, h, m["entries"][:3])
    again = book.begin_game(json.loads(json.dumps(h)), "board-1", "fw 0.1")  # the cable was pulled
    assert again == gid and book.count(gid) == 3
    assert book.begin_game(h, "board-2", "fw 0.1") != gid  # another board: another game
    assert book.begin_game(h, "board-1", "fw 0.1", fresh=True) != gid
    other = dict(h, start="00000000")
    assert book.begin_game(other, "board-1", "fw 0.1") != gid
    header, entries = whole_game(6)
    done = fill(book, header, entries, board="board-3")
    assert book.begin_game(header, "board-3", "fw") != done  # an ended game is not continued
    assert len(book.games()) == 6


# --- the database ----------------------------------------------------------

def test_wal_full_sync_and_schema_version(tmp_path):
    path = tmp_path / "lb.sqlite3"
    with Logbook(path) as b:
        assert b.journal_mode() == "wal"
        assert b._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        fill(b, header_of(played_match()), [])
    raw = sqlite3.connect(str(path))
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # stored in the file
    assert raw.execute("SELECT version FROM schema_version").fetchall() == [(logbook.SCHEMA_VERSION,)]
    raw.execute("UPDATE schema_version SET version=99")
    raw.commit()
    raw.close()
    with pytest.raises(LogbookError) as e:
        Logbook(path)
    assert e.value.code == "too_new" and "newer chancery" in str(e.value)


def test_migrations_bring_an_older_logbook_up_to_date(tmp_path, monkeypatch):
    path = tmp_path / "lb.sqlite3"
    m = played_match()
    with Logbook(path) as b:
        gid = fill(b, header_of(m), m["entries"])
    nxt = logbook.SCHEMA_VERSION + 1
    step = (nxt, ("ALTER TABLE games ADD COLUMN note TEXT", "UPDATE games SET note='from v1'"))
    monkeypatch.setattr(logbook, "MIGRATIONS", logbook.MIGRATIONS + (step,))
    monkeypatch.setattr(logbook, "SCHEMA_VERSION", nxt)
    with Logbook(path) as b:  # a newer chancery opens it: the step runs once, nothing is lost
        assert list(b.entries(gid)) == m["entries"]
        assert b._db.execute("SELECT version FROM schema_version").fetchall() == [(nxt,)]
        assert b._db.execute("SELECT note FROM games").fetchall() == [("from v1",)]
    with Logbook(path) as b:
        assert b.count(gid) == len(m["entries"])


def test_default_path_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(tmp_path / "x" / "book.db"))
    with Logbook() as b:
        assert b.path == tmp_path / "x" / "book.db"
    assert (tmp_path / "x" / "book.db").exists()
    monkeypatch.delenv("CHANCERY_LOGBOOK")
    assert logbook.default_path().name == "logbook.sqlite3"


def test_damaged_locked_and_full_databases_are_explained(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all\n" * 200)
    with pytest.raises(LogbookError) as e:
        Logbook(junk)
    assert e.value.code == "corrupt" and "damaged" in str(e.value) and str(junk) in str(e.value)

    path = tmp_path / "lb.sqlite3"
    m = played_match()
    with Logbook(path) as b:
        gid = fill(b, header_of(m), m["entries"][:2])
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    with Logbook(path, timeout=0.1) as b:
        assert b.count(gid) == 2  # readers are not blocked (WAL)
        with pytest.raises(LogbookError) as e:
            b.add_entry(gid, 2, m["entries"][2])
        assert e.value.code == "busy" and "locked" in str(e.value)
    other.execute("ROLLBACK")
    other.close()

    with Logbook(path) as b:
        pages = b._db.execute("PRAGMA page_count").fetchone()[0]
        b._db.execute("PRAGMA max_page_count=%d" % pages)  # the disk is full from here on
        big = dict(m["entries"][2])
        big["events"] = list(big["events"]) + [{"t": "note", "text": "x" * 20000}]
        with pytest.raises(LogbookError) as e:
            b.add_entry(gid, 2, big)
        assert e.value.code == "full" and "full" in str(e.value)
        assert b.count(gid) == 2 and b.check() == []
        b._db.execute("PRAGMA max_page_count=1000000")
        assert b.add_entry(gid, 2, m["entries"][2]) is True


def test_a_damaged_page_is_reported_not_a_traceback(tmp_path):
    path = tmp_path / "lb.sqlite3"
    header, entries = whole_game(6)
    with Logbook(path) as b:
        fill(b, header, entries)
        b._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    for at in range(page, len(data), page):  # every page but the first (the header)
        data[at:at + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(LogbookError) as e:
        with Logbook(path) as b:
            b.games()
            list(b.entries(1))
    assert e.value.code == "corrupt"


# --- the view hook ---------------------------------------------------------

class SealedGame:
    """A stand-in for a future game with sealed votes, to drive the export hook."""

    NAME = "sealed"
    SCHEMAS = []
    LOG_PUBLIC = False

    @staticmethod
    def view_entry(entry, seat):
        act = entry["action"]
        if act.get("type") == "vote" and act.get("seat") != seat:
            out = dict(entry)
            out["action"] = dict(act, vote="sealed")
            out["events"] = [dict(ev, vote="sealed") for ev in entry["events"]]
            out["digest"] = ""  # a CRC of the state would let anyone try each vote
            return out
        return entry


def test_exports_go_through_the_games_entry_view(book, monkeypatch):
    real = engine.game_module
    monkeypatch.setattr(engine, "game_module", lambda name: SealedGame if name == "sealed" else real(name))
    header = {"game": "sealed", "settings": {"players": 2}, "seed": 1, "start": "12345678"}
    gid = book.begin_game(header, "b", "fw")
    book.add_entry(gid, 0, {"action": {"type": "vote", "seat": 0, "vote": "aye-secret"},
                            "events": [{"t": "voted", "seat": 0, "vote": "aye-secret"}], "digest": "abcdef01"})
    for seat in (None, 1):
        for fmt in ("jsonl", "csv"):
            out = io.StringIO()
            book.export(gid, fmt, out, seat)
            assert "aye-secret" not in out.getvalue() and "abcdef01" not in out.getvalue(), (fmt, seat)
    out = io.StringIO()
    book.export(gid, "jsonl", out, 0)  # the voter sees their own vote
    assert "aye-secret" in out.getvalue()

    monkeypatch.setattr(SealedGame, "view_entry", None)  # a game that forgot its hook
    with pytest.raises(LogbookError) as e:
        book.export(gid, "jsonl", io.StringIO())
    assert e.value.code == "refused"
    unknown = book.begin_game(dict(header, game="nosuchgame"), "b", "fw")
    with pytest.raises(LogbookError) as e:
        book.export(unknown, "csv", io.StringIO())
    assert e.value.code == "refused"


# --- crashes ---------------------------------------------------------------

CHILD = r"""
import json, sys, time
from chancery.logbook.store import Logbook

games = json.load(open(sys.argv[1]))
out = sys.stdout
out.write("ready\n"); out.flush()
book = Logbook(sys.argv[2])
done = set(g["board_id"] for g in book.games() if g["ended"] is not None)
sent = 0
for n in range(len(games)):
    board, entries = "board-%d" % n, games[n]["entries"]
    if board in done:
        sent += len(entries)
        continue
    gid = book.begin_game(games[n]["header"], board, "fw-crash")
    first = book.count(gid)
    sent += first
    for i in range(first, len(entries)):
        book.add_entry(gid, i, entries[i])
        sent += 1
        out.write("%d\n" % sent); out.flush()  # acknowledged: committed before this line
        time.sleep(0.003)  # a board's pace, not a burst: the parent's kill, once it reads its count, lands mid-stream
out.write("done\n"); out.flush()
"""


def _stored(path, games):
    """How many source entries the logbook holds, checking it is sound and holds nothing else."""
    with Logbook(path) as b:
        assert b.check() == [] and b.journal_mode() == "wal"
        held = b.games()
        assert len(set(g["board_id"] for g in held)) == len(held)  # no game was started twice
        total = 0
        for g in held:
            n = int(g["board_id"].split("-")[1])
            got = list(b.entries(g["id"]))
            assert got == games[n]["entries"][:len(got)]
            assert (g["ended"] is not None) == (len(got) == len(games[n]["entries"]))
            total += len(got)
        return total, held


def test_sigkill_never_loses_a_committed_entry(tmp_path, capsys):
    """A child logs 8 whole games (about 640 entries), acknowledging each entry on stdout once
    add_entry returned; it is SIGKILLed at a random moment 20 times and restarted, as a host
    would be. After every kill the database passes integrity_check, holds every acknowledged
    entry and at most one more, and the next run continues the same games (no game twice)."""
    games = []
    for seed in (4, 5, 6, 7, 9, 10, 11, 12):
        header, entries = whole_game(seed)
        games.append({"header": header, "entries": entries})
    size = sum(len(g["entries"]) for g in games)
    src, db, child = tmp_path / "games.json", tmp_path / "lb.sqlite3", tmp_path / "child.py"
    src.write_text(json.dumps(games))
    child.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "host"), str(ROOT)]))
    cmd = [sys.executable, str(child), str(src), str(db)]
    rnd = random.Random(20240611)
    acked, mid_stream = 0, 0
    for k in range(20):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if k % 5 == 0:  # at any time from the start: importing, opening, migrating, finding the game, writing
            time.sleep(rnd.uniform(0, 0.15))
        else:  # while entries are written: once the child has acknowledged a count picked at random
            # (read from its output, not aimed by the clock, which a loaded machine throws off)
            assert p.stdout.readline() == "ready\n"
            left = max(size - acked, 2)
            target = min(acked + rnd.randint(1, max(1, 2 * left // (22 - k))), size - 1)
            while True:
                line = p.stdout.readline()
                if not line.strip().isdigit():
                    break
                acked = int(line)
                if acked >= target:
                    break
        p.kill()  # SIGKILL: no handler, no flush, no cleanup
        out, err = p.stdout.read(), p.stderr.read()  # the rest, with what readline() buffered
        p.wait()
        # killed, or (on a loaded machine the kill can come late) already done: never a failure
        assert p.returncode == -9 or (p.returncode == 0 and "done" in out), err
        lines = [x for x in out.split() if x.isdigit()]
        if lines:
            acked = max(acked, int(lines[-1]))
        total, _ = _stored(db, games)
        assert acked <= total <= acked + 1, (k, acked, total)  # at most the one not yet acknowledged
        acked = total
        mid_stream += "done" not in out and total < size
    assert mid_stream >= 12, mid_stream  # most kills landed while entries were being written (15 of 20 was
    # too many on a loaded machine: a CI run had 10, the child having written its last entries before the kill)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and proc.stdout.endswith("done\n"), proc.stderr
    total, held = _stored(db, games)
    assert total == size and len(held) == len(games)
    with Logbook(db) as b:
        for g in held:
            path = tmp_path / ("g%d.jsonl" % g["id"])
            with open(path, "w") as f:
                b.export(g["id"], "jsonl", f)
            assert replay_cli(capsys, path)[0] == 0


# --- the command line ------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_cli_list_show_export_import(tmp_path, monkeypatch, capsys):
    book = tmp_path / "book.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(book))
    code, out, err = run(capsys, "log", "list")
    assert code == 2 and "no logbook at %s" % book in err and not book.exists()
    code, out, err = run(capsys, "log")
    assert code == 2 and "import" in out

    m = played_match()
    saved = tmp_path / "game.json"
    logfile.save(m, saved)
    code, out, err = run(capsys, "log", "import", str(saved))
    assert code == 0 and "game 1 in the logbook, 7 entries (7 new)" in out, err
    engine.apply(m, {"type": "assign", "diplomatic": 0, "army": 1, "navy": None})  # the game goes on
    logfile.save(m, saved)  # and is saved again: only what is new goes in
    code, out, err = run(capsys, "log", "import", str(saved))
    assert code == 0 and "game 1 in the logbook, %d entries (%d new)" % (len(m["entries"]), len(m["entries"]) - 7) \
        in out, err

    code, out, err = run(capsys, "log", "list")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["ID", "GAME", "SEATS"]
    assert out.splitlines()[1].split()[:3] == ["1", "chancellors", "3"] and "open" in out

    code, out, err = run(capsys, "log", "show", "1")
    assert code == 0 and "every event and digest verified" in out
    assert "solve 3 Mill" in out and "Seat 0 solves problem 3 (2-2) wholly" in out
    code, out, err = run(capsys, "log", "show", "1", "--json")
    shown = json.loads(out)
    assert out.strip() == canon.encode(shown) and shown["log"]["entries"] == m["entries"]
    assert shown["board_id"] == "file" and shown["log"]["seed"] == 7

    target = tmp_path / "out.jsonl"
    code, out, err = run(capsys, "log", "export", "1", "--format", "jsonl", "-o", str(target))
    assert code == 0 and "still open" in err and "written to" in err
    code, out, err = run(capsys, "replay", str(target))
    assert code == 0 and "every event and digest verified" in out
    code, out, err = run(capsys, "log", "export", "1", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "entry,action,summary,digest"
    assert len(list(csv.reader(io.StringIO(out)))) == len(m["entries"]) + 1

    for argv, says in ((("log", "show", "9"), "no game 9"), (("log", "export", "0", "--format", "csv"), "no game 0"),
                       (("log", "export", "1", "--format", "csv", "--seat", "3"), "seats 0 to 2"),
                       (("log", "export", "1", "--format", "csv", "-o", str(tmp_path / "no" / "x.csv")),
                        "cannot write"),
                       (("log", "show", "x"), "invalid int"), (("log", "export", "1", "--format", "xml"), "invalid")):
        code, out, err = run(capsys, *argv)
        assert code == 2 and says in err, (argv, err)
    assert not (tmp_path / "no").exists()

    bad = tmp_path / "bad.json"
    doc = json.loads(saved.read_text())
    doc["entries"][2]["digest"] = "00000000"
    bad.write_text(json.dumps(doc))
    code, out, err = run(capsys, "log", "import", str(bad))
    assert code == 2 and "entry #3" in err and "digest" in err  # numbered from 1, as log show does
    code, out, err = run(capsys, "log", "import", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err

    book.unlink()
    for extra in ("-wal", "-shm"):
        pathlib.Path(str(book) + extra).unlink(missing_ok=True)
    book.write_bytes(b"garbage" * 1000)
    code, out, err = run(capsys, "log", "list")
    assert code == 2 and "damaged" in err


def test_the_installed_command_reads_the_environment(tmp_path):
    m = played_match()
    saved = tmp_path / "game.json"
    logfile.save(m, saved)
    env = dict(os.environ, CHANCERY_LOGBOOK=str(tmp_path / "lb.sqlite3"),
               PYTHONPATH=os.pathsep.join([str(ROOT / "host"), str(ROOT)]))
    for argv in (["log", "import", str(saved)], ["log", "export", "1", "--format", "jsonl", "-o",
                                                  str(tmp_path / "x.jsonl")], ["replay", str(tmp_path / "x.jsonl")]):
        proc = subprocess.run([sys.executable, "-m", "chancery"] + argv, capture_output=True, text=True, env=env,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr
    assert "7 entries replayed" in proc.stdout


def test_entries_taken_back_are_kept_apart_and_reopen_a_game_they_ended(tmp_path, monkeypatch, capsys):
    header, entries = whole_game(5)
    path = tmp_path / "book.sqlite3"
    with Logbook(path) as b:
        gid = fill(b, header, entries)
        assert b.game(gid)["ended"] is not None
        n = len(entries)
        assert b.take_back(gid, n - 2) == 2  # the board's log is two shorter: the end is taken back
        g = b.game(gid)
        assert (g["ended"], g["result"], g["entries"]) == (None, None, n - 2)
        assert [(i, e) for i, e, _, _ in b.undone(gid)] == [(n - 2, entries[n - 2]), (n - 1, entries[n - 1])]
        assert b.take_back(gid, n - 2) == 0  # the same length again: nothing moves
        for i in (n - 2, n - 1):  # the table plays them again: the game ends again
            assert b.add_entry(gid, i, entries[i]) is True
        assert b.game(gid)["ended"] is not None and list(b.entries(gid)) == entries
        with pytest.raises(LogbookError) as e:
            b.take_back(gid, -1)
        assert e.value.code == "bad_entry"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(path))
    code, out, err = run(capsys, "log", "show", str(gid))
    assert code == 0 and "every event and digest verified" in out
    assert out.count("taken back at") == 2 and ("#%d " % n) in out and ("   #1  " in out)  # from #1, as the mirror


def test_log_list_aligns_its_columns_and_a_game_left_for_a_new_one_is_closed(tmp_path, monkeypatch, capsys):
    path = tmp_path / "book.sqlite3"
    m = played_match()
    with Logbook(path) as b:
        first = fill(b, header_of(m), m["entries"])
        kd = engine.new_match("kings_dilemma", {"players": 3}, 5)
        second = b.begin_game(header_of(kd), "board-1", "fw 0.1")
        b.close_game(first, "new_game")  # the board started another game: no more entries for the first
        b.close_game(first, "later")  # an ended game stays as it ended
        assert b.game(first)["result"] == {"ending": "new_game"} and b.game(second)["ended"] is None
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(path))
    code, out, err = run(capsys, "log", "list")
    rows = out.splitlines()
    assert code == 0 and len(rows) == 3
    at = rows[0].index("STATE")
    assert rows[1][at:] == "left unfinished for a new game" and rows[2][at:] == "open"
    assert rows[0].index("BOARD") == rows[1].index("board-1") == rows[2].index("board-1")


def test_an_older_logbook_is_backed_up_then_migrated(tmp_path, monkeypatch):
    """A logbook of schema 2 (before the players) opened by this chancery: a copy of it, as it
    was, is made beside it first, then it is migrated and keeps every game. (Fails without
    the backup: no .schema2.bak; and fails if the copy were taken after the migration: the
    copy's schema would be 3 with a players table.)"""
    path = tmp_path / "lb.sqlite3"
    m = played_match()
    with monkeypatch.context() as old:
        old.setattr(logbook, "SCHEMA_VERSION", 2)
        old.setattr(logbook, "MIGRATIONS", logbook.MIGRATIONS[:2])
        with Logbook(path) as b:
            gid = fill(b, header_of(m), m["entries"])
            assert b.backed_up is None  # a new logbook has nothing to keep
    with Logbook(path) as b:
        assert b.backed_up == tmp_path / "lb.sqlite3.schema2.bak"
        assert b._db.execute("SELECT version FROM schema_version").fetchall() == [(logbook.SCHEMA_VERSION,)]
        assert list(b.entries(gid)) == m["entries"]
        assert b.set_names(gid, ["Ada", None]) is True  # the players' tables are there now
    copy = sqlite3.connect(str(tmp_path / "lb.sqlite3.schema2.bak"))
    assert copy.execute("SELECT version FROM schema_version").fetchall() == [(2,)]
    assert copy.execute("SELECT name FROM sqlite_master WHERE name='players'").fetchall() == []
    assert copy.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == len(m["entries"])  # the WAL's too
    copy.close()
    with Logbook(path) as b:  # up to date: no second copy
        assert b.backed_up is None
    assert sorted(p.name for p in tmp_path.glob("*.bak*")) == ["lb.sqlite3.schema2.bak"]


WRITER = r"""
import json, sys, time
from chancery.logbook.store import Logbook

games, name = json.load(open(sys.argv[1])), sys.argv[3]
print("ready", flush=True)
sys.stdin.readline()  # both start writing at once
book = Logbook(sys.argv[2], timeout=30.0)  # the machine may be loaded: the test is of correctness, not speed
for n in range(len(games)):
    # the first half of game 0 on one board for both (a game still open: both continue the one game,
    # entry against entry), then every game on a board of each writer's own
    for board, entries in (("shared", games[0]["entries"][:40]), ("%s-%d" % (name, n), games[n]["entries"])):
        gid = book.begin_game(games[0 if board == "shared" else n]["header"], board, "fw")
        for i, entry in enumerate(entries):
            book.add_entry(gid, i, entry)  # the other one's entry already there: False, not an error
        book.set_names(gid, [name, None])
print("done", flush=True)
"""


def test_openings_of_a_new_logbook_at_once_all_succeed(tmp_path):
    """Three openings of one new logbook at the same instant (a mirror, an import, a second host)
    all succeed. Switching a new file to WAL takes its exclusive lock, and SQLite answers "locked"
    at once, without the busy timeout, to one of two openings that both read the file first. A CI
    run failed so (test_two_processes_writing_at_once_store_everything_once); before Logbook._wal
    tried the switch again, 7 rounds in 300 failed here."""
    import threading
    failed = []
    for n in range(300):
        path = tmp_path / ("lb%d.sqlite3" % n)
        start = threading.Barrier(3)

        def open_it():
            start.wait()
            try:
                Logbook(path, timeout=5.0).close()
            except LogbookError as e:
                failed.append((n, str(e)))
        threads = [threading.Thread(target=open_it) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failed == []


def test_two_processes_writing_at_once_store_everything_once(tmp_path):
    """Two host processes log into one logbook at the same time, commit against commit: four
    games each of their own, and one open game both continue. Both finish without an error (the
    busy timeout waits for the write lock), every game is there once and whole, and the
    database is sound. (Fails with Logbook's timeout=0: "the logbook ... is locked".)"""
    games = []
    for seed in (4, 5, 6, 7):
        header, entries = whole_game(seed)
        games.append({"header": header, "entries": entries})
    src, db, child = tmp_path / "games.json", tmp_path / "lb.sqlite3", tmp_path / "writer.py"
    src.write_text(json.dumps(games))
    child.write_text(WRITER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "host"), str(ROOT)]))
    procs = [subprocess.Popen([sys.executable, str(child), str(src), str(db), name], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for name in ("Ada", "Bea")]
    for p in procs:
        assert p.stdout.readline() == "ready\n", p.stderr.read()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and out == "done\n", err
    with Logbook(db) as b:
        assert b.check() == [] and b.journal_mode() == "wal"
        held = b.games()
        want = ["%s-%d" % (name, n) for name in ("Ada", "Bea") for n in range(4)] + ["shared"]
        assert sorted(g["board_id"] for g in held) == want
        for g in held:
            n = 0 if g["board_id"] == "shared" else int(g["board_id"].split("-")[1])
            expect = games[n]["entries"][:40] if g["board_id"] == "shared" else games[n]["entries"]
            assert list(b.entries(g["id"])) == expect
            assert b.names(g["id"])[0] in ("Ada", "Bea")


def test_a_kept_game_pulled_from_a_board_is_stored_once(book):
    """Logbook.store_kept (a finished game a board kept on flash, pulled after a connect): the
    game the link mirrored while it was played (here up to a pulled cable, then closed when the
    board started another) gets the rest and the real ending; pulled again (an ack lost), nothing
    changes, also when it comes cut short (the board's removal of its flash was cut: the game's
    last part goes first); a game whose entries differ is another game. (Fails with store_kept
    inserting a game each time: the mirrored game is stored a second time; and with a shorter
    pull taken for another game.)"""
    header, entries = whole_game(6)
    gid = fill(book, header, entries[:10])
    book.close_game(gid, "new_game")
    assert book.store_kept(header, "board-1", "fw 0.1", 1, entries, ["Ada", None, None, "Dee"]) == gid
    assert list(book.entries(gid)) == entries and book.game(gid)["result"] != {"ending": "new_game"}
    assert book.names(gid)[0] == "Ada"
    assert book.store_kept(header, "board-1", "fw 0.1", 1, entries) == gid
    # pulled again cut short: a board cut while it removed the game's flash (its last part first)
    assert book.store_kept(header, "board-1", "fw 0.1", 1, entries[:7]) == gid
    assert list(book.entries(gid)) == entries
    other = [dict(entries[0], digest="00000000")]
    again = book.store_kept(header, "board-1", "fw 0.1", 1, other)
    assert again != gid and book.game(again)["result"] == {"ending": "new_game"}  # it did not end
    assert len(book.games()) == 2


def test_a_refused_import_creates_no_logbook_and_a_key_given_twice_is_refused(tmp_path, monkeypatch, capsys):
    """Issue 44: `log import` of a file it refuses left an empty logbook where there was none; and a
    header with a key given twice (two "settings") was read by its last, another game than the one its
    first says. Both are refused in words now, the logbook untouched."""
    book = tmp_path / "book.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(book))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run(capsys, "log", "import", str(bad))
    assert code == 2 and "cannot import" in err and not book.exists()
    m = played_match()
    saved = tmp_path / "game.jsonl"
    header = dict([(k, m[k]) for k in ("format", "game", "seed", "settings", "start")])
    text = canon.encode(header)
    twice = text[:-1] + ',"settings":' + canon.encode(dict(header["settings"], players=4)) + "}"
    saved.write_text(twice + "\n" + "\n".join(canon.encode(e) for e in m["entries"]) + "\n")
    code, out, err = run(capsys, "log", "import", str(saved))
    assert code == 2 and "given twice" in err and "settings" in err and not book.exists(), err


def test_an_open_board_games_export_does_not_claim_its_seed_predicts_the_boards_rolls(tmp_path, monkeypatch,
                                                                                       capsys):
    """Issue 45: the board rolls from its own entropy (never written), so an open board game's export
    does not warn that its seed predicts the rolls; and an export file is written with the usual
    mode (the umask's), not the temporary file's 0600."""
    book_path = tmp_path / "book.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(book_path))
    header, entries = whole_game(3)
    with Logbook(str(book_path)) as book:
        gid = fill(book, header, entries[:4])
    target = tmp_path / "open.jsonl"
    old = os.umask(0o022)
    try:
        code, out, err = run(capsys, "log", "export", str(gid), "--format", "jsonl", "-o", str(target))
    finally:
        os.umask(old)
    assert code == 0 and "predict" not in err, err
    assert (os.stat(target).st_mode & 0o777) == 0o644


def test_log_show_says_settings_and_sealed_ballots_in_words(tmp_path, monkeypatch, capsys):
    """Issue 45: `log show` printed the settings as raw JSON and a sealed ballot's entries as Python
    dicts ({'type': 'ballot_cast', ...})."""
    from shared_rules import engine, matches

    book_path = tmp_path / "book.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(book_path))
    m = engine.new_match("chancellors", {"players": 3, "extended": True}, 7)
    acts = [{"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay"]},
            {"type": "ballot_cast", "seat": 1}, {"type": "ballot_close"},
            {"type": "ballot_reveal", "choices": [None, "Nay", None]}]
    entries = [engine.apply(m, a) for a in acts]
    with Logbook(str(book_path)) as book:
        gid = fill(book, matches.log_of(dict(m, entries=[])), entries)
    code, out, err = run(capsys, "log", "show", str(gid))
    assert code == 0 and "Game %d: chancellors, 3 players, extended" % gid in out, out
    assert "{'type'" not in out and "ballot_cast seat=1" in out, out
