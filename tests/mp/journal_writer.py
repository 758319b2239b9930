"""Journals a game the way the board does; the power-cut tests kill it at random moments.

    micropython journal_writer.py DIR ACTIONS [--every K] [--slow PIECE US]
    micropython journal_writer.py --check DIR [DIR ...]

Write mode: resumes the game journalled in DIR (or starts it from ACTIONS' header line
when DIR holds none), then plays ACTIONS' remaining actions (one JSON action per line
after the header) through engine.step, journalling each entry before it says so; a line
"undo" (the JSON string) takes the last entry back, as the board's table does (a writer
that resumes after a kill assumes no such line: it skips one action line per entry):

    started | resumed COUNT DIGEST CUT SNAP_AT
    ack INDEX DIGEST          (after Journal.append returned: the board's acknowledgement)
    undone COUNT DIGEST       (after Journal.undo returned and the game was resumed)
    done COUNT DIGEST

--slow writes every file in PIECE-byte pieces, sleeping US microseconds between them, so a
SIGKILL lands mid-line, mid-snapshot or mid-cut the way a power cut lands mid-program.

Check mode: resumes each DIR and prints "ok COUNT DIGEST CUT SNAP_AT" or
"error CODE LINE FILE" (the tests compare these lines with CPython's, case by case).
MicroPython-safe; exit status 0, or 2 when a journal error stopped the writer.
"""

import json
import sys
import time

from firmware.journal import Journal, JournalError, NoGame
from shared_rules import engine


class SlowFile:
    """A file whose writes go out in small pieces, slowly (reads pass straight through)."""

    def __init__(self, f, piece, us):
        self.f, self.piece, self.us = f, piece, us

    def write(self, data):
        mv = memoryview(data)
        for i in range(0, len(mv), self.piece):
            self.f.write(mv[i:i + self.piece])
            if hasattr(time, "sleep_us"):
                time.sleep_us(self.us)
        return len(mv)

    def flush(self):
        self.f.flush()

    def fileno(self):
        return self.f.fileno()

    def close(self):
        self.f.close()


class SlowJournal(Journal):
    piece = 32
    us = 100

    def open(self, path, mode):
        f = open(path, mode)
        return SlowFile(f, self.piece, self.us) if "r" not in mode else f


def _out(text):
    sys.stdout.write(text + "\n")


def outcome(folder):
    """The check-mode line for one folder."""
    try:
        j = Journal(folder)
        header, state, count = j.resume()
        j.close()
        return "ok %d %s %d %d" % (count, j.last, j.cut, j.snap_at)
    except JournalError as e:
        name = e.path[e.path.rfind("/") + 1:]
        return "error %s %s %s" % (e.code, "-" if e.line is None else e.line, name)


def write(folder, actions, every, slow):
    j = SlowJournal(folder, every) if slow else Journal(folder, every)
    if slow:
        j.piece, j.us = slow
    f = open(actions)
    header = json.loads(f.readline())
    try:
        header, state, count = j.resume()
        _out("resumed %d %s %d %d" % (count, j.last, j.cut, j.snap_at))
    except NoGame:
        j.start(header)
        state = engine.new_match(header["game"], header["settings"], header["seed"])["state"]
        count = 0
        _out("started")
    game = header["game"]
    header = None
    last = j.last
    n = 0
    while True:
        line = f.readline()
        if not line:
            break
        if n < count:
            n += 1
            continue
        move = json.loads(line)
        line = None
        if move == "undo":
            for entry in j.entries(count - 1):
                last = entry["digest"]
            j.undo(last)
            state = entry = None
            header, state, count = j.resume()
            last = j.last
            _out("undone %d %s" % (count, last))
            n += 1
            continue
        act, events, state, last = engine.step(game, state, move, last)
        j.append(count, {"action": act, "events": events, "digest": last}, state)
        act = events = None
        _out("ack %d %s" % (count, last))
        count += 1
        n += 1
    f.close()
    j.close()
    _out("done %d %s" % (count, last))


def main(argv):
    if argv and argv[0] == "--check":
        for folder in argv[1:]:
            _out(outcome(folder))
        return 0
    every, slow = 16, None
    i = 2
    while i < len(argv):
        if argv[i] == "--every":
            every = int(argv[i + 1])
            i += 2
        elif argv[i] == "--slow":
            slow = (int(argv[i + 1]), int(argv[i + 2]))
            i += 3
        else:
            _out("bad argument " + argv[i])
            return 2
    try:
        write(argv[0], argv[1], every, slow)
    except JournalError as e:
        _out("error " + str(e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
