"""A sealed ballot's secrets, on every channel a host or a seat can see while it is open (issue 44).

tests/board/test_ballot.py compares what the board sent before the reveal, but its one hello comes
before the ballot opens: a welcome's digest or a state frame that told the choices during the
vote would pass it. Here (tests/mp/ballot_channels.py, which says each step) two runs differ only
in the choices cast, the counts cast with them and the marks and counts on a pad not yet cast,
and everything seen mid-vote must be the same, byte for byte: a new hello after the casts (a host
that reconnects: its welcome and digest, its state frame, the display it is sent), a GET of every
entry, a ping, a pull, a refused reveal, the display's screens and status, the public view, the
strip's frames (every phase), the journal's folder but the private box, the state's digest; an
undo of a cast from the table's controls and one from the host, with their frames and what
follows (the seat casts again, on its pad, then by the host's act); a board restarted on its
flash and a host's hello to it. After the reveal they differ, and so does the private box
mid-vote: the runs do hide different choices. On CPython, and under MicroPython from the board's
.mpy build with the same lines.
"""

import json
import os
import sys

import paths
import pytest
from clients import controls, linked

from chancery.board import micropython as mp
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import wire

ROOT = paths.ROOT
MP_DIR = paths.MP
sys.path.insert(0, MP_DIR)
import ballot_channels  # noqa: E402
import board_files  # noqa: E402  (tests/: the layouts as a board reads them)

GAMES = sorted(ballot_channels.GAMES)
OPEN = ("open", "cast", "mid", "undo", "undo2", "hostcast", "reboot")  # the steps while the ballot is open


def runs(tmp_path, game):
    with open(board_files.layout_file(game, tmp_path / "layout")) as f:
        layout = json.load(f)
    out = {}
    for tag in "AB":
        kept = []
        ballot_channels.run(str(tmp_path / tag), tag, layout, game, ballot_channels.Seen(kept))
        out[tag] = kept
    return out


def of(seen, steps):
    return [item for item in seen if item[0] in steps]


def kinds(seen, step):
    """The kinds of the frames the board sent in `step`."""
    return {json.loads(text)["k"] for s, channel, text in seen if s == step and channel == "frame"
            and not text.startswith("dropped ")}


@pytest.mark.parametrize("game", GAMES)
def test_no_channel_tells_a_choice_while_the_ballot_is_open(tmp_path, game):
    seen = runs(tmp_path, game)
    a, b = of(seen["A"], OPEN), of(seen["B"], OPEN)
    for x, y in zip(a, b):
        assert x == y, "%s %s differs between the runs" % (x[0], x[1])
    assert len(a) == len(b)
    # every cast was taken, each undo took one back, and the ballot was open throughout
    both = [pad for pad, _, _ in ballot_channels.GAMES[game][2]]
    voted = [json.loads(text) for s, channel, text in a if channel == "voted"]
    assert voted == [[both, True], [both[:-1], True], [both, True], [both[:-1], True], [both, True], [both, True],
                     [both, True]]
    # the runs did hide different choices, and do differ once the board reveals them
    assert of(seen["A"], ("secret",)) != of(seen["B"], ("secret",))
    after = [of(seen[tag], ("after",)) for tag in "AB"]
    assert [i for i in after[0] if i[1] == "revealed"] != [i for i in after[1] if i[1] == "revealed"]
    assert [i for i in after[0] if i[1] == "frame"] != [i for i in after[1] if i[1] == "frame"]
    # each channel was there to compare, mid-vote
    channels = {(s, channel) for s, channel, _ in a}
    for step in ("mid", "undo", "undo2", "reboot"):
        for channel in ("frame", "display", "status", "view", "leds", "file", "digest", "strip"):
            if (step, channel) != ("mid", "strip"):  # mid: nothing entered, the strip unchanged
                assert (step, channel) in channels, (step, channel)
    assert kinds(a, "mid") >= {"welcome", "state", "entry", "display", "error", "pong", "kept"}
    assert kinds(a, "undo") >= {"state", "entry", "display"}  # the undo's state frame, the cast again
    assert kinds(a, "undo2") >= {"state", "ok", "welcome", "entry", "display"}
    assert kinds(a, "hostcast") >= {"state", "ok", "entry", "display"}
    assert kinds(a, "reboot") >= {"welcome", "state", "entry", "display"}
    assert not [text for s, channel, text in a if channel == "frame" and text.startswith("dropped ")]
    assert [1 for s, channel, text in a if channel == "file" and text.startswith("game.jsonl ")]


@pytest.mark.parametrize("game", GAMES)
def test_the_same_under_micropython(tmp_path, micropython, firmware_build, capsys, game):
    os.makedirs(tmp_path / "cpython")
    layout = board_files.layout_file(game, tmp_path / "layout")
    assert ballot_channels.main([str(tmp_path / "cpython"), layout, game]) == 0
    expected = capsys.readouterr().out.splitlines()
    os.makedirs(tmp_path / "mp")
    proc = mp.run_micropython(os.path.join(MP_DIR, "ballot_channels.py"), [str(tmp_path / "mp"), layout, game],
                              heap="256K", cwd=str(tmp_path), path=[firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    by_run = {tag: [line[2:] for line in lines if line[:2] == tag + " "] for tag in "AB"}
    a, b = by_run["A"], by_run["B"]
    for x, y in zip(a, b):
        step, channel = x.split(" ")[:2]
        if step in OPEN:
            assert x == y
        elif step == "secret" or channel == "revealed":
            assert x != y
    assert len(a) == len(b) and len(a) > 30
    assert lines == expected


def test_a_pad_that_counts_past_the_most_casts_the_most_and_says_nothing_else(tmp_path):
    """A refusal of the count would show on the table's display and in an error frame (the count
    and that the option takes one): a seat's count stops at the ballot's max instead."""
    sent = []
    t = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n,
              "yes_your_grace", {"players": 3}, "t").boot()
    host = linked(t, sent)[1]
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act({"type": "ballot_open", "question": "Exile?", "options": ["Aye", "Abstain", "Nay", "Pass"],
           "counted": ["Aye", "Nay"], "max": 5})
    del sent[:]
    # the same screen at every press, past the most too: "counted", and what each key does
    keys = ["up: +1 Aye", "dn: +1 Nay", "hold up: Aye", "sel: Abstain", "hold sel: Pass", "hold dn: Nay"]
    assert [controls(t).key(0, "up")[0] for _ in range(7)] == [["S0 ballot", "counted"] + keys] * 7
    assert controls(t).key(0, "back")[0] == ["S0 ballot", "voted"]
    assert [kind for kind, _ in sent] == [wire.ENTRY]
    with open(tmp_path / "ballot.json") as f:
        assert '"0":["Aye",5]' in f.read()
