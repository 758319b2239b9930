"""The entry computed ahead on a confirm screen (firmware/ahead.py) changes only when the work
is done: tests/mp/ahead_walk.py plays each game at its most seats through the menus on two
tables, one looking ahead and one not, and compares every screen, every entry and the
journals; the same walks on MicroPython (the deployed .mpy build) and CPython, line for line."""

import os
import subprocess
import sys

import paths
import pytest
from clients import controls

sys.path.insert(0, os.path.join(paths.ROOT, "tools", "chip"))

import make_log  # noqa: E402  (tools/chip: a random game's actions, drawn from what the rules offer)

from chancery.board import micropython as mp
from shared_rules import games

ROOT = paths.ROOT
MP_DIR = paths.MP
WALK = os.path.join(MP_DIR, "ahead_walk.py")
SEEDS, KEYS = "3", "500"


def _lines(out):
    lines = out.splitlines()
    assert len(lines) == int(SEEDS), out
    for line in lines:
        entries, met, left = (int(line.split(" " + k + " ")[1].split()[0]) for k in ("entries", "met", "left"))
        assert entries > 0 and met > 0, line
    return lines


# and The King's Dilemma's sealed vote: the table's hold closes its ballot and the board reveals it,
# two entries from one press, computed ahead together (The Council's ballot comes too late in a walk)
@pytest.mark.parametrize("game", list(games.GAMES) + ["kings_dilemma:voting=sealed"])
def test_the_same_with_and_without_the_look_ahead(game, tmp_path, firmware_build, micropython):
    os.mkdir(str(tmp_path / "mp"))
    proc = mp.run_micropython(WALK, args=[str(tmp_path / "mp"), game, "1", SEEDS, KEYS],
                              path=[firmware_build, MP_DIR, paths.HELPERS], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    on_mp = _lines(proc.stdout)
    os.mkdir(str(tmp_path / "py"))
    proc = subprocess.run([sys.executable, WALK, str(tmp_path / "py"), game, "1", SEEDS, KEYS], capture_output=True,
                          text=True, timeout=120, cwd=str(tmp_path),
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, MP_DIR, paths.HELPERS])))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _lines(proc.stdout) == on_mp


def test_the_tables_hold_that_rolls_is_computed_ahead_and_rolls_the_same_faces(tmp_path):
    """The README's way to roll (the table's hold of push while the game wants the board's dice) is
    awaited like a confirm: the roll is decided while the board idles, and the press only journals
    it and shows it. Its faces are those the board's generator gives without the look-ahead, and
    the generator moves on only when the press makes the entry; a press elsewhere drops it."""
    from firmware.journal import Journal
    from firmware.pads import TABLE
    from firmware.table import Table

    def table(name):
        t = Table(Journal(str(tmp_path / name)), lambda n: b"\x05" * n, "chancellors", {"players": 4}).boot()
        return t, controls(t)

    (ahead, keys), (plain, plain_keys) = table("ahead"), table("plain")
    ahead.idle()
    assert keys.ahead is not None and keys.ahead.step.move["type"] == "roll"
    assert keys.pressed(1, "down")[1] is None and keys.ahead is None  # another pad's key: dropped
    shown = []
    ahead.on_entry = lambda ready=None: shown.append(ready)
    keys.on_ahead = lambda state: "frame of %d" % len(state["dice"] if "dice" in state else state)
    ahead.idle()  # computed again (a menu open on seat 1's pad does not stop the table's hold)
    assert keys.ahead is not None and keys.ahead.frame is not None
    assert keys.pressed(TABLE, "long_select")[1] == 0
    assert len(shown) == 1 and shown[0] is not None  # the frame drawn ahead, shown at the press
    assert plain_keys.pressed(TABLE, "long_select")[1] == 0
    with open(tmp_path / "ahead" / "game.jsonl", "rb") as a, open(tmp_path / "plain" / "game.jsonl", "rb") as p:
        assert a.read() == p.read()  # the same faces, the same line
    ahead.idle()
    plain.idle()
    assert ahead._rng == plain._rng


