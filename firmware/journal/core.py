"""The Journal: the one object the firmware holds for its flash (firmware/journal/__init__.py
says what it keeps where, and in what format). It writes the lines itself (entries, side lines,
snapshots, one-line files); reading, a new game, resuming and the kept games are each a module
of the package, which it calls."""

import binascii
import os

from firmware.journal import kept, read, resume
from firmware.journal.flash import RUN, FlashLog
from firmware.journal.line import (
    BUF,
    GAME,
    MAX_LINE,
    SNAP,
    JournalError,
    abandon,
    check,
    crc_hex,
    exists,
    loads,
    readline,
    remove,
    replace,
    sync,
    whole,
)
from firmware.journal.start import start as start_game
from firmware.journal.store import PAGE, LfsStore
from shared_rules import canon
from shared_rules.errors import RuleError

ENOSPC = 28  # the errno of a write a full flash refuses (littlefs, FAT, POSIX)


def _flash(folder):
    """The raw flash log on a Pico (rp2: the folder is on the littlefs of rp2.Flash()), else None."""
    try:
        import rp2
    except ImportError:
        return None
    return FlashLog(LfsStore(folder, rp2.Flash()))


class Journal:
    """One game's journal in `folder`; a snapshot every `every` entries (0: never). `store`:
    where the entries go: None, on a Pico the raw flash log (firmware/journal/flash.py),
    elsewhere game.jsonl; False game.jsonl; or a store of reservations (store.LfsStore,
    files.FileStore) for the raw log. `game`: the game's file in the folder (game.jsonl; a kept
    game's, to read it: firmware/journal/kept.py)."""

    def __init__(self, folder, every=16, store=None, game=GAME):
        self.folder, self.every, self.game = folder, every, game
        if store is None:
            self.flash = _flash(folder)
        elif store:
            self.flash = FlashLog(store)
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
        self.names = None  # the seats' names: the last "n" line's list (read with cuts), None if none
        self.length = 0   # entries the last read of entries() to the end found
        self.good = self.size = 0  # (game.jsonl) where its whole lines end, and its size, as last read
        self.out = None   # where the next line goes: game.jsonl open to append, or the flash log; None: closed
        self.sides = {}   # side file name: (its raw flash log, its lines' JSON, None until read: add())
        # lines streamed to a file go through its first BUF bytes; on raw flash it holds the pages
        # one program call takes (RUN)
        self.buf = bytearray(BUF if self.flash is None else RUN * PAGE)
        if self.flash is not None:
            self.flash.buf = self.buf
        self._to = None   # the file a line is streamed to, and the line's bytes in buf, CRC and length
        self._n = self._crc = self._len = 0

    # --- files in the folder --------------------------------------------------------------

    def path(self, name):
        return self.folder + "/" + name

    def open(self, path, mode):  # every file is opened here: a test subclass slows writes
        return open(path, mode)

    def exists(self, name):
        """True when the folder holds file `name`."""
        return exists(self.path(name))

    def drop(self, name):
        """Remove file `name` (put()'s) from the folder, if it is there. A side file's lines
        (add()'s) go with clear()."""
        remove(self.path(name))

    def clear(self, name):
        """Side file `name` holds no line from now on (add()'s; the file `name` goes too, where
        a firmware before raw-flash side files left it). On raw flash this maps its log (a
        listing of the folder), so only side files are cleared here: drop() is for the rest."""
        fl = self._side(name)
        if fl is not None:
            if not fl.loaded:
                fl.load()
            fl.drop()  # its reservations go in tidy(), off the path from a press to the LEDs
            self.sides[name] = (fl, [])
        remove(self.path(name))

    def tmp(self, name, tag, value):
        """Write the one-line file `name`.tmp; returns the line's CRC."""
        f = self.open(self.path(name + ".tmp"), "wb")
        try:
            crc = self._line(f, tag, value)
        except Exception:
            abandon(f)
            raise
        f.close()
        if hasattr(os, "sync"):
            os.sync()
        return crc

    def put(self, name, tag, value):
        """File `name` holds one line, `tag` and `value`, from now on: written whole to
        name.tmp, then renamed over it, so a cut leaves the old file whole."""
        self.tmp(name, tag, value)
        replace(self.path(name + ".tmp"), self.path(name))

    def get(self, name, keys):
        """The object on the line of one-line file `name` (put()), if the file is there, its
        line whole and the object has `keys` (name: type); else None."""
        try:
            f = self.open(self.path(name), "rb")
        except OSError:
            return None
        try:
            r = check(readline(f))
        finally:
            f.close()
        return None if isinstance(r, str) else loads(r[1], keys)

    def add(self, name, tag, value):
        """A line, `tag` and `value`, added at the end of side file `name` (made if absent),
        flushed before this returns; each() reads the file's lines back.
        Where the journal is on raw flash (a Pico) the side file is a log of its own there,
        reservations PREFIXN.bin (`name` up to its dot): an add programs a page or two of erased
        flash (_side()). Elsewhere it is the file `name`, one commit on littlefs, where put()'s
        write, sync and rename are several (but on a Pico a synced append copies the file's
        last block: an erase, 45 ms on its flash part). Each line is written after a newline,
        so a line that a cut left without its end is one of its own, which each() passes over."""
        fl = self._side(name)
        if fl is not None:
            rows = self._side_rows(name)
            text = canon.encode(value)
            try:
                if fl.cur is None:  # none yet, or dropped: a header begins its lines
                    fl.begin()
                    fl.line(("h ", "{}"))
                fl.line((tag + " ", text))
            except OSError as e:
                del self.sides[name]  # mapped and read again at the next use: a torn line is passed over
                raise self._full(e)
            rows.append(text)
            return
        f = self.open(self.path(name), "ab")
        try:
            f.write(b"\n")
            self._line(f, tag, value)
        except Exception:
            abandon(f)
            raise
        f.close()

    def each(self, name, keys):
        """The objects on the whole lines of file `name` (add()'s, or put()'s one) that have `keys`
        (name: type), in order; none if the file is not there. A line cut short or not this
        format's is passed over: nothing on it was acknowledged. (On raw flash, the lines of
        a file `name` that a firmware before it added come first.)"""
        try:
            f = self.open(self.path(name), "rb")
        except OSError:
            f = None
        try:
            while f is not None:
                line = readline(f)
                if not line:
                    break
                r = check(line)
                v = None if isinstance(r, str) else loads(r[1], keys)
                if v is not None:
                    yield v
        finally:
            if f is not None:
                f.close()
        if self._side(name) is not None:
            for text in self._side_rows(name):
                v = loads(text, keys)
                if v is not None:
                    yield v

    def close(self):
        f, self.out = self.out, None
        if f is not None:
            f.close()

    def tidy(self):
        """One step of what waits for idle time (the raw flash log's next reservation, the
        removal of an old one, a side file's); True while there is more. The board calls it
        after a redraw."""
        if self.flash is None:
            return False
        if self.flash.tidy():
            return True
        for name in self.sides:  # each on its own: the order does not matter
            if self.sides[name][0].tidy():
                return True
        return False

    # --- side files on raw flash (add(), each(), clear()) ----------------------------------

    def _side(self, name):
        """The raw flash log that holds side file `name`, on a board whose journal is on raw
        flash (reservations of one block, named for `name` up to its dot); None elsewhere."""
        if self.flash is None:
            return None
        got = self.sides.get(name)
        if got is None:
            fl = FlashLog(self.flash.store.like(name.split(".")[0], 1), False)
            fl.buf = self.buf  # the journal's page buffer: one line is programmed at a time
            got = self.sides[name] = (fl, None)
        return got[0]

    def _side_rows(self, name):
        """The JSON texts of side file `name`'s whole lines, read from flash once (its log mapped,
        the writer after its last whole line); add() keeps it."""
        fl, rows = self.sides[name]
        if rows is None:
            rows = []
            if not fl.loaded and fl.load() is not None:
                try:
                    for got in fl.rows():
                        rows.append(got[1][1])  # the line's JSON (its tag is the caller's)
                except JournalError:  # a line damaged on flash: the ones before it hold
                    pass
                fl.reopen()  # after the last whole line, or on in a fresh reservation
            self.sides[name] = (fl, rows)
        return rows

    # --- writing a line -------------------------------------------------------------------

    def _put(self, piece):
        data = piece.encode()
        self._len += len(data)
        if self._len > MAX_LINE - 10:  # refused before MAX_LINE bytes are out: cut as torn
            raise JournalError("too_long", self.path(GAME), None, "a line over %d bytes" % MAX_LINE)
        i = 0
        while i < len(data):
            k = min(len(data) - i, BUF - self._n)
            self.buf[self._n:self._n + k] = data[i:i + k]
            self._n += k
            i += k
            if self._n == BUF:
                self._drain()

    def _drain(self):
        mv = memoryview(self.buf)[:self._n]
        self._crc = binascii.crc32(mv, self._crc)
        self._to.write(mv)
        self._n = 0

    def _line(self, f, tag, value):
        """Stream one line to f and flush it: `tag`, then value's canonical text; returns its CRC."""
        self._to, self._n, self._crc, self._len = f, 0, 0, 0
        try:
            self._put(tag + " ")
            self._put(canon.encode(value))  # in C on a board (canon.dump: 4-5x as long)
            self._drain()
        finally:
            self._to = None  # not kept: a closed littlefs file still holds its 1.1 KB buffer
        crc = crc_hex(self._crc)
        f.write((" " + crc + "\n").encode())
        sync(f)
        return crc

    # --- the game under way ---------------------------------------------------------------

    def start(self, header):
        """A new game; the old one is kept until the host has stored it: firmware/journal/start.py."""
        start_game(self, header)

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
        self.write_line(index, self.prepare(index, action_text, events_text, digest), digest)

    def prepare(self, index, action_text, events_text, digest):
        """Entry `index`'s line, whole (bytes), its CRC summed: what write_line() puts out. The
        table prepares the line of the entry a press would make while it waits for the press
        (firmware/ahead.py, Table.decide), so that the press only programs it. A line over
        MAX_LINE is refused here, before a byte is out."""
        text = '%d {"action":%s,"digest":"%s","events":%s}' % (index, action_text, digest, events_text)
        if len(text) + 10 > MAX_LINE:
            raise JournalError("too_long", self.path(GAME), None, "entry %d: a line over %d bytes" % (index, MAX_LINE))
        return whole(text)

    def write_line(self, index, line, digest):
        """Entry `index`, whose prepare()d line is `line` and digest `digest`, on the journal;
        returns once it is flushed (programmed, on raw flash)."""
        if self.out is None or index != self.count:
            raise JournalError("not_open" if self.out is None else "out_of_order", self.path(GAME), None,
                               "entry %d; the journal holds %d" % (index, self.count))
        self._emit(line=line)
        self.count += 1
        self.last = digest
        self.rows += 1

    def side(self, tag, value):
        """A line that is no entry (tag "u": an undo, "n": the names), flushed before this
        returns, as an entry's is; entries() reads past it."""
        if self.out is None:
            raise JournalError("not_open", self.path(GAME), None, "no game under way")
        if self.cuts is None:
            self._scan()
        if self.out is self.flash:
            self._emit(line=whole(tag + " " + canon.encode(value)))
        else:
            self._emit(tag, value)
        self.rows += 1

    def _emit(self, tag=None, value=None, line=None):
        """One line out to the open store, flushed: `line` whole (whole()'s bytes: the only kind
        the flash log is given), else `tag` with `value` streamed to the file (_line). The journal
        is closed while it is written and after a failure (resume() cuts what it left); a full
        flash is _full()'s."""
        f, self.out = self.out, None
        try:
            if f is self.flash:
                f.put_line(line)
            else:
                try:
                    if line is not None:
                        f.write(line)
                        sync(f)
                    else:
                        self._line(f, tag, value)
                except Exception:
                    abandon(f)
                    raise
        except OSError as e:
            raise self._full(e)
        self.out = f

    def _full(self, e):
        """What a failed write raises: a full flash (ENOSPC) is a refusal in words (flash_full),
        the line not kept and the journal closed, to be resumed as after any failed write; any
        other OSError is itself, a board fault."""
        if not e.args or e.args[0] != ENOSPC:
            return e
        try:
            kept = len(self.kept())
        except Exception:  # the count is for the words only
            kept = 0
        return RuleError("flash_full", {"why": "entry", "kept": kept})

    def undo(self, undone, before=None):
        """Take back the last entry (`undone`: its digest): an undo line saying how many entries
        the log holds now. A snapshot that holds the entry is removed first, so a cut between
        the two resumes the log as it was, entry and all; a cut inside the undo line leaves a
        torn tail, cut as any. `before`: the digest the entry chained on, when the caller knows
        it (else it is read from the entry before)."""
        if self.out is None or not self.count:
            raise JournalError("not_open" if self.out is None else "empty", self.path(GAME), None,
                               "no entry to take back")
        if self.cuts is None:
            self._scan()
        count = self.count - 1
        if self.snapped > count:
            self.drop(SNAP)
            self.drop(SNAP + ".tmp")
            self.snapped = 0
        row = self.rows
        self.side("u", {"count": count, "undone": undone})
        self.cuts.append((row, count))
        self.count = count
        last = before if before is not None else self.first
        if before is None:
            for entry in self.entries(count - 1) if count else ():
                last = entry["digest"]
        self.last = last

    def name(self, names):
        """The seats' names from now on (one per seat, None for a seat without one): a names line."""
        self.side("n", {"names": names})
        self.names = names

    def due(self):
        """True when a snapshot is due (every `every` entries): the board takes it once the
        entry is shown, off the path from a press to the LEDs."""
        return self.every and self.count and self.count % self.every == 0

    def snapshot(self, state):
        """Replace snap.json with `state`, the state after `count` entries (and `last`,
        the digest the entries after it chain on)."""
        self.put(SNAP, "s", {"count": self.count, "digest": self.last, "head": self.head, "state": state,
                             "sum": canon.digest(state)})
        self.snapped = self.count

    # --- reading --------------------------------------------------------------------------

    def _scan(self):
        """Find the undo lines ("u") and the last names line ("n"): firmware/journal/read.py."""
        read.scan(self)

    def entries(self, start=0):
        """Yield the complete entries from index `start` on, one at a time (RAM), skipping
        those a later "u" line took back: firmware/journal/read.py."""
        yield from read.entries(self, start)

    def resume(self, engine=None):
        """Load the game: header, snapshot, then each later entry replayed, every digest
        checked; a torn tail is cut. Returns (header, state, count). Bad data raises
        NoGame or JournalError, never another exception: firmware/journal/resume.py."""
        return resume.resume(self, engine)

    # --- the finished games, kept until the host has stored them --------------------------

    def kept(self):
        """[(id, where)] of the finished games kept on flash, oldest first: firmware/journal/kept.py."""
        return kept.games(self)

    def kept_game(self, where):
        """(a Journal reading kept game `where`, its header): its entries(), names and length."""
        return kept.open_game(self, Journal, where)

    def drop_kept(self, where):
        """Remove kept game `where`, once the host has stored it."""
        kept.remove(self, where)

    def room(self):
        """Bytes free on the journal's flash; None where the port cannot say."""
        if not hasattr(os, "statvfs"):
            return None
        st = os.statvfs(self.folder)
        # fragments of frsize bytes free (littlefs: blocks). A full littlefs can count more blocks
        # in use than it has: f_bavail is then negative (rp2) or wraps to about 2**32 (a port that
        # reads it unsigned): none free either way
        return st[1] * st[4] if 0 <= st[4] <= st[2] else 0
