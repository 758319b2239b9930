"""The finished games a board keeps on flash until the host has stored them (issue 17).

Loaded when a host pulls or acknowledges a game, or a new game is about to start (room()).

Where they are: the file journal renames the game under way to doneN.jsonl when the next one
starts (N one above the last; a board of before keeps one prev.jsonl, which is game 0 here).
On a Pico's raw flash log a finished game is its reservations, from the one its header begins
to the next game's (firmware/flash_log.py). A kept game's id is that N, or its header's
reservation number: the smaller, the older. Nothing but the host's ack removes one.

The host (docs/protocol.md): pull {id, i, j} (id null: the oldest) is answered by a kept frame
{id, left, head, len, names} and an old frame for each entry from i up to j; kept {id: null,
left: 0} when there is none. ack {id}, sent once the host has stored the game, removes it
(answered ok), or is refused (no_kept) with nothing removed.

Room: a new game is refused (RuleError flash_full, nothing moved) when the flash has less free
than a long game's journal (GAME_ROOM); with less than twice that, the new game's screen says
the flash is nearly full. The game under way is never stopped for room: its entries go on as
long as the flash takes them, and an entry the flash refuses is refused whole (the journal).
"""

import os

from firmware.journal import Journal
from firmware.journal_line import JournalError, _check, _loads, _readline
from shared_rules.errors import RuleError

# A long game's journal, with room to spare: Chancellors' longest random games write 30-40 KB of
# lines, and the raw flash log takes its reservations 16 KB at a time
GAME_ROOM = 64 * 1024
_PREV = "prev.jsonl"  # where a board of before kept its one finished game (not on the boot path)
_ALL = 0x3FFFFFFF  # entries() from an index no game reaches: every line checked, none parsed


class _Done(Journal):
    """A finished game's file, read as the journal reads game.jsonl: every line checked, the
    undo lines applied, the last names line kept."""

    def _p(self, name):
        return self.folder  # the kept game's one file


def games(journal):
    """[(id, where)] of the kept games, oldest first: where is the file's path (the file journal)
    or the game's [(reservation number, region)] (the raw flash log)."""
    if journal.flash is None:
        out = []
        for name in os.listdir(journal.folder):
            if name == _PREV:
                out.append((0, journal._p(name)))
            elif name[:4] == "done" and name[-6:] == ".jsonl" and name[4:-6].isdigit():
                out.append((int(name[4:-6]), journal._p(name)))
        out.sort()
        return out
    fl = journal.flash
    seqs = fl.store.seqs()
    regions = fl.store.regions(seqs)
    out = []
    # the raw flash log's reader (firmware/flash_read.py), loaded once for every reservation's first
    # line and let go after: loaded for each, a pull or an ack of one of ten kept games read the
    # reader's .mpy from flash 15-20 times, several seconds of a Pico's time
    from firmware import flash_read

    for seq in seqs:
        region = regions[seq]
        if region is None:
            continue
        line, end, whole = flash_read._line_at(fl, region, 0)
        got = _check(line) if whole else "torn"
        if not isinstance(got, str) and got[0] == b"h":
            out.append((seq, [(seq, region)]))
        elif out:  # the game's next reservation (before the first header: no game's, tidy() removes it)
            out[-1][1].append((seq, region))
    return out[:-1]  # the last header's is the game under way


def _first_line(fl, region):
    """(bytes, end, whole) of a reservation's first line: the raw flash log's reader
    (firmware/flash_read.py), loaded for it and let go."""
    from firmware import flash_read

    return flash_read._line_at(fl, region, 0)


def _open(journal, where):
    """(a journal reading the kept game, its header)."""
    if journal.flash is None:
        reader = _Done(where, 0, False)
        f = open(where, "rb")
        try:
            got = _check(_readline(f))
        finally:
            f.close()
        path = where
    else:
        reader = Journal(journal.folder, 0, journal.flash.store)
        reader.flash.game = [r for s, r in where]
        reader.flash.loaded = True
        path = where[0][1].path
        got = _check(_first_line(reader.flash, where[0][1])[0])
    header = None if isinstance(got, str) else _loads(got[1], {"game": str, "seed": int, "start": str})
    if header is None:
        raise JournalError("bad_header", path, 1, "a kept game without a whole header")
    return reader, header


def pull(table, seq, body):
    want, i, j = body.get("id"), body.get("i"), body.get("j")
    if not (want is None or isinstance(want, int)) or not (isinstance(i, int) and isinstance(j, int) and 0 <= i <= j):
        table._error(seq, "bad_range", "pull needs id (null: the oldest kept game) and 0 <= i <= j")
        return
    kept = games(table.journal)
    pick = kept[0] if kept and want is None else None
    for g in kept:
        if g[0] == want:
            pick = g
    left = len(kept)
    if pick is None:
        table.send("kept", {"id": None, "left": left})
        return
    kept = None
    reader, header = _open(table.journal, pick[1])
    it = reader.entries(_ALL)  # the names, the undo lines and the count: one pass
    for _ in it:
        pass
    out = {"id": pick[0], "left": left, "head": header, "len": reader._lines}
    if reader.names is not None:
        out["names"] = reader.names
    table.send("kept", out)
    if i >= reader._lines:
        return
    it = reader.entries(i)
    try:
        for entry in it:
            if i >= j:
                break
            table.send("old", {"id": pick[0], "i": i, "move": entry["action"], "events": entry["events"],
                               "digest": entry["digest"]})
            i += 1
            entry = None
    finally:
        it.close()  # MicroPython runs no generator's finally when it is collected: the file is closed here


def ack(table, seq, body):
    """The host has stored kept game body["id"]: removed (a flash game's reservations the last
    first: a cut leaves its header and fewer lines, a game the host pulls again and has)."""
    want = body.get("id")
    for g in games(table.journal):
        if g[0] == want and isinstance(want, int):
            if table.journal.flash is None:
                os.remove(g[1])
            else:
                for s, region in reversed(g[1]):
                    table.journal.flash.store.remove(s)
            table.send("ok", {"re": seq, "i": None})
            return
    table._error(seq, "no_kept", "the board keeps no finished game %s; pull gives their ids" % (want,))


def frame(table, seq, kind, body):
    """A host's frame that the table does not answer itself: pull and ack, else wrong_side."""
    if kind == "pull" or kind == "ack":
        try:
            (pull if kind == "pull" else ack)(table, seq, body)
        except (JournalError, OSError) as e:  # a kept game the board cannot read or remove: it stays
            table._error(seq, getattr(e, "code", "io"), str(e))
        return
    table._error(seq, "wrong_side", "a board does not take %s frames" % kind)


def room(table):
    """Before a new game: RuleError flash_full when the flash has no room for a long game's
    journal, nothing moved; else the screen's warning lines when it has room for one only, or None."""
    if not hasattr(os, "statvfs"):  # a port that cannot say: the new game goes ahead, as before
        return None
    st = os.statvfs(table.journal.folder)
    free = st[1] * st[4]  # fragments of frsize bytes free (littlefs: blocks)
    if free >= 2 * GAME_ROOM:
        return None
    kept = len(games(table.journal))
    if free < GAME_ROOM:
        raise RuleError("flash_full", {"free": free // 1024, "need": GAME_ROOM // 1024, "kept": kept})
    return ["flash nearly full", "%d games kept" % kept, "connect the host"]
