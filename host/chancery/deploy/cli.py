"""`chancery deploy`: arguments and messages around chancery.deploy.flash. The deploy's entry
point: configure() adds the command, run() runs it."""

import sys


def configure(sub):
    """Add `deploy` to the command line's subparsers; returns its name."""
    p = sub.add_parser(
        "deploy", help="put the rules, the firmware, the pin map and the layouts on a board (mpremote)",
        description="Compile with the mpy-cross that matches the board (or copy sources), copy what changed "
                    "(by hash), verify, and reset the board into the firmware.")
    p.add_argument("--port", help="the board's serial port (default: the first Raspberry Pi Pico found)")
    p.add_argument("--board", default="rpi-pico",
                   help="the pin map in hardware/boards/ (default rpi-pico; sim for the unix port)")
    p.add_argument("--dry-run", action="store_true", help="say what would be copied and removed, change nothing")
    p.add_argument("--skip-code", action="store_true",
                   help="only the pin map, the layouts and main.py (for firmware frozen into MicroPython: manifest.py)")
    p.add_argument("--game", help="the board's first game, played while its flash holds none (default chancellors)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting of that first game (see `chancery rules GAME`); repeat for more")
    p.add_argument("--resume", action="store_true",
                   help="never soft-reset the board (the MicroPython unix port on a pty, as the tests use)")
    return ["deploy"]


def run(args):
    from chancery.words import commands, new_game

    try:
        first = new_game.parse([args.game or "chancellors"] + list(args.set)) if args.game or args.set else None
    except commands.ParseError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    from chancery.board.link import LinkError, board_port
    from chancery.deploy import flash

    try:
        port = board_port(args.port)
    except LinkError as e:
        if args.dry_run and args.port is None:  # the build and its plan need no board
            try:
                flash.plan(args.board, skip_code=args.skip_code, first=first)
            except flash.DeployError as e2:
                print("error: %s" % e2, file=sys.stderr)
                return 2
            return 0
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        flash.deploy(port, args.board, dry_run=args.dry_run, resume=args.resume, skip_code=args.skip_code,
                    first=first)
    except flash.DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0
