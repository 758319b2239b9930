"""A step that fails after its first event (tests/mp/spoiled_step.py), on CPython and on the
MicroPython unix port with the deployed .mpy build: engine.Spoiled carries the cause, the
caller's copy is never spoiled, and the board's table reloads its journal and plays on; a
journal write that runs short of memory is refused whole, and a reload that runs short too
is tried again without the menu, or at the next status, key or action."""

import os
import sys

import paths

from chancery.board import micropython as mp

MP_DIR = paths.MP
sys.path.insert(0, MP_DIR)
import spoiled_step  # noqa: E402

EXPECTED = ["copy refused late", "in place spoiled RuleError late changed 1",
            "table refused late count 0 state kept 1", "then played count 2",
            # a journal write that runs short of memory, then 0, 1 or 2 reloads that do too
            "short 0: refused", "short 0: count 0 state kept 1 menu kept", "short 0: then played 1",
            "short 1: refused", "short 1: count 0 state kept 1 menu gone", "short 1: then played 1",
            "short 2: refused", "short 2: no state until the status",
            "short 2: count 0 state kept 1 menu gone", "short 2: then played 1"]


def test_a_late_failure_spoils_only_the_state_in_place_and_the_table_reloads(tmp_path):
    assert spoiled_step.run(str(tmp_path / "cpy")) == EXPECTED


def test_the_same_on_micropython(tmp_path, firmware_build, micropython):
    folder = tmp_path / "mpy"
    folder.mkdir()
    proc = mp.run_micropython(os.path.join(MP_DIR, "spoiled_step.py"), args=[str(folder)],
                              path=[firmware_build, MP_DIR], micropython=micropython)
    assert proc.stdout.splitlines() == EXPECTED, proc.stdout + proc.stderr
