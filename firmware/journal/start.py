"""A new game's header on the journal (Journal.start).

The header is whole in game.tmp (or, on the raw flash log, in a fresh reservation) before
anything moves, so a power cut anywhere resumes the old game or the new one. The game it ends
is kept until the host has stored it (firmware/journal/kept.py).
"""

import os

from firmware.journal import kept
from firmware.journal.line import GAME, SNAP, JournalError, exists, loads, replace
from shared_rules import canon


def start(j, header):
    """Journal j's new game; the old one becomes the next doneN.jsonl (the game under way, its
    snapshot removed). The file journal's header goes to game.tmp, renamed over game.jsonl."""
    if loads(canon.encode(header), {"game": str, "seed": int, "start": str}) is None:
        raise JournalError("bad_header", j.path(GAME), None, "not a header {game, settings, seed, start}")
    j.close()
    if not exists(j.folder):
        os.mkdir(j.folder)
    if j.flash is not None:
        _on_flash(j, header)
        return
    head = j.tmp(GAME, "h", header)
    j.drop(SNAP)
    j.drop(SNAP + ".tmp")
    if j.exists(GAME):  # the game it ends waits there for the host
        replace(j.path(GAME), j.path(kept.next_name(j.folder)))
    replace(j.path(GAME + ".tmp"), j.path(GAME))
    _begun(j, head, header)
    j.out = j.open(j.path(GAME), "ab")


def _on_flash(j, header):
    """start() on the raw flash log: the header whole in a fresh reservation is the new
    game (a torn one leaves the old game under way); then the old snapshot goes."""
    fl = j.flash
    fl.begin()
    head = fl.line(("h ", canon.encode(header)))
    j.drop(SNAP)
    j.drop(SNAP + ".tmp")
    if fl.spare is None:  # new-game time: the next reservation now rather than on an entry's path
        while fl.tidy():
            pass
    _begun(j, head, header)
    j.out = fl


def _begun(j, head, header):
    j.head, j.count, j.cut, j.snap_at, j.snapped = head, 0, 0, 0, 0
    j.last = j.first = header["start"]
    j.cuts, j.rows, j.names = [], 0, None
