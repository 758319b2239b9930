"""What the heap holds at idle after boot, module by module, on the virtual Pico.

    python tools/chip/idle_modules.py [--write]   (--write: the section in docs/performance.md)

The deployed board boots into its game from main.py; the modules it then holds (sys.modules)
are imported again after a soft reset without main.py, one at a time in the order of their
own imports (each after what it imports), the heap collected and measured after each: a
module's share is what its import added (its globals, functions and classes, the names it
interned; with the code in a ROMFS partition its bytecode stays in flash). The interned-name
pools (micropython.qstr_info) are counted inside those shares and given apart too.
"""

import ast
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

ASK = ("import gc, sys, micropython\ngc.collect()\nprint('MODS', sorted(sys.modules.keys()))\n"
       "micropython.qstr_info()\n")


def _source(name):
    base = ROOT / name.replace(".", "/")
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


def import_order(names):
    """`names` with each module after the modules of `names` it imports at its top level (and
    after its package), so that each import adds only the module itself."""
    deps = {}
    for m in names:
        d = set()
        p = _source(m)
        if p is not None:
            for n in ast.parse(p.read_text()).body:
                if isinstance(n, ast.Import):
                    d |= {a.name for a in n.names}
                elif isinstance(n, ast.ImportFrom) and n.module:
                    base = n.module if n.level == 0 else ".".join(m.split(".")[:-n.level] + [n.module])
                    d.add(base)
                    d |= {base + "." + a.name for a in n.names}
        parts = m.split(".")
        d |= {".".join(parts[:i]) for i in range(1, len(parts))}
        deps[m] = sorted(x for x in d if x in names and x != m)
    out, seen = [], set()

    def visit(m):
        if m not in seen:
            seen.add(m)
            for d in deps[m]:
                visit(d)
            out.append(m)

    for m in sorted(names):
        visit(m)
    return out


def _qstr_bytes(text):
    """The interned-name pools' own heap bytes (qstr_info's total less the names' text, which a
    .mpy memory-mapped from the ROMFS partition leaves in flash)."""
    total = re.search(r"n_total_bytes=(\d+)", text)
    data = re.search(r"n_str_data_bytes=(\d+)", text)
    return int(total.group(1)) - int(data.group(1)) if total and data else None


def measure(uf2=None, game="chancellors", players=4):
    """([(module, bytes)] in import order, the interned-name pools' bytes at idle)."""
    import heap  # tools/chip/heap.py: its idle figure's moment

    from chancery.vpico import VirtualPico, image

    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    with tempfile.TemporaryDirectory(prefix="chancery-modules-") as tmp:
        flash = os.path.join(tmp, "flash.img")
        image.deployed_image(flash, first={"game": game, "settings": {"players": players}}, uf2=uf2)
        with VirtualPico(flash=flash, uf2=uf2, pace="free") as vp:
            vp.wait_frame(after_ns=0, timeout=120)
            start = vp.now_ns()
            while vp.now_ns() - start < heap.SETTLE_NS:  # as the heap's idle figure: the board settled
                time.sleep(0.2)
            said = subprocess.run([mpremote, "connect", vp.port, "resume", "exec", ASK], capture_output=True,
                                  text=True, timeout=300).stdout
            line = [w for w in said.splitlines() if w.startswith("MODS ")]
            if not line:
                raise RuntimeError("the board did not list its modules: %s" % said)
            names = ast.literal_eval(line[0][5:])
            pools = _qstr_bytes(said)
            order = import_order(names)
            script = ["import gc", "gc.collect()", "b = gc.mem_alloc()"]
            for m in order:
                script += ["try:", "    __import__(%r)" % m, "except Exception as e:", "    print('ERR', %r, e)" % m,
                           "gc.collect()", "a = gc.mem_alloc()", "print('MOD', %r, a - b)" % m, "b = a"]
            subprocess.run([mpremote, "connect", vp.port, "rm", ":main.py"], capture_output=True, timeout=60)
            said = subprocess.run([mpremote, "connect", vp.port, "soft-reset", "exec", "\n".join(script)],
                                  capture_output=True, text=True, timeout=600).stdout
    shares = [(w[1].strip("'"), int(w[2])) for w in (x.split() for x in said.splitlines()) if w[:1] == ["MOD"]]
    return shares, pools


GROUPS = (("the game (shared_rules/GAME/)", lambda m: m.count(".") >= 2 and m.startswith("shared_rules.")),
          ("the rules core (shared_rules/)", lambda m: m.startswith("shared_rules")),
          ("the journal (firmware/journal/)", lambda m: m.startswith("firmware.journal")),
          ("the board's backend (firmware/board/)", lambda m: m.startswith("firmware.board")),
          ("the table, keys and menus (firmware/)", lambda m: m.startswith("firmware")),
          ("MicroPython's own (asyncio, neopixel, ...)", lambda m: True))


def report(shares, pools, say=print, uf2=None):
    total = sum(b for _, b in shares)
    if uf2:
        say("Written by `tools/chip/idle_modules.py --write`: the deployed board on the virtual Pico (%s), booted"
            % os.path.basename(uf2))
        say("into Chancellors at 4 seats, as the heap's idle figure above is measured.")
        say("")
    say("What that heap holds, by the modules the board has imported at idle (each imported again after a soft")
    say("reset, after what it imports; `tools/chip/idle_modules.py`): %.1f KB for %d modules, the interned-name"
        % (total / 1024, len(shares)))
    say("pools' tables among it (%.1f KB at idle; the names' text stays in the image); the rest of the heap is the"
        % ((pools or 0) / 1024))
    say("runtime's and the game's state.")
    say("")
    say("| part | modules | KB |")
    say("|---|---|---|")
    left = list(shares)
    for label, test in GROUPS:
        mine = [(m, b) for m, b in left if test(m)]
        left = [(m, b) for m, b in left if not test(m)]
        say("| %s | %d | %.1f |" % (label, len(mine), sum(b for _, b in mine) / 1024))
    say("")
    big = sorted(shares, key=lambda mb: (-mb[1], mb[0]))[:8]
    say("The largest shares (a package's first module imported also carries what its `__init__` imports, and an "
        "import whose names fill the interned-name pool carries the pool's next chunk, a few KB): "
        + ", ".join("%s %.1f KB" % (m, b / 1024) for m, b in big) + ".")


if __name__ == "__main__":
    for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip")):
        if p not in sys.path:
            sys.path.insert(0, p)
    from chancery.vpico import kit

    firmware = kit.find_uf2()
    lines = []

    def say(text):
        lines.append(text)
        print(text)

    report(*measure(firmware), say=say, uf2=firmware)
    if "--write" in sys.argv[1:]:
        import perfdoc

        perfdoc.write_section("## What the idle heap holds", lines)
