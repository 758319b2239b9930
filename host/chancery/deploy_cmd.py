"""`chancery deploy`: arguments and messages around chancery.deploy."""

import os
import sys

from chancery import board_cmd
from chancery import deploy as deployer


def configure(p):
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


def run(args):
    from chancery import commands, new_game

    try:
        first = new_game.parse([args.game or "chancellors"] + list(args.set)) if args.game or args.set else None
    except commands.ParseError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    port = args.port
    if port is None:
        port, ports = board_cmd.find_port()
        if port is None:
            found = ", ".join(["%s (%s)" % (p.device, p.description) for p in ports]) or "none"
            print("error: no Raspberry Pi Pico (USB %04x:*) found; serial ports here: %s. Give one with --port."
                  % (board_cmd.PICO_VID, found), file=sys.stderr)
            return 2
    elif not os.path.exists(port) and not port.upper().startswith("COM"):
        print("error: there is no serial port %s" % port, file=sys.stderr)
        return 2
    try:
        deployer.deploy(port, args.board, dry_run=args.dry_run, resume=args.resume, skip_code=args.skip_code,
                        first=first)
    except deployer.DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0
