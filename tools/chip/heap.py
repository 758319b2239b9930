"""The board's heap on its chip, path by path: a report for tools/bench_chip.py (issue 13, part 6).

Each path runs on the virtual Pico (stock RPI_PICO MicroPython) with the deployed firmware's
own objects, inside a heap capped at CAP (tools/chip/heap_paths.py): each game at its largest
seat count (a random game's log played through the table, shown on the strip after every
entry), The King's Dilemma's sealed vote (the casts through the private ballot box), The
Council again with a host's link (its code is loaded by the host's hello: a board on its own
has none of it), the menus (random presses at a 4-seat table), switching games at the table,
and a board reading smart dice (issue 20, part 6): Chancellors' rolls from the dice, and the
menus with the dice connected.

    HEAP_ROLLS=1,2,3,4 python tools/chip/heap.py [ACTIONS [PATH_NAME...]]   (HEAP_ROLLS: the menus' paths once a seed)
"""

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402

from chancery.vpico import VirtualPico, image  # noqa: E402

CAP = 96 * 1024
GAMES = ("chancellors", "kings_dilemma", "the_council", "yes_your_grace")


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


ROOMY = 160 * 1024  # a path that fails within CAP runs again in this much, for its figures


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


def run(actions=120, seed=3, cap=CAP, say=print, only=None, rolls=None):
    """Each path within `cap` (of `only`'s PATH_NAMEs, if given); one that fails there again
    with ROOMY, for the heap it needed. The table's menus (its presses and the rolls they make)
    are run once for each of `rolls`, the seeds of the board's own rolls (default: HEAP_ROLLS
    from the environment, "1,2,3,4" say, else ROLLS_SEED alone)."""
    if rolls is None:
        rolls = tuple(int(x) for x in os.environ.get("HEAP_ROLLS", str(ROLLS_SEED)).split(","))
    todo, logs = paths(actions, seed)
    todo = [t for t in todo if only is None or t[1] in only]
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    rows = []
    with tempfile.TemporaryDirectory(prefix="chancery-heap-") as tmp:
        flash = os.path.join(tmp, "flash.img")
        image.deployed_image(flash, extra=logs)
        with VirtualPico(flash=flash, pace="free") as vp:
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


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 120, only=sys.argv[2:] or None)
