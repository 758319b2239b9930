"""What a board gets: the modules it runs, found by walking its imports from firmware/main.py.

A board runs `firmware.main` with one backend (firmware/board/BACKEND.py: sim for the
unix port, rp2, esp32, circuitpy). Every module of the board's packages that those two
import, at any depth and wherever in the file (a function's own import counts: the board
may run it), is on the board; nothing else is. So a game's host-only words (show,
narrate, working, wording: docs/adding-a-game.md), the docs, the scenario runner and the
other boards' backends stay off it, because no board module imports them; and a module a
board module imports cannot be forgotten. Two rules keep the walk exact:

- `firmware.board.load()` imports each backend in a branch of its own, and a board runs
  only its own: the walk does not follow the backends from there (another backend's
  module that the chosen one imports, as mpboard imports sim's helpers, is followed).
- the registry (`shared_rules.games.load`) imports each game package by name, so every
  game and every module its package imports is on every board. A game module that a
  board must never run (HOST_ONLY) is an error if anything reaches it.

The walk reads the source (ast) and runs nothing. Only modules of the board's packages
(shared_rules, firmware) are kept; the port's own (asyncio, machine, neopixel, ...) are
not ours to send. manifest.py freezes the same list (tests/tools/test_manifest.py holds the two
together).
"""

import ast
import os
import threading

from chancery import ROOT
from chancery.board import micropython as mp

BACKENDS = ("sim", "rp2", "esp32", "circuitpy")  # firmware/board/NAME.py, chosen by firmware.board.load
CHOOSER = "firmware.board"  # the module whose imports of the backends are the choice, not a need
ENTRY = "firmware.main"
_PARSING = threading.Lock()  # two chip tests stage their flash images side by side, in threads


class HostOnly(Exception):
    """A board module imports a module that only the host may run."""


def _file(name, root):
    """The source of module `name` (dotted) under root, or None when it is not ours."""
    if name.split(".")[0] not in mp.BOARD_PACKAGES:
        return None
    base = os.path.join(root, *name.split("."))
    for path in (os.path.join(base, "__init__.py"), base + ".py"):
        if os.path.isfile(path):
            return path
    return None


def _imported(tree, name, is_package):
    """Every dotted module name an import in `tree` may load (a `from X import y` may name
    a submodule y or a name in X: both are tried, and only files that exist are kept)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package (itself, for a package's __init__)
                parts = name.split(".")
                parts = parts[:len(parts) - node.level + (1 if is_package else 0)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module
            out.append(base)
            out += [base + "." + a.name for a in node.names if a.name != "*"]
    return out


def _with_parents(name):
    """A module and the packages above it: importing a.b.c runs a, a.b and a.b.c."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def walk(backend, root=ROOT):
    """{dotted name: source path} of every module the board with `backend` imports."""
    if backend not in BACKENDS:
        raise ValueError("no board backend %r (known: %s)" % (backend, ", ".join(BACKENDS)))
    found = {}
    todo = [ENTRY, "firmware.board." + backend]
    while todo:
        for name in _with_parents(todo.pop()):
            if name in found:
                continue
            path = _file(name, root)
            if path is None:
                continue
            if os.path.basename(path) in mp.HOST_ONLY:
                raise HostOnly("%s is host only, and a board module imports it" % name)
            found[name] = path
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with _PARSING:  # CPython 3.11's parser is not safe in two threads at once (SystemError)
                tree = ast.parse(text, path)
            for sub in _imported(tree, name, path.endswith("__init__.py")):
                if name == CHOOSER and sub.rsplit(".", 1)[-1] in BACKENDS and sub.startswith(CHOOSER + "."):
                    continue  # load() chooses one: the walk's second root is that one
                todo.append(sub)
    return found


def board_files(backend, root=ROOT):
    """The board's modules as paths relative to root, with "/" (firmware/main.py, ...), sorted."""
    return sorted(os.path.relpath(p, root).replace(os.sep, "/") for p in walk(backend, root).values())
