"""Undo: the table's side of taking an entry back. The journal's undo line (its format, and
why nothing is rewritten) is the journal's: Journal.undo, firmware/journal/__init__.py.
"""

from shared_rules.errors import RuleError


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
    kept = table.before
    if kept is not None and kept[0] == last and table.last_type is not None:  # known: nothing to read
        kind, undone = table.last_type, table.journal.last
    else:
        kept = None
        for got in table.journal.entries(last):
            kind = got["action"].get("type")
            undone = got["digest"]
            got = None
            break
    if kind == "ballot_reveal":
        raise RuleError("undo_reveal", {"entry": last})
    table.before = table.spare = None
    try:
        table.journal.undo(undone, kept[2] if kept is not None else None)
    except BaseException:  # not taken back (a full flash refuses it in words): the state is the journal's again
        table.reload()
        raise
    if kept is not None:  # the state before it, kept: no replay
        table.state, table.count = kept[1], last
        table.changed = True
        table.last_type = None
    else:
        table.reload()
    table.ballot_box = None  # read from flash again: a taken-back cast's choice stays there, uncounted
    if table.on_entry is not None:  # the LEDs first, as for an entry; the host's state frame can wait
        table.on_entry()
    table.tell("undone")  # the controls start every pad afresh, a host hears the shorter log
    return last
