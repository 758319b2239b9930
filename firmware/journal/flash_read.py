"""The raw flash log's reading side (firmware/journal/flash.py says what it keeps where):
finding a game's reservations and reading their lines back, for FlashLog's load(), rows() and
reopen(), and a kept game's first line (firmware/journal/kept.py).
"""

from firmware.journal.line import MAX_LINE, JournalError, check
from firmware.journal.store import FF, PAGE


def _empty(fl, region):
    region.read(0, fl.rbuf)
    return fl.rbuf[0] == 0xFF


def load(fl):
    """Map the folder's reservations; returns the game's header line, checked, as
    (tag, json, crc), or None when no game has a whole header."""
    if fl.maker is not None:  # a spare half made: cut short, like one a power cut left
        fl.maker.close()
        fl.maker = None
    seqs = fl.store.seqs()
    fl.top = seqs[-1] if seqs else -1
    regions = fl.store.regions(seqs)
    valid = [s for s in seqs if regions[s] is not None]
    starts = []
    head = None
    for seq in valid:
        line, end, whole = line_at(fl, regions[seq], 0)
        got = check(line) if whole else "torn"
        if not isinstance(got, str) and got[0] == b"h":
            starts.append(seq)
            head = got
    fl.spare = None
    if valid and valid[-1] not in starts and _empty(fl, regions[valid[-1]]):
        fl.spare = regions[valid.pop()]
    first = starts[-1] if starts else fl.top + 1
    keep = starts[0] if starts and fl.keep else first
    fl.game = [regions[s] for s in valid if s >= first]
    # the finished games stay until the host has stored them (firmware/kept.py); what goes is
    # what no game begins (before the first header) and a reservation cut short while it was
    # made (the newest), but not one that lost its markers among a game's: reading names that damage
    newest = valid[-1] if valid else -1
    fl.old = [s for s in valid if s < keep] + [s for s in seqs if regions[s] is None and s > newest]
    fl.loaded = True
    fl.cur, fl.end, fl.torn = None, None, 0
    return head


def line_at(fl, region, pos):
    """(bytes, end, whole) of the line at pos: whole when it ends with its newline; it
    stops early at erased flash, at the region's end and past MAX_LINE."""
    out = b""
    limit = region.pages * PAGE
    buf = fl.rbuf
    while pos < limit and len(out) <= MAX_LINE:
        region.read(pos // PAGE, buf)
        page = bytes(buf)
        off = pos % PAGE
        nl, ff = page.find(b"\n", off), page.find(b"\xff", off)
        if ff >= 0 and (nl < 0 or ff < nl):
            return out + page[off:ff], pos + ff - off, False
        if nl >= 0:
            return out + page[off:nl + 1], pos + nl + 1 - off, True
        out += page[off:]
        pos += PAGE - off
    return out, pos, False


def _erased(fl, region, a, b):
    buf = fl.rbuf
    while a < b:
        region.read(a // PAGE, buf)
        off = a % PAGE
        if buf[off:] != FF[off:]:
            return False
        a += PAGE - off
    return True


def rows(fl):
    """Yield (region, (tag, json, crc)) for each whole line of the game after its header,
    in order. A line that fails its check ends its region's lines when the flash after
    the pages it could have touched is erased (a torn program, whose page may hold bits
    left half programmed), else raises JournalError
    (its region's file and its line number). Afterwards `end` and `torn` say where the
    lines stopped."""
    lineno = 1
    fl.torn = 0
    for n in range(len(fl.game)):
        region = fl.game[n]
        pos = 0
        if n == 0:  # the header, checked by load()
            pos = line_at(fl, region, 0)[1]
            fl.end = (region, pos)
        limit = region.pages * PAGE
        while pos < limit:
            line, end, whole = line_at(fl, region, pos)
            if not line:
                break
            lineno += 1
            got = check(line) if whole else ("too_long" if len(line) > MAX_LINE else "bad_format")
            if isinstance(got, str):
                # the pages a torn program could have touched end with the one holding `end`: its
                # bits may be half programmed (any of them, not a prefix), so even an `end` on a
                # page's first byte (a half-programmed byte read as erased) leaves that page out
                zone = (end // PAGE + 1) * PAGE
                if end - pos > MAX_LINE or not _erased(fl, region, zone, limit):
                    raise JournalError(got, region.path, lineno)
                fl.torn = end - pos
                lineno -= 1
                break
            fl.torn = 0
            yield region, got
            pos = end
            fl.end = (region, pos)


def reopen(fl):
    """After a read to the end: the writer goes on after the last whole line, or in the
    next reservation when a torn line, or bits a torn program set, lie beyond it."""
    region, pos = fl.end
    fl.cur, fl.pos = region, pos
    if fl.torn or not _erased(fl, region, pos, region.pages * PAGE):
        fl.advance()
