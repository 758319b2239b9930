"""Undo at the table (issue 15 part 2): the board takes back its last entry, from the
table's menu or from the host, keeps it on flash, and the host agrees afterwards.

The board (firmware/table.py) writes an undo line to its journal (firmware/journal/:
the entry stays on flash), reloads its state from the journal and sends the host a state
frame with the shorter log; the host's link drops the entry from its mirror and moves it
to the logbook's taken-back entries. A sealed ballot's reveal is never taken back; a cast
taken back before the reveal lets that seat vote again, and nothing says what it was.
"""

import os

from clients import controls, linked
from test_ballot import OPEN
from test_ballot import table as ballot_board  # 3 seats
from test_new_game import TABLE, board, cursor

from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, games, wire
from shared_rules.errors import RuleError


def replayed(t, moves):
    """The state after `moves` from the board's own start: what the log should fold to."""
    h = t.header
    match = engine.new_match(h["game"], h["settings"], h["seed"])
    for move in moves:
        engine.apply(match, move)
    return match


def moves_of(t):
    return [e["action"] for e in t.journal.entries(0)]


def test_the_host_takes_back_the_last_entry_and_hears_the_shorter_log(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act({"type": "roll"})
    t.act({"type": "assign", "army": 0, "diplomatic": 1, "navy": 2})
    kept = moves_of(t)
    del sent[:]
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "undo", "entry": 1}})
    (kind, body), (ok, answer) = sent
    assert (kind, ok, answer) == (wire.STATE, wire.OK, {"re": 1, "i": None})  # the state first, then the ok
    assert body["len"] == 1 and body["digest"] == canon.digest(t.state) == canon.digest(replayed(t, kept[:1])["state"])
    assert t.count == 1 and moves_of(t) == kept[:1]
    # the table goes on from there: another assignment at the same index
    t.act({"type": "assign", "army": 2, "diplomatic": 1, "navy": 0})
    assert moves_of(t) == kept[:1] + [{"type": "assign", "army": 2, "diplomatic": 1, "navy": 0}]
    again = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n).boot()  # a reboot
    assert (again.count, canon.digest(again.state)) == (2, canon.digest(t.state))
    with open(tmp_path / "game.jsonl", "rb") as f:  # the entry taken back is still on flash
        assert f.read().count(b'"army":0') == 1


def test_what_cannot_be_taken_back_is_refused_in_words_and_changes_nothing(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "undo"}})
    assert sent[-1][1]["code"] == "nothing_to_undo"
    t.act({"type": "roll"})
    t.act({"type": "assign", "army": 0, "diplomatic": 1, "navy": 2})
    before = (t.count, canon.digest(t.state), moves_of(t))
    host.frame(2, wire.ACT, {"seat": None, "move": {"type": "undo", "entry": 0}})  # not the last
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == "undo_not_last"
    e = RuleError("undo_not_last", sent[-1][1]["detail"])
    e.game = "chancellors"
    assert games.message(e) == ("only the last entry (#2) can be taken back, not #1; undo again for each one "
                                "before it")
    assert (t.count, canon.digest(t.state), moves_of(t)) == before


def test_the_tables_menu_offers_undo_with_a_confirmation(tmp_path):
    t = board(tmp_path)
    screen = controls(t).key(TABLE, "down")[0]
    assert "undo" not in [line[2:].strip() for line in screen[1:]]  # nothing to take back yet
    t.act({"type": "roll"})
    screen = controls(t).key(TABLE, "down")[0]
    for _ in range(20):
        if cursor(screen) == "undo":
            break
        screen = controls(t).key(TABLE, "down")[0]
    assert controls(t).key(TABLE, "select") == (["table undo?", "push: send", "back: change"], None) and t.count == 1
    assert controls(t).key(TABLE, "select") == (["undone", "entry 1"], None)
    assert t.count == 0 and moves_of(t) == []


