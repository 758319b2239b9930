"""Shared pytest fixtures: the project root, the MicroPython unix port, compiled rules.

MicroPython is required, never skipped: CI has to prove that shared_rules/ runs
under MicroPython, so a missing interpreter is a failure.
"""

import os
import pathlib
import sys

import pytest

from chancery.board import micropython as mp

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Every layer's tests (tests/rules/, tests/board/, tests/host/, tests/chip/, tests/tools/) import the
# shared helpers (tests/helpers/: `import heaps`, `import paths`) and the MicroPython runners
# (tests/mp/: `import playout`) by name, and a few import what another test file of their own layer
# defines (`from test_simboard import connect`; what two layers share is in tests/helpers/, as
# `from mp_gate import check_source`): all of them on sys.path once, here, whichever file runs first
# or alone.
LAYERS = ("rules", "board", "host", "chip", "tools")
for _folder in reversed(("helpers", "mp") + LAYERS):
    if str(ROOT / "tests" / _folder) not in sys.path:
        sys.path.insert(0, str(ROOT / "tests" / _folder))


@pytest.fixture(scope="session", autouse=True)
def a_logbook_of_the_tests_own(tmp_path_factory):
    """The tests' games (`chancery play` logs every game) go into a logbook of their own, never the
    user's; a test that counts what a logbook holds names one of its own (CHANCERY_LOGBOOK).
    Session-wide and set in os.environ: subprocesses inherit it, and @given tests may use it."""
    before = os.environ.get("CHANCERY_LOGBOOK")
    os.environ["CHANCERY_LOGBOOK"] = str(tmp_path_factory.mktemp("logbook") / "logbook.sqlite3")
    yield
    if before is None:
        del os.environ["CHANCERY_LOGBOOK"]
    else:
        os.environ["CHANCERY_LOGBOOK"] = before


@pytest.fixture(scope="session")
def project_root():
    """The repository root (the directory holding pyproject.toml)."""
    return ROOT


@pytest.fixture(scope="session")
def micropython():
    """Path (str) of the MicroPython unix-port executable."""
    try:
        return mp.find_micropython()
    except mp.MicroPythonNotFound as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def mpy_build(micropython, tmp_path_factory):
    """Directory holding shared_rules/ compiled to .mpy (put it on MICROPYPATH).

    Checks first that mpy-cross emits the bytecode version the interpreter loads.
    """
    try:
        cross = mp.mpy_cross_version()
    except mp.MicroPythonNotFound as e:
        pytest.fail(str(e), pytrace=False)
    port = mp.micropython_version(micropython).mpy_version
    if cross != port:
        pytest.fail(
            "mpy-cross emits .mpy {} but micropython loads {}".format(cross, port),
            pytrace=False,
        )
    out = tmp_path_factory.mktemp("mpy")
    mp.build_mpy(ROOT / "shared_rules", out)
    return out


@pytest.fixture(scope="session")
def firmware_build(micropython, tmp_path_factory):
    """shared_rules/ and firmware/ compiled to .mpy, as deployed to a board (str path)."""
    return str(mp.build_board(tmp_path_factory.mktemp("fw")))


def _uf2():
    """(the RPI_PICO UF2 the virtual Pico runs, None) or (None, where to get one)."""
    from chancery.vpico import UF2NotFound, find_uf2

    try:
        return find_uf2(), None
    except UF2NotFound as e:
        return None, str(e)


# A skip that must not go unseen (a check that did not run at all): its reason starts with
# this, and the run's summary lists it in a section of its own, whatever -r says.
NOT_CHECKED = "NOT CHECKED: "


def skip_loudly(reason):
    """pytest.skip, said again at the end of the run (pytest_terminal_summary)."""
    pytest.skip(NOT_CHECKED + reason)


def pytest_terminal_summary(terminalreporter):
    ran = [r for kind in ("passed", "failed") for r in terminalreporter.stats.get(kind, [])
           if "test_vpico_power.py" in getattr(r, "nodeid", "")]
    if ran:  # said at the end too: the suite runs quiet (-q), without its header
        terminalreporter.line(power_cuts_line(), bold=True)
    reasons = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if NOT_CHECKED in reason:
            reason = reason[reason.index(NOT_CHECKED) + len(NOT_CHECKED):]
            reasons.setdefault(reason, []).append(report.nodeid)
    if not reasons:
        return
    terminalreporter.section("CHECKS THAT DID NOT RUN", sep="!", red=True, bold=True)
    for reason, nodeids in sorted(reasons.items()):
        files = sorted({n.split("::")[0] for n in nodeids})
        terminalreporter.line("%d tests of %s were SKIPPED: %s" % (len(nodeids), ", ".join(files), reason),
                              red=True, bold=True)


def pytest_addoption(parser):
    parser.addoption("--cuts", type=int, default=None, metavar="N",
                     help="power cuts in the chip's power test (tests/chip/test_vpico_power.py; default 8, "
                          "or CHANCERY_POWER_CUTS; a nightly run makes 100)")


def pytest_configure(config):
    """The chip's power test takes its cuts from a seed drawn afresh for each run (so runs cover
    other cuts), said in the run's header, and replayed by CHANCERY_POWER_SEED. Drawn here, in the
    process that starts the workers, so every worker has the one said."""
    if not os.environ.get("CHANCERY_POWER_SEED"):
        os.environ["CHANCERY_POWER_SEED"] = str(int.from_bytes(os.urandom(3), "big"))
    cuts = config.getoption("--cuts", None)
    if cuts is not None:
        os.environ["CHANCERY_POWER_CUTS"] = str(cuts)


def power_cuts_line():
    return "power cuts on the chip: seed %s, %s cuts (CHANCERY_POWER_SEED=%s replays them)" % (
        os.environ["CHANCERY_POWER_SEED"], os.environ.get("CHANCERY_POWER_CUTS", "8"),
        os.environ["CHANCERY_POWER_SEED"])


def pytest_report_header(config):
    return power_cuts_line()


UF2, NO_UF2 = _uf2()
# the virtual Pico's tests skip only when no UF2 is found, saying where to get one
needs_uf2 = pytest.mark.skipif(UF2 is None, reason=NO_UF2 or "")


def pytest_collection_modifyitems(config, items):
    """The files that take minutes (a chip emulated, random games under MicroPython) carry
    `pytestmark = pytest.mark.slow(order=N)` (pyproject.toml registers the marker) and are collected
    first, the lowest order (the longest) first: run.py test gives each file to one of its workers in
    the order collected, so these start at once, side by side, and the short files fill in around them
    instead of queueing them last. `-m "not slow"` leaves them out."""
    def rank(item):
        slow = item.get_closest_marker("slow")
        return (0, slow.kwargs.get("order", float("inf"))) if slow else (1, 0)
    items.sort(key=rank)  # stable: each file's tests keep their order
