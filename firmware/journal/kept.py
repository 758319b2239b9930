"""The finished games a board keeps on flash until the host has stored them (issue 17): where
they are, reading one, removing one. The host's side of it (pull, ack) is firmware/kept.py's.

The file journal renames the game under way to doneN.jsonl when the next one starts (N one
above the last: next_name(); a board of before keeps one prev.jsonl, which is game 0 here).
On a Pico's raw flash log a finished game is its reservations, from the one its header begins
to the next game's (firmware/journal/flash.py). A kept game's id is that N, or its header's
reservation number: the smaller, the older. Nothing but the host's ack removes one.
"""

import os

from firmware.journal import flash_read
from firmware.journal.line import JournalError, check, loads, readline

_PREV = "prev.jsonl"  # where a board of before kept its one finished game


def _done(name):
    """N of a doneN.jsonl, else None."""
    if name[:4] == "done" and name[-6:] == ".jsonl" and name[4:-6].isdigit():
        return int(name[4:-6])
    return None


def next_name(folder):
    """The name the game under way gets when it ends: doneN.jsonl, N above every kept game's."""
    n = 0
    for name in os.listdir(folder):
        k = _done(name)
        if k is not None and k > n:
            n = k
    return "done%d.jsonl" % (n + 1)


def games(journal):
    """[(id, where)] of the kept games, oldest first: where is the file's name in the folder
    (the file journal) or the game's [(reservation number, region)] (the raw flash log)."""
    if journal.flash is None:
        out = []
        for name in os.listdir(journal.folder):
            k = 0 if name == _PREV else _done(name)
            if k is not None:
                out.append((k, name))
        out.sort()
        return out
    fl = journal.flash
    seqs = fl.store.seqs()
    regions = fl.store.regions(seqs)
    out = []
    for seq in seqs:
        region = regions[seq]
        if region is None:
            continue
        line, end, whole = flash_read.line_at(fl, region, 0)
        got = check(line) if whole else "torn"
        if not isinstance(got, str) and got[0] == b"h":
            out.append((seq, [(seq, region)]))
        elif out:  # the game's next reservation (before the first header: no game's, tidy() removes it)
            out[-1][1].append((seq, region))
    return out[:-1]  # the last header's is the game under way


def open_game(journal, cls, where):
    """(a `cls` journal reading the kept game `where`, its header)."""
    if journal.flash is None:
        reader = cls(journal.folder, 0, False, where)
        path = reader.path(where)
        f = open(path, "rb")
        try:
            got = check(readline(f))
        finally:
            f.close()
    else:
        reader = cls(journal.folder, 0, journal.flash.store)
        reader.flash.game = [r for s, r in where]
        reader.flash.loaded = True
        path = where[0][1].path
        got = check(flash_read.line_at(reader.flash, where[0][1], 0)[0])
    header = None if isinstance(got, str) else loads(got[1], {"game": str, "seed": int, "start": str})
    if header is None:
        raise JournalError("bad_header", path, 1, "a kept game without a whole header")
    return reader, header


def remove(journal, where):
    """Remove a kept game (a flash game's reservations the last first: a cut leaves its header
    and fewer lines, a game the host pulls again and has)."""
    if journal.flash is None:
        os.remove(journal.path(where))
    else:
        for s, region in reversed(where):
            journal.flash.store.remove(s)
