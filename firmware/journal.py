"""The board's journal: each accepted action is on flash before the board acknowledges it.

Folder: game.jsonl (the header {format, game, settings, seed, start}, then one line per
entry), snap.json (the state after `count` entries, the digest the next entry chains on, the
state's own digest as `sum`, and the header line's CRC, so it never applies to another game), doneN.jsonl
(the finished games: start() renames game.jsonl to the next N, and only the host's ack of a
game it has stored removes one: firmware/kept.py) and *.tmp (written, flushed, renamed over
its target). No `current` marker: game.jsonl's presence is one.

A line is TAG " " JSON " " CRC "\\n": TAG "h" (header), "s" (snapshot) or the entry's index
(catches a line lost or repeated whole); JSON canon's encoding, streamed through a
preallocated buffer; CRC the CRC-32 of the bytes before the last space, trailing so that
one pass writes the line and sums it.

Power cuts: littlefs commits a file at flush and renames atomically, so the in-flight line
is whole or absent; POSIX (the unix port, the simulated board) and FAT may keep a prefix.
One append is one flushed line, so only the last line can be torn, and it then lacks its
newline: resume() cuts it. Any newline-ended line that fails its CRC, index or replay is
corruption, reported (JournalError: file, line, reason), never dropped. The cut copies the
good part to game.tmp and renames it over (MicroPython's files have no truncate(), on any
VFS); a cut during the cut leaves the old file whole. FAT's rename deletes the target
first, so a lone .tmp whose first line is whole is promoted (FAT is not power-safe anyway).

On a Pico (rp2) the lines go elsewhere: programmed into flash a littlefs reservation file
erased beforehand (firmware/flash_log.py says why and how), an append costing page programs
only (about 2 ms on the chip against 58-104 ms for a flushed littlefs append). Same lines,
same checks; the header is the first line of the game's first reservation; there is no
game.jsonl nor doneN.jsonl (a finished game stays in its reservations); snap.json as above.

Undo: a line tagged "u", {"count": N, "undone": DIGEST}, appended like an entry, takes the
log back to N entries (the entry whose digest is DIGEST). Nothing is rewritten, on either
store: the entry stays on flash, and entries() reads past every entry a later "u" line took
back, so the log it gives holds indices 0..count-1 once each, in order. The next entry gets
index N again. A snapshot taken after entry N goes before the "u" line is written.

Names: a line tagged "n", {"names": [...]} (one per seat, null for a seat without a name),
appended like an entry when the seats are named (firmware/names.py writes it); the last
one holds. It is no entry: entries() reads past it, and the names stay out of the log and
its digests (seat numbers are the log's key). In the game's own journal, the names go
wherever the game goes, and a power cut leaves the line whole or torn as any other.
"""

import binascii
import os

from firmware.journal_line import (  # noqa: F401 (GAME..NoGame: the journal's names for its callers)
    GAME,
    MAX_LINE,
    SNAP,
    JournalError,
    NoGame,
    _abandon,
    _replace,
    _sync,
)
from shared_rules import canon
from shared_rules.compat import const

_BUF = const(512)  # as journal_line's: a private const is inlined, not importable


try:
    memoryview("")  # MicroPython: a str is a buffer of its UTF-8 bytes

    def _bytes(text):
        return memoryview(text)

except TypeError:  # CPython: bytes of it

    def _bytes(text):
        return text.encode()


def _program(fl, texts):
    """Program one line (the `texts` in turn, then their CRC and a newline) into the raw flash
    log, whole in one reservation; returns its CRC. A failure leaves the journal closed.
    The texts go to the page buffer one by one: no joined line, nor its bytes, which were
    three copies of an entry on the heap at once (a few hundred bytes each, that a board's
    fragmented heap may not find)."""
    parts = [_bytes(t) for t in texts]
    crc = n = 0
    for part in parts:
        crc = binascii.crc32(part, crc)
        n += len(part)
    crc = "%08x" % (crc & 0xFFFFFFFF)
    parts.append(_bytes(" " + crc + "\n"))
    fl.room(n + 10)
    fl.put(parts, n + 10)
    return crc



