"""The other games on the simulated board, over the link, within the board's budget: random
legal play from the host until the game ends (The King's Dilemma with its sealed vote,
The Council with its reveal ballots, Yes, Your Grace); the board's digest and the host's
mirror agree at the end, and the board never runs out of memory."""

import os
import sys

import pytest

from chancery.board.link import Link, LinkError
from chancery.board.simboard import SimBoard
from shared_rules import canon, engine, wire

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "mp"))
import sim_play  # noqa: E402

# (game, settings, heap): measured (tools/bench_board.py), these boards need about 94-96K (The
# King's Dilemma's sealed vote, The Council) and 90K (Yes, Your Grace); so close to their need an action can
# take seconds of collecting on a loaded machine (The Council at 104K: a catch-up's read over 5 s with
# the suite's workers side by side), so they run at 108K (the needs are in the README's status). The King's Dilemma's game here needs 105-108K since undo
# (1.5K more of code in RAM; its last, scoring entry wants a large block): 112K. These are
# unix-port guards; the chip's own figures are tools/bench_chip.py's.
GAMES = [
    ("kings_dilemma", {"voting": "sealed", "time_counter": 4, "death_space": 4}, "112K"),
    # 104K: a catch-up's read took over 5 s of collecting with the suite in parallel; 108K failed once the table
    # had the look-ahead's hooks (firmware/ahead.py: 0.3K more of table.py on this port, and the need moved from
    # 106-108K to 108-110K); the chip's figure for this path is in the README's heap table
    ("the_council", {"events": 2}, "112K"),
    ("yes_your_grace", {"annals": 4}, "112K"),  # 96K until the printed effects (random games enter them) and undo
]


@pytest.mark.parametrize("game, settings, heap", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_game_over_the_link_within_the_boards_budget(game, settings, heap, firmware_build, micropython, tmp_path):
    players = settings.pop("players", 3)
    board = SimBoard(data_dir=str(tmp_path / "flash"), game=game, players=players, settings=settings,
                     heap=heap, micropython=micropython, code_path=[firmware_build])
    port = board.open_pty()
    g = engine.game_module(game)
    with board:
        link = Link(port)
        link.open()
        board.start()
        link.hello(wait=10.0)
        try:
            accepted = sim_play.play_to_end(link, 5)
        except (AssertionError, LinkError) as e:
            raise AssertionError("%s: %s" % (e, board.stderr_text()[-2000:]))
        state = link.mirror.match["state"]
        assert g.is_over(state) and accepted > 5, (accepted, state.get("step"))
        link.hello()
        assert link.mirror.welcome["digest"] == canon.digest(state)
        assert link.mirror.welcome["len"] == len(link.mirror.match["entries"])
        link.close()
    assert "MemoryError" not in board.stderr_text()


def test_the_host_starts_another_game_on_the_board(firmware_build, micropython, tmp_path):
    """`:new` in the mirror: the board lets the old game's code go and starts the new one, in
    `chancery sim`'s 128K (switching within one boot holds two games' strings: see the notes;
    a board booting into any game needs 96K). The old game stays in done1.jsonl."""
    board = SimBoard(data_dir=str(tmp_path / "flash"), game="chancellors", players=3, heap="128K",
                     micropython=micropython, code_path=[firmware_build])
    port = board.open_pty()
    with board:
        link = Link(port)
        link.open()
        board.start()
        link.hello(wait=10.0)
        assert link.act({"type": "roll"})[0] == wire.OK
        kind, body = link.act({"type": "new_game", "game": "yes_your_grace", "settings": {"players": 3}})
        assert kind == wire.OK, (body, board.stderr_text()[-2000:])
        assert link.mirror.welcome["game"] == "yes_your_grace" and link.mirror.match["entries"] == []
        assert link.act({"type": "next"})[0] == wire.OK
        link.close()
    assert (tmp_path / "flash" / "done1.jsonl").is_file()