@pytest.mark.parametrize("store", ["file", "flash"])
def test_the_line_of_an_entry_computed_ahead_is_summed_ahead(tmp_path, monkeypatch, store):
    """The journal's line of a roll computed ahead is prepared with it (Journal.prepare: the
    text, its CRC): the press only programs it, and the line is the one a press with nothing
    ahead writes. (Fails with the line formatted and summed at the key.)"""
    from firmware.journal import Journal, core, flash, line
    from firmware.journal.files import FileStore
    from firmware.pads import TABLE
    from firmware.table import Table

    def table(name):
        folder = str(tmp_path / name)
        os.mkdir(folder)
        j = Journal(folder, 16, FileStore(folder) if store == "flash" else False)
        return Table(j, lambda n: b"\x05" * n, "chancellors", {"players": 4}).boot()

    ahead, plain = table("ahead"), table("plain")
    keys = controls(ahead)
    ahead.idle()
    assert keys.ahead is not None and keys.ahead.step.move["type"] == "roll"

    class Counted:  # binascii, its CRC-32 counted
        def __init__(self, real):
            self.real, self.sums = real, 0

        def crc32(self, *args):
            self.sums += 1
            return self.real.crc32(*args)

    counted = Counted(core.binascii)
    monkeypatch.setattr(core, "binascii", counted)
    monkeypatch.setattr(line, "binascii", counted)  # line.whole(): the flash log's lines too
    monkeypatch.setattr(flash, "binascii", counted, raising=False)
    assert keys.pressed(TABLE, "long_select")[1] == 0
    assert counted.sums == 0, "the line summed at the key"
    monkeypatch.undo()
    assert controls(plain).pressed(TABLE, "long_select")[1] == 0
    got = list(ahead.journal.entries())
    assert got == list(plain.journal.entries()) and len(got) == 1


def test_an_entry_computed_ahead_is_taken_back_without_a_replay(tmp_path, monkeypatch):
    """An entry made from one computed ahead keeps the state it was computed on (Table.before): its
    undo takes that state back with no replay of the journal (a replay took most of a second on the
    chip for The Council), and the table is then exactly what a replay gives. An entry folded in
    place keeps none: its undo replays. (Fails with every undo replaying.)"""
    from firmware.journal import Journal
    from firmware.pads import TABLE
    from firmware.table import Table
    from shared_rules import canon

    t = Table(Journal(str(tmp_path / "a")), lambda n: b"\x05" * n, "chancellors",
              {"players": 4}).boot()
    controls(t)  # the pads' keys, which compute the awaited entry when the table idles
    replays = []
    real = Table.reload
    monkeypatch.setattr(Table, "reload", lambda self: (replays.append(self.count), real(self)))
    before = canon.encode(t.state)
    t.idle()
    assert controls(t).pressed(TABLE, "long_select")[1] == 0 and t.before is not None  # the roll, computed ahead
    t.idle()
    assert t.undo() == 0 and replays == [] and canon.encode(t.state) == before
    again = Table(Journal(str(tmp_path / "a")), lambda n: b"\x05" * n).boot()
    assert canon.encode(again.state) == canon.encode(t.state) and again.count == t.count == 0
    t.act({"type": "roll"})  # in place, with no idle before it: nothing kept
    assert t.before is None and t.undo() == 0 and replays == [1]


@pytest.mark.parametrize("game", ["chancellors", "the_council", "yes_your_grace"])
def test_an_entry_folded_in_place_after_an_idle_is_taken_back_without_a_replay(tmp_path, monkeypatch, game):
    """The host's actions, a die's roll and a confirm pressed before the board settled are folded into
    the state in place (Table.act). The board's idle before them copied the state (Table.spare): the
    entry keeps that copy as the state before it, so its undo needs no replay either, and the table is
    then exactly what a replay gives. Random play, every action the rules offer. (Failed with every such undo replaying: a replay took most of a second
    on the chip for The Council.)"""
    from firmware.journal import Journal
    from firmware.table import Table
    from shared_rules import canon, engine
    from shared_rules.errors import RuleError

    t = Table(Journal(str(tmp_path / "a")), lambda n: b"\x05" * n, game, {"players": 4}).boot()
    replays = []
    real = Table.reload
    monkeypatch.setattr(Table, "reload", lambda self: (replays.append(self.count), real(self)))
    # the table's own game (its seed is its entropy's: 0x05050505), its rolls typed
    header, entries = make_log.make(game, 0x05050505 & 0x3FFFFFFF, 4, 40, typed_rolls=True)
    taken = 0
    for e in entries:
        move = e["action"]
        if move["type"] in ("ballot_reveal", "ballot_cast"):
            continue
        t.idle()
        before = canon.encode(t.state)
        try:
            t.act(move)
        except RuleError:
            continue
        if t.state.get("ballot") or engine.game_module(game).is_over(t.state):
            break
        assert t.undo() == t.count and replays == [], move
        assert canon.encode(t.state) == before, move
        resumed = Table(Journal(str(tmp_path / "a")), lambda n: b"\x05" * n).boot()
        assert canon.encode(resumed.state) == before and resumed.count == t.count
        t.act(move)
        taken += 1
    assert taken >= 10, taken


