"""The private ballot box on a board whose journal is on raw flash (a Pico; here firmware/journal/
files.py's FileStore, programmed as NOR flash is): a cast's choice is a line programmed into a
reservation of its own (ballotN.bin), never a littlefs file append, whose synced write copies the
file's last block (an erase: 45 ms on the Pico's flash part, on the path from the hold to the LEDs).

What the box promises is as on files (tests/board/test_ballot.py): on flash before the cast is
journaled, none of it in the journal's own lines, read back after a power cut, a torn line passed
over, the box emptied by the reveal (a power cut's, on both stores: tests/board/test_ballot.py).
"""

import os

from clients import controls

from firmware.journal import Journal
from firmware.journal.files import FileStore
from firmware.table import Table

OPEN = {"type": "ballot_open", "question": "Exile the Duke?", "options": ["Aye", "Nay"]}
COUNTED = {"type": "ballot_open", "question": "Side and Power?", "options": ["aye", "gather", "nay"],
           "counted": ["aye", "nay"], "max": 5}


class Counting(Journal):
    """A journal that counts the files it opens to write (the test's witness of a littlefs write)."""

    writes = 0

    def open(self, path, mode):
        if "b" in mode and mode[0] in "wa":
            Counting.writes += 1
        return Journal.open(self, path, mode)


def table(folder, players=3):
    folder = str(folder)
    return Table(Counting(folder, 16, FileStore(folder)), lambda n: b"\x11" * n, "chancellors",
                 {"players": players}, "t").boot()


def files(folder, start):
    return sorted(n for n in os.listdir(str(folder)) if n.startswith(start))


def raw(folder, start):
    out = b""
    for name in files(folder, start):
        with open(os.path.join(str(folder), name), "rb") as f:
            out += f.read()
    return out


def test_a_cast_programs_its_choice_into_the_boxs_own_flash_and_opens_no_file(tmp_path):
    """(Fails on a box kept as the littlefs file ballot.json: the cast opens it to append.)"""
    t = table(tmp_path)
    t.act(COUNTED)
    for _ in range(4):
        t.idle()  # the quiet moments: the box's log mapped by the look-ahead, a spare made
    Counting.writes = 0
    t.act({"type": "ballot_cast", "choice": "nay", "count": 4}, 0)
    assert Counting.writes == 0, "a cast opened a file to write"
    assert "ballot.json" not in os.listdir(str(tmp_path))
    assert b'"0":["nay",4]' in raw(tmp_path, "ballot")
    assert b'["nay",4]' not in raw(tmp_path, "res")  # the journal's lines: the cast, not its choice


def test_a_torn_box_line_loses_no_later_cast(tmp_path):
    """A cast cut while its box line was programmed (its bytes there, no end): it was never
    acknowledged; the box's next line goes where the flash is erased, and counts."""
    t = table(tmp_path, 4)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Aye"}, 1)
    box = t.journal.sides["ballot.json"][0]
    region, pos = box.cur, box.pos
    buf = bytearray(b"\xff" * 256)
    torn = b'b {"choices":{"2":["Nay",nu'
    buf[pos % 256:pos % 256 + len(torn)] = torn
    region.program(pos // 256, buf)  # a third cast cut short on flash: its journal line never written
    t.journal.close()
    again = table(tmp_path, 4)
    assert again.state["ballot"]["voted"] == [0, 1]
    again.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    again.journal.close()
    last = table(tmp_path, 4)  # the box read from flash again
    last.act({"type": "ballot_cast", "choice": "Nay"}, 3)  # the last voter: the board reveals
    assert last.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Aye", "Nay"], "counts": [2, 2]}


def test_the_reveal_empties_the_box_and_its_flash_goes_in_the_quiet_moments(tmp_path):
    t = table(tmp_path)
    t.act(OPEN)
    for seat, choice in ((0, "Nay"), (1, "Aye")):
        t.act({"type": "ballot_cast", "choice": choice}, seat)
    assert b'"0":["Nay",null]' in raw(tmp_path, "ballot")
    t.act({"type": "ballot_cast", "choice": "Aye"}, 2)  # the last voter: the board reveals
    assert t.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Aye"], "counts": [2, 1]}
    assert list(t.journal.each("ballot.json", {"n": int})) == []
    for _ in range(8):
        t.idle()
    assert b'"0":["Nay",null]' not in raw(tmp_path, "ballot")  # its reservation removed
    assert len(files(tmp_path, "ballot")) <= 1  # a spare, ready for the next ballot
    t.act(OPEN)  # the next ballot's box starts empty, after a reboot too
    t.act({"type": "ballot_cast", "choice": "Nay"}, 1)
    t.journal.close()
    again = table(tmp_path)
    assert list(again.journal.each("ballot.json", {"n": int})) == [
        {"n": again.state["ballot"]["n"], "choices": {"1": ["Nay", None]}}]


def test_a_box_file_an_earlier_firmware_wrote_reads_first(tmp_path):
    """A board updated mid-ballot: its box is the littlefs file ballot.json; the casts after the
    update go to the box's flash, and the reveal takes both."""
    t = table(tmp_path)
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    n = t.state["ballot"]["n"]
    t.journal.clear("ballot.json")
    t.journal.put("ballot.json", "b", {"n": n, "choices": {"0": ["Nay", None]}})
    t.journal.close()
    again = table(tmp_path)
    again.act({"type": "ballot_cast", "choice": "Aye"}, 1)
    again.act({"type": "ballot_cast", "choice": "Aye"}, 2)
    assert again.state["ballot"]["result"] == {"choices": ["Nay", "Aye", "Aye"], "counts": [2, 1]}
    assert "ballot.json" not in os.listdir(str(tmp_path))


def test_the_boxs_reservation_is_ready_before_the_first_cast_and_read_at_boot(tmp_path):
    """The first cast of a ballot begins the box's lines in a reservation of their own: the board
    readies it in the quiet moments after the ballot opens (the look-ahead reads the box, the
    journal's upkeep then makes its spare), not on the path from the first cast's press to the
    LEDs, where a reservation's write is a littlefs file of a block. A board that boots with a
    ballot open reads its box then, not at the first press. (Failed with the journal's upkeep
    before the look-ahead, and with one step of it an idle: the spare was made at the cast.)"""
    t = table(tmp_path)
    controls(t)  # the table's keys: their look-ahead at the idle
    t.act(OPEN)
    t.idle()
    box = t.journal.sides["ballot.json"][0]
    assert box.spare is not None, "no reservation ready for the box"
    made = []
    make = box.store.make
    box.store.make = lambda seq: made.append(seq) or make(seq)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    assert made == []
    t.journal.close()
    again = table(tmp_path)
    assert again.journal.sides["ballot.json"][1] is not None  # read at boot
    assert list(again.journal.each("ballot.json", {"n": int})) == list(t.journal.each("ballot.json", {"n": int}))
