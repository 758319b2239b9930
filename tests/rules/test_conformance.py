"""One conformance test for every game of the registry, and for a test's own (Nim, registered by
its one line): random play on CPython and under MicroPython (tests/mp/conformance.py), where
every action is accepted with the state the fold of its events, or refused with nothing
changed, no view holds the PRNG, and the log replays every digest; the two interpreters give
the same lines. A game added to shared_rules/games.py is played here with no other change."""

import contextlib
import io
import os
import sys

import paths
import pytest

from chancery.board import micropython as mp
from shared_rules import games

ROOT = paths.ROOT
MP_DIR = paths.MP
sys.path.insert(0, MP_DIR)
import conformance  # noqa: E402

GAMES = list(games.GAMES) + ["nim"]  # the core's, and the test game of tests/game_nim/
COUNT = 4  # games each, at 2, 3 and 4 seats (within the game's range)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_keeps_the_contract_the_same_on_both_interpreters(tmp_path, micropython, mpy_build, game):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = conformance.main([game, "1", str(COUNT)])
    if game == "nim":
        games.GAMES.remove("nim")  # registered by the runner: leave the registry as the core has it
        games._MORE.pop("nim", None)
    lines = out.getvalue().splitlines()
    assert status == 0 and len(lines) == COUNT and all(" players " in line for line in lines), lines
    proc = mp.run_micropython(os.path.join(MP_DIR, "conformance.py"), [game, "1", str(COUNT)], heap="8M",
                              cwd=str(tmp_path), path=[mpy_build, os.path.join(ROOT, "tests")],
                              micropython=micropython, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == lines
