"""Chancery host program: the terminal game, the link to the board, and tooling.

The game rules themselves live in the separate top-level package ``shared_rules``,
which must also run under MicroPython on the board.

Its jobs, one subpackage each; the command line (cli.py) calls each job's
``cli`` module (``configure`` its subcommands, ``run`` one):

    board/     the link to a board: the serial link, the simulated board, the MicroPython that runs it
    mirror/    a board (simulated, on the virtual Pico, or on USB) shown and played on this screen
    logbook/   every game a board played: the store, `chancery log`, match files
    deploy/    what a board gets, and putting it on its flash
    hardware/  the builder's drawings and the strip's power budget
    play/      the terminal game, and replaying or describing a game
    words/     the games in words: what people type and read (commands, narration, docs)
    vpico/     the virtual Pico (rp2040js) the chip tests and `sim --chip` run
"""

import os

__version__ = "0.1.0"

# The checkout (or installed tree) holding shared_rules/, firmware/ and hardware/.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def command(rest=""):
    """The command a hint names for `chancery REST`, as the user can run it: run.py puts how it was
    started in CHANCERY_COMMAND ("python3 run.py"), since the `chancery` it runs is in .venv/bin,
    not on the user's PATH; otherwise `chancery` itself."""
    return ((os.environ.get("CHANCERY_COMMAND") or "chancery") + " " + rest).strip()
