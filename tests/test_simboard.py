"""End to end: the real firmware under the MicroPython unix port, on a pseudo-terminal,
driven by the host's link code through pyserial exactly as a real board would be.

A whole game is played with acts chosen by the play-out driver from what the
host's mirror says is legal; the host re-plays every entry and logs it; the
logbook ends up equal to the board's journal; a pulled cable (closing and
reopening the port) and a killed board (SIGKILL, then a restart on the same
flash folder) lose nothing; bad frames are answered and change nothing.
"""

import os
import re
import sys

import pytest

from chancery.board import micropython as mp
from chancery.board.link import Link
from chancery.board.simboard import SimBoard
from chancery.logbook.store import Logbook
from shared_rules import canon, engine, wire

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mp"))
import playout  # noqa: E402  (tests/mp runs under MicroPython too, so it is not a package)
from menu_player import TABLE_PAD, BoardPlayer, play_by_presses  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The board's budget (issue 3): the games played over the link, the pulled cable and the
# killed board all run within it. A game entered by button presses also loads the menus
# (about 11 KB of code on this 64-bit port). 104K since undo and the display's status
# (a resumed board ran out at 96K in the killed board's test): these are guards on the
# unix port, where code sits in RAM at twice a Pico's size; the chip's own figures
# (tools/chip/heap.py, the README) are the budget.
HEAP = os.environ.get("CHANCERY_SIM_HEAP", "104K")
# 112K since issue 13's speed work on the chip (the raw flash log's module, the layout's plan
# kept, the strip's palette); 120K since the printed effects (the table's menu offers three
# more actions at every step) and undo: the chip's own figures (tools/chip/heap.py) are the budget.
MENU_HEAP = os.environ.get("CHANCERY_MENU_HEAP", "120K")


def start(build, data, micropython, seed=7, players=4, heap=HEAP):
    board = SimBoard(data_dir=str(data), players=players, seed=seed, heap=heap, micropython=micropython,
                     code_path=[build])
    board.open_pty()
    return board


def connect(board, logbook=None):
    link = Link(board.port_name, logbook=logbook)
    link.open()  # before the board starts: opening a tty can flush what is waiting
    if not board.alive():
        board.start()
    link.hello(wait=10.0)
    return link


def play(link, driver_seed, count):
    """`count` acts chosen at random among the legal ones; returns how many were accepted."""
    rnd = playout.Dice(driver_seed)
    g = engine.game_module(link.mirror.match["game"])
    state = link.mirror.match["state"]
    cards = list(g.card_names(state))
    ranks = playout.card_ranks(cards)
    players = state["settings"]["players"]
    done = 0
    while done < count and link.mirror.match["state"]["step"] != "over":
        state = link.mirror.match["state"]
        move = playout._choose(rnd, state, g.legal(state, None), players, cards, ranks)
        before = canon.digest(state)
        kind, body = link.act(move)
        if kind == wire.OK:
            done += 1
        else:
            assert canon.digest(link.mirror.match["state"]) == before  # refused: nothing changed
            kind, body = link.act(playout._fallback(state))
            assert kind == wire.OK, body
            done += 1
    return done


def journal_entries(data):
    from firmware.journal import Journal

    return [canon.encode(e) for e in Journal(str(data)).entries(0)]


def test_a_whole_game_through_the_link(firmware_build, micropython, tmp_path):
    book = Logbook(str(tmp_path / "book.sqlite3"))
    with start(firmware_build, tmp_path / "flash", micropython) as board:
        link = connect(board, book)
        assert link.mirror.welcome["game"] == "chancellors" and link.mirror.welcome["len"] == 0
        play(link, 11, 400)
        state = link.mirror.match["state"]
        assert state["step"] == "over", board.stderr_text()
        # the board's digest and length agree with the host's mirror
        link.hello()
        assert link.mirror.welcome["len"] == len(link.mirror.match["entries"])
        assert link.mirror.welcome["digest"] == canon.digest(state)
        link.close()
    logged = [canon.encode(e) for e in book.entries(link.game_id)]
    assert logged == journal_entries(tmp_path / "flash")