@pytest.mark.parametrize("how", ["counted", "multi"])
def test_a_voters_hold_after_its_taps_is_computed_ahead_and_casts_as_without(tmp_path, how):
    """A voter who counted (taps) or marked on its pad casts by a hold: the board computes that cast
    while the hold is awaited, its choice kept for the private box until the press. The press then
    makes the same entries as without the look-ahead: the box's choice, the journal, and the board's
    reveal when the cast is the last voter's (the reveal taken on the copy with that choice in it).
    (Fails with the cast never computed ahead: the look-ahead waits for the table's close.)"""
    from firmware.journal import Journal
    from firmware.table import Table

    opening = ({"type": "ballot_open", "question": "Side and Power?", "options": ["aye", "gather", "nay"],
                "counted": ["aye", "nay"], "max": 5} if how == "counted" else
               {"type": "ballot_open", "question": "Reveal which?", "options": ["1", "2", "3", "4", "5"], "multi": True})
    # each voter's taps, then the hold that casts them (up held is "back")
    votes = ([(0, ["up", "up"], "back"), (1, ["down"], "long_down"), (2, ["down", "down", "down"], "long_down")]
             if how == "counted" else
             [(0, ["up", "down"], "long_down"), (1, ["select"], "long_down"), (2, ["back", "up"], "long_down")])

    def run(name, look):
        t = Table(Journal(str(tmp_path / name)), lambda n: b"\x05" * n, "chancellors", {"players": 3}).boot()
        c = controls(t)
        t.act(opening)
        made = []
        for seat, taps, hold in votes:
            for k in taps:
                assert c.pressed(seat, k)[1] is None
            if look:
                t.idle()
                assert c.ahead is not None and (c.ahead.pad, c.ahead.at) == (seat, hold), "no cast ahead"
            made.append(c.pressed(seat, hold)[1])
        assert t.state["ballot"]["result"] is not None
        with open(str(tmp_path / name / "game.jsonl"), "rb") as f:
            return made, f.read(), t.state["ballot"]["result"]

    assert run("ahead", True) == run("plain", False)


