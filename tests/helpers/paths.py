"""Where the tests find the project and their own files, in one place: a test in any layer's
folder (tests/rules/, tests/board/, ...) names these instead of counting `..` from its own file.
Plain os.path strings; the helpers' folder is on sys.path (tests/conftest.py), so `import paths`."""

import os

HELPERS = os.path.dirname(os.path.abspath(__file__))  # tests/helpers/: the shared helper modules
TESTS = os.path.dirname(HELPERS)  # tests/
ROOT = os.path.dirname(TESTS)  # the repository (pyproject.toml)
MP = os.path.join(TESTS, "mp")  # the runners that run under MicroPython and CPython alike
SCENARIOS = os.path.join(TESTS, "scenarios")  # the scenario files, a folder per game
FAKES = os.path.join(TESTS, "fakes")  # the hardware's modules faked for the unix port
DICE = os.path.join(TESTS, "dice")  # recorded GoDice notifications
OLD_LOGS = os.path.join(TESTS, "old_logs")  # logs written by older versions, still read
