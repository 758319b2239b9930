"""The `chancery` command line: argparse and dispatch, nothing else.

Each job (a subpackage) has one entry point, its cli module: configure() adds its
subcommands and returns their names, run(args) runs one. This file only wires them.
`main` returns the exit code: 0 success, 1 a scenario's expectations failed, 2 bad
input or usage.
"""

import argparse
import os
import sys

from chancery import __version__
from chancery.deploy import cli as deploy
from chancery.dice import cli as dice
from chancery.hardware import cli as hardware
from chancery.logbook import cli as logbook
from chancery.mirror import cli as mirror
from chancery.play import cli as play

JOBS = (play, logbook, mirror, hardware, deploy, dice)  # in the order of the help's commands


def parser():
    """(the parser, {command: the run() of its job})"""
    p = argparse.ArgumentParser(prog="chancery", description="Chancery: a table companion for games of court and council.")
    p.add_argument("--version", action="version", version="chancery " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    runs = {}
    for job in JOBS:
        for name in job.configure(sub):
            runs[name] = job.run
    return p, runs


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
    p, runs = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # --help, --version or a usage error: argparse has printed it
        return e.code if isinstance(e.code, int) else 2
    if args.command not in runs:
        p.print_help()
        return 2
    return runs[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
