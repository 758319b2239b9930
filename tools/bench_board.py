"""Benchmark of the simulated board and the host link (reports figures; asserts nothing).

    .venv/bin/python tools/bench_board.py [--presses N]

- button-press-to-frame latency: a virtual press sent over the pty until the
  board's display frame (and its ok) is back, median and 95th percentile;
- the sustained frame rate the host ingests without loss: entry frames of
  recorded games fed through the host's frame reader, the re-play of every
  entry and the logbook, as fast as they come;
- the smallest heap with which the simulated board plays a whole 4-seat
  game, with the actions sent over the link, and with every action entered by
  virtual button presses on the board's own menus (bisection; MicroPython's GC
  is conservative, so the figures move by a kilobyte or two between runs);
- the same for each other game, 3 seats, played at random over the link to its
  end with its sealed ballots cast through the board (tests/helpers/sim_play.py): The
  King's Dilemma's sealed vote, The Council, Yes, Your Grace.
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "helpers"))
sys.path.insert(0, os.path.join(ROOT, "tests", "mp"))

import gate_harness  # noqa: E402
import playout  # noqa: E402
import sim_play  # noqa: E402
from menu_player import play_by_presses  # noqa: E402

from chancery.board import micropython as mp  # noqa: E402
from chancery.board.link import Link  # noqa: E402
from chancery.board.simboard import SimBoard  # noqa: E402
from chancery.logbook.store import Logbook  # noqa: E402
from shared_rules import engine, wire  # noqa: E402

# the other games as tests/board/test_simboard_games.py plays them
OTHER_GAMES = [
    ("kings_dilemma", {"voting": "sealed", "time_counter": 4, "death_space": 4}),
    ("the_council", {"events": 2}),
    ("yes_your_grace", {"annals": 4}),
]


def start(code, data, heap, players=4, seed=7, game="chancellors", settings=None):
    board = SimBoard(data_dir=data, game=game, players=players, seed=seed, heap=heap, code_path=[code],
                     settings=settings)
    link = Link(board.open_pty())
    link.open()
    board.start()
    link.hello(wait=10.0)
    return board, link


def press_latency(code, presses):
    with tempfile.TemporaryDirectory() as data:
        board, link = start(code, data, "128K")
        try:
            times = []
            for k in range(presses):
                t0 = time.perf_counter()
                kind, _ = link.press(5, 2 if k % 2 else 0)  # the table's encoder, left and right
                times.append(time.perf_counter() - t0)
                assert kind == wire.OK
        finally:
            link.close()
            board.stop()
    times.sort()
    return times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000


def ingest_rate(games=20):
    """Entry frames of `games` recorded play-outs through Reader, Mirror and logbook."""
    data = bytearray()
    welcomes = []
    seq = 0
    for seed in range(1, games + 1):
        match = engine.new_match("chancellors", {"players": 4}, seed)
        welcome = {"fw": "bench", "proto": wire.PROTO, "game": "chancellors", "settings": match["settings"],
                   "len": 0, "digest": match["start"], "id": "bench%d" % seed, "seed": seed, "start": match["start"]}
        welcomes.append(welcome)
        entries = []
        playout.play_game(seed, 4, False, lambda i, a, e, d: entries.append((i, a, e, d)))
        data += wire.encode(seq, wire.WELCOME, welcome).encode()
        seq += 1
        for i, act, events, digest in entries:
            data += wire.encode(seq, wire.ENTRY, {"i": i, "move": act, "events": events, "digest": digest}).encode()
            seq += 1
    with tempfile.TemporaryDirectory() as tmp:
        link = Link("bench", logbook=Logbook(os.path.join(tmp, "book.sqlite3")))
        t0 = time.perf_counter()
        count = 0
        for item in link.reader.feed(bytes(data)):
            link._handle(item)
            count += 1
        seconds = time.perf_counter() - t0
        lost = count - seq
    return count / seconds, lost, count


def smallest_heap(code, by_presses=False):
    def plays(heap):
        with tempfile.TemporaryDirectory() as data:
            try:
                board, link = start(code, data, heap)
            except Exception:
                return False
            try:
                if by_presses:
                    play_by_presses(link, 9)
                    return True
                rnd = playout.Dice(11)
                g = engine.game_module("chancellors")
                cards = list(g.card_names(link.mirror.match["state"]))
                ranks = playout.card_ranks(cards)
                while link.mirror.match["state"]["step"] != "over":
                    state = link.mirror.match["state"]
                    kind, _ = link.act(playout._choose(rnd, state, g.legal(state, None), 4, cards, ranks))
                    if kind != wire.OK:
                        kind, _ = link.act(playout._fallback(state))
                        if kind != wire.OK:
                            return False
                return True
            except Exception:
                return False
            finally:
                link.close()
                board.stop()

    return gate_harness.smallest_heap(plays, 64, 192)


def smallest_heap_of(code, game, settings):
    """The smallest heap in which the board plays `game` at random over the link to its end."""
    def plays(heap):
        with tempfile.TemporaryDirectory() as data:
            try:
                board, link = start(code, data, heap, players=3, game=game, settings=settings)
            except Exception:
                return False
            try:
                sim_play.play_to_end(link, 5)
                return engine.game_module(game).is_over(link.mirror.match["state"])
            except Exception:
                return False
            finally:
                link.close()
                board.stop()

    return gate_harness.smallest_heap(plays, 64, 192)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=200)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        code = mp.build_board(tmp)
        median, p95 = press_latency(code, args.presses)
        rate, lost, frames = ingest_rate()
        heap = smallest_heap(code)
        heap_presses = smallest_heap(code, by_presses=True)
        others = [(game, smallest_heap_of(code, game, dict(settings))) for game, settings in OTHER_GAMES]
    print("## Simulated board and link benchmark\n")
    print("| measure | value |")
    print("|---|---|")
    print("| press-to-frame latency, simulated board on a pty (%d presses) | median %.1f ms, 95%% %.1f ms |"
          % (args.presses, median, p95))
    print("| host ingest: frames/s through reader, re-play and logbook (%d frames) | %d (lost %d) |"
          % (frames, rate, lost))
    print("| smallest heap: a whole 4-seat game on the simulated board, acts over the link | %s |"
          % ("%dK" % heap if heap else "over 192K"))
    print("| smallest heap: the same by virtual button presses through the board's menus | %s |"
          % ("%dK" % heap_presses if heap_presses else "over 192K"))
    for game, heap in others:
        print("| smallest heap: %s, 3 seats, at random over the link to its end | %s |"
              % (game, "%dK" % heap if heap else "over 192K"))
    print("\nCommand: .venv/bin/python tools/bench_board.py %s" % " ".join(argv if argv is not None else sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
