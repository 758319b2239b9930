"""The board's journal: each accepted action is on flash before the board acknowledges it.

Its public face is this package's names: Journal (firmware/journal/core.py: append and write an
entry (prepare its line ahead, write_line it), side lines (undo, name), snapshot, entries, resume, start, the kept games (kept,
kept_game, drop_kept), room, and small files in its folder (put, get, exists, drop; add, each, clear)),
JournalError, NoGame, and the file names GAME, SNAP and MAX_LINE. The modules, one job each:
line.py the line format and file helpers; core.py the Journal; read.py reading the lines back;
start.py a new game's header; resume.py the boot's replay; kept.py the finished games' storage;
flash.py the raw flash log (a Pico), flash_read.py its reading side, store.py its reservations,
files.py its reservations as plain files (the CPython tests).

Folder: game.jsonl (the header {format, game, settings, seed, start}, then one line per
entry), snap.json (the state after `count` entries, the digest the next entry chains on, the
state's own digest as `sum`, and the header line's CRC, so it never applies to another game), doneN.jsonl
(the finished games: start() renames game.jsonl to the next N, and only the host's ack of a
game it has stored removes one: firmware/journal/kept.py) and *.tmp (written, flushed, renamed over
its target). No `current` marker: game.jsonl's presence is one.

A line is TAG " " JSON " " CRC "\\n": TAG "h" (header), "s" (snapshot) or the entry's index
(catches a line lost or repeated whole); JSON canon's encoding (an entry's or a side line's
built whole, a file's streamed through a preallocated buffer); CRC the CRC-32 of the bytes before the last space, trailing so that
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
erased beforehand (firmware/journal/flash.py says why and how), an append costing page programs
only (about 2 ms on the chip against 58-104 ms for a flushed littlefs append). Same lines,
same checks; the header is the first line of the game's first reservation; there is no
game.jsonl nor doneN.jsonl (a finished game stays in its reservations); snap.json as above.

Undo: a line tagged "u", {"count": N, "undone": DIGEST}, appended like an entry, takes the
log back to N entries (the entry whose digest is DIGEST). Nothing is rewritten, on either
store: the entry stays on flash, and entries() reads past every entry a later "u" line took
back, so the log it gives holds indices 0..count-1 once each, in order. The next entry gets
index N again. A snapshot taken after entry N goes before the "u" line is written.

Names: a line tagged "n", {"names": [...]} (one per seat, null for a seat without a name),
appended like an entry when the seats are named (Journal.name; firmware/names.py); the last
one holds. It is no entry: entries() reads past it, and the names stay out of the log and
its digests (seat numbers are the log's key). In the game's own journal, the names go
wherever the game goes, and a power cut leaves the line whole or torn as any other.

Small files beside the journal, in this line format: put(name, tag, value) writes a file of one
line whole to name.tmp and renames it over name, so a cut leaves the old file whole; get() reads
it back (known.json, tag "k": the names the host knows, firmware/names.py). add(name, tag,
value) adds a line at a file's end, after a newline, in one flush; each() reads the whole lines
back, passing over a torn one (ballot.json, tag "b": a sealed ballot's private box, a line a
cast, firmware/ballot_box.py). Where the journal is on raw flash, such a side file is a raw log
of its own (reservations of one block, ballotN.bin: firmware/journal/core.py's _side): an add
programs a page or two, where a littlefs append erases and copies a block; clear() leaves its
reservations to tidy(), and drop() is for put()'s files (it lists no reservations).
"""

from firmware.journal.core import Journal
from firmware.journal.line import GAME, MAX_LINE, SNAP, JournalError, NoGame

__all__ = ["GAME", "MAX_LINE", "SNAP", "Journal", "JournalError", "NoGame"]
