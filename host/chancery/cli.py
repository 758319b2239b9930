"""The `chancery` command line: argparse and dispatch, nothing else.

Each subcommand lives in its own module (replay_cmd, rules_cmd, play, log_cmd); this
file only declares the arguments and calls them. `main` returns the exit code:
0 success, 1 a scenario's expectations failed, 2 bad input or usage.
"""

import argparse
import os
import sys

from chancery import __version__, board_cmd, deploy_cmd, log_cmd, power_cmd
from chancery.drawings import commands as drawings_cmd


def _whole(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    return value


def parser():
    p = argparse.ArgumentParser(prog="chancery", description="Chancery: a table companion for games of court and council.")
    p.add_argument("--version", action="version", version="chancery " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("replay", help="verify a saved game or run a scenario file, and show the final state",
                       description="Replay a match log (JSON, or JSON Lines) checking every event and "
                                   "digest, or run a scenario file; print the final public state.")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--json", action="store_true", help="print the state as canonical JSON")

    u = sub.add_parser("rules", help="a game's settings and actions",
                       description="Print a game's settings and every action with its parameters.")
    u.add_argument("game", metavar="GAME")
    u.add_argument("--json", action="store_true", help="print the description as canonical JSON")

    g = sub.add_parser("play", help="play a game at the terminal (Chancellors by default)",
                       description="Play a game at the terminal: chancellors, kings_dilemma, the_council or "
                                   "yes_your_grace. The game is saved after every action.")
    g.add_argument("game", nargs="?", help="the game (default chancellors)")
    g.add_argument("--players", type=_whole, metavar="N", help="seats at the table (Chancellors 2-4, default 4)")
    g.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="one of the game's settings (see `chancery rules GAME`); repeat for more")
    g.add_argument("--seed", type=_whole, metavar="S", help="seed for the board's dice (default: random)")
    g.add_argument("--target", type=_whole, metavar="T", help="Chancellors: score that ends the game (default 100)")
    g.add_argument("--extended", action="store_true", help="play with the extended deck (Chancellors, The Council)")
    g.add_argument("--log", metavar="FILE", help="where to save the game (default: the user data folder)")
    g.add_argument("--resume", metavar="FILE", help="continue a saved game")

    log_cmd.configure(sub.add_parser("log", help="list, show, export and import the games in the logbook",
                                     description="The logbook: every game a board played, entry by entry."))

    board_cmd.configure_sim(sub.add_parser(
        "sim", help="run the simulated board (the firmware under MicroPython) with the mirror attached",
        description="Start the real firmware under the MicroPython unix port on a pseudo-terminal, connect "
                    "to it as to a real board, and open the mirror. Its flash persists between runs."))
    board_cmd.configure_mirror(sub.add_parser(
        "mirror", help="mirror a real board's game on this screen",
        description="Connect to a board over USB serial and show the mirror; every entry goes to the logbook."))
    hw = drawings_cmd.configure(sub.add_parser(
        "hardware", help="the hardware: wiring diagrams, LED overlays, the strip's power budget",
        description="Wiring diagrams and printable LED overlays from hardware/, and the strip's current."))
    pw = hw.add_parser("power", help="the strip's worst-case and typical current and the brightness cap",
                       description="The current the layout's strip draws, by the model the board's limiter "
                                   "enforces (shared_rules/power.py), and the highest brightness cap that fits.")
    power_cmd.configure(pw)
    pw.set_defaults(hardware_run=power_cmd.run)
    deploy_cmd.configure(sub.add_parser(
        "deploy", help="put the rules, the firmware, the pin map and the layouts on a board (mpremote)",
        description="Compile with the mpy-cross that matches the board (or copy sources), copy what changed "
                    "(by hash), verify, and reset the board into the firmware."))
    return p


def main(argv=None):
    try:
        return _dispatch(argv)
    except BrokenPipeError:  # `chancery rules chancellors | head`: the reader left, that is fine
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


def _dispatch(argv):
    p = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # --help, --version or a usage error: argparse has printed it
        return e.code if isinstance(e.code, int) else 2
    if args.command is None:
        p.print_help()
        return 2
    if args.command == "replay":
        from chancery import replay_cmd

        return replay_cmd.run(args.file, args.json)
    if args.command == "rules":
        from chancery import rules_cmd

        return rules_cmd.run(args.game, args.json)
    if args.command == "play":
        from chancery import play

        return play.run(args)
    if args.command == "log":
        return log_cmd.run(args)
    if args.command == "sim":
        return board_cmd.run_sim(args)
    if args.command == "mirror":
        return board_cmd.run_mirror(args)
    if args.command == "deploy":
        return deploy_cmd.run(args)
    if args.command == "hardware":
        return drawings_cmd.run(args)
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