def test_bad_frames_are_answered_and_change_nothing(firmware_build, micropython, tmp_path):
    with start(firmware_build, tmp_path / "flash", micropython) as board:
        link = connect(board)
        link.act({"type": "roll"})
        before = link.mirror.welcome
        junk = [b"garbage\n", b'{"c":"00000000","k":"act","n":9}\n', b"\x03\x04\n", b"{" * 2000 + b"\n",
                wire.encode(50, wire.ACT, {"seat": None, "move": {"type": "fly"}}).encode(),
                wire.encode(51, wire.WELCOME, {"fw": "x", "proto": 1, "game": "g", "settings": {}, "len": 0,
                                               "digest": "0", "id": "x"}).encode()]
        for line in junk:
            link.ser.write(line)
        link.poll(1.0)
        link.hello()
        assert link.mirror.welcome["len"] == before["len"] + 1
        assert link.mirror.welcome["digest"] == canon.digest(link.mirror.match["state"])
        assert board.alive(), board.stderr_text()


def test_a_pulled_cable_loses_nothing(firmware_build, micropython, tmp_path):
    with start(firmware_build, tmp_path / "flash", micropython) as board:
        link = connect(board)
        play(link, 5, 6)
        # an act whose answer is never read: the cable is pulled right after it
        link.send(wire.ACT, {"seat": None, "move": playout._fallback(link.mirror.match["state"])})
        link.close()
        link.open()
        link.hello()
        assert len(link.mirror.match["entries"]) == link.mirror.welcome["len"] == 7
        assert link.mirror.welcome["digest"] == canon.digest(link.mirror.match["state"])


def test_a_killed_board_resumes_its_game(firmware_build, micropython, tmp_path):
    flash = tmp_path / "flash"
    board = start(firmware_build, flash, micropython, heap=HEAP)
    try:
        link = connect(board)
        play(link, 11, 30)  # past a snapshot (every 16 entries): resume loads it, then replays the rest
        mirrored = len(link.mirror.match["entries"])
        assert mirrored == 30
        board.kill()  # a power cut
        link.close()
    finally:
        board.stop()
    with start(firmware_build, flash, micropython, heap=HEAP) as again:
        try:
            link2 = connect(again)
            assert link2.mirror.welcome["len"] == mirrored
            assert canon.digest(link2.mirror.match["state"]) == link2.mirror.welcome["digest"]
            assert play(link2, 4, 3) == 3
        except OSError:
            raise AssertionError("the resumed board died:\n" + again.stderr_text()[-3000:])


def test_a_whole_game_by_virtual_button_presses(firmware_build, micropython, tmp_path):
    """Every action entered on the board's own menus, a seat's pad or the table's controls,
    only by pressing buttons and reading the board's display."""
    with start(firmware_build, tmp_path / "flash", micropython, seed=3, players=2, heap=MENU_HEAP) as board:
        link = connect(board)
        presses, types = play_by_presses(link, 9, on_refusal=lambda: board.stderr_text()[-2000:])
        assert {"roll", "reveal", "pass"} <= types or {"roll", "assign", "pass"} <= types
        assert presses > 100 and link.mirror.match["state"]["step"] == "over"


def test_the_tables_effects_by_virtual_button_presses(firmware_build, micropython, tmp_path):
    """Chancellors' effects (a score, a service, a die) entered on the table's own controls by
    presses, reading the display; the board journals each, the host's mirror agrees, and one
    the rules refuse changes nothing on the board."""
    from shared_rules import schema as schemas

    g = engine.game_module("chancellors")
    with start(firmware_build, tmp_path / "flash", micropython, seed=3, players=2, heap=MENU_HEAP) as board:
        link = connect(board)
        assert link.act({"type": "roll"})[0] == wire.OK  # the board's own dice
        die = 1 + link.mirror.match["state"]["problems"][0][0] % 6  # another value than it shows
        for target in ({"type": "score", "seat": 1, "amount": 3}, {"type": "service", "service": "army", "holder": 0},
                       {"type": "die", "problem": 0, "die": 0, "value": die}):
            state = link.mirror.match["state"]
            before = len(link.mirror.match["entries"])
            who = BoardPlayer(link, TABLE_PAD)
            assert who.enter(schemas.find(g.legal(state, None), target["type"]), target) == before, who.screen
            assert link.mirror.match["entries"][-1]["action"] == target
        state = link.mirror.match["state"]
        assert state["scores"] == [0, 3] and state["control"]["army"] == 0 and state["problems"][0][0] == die
        before = canon.digest(state)
        kind, body = link.act({"type": "score", "seat": 0, "amount": -1})
        assert kind != wire.OK and body["code"] == "score_below_zero", body
        link.hello()
        assert link.mirror.welcome["digest"] == canon.digest(link.mirror.match["state"]) == before
        assert link.mirror.welcome["len"] == 4
    assert journal_entries(tmp_path / "flash") == [canon.encode(e) for e in link.mirror.match["entries"]]