def _flash(folder):
    """The raw flash log on a Pico (rp2: the folder is on the littlefs of rp2.Flash()), else None."""
    try:
        import rp2
    except ImportError:
        return None
    from firmware import flash_log

    return flash_log.FlashLog(flash_log.LfsStore(folder, rp2.Flash()))


class Journal:
    """One game's journal in `folder`; a snapshot every `every` entries (0: never). `store`:
    where the entries go: None, on a Pico the raw flash log (firmware/flash_log.py), elsewhere
    game.jsonl; False game.jsonl; or a flash_log store (LfsStore, flash_files.FileStore) for the raw log."""

    def __init__(self, folder, every=16, store=None):
        self.folder, self.every = folder, every
        if store is None:
            self.flash = _flash(folder)
        elif store:
            from firmware import flash_log

            self.flash = flash_log.FlashLog(store)
        else:
            self.flash = None
        self.count = 0    # entries on flash
        self.last = None  # the digest the next entry chains on (the last entry's, or the start)
        self.head = None  # the header line's CRC: binds a snapshot to its game
        self.cut = 0      # bytes of torn tail the last resume() cut off
        self.at = None    # the file that holds the last entry entries() gave
        self.at_line = 0  # and its line number
        self.snap_at = 0  # entries the last resume() took from the snapshot
        self.snapped = 0  # entries the snapshot on flash holds (0: none)
        self.first = None  # the header's start digest (what entry 0 chains on)
        self.cuts = None  # [(row, count)] of each "u" line (None: not read yet; entries() reads them)
        self.rows = 0     # lines after the header, "u" and "n" lines included (known with cuts)
        # the seats' names: the last "n" line's list (read with cuts), None if none. Every identifier a
        # boot loads is interned for good, and the board's pool of them is nearly full: "names" is built in
        self.names = None
        self._f = self._out = None
        self._buf = bytearray(_BUF)
        if self.flash is not None:
            self.flash.buf = self._buf  # the pages it programs (2)
        self._n = self._crc = self._len = self._good = self._size = self._lines = 0

    def _p(self, name):
        return self.folder + "/" + name

    def _open(self, path, mode):  # every file is opened here: a test subclass slows writes
        return open(path, mode)

    def close(self):
        f, self._f = self._f, None
        if f is not None:
            f.close()

    def tidy(self):
        """One step of what waits for idle time (the raw flash log's next reservation, the
        removal of an old one); True while there is more. The board calls it after a redraw."""
        return self.flash is not None and self.flash.tidy()

    def _put(self, piece):
        data = piece.encode()
        self._len += len(data)
        if self._len > MAX_LINE - 10:  # refused before MAX_LINE bytes are out: cut as torn
            raise JournalError("too_long", self._p(GAME), None, "a line over %d bytes" % MAX_LINE)
        i = 0
        while i < len(data):
            k = min(len(data) - i, _BUF - self._n)
            self._buf[self._n:self._n + k] = data[i:i + k]
            self._n += k
            i += k
            if self._n == _BUF:
                self._drain()

    def _drain(self):
        mv = memoryview(self._buf)[:self._n]
        self._crc = binascii.crc32(mv, self._crc)
        self._out.write(mv)
        self._n = 0

    def _line(self, f, tag, value, pieces=None):
        """Stream one line to f and flush it: value's canonical text, or the texts in
        `pieces` that make it up; returns its CRC."""
        self._out, self._n, self._crc, self._len = f, 0, 0, 0
        try:
            self._put(tag + " ")
            if pieces is None:
                canon.dump(value, self._put)
            else:
                for piece in pieces:
                    self._put(piece)
            self._drain()
        finally:
            # not kept: a closed littlefs file still holds its 1.1 KB buffer, and a snapshot's or the
            # ballot box's would stay in the board's heap until the next line went through here
            self._out = None
        crc = "%08x" % (self._crc & 0xFFFFFFFF)
        f.write((" " + crc + "\n").encode())
        _sync(f)
        return crc

    def _tmp(self, name, tag, value):
        """Write the one-line file `name`.tmp; returns the line's CRC."""
        f = self._open(self._p(name + ".tmp"), "wb")
        try:
            crc = self._line(f, tag, value)
        except Exception:
            _abandon(f)
            raise
        f.close()
        if hasattr(os, "sync"):
            os.sync()
        return crc

    def start(self, header):
        """A new game; the old one becomes the next doneN.jsonl: firmware/journal_start.py,
        loaded for it and let go after (a board begins a game at its first boot, and from the
        table's menu or a host: its code need not stay in the heap beside the game's)."""
        from firmware import journal_start

        journal_start.start(self, header)

    def append(self, index, entry, state=None):
        """Journal entry `index` {action, events, digest}; returns once it is flushed. With
        `state` (after it), a snapshot every `every` entries (the entry stays if that fails).
        A failed write closes the journal: resume() cuts the partial line first."""
        self.write(index, canon.encode(entry["action"]), canon.encode(entry["events"]), entry["digest"])
        if state is not None and self.due():
            self.snapshot(state)

    def write(self, index, action_text, events_text, digest):
        """Journal entry `index` from the canonical texts of its action and events (the
        board has them already: they are what its digest was taken of); returns once it
        is flushed. The line is the entry's canonical encoding, byte for byte."""
        if self._f is None or index != self.count:
            raise JournalError("not_open" if self._f is None else "out_of_order", self._p(GAME), None,
                               "entry %d; the journal holds %d" % (index, self.count))
        size = len(action_text) + len(events_text) + len(digest) + 60  # the tag, the keys, the CRC
        if size > MAX_LINE:  # refused whole, before a byte is out: the journal stays as it was
            raise JournalError("too_long", self._p(GAME), None, "entry %d: a line over %d bytes" % (index, MAX_LINE))
        f, self._f = self._f, None
        if f is self.flash:  # the line's texts summed, then programmed one after another (as the file journal streams);
            # the small pieces joined (each piece is a buffer, a CRC and a copy: about 0.1 ms on a Pico)
            _program(f, ('%d {"action":' % index, action_text, ',"digest":"%s","events":' % digest, events_text, "}"))
        else:
            try:
                self._line(f, str(index), None, ('{"action":', action_text, ',"digest":"', digest, '","events":',
                                                 events_text, "}"))
            except Exception:
                _abandon(f)
                raise
        self._f = f
        self.count += 1
        self.last = digest
        self.rows += 1

    def undo(self, undone):
        """Take back the last entry (`undone`: its digest): firmware/undo.py, loaded for it."""
        from firmware import undo

        undo.write(self, undone)

    def due(self):
        """True when a snapshot is due (every `every` entries): the board takes it once the
        entry is shown, off the path from a press to the LEDs."""
        return self.every and self.count and self.count % self.every == 0

    def snapshot(self, state):
        """Replace snap.json with `state`, the state after `count` entries (and `last`,
        the digest the entries after it chain on)."""
        self._tmp(SNAP, "s", {"count": self.count, "digest": self.last, "head": self.head, "state": state,
                              "sum": canon.digest(state)})
        _replace(self._p(SNAP + ".tmp"), self._p(SNAP))
        self.snapped = self.count

    def _scan(self):
        """Find the undo lines ("u") and the last names line ("n"): firmware/journal_read.py."""
        from firmware import journal_read as reader

        reader.scan(self)

    def entries(self, start=0):
        """Yield the complete entries from index `start` on, one at a time (RAM), skipping
        those a later "u" line took back: firmware/journal_read.py, loaded while they are read."""
        from firmware import journal_read as reader

        yield from reader.entries(self, start)

    def resume(self, engine=None):
        """Load the game: header, snapshot, then each later entry replayed, every digest
        checked; a torn tail is cut. Returns (header, state, count). Bad data raises
        NoGame or JournalError, never another exception. The code lives in
        firmware/resume.py, which is let go once the game is loaded: a board resumes at
        boot only, and the RAM is the game's."""
        from firmware import resume as loader

        return loader.resume(self, engine)
