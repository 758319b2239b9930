"""The other games on the simulated board, over the link, within the board's budget: random
legal play from the host until the game ends (The King's Dilemma with its sealed vote,
The Council with its reveal ballots, Yes, Your Grace); the board's digest and the host's
mirror agree at the end, and the board never runs out of memory."""

import sys

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest

from chancery.board.link import Link, LinkError
from chancery.board.simboard import SimBoard
from shared_rules import canon, engine, wire

ROOT = paths.ROOT
sys.path.insert(0, paths.MP)
import sim_play  # noqa: E402

# (game, settings, heap): the board's heap under the unix port is tests/helpers/heaps.py's (chancery sim's); its
# budget is measured on the chip (tools/chip/heap.py, docs/performance.md)
GAMES = [
    ("kings_dilemma", {"voting": "sealed", "time_counter": 4, "death_space": 4}, heaps.BOARD),
    ("the_council", {"events": 2}, heaps.BOARD),
    ("yes_your_grace", {"annals": 4}, heaps.BOARD),
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
    `chancery sim`'s heap. The old game stays in done1.jsonl."""
    board = SimBoard(data_dir=str(tmp_path / "flash"), game="chancellors", players=3, heap=heaps.BOARD,
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
