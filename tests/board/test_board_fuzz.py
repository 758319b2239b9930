"""10,000 random and mutated frames at the board's link, on CPython and under MicroPython:
no crash, no hang, no change of state, and the same answers on both interpreters."""

import io
import os
import sys

import paths
import pytest

from chancery.board import micropython as mp

pytestmark = pytest.mark.slow(order=7)  # takes minutes: started first (tests/conftest.py)

ROOT = paths.ROOT
MP_DIR = paths.MP
sys.path.insert(0, MP_DIR)
import board_fuzz  # noqa: E402  (tests/mp runs under MicroPython too, so it is not a package)

CASES = 10000


def test_the_board_answers_every_bad_frame_and_changes_nothing(micropython, firmware_build, tmp_path):
    out = io.StringIO()
    status = board_fuzz.run(str(tmp_path / "cp"), CASES, 1, lambda t: out.write(t + "\n"))
    cp = out.getvalue()
    assert status == 0, cp
    assert "changed 0" in cp and "stuck 0" in cp

    proc = mp.run_micropython(os.path.join(MP_DIR, "board_fuzz.py"), [str(tmp_path / "mp"), "--cases", str(CASES)],
                              heap="4M", path=[firmware_build, MP_DIR], cwd=str(tmp_path), micropython=micropython,
                              timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout == cp  # the same answers, in the same order, on both interpreters
