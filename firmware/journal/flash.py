"""The journal's lines programmed straight into erased flash: an append costs page programs only.

Why: on the chip (W25Q16 timings: a 256-byte page program 0.4 ms, a 4K sector erase 45 ms) a
flushed append to a littlefs file cost 58-104 ms, because littlefs copies a file's last block
on every synced append (an erase, its programs, a metadata commit). Here an entry's line is
programmed into flash that was erased beforehand: one to three page programs, about 1 ms.

Where the erased flash comes from: a reservation, a littlefs file (resN.bin beside the
journal) of BLOCKS blocks written once as 0xFF bytes behind one marker per block, off the
path from a press to the LEDs (tidy(), a block per call from Table.idle(); start() at a new
game). littlefs leaves NOR flash erased where it writes 0xFF, never rewrites a file that is
not written again, and never moves a file's data blocks, so those blocks stay put, erased,
and ours until the file is removed. The marker (a magic, the reservation's random nonce, the
block's index) is written where littlefs puts the start of block i's data, after the CTZ
skip-list pointers (none in block 0, 4*(ctz(i)+1) bytes after), and one scan of every block's
first 64 bytes finds each reservation's blocks (the nonce tells a live reservation's blocks
from a removed one's, whose markers stay in freed blocks). Pages 1-15 of each block hold
lines; page 0 keeps littlefs's pointers and the marker, untouched.

Measured and rejected: (a) a raw region outside littlefs. The stock firmware's _boot.py
mounts littlefs on the whole storage region and formats it when the mount fails, and
littlefs refuses a superblock whose block count is not the device's: on the virtual Pico a
340-block image (host/chancery/vpico/image.py) booted to an empty 352-block filesystem, every
file lost. Room outside littlefs needs another firmware. (c) a file per entry: each is a
metadata commit of the folder, which compacts (an erase and a copy) every few dozen commits,
on the hot path, and the folder grows by hundreds of files to read at boot.

Lines: the file journal's own (TAG JSON CRC, a newline), packed one after another from a
reservation's first data page; a line never spans reservations, and erased flash ends a
reservation's lines (0xFF is in no line: canon writes ASCII). A line goes out page by page,
each page programmed whole (the ROM's flash_range_program takes 256-byte pages; up to RUN
pages in one call, each call costing its pages' program time and a fixed part more) with 0xFF
where other lines are: programming 1s leaves a NOR cell as it is, so a line once written is
never changed. line() returns once its last page is programmed: only then is it acknowledged.

Power cuts: a cut during a program leaves the line it was writing failing its check (a
prefix, or on a real part bits set anywhere in the pages being programmed); it was never
acknowledged. Reading stops there: the line is dropped (`torn`, its bytes) when the rest of
its reservation is erased past the pages it could have touched, else it is corruption and
named (JournalError). Its bytes cannot be erased in place, so the writer moves on to the next
reservation, whose first line must then carry the dropped line's index (the journal checks
every index). The writer moves on too when the flash after the last good line is not erased.

Games: a reservation whose first line is a whole header begins a game; the last one is the
game under way, its entries in the reservations after it, in order of N. start() writes the
new header into a fresh reservation (a torn header leaves the old game under way); the games
before it are finished, each kept in its reservations (from its header to the next game's)
until the host has stored it and acknowledged that (firmware/journal/kept.py removes them, the last
first, so a cut leaves a shorter game, never lines of one read as another's). Reservations
before the first header are removed by tidy(). One empty reservation (the spare) is kept
ready for the next.

The reservations' layout and the stores that make and find them: firmware/journal/store.py
(LfsStore, rp2.Flash() under littlefs) and firmware/journal/files.py (FileStore, plain files,
the CPython tests); reading the lines back: firmware/journal/flash_read.py.
"""


from firmware.journal import flash_read
from firmware.journal.line import JournalError, whole
from firmware.journal.store import FF, PAGE

RUN = 4  # pages programmed in one call at most: the page buffer's size (a line of up to 769 bytes in one)
_FFS = FF * RUN

