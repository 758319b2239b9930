"""`chancery dice scan` and `chancery dice watch`: smart dice (GoDice) on the host, for the board's rolls.

scan lists the GoDice advertising nearby; watch connects to the board (as the mirror does:
one board, one host, every entry to the logbook) and to the dice named, and turns a roll
of the dice into the board's roll whenever it asks for one (watch.py). Without a
Bluetooth LE adapter both say so and exit 2.
"""

import asyncio
import sys

from firmware.dice import godice as protocol


def configure(sub):
    p = sub.add_parser("dice", help="read smart dice (GoDice) over Bluetooth LE for the board's rolls",
                       description="Smart dice over Bluetooth LE (GoDice, with the maker's `godice` API): list "
                                   "them, or read them for the board's rolls.")
    jobs = p.add_subparsers(dest="dice_command", metavar="JOB")
    scan = jobs.add_parser("scan", help="list the GoDice nearby (name, address, die id, signal)")
    scan.add_argument("--seconds", type=int, default=5, metavar="S", help="how long to listen (default 5)")
    watch = jobs.add_parser("watch", help="read the dice for the board's rolls, through the link",
                            description="Connect to the board and the dice; when the board asks for a roll, the "
                                        "settled dice become its values (source smart, each with its die's id).")
    watch.add_argument("--die", action="append", default=[], metavar="ADDRESS",
                       help="a die's Bluetooth address (from `chancery dice scan`); repeat for more")
    watch.add_argument("--shell", default="D6", choices=protocol.SHELLS, help="the dice's shell (default D6)")
    watch.add_argument("--port", metavar="PORT", help="the board's serial port (default: the first Pico found)")
    return ["dice"]


def run(args, client_for=None, discover=None, link=None, until=None):
    """client_for, discover, link and until (a function: stop when true) are the tests'."""
    from chancery.dice import ble

    try:
        if args.dice_command == "scan":
            return asyncio.run(_scan(args, discover))
        if args.dice_command == "watch":
            if not args.die:
                print("error: name the dice to watch: --die ADDRESS (from `chancery dice scan`), once per die",
                      file=sys.stderr)
                return 2
            return asyncio.run(_watch(args, client_for, link, until))
    except ble.NoAdapter as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C ends a watch: the dice are let go by then
        return 0
    print("error: chancery dice needs a job: scan or watch (chancery dice --help)", file=sys.stderr)
    return 2


async def _scan(args, discover):
    from chancery.dice import ble

    if args.seconds < 1:
        print("error: --seconds must be 1 or more, not %d" % args.seconds, file=sys.stderr)
        return 2
    found = await ble.scan(args.seconds, discover)
    if not found:
        print("no GoDice found in %d s: wake them by shaking them, and keep them near" % args.seconds)
        return 0
    for name, address, rssi in found:
        print("%s  %s  die %s  signal %d dBm" % (name, address, ble.die_id(address), rssi))
    return 0


async def _watch(args, client_for, link, until):
    from chancery.board.link import Link, LinkError, board_port
    from chancery.dice import ble
    from chancery.dice.watch import Watch

    def say(line):
        print(line)
        sys.stdout.flush()

    events = []
    dice = [ble.Die(address, args.shell, events.append, client_for) for address in args.die]
    for die in dice:
        await die.connect()
        say("die %s connected (%s)" % (die.id, args.shell))
    try:
        if link is None:
            from chancery.logbook.store import Logbook

            link = Link(board_port(args.port), logbook=Logbook())
            link.connect(attempts=3)
    except LinkError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    watch = Watch(link, say, [d.id for d in dice])
    watch.tick()
    try:
        while until is None or not until():
            link.poll(0.0)
            while events:
                watch.event(events.pop(0))
            watch.tick()
            await asyncio.sleep(0.02)
    except KeyboardInterrupt:
        pass
    finally:
        for die in dice:
            try:
                await die.disconnect()
            except Exception:  # a die already gone: nothing to let go of
                pass
    return 0
