"""Static checks that find real mistakes: undefined names, unused imports, syntax errors.

ruff's pyflakes rules (F) and syntax errors (E9), over everything the project runs.
"""

import os
import re
import shutil
import subprocess
import sys

import paths
import pytest

ROOT = paths.ROOT


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


def test_a_hanging_test_fails_by_name_within_the_suites_timeout(tmp_path):
    """pyproject.toml gives every test a timeout (pytest-timeout): a test that hangs fails, named,
    instead of holding the whole run (a lock test once hung for 14 minutes)."""
    (tmp_path / "test_hangs.py").write_text("import time\n\ndef test_sleeps_for_ever():\n    time.sleep(600)\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 2\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Timeout" in proc.stdout and "test_sleeps_for_ever" in proc.stdout, proc.stdout
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        assert "\ntimeout = " in f.read()


# The first commit written to the rule below; the ones before it are history as they are.
SUBJECTS_FROM = "c34d6bc"


def test_commit_subjects_are_an_area_and_an_imperative_in_72_characters():
    """Commits from SUBJECTS_FROM on: `area: imperative summary`, at most 72 characters (the body holds
    figures and reasons). Skipped where the history is not there (a shallow clone)."""
    root = paths.ROOT
    try:
        out = subprocess.run(["git", "log", "--format=%h %s", SUBJECTS_FROM + "..HEAD"], cwd=root,
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip("no git here: %s" % e)
    if out.returncode != 0:
        pytest.skip("the history from %s is not in this clone (a shallow one?)" % SUBJECTS_FROM)
    bad = []
    for line in out.stdout.splitlines():
        sha, subject = line.split(" ", 1)
        if subject.startswith(("Merge ", "Revert ")):
            continue
        if len(subject) > 72 or not re.match(r"^[a-z0-9_./, -]+: \S", subject):
            bad.append("%s %s (%d)" % (sha, subject, len(subject)))
    assert bad == [], "commit subjects not `area: imperative summary` in 72 characters:\n" + "\n".join(bad)