class FlashLog:
    """The game's lines in reservations of `store`; the journal writes through it as through
    a file (write, flush) and reads with rows()."""

    def __init__(self, store, keep=True):
        self.store = store
        # the finished games stay until the host has stored them (the journal's); False: only the
        # last game is read and the ones before it are removed (a side file's: Journal.add())
        self.keep = keep
        self.loaded = False
        self.game = []     # the game's regions in order, its header's first
        self.spare = None  # an empty region, ready
        self.maker = None  # the spare being made (a generator), between tidy() calls
        self.old = []      # reservations to remove: older games, and ones cut short while made
        self.top = -1      # the highest reservation number in the folder
        self.cur = None    # the region being written, and where the next line goes in it
        self.pos = 0
        self.end = None    # (region, offset) after the last whole line the last read found
        self.torn = 0      # bytes of the torn line that read dropped at the end
        self.buf = None    # pages being programmed: 0xFF but for the line's bytes (the journal's buf)
        self.rbuf = bytearray(PAGE)

    # --- finding the game ------------------------------------------------------------------

    def load(self):
        """Map the folder's reservations; returns the game's header line, checked, as
        (tag, json, crc), or None when no game has a whole header (firmware/journal/flash_read.py)."""
        return flash_read.load(self)

    def rows(self):
        """Yield (region, (tag, json, crc)) for each whole line of the game after its header,
        in order (firmware/journal/flash_read.py); afterwards `end` and `torn` say where the lines stopped."""
        yield from flash_read.rows(self)

    # --- writing ---------------------------------------------------------------------------

    def reopen(self):
        """After a read to the end: the writer goes on after the last whole line, or in the
        next reservation when a torn line, or bits a torn program set, lie beyond it."""
        flash_read.reopen(self)

    def begin(self):
        """A new game: its header goes to the start of a fresh reservation; the game under
        way is finished, kept until the host has stored it (firmware/journal/kept.py)."""
        if not self.loaded:
            self.load()
        if not self.keep:
            self.drop()
        self.game = []
        self.advance()

    def drop(self):
        """The game's reservations go (tidy() removes them); nothing is written until begin()."""
        for region in self.game:
            self.old.append(self.store.seq(region.path))
        self.game, self.cur, self.end = [], None, None

    def room(self, n):
        """The next n bytes go into one reservation: move on if they do not fit in this one."""
        if self.pos + n > self.cur.pages * PAGE:
            self.advance()

    def advance(self):
        """Go on in the spare (made now if none is ready)."""
        if self.spare is None:
            if self.maker is None:
                self.maker = self.store.make(self._next())
            for got in self.maker:
                if got is not None:
                    self.spare = got
            self.maker = None
        self.cur, self.spare, self.pos = self.spare, None, 0
        self.game.append(self.cur)

    def _next(self):
        self.top += 1
        return self.top

    def line(self, texts):
        """Program one line (the `texts` joined, then their CRC and a newline) whole in one
        reservation; returns its CRC."""
        line = whole("".join(texts))
        self.put_line(line)
        return line[-9:-1].decode()

    def put_line(self, line):
        """Program one line given whole, its CRC and newline in it (line.whole()'s bytes), in
        one reservation where the writer is, up to RUN pages a program call (one call for most
        lines); returns once its last byte is on flash."""
        n = len(line)
        self.room(n)
        region, buf = self.cur, self.buf
        if self.pos + n > region.pages * PAGE:  # room() saw to it: only bytes that were not ASCII get here
            raise JournalError("too_long", region.path, None, "a line past its reservation's end")
        data = memoryview(line)
        i = 0
        while i < n:  # the pages from the writer's on: to the end of the block's run, RUN at most
            pos = self.pos
            page, off = pos // PAGE, pos % PAGE
            run = region.run(page)
            k = (run if run < RUN else RUN) * PAGE - off
            if k > n - i:
                k = n - i
            buf[:] = _FFS
            buf[off:off + k] = data[i:i + k]
            region.program(page, memoryview(buf)[:(off + k + PAGE - 1) // PAGE * PAGE])
            self.pos = pos + k
            i += k

    def close(self):
        pass

    # --- off the hot path ------------------------------------------------------------------

    def tidy(self):
        """One step of the work that waits for idle time: remove one old reservation, or
        make a block of the next spare. Returns True while there is more to do."""
        if not self.loaded:
            return False
        if self.old:
            self.store.remove(self.old.pop())
            return True
        if self.spare is None:
            if self.maker is None:
                self.maker = self.store.make(self._next())
            try:
                got = next(self.maker)
            except Exception:
                self.maker = None
                raise
            if got is not None:
                self.spare, self.maker = got, None
            return self.spare is None
        return False
