"""Render LED frames from cases, for CPython and MicroPython alike.

    micropython render_cases.py LAYOUT.json CASES.jsonl

Each line of CASES is {"view": {...}, "level": L, "budget": B[, "phase": P]}. For each case
the frame (allocated once, as the firmware does) is rendered at level L,
then limited to B mA, and one line is printed:

    case N crc=CRC ma=MA hex=HEX | level=USED ma=MA crc=CRC hex=HEX

the rendered frame first, then the limited one. The test compares these
lines between the two interpreters, so every byte of every frame must agree.
MicroPython-safe: json, binascii and the rules core only.
"""

import binascii
import json
import sys

from shared_rules import power, render


def _hex(frame):
    return binascii.hexlify(frame).decode()


def _crc(frame):
    return "%08x" % (binascii.crc32(frame) & 0xFFFFFFFF)


def run(layout, lines, write):
    """Write one line per case (see the module doc); returns the case count."""
    frame = bytearray(render.frame_size(layout))
    n = 0
    for text in lines:
        text = text.strip()
        if not text or text[0] == "#":
            continue
        case = json.loads(text)
        render.render(case["view"], layout, frame, case.get("level", 255), case.get("phase", 0))
        ma = power.estimate_ma(frame)
        head = "case %d crc=%s ma=%d hex=%s" % (n, _crc(frame), ma, _hex(frame))
        used = power.limit(frame, case.get("budget", power.BUDGET_MA))
        write("%s | level=%d ma=%d crc=%s hex=%s\n" % (head, used, power.estimate_ma(frame), _crc(frame),
                                                      _hex(frame)))
        n += 1
    return n


def main(argv):
    if len(argv) != 2:
        sys.stdout.write("usage: render_cases.py LAYOUT.json CASES.jsonl\n")
        return 2
    f = open(argv[0])
    layout = json.load(f)
    f.close()
    f = open(argv[1])
    try:
        run(layout, f, sys.stdout.write)
    finally:
        f.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
