"""What a board loads lazily, checked in a fresh process (MicroPython from the deployed .mpy
build, and CPython from the source): tests/mp/board_alone.py, a board on its own at the table
(no host) never loads the link's code (wire, and the table's answers to frames); a hello does
(firmware/__init__.py declares what the board loads only when first needed)."""

import os
import subprocess
import sys

import paths
import pytest

from chancery.board import micropython as mp

ROOT = paths.ROOT
MP_DIR = paths.MP
EXPECTED = {
    "board_alone": ["boot: no wire, no link", "played: no wire, no link, 1 entries, 0 frames", "names: not loaded",
                    "hello: wire loaded, link loaded, listening True, sent welcome"],
}


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_on_micropython(script, tmp_path, firmware_build, micropython):
    proc = mp.run_micropython(os.path.join(MP_DIR, script + ".py"), args=[str(tmp_path)],
                              path=[firmware_build, MP_DIR], micropython=micropython)
    assert proc.returncode == 0 and proc.stdout.splitlines() == EXPECTED[script], proc.stdout + proc.stderr


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_the_same_on_cpython(script, tmp_path):
    proc = subprocess.run([sys.executable, os.path.join(MP_DIR, script + ".py"), str(tmp_path)], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, PYTHONPATH=ROOT), cwd=str(tmp_path))
    assert proc.returncode == 0 and proc.stdout.splitlines() == EXPECTED[script], proc.stdout + proc.stderr
