"""Every game reaches the logbook on the chip (issue 17, part 2): the deployed firmware on the
virtual Pico (stock RPI_PICO MicroPython on rp2040js) keeps each finished game in its raw
flash log's reservations (firmware/kept.py, firmware/journal/flash.py) until a host with a
logbook has pulled and acknowledged it (host/chancery/board/link.py pull_kept); the same
scenario as tests/board/test_kept_games.py's on the simulated board, on the rp2 port's littlefs
and rp2.Flash(). Skips only when no UF2 is found.
"""

import sys

import pytest
from conftest import ROOT, needs_uf2

from chancery.board.link import KEPT, Link
from chancery.logbook.store import Logbook
from chancery.vpico import VirtualPico, image
from shared_rules import canon, engine, wire

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import playout  # (tests/mp: the random legal moves tests/board/test_simboard.py plays too)

pytestmark = [needs_uf2, pytest.mark.slow(order=5)]

WAIT = 120  # s of wall time for anything the board does (the chip is slow, the machine may be busy)
GAMES, ACTIONS = 10, 2  # short games: the scenario is the keeping, not the play
NEW_GAME = {"type": "new_game", "game": "chancellors", "settings": {"players": 3}}


def connect(vp, logbook=None):
    link = Link(vp.port, logbook=logbook)
    link.open()
    # the hello's pull at the chip's pace (hello gives its requests its wait): each pull or ack takes
    # 1-1.6 s of the board's time, several times that in wall time on the emulator, past a Pico's 5 s
    link.hello(wait=WAIT)
    return link


def play(link, seed, count):
    """`count` legal actions drawn at random (as tests/board/test_simboard.py's play), sent over the link."""
    rnd = playout.Dice(seed)
    g = engine.game_module(link.mirror.match["game"])
    for _ in range(count):
        state = link.mirror.match["state"]
        cards = list(g.card_names(state))
        move = playout._choose(rnd, state, g.legal(state, None), state["settings"]["players"], cards,
                               playout.card_ranks(cards))
        kind, body = link.act(move, wait=WAIT)
        if kind != wire.OK:
            kind, body = link.act(playout._fallback(state), wait=WAIT)
        assert kind == wire.OK, body


def test_ten_games_played_with_no_logbook_all_reach_it_at_the_next_connect(tmp_path):
    """Ten short games played one after another on the chip while no host stores anything (the
    host that plays them over the link keeps no logbook: it never pulls nor acks), then a host
    with a logbook connects: each game is in it with the entries played, and the board has let
    them all go (a second connect pulls nothing). Fails with pull_kept a no-op (one game in the
    logbook: the one under way) and with the board's ack removing nothing (the link stops: the
    board offers game 0 again after its ack)."""
    flash = str(tmp_path / "flash.img")
    image.deployed_image(flash, first={"game": "chancellors", "settings": {"players": 3}})
    book = Logbook(str(tmp_path / "book.sqlite3"))
    played = []
    with VirtualPico(flash=flash, pace="free", timeout=WAIT) as vp:
        link = connect(vp)
        for n in range(GAMES):
            play(link, 40 + n, ACTIONS)
            played.append((link.mirror.header(), [canon.encode(e) for e in link.mirror.match["entries"]]))
            kind, body = link.act(NEW_GAME, wait=WAIT)
            assert kind == wire.OK, body
        link.close()
        link = connect(vp, book)  # the hello pulls the kept games, acknowledging each once stored
        link.close()
        pulled = []
        link = connect(vp, book)
        link.on_event = lambda kind, data: pulled.append(data) if kind == KEPT else None
        assert link.pull_kept(wait=WAIT) == 0  # the board keeps none any more
        link.close()
    assert pulled == []  # nothing for the second connect
    games = book.games()
    assert len(games) == GAMES + 1 and games[0]["entries"] == 0  # the game under way (the first hello's), the ten
    for n, game in enumerate(games[1:]):
        header, entries = played[n]
        assert {k: game[k] for k in ("game", "settings", "seed", "start")} == \
            {k: header[k] for k in ("game", "settings", "seed", "start")}
        assert len(entries) == ACTIONS
        assert [canon.encode(e) for e in book.entries(game["id"])] == entries
        assert game["ended"] is not None
