"""A new game's header on the journal (firmware/journal.py's Journal.start), in a module of its
own: a board begins a game at its first boot and from the table's menu or a host, and loads
this for it and lets it go after, so that its code is not in the heap beside every game's.

The header is whole in game.tmp (or, on the raw flash log, in a fresh reservation) before
anything moves, so a power cut anywhere resumes the old game or the new one.
"""

import os

from firmware.journal import _program
from firmware.journal_line import GAME, SNAP, JournalError, _exists, _loads, _replace
from shared_rules import canon


def start(j, header):
    """Journal j's new game; the old one becomes the next doneN.jsonl (the game under way, its
    snapshot removed). The file journal's header goes to game.tmp, renamed over game.jsonl."""
    if _loads(canon.encode(header), {"game": str, "seed": int, "start": str}) is None:
        raise JournalError("bad_header", j._p(GAME), None, "not a header {game, settings, seed, start}")
    j.close()
    if not _exists(j.folder):
        os.mkdir(j.folder)
    if j.flash is not None:
        _on_flash(j, header)
        return
    head = j._tmp(GAME, "h", header)
    for name in (SNAP, SNAP + ".tmp"):
        if _exists(j._p(name)):
            os.remove(j._p(name))
    if _exists(j._p(GAME)):  # the game it ends waits there for the host (firmware/kept.py)
        _replace(j._p(GAME), j._p(_done(j.folder)))
    _replace(j._p(GAME + ".tmp"), j._p(GAME))
    _begun(j, head, header)
    j._f = j._open(j._p(GAME), "ab")


def _on_flash(j, header):
    """start() on the raw flash log: the header whole in a fresh reservation is the new
    game (a torn one leaves the old game under way); then the old snapshot goes."""
    fl = j.flash
    fl.begin()
    head = _program(fl, ("h ", canon.encode(header)))
    for name in (SNAP, SNAP + ".tmp"):
        if _exists(j._p(name)):
            os.remove(j._p(name))
    if fl.spare is None:  # new-game time: the next reservation now rather than on an entry's path
        while fl.tidy():
            pass
    _begun(j, head, header)
    j._f = fl


def _begun(j, head, header):
    j.head, j.count, j.cut, j.snap_at, j.snapped = head, 0, 0, 0, 0
    j.last = j.first = header["start"]
    j.cuts, j.rows, j.names = [], 0, None


def _done(folder):
    """The name the game under way gets when it ends: doneN.jsonl, N above every kept game's."""
    n = 0
    for name in os.listdir(folder):
        if name[:4] == "done" and name[-6:] == ".jsonl" and name[4:-6].isdigit() and int(name[4:-6]) > n:
            n = int(name[4:-6])
    return "done%d.jsonl" % (n + 1)
