"""A board on its own at the table (no host) never loads the link's code; a hello does
(tests/mp/board_alone.py, in a fresh process: MicroPython from the deployed .mpy build, and
CPython from the source; the saving is the chip's heap, issue 13 part 6)."""

import os
import subprocess
import sys

from chancery.board import micropython as mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "mp", "board_alone.py")
EXPECTED = ["boot: no wire", "played: no wire, 1 entries, 0 frames", "hello: wire loaded, listening True, sent welcome"]


def test_a_board_without_a_host_loads_no_wire_until_a_hello(tmp_path, firmware_build, micropython):
    proc = mp.run_micropython(SCRIPT, args=[str(tmp_path)], path=[firmware_build, os.path.dirname(SCRIPT)],
                              micropython=micropython)
    assert proc.returncode == 0 and proc.stdout.splitlines() == EXPECTED, proc.stdout + proc.stderr


def test_the_same_on_cpython(tmp_path):
    proc = subprocess.run([sys.executable, SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=ROOT), cwd=str(tmp_path))
    assert proc.returncode == 0 and proc.stdout.splitlines() == EXPECTED, proc.stdout + proc.stderr
