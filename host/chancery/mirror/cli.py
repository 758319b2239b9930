"""`chancery sim` and `chancery mirror`: a board, simulated, on the virtual Pico or real, with the mirror
attached. The mirror's entry point: configure() adds both commands, run() runs one."""

import os
import sys

import platformdirs

from chancery.board import micropython as mp
from chancery.board import simboard


def configure(sub):
    """Add `sim` and `mirror` to the command line's subparsers; returns their names."""
    configure_sim(sub.add_parser(
        "sim", help="run the simulated board (the firmware under MicroPython) with the mirror attached",
        description="Start the real firmware under the MicroPython unix port on a pseudo-terminal, connect "
                    "to it as to a real board, and open the mirror. Its flash persists between runs."))
    configure_mirror(sub.add_parser(
        "mirror", help="mirror a real board's game on this screen",
        description="Connect to a board over USB serial and show the mirror; every entry goes to the logbook."))
    return ["sim", "mirror"]


def run(args):
    return run_sim(args) if args.command == "sim" else run_mirror(args)


def configure_sim(p):
    p.add_argument("game", nargs="?", help="the game: a new one unless the board is playing it already "
                                           "(default: the board's game, else chancellors)")
    p.add_argument("--players", type=int, metavar="N", help="seats at the table (default 4)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="one of the game's settings (see `chancery rules GAME`); repeat for more")
    p.add_argument("--seed", type=int, metavar="S", help="fix the board's dice (default: os.urandom)")
    p.add_argument("--names", metavar="A,B,...", help="the seats' names, from seat 0 (- for a seat without one): "
                   "the game's seats are named on the board and in the logbook")
    p.add_argument("--data", metavar="DIR", help="the simulated board's flash (default: the user data folder)")
    p.add_argument("--heap", default=simboard.HEAP,
                   help="MicroPython heap for the simulated board (default %s: a Pico's heap less what its "
                        "firmware image holds, in the 64-bit unix port's terms)" % simboard.HEAP)
    p.add_argument("--new", action="store_true", help="wipe the simulated flash: start a new game")
    p.add_argument("--chip", action="store_true",
                   help="run the board on the virtual Pico instead: the stock RP2040 MicroPython firmware on an "
                        "emulated chip, the checkout's firmware deployed to it (when it changed), the mirror "
                        "showing its decoded strip and display; --data is then where its flash image is kept")


def configure_mirror(p):
    p.add_argument("--port", metavar="PORT", help="the board's serial port (default: the first Pico found)")


def firmware_build():
    """shared_rules/ and firmware/ compiled to .mpy in the user cache (only what changed)."""
    return mp.build_board(os.path.join(platformdirs.user_cache_dir("chancery", appauthor=False), "mpy"))


def _terminal():
    """The mirror is a full-screen terminal program: refuse, rather than hang, without a terminal."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return True
    print("error: the mirror needs a terminal (stdin and stdout are not one here)", file=sys.stderr)
    return False


def wanted_game(args):
    """The new_game action `chancery sim [GAME] [--players N] [--set NAME=VALUE ...]` asks
    for (Chancellors when only settings are given), or None when nothing is asked: the
    board resumes what it has. Raises commands.ParseError for an unknown game or setting."""
    from chancery.words import new_game

    given = list(args.set) + (["players=%d" % args.players] if args.players else [])
    if args.game is None and not given:
        return None
    return new_game.parse([args.game or "chancellors"] + given)


def run_sim(args):
    from chancery.words import commands
    from chancery.words import names as seat_words

    try:
        wanted = wanted_game(args)
        names = None if args.names is None else seat_words.split(args.names)
        if names is not None:  # each name now; how many, against the game's seats once it is known
            seat_words.checked(names, len(names))
    except commands.ParseError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if not _terminal():
        return 2
    if args.chip:
        from chancery.mirror import chip

        return chip.run(args, wanted, names)
    from chancery.board.link import Link, LinkError
    from chancery.board.simboard import SimBoard
    from chancery.logbook.store import Logbook

    settings = dict(wanted["settings"]) if wanted else None
    data = args.data or os.path.join(platformdirs.user_data_dir("chancery", appauthor=False), "sim-board")
    try:
        build = firmware_build()
        board = SimBoard(data_dir=data, game=wanted["game"] if wanted else "chancellors",
                         players=settings.pop("players", None) if settings else None, seed=args.seed,
                         heap=args.heap, code_path=[build], settings=settings)
        board.lock()  # before --new touches its files: another chancery may be playing on them
    except (mp.MicroPythonNotFound, mp.MpyCrossError, OSError) as e:
        print("error: cannot start the simulated board: %s" % e, file=sys.stderr)
        return 2
    if args.new:
        for name in os.listdir(data):
            if name.endswith((".jsonl", ".json", ".tmp")):
                os.remove(os.path.join(data, name))
    with board:
        link = Link(board.open_pty(), logbook=Logbook())
        link.open()  # before the board starts: opening a tty can flush what is waiting
        board.start()
        try:
            link.hello(wait=10.0)
        except LinkError as e:
            print("error: the simulated board did not answer: %s\n%s" % (e, board.stderr_text()[-2000:]),
                  file=sys.stderr)
            return 2
        from chancery.mirror import app

        return app.attach(link, wanted, names=names)


def run_mirror(args):
    if not _terminal():
        return 2
    from chancery.board.link import Link, LinkError, board_port
    from chancery.logbook.store import Logbook
    from chancery.mirror.app import MirrorApp

    try:
        port = board_port(args.port)
    except LinkError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    MirrorApp(Link(port, logbook=Logbook()), connect=True).run()
    return 0
