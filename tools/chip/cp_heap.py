"""CircuitPython's heap with the board's game at idle, and its boot time, on the emulated Pico: a bench figure.

    CHANCERY_CP_UF2=... CHANCERY_CP_MPY_CROSS=... python tools/chip/cp_heap.py [--board rpi-pico-circuitpython] [--write]

A blank flash boots CircuitPython once (its CIRCUITPY FAT), `chancery deploy --drive` writes the board's files
into a folder put onto the image (chancery.vpico.cp, as tests/chip/test_cp_board.py does), the board boots into its
game from code.py (the first WS2812 frame: the time to it, simulated and wall), then code.py is interrupted
and the firmware booted again from the REPL with code.py's options, its tasks run for 1.5 s simulated and the
heap collected: gc.mem_free() at idle. Timings on the emulator are not the chip's (its README: no flash wait
states, the PIO apart from the simulated clock); the heap is CircuitPython's own. --write puts the figures into
docs/performance.md ("## CircuitPython").
"""

import argparse
import os
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in (str(ROOT / "host"), str(ROOT)):
    if p not in sys.path:
        sys.path.insert(0, p)

from chancery.vpico import cp  # noqa: E402


def measure(board_name="rpi-pico-circuitpython", mpy_cross=None, say=print):
    here, uf2 = cp.setup(say)
    with tempfile.TemporaryDirectory(prefix="chancery-cpheap-") as top:
        image = os.path.join(top, "flash.img")
        t = time.time()
        cp.blank_image(here, uf2, image)
        say("CircuitPython's first boot (the FAT made): %.0f s wall" % (time.time() - t))
        drive = os.path.join(top, "CIRCUITPY")
        cp.deploy_onto(image, drive, board_name, mpy_cross or os.environ.get("CHANCERY_CP_MPY_CROSS"))
        logs = os.path.join(top, "logs")
        os.makedirs(logs)
        t = time.time()
        with cp.board_log(here, uf2, image, logs) as b:
            t_ms, _frame = cp.wait_frame(b)
            wall = time.time() - t
            heap = cp.heap_at_idle(b, cp.code_py_options(drive))
    free, alloc = heap["idle"]
    got = {"first_frame_ms": t_ms, "first_frame_wall_s": round(wall, 1), "heap_free": free, "heap_used": alloc,
           "heap": free + alloc, "repl_free": heap["repl"][0], "game": heap["game"]}
    say("first frame on the strip: %.1f s simulated after power-on (%.0f s wall)" % (t_ms / 1000, wall))
    say("%s at idle: gc.mem_free() %d of a %d-byte heap (%d in use; %d free at the REPL before the boot)"
        % (heap["game"], free, free + alloc, alloc, heap["repl"][0]))
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="rpi-pico-circuitpython")
    ap.add_argument("--mpy-cross", help="CircuitPython's mpy-cross (default $CHANCERY_CP_MPY_CROSS)")
    ap.add_argument("--write", action="store_true", help="put the figures into docs/performance.md")
    args = ap.parse_args(argv)
    try:
        got = measure(args.board, args.mpy_cross)
    except cp.CPSetupError as e:
        sys.exit("cp_heap: %s" % e)
    if args.write:
        sys.path.insert(0, str(ROOT / "tools" / "chip"))
        import perfdoc

        perfdoc.write_section("## CircuitPython", [
            "Written by `tools/chip/cp_heap.py --write`: `%s` on the emulator"
            % os.path.basename(os.environ.get(cp.ENV_UF2, "")),
            "(`../shared/circuitpython-emu/`), the drive `chancery deploy --board %s --drive` writes, its modules"
            % args.board,
            "compiled by CircuitPython's mpy-cross and loaded into RAM (CircuitPython has no code in flash).",
            "",
            "| figure | value |",
            "|---|---|",
            "| boot to the first strip frame, simulated | %.1f s |" % (got["first_frame_ms"] / 1000),
            "| heap at idle, %s (tasks running, collected) | %d bytes in use, %d free of %d |"
            % (got["game"], got["heap_used"], got["heap_free"], got["heap"]),
            "| free at the REPL before the firmware's boot | %d bytes |" % got["repl_free"],
        ])


if __name__ == "__main__":
    main()