# The unix port's pools of interned strings hold 20, 40, 80, 160, 320, then 640 more: 1,260
# in six pools, and the 1,261st would cost a pool of 1,280 at once. Issue 13 makes this a
# guard with margin rather than a budget the code bends to fit: the board (the chip's heap
# is 245 KB; a 640-entry pool there is about 3.5 KB) now runs in the sixth pool (the fast
# canonical encoder and the in-place step added about 20 names), and the simulated board's
# end-to-end tests at 96K still pass with it. The limit keeps every board well short of a
# seventh pool.
QSTR_LIMIT = 1100


@pytest.mark.parametrize("game, limit", [("chancellors", QSTR_LIMIT), ("chancellors ballot", QSTR_LIMIT),
                                         ("kings_dilemma", QSTR_LIMIT), ("the_council", QSTR_LIMIT),
                                         ("yes_your_grace", QSTR_LIMIT),
                                         ("kings_dilemma ballot", QSTR_LIMIT)])
def test_the_board_stays_below_its_next_pool_of_interned_strings(game, limit, firmware_build, micropython, tmp_path):
    """Strings MicroPython interns are never freed, and the pool after a full one is twice
    its size: the guard keeps the board well short of a seventh pool (1,280 at once). Everything
    the simulated board loads and does (boot, resume, play, the menus) must stay below."""
    proc = mp.run_micropython(os.path.join(ROOT, "tests", "mp", "board_qstrs.py"), [str(tmp_path / "flash")] + game.split(),
                              heap="256K", cwd=str(tmp_path), path=[firmware_build], micropython=micropython)
    found = re.search(r"n_pool=(\d+), n_qstr=(\d+)", proc.stdout)
    assert proc.returncode == 0 and found, proc.stdout + proc.stderr
    pools, count = int(found.group(1)), int(found.group(2))
    assert count <= limit and pools <= 6, (
        "the %s board interns %d strings in %d pools (limit %d): move host-only names out of the board's "
        "modules, or merge tiny modules (each costs two: its name and its file)" % (game, count, pools, QSTR_LIMIT))


def test_an_undo_reaches_the_mirror_and_the_logbook_live_and_after_a_reconnect(firmware_build, micropython,
                                                                              tmp_path):
    """Live: the host's undo comes back as the shorter log; the mirror and the logbook follow,
    the entry kept as taken back. Unplugged: another host takes two entries back and plays
    one; on reconnect the first host finds where the logs part and follows the board."""
    book = Logbook(str(tmp_path / "book.sqlite3"))
    # the menus' heap: an undo reloads the game from the journal while the live board's modules
    # (the renderer, its layout, the display) are loaded, which a boot's resume has not yet
    with start(firmware_build, tmp_path / "flash", micropython, heap=MENU_HEAP) as board:
        link = connect(board, book)
        play(link, 5, 8)
        last = link.mirror.match["entries"][-1]
        kind, body = link.act({"type": "undo", "entry": 7})
        assert kind == wire.OK and body["i"] is None, (body, board.stderr_text()[-2000:])
        assert len(link.mirror.match["entries"]) == 7 and book.count(link.game_id) == 7
        assert [(i, e) for i, e, _, _ in book.undone(link.game_id)] == [(7, last)]
        kind, body = link.act({"type": "undo", "entry": 3})  # not the last: refused, nothing changes
        assert kind == wire.ERROR and body["code"] == "undo_not_last" and book.count(link.game_id) == 7
        link.close()
        other = connect(board)  # the cable goes to another host, which takes two back and plays on
        other.act({"type": "undo"})
        other.act({"type": "undo"})
        play(other, 9, 2)
        board_log = [canon.encode(e) for e in other.mirror.match["entries"]]
        other.close()
        link.open()
        link.hello()
        assert [canon.encode(e) for e in link.mirror.match["entries"]] == board_log
        assert link.mirror.welcome["digest"] == canon.digest(link.mirror.match["state"])
        assert assert_logged(book, link.game_id, board_log)
        assert [i for i, _, _, _ in book.undone(link.game_id)][1:] == [5, 6]  # the two the other host took back
    assert journal_entries(tmp_path / "flash") == board_log


def assert_logged(book, game_id, log):
    assert [canon.encode(e) for e in book.entries(game_id)] == log
    return True
