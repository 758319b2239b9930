#!/usr/bin/env python3
"""How long `chancery deploy` takes on the virtual Pico: a blank board, nothing changed, one module changed.

    .venv/bin/python tools/chip/deploy_times.py [--write]    (--write: the table into docs/performance.md)

On the firmware named by CHANCERY_PICO_UF2 (with a ROMFS partition, the code goes there; a stock
one takes .mpy on its filesystem), and on CHANCERY_PICO_STOCK_UF2 where it is given. "One module
changed" is the build with firmware/words.py given one more line (a constant, as an engineer's
edit would be), compiled into the staged build: the checkout is not touched. Wall-clock seconds on this machine, over
the emulator's USB serial (about 6x slower than a board's), and what deploy said it wrote.
"""

import os
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip")):
    if p not in sys.path:
        sys.path.insert(0, p)

from chancery.deploy import flash  # noqa: E402
from chancery.deploy import uf2 as uf2s  # noqa: E402
from chancery.vpico import VirtualPico, kit  # noqa: E402

CHANGED = "firmware/words.py"


def _deploy(port, said):
    began = time.monotonic()
    flash.deploy(port, "rpi-pico", say=said.append)
    return time.monotonic() - began


def _wrote(said):
    return "; ".join(s for s in said if s.startswith(("ROMFS: wrote", "sent ")) or " files to copy" in s
                     or "blocks to write" in s) or "-"


def _one_module_changed(stage):
    """deploy.stage, with firmware/words.py's .mpy built from the source plus one line."""
    import subprocess

    from chancery.board import micropython as mp

    def staged(out_dir, *args, **kw):
        files = stage(out_dir, *args, **kw)
        target = [p for p in files if p.endswith(CHANGED[:-3] + ".mpy")]
        if target:
            src = os.path.join(out_dir, "changed.py")
            with open(ROOT / CHANGED) as f, open(src, "w") as g:
                g.write(f.read() + '\n_CHANGED = "a module changed"\n')
            subprocess.run([flash.compiler()] + list(mp.MPY_ARGS) + ["-s", "firmware.words", "-o",
                                                                    files[target[0]], src], check=True)
            os.remove(src)
        return files

    return staged


def measure(uf2, say=print):
    rows = []
    with tempfile.TemporaryDirectory(prefix="chancery-deploy-times-") as tmp:
        with VirtualPico(flash=os.path.join(tmp, "flash.img"), uf2=uf2, pace="free") as vp:
            for label in ("a blank board", "nothing changed", "one module changed"):
                said = []
                stage = flash.stage
                if label == "one module changed":
                    flash.stage = _one_module_changed(stage)
                try:
                    took = _deploy(vp.port, said)
                finally:
                    flash.stage = stage
                rows.append((label, took, _wrote(said)))
                say("%s: %.1f s (%s)" % (label, took, _wrote(said)))
                vp.wait_usb(60)
    return rows


def main():
    writing = "--write" in sys.argv[1:]
    firmwares = [kit.find_uf2()] + ([os.environ["CHANCERY_PICO_STOCK_UF2"]]
                                   if os.environ.get("CHANCERY_PICO_STOCK_UF2") else [])
    lines = ["Written by `tools/chip/deploy_times.py --write`: `chancery deploy` to the virtual Pico, wall-clock",
             "seconds on a 2-core machine, over the emulator's USB serial (about 6x slower than a board's).", "",
             "| firmware | deploy | seconds | what it wrote |", "|---|---|---|---|"]
    for uf2 in firmwares:
        kind = "ROMFS partition" if uf2s.has_romfs(uf2) else "stock (.mpy on littlefs)"
        for label, took, wrote in measure(uf2):
            lines.append("| %s | %s | %.1f | %s |" % (kind, label, took, wrote))
    print("\n".join(lines))
    if writing:
        import perfdoc

        perfdoc.write_section("## Deploying", lines)


if __name__ == "__main__":
    main()