def test_a_cast_taken_back_is_cast_again_and_nothing_tells_what_it_was(tmp_path):
    sent = []
    t, host = linked(ballot_board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act(OPEN)
    t.act({"type": "ballot_cast", "choice": "Nay"}, 0)
    t.act({"type": "ballot_cast", "choice": "Aye"}, 1)
    start = len(sent)
    # the table's controls: back asks, push takes back seat 1's cast
    assert controls(t).key(TABLE, "back") == (["ballot", "take back #3?", "push: yes", "other: no"], None)
    assert controls(t).key(TABLE, "select") == (["undone", "entry 3"], None)
    assert t.state["ballot"]["voted"] == [0]
    after = canon.encode(sent[start:])
    assert "Aye" not in after.replace('"options":["Aye","Nay"]', "")  # the state frame names no choice
    controls(t).key(1, "select")   # seat 1 votes again: Nay
    controls(t).key(2, "up")       # seat 2: Aye; all voted, the board reveals
    assert t.state["ballot"]["result"] == {"choices": ["Nay", "Nay", "Aye"], "counts": [1, 2]}


def test_a_ballots_reveal_is_never_taken_back(tmp_path):
    sent = []
    t, host = linked(ballot_board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act(OPEN)
    for seat, choice in ((0, "Nay"), (1, "Aye"), (2, "Aye")):
        t.act({"type": "ballot_cast", "choice": choice}, seat)
    before = (t.count, canon.digest(t.state))
    assert t.journal.entries(t.count - 1).__next__()["action"]["type"] == "ballot_reveal"
    host.frame(3, wire.ACT, {"seat": None, "move": {"type": "undo"}})
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == "undo_reveal"
    e = RuleError("undo_reveal", sent[-1][1]["detail"])
    assert "votes are public now" in games.message(e)
    assert (t.count, canon.digest(t.state)) == before


def test_an_undo_survives_a_reboot_past_a_snapshot(tmp_path):
    """17 entries (a snapshot after 16); two undos take the log to 15, below the snapshot,
    which goes; the board boots to those 15 entries and plays on."""
    from test_journal import game

    header, entries, states = game(4, 4)
    t = Table(Journal(str(tmp_path)), lambda n: b"\x05" * n, "chancellors",
              header["settings"], "t").boot()
    moves = [dict(e["action"], values=[v["value"] for v in e["events"] if v["t"] == "die"])
             if e["action"]["type"] == "roll" else e["action"] for e in entries]  # the play-out's dice, as the board's
    for move in moves[:17]:
        t.act(move)
        t.idle()  # where the board takes its snapshot, once an entry is shown
    assert os.path.exists(tmp_path / "snap.json")
    t.undo(16)
    t.undo()
    assert not os.path.exists(tmp_path / "snap.json")
    want = canon.digest(replayed(t, moves[:15])["state"])
    again = Table(Journal(str(tmp_path)), lambda n: b"\x05" * n).boot()
    assert (again.count, canon.digest(again.state), moves_of(again)) == (15, want, moves[:15])
    again.act(moves[15])
    assert canon.digest(again.state) == canon.digest(replayed(t, moves[:16])["state"])


def test_a_state_frame_too_long_for_the_wire_goes_without_its_view_while_frames_wait(tmp_path):
    """A board holds the host's frames while an input is answered and writes them afterwards
    (firmware/board/sim.py's flush, which drops a frame too long to write). The state frame of
    an undo must be one the wire takes: The King's Dilemma's view in an open sealed ballot of
    five seats is longer than a frame, so it goes without the view (the host has the entries).
    Found by the chip's power-cut run, CHANCERY_POWER_SEED=16148057: the undo's ok came alone."""
    sent = []
    t = Table(Journal(str(tmp_path)), lambda n: b"\x05" * n, "kings_dilemma",
              {"players": 5, "voting": "sealed"}, "t").boot()
    t, host = linked(t, sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    t.act({"type": "roll"})
    for seat in (0, 1, 2):
        t.act({"type": "ballot_cast", "seat": seat, "choice": "gather"})
    del sent[:]
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "undo", "entry": 3}})
    assert [k for k, _ in sent] == [wire.STATE, wire.OK], sent
    for seq, (kind, body) in enumerate(sent):  # as the board writes them, after the undo
        wire.encode(seq, kind, body)
    assert sent[0][1]["len"] == 3 and sent[0][1]["digest"] == canon.digest(t.state)
