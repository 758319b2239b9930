"""`chancery play`, `chancery replay` and `chancery rules`: the games at the terminal. This job's
entry point: configure() adds the three commands, run() runs one (its module imported then)."""

import argparse

from shared_rules import games


def _whole(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    return value


def configure(sub):
    """Add `replay`, `rules` and `play` to the command line's subparsers; returns their names."""
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
                       description="Play a game at the terminal: %s or %s. The game is saved after every action, "
                                   "and goes into the logbook (`chancery log`) entry by entry."
                                   % (", ".join(games.GAMES[:-1]), games.GAMES[-1]))
    g.add_argument("game", nargs="?", help="the game (default chancellors)")
    g.add_argument("--players", type=_whole, metavar="N", help="seats at the table (Chancellors 2-4, default 4)")
    g.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="one of the game's settings (see `chancery rules GAME`); repeat for more")
    g.add_argument("--seed", type=_whole, metavar="S", help="seed for the board's dice (default: random)")
    g.add_argument("--target", type=_whole, metavar="T", help="Chancellors: score that ends the game (default 100)")
    g.add_argument("--extended", action="store_true", help="play with the extended deck (Chancellors, The Council)")
    g.add_argument("--names", metavar="A,B,...", help="the seats' names, from seat 0 (- for a seat without one); "
                   "with --resume, new names for the saved game's seats")
    g.add_argument("--log", metavar="FILE", help="where to save the game (default: the user data folder)")
    g.add_argument("--resume", metavar="FILE", help="continue a saved game")
    g.add_argument("--no-logbook", action="store_true",
                   help="keep the game out of the logbook (it is still saved to its file)")
    return ["replay", "rules", "play"]


def run(args):
    if args.command == "replay":
        from chancery.play import replay

        return replay.run(args.file, args.json)
    if args.command == "rules":
        from chancery.play import rules

        return rules.run(args.game, args.json)
    from chancery.play import game

    return game.run(args)
