"""The seats' names on the board: named by the host, or picked on the table's menu.

- The host's act {"type": "names", "names": [...]} (one per seat from seat 0, null for a
  seat without one) names the seats of the game under way, and a new_game act may carry
  "names" for the new game's seats (one act: a board that restarts after a game switch
  takes nothing sent between); shared_rules/seat_names.py checks them. They go into the
  game's journal as a names line (Journal.name; "n", see firmware/journal/__init__.py): in
  the game's own journal, a game's names go wherever the game goes (a game kept on
  flash until the host has it keeps its names too), a power cut treats the line as any
  other, and nothing but that line is written. The board keeps only the list itself in
  RAM (journal.names), which its welcome carries; the host hears a welcome again after
  every naming.
- The host's act {"type": "known_names", "names": [...]}: the names it knows, at most
  seat_names.MAX_KNOWN, most recent first. They are for the table's menu only, so they
  are kept in a small file of their own beside the journal (KNOWN, one line checked as a
  journal line: Journal.put and get, written only when it changes) and read from it only
  when the menu asks: "names" on the table's menu (offered while the file is there), then a
  name for each seat among them ("-": none), then select.
"""

from shared_rules import engine, seat_names

KNOWN = "known.json"  # firmware/menus.py's legal() looks for it by its name
NO_NAME = "-"  # the menu's item for a seat without a name


def known(journal):
    """The names the host last offered (a list), [] when it has offered none."""
    v = journal.get(KNOWN, {"names": list})
    return v["names"] if v is not None else []


def remember(journal, names):
    """known.json holds `names` from now on (written only if it holds others)."""
    if known(journal) != names:
        journal.put(KNOWN, "k", {"names": names})


def act(table, move, seats=None):
    """The host's names or known_names act (the caller tells the host: a welcome); raises
    RuleError with nothing changed. With `seats`, a new game's names: checked only (returned)."""
    names = move.get("names")
    if move["type"] == "known_names":
        seat_names.check_known(names)
        remember(table.journal, names)
        return names
    names = seat_names.check(names, engine.seats(table.state) if seats is None else seats)
    if seats is None and names != table.journal.names:
        try:
            table.journal.name(names)
        except BaseException:  # not on flash (a full flash refuses it in words): the journal is resumed
            table.reload()
            raise
    return names
