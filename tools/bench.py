#!/usr/bin/env python3
"""Benchmark the rules core under CPython and MicroPython (a report, not a test).

    python3 run.py bench [--games N] [--first-seed S]
    .venv/bin/python tools/bench.py [--games N] [--first-seed S]

Reports, as a Markdown table:
  * actions per second over N random play-outs (tests/mp/playout.py) under
    CPython, and under MicroPython from the .mpy build with the heap capped at
    64K and uncapped (timed inside the interpreter, so start-up is excluded);
  * the smallest -X heapsize (KB, bisected between 8K and 512K) with which the
    longest 4-seat game of those N completes from .mpy: played out by the
    random driver, and replayed from its log by tests/mp/replay_log.py (the
    rules core's own need: the replayer holds one log entry at a time);
  * the smallest heap for the scenario runner over tests/scenarios, from .mpy
    and from source;
  * the total .mpy size of shared_rules/ and the heap each import takes;
  * Yes, Your Grace's calculator on its worst legal inputs (issue 15 part 3):
    twelve tied cards a side, five seats of twelve tied cards, ...: ms per
    answer under CPython and MicroPython (.mpy, 96K heap), and the smallest
    heap each needs on its own.
Nothing here asserts a timing.
"""

import argparse
import os
import pathlib
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
MP_DIR = ROOT / "tests" / "mp"
for p in (str(ROOT / "host"), str(ROOT), str(MP_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gate_harness as harness  # noqa: E402
import playout  # noqa: E402

from chancery.board import micropython as mp  # noqa: E402

GATE = "64K"

# Imported one after another from .mpy to show what each costs in heap. A
# package's __init__ pulls in its submodules, so they show up under it.
_IMPORTS = (
    "shared_rules.compat", "shared_rules.errors", "shared_rules.canon", "shared_rules.prng",
    "shared_rules.schema", "shared_rules.decktet", "shared_rules.games", "shared_rules.engine",
    "shared_rules.chancellors", "shared_rules.chancellors.views", "shared_rules.scenario",
    "shared_rules.matches",
)
_IMPORT_CODE = (
    "import gc\n"
    "gc.collect()\n"
    "base = gc.mem_alloc()\n"
    "for name in %r:\n"
    "    try:\n"
    "        __import__(name)\n"
    "    except ImportError:\n"
    "        print(name, 'missing')\n"
    "        continue\n"
    "    gc.collect()\n"
    "    now = gc.mem_alloc()\n"
    "    print(name, now - base)\n"
    "    base = now\n"
)


# Yes, Your Grace's calculator on the largest legal inputs: each case is timed under CPython
# and MicroPython by the same code (ms per answer over at least 200 ms of answers).
_YYG_CODE = """
import sys, time
from shared_rules.yes_your_grace import calc
T = [(t, v) for t in range(3) for v in (1, 2, 4, 8)]  # every choice of the tied cards its own sums
def tied(coin, n, cost=1):
    return ([(3, coin, 0)] if coin else []) + [(t, v, cost) for t, v in T][:n]
STEWARD = [[['steward', 3, 6]], []]
CASES = {
    'event-12-tied-a-side': ([tied(0, 12), tied(6, 11)], [[], []], STEWARD),
    'event-7-tied-a-side': ([tied(7, 7, 2), tied(7, 7, 2)], [[], []], [[], []]),
    'event-12-tied-ordered': ([tied(0, 12), tied(6, 11)], [list(range(12)), list(range(12))], STEWARD),
    'war-5-seats-12-tied': ([tied(5, 11)] * 5, [[]] * 5, [()] * 5),
    'war-5-seats-12-tied-ordered': ([tied(5, 11)] * 5, [list(range(12))] * 5, [()] * 5),
    'war-5-seats-12-alike': ([[(3, 5, 0)] + [(0, 3, 1)] * 11] * 5, [[]] * 5, [()] * 5),
}
def ms():
    return time.ticks_ms() if hasattr(time, 'ticks_ms') else int(time.perf_counter() * 1000)
def ago(t):
    return time.ticks_diff(time.ticks_ms(), t) if hasattr(time, 'ticks_ms') else ms() - t
names = sys.argv[1:] or sorted(CASES)
for name in names:
    per, firsts, roles = CASES[name]
    t, n = ms(), 0
    while True:
        out = calc.outcomes(per, firsts, roles)
        n += 1
        if ago(t) >= 200 or len(names) == 1:
            break
    print('yyg %s %d %d %d %s' % (name, n, ago(t), out['count'], 'exact' if out['exact'] else 'at-least'))
"""


def _yyg_rows(exe, tree):
    """Rows for Yes, Your Grace's worst cases: CPython and MicroPython ms per answer, heap."""
    import subprocess

    def parse(text):
        got = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 6 and parts[0] == "yyg":
                got[parts[1]] = (int(parts[3]) / max(1, int(parts[2])), parts[4], parts[5])
        return got

    cp = subprocess.run([sys.executable, "-c", _YYG_CODE], capture_output=True, text=True, cwd=str(ROOT),
                        timeout=600)
    mpy = mp.run_micropython(code=_YYG_CODE, heap="96K", cwd=tree, path=[tree], micropython=exe, timeout=600)
    cpt, mpt = parse(cp.stdout), parse(mpy.stdout)
    rows = []
    for name in sorted(cpt):
        def alone(heap, name=name):
            proc = mp.run_micropython(code=_YYG_CODE, args=[name], heap=heap, cwd=tree, path=[tree],
                                      micropython=exe, timeout=600)
            return proc.returncode == 0 and ("yyg " + name) in proc.stdout
        heap = harness.smallest_heap(alone, 16, 512)
        m = mpt.get(name)
        rows.append(("Yes, Your Grace %s (%s %s outcomes): CPython / MicroPython 96K ms per answer; smallest heap "
                     "(the rules package imported: about 47K of it)"
                     % (name, cpt[name][2], cpt[name][1]),
                     "%.2f / %s; %s" % (cpt[name][0], "%.1f" % m[0] if m else "does not run", "%dK" % heap if heap
                                        else "> 512K")))
    return rows


def _time_line(out):
    m = re.search(r"^time actions=(\d+) ms=(\d+)$", out, re.M)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _rate(actions, ms):
    return "%d" % (actions * 1000 // ms) if ms else "n/a"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=60, help="play-outs per measurement (default 60)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--no-board", action="store_true", help="skip the simulated board's figures (bench_board.py)")
    args = ap.parse_args(argv)
    n, s0 = args.games, args.first_seed
    common = ["--games", str(n), "--first-seed", str(s0), "--mixed", "--time"]
    exe = mp.find_micropython()
    version = mp.micropython_version(exe)
    rows = []

    # CPython, in this process
    results = []
    t0 = time.perf_counter_ns()
    for k in range(n):
        seed = s0 + k
        results.append(playout.play_game(seed, playout.players_for(seed, 0), seed % 2 == 1))
    cp_ms = max(1, (time.perf_counter_ns() - t0) // 1000000)
    actions = sum(r["actions"] for r in results)
    rows.append(("CPython %s: actions/s (%d games, %d actions)" % (sys.version.split()[0], n, actions),
                 _rate(actions, cp_ms)))

    with tempfile.TemporaryDirectory(prefix="chancery-bench-") as tmp:
        tree = os.path.join(tmp, "mpy")
        mp.build_mpy(ROOT / "shared_rules", tree)
        runners = harness.compile_runners(os.path.join(tmp, "runners"))
        path = [runners, tree]

        # The driver (legal(), random choices, invariant checks) needs more heap than
        # the core; 96K is the board's budget (firmware issue), 64K the core's gate.
        for label, heap in (("MicroPython .mpy, heap %s" % GATE, GATE), ("MicroPython .mpy, heap 96K", "96K"),
                            ("MicroPython .mpy, uncapped", None)):
            proc = harness.run("playout", common, heap, path, micropython=exe)
            got = _time_line(proc.stdout)
            if proc.returncode != 0 or got is None:
                last = (proc.stdout.strip().splitlines() or ["?"])[-1]
                rows.append((label + ": actions/s", "does not run: " + last[:80]))
            else:
                rows.append((label + ": actions/s", _rate(*got)))

        # the longest 4-seat game among the seeds (driver seeds as playout.py picks them)
        four = [playout.play_game(s0 + k, 4, (s0 + k) % 2 == 1) for k in range(n)]
        longest = max(four, key=lambda r: (r["actions"], -r["seed"]))
        seed, ext = longest["seed"], longest["extended"]
        game_args = ["--games", "1", "--first-seed", str(seed), "--players", "4"] + (["--extended"] if ext else [])
        logs = os.path.join(tmp, "logs")
        os.makedirs(logs)
        writer = playout.LogWriter(logs, seed, 4, ext)
        playout.play_game(seed, 4, ext, writer.entry)
        writer.close()
        log = os.path.join(logs, os.listdir(logs)[0])
        what = "seed %d, 4 seats%s, %d actions" % (seed, ", extended" if ext else "", longest["actions"])

        def plays(heap):
            return harness.run("playout", game_args, heap, path, micropython=exe).returncode == 0

        def replays(heap):
            return harness.run("replay_log", [log], heap, path, micropython=exe).returncode == 0

        scen = str(ROOT / "tests" / "scenarios")

        def scenarios(heap):
            return harness.run("run_scenarios", [scen], heap, path, micropython=exe).returncode == 0

        def scenarios_src(heap):
            return harness.run_source("run_scenarios", [scen], heap, path, micropython=exe).returncode == 0

        def kb(v):
            return "%dK" % v if v else "> 512K (or fails)"

        rows.append(("smallest heap: one full game played out by the driver (%s), .mpy" % what,
                     kb(harness.smallest_heap(plays))))
        rows.append(("smallest heap: the same game replayed from its log (core only), .mpy",
                     kb(harness.smallest_heap(replays))))
        rows.append(("smallest heap: all scenarios, runner and core from .mpy", kb(harness.smallest_heap(scenarios))))
        rows.append(("smallest heap: all scenarios, runner from source, core .mpy",
                     kb(harness.smallest_heap(scenarios_src))))

        sizes = []
        for dirpath, _dirs, files in os.walk(os.path.join(tree, "shared_rules")):
            for f in files:
                if f.endswith(".mpy"):
                    sizes.append((os.path.relpath(os.path.join(dirpath, f), tree), os.path.getsize(os.path.join(dirpath, f))))
        rows.append(("total .mpy size of shared_rules/ (%d files)" % len(sizes), "%d bytes" % sum(s for _, s in sizes)))

        rows.extend(_yyg_rows(exe, tree))

        imp = mp.run_micropython(code=_IMPORT_CODE % (_IMPORTS,), cwd=tree, path=[tree], micropython=exe)
        imports = [line.split() for line in imp.stdout.splitlines() if line.startswith("shared_rules")]

    print("## Chancery rules core benchmark\n")
    print("MicroPython %s (.mpy v%s) at %s\n" % (".".join(str(x) for x in version.version[:3]),
                                                 version.mpy_version, exe))
    print("| measure | value |")
    print("|---|---|")
    for k, v in rows:
        print("| %s | %s |" % (k, v))
    print("\nHeap taken by each import from .mpy (unix port, 64-bit: a 32-bit board needs less for objects):\n")
    print("| module | bytes |")
    print("|---|---|")
    total = 0
    for parts in imports:
        print("| %s | %s |" % (parts[0], parts[1]))
        if parts[1].isdigit():
            total += int(parts[1])
    print("| total | %d |" % total)
    print("\n.mpy sizes: " + ", ".join("%s %d" % (p, s) for p, s in sorted(sizes)))
    if not args.no_board:
        import bench_board

        print()
        bench_board.main([])
    print("\nCommand: %s %s %s" % (os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT))
                                   else sys.executable, os.path.relpath(__file__, ROOT),
                                   " ".join(argv if argv is not None else sys.argv[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
