#!/usr/bin/env python3
"""Benchmark the board on its chip: the stock RPI_PICO MicroPython firmware on the virtual Pico.

    python3 run.py chancery ... (not needed): .venv/bin/python tools/bench_chip.py [--actions N]

For each game at its largest seat count, a random game's log is replayed on the chip the
way the board's table plays an entry (tools/chip/board_steps.py): the rules in place with
the entry's chained digest (engine.step's work on the board), the journal's flushed line
on littlefs (the flash model's W25Q16 program and erase times included), and the public
view rendered into the LED frame through the current limiter. Figures are the chip's own
clock (simulated time at 125 MHz), median / p95 / max in ms. A report, never asserted.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402

from chancery.vpico import VirtualPico, image  # noqa: E402
from shared_rules import canon, engine  # noqa: E402

GAMES = ("chancellors", "kings_dilemma", "the_council", "yes_your_grace")


def most_players(game):
    for s in engine.game_module(game).SETTINGS:
        if s["name"] == "players":
            return s["domain"]["max"]
    return 4


def log_bytes(game, seed, cap):
    header, entries = make_log.make(game, seed, most_players(game), cap)
    return ("\n".join([canon.encode(header)] + [canon.encode(e) for e in entries]) + "\n").encode(), len(entries)


def run(actions, seed, say=print):
    extra, counts = {}, {}
    for game in GAMES:
        extra["bench/" + game + ".jsonl"], counts[game] = log_bytes(game, seed, actions)
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    rows = []
    with tempfile.TemporaryDirectory(prefix="chancery-chip-") as tmp:
        flash = os.path.join(tmp, "flash.img")
        image.deployed_image(flash, extra=extra)
        with VirtualPico(flash=flash, pace="free") as vp:
            # main.py would start the firmware: the figures are the table's work alone
            subprocess.run([mpremote, "connect", vp.port, "rm", ":main.py"], capture_output=True, timeout=60)
            for game in GAMES:
                proc = subprocess.run([mpremote, "connect", vp.port, "soft-reset", "exec",
                                       "LOG='/bench/%s.jsonl'" % game, "run", str(ROOT / "tools" / "chip" / "board_steps.py")],
                                      capture_output=True, timeout=1800)
                out = proc.stdout.decode(errors="replace")
                if proc.returncode != 0 or "median" not in out:
                    say("%s: the board's run failed:\n%s%s" % (game, out, proc.stderr.decode(errors="replace")))
                    continue
                for line in out.splitlines():
                    w = line.split()
                    if len(w) >= 10 and w[2] == "n":
                        rows.append((game, counts[game], w[1], int(w[5]), int(w[7]), int(w[9])))
                    elif "digests_differing" in line:
                        say(line)
    say("| game | actions | stage | median ms | p95 ms | max ms |")
    say("|---|---|---|---|---|---|")
    for game, n, stage, med, p95, top in rows:
        say("| %s | %d | %s | %.1f | %.1f | %.1f |" % (game, n, stage, med / 1000, p95 / 1000, top / 1000))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=120, help="at most this many actions per game (default 120)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    run(args.actions, args.seed)


if __name__ == "__main__":
    main()
