"""Static checks that find real mistakes: undefined names, unused imports, syntax errors.

ruff's pyflakes rules (F) and syntax errors (E9), over everything the project runs.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ruff():
    exe = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is not installed: run the tests through `python3 run.py test`")
    return exe


def test_no_undefined_names_or_unused_imports():
    proc = subprocess.run([ruff(), "check", "--select", "F,E9,I", "--no-cache", "shared_rules", "firmware", "host", "tests", "hardware",
                           "tools"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_check_fails_on_an_undefined_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    return undefined_name\n")
    proc = subprocess.run([ruff(), "check", "--select", "F", "--no-cache", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0 and "F821" in proc.stdout
