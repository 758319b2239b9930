"""The sealed ballot (shared_rules/ballot.py) and the board's private ballot box.

The secrecy claim, tested as the issue states it: before the reveal, no frame the
board sends, no screen of its display, no byte of its journal (what a log export
holds), no state digest, public view or LED frame differs between two runs that
differ only in one seat's hidden choice (tests/mp/ballot_secrecy.py, on CPython
and under MicroPython from the .mpy build, with identical lines). Every hidden
value differs between the runs (the side, the count, the set of options), for each
game's ballot kind: plain (Chancellors), counted (The King's Dilemma's sealed vote,
and the table's own on Yes, Your Grace), multi (The Council's reveal). After the
reveal they do differ, so the comparison can fail.
"""

import json
import os
import sys

import paths
import pytest
from ballot_runs import REVEALED, by_run, lines  # tests/helpers/ballot_runs.py: shared with the chip's test
from clients import controls, linked

from chancery.board import micropython as mp
from chancery.board.link import Link
from chancery.mirror.app import load_layout, panels
from chancery.words import narrate
from firmware.journal import Journal
from firmware.journal.files import FileStore
from firmware.pads import TABLE
from firmware.table import Table
from shared_rules import canon, engine, games, render, wire
from shared_rules.errors import RuleError

ROOT = paths.ROOT
MP_DIR = paths.MP
sys.path.insert(0, MP_DIR)
import ballot_secrecy  # noqa: E402
import board_files  # noqa: E402  (tests/: the layouts as a board reads them)

OPEN = {"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay"]}


@pytest.mark.parametrize("game", sorted(REVEALED))
def test_nothing_shows_a_hidden_choice_before_the_reveal(tmp_path, game):
    runs = by_run(lines(tmp_path, game))
    a, b = runs["A"], runs["B"]
    assert a[0].startswith("before ") and a[0] == b[0]  # frames, screens, journal, state, view, LEDs
    assert "box=yes" in a[0]  # the choices are on flash, in the private box
    assert a[1] != b[1] and "box=no" in a[1]  # revealed: now they differ, and the box is gone
    assert (a[2], b[2]) == REVEALED[game]