@pytest.mark.parametrize("game, opening, presses", [
    # a plain ballot: a tap casts its key's option (select: the second)
    ("chancellors", {"type": "ballot_open", "question": "Exile?", "options": ["Aye", "Nay"]},
     [(0, "select", "select"), (2, "up", "up")]),
    # counted: a counted option's hold casts it with a count of 1, the others' taps cast them
    ("chancellors", {"type": "ballot_open", "question": "Side and Power?", "options": ["aye", "gather", "nay"],
                     "counted": ["aye", "nay"], "max": 5},
     [(1, "down", "long_down"), (0, "select", "select"), (2, "up", "back")]),
    # multi: down held casts what is marked (nothing here)
    ("chancellors", {"type": "ballot_open", "question": "Reveal which?", "options": ["1", "2", "3"], "multi": True},
     [(0, "down", "long_down"), (1, "down", "long_down"), (2, "down", "long_down")]),
    # The King's Dilemma's vote cards: a House's first hold, with no tap before it
    ("kings_dilemma", {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"},
     [(0, "up", "back"), (1, "down", "long_down")]),
])
def test_a_press_that_nothing_foretold_is_computed_between_its_down_and_its_key(tmp_path, game, opening, presses):
    """A cast by one key, or a House's first vote: no earlier key says which it will be, but the
    button's down does (Controls.down, from the board's scan). The board's idle while the button
    is held computes the entry its tap or hold makes, and the key makes the same entries as
    without. (Fails with no look-ahead at a down: nothing waits ahead for the key.)"""
    from firmware.journal import Journal
    from firmware.pads import index_of
    from firmware.table import Table

    def run(name, look):
        t = Table(Journal(str(tmp_path / name)), lambda n: b"\x05" * n, game,
                  {"players": 3 if game == "chancellors" else 4}).boot()
        c = controls(t)
        t.act(opening)
        made = []
        for seat, button, key in presses:
            if look:
                c.down(1 << index_of(seat, button))
                t.idle()
                assert c.ahead is not None and (c.ahead.pad, c.ahead.at) == (seat, key), (
                    "nothing ahead at the down" if c.ahead is None else (c.ahead.pad, c.ahead.at))
            made.append(c.pressed(seat, key)[1])
        with open(str(tmp_path / name / "game.jsonl"), "rb") as f:
            return made, f.read(), t.state.get("ballot")

    got = run("ahead", True)
    assert None not in got[0] and got == run("plain", False)


@pytest.mark.parametrize("button, key, choice, at, held", [
    ("select", "select", "gather", "select", "long_select"),  # the tap casts gather
    ("select", "long_select", "moderate", "select", "long_select"),  # the hold, the fourth option
    ("up", "back", "aye", "back", None),  # a counted option: its tap counts, its hold casts
])
def test_a_press_whose_tap_and_hold_both_cast_finds_either_made_ahead(tmp_path, button, key, choice, at, held):
    """The King's Dilemma's sealed vote: a tap of select casts gather, its hold the fourth option
    (pass and become Moderator). Both are computed while the button is down, the tap's first;
    whichever the press turns out to be is entered from what was computed, with no decision at
    the key, and the same journal as without. (Fails with the tap's entry alone computed ahead:
    the hold was then decided after its long instant.) Up's tap counts: only its hold's cast is
    computed."""
    from firmware.journal import Journal
    from firmware.pads import index_of
    from firmware.table import Table

    opening = {"type": "ballot_open", "question": "Vote?", "options": ["aye", "gather", "nay", "moderate"],
               "counted": ["aye", "nay"], "max": 5}

    def run(name, look):
        t = Table(Journal(str(tmp_path / name)), lambda n: b"\x05" * n, "chancellors", {"players": 3}).boot()
        c = controls(t)
        t.act(opening)
        decided = []  # the rules' decisions: decide()'s on a copy, act()'s in place
        decide, act = t.decide, t.act
        t.decide = lambda move, seat: decided.append(move) or decide(move, seat)
        t.act = lambda move, seat=None: decided.append(move) or act(move, seat)
        if look:
            c.down(1 << index_of(0, button))
            t.idle()
            a = c.ahead
            assert a is not None and (a.pad, a.at, a.held and a.held.at) == (0, at, held), "not computed ahead"
            decided.clear()
        made = c.pressed(0, key)[1]
        assert made is not None and not (look and decided), "decided at the key"
        with open(str(tmp_path / name / "game.jsonl"), "rb") as f:
            return f.read(), t.ballot_box

    got = run("ahead", True)
    assert got == run("plain", False) and got[1]["choices"]["0"][0] == choice


@pytest.mark.parametrize("scroll", ["up", "down", "long_down"])
def test_a_scroll_of_the_confirm_screen_keeps_the_entry_computed_ahead(tmp_path, scroll):
    """Up and down on a menu's confirm screen scroll its text: what its select sends is the same, so
    the entry computed ahead for it stays, and the select that follows at once (before the board has
    idled again) only commits it. (Fails with any key on the menu's pad dropping the look-ahead:
    the select then decides the entry itself.)"""
    from firmware.journal import Journal
    from firmware.pads import TABLE
    from firmware.table import Table

    t = Table(Journal(str(tmp_path)), lambda n: b"\x05" * n, "the_council", {"players": 4}).boot()
    keys = controls(t)
    assert keys.pressed(TABLE, "select")[0][0] == "table action?"
    keys.pressed(TABLE, "down")  # the second of the table's actions (the draft's first): chips
    for k in ("select", "select", "select", "down", "select"):  # chips, seat 0, Moons, +1 (the reason left)
        screen = keys.pressed(TABLE, k)[0]
    assert screen[-2:] == ["push: send", "back: change"], screen
    t.idle()
    made = keys.ahead
    assert made is not None and made.at is None
    decided = []
    real = t.decide
    t.decide = lambda move, seat: decided.append(move) or real(move, seat)
    assert keys.pressed(TABLE, scroll)[1] is None
    assert keys.ahead is made, "a scroll dropped the entry computed ahead"
    assert keys.pressed(TABLE, "select")[1] == 0
    assert decided == [], "the select decided its entry again"
