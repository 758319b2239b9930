"""A board restarts itself (machine.soft_reset) after a game switch, into the new game.

Why: a game's code leaves the heap when another game is chosen (table._forget), but the
names its .mpy interned stay for good, and the modules only some games use (the ballot,
generic LED tracks) stay loaded. Measured on the chip, going once round the four games
left 8 KB more heap in use than a fresh boot into the last one; a restart leaves exactly a
fresh boot's. The new game is already on the journal (its header, then the welcome to the
host), so the restart resumes it like any power-on, in about half a second.

The host's session goes on: when a host was listening, a note in the journal's folder says
so, and the restarted firmware takes it (and deletes it) to keep sending to that host with
no new hello. A cut between the note and the reset leaves a note that the next boot takes:
the board then sends frames nobody may read, which the port drops.
"""

import os
import time

NOTE = "/listening"


def taken(folder):
    """True once after a restart with a host listening (the note is removed)."""
    try:
        os.remove(folder + NOTE)
        return True
    except OSError:
        return False


def restarter(folder):
    """restart(listening), on a port whose soft reset keeps the USB serial open (rp2, esp32)."""
    import machine

    def restart(listening):
        if listening:
            with open(folder + NOTE, "w") as f:
                f.write("1")
        time.sleep_ms(30)  # the welcome's last bytes leave the USB buffer first
        machine.soft_reset()

    return restart