@pytest.mark.parametrize("game", sorted(REVEALED))
def test_the_same_under_micropython(tmp_path, micropython, firmware_build, game):
    """The same lines from the board's .mpy build. The heap is not the board's budget:
    this runner also renders the LEDs and digests views and files at each moment, and
    it is compiled from source (tests/board/test_simboard.py holds the board to 96K)."""
    heap = "256K"
    expected = lines(tmp_path / "cpython", game)
    os.makedirs(tmp_path / "mp")
    layout = board_files.layout_file(game, tmp_path / "layout")
    proc = mp.run_micropython(os.path.join(MP_DIR, "ballot_secrecy.py"), [str(tmp_path / "mp"), layout, game],
                              heap=heap, cwd=str(tmp_path), path=[firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    runs = by_run(proc.stdout.splitlines())
    assert runs["A"][0] == runs["B"][0] and runs["A"][1] != runs["B"][1]  # secret before, not after, here too
    assert proc.stdout.splitlines() == expected


def mirror_screens(frames, game):
    """Everything the host mirror would draw from these frames: its panels (strip, game,
    display) after each frame, and the narration of each entry."""
    link = Link("/dev/null")
    shown = []
    display = []

    def on_event(kind, data):
        if kind == "entry":
            shown.extend(narrate.lines(game, link.mirror.before, data["events"]))
        elif kind == wire.DISPLAY:
            display[:] = data.get("lines", [])

    link.on_event = on_event
    layout = load_layout(game)
    frame = bytearray(render.frame_size(layout))
    for seq, (kind, body) in enumerate(frames):
        link._handle((seq, kind, body))
        if link.mirror is not None:
            strip, panel, board = panels(link.mirror.match, layout, frame, display)
            shown.extend([strip.plain, panel, board])
    return shown


@pytest.mark.parametrize("game", sorted(REVEALED))
def test_the_mirror_screen_shows_no_hidden_choice(tmp_path, game):
    """The host's mirror, fed what the board sent before the reveal, draws the same in both runs."""
    seen = {}
    for tag in "AB":
        frames = []
        with open(board_files.layout_file(game, tmp_path / "layout")) as f:
            ballot_secrecy.run(str(tmp_path / tag), tag, json.load(f), game, frames)
        seen[tag] = mirror_screens(frames[:frames.index(None)], game)
    assert len(seen["A"]) > 10 and seen["A"] == seen["B"]
    assert any("voted" in text or "marked" in text for text in seen["A"])  # who has voted, not what


def table(folder, raw=False):
    """Chancellors at 3 seats; `raw`: its journal and box on raw flash (FileStore), as on a Pico."""
    store = FileStore(str(folder)) if raw else None
    return Table(Journal(str(folder), 16, store),
                 lambda n: b"\x11" * n, "chancellors", {"players": 3}, "t").boot()


def test_a_cast_never_carries_its_choice_into_the_log(tmp_path):
    sent = []
    t, host = linked(table(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
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


@pytest.mark.parametrize("raw", [False, True])
def test_votes_survive_a_power_cut_and_the_board_reveals_after_it(tmp_path, raw):
    t = table(tmp_path, raw)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    t.journal.close()  # the power goes; the board boots again on the same flash
    again = table(tmp_path, raw)
    assert again.state["ballot"]["voted"] == [0, 2] and again.state["ballot"]["result"] is None
    controls(again).key(1, "select")  # seat 1's pad: select is the second option
    assert again.state["ballot"]["result"] == {"choices": ["Nay", "Nay", "Aye"], "counts": [1, 2]}


def test_a_cut_between_a_casts_box_and_its_journal_line_leaves_a_ballot_that_reveals(tmp_path):
    """A cast writes the seat's choice to the box (ballot.json), then its entry to the journal: the
    power goes between the two. The boot has no such cast; the seat casts again (another choice),
    and the board's reveal takes the choices of the casts the log holds. (Fails with the box
    written after the journal line: the boot then has a cast whose choice is nowhere, and the
    board's reveal is refused, bad_reveal, for good.)"""
    t = table(tmp_path)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)

    class Cut(Exception):
        pass

    j, done = t.journal, []
    write, add = j.write, j.add

    def first_then_cut(step):
        def go(*args):
            if done:  # the first of the two is on flash: the power goes before the second
                raise Cut()
            done.append(step(*args))
        return go

    j.write, j.add = first_then_cut(write), first_then_cut(add)
    with pytest.raises(Cut):
        t.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    j.close()
    again = table(tmp_path)
    if again.state["ballot"]["voted"] == [0, 2]:  # the journal's line went first: its choice must be found
        controls(again).key(1, "up")
        assert again.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Aye"], "counts": [2, 1]}
        return
    assert again.state["ballot"]["voted"] == [0] and again.state["ballot"]["result"] is None
    again.act({"type": "ballot_cast", "choice": "Nay"}, 2)
    controls(again).key(1, "up")  # seat 1's pad: up is the first option
    assert again.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Nay"], "counts": [1, 2]}


def test_a_host_cannot_reveal_for_the_board(tmp_path):
    sent = []
    t, host = linked(table(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act(OPEN)
    t.act({"type": "ballot_close"})  # due: the board revealed at once (nobody voted)
    assert t.state["ballot"]["result"] == {"choices": [None, None, None], "counts": [0, 0]}
    t.act({"type": "ballot_open", "question": "Again?", "options": ["x", "y"]})
    host.frame(7, wire.ACT, {"move": {"type": "ballot_reveal", "choices": ["x", "x", "x"]}, "seat": None})
    assert sent[-1] == [wire.ERROR, {"re": 7, "code": "board_reveals", "message": "", "detail": {"type": "ballot_reveal"}}]


def test_a_voters_pad_casts_and_its_screen_does_not_say_what(tmp_path):
    t = table(tmp_path)
    t.act({"type": "ballot_open", "question": "Which?", "options": ["a", "b", "c", "d"]})
    assert controls(t).key(0, "long_down") == (["Not allowed:", "no option on", "that key"], None)  # no 6th option: nothing cast
    screen, index = controls(t).key(0, "back")  # held up: the fourth option
    assert screen == ["S0 ballot", "voted"] and index is not None
    assert controls(t).key(0, "up")[0] == ["S0 ballot", "voted"]  # again: the same screen
    with open(tmp_path / "ballot.json") as f:
        assert '"0":["d",null]' in f.read()


def test_the_tables_controls_close_a_ballot_and_the_board_reveals_it(tmp_path):
    t = table(tmp_path)
    t.act(OPEN)
    controls(t).key(2, "select")  # seat 2: Nay
    assert controls(t).key(5, "select") == (["ballot", "1 of 3 voted", "hold push: close", "back: undo"], None)
    screen, index = controls(t).key(5, "long_select")
    assert screen == ["ballot", "closed"] and index is not None
    assert t.state["ballot"]["result"] == {"choices": [None, None, "Nay"], "counts": [0, 1]}


COUNTED = {"type": "ballot_open", "question": "Side and Power?", "options": ["aye", "gather", "nay"],
           "counted": ["aye", "nay"], "max": 5}


@pytest.mark.parametrize("cast, name", [
    ({"choice": "aye"}, "count"),                # a counted option needs its count
    ({"choice": "gather", "count": 2}, "count"),  # and the others take none
    ({"choice": "nay", "count": 6}, "count"),     # at most max
    ({"choice": "nay", "count": 0}, "count"),
])
def test_a_count_goes_with_counted_options_only(tmp_path, cast, name):
    t = table(tmp_path)
    t.act(COUNTED)
    before = canon.digest(t.state)
    with pytest.raises(RuleError) as e:
        t.act(dict(cast, type="ballot_cast"), 0)
    assert e.value.code == "bad_param" and e.value.detail["name"] == name
    assert canon.digest(t.state) == before and not os.path.exists(tmp_path / "ballot.json")
    t.act({"type": "ballot_cast", "choice": "nay", "count": 5}, 0)
    assert canon.digest(t.state) != before


def test_a_reveal_with_a_wrong_count_is_refused_and_says_what_goes_with_what():
    state = engine.new_match("chancellors", {"players": 2}, 7)["state"]
    for act in (COUNTED, {"type": "ballot_cast", "seat": 0}, {"type": "ballot_cast", "seat": 1}):
        state = engine.step("chancellors", state, act)[2]
    with pytest.raises(RuleError) as e:
        engine.step("chancellors", state, {"type": "ballot_reveal", "choices": ["aye", "gather"], "amounts": [2, 1]})
    assert e.value.code == "bad_reveal"
    assert "seat 1: a count of 1 to 5 goes with each choice of aye, nay, null with any other" in games.message(e.value)
    _, events, _, _ = engine.step("chancellors", state, {"type": "ballot_reveal", "choices": ["aye", "gather"],
                                                          "amounts": [2, None]})
    assert events[-1] == {"t": "ballot_revealed", "choices": ["aye", "gather"], "counts": [1, 1, 0],
                          "amounts": [2, None]}


MULTI = {"type": "ballot_open", "question": "Reveal which?", "options": ["1", "2", "3", "4", "5"], "multi": True}


def test_a_multi_ballot_takes_any_set_of_options_and_reveals_lists():
    state = engine.new_match("chancellors", {"players": 3}, 7)["state"]
    for act in (MULTI, {"type": "ballot_cast", "seat": 0}, {"type": "ballot_cast", "seat": 2},
                {"type": "ballot_close"}):
        state = engine.step("chancellors", state, act)[2]
    for choices, why in ((["1", [], None], "choice"),            # a multi ballot's choice is a list
                         ([["1", "6"], [], None], "choice"),     # of options
                         ([["1"], ["2"], None], "choice"),       # seat 1 voted: its choice is a list
                         ([["1"], None, None], "choice")):       # seat 2 voted too
        with pytest.raises(RuleError) as e:
            engine.step("chancellors", state, {"type": "ballot_reveal", "choices": choices})
        assert e.value.code == "bad_reveal" and e.value.detail["why"] == why, choices
    with pytest.raises(RuleError) as e:  # repeats: refused by the schema
        engine.step("chancellors", state, {"type": "ballot_reveal", "choices": [["1", "1"], None, []]})
    assert e.value.code == "bad_param"
    _, events, after, _ = engine.step("chancellors", state, {"type": "ballot_reveal",
                                                              "choices": [["3", "1"], None, []]})
    assert events[-1] == {"t": "ballot_revealed", "choices": [["3", "1"], None, []], "counts": [1, 0, 1, 0, 0]}
    assert after["ballot"]["result"]["choices"] == [["3", "1"], None, []]


def test_a_multi_ballot_on_the_pads_marks_in_secret_and_casts_the_marks(tmp_path):
    sent = []
    t, host = linked(table(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act(MULTI)
    screens = [controls(t).key(0, k)[0] for k in ("up", "down", "select", "select")]  # marks 1, 3; 2 on and off
    # the same screen whatever was marked: "marked", and what each key does
    assert screens == [["S0 ballot", "marked", "up: mark 1", "sel: mark 2", "dn: mark 3", "hold up: mark 4",
                        "hold sel: mark 5", "hold dn: cast"]] * 4
    controls(t).key(1, "long_down")  # another seat casts nothing marked: seat 0's marks stay
    assert controls(t).key(0, "long_down")[0] == ["S0 ballot", "voted"]
    with open(tmp_path / "ballot.json") as f:
        box = f.read()
    assert '"0":[["1","3"],null]' in box and '"1":[[],null]' in box
    assert "ballot_cast" in canon.encode(sent) and '["1","3"]' not in canon.encode(sent)
    controls(t).key(2, "back")  # marks 4
    controls(t).key(2, "long_down")  # the last voter: the board reveals
    assert t.state["ballot"]["result"] == {"choices": [["1", "3"], [], ["4"]], "counts": [1, 0, 1, 1, 0]}


def test_a_houses_count_survives_another_houses_cast(tmp_path):
    t = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n, "kings_dilemma",
              {"players": 3, "voting": "sealed"}, "kd").boot()
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    controls(t).key(0, "up")
    controls(t).key(0, "up")
    controls(t).key(1, "long_select")  # House 1 casts in between
    controls(t).key(0, "back")  # House 0 casts AYE with the 2 it counted
    controls(t).key(2, "select")
    assert t.state["ballot"]["result"]["amounts"] == [2, None, None]


def test_a_cast_after_the_tables_undo_question_lets_the_question_go(tmp_path):
    """The table's back asks to take back the last entry (a cast made by mistake); a seat that casts
    before the push makes another entry the last, which nobody asked about: the question goes with
    that cast, and the push takes nothing back. (Failed when the question was kept in the box: the
    push took back seat 1's cast.)"""
    t = table(tmp_path)
    t.act(OPEN)
    controls(t).key(0, "up")  # seat 0 casts Aye
    assert controls(t).key(TABLE, "back")[0][:2] == ["ballot", "take back #2?"]
    controls(t).key(1, "select")  # seat 1 casts Nay before the table answers
    screen, index = controls(t).key(TABLE, "select")
    assert index is None and screen[:2] == ["ballot", "2 of 3 voted"], screen
    assert t.state["ballot"]["voted"] == [0, 1] and t.count == 3


def test_the_box_and_the_pads_counts_outlive_the_boards_idles(tmp_path):
    """What the voters' pads counted, the box's choices and the table's undo question are plain
    data on the table: the board's idle time between keys (a look ahead among it) keeps them."""
    t = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n, "kings_dilemma",
              {"players": 3, "voting": "sealed"}, "kd").boot()
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    for pad, key in ((0, "up"), (0, "up"), (1, "long_select"), (0, "back"), (TABLE, "back")):
        controls(t).key(pad, key)
        t.idle()
    assert t.state["ballot"]["voted"] == [1, 0]
    assert controls(t).key(TABLE, "select")[0] == ["undone", "entry 3"]  # the back asked before the idle: taken back
    t.idle()
    assert t.state["ballot"]["voted"] == [1]
    for key in ("down", "down", "long_down"):  # House 0 counts 2 again, across idles, and casts NAY
        controls(t).key(0, key)
        t.idle()
    controls(t).key(2, "select")  # the last voter: the board reveals from the box
    t.idle()
    assert t.state["ballot"]["result"]["choices"] == ["nay", "moderate", "gather"]
    assert t.state["ballot"]["result"]["amounts"] == [2, None, None]


def test_the_box_holds_a_line_a_cast_and_a_torn_line_loses_no_later_cast(tmp_path):
    """A cast adds its seat's choice to the box as one line (Journal.add: one flush, not the
    whole box rewritten and renamed over). A line that a cut left without its end (here: bytes
    of a line, no newline) was never acknowledged: the board passes over it, and the cast made
    after the reboot is whole and counts. (Fails with the lines added without a newline first:
    the next cast's line is joined to the torn one, and its choice is lost.)"""
    def four(folder):
        return Table(Journal(str(folder)), lambda n: b"\x11" * n, "chancellors", {"players": 4}, "t").boot()

    t = four(tmp_path)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Aye"}, 1)
    with open(tmp_path / "ballot.json", "rb") as f:
        lines = [x for x in f.read().split(b"\n") if x]
    assert len(lines) == 2 and b'"0":["Nay",null]' in lines[0] and b'"1":["Aye",null]' in lines[1], lines
    with open(tmp_path / "ballot.json", "ab") as f:
        f.write(lines[1][:20])  # a third cast cut short on flash: its journal line never written
    t.journal.close()
    again = four(tmp_path)
    assert again.state["ballot"]["voted"] == [0, 1]
    again.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    again.journal.close()
    last = four(tmp_path)  # the box read from flash again
    last.act({"type": "ballot_cast", "choice": "Nay"}, 3)  # the last voter: the board reveals
    assert last.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Aye", "Nay"], "counts": [2, 2]}
    assert not os.path.exists(tmp_path / "ballot.json")


def test_a_box_written_whole_by_an_earlier_firmware_reads_the_same(tmp_path):
    """A board updated mid-ballot: its box is one line holding every choice so far (written whole
    and renamed over). The new firmware reads it as it is and adds the next cast after it."""
    t = table(tmp_path)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 1)
    n = t.state["ballot"]["n"]
    t.journal.put("ballot.json", "b", {"n": n, "choices": {"0": ["Nay", None], "1": ["Nay", None]}})
    t.journal.close()
    again = table(tmp_path)
    again.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    assert again.state["ballot"]["result"] == {"choices": ["Nay", "Nay", "Aye"], "counts": [1, 2]}
