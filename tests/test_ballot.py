"""The sealed ballot (shared_rules/ballot.py) and the board's private ballot box.

The secrecy claim, tested as the issue states it: before the reveal, no frame the
board sends, no screen of its display, no byte of its journal (what a log export
holds), no state digest, public view or LED frame differs between two runs that
differ only in one seat's hidden choice (tests/mp/ballot_secrecy.py, on CPython
and under MicroPython from the .mpy build, with identical lines). After the
reveal they do differ, so the comparison can fail.
"""

import os
import sys

import pytest

from chancery import micropython as mp
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, wire
from shared_rules.errors import RuleError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP_DIR = os.path.join(ROOT, "tests", "mp")
LAYOUT = os.path.join(ROOT, "hardware", "layouts", "chancellors.json")
sys.path.insert(0, MP_DIR)
import ballot_secrecy  # noqa: E402

OPEN = {"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay"]}


def lines(folder):
    os.makedirs(folder, exist_ok=True)
    out = []
    stdout = sys.stdout

    class Lines:
        def write(self, text):
            out.extend([line for line in text.splitlines() if line])

    sys.stdout = Lines()
    try:
        ballot_secrecy.main([str(folder), LAYOUT])
    finally:
        sys.stdout = stdout
    return out


def by_run(out):
    return {tag: [line[2:] for line in out if line.startswith(tag + " ")] for tag in "AB"}


def test_nothing_shows_a_hidden_choice_before_the_reveal(tmp_path):
    runs = by_run(lines(tmp_path))
    a, b = runs["A"], runs["B"]
    assert a[0].startswith("before ") and a[0] == b[0]  # frames, screens, journal, state, view, LEDs
    assert "box=yes" in a[0]  # the choices are on flash, in the private box
    assert a[1] != b[1] and "box=no" in a[1]  # revealed: now they differ, and the box is gone
    assert a[2] == 'revealed ["Aye","Aye","Nay"] counts [2,1,0]'
    assert b[2] == 'revealed ["Abstain","Aye","Nay"] counts [1,1,1]'


def test_the_same_under_micropython(tmp_path, micropython, firmware_build):
    expected = lines(tmp_path / "cpython")
    os.makedirs(tmp_path / "mp")
    proc = mp.run_micropython(os.path.join(MP_DIR, "ballot_secrecy.py"), [str(tmp_path / "mp"), LAYOUT],
                              heap="256K", cwd=str(tmp_path), path=[firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == expected


def table(folder, sent=None):
    return Table(Journal(str(folder)), lambda kind, body: (sent if sent is not None else []).append([kind, body]),
                 lambda n: b"\x11" * n, "chancellors", {"players": 3}, "t").boot()


def test_a_cast_never_carries_its_choice_into_the_log(tmp_path):
    sent = []
    t = table(tmp_path, sent)
    t.frame(0, wire.HELLO, {"proto": 1})
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 1)
    entries = [canon.encode(e) for e in t.journal.entries(0)]
    frames = canon.encode(sent)
    assert '"ballot_cast"' in entries[-1] and "Nay" not in entries[-1]
    assert frames.count('"Nay"') == frames.count('"Aye"')  # the options, as the open listed them; no choice
    with pytest.raises(RuleError) as e:  # the core refuses a choice outright
        engine.step("chancellors", t.state, {"type": "ballot_cast", "seat": 2, "choice": "Aye"})
    assert e.value.code == "bad_param"


def test_a_choice_that_is_no_option_is_refused_and_changes_nothing(tmp_path):
    t = table(tmp_path)
    t.act(OPEN)
    before = canon.digest(t.state)
    with pytest.raises(RuleError) as e:
        t.act({"type": "ballot_cast", "choice": "Maybe"}, 0)
    assert e.value.code == "bad_param" and e.value.detail["domain"]["values"] == ["Aye", "Nay"]
    assert canon.digest(t.state) == before and not os.path.exists(tmp_path / "ballot.json")


def test_votes_survive_a_power_cut_and_the_board_reveals_after_it(tmp_path):
    t = table(tmp_path)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    t.journal.close()  # the power goes; the board boots again on the same flash
    again = table(tmp_path)
    assert again.state["ballot"]["voted"] == [0, 2] and again.state["ballot"]["result"] is None
    again.key(1, "select")  # seat 1's pad: select is the second option
    assert again.state["ballot"]["result"] == {"choices": ["Nay", "Nay", "Aye"], "counts": [1, 2]}


def test_a_host_cannot_reveal_for_the_board(tmp_path):
    sent = []
    t = table(tmp_path, sent)
    t.frame(0, wire.HELLO, {"proto": 1})
    t.act(OPEN)
    t.act({"type": "ballot_close"})  # due: the board revealed at once (nobody voted)
    assert t.state["ballot"]["result"] == {"choices": [None, None, None], "counts": [0, 0]}
    t.act({"type": "ballot_open", "question": "Again?", "options": ["x", "y"]})
    t.frame(7, wire.ACT, {"move": {"type": "ballot_reveal", "choices": ["x", "x", "x"]}, "seat": None})
    assert sent[-1] == [wire.ERROR, {"re": 7, "code": "board_reveals", "message": "", "detail": {"type": "ballot_reveal"}}]


def test_a_voters_pad_casts_and_its_screen_does_not_say_what(tmp_path):
    t = table(tmp_path)
    t.act({"type": "ballot_open", "question": "Which?", "options": ["a", "b", "c", "d"]})
    assert t.key(0, "long_down") == (["S0 ballot", "4 options"], None)  # no 6th option: nothing cast
    screen, index = t.key(0, "back")  # held up: the fourth option
    assert screen == ["S0 ballot", "voted"] and index is not None
    assert t.key(0, "up")[0] == ["S0 ballot", "voted already"]
    with open(tmp_path / "ballot.json") as f:
        assert '"0":"d"' in f.read()


def test_the_tables_controls_close_a_ballot_and_the_board_reveals_it(tmp_path):
    t = table(tmp_path)
    t.act(OPEN)
    t.key(2, "select")  # seat 2: Nay
    assert t.key(5, "select") == (["ballot", "1 of 3 voted", "hold push: close"], None)
    screen, index = t.key(5, "long_select")
    assert screen == ["ballot", "closed"] and index is not None
    assert t.state["ballot"]["result"] == {"choices": [None, None, "Nay"], "counts": [0, 1]}
