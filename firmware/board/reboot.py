"""A board restarts itself (machine.soft_reset) after a game switch, into the new game.

Why: a mode change by reset, as on the Badger 2040 or the Tildagon badge. The names a game's
code interns stay in the heap for good, and so do the modules only some games use (the ballot,
generic LED tracks); a restart leaves the heap exactly as a fresh boot into the new game would.

The switch itself waits for the restart (Table.start): the board notes the new game's action
(and the host's frame that asked for it) in the journal's folder and resets; the boot starts
the new game from the note (begin()) with no other game's code or interned names in its heap,
and answers the host (answer()). Until the boot nothing has moved: a cut before the note
leaves the old game, and a note the next boot takes like any other.

The host's session goes on: when a host was listening, a note in the journal's folder says
so, and the restarted firmware takes it (and deletes it) to keep sending to that host with
no new hello. A cut between the note and the reset leaves a note that the next boot takes:
the board then sends frames nobody may read, which the port drops.
"""

import json
import os
import time

from shared_rules.errors import RuleError

NOTE = "/listening"
SWITCH = "/switch.json"


def taken(folder):
    """True once after a restart with a host listening (the note is removed)."""
    try:
        os.remove(folder + NOTE)
        return True
    except OSError:
        return False


def switched(folder):
    """The game switch a restart was for ({"move": the new_game action, "re": the host's frame
    or None}), once (the note is removed); None if there was none, or if it is unreadable."""
    try:
        with open(folder + SWITCH) as f:
            got = json.loads(f.read())
    except (OSError, ValueError):
        got = None
    try:
        os.remove(folder + SWITCH)
    except OSError:
        pass
    if isinstance(got, dict) and isinstance(got.get("move"), dict) and isinstance(got["move"].get("game"), str):
        return got
    return None


def note(folder, switch):
    """Note the game switch for the boot (switched()): whole, then renamed, so a cut leaves no half note."""
    with open(folder + SWITCH + ".tmp", "w") as f:
        f.write(json.dumps(switch))
    os.rename(folder + SWITCH + ".tmp", folder + SWITCH)


def restart(folder, listening, switch=None):
    """Restart the board, on a port whose soft reset keeps the USB serial open (rp2, esp32);
    switch: the note for the boot to start the new game from (see above), or None."""
    import machine

    if listening:
        with open(folder + NOTE, "w") as f:
            f.write("1")
    if switch is not None:
        note(folder, switch)
    time.sleep_ms(30)  # the last frames' bytes leave the USB buffer first
    machine.soft_reset()


def begin(table, switch):
    """At boot, before table.boot(): the new game of the switch noted (the table's new_game,
    checked as any), or, refused (a setting out of its domain, say), nothing: the old game
    resumes and answer() gives the host the refusal."""
    try:
        table.start(switch["move"])
    except RuleError as e:
        switch["refused"] = e


def answer(link, switch):
    """Once the board knows whether a host is listening (link: its firmware/link.py Link, or None):
    that host hears the new game's welcome and state, then the answer to the action it sent (ok, or
    the refusal)."""
    if link is None or not link.listening:  # a board on its own: wire's code stays unloaded (sim.Hardware.link)
        return
    from shared_rules import wire

    link.hello()
    seq, refused = switch.get("re"), switch.get("refused")
    if seq is None:
        return
    if refused is None:
        link.send(wire.OK, {"re": seq, "i": None})
    else:
        link.error(seq, refused.code, "", refused.detail)  # the facts: the host words them
