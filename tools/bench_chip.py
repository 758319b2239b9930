#!/usr/bin/env python3
"""Benchmark the board on its chip: the stock RPI_PICO MicroPython firmware on the virtual Pico.

    python3 run.py chancery ... (not needed): .venv/bin/python tools/bench_chip.py [--actions N]

For each game at its largest seat count, a random game's log is replayed on the chip the
way the board's table plays an entry (tools/chip/board_steps.py): the rules in place with
the entry's chained digest (engine.step's work on the board), the journal's flushed line
on littlefs (the flash model's W25Q16 program and erase times included), and the public
view rendered into the LED frame through the current limiter. Figures are the chip's own
clock (simulated time at 125 MHz), median / p95 / max in ms. A report, never asserted.

Then the whole path, end to end (tools/chip/press_play.py): the deployed firmware running
standalone from main.py, each game at its largest seat count, actions entered by GPIO
presses on the board's menus (or The King's Dilemma's vote pads), contact bounce and all;
from the edge that completes an entry (a tap's release, or a hold becoming long) to the
last bit of the WS2812 frame that shows it.

Every kind of completing input, each game (tools/chip/input_kinds.py, `--only kinds`): the table's
roll hold, a menu's confirm (computed ahead, and at once), a vote pad's hold, a sealed ballot's cast
and close, an undo, the first input after boot and after a game switch, with boot and the switch;
run only when asked for (it takes most of an hour).

Last, the heap path by path (tools/chip/heap.py): each game at its most seats, The King's
Dilemma's sealed vote, The Council with a host's link, the menus, switching games, and a
board reading two smart dice (Chancellors' rolls from them; the menus with them connected),
each inside the 96 KB cap.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip"), str(ROOT / "tests" / "helpers"),
          str(ROOT / "tests" / "mp")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402
import press_play  # noqa: E402
import stamps  # noqa: E402

from chancery.vpico import VirtualPico, image  # noqa: E402
from shared_rules.games import GAMES  # noqa: E402

most_players = make_log.most_players


def run(actions, seed, say=print):
    extra, counts = {}, {}
    for game in GAMES:
        extra["bench/" + game + ".jsonl"], counts[game] = make_log.log_text(game, seed, actions)
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    rows, heap = [], {}
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
                        heap[game] = int(line.split("heap_peak")[1].split()[0]) if "heap_peak" in line else None
    say("| game | actions | stage | median ms | p95 ms | max ms |")
    say("|---|---|---|---|---|---|")
    for game, n, stage, med, p95, top in rows:
        say("| %s | %d | %s | %.1f | %.1f | %.1f |" % (game, n, stage, med / 1000, p95 / 1000, top / 1000))
    if heap:
        say("")
        say("| game | heap peak KB (after an entry's step, journal and render, before the collect) |")
        say("|---|---|")
        for game in GAMES:
            if heap.get(game) is not None:
                say("| %s | %.1f |" % (game, heap[game] / 1024))
    return rows


_stats = press_play.stats


def press_to_frame(entries, seed, games=GAMES, say=print, stamped=False):
    """The end-to-end figure: per game, (entries, median, p95, max ns, unmatched frames).
    stamped: a profiling build (tools/chip/stamps.py), whose stages are reported too."""
    with open(ROOT / "hardware" / "boards" / "rpi-pico.json") as f:
        cfg = json.load(f)
    extra = stamps.build() if stamped else None
    out = []
    with tempfile.TemporaryDirectory(prefix="chancery-chip-") as tmp:
        for game in games:
            flash = os.path.join(tmp, game + ".img")
            image.deployed_image(flash, first={"game": game, "settings": {"players": most_players(game)}}, extra=extra)
            with VirtualPico(flash=flash, pace="free") as vp:
                vp.wait_frame(after_ns=0, timeout=120)
                board = press_play.Board(vp, cfg)
                took = press_play.play(board, seed, entries, say)
                board.link.close()
            for line in [n for n in board.noise if not n.startswith("STAMP ")][:5]:
                say("  (%s: the board said: %s)" % (game, line[:200]))
            if stamped:
                stages, n = stamps.medians(board.noise)
                say("%s, where a press goes (median us of %d entries, the stamped build): %s" % (
                    game, n, "; ".join("%s %d" % (stage, us) for stage, us in stages)))
            if not board.latencies:
                say("%s: no entry was timed" % game)
                continue
            med, p95, top = _stats(board.latencies)
            out.append((game, took, med, p95, top, board.unmatched))
            say("%s: %d entries, press to frame median %.1f ms, p95 %.1f, max %.1f%s" % (
                game, took, med / 1e6, p95 / 1e6, top / 1e6,
                "" if not board.unmatched else " (%d frames not as expected)" % board.unmatched))
    say("")
    say("| game | entries | press to frame median ms | p95 ms | max ms |")
    say("|---|---|---|---|---|")
    for game, took, med, p95, top, _bad in out:
        say("| %s | %d | %.1f | %.1f | %.1f |" % (game, took, med / 1e6, p95 / 1e6, top / 1e6))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=120, help="at most this many actions per game (default 120)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--entries", type=int, default=30,
                    help="entries per game pressed on the board's GPIOs (default 30; 0: skip)")
    ap.add_argument("--only", choices=("stages", "presses", "heap", "kinds"),
                    help="one of the figures (kinds: every input kind, tools/chip/input_kinds.py; only with --only)")
    ap.add_argument("--samples", type=int, default=5, help="--only kinds: samples of each kind a game (default 5)")
    ap.add_argument("--games", nargs="+", choices=GAMES, default=GAMES)
    ap.add_argument("--stamps", action="store_true",
                    help="press to frame on a profiling build: where each press's time goes (tools/chip/stamps.py)")
    ap.add_argument("--write", action="store_true",
                    help="press to frame's table (with --only kinds: every kind's) into docs/performance.md")
    args = ap.parse_args(argv)
    if args.only == "kinds":
        import input_kinds

        input_kinds.bench(args.samples, args.seed, tuple(args.games), args.write)
        return
    if args.only in (None, "stages"):
        run(args.actions, args.seed)
    if args.only in (None, "presses") and args.entries > 0:
        said = []

        def say(line):
            said.append(line)
            print(line)

        press_to_frame(args.entries, args.seed, args.games, say=say, stamped=args.stamps)
        if args.write:
            import perfdoc

            from chancery.vpico import kit

            perfdoc.write_section("## Press to frame", [
                "Written by `tools/bench_chip.py --only presses --write`: the deployed firmware standalone on the",
                "virtual Pico (%s), actions entered by GPIO presses on the board's menus, from the edge that completes"
                % os.path.basename(kit.find_uf2()),
                "an entry to the last bit of the strip's frame, in the chip's clock; %d entries a game, seed %d."
                % (args.entries, args.seed), ""] + [line for line in said if line.startswith("|")])
    if args.only in (None, "heap"):
        import heap  # tools/chip/heap.py: each path inside the 96 KB the issue allows

        heap.run(args.actions, args.seed)


if __name__ == "__main__":
    main()
