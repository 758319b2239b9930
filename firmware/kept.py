"""The host's side of the finished games a board keeps on flash until the host has stored them
(issue 17): the pull and ack frames, and the flash's room for a new game. Where the games are
and how one is read or removed is the journal's (Journal.kept, kept_game, drop_kept, room:
firmware/journal/kept.py).

The host (docs/protocol.md): pull {id, i, j} (id null: the oldest) is answered by a kept frame
{id, left, head, len, names} and an old frame for each entry from i up to j; kept {id: null,
left: 0} when there is none. ack {id}, sent once the host has stored the game, removes it
(answered ok), or is refused (no_kept) with nothing removed.

Room: a new game is refused (RuleError flash_full, nothing moved) when the flash has less free
than a long game's journal (GAME_ROOM); with less than twice that, the new game's screen says
the flash is nearly full. The game under way is never stopped for room: its entries go on as
long as the flash takes them, and an entry the flash refuses is refused whole (the journal).
"""

from firmware.journal import JournalError
from shared_rules.errors import RuleError

# A long game's journal, with room to spare: Chancellors' longest random games write 30-40 KB of
# lines, and the raw flash log takes its reservations 16 KB at a time
GAME_ROOM = 64 * 1024
_ALL = 0x3FFFFFFF  # entries() from an index no game reaches: every line checked, none parsed


def pull(link, seq, body):
    want, i, j = body.get("id"), body.get("i"), body.get("j")
    if not (want is None or isinstance(want, int)) or not (isinstance(i, int) and isinstance(j, int) and 0 <= i <= j):
        link.error(seq, "bad_range", "pull needs id (null: the oldest kept game) and 0 <= i <= j")
        return
    kept = link.table.journal.kept()
    pick = kept[0] if kept and want is None else None
    for g in kept:
        if g[0] == want:
            pick = g
    left = len(kept)
    if pick is None:
        link.send("kept", {"id": None, "left": left})
        return
    kept = None
    reader, header = link.table.journal.kept_game(pick[1])
    it = reader.entries(_ALL)  # the names, the undo lines and the count: one pass
    for _ in it:
        pass
    out = {"id": pick[0], "left": left, "head": header, "len": reader.length}
    if reader.names is not None:
        out["names"] = reader.names
    link.send("kept", out)
    if i >= reader.length:
        return
    it = reader.entries(i)
    try:
        for entry in it:
            if i >= j:
                break
            link.send("old", {"id": pick[0], "i": i, "move": entry["action"], "events": entry["events"],
                               "digest": entry["digest"]})
            i += 1
            entry = None
    finally:
        it.close()  # MicroPython runs no generator's finally when it is collected: the file is closed here


def ack(link, seq, body):
    """The host has stored kept game body["id"]: removed."""
    want = body.get("id")
    for g in link.table.journal.kept():
        if g[0] == want and isinstance(want, int):
            link.table.journal.drop_kept(g[1])
            link.send("ok", {"re": seq, "i": None})
            return
    link.error(seq, "no_kept", "the board keeps no finished game %s; pull gives their ids" % (want,))


def frame(link, seq, kind, body):
    """A host's frame that the link (firmware/link.py) does not answer itself: pull and ack, else wrong_side."""
    if kind == "pull" or kind == "ack":
        try:
            (pull if kind == "pull" else ack)(link, seq, body)
        except (JournalError, OSError) as e:  # a kept game the board cannot read or remove: it stays
            link.error(seq, getattr(e, "code", "io"), str(e))
        return
    link.error(seq, "wrong_side", "a board does not take %s frames" % kind)


def room(table):
    """Before a new game: RuleError flash_full when the flash has no room for a long game's
    journal, nothing moved; else the screen's warning lines when it has room for one only, or None."""
    free = table.journal.room()
    if free is None or free >= 2 * GAME_ROOM:  # a port that cannot say: the new game goes ahead, as before
        return None
    kept = len(table.journal.kept())
    if free < GAME_ROOM:
        raise RuleError("flash_full", {"free": free // 1024, "need": GAME_ROOM // 1024, "kept": kept})
    return ["flash nearly full", "%d games kept" % kept, "connect the host"]
