"""The journal's reading side: its lines read back and checked (firmware/journal/__init__.py
says what they are), for Journal.entries(), resume at boot, undo and a kept game's pull.
"""

from firmware.journal.line import MAX_LINE, JournalError, check, loads, readline

_ENTRY = {"action": dict, "events": list, "digest": str}


def read(f, path, lineno):
    """(tag, json bytes, crc) of the next line; None at the end or at a torn tail."""
    line = readline(f)
    if not line.endswith(b"\n"):
        if len(line) > MAX_LINE:
            raise JournalError("too_long", path, lineno, "over %d bytes" % MAX_LINE)
        return None  # the end, or the last line cut short
    r = check(line)
    if isinstance(r, str):
        raise JournalError(r, path, lineno)
    return r


def _entry(r, index, start, path, lineno):
    """The entry in line r (True before `start`: checked by CRC and index only)."""
    if r[0] != str(index).encode():
        raise JournalError("bad_index", path, lineno, "entry %s, expected %d" % (r[0], index))
    entry = loads(r[1], _ENTRY) if index >= start else True
    if entry is None:
        raise JournalError("bad_entry", path, lineno, "not an entry {action, events, digest}")
    return entry


def _each_line(journal):
    """Yield (path, line number, (tag, json, crc)) of each whole line after the header, in
    order; afterwards (the file journal) good and size say where whole lines end."""
    if journal.flash is not None:
        lineno = 1
        for region, r in journal.flash.rows():
            lineno += 1
            yield region.path, lineno, r
        return
    path = journal.path(journal.game)
    f = journal.open(path, "rb")
    try:
        read(f, path, 1)
        lineno, journal.good = 1, f.tell()
        while True:
            r = read(f, path, lineno + 1)
            if r is None:
                break
            lineno += 1
            yield path, lineno, r
            r, journal.good = None, f.tell()
        journal.size = f.tell()
    finally:
        f.close()


def scan(journal):
    """Find the undo lines ("u") and the last names line ("n"): one pass, reading only their JSON."""
    cuts, row, names = [], 0, None
    for path, lineno, r in _each_line(journal):
        if r[0] == b"u":
            u = loads(r[1], {"count": int})
            if u is None:
                raise JournalError("bad_undo", path, lineno, "not an undo line {count, undone}")
            cuts.append((row, u["count"]))
        elif r[0] == b"n":
            names = loads(r[1], {"names": list})
            if names is None:
                raise JournalError("bad_entry", path, lineno, "not a names line {names}")
        row += 1
    journal.cuts, journal.rows, journal.names = cuts, row, names and names["names"]


def entries(journal, start=0):
    """Yield the complete entries from index `start` on, one at a time (RAM), skipping
    those a later "u" line took back. Every line is checked; those before `start` (or
    taken back) only by CRC and index: parsing costs time."""
    if journal.cuts is None:  # read once, at resume (or a first read)
        scan(journal)
    cuts = journal.cuts
    keep, low = [0] * len(cuts), -1  # keep[k]: the count the "u" lines from the k-th on leave at least
    for k in range(len(cuts) - 1, -1, -1):
        if low < 0 or cuts[k][1] < low:
            low = cuts[k][1]
        keep[k] = low
    k = row = index = 0
    for path, lineno, r in _each_line(journal):
        if r[0] == b"u":
            if k >= len(cuts) or cuts[k][0] != row or not 0 <= cuts[k][1] < index:
                raise JournalError("bad_undo", path, lineno, "back to %s entries; the log held %d" % (
                    cuts[k][1] if k < len(cuts) else "?", index))
            index = cuts[k][1]
            k += 1
        elif r[0] != b"n":  # a names line is no entry
            live = k >= len(cuts) or index < keep[k]
            entry = _entry(r, index, start if live else 0x3FFFFFFF, path, lineno)
            index += 1
            if entry is not True:
                journal.at, journal.at_line = path, lineno
                yield entry
        r, row = None, row + 1
    journal.length = index
