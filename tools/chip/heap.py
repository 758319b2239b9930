"""The board's heap on its chip, path by path: a report for tools/bench_chip.py.

The virtual Pico runs the firmware it is given (CHANCERY_PICO_UF2): one with a ROMFS partition
gets the board's code there, as `chancery deploy` puts it (vpico.image.deployed_image), a stock
one gets the .mpy on its filesystem, loaded into the heap. First the heap in use at idle after
boot: the deployed board booted into its game from main.py, interrupted, collected. Then each
path, with the deployed firmware's own objects, inside a heap capped at the goal
(tools/chip/heap_paths.py; goal(): half the heap with the code in flash, three quarters with
the code in RAM): each game at its largest
seat count (a random game's log played through the table, shown on the strip after every
entry), The King's Dilemma's sealed vote (the casts through the private ballot box), The
Council again with a host's link (its code is loaded by the host's hello: a board on its own
has none of it), the menus (random presses at a 4-seat table), switching games at the table,
and a board reading smart dice (issue 20, part 6): Chancellors' rolls from the dice, and the
menus with the dice connected.

    HEAP_ROLLS=1,2,3,4 python tools/chip/heap.py [--write] [ACTIONS [PATH_NAME...]]
    (HEAP_ROLLS: the menus' paths once a seed; --write: the tables into docs/performance.md)
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402

from chancery.vpico import VirtualPico, image  # noqa: E402
from shared_rules.games import GAMES  # noqa: E402

HEAP = 245888  # a Pico's MicroPython heap (gc.mem_alloc() + gc.mem_free() at boot)
IDLE_GOAL = 32 * 1024  # the heap in use at idle after boot, with the code in flash


most_players = make_log.most_players


def _log(game, seed, cap, settings=None, typed_rolls=False):
    return make_log.log_text(game, seed, cap, settings, tries=20, typed_rolls=typed_rolls)[0]


def paths(actions, seed):
    """[(label, PATH_NAME, log file or None)] and the logs to put on the flash."""
    out, logs = [], {}
    for game in GAMES:
        logs["bench/heap-%s.jsonl" % game] = _log(game, seed, actions)
        out.append(("%s, %d seats" % (game, most_players(game)), "game", "/bench/heap-%s.jsonl" % game))
    logs["bench/heap-sealed.jsonl"] = _log("kings_dilemma", seed, actions, {"voting": "sealed"})
    out.append(("kings_dilemma sealed vote, %d seats" % most_players("kings_dilemma"), "ballot",
                "/bench/heap-sealed.jsonl"))
    out.append(("the_council, %d seats, with the host's link" % most_players("the_council"), "link",
                "/bench/heap-the_council.jsonl"))
    out.append(("the menus, 400 presses", "menus", None))
    out.append(("switching games at the table", "switch", None))
    for name in ("aioble", "bluetooth"):  # the tests' fakes: the stock Pico has no radio (heap_paths.py)
        logs["bench/ble/%s.py" % name] = (ROOT / "tests" / "fakes" / "ble" / (name + ".py")).read_bytes()
    # every roll typed in the log: the dice settle on its values, and the game is the log's on every run
    logs["bench/heap-dice.jsonl"] = _log("chancellors", seed, actions, typed_rolls=True)
    out.append(("chancellors, %d seats, its rolls read from 2 smart dice" % most_players("chancellors"), "dice",
                "/bench/heap-dice.jsonl"))
    out.append(("the menus, 400 presses, with 2 smart dice connected", "dice_menus", None))
    return out, logs


ROOMY = 220 * 1024  # a path that fails within its cap runs again in this much, for its figures


def goal(rom):
    """The cap a path must fit: half the heap with the code in flash (ROMFS), three quarters of it
    with the code in RAM (a stock firmware: .mpy on the filesystem)."""
    return HEAP // 2 if rom else HEAP * 3 // 4


SETTLE_NS = 2 * 10 ** 9  # board time after the first frame: its upkeep done (the entry ahead, the spare copy)


def idle_after_boot(uf2=None, game="chancellors"):
    """(heap in use, free) in bytes: the deployed board booted into `game` at its most seats from
    main.py, its first frame shown, SETTLE_NS of its own time let pass (what the board keeps at
    idle: the entry computed ahead for the awaited press, the spare copy for an undo; interrupted
    at once, it was caught before them, 21 KB lower), then interrupted (mpremote) and collected."""
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    with tempfile.TemporaryDirectory(prefix="chancery-idle-") as tmp:
        flash = os.path.join(tmp, "flash.img")
        image.deployed_image(flash, first={"game": game, "settings": {"players": most_players(game)}}, uf2=uf2)
        with VirtualPico(flash=flash, uf2=uf2, pace="free") as vp:
            vp.wait_frame(after_ns=0, timeout=120)
            start = vp.now_ns()
            while vp.now_ns() - start < SETTLE_NS:
                time.sleep(0.2)
            proc = subprocess.run([mpremote, "connect", vp.port, "resume", "exec",
                                   "import gc\ngc.collect()\nprint('idle', gc.mem_alloc(), gc.mem_free())"],
                                  capture_output=True, timeout=300)
    out = proc.stdout.decode(errors="replace")
    line = [w.split() for w in out.splitlines() if w.startswith("idle ")]
    if not line:
        raise RuntimeError("the board did not say its heap: %s" % (out + proc.stderr.decode(errors="replace")))
    return int(line[-1][1]), int(line[-1][2])


SWITCHES = 5  # heap_paths.SWITCHES: the switch path is one run per switch, and one after the last


ROLLS_SEED = 1  # heap_paths' SEED: the board's own rolls from a seed, so that a path is the same run each time
MENUS = ("menus", "dice_menus")  # the paths of random presses: their rolls decide what the presses meet


def _one(mpremote, port, name, log, cap, seed=ROLLS_SEED):
    if name != "switch":
        return _run(mpremote, port, name, log, cap, ";SEED=%d" % seed)
    got = None
    for step in range(SWITCHES + 1):  # each run boots as the board does after a switch's restart
        one, out = _run(mpremote, port, name, log, cap, ";STEP=%d;SEED=%d" % (step, seed))
        if one is None:
            return None, out
        if got is None:
            got = one
        else:
            got["seen"], got["live"] = max(got["seen"], one["seen"]), max(got["live"], one["live"])
            got["n"] += one["n"]
            if got["status"] == "ok":
                got["status"] = one["status"]
        if one["status"] != "ok":
            break
    return got, out


def _run(mpremote, port, name, log, cap, more):
    setup = "PATH_NAME=%r;CAP=%d" % (name, cap) + (";LOG=%r" % log if log else "") + more
    # HEAP_PATHS names another runner (a copy that prints the MemoryError's traceback, say)
    proc = subprocess.run([mpremote, "connect", port, "soft-reset", "exec", setup, "run",
                           os.environ.get("HEAP_PATHS", str(ROOT / "tools" / "chip" / "heap_paths.py"))], capture_output=True, timeout=1800)
    out = proc.stdout.decode(errors="replace")
    line = [w for w in out.splitlines() if w.startswith("heap ")]
    if not line:
        return None, out + proc.stderr.decode(errors="replace")
    w = line[-1].split()
    return {"seen": int(w[3]), "live": int(w[5]), "base": int(w[7]), "n": int(w[9]), "status": " ".join(w[12:])}, out


def run(actions=120, seed=3, cap=None, say=print, only=None, rolls=None, uf2=None):
    """Each path within `cap` (default: goal() for the firmware `uf2`, the virtual Pico's by
    default) (of `only`'s PATH_NAMEs, if given); one that fails there again with ROOMY, for the
    heap it needed. The table's menus (its presses and the rolls they make)
    are run once for each of `rolls`, the seeds of the board's own rolls (default: HEAP_ROLLS
    from the environment, "1,2,3,4" say, else ROLLS_SEED alone)."""
    if rolls is None:
        rolls = tuple(int(x) for x in os.environ.get("HEAP_ROLLS", str(ROLLS_SEED)).split(","))
    from chancery.deploy import uf2 as uf2s
    from chancery.vpico import kit

    uf2 = uf2 or kit.find_uf2()
    rom = uf2s.has_romfs(uf2)
    cap = cap or goal(rom)
    todo, logs = paths(actions, seed)
    todo = [t for t in todo if only is None or t[1] in only]
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    rows = []
    with tempfile.TemporaryDirectory(prefix="chancery-heap-") as tmp:
        flash = os.path.join(tmp, "flash.img")
        image.deployed_image(flash, extra=logs, uf2=uf2)
        with VirtualPico(flash=flash, uf2=uf2, pace="free") as vp:
            subprocess.run([mpremote, "connect", vp.port, "rm", ":main.py"], capture_output=True, timeout=60)
            for label, name, log in todo:
                for r in rolls if name in MENUS else rolls[:1]:
                    got, out = _one(mpremote, vp.port, name, log, cap, r)
                    if got is not None and got["status"] != "ok":
                        roomy, _ = _one(mpremote, vp.port, name, log, ROOMY, r)
                        if roomy is not None:
                            roomy["status"] = "fails in %d KB (%s after %d); in %d KB: %s" % (
                                cap // 1024, got["status"], got["n"], ROOMY // 1024, roomy["status"])
                            got = roomy
                    if got is None:
                        say("%s: the board's run failed:\n%s" % (label, out))
                        continue
                    rows.append((label + (", rolls seed %d" % r if len(rolls) > 1 and name in MENUS else ""), got))
    say("| path | entries/presses | after imports KB | peak live KB | peak seen KB | within %d KB |" % (cap // 1024))
    say("|---|---|---|---|---|---|")
    for label, r in rows:
        say("| %s | %d | %.1f | %.1f | %.1f | %s |" % (label, r["n"], r["base"] / 1024, r["live"] / 1024,
                                                      r["seen"] / 1024, r["status"]))
    return rows


def report(uf2, actions=120, only=None, say=print):
    """The markdown for one firmware: idle after boot, then every path within its goal."""
    from chancery.deploy import uf2 as uf2s

    rom = uf2s.has_romfs(uf2)
    lines = []

    def out(text=""):
        lines.append(text)
        say(text)

    used, free = idle_after_boot(uf2)
    where = "The code in the firmware's ROMFS partition" if rom else "A stock firmware, the code as .mpy in the heap"
    out("### %s" % where)
    out()
    out("Heap in use at idle after boot (Chancellors, 4 seats; the firmware interrupted, then collected): "
        "**%.1f KB** of %.1f KB%s." % (used / 1024, (used + free) / 1024,
                                       " (goal: %d KB)" % (IDLE_GOAL // 1024) if rom else ""))
    out()
    run(actions, only=only, say=out, uf2=uf2)
    out()
    return lines


def write(sections):
    """Put the heap's tables into docs/performance.md under their heading, the rest of it kept."""
    import perfdoc

    intro = ["Written by `tools/chip/heap.py --write` (the virtual Pico, its firmware named by CHANCERY_PICO_UF2 and,",
             "for the stock one, CHANCERY_PICO_STOCK_UF2). The goals: with the code in flash, the heap in use at idle",
             "after boot within %d KB and every path within half the heap (%d KB); with the code in RAM (a stock"
             % (IDLE_GOAL // 1024, goal(True) // 1024),
             "firmware), every path with a quarter of the heap free (%d KB). KB: after the runner's imports of the"
             % (goal(False) // 1024),
             "firmware / the peak live after an entry's collection / the peak seen before it.", ""]
    perfdoc.write_section("## The heap on the chip", intro + [line for lines in sections for line in lines])


if __name__ == "__main__":
    argv = sys.argv[1:]
    writing = "--write" in argv
    argv = [a for a in argv if a != "--write"]
    actions = int(argv[0]) if argv else 120
    only = argv[1:] or None
    from chancery.vpico import kit

    firmwares = [kit.find_uf2()]
    if os.environ.get("CHANCERY_PICO_STOCK_UF2"):
        firmwares.append(os.environ["CHANCERY_PICO_STOCK_UF2"])
    sections = [report(f, actions, only) for f in firmwares]
    if writing:
        write(sections)
