"""Undo: the journal's undo line and the table's undo.

Loaded only for an undo, then let go (firmware/journal.py _let_go): a board that
never takes an entry back keeps none of this in its RAM, nor its names (each
module a board loads adds its names to the interned strings for good). The line format and why nothing is rewritten: firmware/journal.py.
"""

import os

from firmware.journal_line import SNAP, JournalError, _abandon, _exists
from shared_rules import canon
from shared_rules.errors import RuleError


def write(journal, undone):
    """Take back the journal's last entry (`undone`: its digest): an undo line saying how
    many entries the log holds now, flushed before this returns, as an entry's is. A
    snapshot that holds the entry is removed first, so a cut between the two resumes the
    log as it was, entry and all; a cut inside the undo line leaves a torn tail, cut as any."""
    from firmware.journal import GAME, _program

    if journal._f is None or not journal.count:
        raise JournalError("not_open" if journal._f is None else "empty", journal._p(GAME), None,
                           "no entry to take back")
    if journal.cuts is None:
        journal._scan()
    count = journal.count - 1
    if journal.snapped > count:
        for name in (SNAP, SNAP + ".tmp"):
            if _exists(journal._p(name)):
                os.remove(journal._p(name))
        journal.snapped = 0
    value = {"count": count, "undone": undone}
    f, journal._f = journal._f, None
    if f is journal.flash:
        _program(f, ("u ", canon.encode(value)))
    else:
        try:
            journal._line(f, "u", value)
        except Exception:
            _abandon(f)
            raise
    journal._f = f
    journal.cuts.append((journal.rows, count))
    journal.rows += 1
    journal.count = count
    last = journal.first
    for entry in journal.entries(count - 1) if count else ():
        last = entry["digest"]
    journal.last = last


def undo(table, entry=None):
    """Take back the table's last entry (`entry`, if given, must be its index: a host's
    guard against taking back one it has not seen). The journal keeps it on flash behind
    an undo line; the state is the journal's again, and the host hears the shorter log as
    a state frame. A sealed ballot's reveal is never taken back: its votes are public,
    and a seat would vote again knowing the others'. Returns the index taken back; raises
    RuleError, with nothing changed."""
    last = table.count - 1
    if last < 0:
        raise RuleError("nothing_to_undo", {})
    if entry is not None and entry != last:
        raise RuleError("undo_not_last", {"entry": entry, "last": last})
    kind = None
    for got in table.journal.entries(last):
        kind = got["action"].get("type")
        undone = got["digest"]
        got = None
        break
    if kind == "ballot_reveal":
        raise RuleError("undo_reveal", {"entry": last})
    write(table.journal, undone)
    table.reload()
    table.ballot_box = None  # read from flash again: a taken-back cast's choice stays there, uncounted
    table.held = {}
    table.setup = None
    table.parked = {}  # every pad's next key starts afresh, as after an entry
    if table.menu is not None:
        table.menu.rest()
    if table.listening:
        table.send_state()
    return last


def ballot_key(table, box, name):
    """The table's keys while a ballot is open, for an undo: back asks, and a push then
    takes back the last entry (a cast entered by mistake: that seat votes again); any
    other key lets the question go. (screen, None)"""
    box[3] = name == "back"  # firmware/ballot_box.py: its undo_asked
    if box[3]:
        return ["ballot", "take back #%d?" % table.count, "push: yes"], None
    if name != "select":
        return ["ballot", "not taken back"], None
    try:
        i = table.undo()
    except RuleError as e:
        return table.why(e, None), None
    return ["undone", "entry %d" % (i + 1)], None
